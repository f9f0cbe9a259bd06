-- The benchmark's triage with imapfilter, as a careful user would write it.
-- Run: SSL_CERT_FILE=CA BENCH_IMAPS=PORT imapfilter -c imapfilter.lua
-- (imapfilter trusts OpenSSL's default store, which SSL_CERT_FILE points at the test CA.)
--
-- The server's SEARCH (contain_*) matches substrings, so it only narrows: it
-- finds graeme@example.test for me@example.test and phishing display names
-- for bank addresses. A regular expression over the fetched header field
-- (match_*) then keeps only real addresses.
options.timeout = 120
options.subscribe = false
options.create = false
-- At most 4,000 UID ranges per STORE/COPY (under 13 bytes each while UIDs have at
-- most 6 digits: under Dovecot's 64 KB command line, imap_max_line_length). Without a
-- limit the one command naming every match is longer than that at 100,000 messages;
-- Dovecot refuses it (BAD Too long argument) and imapfilter, which only logs a failed
-- action, exits 0 having done nothing. At 10,000 every set fits in one command, as before.
options.limit = 4000
options.certificates = false

account = IMAP {
  server = 'localhost',
  port = tonumber(os.getenv('BENCH_IMAPS')),
  username = 'me@example.test',
  password = 'test-password',
  ssl = 'auto',
}

local inbox = account.INBOX
-- match_* see the field's value without its name. me@example.test as a whole
-- address: bare or in angle brackets, in any case, anywhere in a folded list.
local me = '(?i)(^|[\\s<,])me@example\\.test([\\s>,]|$)'
local senders = { 'statements@mybank.example', 'alerts@mybank.example',
                  'orders@shop.example', 'receipts@bookshop.example' }

local cc = inbox:contain_cc('me@example.test')
local ccOnly = cc:match_cc(me) - cc:match_to(me)

local rec = Set {}
for _, s in ipairs(senders) do
  local re = '(?i)(<|^\\s*)' .. s:gsub('%.', '\\.') .. '(>|\\s*$)'
  rec = rec + inbox:contain_from(s):match_from(re)
end

rec:add_flags({ 'rec' })
ccOnly:add_flags({ 'nopush' })
ccOnly:move_messages(account.NoPush)

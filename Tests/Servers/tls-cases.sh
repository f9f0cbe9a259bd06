#!/usr/bin/env bash
# Certificates for the TLS table of docs/RELIABILITY.md, the same for Dovecot (IMAP)
# and the SMTP server, so both clients are tested on the same certificates.
#
#   tls-cases.sh DIR   DIR holds the test CA (ca.pem, ca.key); writes one
#                      NAME.pem (the chain the server sends, leaf first) and
#                      NAME.key per case, and DIR/tls-cases, one line per case:
#                      NAME ADDRESS  (the loopback address the case listens on)
#
# case            address      what the server presents                     right answer
# selfsigned      127.0.0.6    a self-signed certificate for the address    refuse
# notca           127.0.0.7    leaf + intermediate whose basicConstraints   refuse
#                              say CA:FALSE
# nointermediate  127.0.0.8    leaf from an intermediate CA, without it     refuse
# intermediate    127.0.0.9    the same leaf with its intermediate          accept (control)
# clientauth      127.0.0.10   extended key usage clientAuth only           refuse
# ipasdns         127.0.0.11   the address as a DNS name (DNS:127.0.0.11)   refuse by address
# iponly          127.0.0.12   the address as an IP entry only              accept by address,
#                                                                           refuse by a name
# wildcard        127.0.0.13   DNS:*.wild.triage.test                       accept one label,
#                                                                           refuse two
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 64; }
# shellcheck source=test-ca.sh
. "$(dirname "${BASH_SOURCE[0]}")/test-ca.sh"
cd "$1"
not_ca_ext=$'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,keyCertSign,cRLSign'

: >tls-cases.tmp
case_line() { echo "$1 $2" >>tls-cases.tmp; }

# selfsigned: its own issuer, in nobody's trust store.
openssl req -x509 "${cert_key[@]}" -keyout selfsigned.key -out selfsigned.pem -days 2 -subj "/CN=selfsigned" \
  -addext "subjectAltName=DNS:localhost,IP:127.0.0.6" -addext "extendedKeyUsage=serverAuth" 2>/dev/null
case_line selfsigned 127.0.0.6

# notca: the test CA signed an intermediate that is not a CA, which signed the leaf.
sign notca-issuer ca "$not_ca_ext"
cp notca-issuer.crt notca-issuer.pem
sign notca notca-issuer "$(server_ext DNS:localhost,IP:127.0.0.7)"
cat notca.crt notca-issuer.crt >notca.pem
case_line notca 127.0.0.7

# intermediate / nointermediate: the same leaf from a proper intermediate CA,
# sent with and without it.
sign issuing-ca ca "$ca_ext"
cp issuing-ca.crt issuing-ca.pem
sign intermediate issuing-ca "$(server_ext DNS:localhost,IP:127.0.0.8,IP:127.0.0.9)"
cat intermediate.crt issuing-ca.crt >intermediate.pem
cp intermediate.crt nointermediate.pem
cp intermediate.key nointermediate.key
case_line nointermediate 127.0.0.8
case_line intermediate 127.0.0.9

leaf clientauth ca DNS:localhost,IP:127.0.0.10 2 clientAuth
case_line clientauth 127.0.0.10

leaf ipasdns ca DNS:127.0.0.11
case_line ipasdns 127.0.0.11

leaf iponly ca IP:127.0.0.12
case_line iponly 127.0.0.12

leaf wildcard ca 'DNS:*.wild.triage.test'
case_line wildcard 127.0.0.13

rm -f ./*.crt ./*.srl
chmod 600 ./*.key
mv tls-cases.tmp tls-cases

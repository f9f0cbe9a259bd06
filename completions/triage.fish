# fish completion for triage(1); installed as share/fish/vendor_completions.d/triage.fish.
#
# Commands, options, account names, queue names and the short ids of open (for
# reopen: done) records come from triage itself, through its hidden listing flag:
#   triage --complete commands | options COMMAND | sections | accounts | queues
#                   | ids queue|remind [open|done] | ids unsubscribe | ids snooze   [--config FILE]
# A --config FILE on the command line is passed on.

function __triage_list
    set -l words (commandline -opc)
    set -l config
    for i in (seq (count $words))
        if test "$words[$i]" = --config; and test $i -lt (count $words)
            set config --config $words[(math $i + 1)]
        else if string match -q -- '--config=*' $words[$i]
            set config --config (string replace -- '--config=' '' $words[$i])
        end
    end
    command $words[1] --complete $argv $config 2>/dev/null
end

# The command and the positional words after it, without options and their values.
function __triage_words
    set -l words (commandline -opc)
    set -l skip 0
    for word in $words[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        switch $word
            case --config --output --account --mailbox --date --since --days --now --batch-size --plan --me --url --user --password-command --digest-to --hour --smtp
                set skip 1
            case '-*'
            case '*'
                echo $word
        end
    end
end

function __triage_needs_command
    test (count (__triage_words)) -eq 0
end

# True when the words are exactly: COMMAND [VERB...] as given.
function __triage_at
    set -l words (__triage_words)
    test (count $words) -eq (count $argv); or return 1
    for i in (seq (count $argv))
        test "$argv[$i]" = '*'; or test "$words[$i]" = "$argv[$i]"; or return 1
    end
end

function __triage_options
    set -l words (__triage_words)
    __triage_list options $words[1]
end

complete -c triage -f
complete -c triage -n __triage_needs_command -l help -d 'list the commands'
complete -c triage -n __triage_needs_command -l version -d 'print the version'
complete -c triage -n __triage_needs_command -a '(__triage_list commands)'
complete -c triage -n 'not __triage_needs_command; and string match -q -- "-*" (commandline -ct)' -a '(__triage_options)'
complete -c triage -n 'not __triage_needs_command' -l config -r -F -d 'the configuration'
complete -c triage -n 'not __triage_needs_command' -l output -r -F -d 'write to FILE'
complete -c triage -n 'not __triage_needs_command' -l account -x -a '(__triage_list accounts)' -d 'only this account'
complete -c triage -n '__triage_at help' -a '(__triage_list commands)'
complete -c triage -n '__triage_at queue' -a 'list done reopen remove'
complete -c triage -n '__triage_at queue' -a '(__triage_list queues)' -d queue
complete -c triage -n '__triage_at queue list' -a '(__triage_list queues)' -d queue
complete -c triage -n '__triage_at remind' -a 'list add done reopen remove'
complete -c triage -n '__triage_at queue done; or __triage_at queue remove; or __triage_at queue done "*"; or __triage_at queue remove "*"' -a '(__triage_list ids queue open)' -d 'open entry'
complete -c triage -n '__triage_at queue reopen; or __triage_at queue reopen "*"' -a '(__triage_list ids queue done)' -d 'done entry'
complete -c triage -n '__triage_at remind done; or __triage_at remind remove; or __triage_at remind done "*"; or __triage_at remind remove "*"' -a '(__triage_list ids remind open)' -d 'open reminder'
complete -c triage -n '__triage_at remind reopen; or __triage_at remind reopen "*"' -a '(__triage_list ids remind done)' -d 'done reminder'
complete -c triage -n '__triage_at snooze' -a 'list wake'
complete -c triage -n '__triage_at snooze wake; or __triage_at snooze wake "*"' -a '(__triage_list ids snooze)' -d 'snoozed message'
complete -c triage -n '__triage_at export' -a 'ics sieve gmail-filters'
complete -c triage -n '__triage_at deploy' -a sieve
complete -c triage -n '__triage_at unsubscribe' -a '(__triage_list ids unsubscribe)' -d 'digest entry with a list'
complete -c triage -n '__triage_at test "*"; or __triage_at test; or __triage_at inspect; or __triage_at inspect "*"' -F

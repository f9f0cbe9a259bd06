# bash completion for triage(1); installed as share/bash-completion/completions/triage.
#
# Commands, options, account names, queue names and the short ids of open (for
# reopen: done) records come from triage itself, through its hidden listing flag:
#   triage --complete commands | options COMMAND | sections | accounts | queues
#                   | ids queue|remind [open|done] | ids snooze   [--config FILE]
# so the completion follows the installed version, the configuration and the
# store. A --config FILE on the command line is passed on.

_triage_list() {
    # $1...: what to list. Errors (no configuration yet) complete nothing.
    local cmd=${COMP_WORDS[0]:-triage}
    [[ $cmd == "~/"* ]] && cmd=$HOME/${cmd#"~/"}
    "$cmd" --complete "$@" "${_triage_config[@]}" 2>/dev/null
}

_triage_offer() {
    # Offers the lines of $1 that start with $cur.
    local IFS=$'\n'
    COMPREPLY+=($(compgen -W "$1" -- "$cur"))
}

_triage() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=""
    [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}
    # bash splits --config=FILE at the '=' (COMP_WORDBREAKS) into --config, =, FILE:
    # right after the '=' the option is prev already; after FILE it is two words back.
    if [ "$cur" = "=" ]; then
        cur=""
    elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -gt 1 ]; then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    fi
    COMPREPLY=()

    # The command, its positional words before the cursor, and --config.
    local command="" i word skip=0
    local -a positional=() _triage_config=()
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if [ "$skip" = 1 ]; then skip=0; [ "$word" = "=" ] && skip=1; continue; fi
        case "$word" in
            --config)
                if [ "${COMP_WORDS[i+1]}" = "=" ]; then
                    _triage_config=(--config "${COMP_WORDS[i+2]}")
                else
                    _triage_config=(--config "${COMP_WORDS[i+1]}")
                fi
                skip=1 ;;
            --config=*) _triage_config=(--config "${word#--config=}") ;;
            --output|--account|--mailbox|--date|--since|--days|--now|--batch-size|--plan|--me|--url|--user|--password-command|--digest-to|--hour|--smtp) skip=1 ;;
            -*) ;;
            *) if [ -z "$command" ]; then command=$word; else positional+=("$word"); fi ;;
        esac
    done

    # The value of an option.
    case "$prev" in
        --config|--output)
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -f -- "$cur"))
            return 0 ;;
        --account)
            _triage_offer "$(_triage_list accounts)"
            return 0 ;;
        --mailbox|--date|--since|--days|--now|--batch-size|--plan|--me|--url|--user|--password-command|--digest-to|--hour|--smtp)
            return 0 ;;
    esac

    if [ -z "$command" ]; then
        if [[ $cur == -* ]]; then
            _triage_offer $'--help\n--version'
        else
            _triage_offer "$(_triage_list commands)"
        fi
        return 0
    fi
    if [[ $cur == -* ]]; then
        _triage_offer "$(_triage_list options "$command")"
        return 0
    fi

    local verb=${positional[0]:-}
    case "$command" in
        help)
            [ ${#positional[@]} -eq 0 ] && _triage_offer "$(_triage_list commands)" ;;
        queue|remind)
            if [ -z "$verb" ]; then
                if [ "$command" = queue ]; then
                    _triage_offer $'list\ndone\nreopen\nremove'
                    _triage_offer "$(_triage_list queues)"
                else
                    _triage_offer $'list\nadd\ndone\nreopen\nremove'
                fi
            else
                case "$verb" in
                    done|remove) _triage_offer "$(_triage_list ids "$command" open)" ;;
                    reopen) _triage_offer "$(_triage_list ids "$command" done)" ;;
                    list) [ "$command" = queue ] && [ ${#positional[@]} -eq 1 ] && _triage_offer "$(_triage_list queues)" ;;
                esac
            fi ;;
        unsubscribe)
            [ ${#positional[@]} -eq 0 ] && _triage_offer "$(_triage_list ids unsubscribe)" ;;
        snooze)
            if [ -z "$verb" ]; then
                _triage_offer $'list\nwake'
            elif [ "$verb" = wake ]; then
                _triage_offer "$(_triage_list ids snooze)"
            fi ;;
        export)
            [ -z "$verb" ] && _triage_offer $'ics\nsieve\ngmail-filters' ;;
        deploy)
            [ -z "$verb" ] && _triage_offer 'sieve' ;;
        test|inspect)
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
    return 0
}
complete -F _triage triage

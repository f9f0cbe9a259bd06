#ifndef TRIAGE_CCHILDGROUP_H
#define TRIAGE_CCHILDGROUP_H
// While triage waits for a command it started in its own process group
// (password_command, oauth2_token_command), SIGTERM, SIGINT and SIGHUP must
// take that group down too: the group does not get the terminal's signals,
// and a killed triage would otherwise leave the command running. A signal
// handler has to be async-signal-safe, so it lives here in C.
#include <sys/types.h>

/// Starts guarding `group`: on SIGTERM, SIGINT or SIGHUP the whole process
/// group is sent SIGKILL, then the signal is re-raised with its previous
/// handler (the default one ends triage with that signal).
void triage_child_group_guard(pid_t group);

/// Stops guarding and restores the previous handlers.
void triage_child_group_release(void);

#endif

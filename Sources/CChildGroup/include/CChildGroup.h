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

// `triage watch`: SIGTERM and SIGINT ask it to finish the current batch and exit.
// The handler only notes the request and writes a byte to a pipe, so a wait in
// poll() wakes at once; both are async-signal-safe.

// The two signals stay blocked except inside `triage_stop_wait`, so they never
// interrupt a read or write of a batch half-way (libetpan would take the EINTR for
// a lost connection); a signal that arrives meanwhile waits, and is seen by
// `triage_stop_requested` and the next wait.
#include <poll.h>

/// Installs the handler for SIGTERM and SIGINT and blocks both in the calling
/// thread (call it before starting any thread); returns 0, or -1 when it cannot.
int triage_stop_install(void);

/// Whether SIGTERM or SIGINT arrived (handled or still pending) since `triage_stop_install`.
int triage_stop_requested(void);

/// poll() on `fds` for up to `timeout_ms` (-1: no limit) with SIGTERM and SIGINT
/// let through; returns at once when one of them arrives. Returns poll()'s result
/// (-1 with EINTR after a signal).
int triage_stop_wait(struct pollfd *fds, nfds_t count, int timeout_ms);

#endif

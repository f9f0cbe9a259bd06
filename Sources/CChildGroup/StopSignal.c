#define _GNU_SOURCE
#include "CChildGroup.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t stop_requested = 0;

static void note_stop(int signo) {
    (void)signo;
    stop_requested = 1;
}

static void stop_signals(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGINT);
}

int triage_stop_install(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = note_stop;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGTERM, &action, NULL) != 0 || sigaction(SIGINT, &action, NULL) != 0) return -1;
    sigset_t set;
    stop_signals(&set);
    return pthread_sigmask(SIG_BLOCK, &set, NULL) == 0 ? 0 : -1;
}

int triage_stop_requested(void) {
    if (stop_requested) return 1;
    sigset_t pending;
    sigemptyset(&pending);
    if (sigpending(&pending) != 0) return 0;
    return sigismember(&pending, SIGTERM) == 1 || sigismember(&pending, SIGINT) == 1;
}

int triage_stop_wait(struct pollfd *fds, nfds_t count, int timeout_ms) {
    // The thread's mask without the two signals: ppoll lets them in only while it waits.
    sigset_t during;
    pthread_sigmask(SIG_BLOCK, NULL, &during);
    sigdelset(&during, SIGTERM);
    sigdelset(&during, SIGINT);
    if (stop_requested) return 0;
    struct timespec limit, *plimit = NULL;
    if (timeout_ms >= 0) {
        limit.tv_sec = timeout_ms / 1000;
        limit.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
        plimit = &limit;
    }
    return ppoll(fds, count, plimit, &during);
}

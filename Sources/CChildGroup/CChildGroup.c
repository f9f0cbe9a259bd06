#include "CChildGroup.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t guarded_group = 0;
static const int guarded_signals[] = {SIGTERM, SIGINT, SIGHUP};
#define GUARDED_COUNT (sizeof guarded_signals / sizeof guarded_signals[0])
static struct sigaction previous[GUARDED_COUNT];
static int installed[GUARDED_COUNT];

static void kill_group_and_reraise(int signo) {
    pid_t group = (pid_t)guarded_group;
    if (group > 0) kill(-group, SIGKILL);
    // Hand the signal to whatever was there before (normally: terminate).
    for (unsigned i = 0; i < GUARDED_COUNT; i++) {
        if (guarded_signals[i] == signo) sigaction(signo, &previous[i], NULL);
    }
    raise(signo);
}

void triage_child_group_guard(pid_t group) {
    guarded_group = (sig_atomic_t)group;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = kill_group_and_reraise;
    sigemptyset(&action.sa_mask);
    for (unsigned i = 0; i < GUARDED_COUNT; i++) {
        installed[i] = 0;
        if (sigaction(guarded_signals[i], NULL, &previous[i]) != 0) continue;
        // A signal triage ignores (SIGHUP under nohup) leaves the command alone too.
        if (previous[i].sa_handler == SIG_IGN) continue;
        installed[i] = sigaction(guarded_signals[i], &action, NULL) == 0;
    }
}

void triage_child_group_release(void) {
    for (unsigned i = 0; i < GUARDED_COUNT; i++) {
        if (installed[i]) sigaction(guarded_signals[i], &previous[i], NULL);
        installed[i] = 0;
    }
    guarded_group = 0;
}

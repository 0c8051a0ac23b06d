/*
 * signals.c — SIGINT/SIGTERM set a flag the sweep checks between points.
 * Plain C, POSIX sigaction.
 * SA_RESETHAND: the first signal is a request to finish cleanly, the second one is final.
 */
#include "signals.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t pending;

static void on_signal(int sig)
{
	pending = sig;
}

void signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int signals_pending(void)
{
	return pending;
}

/*
 * signals.c — SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE set a flag the sweep checks between
 * points.  Plain C, POSIX sigaction.
 * SA_RESETHAND: the first signal is a request to finish cleanly, the second one is final.
 * SIGPIPE is the exception: it comes back on every write to a closed pipe (a `| head -1` on the
 * progress), so it stays caught, those writes fail with EPIPE and the point in hand still ends.
 */
#include "signals.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t pending;

static void on_signal(int sig)
{
	if (!pending)
		pending = sig;
}

void signals_install(void)
{
	static const int stop[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof stop / sizeof stop[0]; i++)
		sigaction(stop[i], &sa, NULL);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGPIPE, &sa, NULL);
}

int signals_pending(void)
{
	return pending;
}

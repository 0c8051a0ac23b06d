/*
 * signals.c — SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE set a flag the sweep checks between
 * points.  Plain C, POSIX sigaction.
 * SA_RESETHAND: the first signal is a request to finish cleanly, the second one is final.
 * SIGPIPE is the exception: it comes back on every write to a closed pipe (a `| head -1` on the
 * progress), so it stays caught, those writes fail with EPIPE and the point in hand still ends;
 * and it is caught from the start but asks for a stop only once a point is whole, so a reader
 * that leaves after the first note never costs the run its files.
 */
#include "signals.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t pending;
/* SIGPIPE came (pipe_closed); it is a stop request only once a point is whole (pipe_armed) */
static volatile sig_atomic_t pipe_closed, pipe_armed;

static void on_signal(int sig)
{
	if (sig == SIGPIPE) {
		pipe_closed = 1;
		if (!pipe_armed)
			return;
	}
	if (!pending)
		pending = sig;
}

void signals_catch_pipe(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
}

void signals_pipe_arm(void)
{
	pipe_armed = 1;
	if (pipe_closed && !pending)
		pending = SIGPIPE;
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
	signals_catch_pipe();
}

int signals_pending(void)
{
	return pending;
}

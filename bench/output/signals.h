/*
 * signals.h — graceful stop on SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE: the running point
 * finishes, the files complete, and the exit status is 128 + the signal (130, 143, 129, 131, 141).
 * Plain C, POSIX signals.
 * A second signal (other than SIGPIPE) takes the default action, so a stuck run can still be
 * killed.
 */
#ifndef STOREBENCH_SIGNALS_H
#define STOREBENCH_SIGNALS_H

/* Install the handlers. */
void signals_install(void);

/* The signal that asked us to stop, 0 if none. */
int signals_pending(void);

/* Catch SIGPIPE now (the first thing run does): a reader gone before the files exist makes
 * writes fail with EPIPE instead of killing the process, and no stop request yet. */
void signals_catch_pipe(void);

/* A point is whole: from now on SIGPIPE (one that came already, too) is a stop request. */
void signals_pipe_arm(void);

#endif

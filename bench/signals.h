/*
 * signals.h — graceful stop on SIGINT/SIGTERM: the running point finishes, the files complete.
 * Plain C, POSIX signals.
 * A second signal takes the default action, so a stuck run can still be killed.
 */
#ifndef STOREBENCH_SIGNALS_H
#define STOREBENCH_SIGNALS_H

/* Install the handlers. */
void signals_install(void);

/* The signal that asked us to stop, 0 if none. */
int signals_pending(void);

#endif

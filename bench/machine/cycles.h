/*
 * cycles.h — per-thread core cycle counting through perf_event_open.
 * Linux only.  Many VMs and locked-down hosts expose no PMU or forbid counting; then the CSV
 * column stays empty and the reason goes to the metadata, never a made-up number.
 */
#ifndef STOREBENCH_CYCLES_H
#define STOREBENCH_CYCLES_H

#include <stddef.h>
#include <stdint.h>

/* A user-space cycles counter for the calling thread, or -1 with the reason in why. */
int cycles_open(char *why, size_t len);

/* Current count of fd (0 when the read fails). */
uint64_t cycles_read(int fd);

#endif

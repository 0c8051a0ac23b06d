/*
 * machine.h — the machine a command describes: this one, or one replayed from an hwloc XML topology
 * and/or a raw CPUID dump.  Plain C, no ISA.  One loader for info, list and run, so CPU identity,
 * caches and topology always come from the same source, and a replayed machine is never measured.
 */
#ifndef STOREBENCH_MACHINE_H
#define STOREBENCH_MACHINE_H

#include <stdbool.h>
#include <stddef.h>

#include "cpu.h"
#include "levels_file.h"
#include "topology.h"

struct machine {
	struct cpu_info cpu;	   /* identity, ISA and caches (with the topology's sharing) */
	struct topology *topo;	   /* NULL when only a CPUID dump is replayed */
	const char *topology_file; /* replay sources (--topology or HWLOC_XMLFILE, --cpuid) */
	const char *cpuid_file;	   /* both NULL: this machine */
	struct levels_file levels; /* its measured cache levels (none: n = 0), loaded by the
				    * command that uses them (run's --levels) */
};

/*
 * Read --topology FILE / --cpuid FILE (or --opt=FILE) at argv[*i] into m's sources, advancing *i
 * past a separate value.  1: consumed; 0: not one of them; -1: value missing (one line on stderr).
 */
int machine_option(const char *cmd, int argc, char **argv, int *i, struct machine *m);

/* The same from a command line read already (run --dry-run): the values of --topology and
 * --cpuid, NULL when not given.  0, or -1 after one stderr line for an empty one. */
int machine_replay(const char *cmd, const char *topology, const char *cpuid, struct machine *m);

/*
 * Load the machine m's sources name (HWLOC_XMLFILE counts as --topology).  0, or 2 after one
 * stderr line naming the option and file (unreadable, not a topology / CPUID dump).
 */
int machine_load(struct machine *m, const char *cmd);
void machine_free(struct machine *m);

/* "no", or what is replayed: "topology:FILE cpuid:FILE" (either part alone). */
void machine_replayed(const struct machine *m, char *buf, size_t len);

/*
 * storebench run measures only the machine it runs on: true, after one stderr line, when the
 * command line gave --topology or --cpuid (their values, NULL when not) or an hwloc variable
 * that loads another topology is set (HWLOC_XMLFILE, HWLOC_SYNTHETIC, HWLOC_FSROOT,
 * HWLOC_CPUID_PATH, HWLOC_COMPONENTS, HWLOC_THISSYSTEM).
 */
bool machine_refuse_replay(const char *cmd, const char *topology, const char *cpuid);

#endif

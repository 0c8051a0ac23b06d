/*
 * replay_genoa.h — the replayed 2-socket Genoa (tests/fixtures/machines) that the sweep and CSV
 * unit tests build their points on: 192 cores, 24 L3 domains, so a rule that holds only on a
 * 2-CPU guest shows.  Plain C; header only, for the test programs.
 */
#ifndef STOREBENCH_REPLAY_GENOA_H
#define STOREBENCH_REPLAY_GENOA_H

#include <stdio.h>

#include "machine.h"

/*
 * Load the Genoa fixture from the fixtures folder named by the program's one argument into m;
 * the paths live in static storage, as m keeps pointers to them.  Returns 0, or the exit status
 * the program should end with (2: usage, 1: the machine did not load), having said why.
 */
static inline int replay_genoa(struct machine *m, int argc, char **argv, const char *prog)
{
	static char topo[4096], cpuid[4096];

	if (argc < 2) {
		fprintf(stderr, "usage: %s FIXTURES_MACHINES\n", prog);
		return 2;
	}
	snprintf(topo, sizeof topo, "%s/topology/genoa-2s-epyc-9654.xml", argv[1]);
	snprintf(cpuid, sizeof cpuid, "%s/cpuid/amd-epyc-9654-96-core-processor-dual.test", argv[1]);
	m->topology_file = topo;
	m->cpuid_file = cpuid;
	return machine_load(m, prog) ? 1 : 0;
}

#endif

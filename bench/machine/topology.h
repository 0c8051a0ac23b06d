/*
 * topology.h — packages, NUMA nodes (with memory), caches, cores and SMT threads, from hwloc.
 * Plain C, no ISA; hwloc stays inside topology.c.  This machine or a replayed one (hwloc XML) is
 * read into flat tables, so placement and shares work alike on a 2-vCPU VM and a 2S server.
 */
#ifndef STOREBENCH_TOPOLOGY_H
#define STOREBENCH_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

/* The caches kept; shares are computed for the data/unified ones, TOPO_L1D..TOPO_L3. */
enum topo_cache_kind { TOPO_L1D, TOPO_L2, TOPO_L3, TOPO_L1I, TOPO_KINDS };
#define TOPO_SHARE_KINDS 3

struct topo_cache {
	size_t size_bytes;	/* this instance (hybrid parts have several sizes per level) */
	unsigned pus, cores;	/* PUs and cores it serves, allowed or not */
};

struct topo_level {
	unsigned level;		/* 1, 2, 3 */
	const char *type;	/* "Data", "Unified" or "Instruction" (sysfs spelling) */
	size_t count;		/* instances, 0 when the machine has no such cache */
	struct topo_cache *inst;
};

struct topo_pu {
	unsigned os;		/* OS CPU number (sched_setaffinity, --placement cpus:) */
	unsigned package, core;	/* dense indices in hwloc's logical (tree) order */
	int node;		/* OS number of its NUMA node, -1 when none is known */
	int cache[TOPO_KINDS];	/* its instance of each cache kind, -1 when none */
	unsigned smt;		/* 0 for the first PU of its core, 1 for the next sibling, ... */
	bool allowed;		/* this process may run here (replayed: the XML's allowed set) */
	unsigned spread;	/* position in the spread order among allowed PUs */
	unsigned compact;	/* position in the compact order among allowed PUs */
};

struct topo_node {
	unsigned os;		/* the OS's node number, as libnuma and mbind use it */
	unsigned long long memory_bytes; /* local memory, 0 when the source does not say */
	unsigned pus;		/* PUs local to it; 0 for a memory-only node (CXL, HBM flat mode) */
};

/* What the source says the CPU is (hwloc's Package infos); empty/zero when it does not. */
struct topo_identity {
	char vendor[16];
	char model_name[64];
	int family, model, stepping; /* -1 when absent */
};

struct topology {
	size_t npus;
	struct topo_pu *pu;	/* every PU, in OS number order */
	size_t nnodes;
	struct topo_node *node;	/* in OS number order */
	unsigned packages, cores;
	unsigned smt_width;	/* most PUs on one core */
	unsigned allowed_pus;
	struct topo_level cache[TOPO_KINDS];
	struct topo_identity id;
	const char *cache_source; /* "sysfs" or "cpuid" (this machine), "xml" (replayed) */
	char backend[32];	/* how hwloc got it: "Linux", "x86", "Synthetic", ... */
	char *source;		/* the XML file replayed, NULL for this machine */
};

/*
 * This machine (xml NULL; hwloc's HWLOC_XMLFILE still applies and then sets source), or the hwloc
 * XML file xml.  NULL with err set when hwloc cannot read it.
 */
struct topology *topology_load(const char *xml, char *err, size_t errlen);
void topology_free(struct topology *t);

/* The PU with OS number os, NULL when the machine has none. */
const struct topo_pu *topology_pu(const struct topology *t, unsigned os);

/* The node with OS number os, NULL when the machine has none. */
const struct topo_node *topology_node(const struct topology *t, unsigned os);

#endif

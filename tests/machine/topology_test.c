/*
 * topology_test.c — topology, placement orders and cache shares on every fixture machine (hwloc
 * XML), on a synthetic machine beyond 1024 CPUs, and on this machine.  Plain C, no ISA.  Expected
 * counts and sizes come from tests/fixtures/machines/README.md and the XML files' own attributes.
 */
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "placement.h"
#include "shares.h"
#include "test_util.h"
#include "topology.h"

#define MiB (1ull << 20)

/* One fixture: what its README row and XML say. */
struct expect {
	const char *name;
	unsigned pus, cores, packages, nodes, l3s, smt;
	size_t l3_bytes;
	unsigned long long memory_bytes; /* all nodes together, 0: the XML has no memory sizes */
};

static const struct expect machines[] = {
	{ "spr-2s-xeon-max-9460", 160, 80, 2, 1, 2, 2, 102236160, 0 }, /* 97.5 MiB per package */
	{ "genoa-2s-epyc-9654", 384, 192, 2, 1, 24, 2, 32 * MiB, 0 },
	{ "milan-2s-epyc-7763", 128, 128, 2, 1, 16, 1, 32 * MiB, 0 },
	{ "cascadelake-2s-snc2", 80, 40, 2, 4, 2, 2, 28835840,
	  397816131584ull + 399526719488ull + 399527772160ull + 399527780352ull },
	{ "synthetic-gnr-2s-snc3", 384, 192, 2, 6, 2, 2, 480000000, 6 * 128000000000ull },
	{ "synthetic-turin-2s-nps1", 512, 256, 2, 2, 32, 2, 32000000, 2 * 768000000000ull },
	{ "synthetic-turin-2s-nps4", 512, 256, 2, 8, 32, 2, 32000000, 8 * 192000000000ull },
};

static int node_index(const struct topology *t, const struct topo_pu *pu)
{
	const struct topo_node *n = topology_node(t, (unsigned)pu->node);

	return n ? (int)(n - t->node) : -1;
}

static int l3_index(const struct topology *t, const struct topo_pu *pu)
{
	(void)t;
	return pu->cache[TOPO_L3];
}

static int package_index(const struct topology *t, const struct topo_pu *pu)
{
	(void)t;
	return (int)pu->package;
}

/*
 * Spread over one kind of domain: at every prefix of the first-PU-of-core part, the threads per
 * domain differ by at most one, so every domain is used before any is used twice.
 */
static void check_spread_balance(const struct topology *t, const struct placement *pl, const char *what,
				 size_t ndomains, int (*domain)(const struct topology *, const struct topo_pu *))
{
	unsigned *n = calloc(ndomains, sizeof *n);
	size_t cores_seen = 0;

	for (size_t i = 0; i < pl->ncpus && n; i++) {
		const struct topo_pu *pu = topology_pu(t, (unsigned)pl->cpu[i]);
		unsigned lo = ~0u, hi = 0;

		if (pu->smt)
			break;
		cores_seen++;
		n[domain(t, pu)]++;
		for (size_t d = 0; d < ndomains; d++) {
			lo = n[d] < lo ? n[d] : lo;
			hi = n[d] > hi ? n[d] : hi;
		}
		if (hi - lo > 1) {
			CHECK(0, "%s: spread reuses a %s at thread %zu before using them all", t->source,
			      what, i);
			break;
		}
	}
	CHECK(cores_seen == t->cores, "%s: spread put an SMT sibling before core %zu of %u", t->source,
	      cores_seen, t->cores);
	free(n);
}

/* Compact over one kind of domain: among first PUs of cores, a domain once left is never revisited. */
static void check_compact_runs(const struct topology *t, const struct placement *pl, const char *what,
			       size_t ndomains, int (*domain)(const struct topology *, const struct topo_pu *))
{
	bool *left = calloc(ndomains, sizeof *left);
	int cur = -1;
	size_t i = 0;

	for (; i < pl->ncpus && left; i++) {
		const struct topo_pu *pu = topology_pu(t, (unsigned)pl->cpu[i]);
		int d = domain(t, pu);

		if (pu->smt)
			break;
		if (d != cur) {
			CHECK(!left[d], "%s: compact returns to %s %d at thread %zu", t->source, what, d, i);
			if (cur >= 0)
				left[cur] = true;
			cur = d;
		}
	}
	CHECK(i == t->cores, "%s: compact put an SMT sibling before core %zu of %u", t->source, i,
	      t->cores);
	for (; i < pl->ncpus; i++)
		CHECK(topology_pu(t, (unsigned)pl->cpu[i])->smt, "%s: a first PU after SMT siblings",
		      t->source);
	free(left);
}

static void check_permutation(const struct topology *t, const struct placement *pl)
{
	bool *seen = calloc(t->npus, sizeof *seen);

	CHECK(pl->ncpus == t->allowed_pus, "%s %s: %zu CPUs of %u", t->source, pl->spec, pl->ncpus,
	      t->allowed_pus);
	for (size_t i = 0; i < pl->ncpus && seen; i++) {
		const struct topo_pu *pu = topology_pu(t, (unsigned)pl->cpu[i]);

		CHECK(pu && pu->allowed && !seen[pu - t->pu], "%s %s: CPU %d missing, disallowed or twice",
		      t->source, pl->spec, pl->cpu[i]);
		if (pu) {
			seen[pu - t->pu] = true;
			CHECK(pl->node[i] == (pu->node < 0 ? 0 : pu->node), "%s: node of CPU %d",
			      t->source, pl->cpu[i]);
		}
	}
	free(seen);
}

/* The thread set of t threads under spec, checked against the per-thread shares it summarises. */
static struct thread_set threads_of(const struct topology *t, const char *spec, unsigned threads,
				    struct placement *pl)
{
	struct thread_set ts;
	char err[256];

	CHECK(placement_order(t, spec, pl, err, sizeof err), "%s %s: %s", t->source, spec, err);
	CHECK(thread_set_of(t, pl, threads, &ts, err, sizeof err), "%s %s %u: %s", t->source, spec,
	      threads, err);
	for (int k = 0; k < TOPO_SHARE_KINDS; k++)
		for (unsigned i = 0; i < ts.threads; i++) {
			size_t s = thread_share_bytes(t, &ts, k, i);

			CHECK(!t->cache[k].count || (s >= ts.cache[k].share_min_bytes &&
						     s <= ts.cache[k].share_max_bytes),
			      "%s: thread %u's L%u share %zu outside [%zu, %zu]", t->source, i,
			      ts.cache[k].level, s, ts.cache[k].share_min_bytes, ts.cache[k].share_max_bytes);
		}
	return ts;
}

static void expect_l3(const struct topology *t, const char *spec, unsigned threads, unsigned domains,
		      unsigned nodes, size_t share_min, size_t share_max)
{
	struct placement pl;
	struct thread_set ts = threads_of(t, spec, threads, &pl);
	const struct cache_share *l3 = &ts.cache[TOPO_L3];

	CHECK(l3->domains == domains && ts.nodes == nodes && l3->share_min_bytes == share_min &&
		      l3->share_max_bytes == share_max,
	      "%s %s %u threads: %u L3 domains, %u nodes, L3 share %zu..%zu; want %u, %u, %zu..%zu",
	      t->source, spec, threads, l3->domains, ts.nodes, l3->share_min_bytes,
	      l3->share_max_bytes, domains, nodes, share_min, share_max);
	CHECK(l3->aggregate_bytes == (unsigned long long)domains * t->cache[TOPO_L3].inst[0].size_bytes,
	      "%s %s %u threads: aggregate L3 %llu", t->source, spec, threads, l3->aggregate_bytes);
	placement_free(&pl);
}

static void expect_memory(const struct topology *t, const char *spec, unsigned threads,
			  unsigned long long want)
{
	struct placement pl;
	struct thread_set ts = threads_of(t, spec, threads, &pl);

	CHECK(ts.node_memory_bytes == want, "%s %s %u threads: node memory %llu, want %llu", t->source,
	      spec, threads, ts.node_memory_bytes, want);
	placement_free(&pl);
}

static void check_orders(const struct topology *t)
{
	struct placement spread, compact;
	char err[256];

	CHECK(placement_order(t, "spread", &spread, err, sizeof err), "%s", err);
	CHECK(placement_order(t, "compact", &compact, err, sizeof err), "%s", err);
	check_permutation(t, &spread);
	check_permutation(t, &compact);
	check_spread_balance(t, &spread, "package", t->packages, package_index);
	check_spread_balance(t, &spread, "NUMA node", t->nnodes, node_index);
	check_spread_balance(t, &spread, "L3 domain", t->cache[TOPO_L3].count, l3_index);
	check_compact_runs(t, &compact, "L3 domain", t->cache[TOPO_L3].count, l3_index);
	check_compact_runs(t, &compact, "NUMA node", t->nnodes, node_index);
	placement_free(&spread);
	placement_free(&compact);
}

/* pu's relation to w holds: the helper CPU of placement_near for where (-1 when none is asked). */
static void expect_near(const struct topology *t, const struct placement *pl, size_t writers,
			enum near where, bool exists)
{
	int cpu = placement_near(t, pl->cpu, writers, where);
	const struct topo_pu *pu = cpu >= 0 ? topology_pu(t, (unsigned)cpu) : NULL;
	const struct topo_pu *w = topology_pu(t, (unsigned)pl->cpu[0]);

	CHECK((cpu >= 0) == exists, "%s, %zu writers: %s is %d, want %s", t->source, writers,
	      near_name[where], cpu, exists ? "a CPU" : "none");
	if (!pu || !w)
		return;
	for (size_t i = 0; i < writers; i++) {
		const struct topo_pu *x = topology_pu(t, (unsigned)pl->cpu[i]);

		CHECK(x->package != pu->package || x->core != pu->core,
		      "%s: %s CPU %d shares a core with writer CPU %d", t->source, near_name[where],
		      cpu, pl->cpu[i]);
	}
	CHECK(pu->smt == 0, "%s: %s CPU %d is an SMT sibling, not a core's first PU", t->source,
	      near_name[where], cpu);
	if (where == NEAR_L3)
		CHECK(pu->cache[TOPO_L3] == w->cache[TOPO_L3], "%s: CPU %d not in the writer's L3",
		      t->source, cpu);
	if (where == NEAR_PACKAGE)
		CHECK(pu->package == w->package && pu->cache[TOPO_L3] != w->cache[TOPO_L3],
		      "%s: CPU %d not in another L3 of the writer's package", t->source, cpu);
	if (where == NEAR_SOCKET)
		CHECK(pu->package != w->package, "%s: CPU %d on the writer's package", t->source, cpu);
}

/*
 * Helpers beside the writers (victims, chases): one writer has a free core in its L3, in another
 * L3 of its package where the package has several, on the other package; writers filling their
 * L3 leave none there, and the nearest free core is then the next L3's (or package's).
 */
static void check_near(const struct topology *t, const struct expect *e)
{
	struct placement pl;
	char err[256];
	unsigned per_l3 = e->cores / e->l3s;
	bool l3s_per_package = e->l3s > e->packages;

	CHECK(placement_order(t, "compact", &pl, err, sizeof err), "compact: %s", err);
	expect_near(t, &pl, 1, NEAR_L3, per_l3 > 1);
	expect_near(t, &pl, 1, NEAR_PACKAGE, l3s_per_package);
	expect_near(t, &pl, 1, NEAR_SOCKET, e->packages > 1);
	expect_near(t, &pl, 1, NEAR_ANY, true);
	CHECK(placement_near(t, pl.cpu, 1, NEAR_ANY) == placement_near(t, pl.cpu, 1, NEAR_L3),
	      "%s: the nearest free core of one writer is in its L3", t->source);
	/* compact's first per_l3 CPUs are every core of the first L3 */
	expect_near(t, &pl, per_l3, NEAR_L3, false);
	expect_near(t, &pl, per_l3, NEAR_PACKAGE, l3s_per_package);
	expect_near(t, &pl, per_l3, NEAR_ANY, true);
	CHECK(placement_near(t, pl.cpu, per_l3, NEAR_ANY) ==
		      placement_near(t, pl.cpu, per_l3, l3s_per_package ? NEAR_PACKAGE : NEAR_SOCKET),
	      "%s: a full L3's nearest free core is %s", t->source,
	      l3s_per_package ? "in the package" : "on the other package");
	placement_free(&pl);
}

static void check_fixture(const char *dir, const struct expect *e)
{
	char path[512], err[256];
	struct topology *t;
	unsigned long long memory = 0;
	unsigned per_l3;

	snprintf(path, sizeof path, "%s/%s.xml", dir, e->name);
	t = topology_load(path, err, sizeof err);
	CHECK(t, "%s: %s", path, err);
	if (!t)
		return;
	CHECK(t->source && !strcmp(t->cache_source, "xml"), "%s: not marked replayed", path);
	CHECK(t->npus == e->pus && t->cores == e->cores && t->packages == e->packages &&
		      t->nnodes == e->nodes && t->cache[TOPO_L3].count == e->l3s && t->smt_width == e->smt,
	      "%s: %zu PUs, %u cores, %u packages, %zu nodes, %zu L3, SMT %u; want %u %u %u %u %u %u",
	      path, t->npus, t->cores, t->packages, t->nnodes, t->cache[TOPO_L3].count, t->smt_width,
	      e->pus, e->cores, e->packages, e->nodes, e->l3s, e->smt);
	for (size_t i = 0; i < t->cache[TOPO_L3].count; i++)
		CHECK(t->cache[TOPO_L3].inst[i].size_bytes == e->l3_bytes, "%s: L3 %zu is %zu bytes",
		      path, i, t->cache[TOPO_L3].inst[i].size_bytes);
	for (size_t k = 0; k < t->nnodes; k++)
		memory = t->node[k].memory_bytes && (memory || !k) ? memory + t->node[k].memory_bytes : 0;
	CHECK(memory == e->memory_bytes, "%s: node memory %llu, want %llu", path, memory,
	      e->memory_bytes);
	CHECK(t->allowed_pus == t->npus, "%s: %u of %zu PUs allowed", path, t->allowed_pus, t->npus);
	check_orders(t);

	/* shares: every L3 holds cores/l3s first PUs, then as many siblings */
	per_l3 = e->cores / e->l3s;
	expect_l3(t, "spread", 1, 1, 1, e->l3_bytes, e->l3_bytes);
	expect_l3(t, "spread", e->l3s, e->l3s, e->nodes < e->l3s ? e->nodes : e->l3s, e->l3_bytes,
		  e->l3_bytes);
	expect_l3(t, "spread", e->pus, e->l3s, e->nodes, e->l3_bytes / (per_l3 * e->smt),
		  e->l3_bytes / (per_l3 * e->smt));
	expect_l3(t, "compact", 2, 1, 1, e->l3_bytes / 2, e->l3_bytes / 2);
	/* SNC: one L3 spans several nodes, and compact fills all of them before the next L3 */
	expect_l3(t, "compact", per_l3, 1, e->nodes > e->l3s ? e->nodes / e->l3s : 1,
		  e->l3_bytes / per_l3, e->l3_bytes / per_l3);
	expect_memory(t, "spread", e->pus, e->memory_bytes);
	check_near(t, e);
	topology_free(t);
}

/* The cases the issue names, beyond the uniform rules of check_fixture. */
static void check_named_cases(const char *dir)
{
	char path[512], err[256];
	struct topology *t;

	snprintf(path, sizeof path, "%s/spr-2s-xeon-max-9460.xml", dir);
	if ((t = topology_load(path, err, sizeof err))) {
		/* 97.5 MiB per package over 80 threads per package */
		expect_l3(t, "spread", 160, 2, 1, 102236160 / 80, 102236160 / 80);
		expect_l3(t, "compact", 80, 2, 1, 102236160 / 40, 102236160 / 40);
		expect_l3(t, "compact", 41, 2, 1, 102236160 / 40, 102236160);
		topology_free(t);
	}
	snprintf(path, sizeof path, "%s/synthetic-gnr-2s-snc3.xml", dir);
	if ((t = topology_load(path, err, sizeof err))) {
		/* the two L3s first, then all six SNC nodes; one node holds 32 cores */
		expect_l3(t, "spread", 2, 2, 2, 480000000, 480000000);
		expect_l3(t, "spread", 6, 2, 6, 160000000, 160000000);
		expect_memory(t, "spread", 6, 6 * 128000000000ull);
		expect_l3(t, "compact", 32, 1, 1, 15000000, 15000000);
		expect_memory(t, "compact", 32, 128000000000ull);
		expect_memory(t, "compact", 33, 2 * 128000000000ull);
		topology_free(t);
	}
	snprintf(path, sizeof path, "%s/synthetic-turin-2s-nps4.xml", dir);
	if ((t = topology_load(path, err, sizeof err))) {
		expect_l3(t, "spread", 8, 8, 8, 32000000, 32000000);
		expect_l3(t, "spread", 64, 32, 8, 16000000, 16000000);
		expect_l3(t, "compact", 8, 1, 1, 4000000, 4000000);
		expect_memory(t, "compact", 8, 192000000000ull);
		expect_memory(t, "spread", 8, 8 * 192000000000ull);
		topology_free(t);
	}
	snprintf(path, sizeof path, "%s/cascadelake-2s-snc2.xml", dir);
	if ((t = topology_load(path, err, sizeof err))) {
		/* SNC2: an L3 spans two nodes; four threads reach all four nodes over both L3s */
		expect_l3(t, "spread", 4, 2, 4, 28835840 / 2, 28835840 / 2);
		topology_free(t);
	}
}

/* Explicit lists keep the order written; CPUs outside the machine and repeats are refused. */
static void check_explicit(const char *dir)
{
	char path[512], err[256];
	struct placement pl;
	struct thread_set ts;
	struct topology *t;

	snprintf(path, sizeof path, "%s/synthetic-turin-2s-nps4.xml", dir);
	if (!(t = topology_load(path, err, sizeof err)))
		return;
	CHECK(placement_order(t, "cpus:300,0-1", &pl, err, sizeof err) && pl.ncpus == 3 &&
		      pl.cpu[0] == 300 && pl.cpu[1] == 0 && pl.cpu[2] == 1 && pl.node[0] == 4 &&
		      pl.node[1] == 0,
	      "cpus:300,0-1: %s", err);
	CHECK(thread_set_of(t, &pl, 3, &ts, err, sizeof err) && ts.nodes == 2 &&
		      ts.cache[TOPO_L3].domains == 2 && ts.cache[TOPO_L3].share_min_bytes == 16000000 &&
		      ts.cache[TOPO_L3].share_max_bytes == 32000000 &&
		      ts.node_memory_bytes == 2 * 192000000000ull,
	      "cpus:300,0-1 shares");
	CHECK(!thread_set_of(t, &pl, 4, &ts, err, sizeof err), "4 threads on a 3-CPU placement");
	placement_free(&pl);
	CHECK(!placement_order(t, "cpus:512", &pl, err, sizeof err) && strstr(err, "CPU 512 is not"),
	      "cpus:512 on a 512-PU machine: %s", err);
	CHECK(!placement_order(t, "cpus:3,1-3", &pl, err, sizeof err) && strstr(err, "listed twice"),
	      "cpus:3,1-3: %s", err);
	CHECK(!placement_order(t, "cpus:2-x", &pl, err, sizeof err), "cpus:2-x accepted");
	CHECK(!placement_order(t, "scatter", &pl, err, sizeof err) && strstr(err, "unknown placement"),
	      "scatter accepted: %s", err);
	topology_free(t);
}

/* 4 packages x 2 L3 x 96 cores x 2 PUs = 1536 PUs: nothing may stop at 1024 CPUs. */
/* hwloc's synthetic machine of spec, exported to an XML file and loaded from it as a replay;
 * NULL with err on failure. */
static struct topology *load_synthetic(const char *spec, char *err, size_t len)
{
	char path[] = "/tmp/storebench-topo-XXXXXX";
	hwloc_topology_t h;
	struct topology *t;
	int fd = mkstemp(path);

	CHECK(fd >= 0, "mkstemp");
	if (fd < 0)
		return NULL;
	close(fd);
	hwloc_topology_init(&h);
	hwloc_topology_set_synthetic(h, spec);
	CHECK(!hwloc_topology_load(h) && !hwloc_topology_export_xml(h, path, 0), "synthetic export");
	hwloc_topology_destroy(h);
	t = topology_load(path, err, len);
	unlink(path);
	return t;
}

static void check_beyond_1024(void)
{
	char err[256];
	struct placement pl;
	struct thread_set ts;
	struct topology *t = load_synthetic("pack:4 numa:1(memory=64GB) l3:2(size=64MB) core:96 pu:2",
					    err, sizeof err);

	CHECK(t && t->npus == 1536 && t->cache[TOPO_L3].count == 8 && t->nnodes == 4,
	      "1536-PU machine: %s", t ? "wrong counts" : err);
	if (!t)
		return;
	check_orders(t);
	expect_l3(t, "spread", 1536, 8, 4, 64000000 / 192, 64000000 / 192);
	CHECK(placement_order(t, "cpus:1500-1503", &pl, err, sizeof err) && pl.ncpus == 4 &&
		      pl.cpu[3] == 1503 && pl.node[0] == 3,
	      "cpus:1500-1503: %s", err);
	CHECK(thread_set_of(t, &pl, 4, &ts, err, sizeof err) && ts.cache[TOPO_L3].domains == 1 &&
		      ts.cache[TOPO_L3].share_min_bytes == 16000000,
	      "cpus:1500-1503 share");
	placement_free(&pl);
	topology_free(t);
}

/*
 * 8192 CPUs (issue 21.8): the load walks each PU and core up the tree once, where walking every
 * cache's cpuset took 37 s here; ctest's timeout (tests/CMakeLists.txt) is the bound.  Two SMT
 * siblings a core, one core an L1d and L2, 128 cores an L3.
 */
static void check_8192(void)
{
	char err[256];
	struct topology *t = load_synthetic("pack:2 numa:1(memory=512GB) l3:16(size=32MB) "
					    "l2:128(size=2MB) l1d:1(size=48KB) core:1 pu:2",
					    err, sizeof err);

	CHECK(t && t->npus == 8192 && t->cores == 4096 && t->nnodes == 2 &&
		      t->cache[TOPO_L2].count == 4096 && t->cache[TOPO_L3].count == 32,
	      "8192-PU machine: %s", t ? "wrong counts" : err);
	if (!t)
		return;
	CHECK(t->cache[TOPO_L2].inst[4095].cores == 1 && t->cache[TOPO_L2].inst[4095].pus == 2 &&
		      t->cache[TOPO_L3].inst[31].cores == 128 && t->cache[TOPO_L3].inst[31].pus == 256,
	      "8192-PU machine: cores and PUs per cache");
	CHECK(topology_pu(t, 8191) && topology_pu(t, 8191)->cache[TOPO_L3] == 31 &&
		      topology_pu(t, 8191)->cache[TOPO_L1D] == 4095 && topology_pu(t, 8191)->node == 1,
	      "8192-PU machine: the last PU's caches and node: L3 %d, L1d %d, node %d",
	      topology_pu(t, 8191) ? topology_pu(t, 8191)->cache[TOPO_L3] : -2,
	      topology_pu(t, 8191) ? topology_pu(t, 8191)->cache[TOPO_L1D] : -2,
	      topology_pu(t, 8191) ? topology_pu(t, 8191)->node : -2);
	check_orders(t);
	topology_free(t);
}

/* This machine: both orders cover the allowed CPUs; a replay (HWLOC_XMLFILE) is refused for pinning. */
static void check_live(const char *dir)
{
	char err[256], path[512];
	struct placement pl;
	struct topology *t = topology_load(NULL, err, sizeof err);

	CHECK(t && !t->source && t->allowed_pus >= 1, "this machine: %s", t ? "replayed?" : err);
	if (!t)
		return;
	check_orders(t);
	CHECK(placement_build("spread", &pl, err, sizeof err) && pl.ncpus == t->allowed_pus,
	      "placement_build spread: %s", err);
	placement_free(&pl);
	topology_free(t);
	snprintf(path, sizeof path, "%s/milan-2s-epyc-7763.xml", dir);
	setenv("HWLOC_XMLFILE", path, 1);
	t = topology_load(NULL, err, sizeof err);
	CHECK(t && t->source && !strcmp(t->source, path) && t->npus == 128,
	      "HWLOC_XMLFILE not honoured: %s", t ? t->source ? t->source : "(this machine)" : err);
	topology_free(t);
	CHECK(!placement_build("compact", &pl, err, sizeof err) && strstr(err, "replaced"),
	      "placement_build pinned by a replayed topology: %s", err);
	unsetenv("HWLOC_XMLFILE");
}

int main(int argc, char **argv)
{
	const char *dir = argc > 2 ? argv[2] : "", *which = argc > 1 ? argv[1] : "";
	char err[256];

	if (!strcmp(which, "live")) {
		check_live(dir);
	} else if (!strcmp(which, "big")) {
		check_beyond_1024();
	} else if (!strcmp(which, "8192")) {
		check_8192();
	} else if (!strcmp(which, "cases")) {
		check_named_cases(dir);
		check_explicit(dir);
	} else if (!strcmp(which, "bad")) {
		CHECK(!topology_load("/nonexistent.xml", err, sizeof err) && strstr(err, "No such file"),
		      "missing XML: %s", err);
		CHECK(!topology_load(argv[0], err, sizeof err) && strstr(err, "not an hwloc XML"),
		      "a binary as XML: %s", err);
	} else {
		size_t i = 0;

		while (i < sizeof machines / sizeof machines[0] && strcmp(machines[i].name, which))
			i++;
		if (i == sizeof machines / sizeof machines[0]) {
			fprintf(stderr, "usage: topology_test live|big|8192|cases|bad|<fixture> DIR\n");
			return 2;
		}
		check_fixture(dir, &machines[i]);
	}
	return test_result("ok topology %s", which);
}

/*
 * topology.c — hwloc's tree read once into the flat tables of topology.h, with both placement orders.
 * Plain C, hwloc 2.x.  hwloc reads sysfs on Linux and falls back to CPUID where sysfs lacks caches
 * (this VM), and reads any machine's XML the same way: one loader for real and replayed machines.
 */
#include "topology.h"

#include <errno.h>
#include <hwloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input_file.h"

/* A topology file larger than this is not one: hwloc's XML of 8192 CPUs is about 5 MiB. */
#define TOPOLOGY_XML_MAX (64ull << 20)

static const struct {
	hwloc_obj_type_t type;
	unsigned level;
} kind_type[TOPO_KINDS] = {
	[TOPO_L1D] = { HWLOC_OBJ_L1CACHE, 1 },
	[TOPO_L2] = { HWLOC_OBJ_L2CACHE, 2 },
	[TOPO_L3] = { HWLOC_OBJ_L3CACHE, 3 },
	[TOPO_L1I] = { HWLOC_OBJ_L1ICACHE, 1 },
};

/* A placement key: ranks from the PU up to the root, compared from the PU end. */
struct order_key {
	size_t pu;
	unsigned len;
	const unsigned *rank;
	unsigned logical; /* the PU's place in the tree, left to right */
};

static const char *cache_type_name(hwloc_obj_cache_type_t t)
{
	return t == HWLOC_OBJ_CACHE_DATA ? "Data" : t == HWLOC_OBJ_CACHE_INSTRUCTION ? "Instruction"
										   : "Unified";
}

static int by_os(const void *a, const void *b)
{
	const struct topo_pu *x = a, *y = b;

	return x->os < y->os ? -1 : x->os > y->os;
}

static int node_by_os(const void *a, const void *b)
{
	const struct topo_node *x = a, *y = b;

	return x->os < y->os ? -1 : x->os > y->os;
}

/*
 * Spread: the PU's rank in its core first, then its core's rank in the parent, and so on up: every
 * domain at every level gets its k-th PU before any gets its (k+1)-th, so all L3 domains and NUMA
 * nodes (nodes are tree levels: Groups, L3s or Packages) are used before one is used twice.
 */
static int by_spread(const void *a, const void *b)
{
	const struct order_key *x = a, *y = b;

	for (unsigned i = 0; i < x->len && i < y->len; i++)
		if (x->rank[i] != y->rank[i])
			return x->rank[i] < y->rank[i] ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->logical < y->logical ? -1 : x->logical > y->logical;
}

/* Compact: tree order (one L3 domain and node after the other), first PUs of cores before siblings. */
static int by_compact(const void *a, const void *b)
{
	const struct order_key *x = a, *y = b;

	if (x->rank[0] != y->rank[0])
		return x->rank[0] < y->rank[0] ? -1 : 1;
	return x->logical < y->logical ? -1 : x->logical > y->logical;
}

/* obj->userdata = 1 + its rank among the siblings that hold an allowed PU (0: holds none). */
static void rank_children(hwloc_obj_t obj, hwloc_const_cpuset_t allowed)
{
	uintptr_t r = 0;

	for (hwloc_obj_t c = obj->first_child; c; c = c->next_sibling) {
		c->userdata = (void *)(hwloc_bitmap_intersects(c->cpuset, allowed) ? ++r : 0);
		rank_children(c, allowed);
	}
}

static bool orders(hwloc_topology_t h, struct topology *t, hwloc_const_cpuset_t allowed)
{
	unsigned depth = (unsigned)hwloc_topology_get_depth(h);
	struct order_key *keys = calloc(t->npus, sizeof *keys);
	unsigned *ranks = calloc(t->npus * depth, sizeof *ranks);
	size_t n = 0;

	if (!keys || !ranks) {
		free(keys);
		free(ranks);
		return false;
	}
	rank_children(hwloc_get_root_obj(h), allowed);
	for (size_t i = 0; i < t->npus; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(h, HWLOC_OBJ_PU, (unsigned)i);
		unsigned len = 0;

		if (!t->pu[i].allowed)
			continue;
		keys[n] = (struct order_key){ .pu = i, .rank = ranks + n * depth,
					      .logical = pu->logical_index };
		for (hwloc_obj_t o = pu; o->parent && len < depth; o = o->parent)
			ranks[n * depth + len++] = (unsigned)(uintptr_t)o->userdata - 1;
		keys[n++].len = len;
	}
	qsort(keys, n, sizeof *keys, by_spread);
	for (size_t i = 0; i < n; i++)
		t->pu[keys[i].pu].spread = (unsigned)i;
	qsort(keys, n, sizeof *keys, by_compact);
	for (size_t i = 0; i < n; i++)
		t->pu[keys[i].pu].compact = (unsigned)i;
	free(keys);
	free(ranks);
	return true;
}

/* The kind of a cache object, -1 for any other object. */
static int kind_of(hwloc_obj_type_t type)
{
	for (int k = 0; k < TOPO_KINDS; k++)
		if (kind_type[k].type == type)
			return k;
	return -1;
}

/*
 * Tables are filled while t->pu is in hwloc's logical PU order; flatten() sorts by OS number last.
 * Every PU and every core walks up the tree once to its caches: walking each cache's cpuset
 * instead (hwloc's inside-cpuset iterators test every PU's bitmap) is cubic in the CPU count:
 * `info` took 29 s at 8192 CPUs, 0.2 s now.
 */
static bool caches(hwloc_topology_t h, struct topology *t)
{
	int ncores = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_CORE);

	for (int k = 0; k < TOPO_KINDS; k++) {
		struct topo_level *lv = &t->cache[k];
		int n = hwloc_get_nbobjs_by_type(h, kind_type[k].type);

		lv->level = kind_type[k].level;
		lv->type = k == TOPO_L1I ? "Instruction" : k == TOPO_L1D ? "Data" : "Unified";
		if (n <= 0)
			continue;
		lv->inst = calloc((size_t)n, sizeof *lv->inst);
		if (!lv->inst)
			return false;
		lv->count = (size_t)n;
		for (int i = 0; i < n; i++) {
			hwloc_obj_t c = hwloc_get_obj_by_type(h, kind_type[k].type, (unsigned)i);

			lv->type = cache_type_name(c->attr->cache.type);
			lv->inst[i] = (struct topo_cache){ .size_bytes = c->attr->cache.size,
							   .pus = (unsigned)hwloc_bitmap_weight(c->cpuset) };
		}
	}
	for (size_t i = 0; i < t->npus; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(h, HWLOC_OBJ_PU, (unsigned)i)->parent;

		for (int k; o; o = o->parent)
			if ((k = kind_of(o->type)) >= 0 && t->pu[i].cache[k] < 0)
				t->pu[i].cache[k] = (int)o->logical_index;
	}
	for (int i = 0; i < ncores; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(h, HWLOC_OBJ_CORE, (unsigned)i)->parent;

		for (int k; o; o = o->parent)
			if ((k = kind_of(o->type)) >= 0)
				t->cache[k].inst[o->logical_index].cores++;
	}
	/* a cache above no Core object (some XML) counts its PUs as cores */
	for (int k = 0; k < TOPO_KINDS; k++)
		for (size_t i = 0; i < t->cache[k].count; i++)
			if (!t->cache[k].inst[i].cores)
				t->cache[k].inst[i].cores = t->cache[k].inst[i].pus;
	return true;
}

static bool nodes(hwloc_topology_t h, struct topology *t)
{
	int n = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_NUMANODE);

	t->node = calloc(n > 0 ? (size_t)n : 1, sizeof *t->node);
	if (!t->node)
		return false;
	for (int i = 0; i < n; i++) {
		hwloc_obj_t node = hwloc_get_obj_by_type(h, HWLOC_OBJ_NUMANODE, (unsigned)i), pu = NULL;

		t->node[i] = (struct topo_node){ .os = node->os_index,
						 .memory_bytes = node->attr->numanode.local_memory };
		/* a PU local to several nodes (DDR plus HBM or CXL) belongs to the first, the DDR one */
		while ((pu = hwloc_get_next_obj_inside_cpuset_by_type(h, node->cpuset, HWLOC_OBJ_PU, pu))) {
			t->node[i].pus++;
			if (t->pu[pu->logical_index].node < 0)
				t->pu[pu->logical_index].node = (int)node->os_index;
		}
	}
	t->nnodes = n > 0 ? (size_t)n : 0;
	qsort(t->node, t->nnodes, sizeof *t->node, node_by_os);
	return true;
}

/* A Package info that is a decimal number within 0..max, else -1 (absent or implausible: a
 * model of 99999999999 once read as 0x4876e7ff). */
static int info_number(hwloc_obj_t pkg, const char *name, long max)
{
	const char *v = hwloc_obj_get_info_by_name(pkg, name);
	char *end;
	long n;

	if (!v || !*v)
		return -1;
	errno = 0;
	n = strtol(v, &end, 10);
	return errno || *end || n < 0 || n > max ? -1 : (int)n;
}

static void identity(hwloc_topology_t h, struct topology *t)
{
	hwloc_obj_t pkg = hwloc_get_obj_by_type(h, HWLOC_OBJ_PACKAGE, 0);
	const char *v;

	t->id.family = t->id.model = t->id.stepping = -1;
	if (!pkg)
		return;
	if ((v = hwloc_obj_get_info_by_name(pkg, "CPUVendor")))
		snprintf(t->id.vendor, sizeof t->id.vendor, "%s", v);
	if ((v = hwloc_obj_get_info_by_name(pkg, "CPUModel")))
		snprintf(t->id.model_name, sizeof t->id.model_name, "%s", v);
	/* CPUID's display family is base + extended (15 + 255), its model 8 bits, stepping 4 */
	t->id.family = info_number(pkg, "CPUFamilyNumber", 15 + 255);
	t->id.model = info_number(pkg, "CPUModelNumber", 255);
	t->id.stepping = info_number(pkg, "CPUStepping", 15);
}

/* What makes a replayed machine no machine: no PU this process may use (an empty allowed
 * cpuset: "'all' names all, but this machine reports no all size" followed), two PUs of one OS
 * number (two threads would be planned on one CPU), a node's memory beyond 2^60 bytes (an XML's
 * -5 read as 2^64 - 5).  Called on t->pu sorted by OS number; false with err. */
static bool plausible(const struct topology *t, char *err, size_t errlen)
{
	if (!t->allowed_pus) {
		snprintf(err, errlen, "none of its %zu PUs is allowed (an empty allowed cpuset): no "
			 "thread could run there", t->npus);
		return false;
	}
	for (size_t i = 1; i < t->npus; i++)
		if (t->pu[i].os == t->pu[i - 1].os) {
			snprintf(err, errlen, "two PUs are numbered %u: not one machine's topology",
				 t->pu[i].os);
			return false;
		}
	for (size_t i = 0; i < t->nnodes; i++)
		if (t->node[i].memory_bytes > 1ull << 60) {
			snprintf(err, errlen, "NUMA node %u has %llu bytes of memory: not a machine's "
				 "(a negative number in the XML?)", t->node[i].os,
				 (unsigned long long)t->node[i].memory_bytes);
			return false;
		}
	return true;
}

/* This machine's caches come from sysfs when the kernel exports them, else hwloc read CPUID. */
static const char *live_cache_source(const struct topology *t)
{
	char path[96];

	if (!t->npus)
		return "cpuid";
	snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%u/cache/index0", t->pu[0].os);
	return access(path, F_OK) == 0 ? "sysfs" : "cpuid";
}

/* The PUs this process may use: hwloc's allowed set, and on this machine the thread's binding. */
static hwloc_bitmap_t allowed_set(hwloc_topology_t h, bool live)
{
	hwloc_bitmap_t set = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(h));
	hwloc_bitmap_t bound = hwloc_bitmap_alloc();

	if (set && bound && live && !hwloc_get_cpubind(h, bound, HWLOC_CPUBIND_THREAD))
		hwloc_bitmap_and(set, set, bound);
	hwloc_bitmap_free(bound);
	return set;
}

static bool flatten(hwloc_topology_t h, struct topology *t, bool live)
{
	int npu = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PU);
	hwloc_bitmap_t allowed = allowed_set(h, live);
	unsigned cores = (unsigned)hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_CORE);
	bool ok = allowed && npu > 0 && (t->pu = calloc((size_t)npu, sizeof *t->pu));

	for (int i = 0; ok && i < npu; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(h, HWLOC_OBJ_PU, (unsigned)i);
		hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_CORE, pu);
		hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_PACKAGE, pu);

		/* a PU without a Core object (some XML) counts as a core of its own */
		t->pu[i] = (struct topo_pu){ .os = pu->os_index, .package = pkg ? pkg->logical_index : 0,
					     .core = core ? core->logical_index : cores++, .node = -1,
					     .smt = core && pu->parent == core ? pu->sibling_rank : 0,
					     .allowed = hwloc_bitmap_isset(allowed, pu->os_index) };
		for (int k = 0; k < TOPO_KINDS; k++)
			t->pu[i].cache[k] = -1;
		if (core && (unsigned)core->arity > t->smt_width)
			t->smt_width = core->arity;
		t->allowed_pus += t->pu[i].allowed;
	}
	t->npus = ok ? (size_t)npu : 0;
	t->cores = cores;
	t->packages = (unsigned)hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PACKAGE);
	t->packages = t->packages ? t->packages : 1;
	t->smt_width = t->smt_width ? t->smt_width : 1;
	ok = ok && caches(h, t) && nodes(h, t) && orders(h, t, allowed);
	if (ok)
		qsort(t->pu, t->npus, sizeof *t->pu, by_os);
	hwloc_bitmap_free(allowed);
	return ok;
}

struct topology *topology_load(const char *xml, char *err, size_t errlen)
{
	struct topology *t = calloc(1, sizeof *t);
	hwloc_topology_t h;
	const char *backend, *env = getenv("HWLOC_XMLFILE");
	bool live;

	/* hwloc's own XML parser, not libxml2's: an inline DTD (<!DOCTYPE topology [ ... ]>)
	 * crashes hwloc 2.9's libxml importer, and a topology file is whatever a user gives */
	setenv("HWLOC_LIBXML_IMPORT", "0", 1);
	setenv("HWLOC_HIDE_ERRORS", "2", 0); /* its own stderr lines: the caller says why, once */
	/* hwloc reads a file to its end: /dev/zero took 12 GB in 5 s, a FIFO waited forever */
	if (xml && !input_file_check(xml, TOPOLOGY_XML_MAX, err, errlen)) {
		free(t);
		return NULL;
	}
	if (!t || hwloc_topology_init(&h)) {
		free(t);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	hwloc_topology_set_flags(h, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	hwloc_topology_set_icache_types_filter(h, HWLOC_TYPE_FILTER_KEEP_ALL);
	if ((xml && hwloc_topology_set_xml(h, xml)) || hwloc_topology_load(h)) {
		snprintf(err, errlen, "hwloc cannot load it: %s",
			 errno == EINVAL ? "not an hwloc XML topology" :
			 errno ? strerror(errno) : "hwloc refused its contents (no NUMA node or no "
						  "CPU in it?)");
		hwloc_topology_destroy(h);
		free(t);
		return NULL;
	}
	live = hwloc_topology_is_thissystem(h) && !xml;
	if (!live)
		t->source = strdup(xml ? xml : env && *env ? env : "hwloc environment");
	backend = hwloc_obj_get_info_by_name(hwloc_get_root_obj(h), "Backend");
	snprintf(t->backend, sizeof t->backend, "%s", backend ? backend : "");
	identity(h, t);
	if ((!live && !t->source) || !flatten(h, t, live)) {
		snprintf(err, errlen, "out of memory");
		hwloc_topology_destroy(h);
		topology_free(t);
		return NULL;
	}
	t->cache_source = live ? live_cache_source(t) : "xml";
	hwloc_topology_destroy(h);
	if (!plausible(t, err, errlen)) {
		topology_free(t);
		return NULL;
	}
	return t;
}

void topology_free(struct topology *t)
{
	if (!t)
		return;
	for (int k = 0; k < TOPO_KINDS; k++)
		free(t->cache[k].inst);
	free(t->pu);
	free(t->node);
	free(t->source);
	free(t);
}

const struct topo_pu *topology_pu(const struct topology *t, unsigned os)
{
	struct topo_pu key = { .os = os };

	return bsearch(&key, t->pu, t->npus, sizeof key, by_os);
}

const struct topo_node *topology_node(const struct topology *t, unsigned os)
{
	struct topo_node key = { .os = os };

	return bsearch(&key, t->node, t->nnodes, sizeof key, node_by_os);
}

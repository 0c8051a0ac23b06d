/*
 * sweep.c — the points of a run: the product of its option axes, less what the filter rules drop.
 * Plain C.  One odometer walks the axis table; each combination becomes a store or a mix point,
 * the rules in order keep, skip or refuse it, and the kept ones are named (point.c) and matched
 * against --benchmark_filter here, once, before anything runs.
 */
#include "sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gbench_shim.h"

/*
 * The axes in the order of the walk, the first changing slowest (sweep.h says why this order):
 * each one's id, the option that lists it, and its length in the options o.
 */
#define SWEEP_AXES(X)                               \
	X(THREADS,   "--threads",   o->threads.n)   \
	X(WS,        "--ws",        o->nws)         \
	X(CALL,      "--call",      o->call.n + o->ndists) \
	X(MISALIGN,  "--misalign",  o->misalign.n)  \
	X(RW,        "--rw",        o->nrw)         \
	X(RW_MODE,   "--rw-mode",   o->nrw_mode)    \
	X(RW_LAYOUT, "--rw-layout", o->nrw_layout)  \
	X(CHUNK,     "--chunk",     o->chunk.n)     \
	X(VICTIM,    "--victim",    o->nvictim)     \
	X(DELAY,     "--victim-delay", o->victim_delay.n) \
	X(KERNEL,    "--kernels",   o->sel.n)

enum axis {
#define AXIS_ID(id, option, length) AXIS_##id,
	SWEEP_AXES(AXIS_ID)
#undef AXIS_ID
	AXIS_COUNT
};

static const char *const axis_option[AXIS_COUNT] = {
#define AXIS_OPTION(id, option, length) [AXIS_##id] = option,
	SWEEP_AXES(AXIS_OPTION)
#undef AXIS_OPTION
};

static void axis_lengths(const struct run_config *o, size_t len[AXIS_COUNT])
{
#define AXIS_LENGTH(id, option, length) len[AXIS_##id] = (length);
	SWEEP_AXES(AXIS_LENGTH)
#undef AXIS_LENGTH
}

bool sweep_combinations(const struct run_config *o, size_t *n)
{
	size_t len[AXIS_COUNT];

	axis_lengths(o, len);
	*n = 1;
	for (size_t a = 0; a < AXIS_COUNT; a++)
		if (__builtin_mul_overflow(*n, len[a], n))
			return false;
	return true;
}

char *sweep_axis_options(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t a = 0; a < AXIS_COUNT && used < len; a++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 !a ? "" : a + 1 == AXIS_COUNT ? " and " : ", ",
					 axis_option[a]);
	return buf;
}

/* One combination of the walk: an index into each axis of the options o. */
struct combo {
	const struct run_config *o; /* whose axes are walked */
	size_t at[AXIS_COUNT];    /* the value of each axis, as an index into its list */
};

/* The next combination, the last axis turning fastest; false after the last one. */
static bool combo_next(struct combo *c, const size_t len[AXIS_COUNT])
{
	for (size_t a = AXIS_COUNT; a-- > 0;) {
		if (++c->at[a] < len[a])
			return true;
		c->at[a] = 0;
	}
	return false;
}

static const struct ws_item *combo_ws(const struct combo *c)
{
	return &c->o->ws[c->at[AXIS_WS]];
}

/* The call size of c; only for a combination of one size (combo_dist below: -1). */
static uint64_t combo_call(const struct combo *c)
{
	return c->o->call.v[c->at[AXIS_CALL]];
}

/* The distribution of c's calls (its index into o->dists), or -1 for one size: a call axis holds
 * the sizes of --call, then its dist: elements. */
static long combo_dist(const struct combo *c)
{
	return c->at[AXIS_CALL] < c->o->call.n ? -1 : (long)(c->at[AXIS_CALL] - c->o->call.n);
}

/* The largest size of a distribution's draws. */
static uint64_t draws_max(const uint64_t *v, size_t n)
{
	uint64_t m = 0;

	for (size_t i = 0; i < n; i++)
		m = v[i] > m ? v[i] : m;
	return m;
}

/*
 * A store point of the sizes of distribution d: DIST_CALLS calls of its draws at random
 * 64-byte-aligned offsets in the working set (its mode hot, cold or random); call and hot: the
 * largest draw rounded up to a 4 KiB page (every call inside one hot region), cold: 4 x the LLC
 * share, as for one size, a size: that many bytes (a rule refuses one smaller than the largest
 * draw).  call_bytes is the
 * draws' mean, rounded up.
 */
static void dist_point(const struct combo *c, long d, struct point *p)
{
	const struct run_config *o = c->o;
	const struct ws_item *w = combo_ws(c);
	const uint64_t *v = o->dist_draws[d];
	uint64_t sum = 0, top = draws_max(v, DIST_CALLS), page = (top + 4095) / 4096 * 4096;

	for (size_t i = 0; i < DIST_CALLS; i++)
		sum += v[i];
	p->kind = POINT_STORE;
	p->store = (struct store_shape){
		.mode = w->mode == WS_CALL || w->mode == WS_HOT ? WS_HOT
			: w->mode == WS_COLD ? WS_COLD : WS_RANDOM,
		.call_bytes = (sum + DIST_CALLS - 1) / DIST_CALLS,
		.ws_bytes = w->mode == WS_CALL || w->mode == WS_HOT ? (page ? page : 4096)
			    : w->mode == WS_COLD ? (o->cold_bytes > 4 * top ? o->cold_bytes : 4 * top)
			    : w->bytes,
		.dist = o->dists[d].name, .sizes = v, .nsizes = DIST_CALLS,
	};
}

/* The ratio the --rw element of c asked for (a split point's own may be rounded). */
static const struct rw_ratio *combo_rw(const struct combo *c)
{
	return &c->o->rw[c->at[AXIS_RW]];
}

/* The helper CPU each victim mode asks for (own: none, the first writer re-reads). */
static const enum near victim_near[VICTIM_MODES] = {
	[VICTIM_SHARED] = NEAR_L3, [VICTIM_REMOTE] = NEAR_PACKAGE, [VICTIM_SOCKET] = NEAR_SOCKET,
	[VICTIM_CHASE] = NEAR_ANY,
};

/* The victim of c beside p's writers, the first p->threads CPUs of the placement; cpu -1 when
 * the machine has no free core of its kind. */
static struct victim_spec combo_victim(const struct combo *c, const struct point *p)
{
	const struct run_config *o = c->o;
	const struct victim_item *it = &o->victim[c->at[AXIS_VICTIM]];
	struct victim_spec v = { .mode = it->mode, .bytes = it->bytes, .cpu = -1, .node = 0 };

	/* only a chase runs beside the writers' passes, so only a chase has them wait */
	if (v.mode == VICTIM_CHASE)
		v.delay_ns = o->victim_delay.v[c->at[AXIS_DELAY]];
	const struct topo_pu *pu;

	if (v.mode == VICTIM_OWN)
		v.cpu = o->placement.cpu[0];
	else if (v.mode != VICTIM_NONE)
		v.cpu = placement_near(o->topo, o->placement.cpu, p->threads, victim_near[v.mode]);
	pu = v.cpu >= 0 ? topology_pu(o->topo, (unsigned)v.cpu) : NULL;
	v.node = pu && pu->node >= 0 ? pu->node : 0;
	return v;
}

/*
 * The point c stands for.  Store only (rw 100): calls of the call size over the working set (the
 * call itself for call and hot; cold's region grows with the call; seq and random cycle whole
 * calls).  Below rw 100: the region each thread walks is the working set (the call for call and
 * hot), in calls of the chunk; a split point takes the ratio its whole threads give.  Named only
 * once the rules keep it.
 */
static void combo_point(const struct combo *c, struct point *p)
{
	const struct run_config *o = c->o;
	const struct ws_item *w = combo_ws(c);
	uint64_t call;
	struct rw_split split;
	char err[256];

	*p = (struct point){
		.k = o->sel.k[c->at[AXIS_KERNEL]],
		.threads = (unsigned)o->threads.v[c->at[AXIS_THREADS]],
		.misalign = (unsigned)o->misalign.v[c->at[AXIS_MISALIGN]],
	};
	p->victim = combo_victim(c, p);
	if (combo_dist(c) >= 0) {
		dist_point(c, combo_dist(c), p);
		return;
	}
	call = combo_call(c);
	if (rw_ratio_is_store_only(combo_rw(c))) {
		uint64_t cold = o->cold_bytes > 4 * call ? o->cold_bytes : 4 * call;

		p->kind = POINT_STORE;
		p->store = (struct store_shape){
			.mode = w->mode, .call_bytes = call,
			.ws_bytes = w->mode == WS_CALL || w->mode == WS_HOT ? call
				    : w->mode == WS_COLD ? cold : w->bytes / call * call,
		};
		return;
	}
	p->kind = POINT_MIX;
	p->mix = (struct mix_shape){
		.rw = *combo_rw(c),
		.mode = o->rw_mode[c->at[AXIS_RW_MODE]],
		.layout = o->rw_layout[c->at[AXIS_RW_LAYOUT]],
		.chunk_bytes = o->chunk.v[c->at[AXIS_CHUNK]],
		.region_bytes = w->mode == WS_CALL || w->mode == WS_HOT ? call : w->bytes,
	};
	/* one thread cannot split a mix: the rules refuse or skip it, its ratio stays as asked */
	if (p->mix.mode == RW_MODE_split &&
	    !rw_split_init(&split, p->threads, &p->mix.rw, err, sizeof err))
		rw_split_ratio(&split, &p->mix.rw);
}

/* What a rule says about a point. */
enum verdict {
	KEEP,   /* nothing against it */
	NOTE,   /* kept, and counted in the rule's counter */
	SKIP,   /* not a point of this sweep; counted in the rule's counter when it has one */
	REFUSE, /* the options cannot be measured: the rule wrote why into err */
};

/* The counters of sweep_points(); a rule with NO_COUNTER counts into a slot nobody reads. */
enum counter { NO_COUNTER, SKIPPED, SKIPPED_RW, ROUNDED_SPLIT, SKIPPED_VICTIM, SKIPPED_SIZE,
	       COUNTERS };

struct rule {
	const char *name;     /* what it guards, for the reader and a debugger */
	enum counter counter; /* bumped when it says NOTE or SKIP */
	enum verdict (*judge)(const struct combo *c, const struct point *p, char *err,
			      size_t errlen); /* its say on p, the point of c */
};

/* A store point is the same whatever the mode, layout and chunk: the first of each only. */
static enum verdict store_ignores_mix_axes(const struct combo *c, const struct point *p, char *err,
					   size_t errlen)
{
	(void)err, (void)errlen;
	return p->kind == POINT_STORE &&
	       (c->at[AXIS_RW_MODE] || c->at[AXIS_RW_LAYOUT] || c->at[AXIS_CHUNK]) ? SKIP : KEEP;
}

/* Layout is an interleave axis (split writes whole threads), and rw 0 reads the same in either. */
static enum verdict layout_interleave_only(const struct combo *c, const struct point *p, char *err,
					   size_t errlen)
{
	(void)err, (void)errlen;
	return p->kind == POINT_MIX && c->at[AXIS_RW_LAYOUT] &&
	       (p->mix.mode == RW_MODE_split || rw_ratio_is_read_only(&p->mix.rw)) ? SKIP : KEEP;
}

/* A seq or random working set holds at least one call. */
static enum verdict call_within_ws(const struct combo *c, const struct point *p, char *err,
				   size_t errlen)
{
	const struct ws_item *w = combo_ws(c);

	(void)err, (void)errlen;
	return p->kind == POINT_STORE && !p->store.dist &&
	       (w->mode == WS_SEQ || w->mode == WS_RANDOM) && w->bytes < combo_call(c) ? SKIP : KEEP;
}

/* A distribution's calls are store calls: its combinations below rw 100 are not points. */
static enum verdict dist_stores_only(const struct combo *c, const struct point *p, char *err,
				     size_t errlen)
{
	(void)p, (void)err, (void)errlen;
	return combo_dist(c) >= 0 && !rw_ratio_is_store_only(combo_rw(c)) ? SKIP : KEEP;
}

/* Every draw of a distribution fits its working set whole. */
static enum verdict dist_within_ws(const struct combo *c, const struct point *p, char *err,
				   size_t errlen)
{
	uint64_t top;

	if (p->kind != POINT_STORE || !p->store.dist)
		return KEEP;
	top = draws_max(p->store.sizes, p->store.nsizes);
	if (p->store.ws_bytes >= top)
		return KEEP;
	snprintf(err, errlen, "--call 'dist:%s' has calls of %llu bytes, more than --ws %llu bytes: "
		 "give a working set that holds its largest call (hot and cold do)", p->store.dist,
		 (unsigned long long)top, (unsigned long long)p->store.ws_bytes);
	(void)c;
	return REFUSE;
}

/* A read/write mix walks its region in order: no cold or random working set. */
static enum verdict mix_walks_in_order(const struct combo *c, const struct point *p, char *err,
				       size_t errlen)
{
	enum ws_mode m = combo_ws(c)->mode;

	(void)err, (void)errlen;
	return p->kind == POINT_MIX && (m == WS_COLD || m == WS_RANDOM) ? SKIP : KEEP;
}

/* A chunk fits the region it is a call over (and is a nonzero multiple of 64). */
static enum verdict chunk_within_region(const struct combo *c, const struct point *p, char *err,
					size_t errlen)
{
	(void)c;
	if (p->kind != POINT_MIX)
		return KEEP;
	return rw_check_chunk(p->mix.chunk_bytes, p->mix.region_bytes, err, errlen) ? REFUSE : KEEP;
}

static bool has_mode(const struct run_config *o, enum rw_mode m)
{
	for (size_t i = 0; i < o->nrw_mode; i++)
		if (o->rw_mode[i] == m)
			return true;
	return false;
}

/*
 * A split mix needs a reader and a writer: at one thread it is refused, unless interleave is
 * asked for too, whose 1-thread points are then the ones measured.
 */
static enum verdict split_needs_threads(const struct combo *c, const struct point *p, char *err,
					size_t errlen)
{
	struct rw_split split;

	if (p->kind != POINT_MIX || p->mix.mode != RW_MODE_split ||
	    !rw_split_init(&split, p->threads, &p->mix.rw, err, errlen))
		return KEEP;
	return has_mode(c->o, RW_MODE_interleave) ? SKIP : REFUSE;
}

/* A split point measures the ratio whole threads give: counted when that is not the one asked. */
static enum verdict split_ratio_rounded(const struct combo *c, const struct point *p, char *err,
					size_t errlen)
{
	const struct rw_ratio *asked = combo_rw(c);

	(void)err, (void)errlen;
	return p->kind == POINT_MIX && p->mix.mode == RW_MODE_split &&
	       (p->mix.rw.write_parts != asked->write_parts ||
		p->mix.rw.total_parts != asked->total_parts) ? NOTE : KEEP;
}

/* A delay is a chase's axis: any other point is the same whatever it says, so the first only. */
static enum verdict delay_is_a_chase_axis(const struct combo *c, const struct point *p, char *err,
					  size_t errlen)
{
	(void)err, (void)errlen;
	return p->victim.mode != VICTIM_CHASE && c->at[AXIS_DELAY] ? SKIP : KEEP;
}

/* A victim stands beside store points: a mix's own reads are what it measures already. */
static enum verdict victim_beside_stores(const struct combo *c, const struct point *p, char *err,
					 size_t errlen)
{
	(void)c, (void)err, (void)errlen;
	return p->kind == POINT_MIX && p->victim.mode != VICTIM_NONE ? SKIP : KEEP;
}

/* A victim on another CPU needs a free core of its kind (placement_near). */
static enum verdict victim_has_a_core(const struct combo *c, const struct point *p, char *err,
				      size_t errlen)
{
	(void)c, (void)err, (void)errlen;
	return p->victim.mode != VICTIM_NONE && p->victim.cpu < 0 ? SKIP : KEEP;
}

/* A compile-time-size kernel (memset_const) runs only at the sizes it was built for: never a
 * distribution's. */
static enum verdict size_was_built(const struct combo *c, const struct point *p, char *err,
				   size_t errlen)
{
	(void)c, (void)err, (void)errlen;
	return p->k->at_size && ((p->kind == POINT_STORE && p->store.dist) ||
				 !p->k->at_size(point_call_bytes(p))) ? SKIP : KEEP;
}

/* In order: the first SKIP or REFUSE decides, so a skipped combination is counted once. */
static const struct rule rules[] = {
	{ "store points ignore the mix axes", NO_COUNTER, store_ignores_mix_axes },
	{ "only a chase has a delay", NO_COUNTER, delay_is_a_chase_axis },
	{ "layout is an interleave axis", NO_COUNTER, layout_interleave_only },
	{ "a distribution's calls are stores", SKIPPED_RW, dist_stores_only },
	{ "a call fits its working set", SKIPPED, call_within_ws },
	{ "a distribution's calls fit their working set", NO_COUNTER, dist_within_ws },
	{ "a mix walks its region in order", SKIPPED_RW, mix_walks_in_order },
	{ "a chunk fits its region", NO_COUNTER, chunk_within_region },
	{ "a split mix needs a reader and a writer", SKIPPED_RW, split_needs_threads },
	{ "split ratios are whole threads", ROUNDED_SPLIT, split_ratio_rounded },
	{ "a victim stands beside store points", SKIPPED_VICTIM, victim_beside_stores },
	{ "a victim has a free core of its kind", SKIPPED_VICTIM, victim_has_a_core },
	{ "a compile-time size was built", SKIPPED_SIZE, size_was_built },
};

/* 1 when c is a point (*p) after the rules, 0 when one skipped it, -1 after a REFUSE's line. */
static int judge(const struct combo *c, struct point *p, size_t count[COUNTERS])
{
	char err[256];

	combo_point(c, p);
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
		switch (rules[i].judge(c, p, err, sizeof err)) {
		case KEEP:
			break;
		case NOTE:
			count[rules[i].counter]++;
			break;
		case SKIP:
			count[rules[i].counter]++;
			return 0;
		case REFUSE:
			fprintf(stderr, "storebench run: %s\n", err);
			return -1;
		}
	}
	return 1;
}

/* Order of two points' names, then of their place in the sweep (qsort is not stable). */
static const struct point *order_base;

static int by_name(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(order_base[i].name, order_base[j].name);

	return c ? c : (i > j) - (i < j);
}

/*
 * Keep the first of each name, in sweep order: a read/write point asked for twice (through the
 * call axis below rw 100, or two split ratios whole threads round alike) is measured once.
 * Sorting indices makes this O(n log n) for sweeps of many thousand points.
 */
static bool drop_repeats(struct point *pts, size_t *n)
{
	size_t *idx = malloc((*n ? *n : 1) * sizeof *idx), used = 0;
	bool *drop = calloc(*n ? *n : 1, sizeof *drop);

	if (!idx || !drop) {
		free(idx);
		free(drop);
		return false;
	}
	for (size_t i = 0; i < *n; i++)
		idx[i] = i;
	order_base = pts;
	qsort(idx, *n, sizeof *idx, by_name);
	for (size_t i = 1; i < *n; i++)
		drop[idx[i]] = !strcmp(pts[idx[i]].name, pts[idx[i - 1]].name);
	for (size_t i = 0; i < *n; i++)
		if (!drop[i])
			pts[used++] = pts[i];
	*n = used;
	free(idx);
	free(drop);
	return true;
}

struct point *sweep_points(const struct run_config *o, size_t *n, struct sweep_counts *counts)
{
	size_t cap, used = 0, len[AXIS_COUNT], count[COUNTERS] = { 0 };
	struct combo c = { .o = o };
	struct point *pts;

	*counts = (struct sweep_counts){ 0 };
	/* sweep_threads checked the whole sweep against SWEEP_MAX_COMBINATIONS */
	if (!sweep_combinations(o, &cap) || cap > SWEEP_MAX_COMBINATIONS) {
		fprintf(stderr, "storebench run: the sweep has more than %d combinations of its "
				"axes; use shorter lists\n", SWEEP_MAX_COMBINATIONS);
		return NULL;
	}
	pts = calloc(cap ? cap : 1, sizeof *pts);
	if (!pts) {
		perror("storebench run");
		exit(1);
	}
	axis_lengths(o, len);
	/* an empty axis has no combination (cap is 0) */
	for (bool more = cap > 0; more; more = combo_next(&c, len)) {
		int keep = judge(&c, &pts[used], count);

		if (keep < 0) {
			free(pts);
			return NULL;
		}
		if (keep) {
			point_name(&pts[used]);
			used += gbs_filter_match(pts[used].name);
		}
	}
	if (!drop_repeats(pts, &used)) {
		perror("storebench run");
		exit(1);
	}
	*counts = (struct sweep_counts){
		.skipped = count[SKIPPED], .skipped_rw = count[SKIPPED_RW],
		.rounded_split = count[ROUNDED_SPLIT], .skipped_victim = count[SKIPPED_VICTIM],
		.skipped_size = count[SKIPPED_SIZE],
	};
	*n = used;
	return pts;
}

/*
 * plan.c — building, running and verifying per-thread plans: store sweeps and read/write mixes.
 * Plain C.  plan_run is the timed inner loop: it dispatches on the plan's shape once, then calls
 * the kernel in a plain loop, so the harness adds a handful of instructions per call at most.
 */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "prng.h"

static bool single_op(struct plan *p, uint64_t call, uint64_t count)
{
	p->ops = calloc(1, sizeof *p->ops);
	if (!p->ops)
		return false;
	p->nops = 1;
	p->groups = 1;
	p->ops[0] = (struct plan_op){ .offset = 0, .bytes = call, .count = count, .stride = call,
				      .kind = OP_WRITE };
	p->region_bytes = call * count;
	p->calls = p->write_calls = count;
	return true;
}

/* Random offsets: slots of granule bytes, each call starting at a slot, within ws bytes. */
static bool random_offsets(struct plan *p, uint64_t call, uint64_t ws, uint64_t granule,
			   uint64_t seed)
{
	uint64_t slots = (ws - call) / granule + 1, n = ws / call;

	if (n > PLAN_MAX_OFFSETS)
		n = PLAN_MAX_OFFSETS;
	p->offsets = malloc(n * sizeof *p->offsets);
	if (!p->offsets)
		return false;
	if (granule == call && slots == n) {
		/* every slot once, in shuffled order: exactly ws distinct bytes per pass */
		for (uint64_t i = 0; i < n; i++)
			p->offsets[i] = i * call;
		for (uint64_t i = n - 1; i > 0; i--) {
			uint64_t j = prng_next(&seed) % (i + 1), t = p->offsets[i];

			p->offsets[i] = p->offsets[j];
			p->offsets[j] = t;
		}
	} else {
		for (uint64_t i = 0; i < n; i++)
			p->offsets[i] = prng_next(&seed) % slots * granule;
	}
	p->noffsets = n;
	p->region_bytes = ws;
	p->calls = p->write_calls = n;
	return true;
}

bool plan_store(struct plan *p, enum ws_mode mode, uint64_t call, uint64_t ws, uint64_t seed)
{
	bool ok;

	memset(p, 0, sizeof *p);
	p->call_bytes = call;
	switch (mode) {
	case WS_CALL:
	case WS_HOT:
		ok = single_op(p, call, 1);
		break;
	case WS_SEQ:
		ok = single_op(p, call, ws / call);
		break;
	case WS_COLD:
		ok = random_offsets(p, call, ws, 64, seed);
		break;
	default:
		ok = random_offsets(p, call, ws, call, seed);
		break;
	}
	p->write_bytes = p->write_calls * call;
	return ok;
}

bool plan_store_sizes(struct plan *p, const uint64_t *sizes, size_t n, uint64_t ws,
		      uint64_t seed)
{
	uint64_t sum = 0;

	memset(p, 0, sizeof *p);
	p->offsets = malloc((n ? n : 1) * sizeof *p->offsets);
	p->sizes = malloc((n ? n : 1) * sizeof *p->sizes);
	if (!p->offsets || !p->sizes) {
		plan_free(p);
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		p->sizes[i] = sizes[i];
		p->offsets[i] = prng_below(&seed, (ws - sizes[i]) / 64 + 1) * 64;
		sum += sizes[i];
	}
	p->noffsets = n;
	p->region_bytes = ws;
	p->calls = p->write_calls = n;
	p->write_bytes = sum;
	p->call_bytes = n ? (sum + n - 1) / n : 0;
	return true;
}

void plan_free(struct plan *p)
{
	free(p->ops);
	free(p->offsets);
	free(p->sizes);
	memset(p, 0, sizeof *p);
}

const struct plan *plan_cache_store(struct plan_cache *c, enum ws_mode mode, uint64_t call,
				    uint64_t ws, uint64_t seed)
{
	if (c->store && !c->sizes && c->mode == mode && c->call == call && c->ws == ws &&
	    c->seed == seed)
		return &c->plan;
	plan_cache_free(c);
	if (!plan_store(&c->plan, mode, call, ws, seed))
		return NULL;
	*c = (struct plan_cache){ c->plan, true, mode, call, ws, NULL, seed };
	return &c->plan;
}

const struct plan *plan_cache_sizes(struct plan_cache *c, const uint64_t *sizes, size_t nsizes,
				    uint64_t ws, uint64_t seed)
{
	if (c->store && c->sizes == sizes && c->ws == ws && c->seed == seed)
		return &c->plan;
	plan_cache_free(c);
	if (!plan_store_sizes(&c->plan, sizes, nsizes, ws, seed))
		return NULL;
	*c = (struct plan_cache){ c->plan, true, WS_RANDOM, c->plan.call_bytes, ws, sizes, seed };
	return &c->plan;
}

const struct plan *plan_cache_rw(struct plan_cache *c, uint64_t region, uint64_t chunk,
				 const struct rw_ratio *r, enum rw_layout l)
{
	plan_cache_free(c);
	return plan_rw(&c->plan, region, chunk, r, l) ? &c->plan : NULL;
}

void plan_cache_free(struct plan_cache *c)
{
	plan_free(&c->plan);
	memset(c, 0, sizeof *c);
}

/* Append one chunk as an op, or extend the last op of the current span when it continues it. */
static bool add_chunk(struct plan *p, size_t *cap, size_t span, const struct rw_chunk *ch,
		      uint64_t shift)
{
	enum op_kind kind = ch->op == RW_WRITE ? OP_WRITE : OP_READ;
	struct plan_op *last = p->nops > span ? &p->ops[p->nops - 1] : NULL;
	uint64_t at = ch->offset - shift;

	if (last && last->kind == kind && last->bytes == ch->bytes &&
	    last->offset + last->count * last->stride == at) {
		last->count++;
		return true;
	}
	if (p->nops == *cap) {
		struct plan_op *ops = realloc(p->ops, (*cap ? 2 * *cap : 16) * sizeof *ops);

		if (!ops)
			return false;
		p->ops = ops;
		*cap = *cap ? 2 * *cap : 16;
	}
	p->ops[p->nops++] = (struct plan_op){ .offset = at, .bytes = ch->bytes, .count = 1,
					      .stride = ch->bytes, .kind = kind };
	return true;
}

bool plan_rw(struct plan *p, uint64_t region, uint64_t chunk, const struct rw_ratio *r,
	     enum rw_layout l)
{
	struct rw_plan rp;
	struct rw_cursor cur;
	struct rw_chunk ch;
	uint64_t period, nfull = region / chunk;
	size_t cap = 0, body;
	char err[200];

	memset(p, 0, sizeof *p);
	if (rw_plan_init(&rp, region, chunk, r, l, err, sizeof err))
		return false;
	p->groups = 1;
	period = rp.nchunks;
	if (l == RW_LAYOUT_spread && nfull >= 2 * (uint64_t)r->total_parts) {
		/* total_parts chunks write exactly write_parts: the accumulator is back to 0 */
		period = r->total_parts;
		p->groups = nfull / period;
	}
	rw_cursor_start(&cur);
	while (cur.index < period && rw_plan_next(&rp, &cur, &ch))
		if (!add_chunk(p, &cap, 0, &ch, 0))
			goto oom;
	body = p->nops;
	if (p->groups > 1) {
		/* the remainder after the last whole period, from the same accumulator state */
		cur.index = p->groups * period;
		cur.acc = 0;
		while (rw_plan_next(&rp, &cur, &ch))
			if (!add_chunk(p, &cap, body, &ch, 0))
				goto oom;
	}
	p->tail = p->nops - body;
	p->group_stride = period * chunk;
	p->call_bytes = chunk;
	p->region_bytes = region;
	for (size_t o = 0; o < p->nops; o++) {
		const struct plan_op *op = &p->ops[o];
		uint64_t times = o < body ? p->groups * op->count : op->count;

		p->calls += times;
		if (op->kind == OP_WRITE) {
			p->write_calls += times;
			p->write_bytes += times * op->bytes;
		} else {
			p->read_bytes += times * op->bytes;
		}
	}
	return true;
oom:
	plan_free(p);
	return false;
}

/*
 * Call ops[0, n) at base.  With stop (split readers), check it before every call and return
 * false once it is set; *read counts the bytes of the load calls made.
 */
static bool run_span(const struct plan_op *ops, size_t n, char *base, store_fn store,
		     load_fn load, int fill, const atomic_bool *stop, uint64_t *sink,
		     uint64_t *read)
{
	for (size_t o = 0; o < n; o++) {
		const struct plan_op *op = &ops[o];
		char *dst = base + op->offset;

		for (uint64_t i = 0; i < op->count; i++, dst += op->stride) {
			if (stop && atomic_load_explicit(stop, memory_order_relaxed))
				return false;
			if (op->kind == OP_WRITE) {
				store(dst, fill, op->bytes);
			} else {
				*sink += load(dst, op->bytes);
				*read += op->bytes;
			}
		}
	}
	return true;
}

static bool run_pass(const struct plan *p, char *base, store_fn store, load_fn load, int fill,
		     const atomic_bool *stop, uint64_t *sink, uint64_t *read)
{
	size_t body = p->nops - p->tail;

	for (uint64_t g = 0; g < p->groups; g++)
		if (!run_span(p->ops, body, base + g * p->group_stride, store, load, fill, stop, sink,
			      read))
			return false;
	return run_span(p->ops + body, p->tail, base, store, load, fill, stop, sink, read);
}

void plan_run(const struct plan *p, char *base, store_fn store, load_fn load, int fill,
	      uint64_t passes)
{
	uint64_t acc = 0, read = 0;

	if (p->sizes) {
		for (uint64_t r = 0; r < passes; r++)
			for (size_t i = 0; i < p->noffsets; i++)
				store(base + p->offsets[i], fill, p->sizes[i]);
	} else if (p->offsets) {
		for (uint64_t r = 0; r < passes; r++)
			for (size_t i = 0; i < p->noffsets; i++)
				store(base + p->offsets[i], fill, p->call_bytes);
	} else if (p->nops == 1 && p->groups == 1 && p->ops[0].count == 1 &&
		   p->ops[0].kind == OP_WRITE) {
		/* the hot path of small calls: nothing but the call in the loop */
		char *dst = base + p->ops[0].offset;
		size_t n = p->ops[0].bytes;

		for (uint64_t r = 0; r < passes; r++)
			store(dst, fill, n);
	} else {
		for (uint64_t r = 0; r < passes; r++)
			run_pass(p, base, store, load, fill, NULL, &acc, &read);
	}
	/* loads feed acc, acc feeds this: the compiler cannot drop a read chunk */
	__asm__ volatile("" : : "r"(acc));
}

uint64_t plan_read_until(const struct plan *p, char *base, load_fn load, const atomic_bool *stop)
{
	uint64_t acc = 0, read = 0;

	while (p->calls && run_pass(p, base, NULL, load, 0, stop, &acc, &read))
		;
	__asm__ volatile("" : : "r"(acc));
	return read;
}

/* First byte in [s, s+n) that is not b, or NULL. */
static const char *mismatch(const char *s, size_t n, unsigned char b)
{
	uint64_t word = 0x0101010101010101ull * b;
	size_t i = 0;

	for (; i < n && ((uintptr_t)(s + i) & 7); i++)
		if ((unsigned char)s[i] != b)
			return s + i;
	/* four words per test: verification reads every byte of every round of every point, and
	 * one compare-and-branch per word left it a fifth of a rounds run's time */
	for (; i + 32 <= n; i += 32) {
		uint64_t w[4];

		memcpy(w, s + i, 32);
		if ((w[0] ^ word) | (w[1] ^ word) | (w[2] ^ word) | (w[3] ^ word))
			break;
	}
	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, s + i, 8);
		if (w != word)
			break;
	}
	for (; i < n; i++)
		if ((unsigned char)s[i] != b)
			return s + i;
	return NULL;
}

/* Verify ops[0, n) at base (see plan_verify); *hi grows to the furthest byte from region. */
static const char *verify_span(const struct plan_op *ops, size_t n, const char *base,
			       const char *region, unsigned char fill, unsigned char prefill,
			       uint64_t *hi)
{
	const char *m = NULL;

	for (size_t o = 0; o < n && !m; o++) {
		const struct plan_op *op = &ops[o];
		const char *dst = base + op->offset;

		for (uint64_t i = 0; i < op->count && !m; i++, dst += op->stride) {
			/* a read chunk must be untouched: a load that wrote or a stray store */
			m = mismatch(dst, op->bytes, op->kind == OP_WRITE ? fill : prefill);
			if ((uint64_t)(dst - region) + op->bytes > *hi)
				*hi = (uint64_t)(dst - region) + op->bytes;
		}
	}
	return m;
}

/* A call's range, for verify_sizes. */
struct range {
	uint64_t start, end;
};

static int by_start(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/*
 * plan_verify of a plan of sizes: every byte of every call's range holds fill, every byte of
 * the region between them still holds prefill (calls overlap, so a stray store past one call's
 * end shows only where no call reaches), and so do the guards.
 */
static bool verify_sizes(const struct plan *p, const char *base, unsigned char fill,
			 unsigned char prefill, size_t guard, const char **bad)
{
	struct range *r = malloc((p->noffsets ? p->noffsets : 1) * sizeof *r);
	const char *m = NULL;
	uint64_t covered = 0;

	if (!r) { /* out of memory: each call's range alone, no gaps */
		for (size_t i = 0; i < p->noffsets && !m; i++) {
			m = mismatch(base + p->offsets[i], p->sizes[i], fill);
			if (p->offsets[i] + p->sizes[i] > covered)
				covered = p->offsets[i] + p->sizes[i];
		}
		if (!m)
			m = mismatch(base - guard, guard, prefill) ?:
			    mismatch(base + covered, guard, prefill);
		*bad = m;
		return m == NULL;
	}
	for (size_t i = 0; i < p->noffsets; i++)
		r[i] = (struct range){ p->offsets[i], p->offsets[i] + p->sizes[i] };
	qsort(r, p->noffsets, sizeof *r, by_start);
	for (size_t i = 0; i < p->noffsets && !m; i++) {
		if (r[i].start > covered)
			m = mismatch(base + covered, r[i].start - covered, prefill);
		if (!m && r[i].end > covered) {
			uint64_t from = r[i].start > covered ? r[i].start : covered;

			m = mismatch(base + from, r[i].end - from, fill);
			covered = r[i].end;
		}
	}
	if (!m)
		m = mismatch(base - guard, guard, prefill) ?: mismatch(base + covered, guard, prefill);
	free(r);
	*bad = m;
	return m == NULL;
}

bool plan_verify(const struct plan *p, const char *base, unsigned char fill,
		 unsigned char prefill, size_t guard, const char **bad)
{
	size_t body = p->nops - p->tail;
	const char *m = NULL;
	uint64_t hi = 0;

	if (p->sizes)
		return verify_sizes(p, base, fill, prefill, guard, bad);
	if (p->offsets) {
		for (size_t i = 0; i < p->noffsets && !m; i++)
			m = mismatch(base + p->offsets[i], p->call_bytes, fill);
		for (size_t i = 0; i < p->noffsets; i++)
			if (p->offsets[i] + p->call_bytes > hi)
				hi = p->offsets[i] + p->call_bytes;
	}
	for (uint64_t g = 0; g < p->groups && !m; g++)
		m = verify_span(p->ops, body, base + g * p->group_stride, base, fill, prefill, &hi);
	if (!m)
		m = verify_span(p->ops + body, p->tail, base, base, fill, prefill, &hi);
	/* the contract: no byte outside [dst, dst+n) is touched; the neighbours must still hold prefill */
	if (!m)
		m = mismatch(base - guard, guard, prefill) ?: mismatch(base + hi, guard, prefill);
	*bad = m;
	return m == NULL;
}

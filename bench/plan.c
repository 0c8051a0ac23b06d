/*
 * plan.c — building, running and verifying per-thread plans.
 * Plain C.  plan_run is the timed inner loop: it dispatches on the plan's shape once, then calls
 * the kernel in a plain loop, so the harness adds a handful of instructions per call at most.
 */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

/* splitmix64: tiny, seedable, good enough to scatter offsets. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

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
			uint64_t j = next_random(&seed) % (i + 1), t = p->offsets[i];

			p->offsets[i] = p->offsets[j];
			p->offsets[j] = t;
		}
	} else {
		for (uint64_t i = 0; i < n; i++)
			p->offsets[i] = next_random(&seed) % slots * granule;
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

void plan_free(struct plan *p)
{
	free(p->ops);
	free(p->offsets);
	memset(p, 0, sizeof *p);
}

static uint64_t run_ops(const struct plan *p, char *base, store_fn store, load_fn load, int fill)
{
	uint64_t sink = 0;

	for (uint64_t g = 0; g < p->groups; g++) {
		char *group = base + g * p->group_stride;

		for (size_t o = 0; o < p->nops; o++) {
			const struct plan_op *op = &p->ops[o];
			char *dst = group + op->offset;

			for (uint64_t i = 0; i < op->count; i++, dst += op->stride) {
				if (op->kind == OP_WRITE)
					store(dst, fill, op->bytes);
				else
					sink += load(dst, op->bytes);
			}
		}
	}
	return sink;
}

void plan_run(const struct plan *p, char *base, store_fn store, load_fn load, int fill,
	      uint64_t passes)
{
	uint64_t acc = 0;

	if (p->offsets) {
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
			acc += run_ops(p, base, store, load, fill);
	}
	/* loads feed acc, acc feeds this: the compiler cannot drop a read chunk */
	__asm__ volatile("" : : "r"(acc));
}

/* First byte in [s, s+n) that is not b, or NULL. */
static const char *mismatch(const char *s, size_t n, unsigned char b)
{
	uint64_t word = 0x0101010101010101ull * b;
	size_t i = 0;

	for (; i < n && ((uintptr_t)(s + i) & 7); i++)
		if ((unsigned char)s[i] != b)
			return s + i;
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

bool plan_verify(const struct plan *p, const char *base, unsigned char fill,
		 unsigned char prefill, size_t guard, const char **bad)
{
	const char *m = NULL;
	uint64_t hi = 0;

	if (p->offsets) {
		for (size_t i = 0; i < p->noffsets && !m; i++)
			m = mismatch(base + p->offsets[i], p->call_bytes, fill);
		for (size_t i = 0; i < p->noffsets; i++)
			if (p->offsets[i] + p->call_bytes > hi)
				hi = p->offsets[i] + p->call_bytes;
	}
	for (uint64_t g = 0; g < p->groups && !m; g++) {
		for (size_t o = 0; o < p->nops && !m; o++) {
			const struct plan_op *op = &p->ops[o];
			const char *dst = base + g * p->group_stride + op->offset;

			for (uint64_t i = 0; i < op->count && !m; i++, dst += op->stride) {
				/* a read chunk must be untouched: its ends are the likely victims */
				if (op->kind == OP_WRITE)
					m = mismatch(dst, op->bytes, fill);
				else if (op->bytes)
					m = mismatch(dst, 1, prefill) ?: mismatch(dst + op->bytes - 1, 1,
										prefill);
				if ((uint64_t)(dst - base) + op->bytes > hi)
					hi = (uint64_t)(dst - base) + op->bytes;
			}
		}
	}
	/* the contract: no byte outside [dst, dst+n) is touched; the neighbours must still hold prefill */
	if (!m)
		m = mismatch(base - guard, guard, prefill) ?: mismatch(base + hi, guard, prefill);
	*bad = m;
	return m == NULL;
}

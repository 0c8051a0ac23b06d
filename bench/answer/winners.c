/*
 * winners.c — the winner sets, the table and the crossovers of a run.
 * Plain C.  A crossover is where the winner set of a series (groups equal but for their sizes)
 * changes decisively between neighbouring decided sizes: no kernel in at one is in at the
 * other.  Groups with open kernels in between carry no claim.
 */
#include "winners.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* A group's shape: its points' name without the kernel (groups.h). */
static const char *shape(const struct compare *c, size_t g)
{
	const char *s = strchr(c->pts[c->g->member[c->g->start[g]]].name, '/');

	return s ? s + 1 : "";
}

/*
 * The series of group g: its shape without the size fields (call:, ws:), into buf; the sizes
 * into at.  Groups of one series differ only in their sizes.
 */
static void series_of(const struct compare *c, size_t g, char *buf, size_t len, char *at,
		      size_t at_len)
{
	const char *s = shape(c, g);
	size_t n = 0, m = 0;

	while (*s) {
		size_t field = strcspn(s, "/");
		bool size = !strncmp(s, "call:", 5) || !strncmp(s, "ws:", 3);
		char *to = size ? at : buf;
		size_t *used = size ? &m : &n, room = size ? at_len : len;

		if (*used + field + 2 <= room) {
			if (*used)
				to[(*used)++] = '/';
			memcpy(to + *used, s, field);
			*used += field;
		}
		s += field + (s[field] == '/');
	}
	buf[n] = '\0';
	at[m] = '\0';
}

/* Whether decided groups a and b share a kernel in their winner sets. */
static bool sets_meet(const struct compare *c, size_t a, size_t b)
{
	for (size_t i = c->g->start[a]; i < c->g->start[a + 1]; i++) {
		const struct compare_point *x = &c->pt[c->g->member[i]];

		if (x->set != SET_IN)
			continue;
		for (size_t j = c->g->start[b]; j < c->g->start[b + 1]; j++)
			if (c->pt[c->g->member[j]].set == SET_IN &&
			    c->pts[c->g->member[j]].k == c->pts[c->g->member[i]].k)
				return true;
	}
	return false;
}

/* Where a series' winner set changes decisively: emit(ctx, series, group below, group above). */
static void crossovers(const struct compare *c,
		       void (*emit)(void *ctx, const char *series, size_t below, size_t above),
		       void *ctx)
{
	char series[192], last_series[192] = "", at[96];
	size_t last = (size_t)-1;

	/* groups come in the sweep's order, so a series' sizes come in order too */
	for (size_t g = 0; g < c->g->ngroups; g++) {
		if (c->answer[g] != VERDICT_DECIDED)
			continue;
		series_of(c, g, series, sizeof series, at, sizeof at);
		if (strcmp(series, last_series)) {
			snprintf(last_series, sizeof last_series, "%s", series);
			last = (size_t)-1;
		}
		if (last != (size_t)-1 && !sets_meet(c, last, g))
			emit(ctx, series, last, g);
		last = g;
	}
}

struct emit_ctx {
	FILE *out;
	const struct compare *c;
	const char *sep; /* before the next entry of a key=value list */
};

static void print_crossover(void *ctx, const char *series, size_t below, size_t above)
{
	const struct emit_ctx *e = ctx;
	char name[192], lo[96], hi[96];

	series_of(e->c, below, name, sizeof name, lo, sizeof lo);
	series_of(e->c, above, name, sizeof name, hi, sizeof hi);
	fprintf(e->out, "storebench: crossover at %s: %s leads up to %s, %s from %s\n", series,
		e->c->pts[e->c->leader[below]].k->name, lo, e->c->pts[e->c->leader[above]].k->name,
		hi);
}

static void key_crossover(void *ctx, const char *series, size_t below, size_t above)
{
	struct emit_ctx *e = ctx;
	char name[192], lo[96], hi[96];

	series_of(e->c, below, name, sizeof name, lo, sizeof lo);
	series_of(e->c, above, name, sizeof name, hi, sizeof hi);
	fprintf(e->out, "%s%s %s %s %s %s", e->sep, series, e->c->pts[e->c->leader[below]].k->name,
		lo, e->c->pts[e->c->leader[above]].k->name, hi);
	e->sep = ",";
}

/* "+12.3 % [+8.1, +15.0]" of a ratio, or what stands in for it. */
static void lead_text(const struct pair *p, char *buf, size_t len)
{
	if (isnan(p->ratio))
		snprintf(buf, len, "no common round");
	else if (isnan(p->lo))
		snprintf(buf, len, "%+.1f %% [too few rounds]", 100 * (p->ratio - 1));
	else
		snprintf(buf, len, "%+.1f %% [%+.1f, %+.1f]", 100 * (p->ratio - 1), 100 * (p->lo - 1),
			 100 * (p->hi - 1));
}

/* A kernel's unroll suffix ("_u4" -> 4), 0 for none; stem gets the name without it. */
static int unroll_of(const char *name, size_t *stem)
{
	const char *u = strrchr(name, '_');
	char *end;
	long n;

	*stem = strlen(name);
	if (!u || u[1] != 'u' || !u[2])
		return 0;
	n = strtol(u + 2, &end, 10);
	if (*end || n <= 0)
		return 0;
	*stem = (size_t)(u - name);
	return (int)n;
}

/*
 * The kernels of group g in set, as families: unrolls of one kernel joined
 * ("avx512_nt_u1/2/4"), in the sweep's order, into buf; how many kernels.
 */
static size_t set_text(const struct compare *c, size_t g, enum winner_set set, char *buf,
		       size_t len)
{
	size_t n = 0, used = 0, last_stem = 0;
	const char *last = NULL;

	buf[0] = '\0';
	for (size_t m = c->g->start[g]; m < c->g->start[g + 1]; m++) {
		const char *name = c->pts[c->g->member[m]].k->name;
		size_t stem;
		int u;

		if (c->pt[c->g->member[m]].set != set)
			continue;
		u = unroll_of(name, &stem);
		if (used < len) {
			if (u && last && stem == last_stem && !strncmp(name, last, stem))
				used += (size_t)snprintf(buf + used, len - used, "/%d", u);
			else
				used += (size_t)snprintf(buf + used, len - used, "%s%s", n ? ", " : "",
							 name);
		}
		last = u ? name : NULL;
		last_stem = stem;
		n++;
	}
	if (used >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
	return n;
}

/*
 * How the A/A control came out: memset_twin and memset in one set, or separated: one in and
 * the other out, or one the best and the other on the edge (proven slower than it).
 */
static void twin_line(FILE *out, const struct compare *c)
{
	size_t groups = 0, together = 0, apart = 0;

	for (size_t g = 0; g < c->g->ngroups; g++) {
		enum winner_set a = SET_NONE, b = SET_NONE;
		bool a_best = false, b_best = false;

		for (size_t m = c->g->start[g]; m < c->g->start[g + 1]; m++) {
			size_t i = c->g->member[m];
			const char *name = c->pts[i].k->name;

			if (!strcmp(name, COMPARE_BASELINE)) {
				a = c->pt[i].set;
				a_best = c->leader[g] == i;
			} else if (!strcmp(name, COMPARE_TWIN)) {
				b = c->pt[i].set;
				b_best = c->leader[g] == i;
			}
		}
		if (a == SET_NONE || b == SET_NONE)
			continue;
		groups++;
		together += a == b && a != SET_OPEN;
		apart += (a == SET_IN && b == SET_OUT) || (a == SET_OUT && b == SET_IN) ||
			 (a_best && b == SET_EDGE) || (b_best && a == SET_EDGE);
	}
	if (groups)
		fprintf(out, "storebench: control: %s (memset measured again) in the same set as "
			     "memset in %zu of %zu groups, separated from it (a wrong claim) in %zu\n",
			COMPARE_TWIN, together, groups, apart);
}

void winners_print(FILE *out, const struct compare *c)
{
	char in[512], edge[512], open[512], base[64];
	size_t nopen = 0;

	if (!c->paired) {
		fprintf(out, "storebench: no winner claimed: one round measures each point once, so no "
			     "kernel is paired with another (--rounds 6 or more pairs them)\n");
		return;
	}
	for (size_t g = 0; g < c->g->ngroups; g++)
		nopen += c->open[g];
	fprintf(out, "storebench: the answer, per comparison group: the kernels within +-%.0f %% of "
		     "the best (in), proven by paired rounds (signed-rank, %g %% error per group): "
		     "%zu of %zu groups decided, %zu with open kernels (%zu open in all)",
		100 * c->band, 100 * COMPARE_ALPHA, c->count[VERDICT_DECIDED],
		c->count[VERDICT_DECIDED] + c->count[VERDICT_UNDECIDED], c->count[VERDICT_UNDECIDED],
		nopen);
	/* a group of one kernel has nothing to be compared with: say so, not zeros */
	if (c->count[VERDICT_NONE])
		fprintf(out, "; %zu group%s with nothing to compare (one kernel)", c->count[VERDICT_NONE],
			c->count[VERDICT_NONE] == 1 ? "" : "s");
	fputc('\n', out);
	twin_line(out, c);
	for (size_t g = 0; g < c->g->ngroups; g++) {
		size_t l = c->leader[g], nout = 0;
		const struct compare_point *p;

		if (l == (size_t)-1 || c->answer[g] == VERDICT_NONE)
			continue;
		p = &c->pt[l];
		set_text(c, g, SET_IN, in, sizeof in);
		for (size_t m = c->g->start[g]; m < c->g->start[g + 1]; m++)
			nout += c->pt[c->g->member[m]].set == SET_OUT;
		fprintf(out, "  %-44s %-9s in: %s (best %s %.3g GB/s", shape(c, g),
			verdict_name[c->answer[g]], in, c->pts[l].k->name, p->median);
		if (p->memset.verdict != VERDICT_NONE) {
			lead_text(&p->memset, base, sizeof base);
			fprintf(out, ", over memset %s", base);
		}
		fprintf(out, "); %zu out", nout);
		if (set_text(c, g, SET_EDGE, edge, sizeof edge))
			fprintf(out, "; on the band's edge: %s", edge);
		if (set_text(c, g, SET_OPEN, open, sizeof open))
			fprintf(out, "; open: %s", open);
		fputc('\n', out);
	}
	crossovers(c, print_crossover, &(struct emit_ctx){ .out = out, .c = c });
}

/* The sets of a winner_sets entry, in its order (out is every other kernel of the group). */
static const enum winner_set key_sets[] = { SET_IN, SET_EDGE, SET_OPEN };

void winners_keys(FILE *out, const char *prefix, const struct compare *c)
{
	const char *sep = "";

	fprintf(out, "%swinners=", prefix);
	for (size_t g = 0; g < c->g->ngroups; g++) {
		size_t l = c->leader[g];
		const struct pair *n;

		if (l == (size_t)-1 || c->answer[g] == VERDICT_NONE)
			continue;
		n = &c->pt[l].next;
		fprintf(out, "%s%s %s %s", sep, shape(c, g), c->pts[l].k->name,
			verdict_name[c->answer[g]]);
		if (c->paired && !isnan(n->lo))
			fprintf(out, " %.4f %.4f %.4f", n->ratio, n->lo, n->hi);
		sep = ",";
	}
	fprintf(out, "\n%swinner_sets=", prefix);
	sep = "";
	for (size_t g = 0; g < c->g->ngroups; g++) {
		const char *s2 = "";

		if (c->leader[g] == (size_t)-1 || c->answer[g] == VERDICT_NONE || !c->paired)
			continue;
		fprintf(out, "%s%s %s", sep, shape(c, g), verdict_name[c->answer[g]]);
		for (size_t k = 0; k < sizeof key_sets / sizeof *key_sets; k++) {
			s2 = "";
			fputc(' ', out);
			for (size_t m = c->g->start[g]; m < c->g->start[g + 1]; m++)
				if (c->pt[c->g->member[m]].set == key_sets[k]) {
					fprintf(out, "%s%s", s2, c->pts[c->g->member[m]].k->name);
					s2 = "+";
				}
			if (!*s2)
				fputc('-', out);
		}
		sep = ",";
	}
	fprintf(out, "\n%scrossovers=", prefix);
	crossovers(c, key_crossover, &(struct emit_ctx){ .out = out, .c = c, .sep = "" });
	fputc('\n', out);
}

/*
 * winners.c — the winners table and the crossovers of a run.
 * Plain C.  A crossover is where the decided leader of a series (groups equal but for their
 * sizes) changes between neighbouring sizes; ties and undecided groups in between carry no claim.
 */
#include "winners.h"

#include <math.h>
#include <stdbool.h>
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

/* Where a series' decided leader changes: emit(ctx, series, group below, group above). */
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
		if (last != (size_t)-1 && c->pts[c->leader[last]].k != c->pts[c->leader[g]].k)
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

void winners_print(FILE *out, const struct compare *c)
{
	char next[64], base[64];

	if (!c->paired) {
		fprintf(out, "storebench: no winner claimed: one round measures each point once, so no "
			     "kernel is paired with another (--rounds 6 or more pairs them)\n");
		return;
	}
	fprintf(out, "storebench: the answer, per comparison group (paired 95 %% intervals over the "
		     "rounds, tie band +-%.0f %%): %zu decided, %zu tie, %zu undecided", 100 * c->band,
		c->count[VERDICT_DECIDED], c->count[VERDICT_TIE], c->count[VERDICT_UNDECIDED]);
	/* a group of one kernel has nothing to be compared with: say so, not three zeros */
	if (c->count[VERDICT_NONE])
		fprintf(out, "; %zu group%s with nothing to compare (one kernel)", c->count[VERDICT_NONE],
			c->count[VERDICT_NONE] == 1 ? "" : "s");
	fputc('\n', out);
	for (size_t g = 0; g < c->g->ngroups; g++) {
		size_t l = c->leader[g];
		const struct compare_point *p;

		if (l == (size_t)-1 || c->answer[g] == VERDICT_NONE)
			continue;
		p = &c->pt[l];
		lead_text(&p->next, next, sizeof next);
		fprintf(out, "  %-44s %-16s %-9s", shape(c, g), c->pts[l].k->name,
			verdict_name[c->answer[g]]);
		fprintf(out, "  over %s %s %s", c->pts[p->next.other].k->name, next,
				verdict_name[p->next.verdict]);
		if (p->memset.verdict != VERDICT_NONE && p->memset.other != p->next.other) {
			lead_text(&p->memset, base, sizeof base);
			fprintf(out, "; over memset %s %s", base, verdict_name[p->memset.verdict]);
		}
		fputc('\n', out);
	}
	crossovers(c, print_crossover, &(struct emit_ctx){ .out = out, .c = c });
}

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
	fprintf(out, "\n%scrossovers=", prefix);
	crossovers(c, key_crossover, &(struct emit_ctx){ .out = out, .c = c, .sep = "" });
	fputc('\n', out);
}

/*
 * rows.c — a run's rows on their way to the CSV: each point's slot over the rounds, and the
 * writer that puts them out in the sweep's order and keeps both files at the same points.
 * Plain C.
 */
#include "rows.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gbench_shim.h"
#include "progress.h"
#include "run_metadata.h"
#include "winners.h"

int rows_write_failed(struct outfiles *of, const char *file, int err, size_t done)
{
	if (done) {
		fprintf(stderr, "storebench run: writing %s: %s; stopped, both files keep the %zu "
				"complete points before it\n", file, strerror(err), done);
		return 1;
	}
	fprintf(stderr, "storebench run: writing %s: %s; no point complete, both files removed\n",
		file, strerror(err));
	outfiles_discard(of);
	return 1;
}

void rows_print_flagged(const struct flagged *f, size_t done, const struct quality_limits *l)
{
	char name[QUALITY_TEXT_MAX];
	const char *sep = "";

	if (!f->points)
		return;
	fprintf(stderr, "storebench: warning: %zu of %zu points flagged in the quality column:",
		f->points, done);
	for (int b = 0; b < QUALITY_REASONS; b++)
		if (f->reason[b]) {
			fprintf(stderr, "%s %s %zu", sep, quality_format(1u << b, name, sizeof name),
				f->reason[b]);
			sep = ",";
		}
	if (f->reason[0])
		fprintf(stderr, " (shared_cpu: a thread had under %.0f%% of its CPU; other work on the "
				"pinned CPUs?)", 100 * l->cpu_share_min);
	fputs("; results/README.md: Quality\n", stderr);
}

/* The rows of slots [w->next, upto) that were measured, into the CSV's stream (not yet kept). */
static void put_rows(struct rows_out *w, size_t upto)
{
	for (; w->next < upto; w->next++) {
		struct point_slot *s = &w->slots[w->next];
		struct csv_measured m = {
			.stats = &s->stats, .cmp = w->cmp, .i = w->next, .quality = s->quality,
			.remeasured = s->remeasured, .failed = s->failed,
		};

		if (!s->measured)
			continue;
		csv_write_row(w->of->csv_stream, s->identity, &m);
		w->adding.points += s->quality != 0;
		for (int b = 0; b < QUALITY_REASONS; b++)
			w->adding.reason[b] += (s->quality >> b) & 1;
		w->pending++;
	}
}

/*
 * Keep what was written: the CSV, then, when rows were added, the JSON with every point reported
 * so far (the same points).  On a failure the CSV is cut back to what was kept before,
 * w->failed names the file, w->werr says why; returns false.
 */
static bool keep_rows(struct rows_out *w)
{
	off_t kept = w->of->csv_kept;

	if (!outfiles_keep_csv(w->of)) {
		w->werr = errno;
		w->failed = w->of->csv.abs;
		return false;
	}
	w->werr = w->pending ? gbs_keep() : 0;
	if (w->werr) {
		outfiles_cut_csv(w->of, kept);
		w->failed = w->of->json.abs;
		return false;
	}
	w->done += w->pending;
	w->flagged.points += w->adding.points;
	for (int b = 0; b < QUALITY_REASONS; b++)
		w->flagged.reason[b] += w->adding.reason[b];
	w->pending = 0;
	w->adding = (struct flagged){ 0 };
	return true;
}

bool rows_write(struct rows_out *w, size_t upto)
{
	put_rows(w, upto);
	return keep_rows(w);
}

void rows_timing_keys(FILE *out, const char *prefix, double timed_s)
{
	double wall = progress_elapsed();

	fprintf(out, "%stimed_s=%.1f\n%stimed_share=%.2f\n", prefix, timed_s, prefix,
		wall > 0 ? timed_s / wall : 0);
}

bool rows_canary(struct rows_out *w, const struct canary *c, size_t upto, bool last)
{
	put_rows(w, upto);
	for (; w->samples < c->r[CANARY_DRAM].n; w->samples++)
		canary_sample_line(w->of->csv_stream, "# ", c, w->samples);
	if (last)
		canary_summary(w->of->csv_stream, "# ", c);
	return keep_rows(w);
}

bool rows_rewrite(struct rows_out *w, const struct canary *c, bool last)
{
	bool ok;

	if (!outfiles_rewrite_begin(w->of, w->body)) {
		w->werr = errno;
		w->failed = w->of->csv.abs;
		return false;
	}
	w->next = w->samples = w->pending = w->done = 0;
	w->flagged = w->adding = (struct flagged){ 0 };
	put_rows(w, w->nslots);
	if (last && w->cmp) { /* the answer, after the rows it rests on */
		winners_keys(w->of->csv_stream, "# ", w->cmp);
		rows_timing_keys(w->of->csv_stream, "# ", w->timed_s);
	}
	ok = c ? rows_canary(w, c, w->nslots, last) : keep_rows(w);
	if (ok && !outfiles_rewrite_commit(w->of)) {
		w->werr = errno;
		w->failed = w->of->csv.abs;
		ok = false;
	}
	if (!ok)
		outfiles_rewrite_abort(w->of);
	return ok;
}

bool rows_start(struct rows_out *w, const char *meta, const struct canary *c)
{
	write_preamble(w->of->csv_stream, meta, false);
	if (c)
		canary_settings(w->of->csv_stream, "# ", c);
	csv_header(w->of->csv_stream);
	if (!keep_rows(w))
		return false;
	w->body = w->of->csv_kept;
	return c ? rows_canary(w, c, 0, false) : true;
}

struct point_slot *slots_new(const struct point *pts, size_t n, const struct run_config *o)
{
	struct point_slot *slots = calloc(n ? n : 1, sizeof *slots);

	for (size_t i = 0; slots && i < n; i++) {
		slots[i].identity = csv_identity(&pts[i], o);
		if (!slots[i].identity) {
			slots_free(slots, i);
			return NULL;
		}
	}
	return slots;
}

void slots_free(struct point_slot *slots, size_t n)
{
	for (size_t i = 0; slots && i < n; i++) {
		point_history_free(slots[i].hist);
		free(slots[i].identity);
	}
	free(slots);
}

bool slots_canary_step(struct canary *c, struct point_slot *slots, size_t npts,
		       const size_t *order, const unsigned char *regime, size_t to, bool again)
{
	size_t *seen = NULL, *bad = NULL;
	bool ok = canary_sample(c, to);

	if (ok) {
		seen = calloc(npts ? npts : 1, sizeof *seen);
		bad = calloc(npts ? npts : 1, sizeof *bad);
		ok = seen && bad;
	}
	if (!ok) {
		free(seen);
		free(bad);
		fprintf(stderr, "storebench run: out of memory for the canary's series\n");
		return false;
	}
	/* window j holds the measurements between samples j - 1 and j, and sample j is the
	 * median of its passes; each point is judged by the canary of its own regime */
	for (int r = 0; r < CANARY_REGIMES; r++) {
		const struct canary_series *s = &c->r[r];

		for (size_t j = again ? 1 : s->n - 1; s->bytes && j < s->n; j++) {
			bool out = canary_out(c, (enum canary_regime)r, j);

			for (size_t k = s->s[j - 1].at; k < s->s[j].at; k++) {
				seen[order[k]] += regime[order[k]] == r;
				bad[order[k]] += regime[order[k]] == r && out;
			}
		}
	}
	for (size_t i = 0; i < npts; i++)
		if (seen[i])
			slots[i].quality = (slots[i].quality & ~(unsigned)QUALITY_drift) |
					   (2 * bad[i] > seen[i] ? QUALITY_drift : 0);
	free(seen);
	free(bad);
	return true;
}

/*
 * csv.c — the header and the one row builder of the result CSV (RFC 4180 quoting).
 * Plain C.  The caller flushes and fsyncs after each row (outfiles_keep_csv), where a failed
 * write is seen and the partial row cut off: a killed or starved run keeps every whole row.
 */
#include "csv.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "run_config.h"
#include "quality.h"
#include "sweep_threads.h"

static const char *const col_names[COL_COUNT] = {
#define COLUMN(name, desc) #name,
#include "csv_columns.def"
#undef COLUMN
};

/* A field's capacity: the cpus column lists up to a few thousand CPUs ("0,2,4,...,1534"); a
 * longer list stays empty, never cut. */
#define FIELD_MAX 8192

/* What column() reads: a point's identity (p, o) or its measurement (m), never both. */
struct row_source {
	const struct point *p;        /* identity columns: the point */
	const struct run_config *o;     /* and the run's settings */
	const struct csv_measured *m; /* measured columns */
};

static void put(char *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(char *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f, FIELD_MAX, fmt, ap);
	va_end(ap);
}

/* A statistic, with the digits the CSV has always given it; empty when NAN. */
static void number(char *f, const char *fmt, double v)
{
	if (!isnan(v))
		put(f, fmt, v);
}

/* One paired ratio's columns (which: ratio, ci low, ci high, verdict); empty without a pair. */
static void pair_field(char *f, const struct pair *p, int which)
{
	if (p->verdict == VERDICT_NONE)
		return;
	if (which == 3)
		put(f, "%s", verdict_name[p->verdict]);
	else
		number(f, "%.4f", which == 0 ? p->ratio : which == 1 ? p->lo : p->hi);
}

/* One of a probe's five columns (which: idle ns, loaded ns, slowdown, its ci low, ci high). */
static void probe_field(char *f, const struct victim_result *v, int which)
{
	const double x[] = { v->idle_ns, v->loaded_ns, v->slowdown, v->lo, v->hi };

	number(f, which < 2 ? "%.4g" : "%.4f", x[which]);
}

/* Column c's value into f (FIELD_MAX bytes, "" on entry): the one place each column is made. */
static void column(enum csv_col c, const struct row_source *r, char *f)
{
	const struct point *p = r->p;
	const struct run_config *o = r->o;
	const struct scaled_axes *a = p ? axes_at(o, p->threads) : NULL;
	const struct point_stats *st = r->m ? r->m->stats : NULL;
	const struct compare_point *cp = r->m && r->m->cmp ? &r->m->cmp->pt[r->m->i] : NULL;
	bool mix = p && p->kind == POINT_MIX;
	enum level cls;
	char quality[QUALITY_TEXT_MAX];

	if (cp && !cp->rank)
		cp = NULL; /* unranked: nothing to say */
	switch (c) {
	case COL_point: put(f, "%s", p->name); break;
	case COL_kernel: put(f, "%s", p->k->name); break;
	case COL_kind: put(f, "%s", kernel_kind_name(p->k->kind)); break;
	case COL_width_bytes: put(f, "%u", p->k->width); break;
	case COL_unroll: put(f, "%u", p->k->unroll); break;
	case COL_call_bytes:
	case COL_chunk_bytes: put(f, "%llu", (unsigned long long)point_shown(p).call); break;
	case COL_call_const: put(f, "%d", p->k->at_size != NULL); break;
	case COL_call_dist:
		put(f, "%s", p->kind == POINT_STORE && p->store.dist ? p->store.dist : "");
		break;
	case COL_ws_mode: put(f, "%s", ws_mode_name[point_shown(p).mode]); break;
	case COL_ws_bytes: put(f, "%llu", (unsigned long long)point_shown(p).ws); break;
	case COL_threads: put(f, "%u", p->threads); break;
	case COL_placement: put(f, "%s", o->placement.spec); break;
	case COL_cpus:
		if (a && !scaled_cpus(&a->ts, f, FIELD_MAX))
			f[0] = '\0';
		break;
	case COL_nodes:
		if (a && !scaled_nodes(o->topo, &a->ts, f, FIELD_MAX))
			f[0] = '\0';
		break;
	case COL_l2_threads:
		if (a)
			put(f, "%u", a->ts.cache[TOPO_L2].threads_max);
		break;
	case COL_l3_threads:
		if (a)
			put(f, "%u", a->ts.cache[TOPO_L3].threads_max);
		break;
	case COL_ws_class:
		if (a && (cls = point_class(p, a)) != LEVEL_BETWEEN)
			put(f, "%s", level_name[cls]);
		break;
	case COL_membind: put(f, "%s", o->membind_name); break;
	case COL_pages: put(f, "%s", page_policy_name[o->pages]); break;
	case COL_misalign_bytes: put(f, "%u", p->misalign); break;
	case COL_fill_byte: put(f, "%u", o->fill); break;
	case COL_rw_ratio: point_rw_text(p, f, FIELD_MAX); break;
	/* a store point has no mix: it shows the run's first --rw-mode and --rw-layout */
	case COL_rw_mode: put(f, "%s", rw_mode_name(mix ? p->mix.mode : o->rw_mode[0])); break;
	case COL_rw_layout:
		if (!mix || p->mix.mode != RW_MODE_split) /* whole threads: no layout */
			put(f, "%s", rw_layout_name(mix ? p->mix.layout : o->rw_layout[0]));
		break;
	case COL_read_kernel: put(f, "%s", mix ? o->load->name : ""); break;
	case COL_victim: put(f, "%s", victim_mode_name[p->victim.mode]); break;
	case COL_victim_bytes:
		if (p->victim.mode != VICTIM_NONE)
			put(f, "%llu", (unsigned long long)p->victim.bytes);
		break;
	case COL_victim_cpu:
		if (p->victim.mode != VICTIM_NONE)
			put(f, "%d", p->victim.cpu);
		break;
	case COL_victim_delay_ns:
		if (p->victim.mode == VICTIM_CHASE)
			put(f, "%llu", (unsigned long long)p->victim.delay_ns);
		break;
	case COL_repetitions: put(f, "%d", st->repetitions); break;
	case COL_iterations:
		if (st->iterations >= 0)
			put(f, "%lld", (long long)st->iterations);
		break;
	case COL_calls_per_batch: put(f, "%llu", (unsigned long long)st->calls_per_batch); break;
	case COL_read_bytes: put(f, "%llu", (unsigned long long)st->read_bytes); break;
	case COL_write_bytes: put(f, "%llu", (unsigned long long)st->write_bytes); break;
	case COL_gbps_median:
	case COL_total_gbps: number(f, "%.6g", st->gbps_median); break;
	case COL_gbps_mean: number(f, "%.6g", st->gbps_mean); break;
	case COL_gbps_min: number(f, "%.6g", st->gbps_min); break;
	case COL_gbps_max: number(f, "%.6g", st->gbps_max); break;
	case COL_gbps_cv: number(f, "%.4g", st->gbps_cv); break;
	case COL_samples:
		if (st->samples >= 0)
			put(f, "%d", st->samples);
		break;
	case COL_gbps_ci_low: number(f, "%.6g", st->gbps_ci_low); break;
	case COL_gbps_ci_high: number(f, "%.6g", st->gbps_ci_high); break;
	case COL_read_gbps: number(f, "%.6g", st->read_gbps); break;
	case COL_write_gbps: number(f, "%.6g", st->write_gbps); break;
	case COL_ns_per_call_median: number(f, "%.6g", st->ns_per_call); break;
	case COL_ticks_per_call_median: number(f, "%.6g", st->ticks_per_call); break;
	case COL_ticks_per_line_median: number(f, "%.6g", st->ticks_per_line); break;
	case COL_cycles_per_call_median: number(f, "%.6g", st->cycles_per_call); break;
	case COL_cpu_share_min: number(f, "%.3f", st->cpu_share_min); break;
	case COL_batch_ns_median: number(f, "%.0f", st->batch_ns); break;
	case COL_start_skew_share: number(f, "%.4f", st->start_skew_share); break;
	case COL_rounds: put(f, "%d", st->rounds); break;
	case COL_group_rank:
		if (cp)
			put(f, "%u", cp->rank);
		break;
	case COL_vs_next_kernel:
		if (cp && cp->next.verdict != VERDICT_NONE)
			put(f, "%s", r->m->cmp->pts[cp->next.other].k->name);
		break;
	case COL_vs_next_ratio:
	case COL_vs_next_ci_low:
	case COL_vs_next_ci_high:
	case COL_vs_next_verdict:
		if (cp)
			pair_field(f, &cp->next, (int)(c - COL_vs_next_ratio));
		break;
	case COL_vs_memset_ratio:
	case COL_vs_memset_ci_low:
	case COL_vs_memset_ci_high:
	case COL_vs_memset_verdict:
		if (cp)
			pair_field(f, &cp->memset, (int)(c - COL_vs_memset_ratio));
		break;
	case COL_vs_memset_point:
		if (cp && cp->memset.verdict != VERDICT_NONE)
			put(f, "%s", r->m->cmp->pts[cp->memset.other].name);
		break;
	case COL_winner_set:
		if (cp)
			put(f, "%s", winner_set_name[cp->set]);
		break;
	case COL_vs_best_ratio:
	case COL_vs_best_ci_low:
	case COL_vs_best_ci_high:
		if (cp)
			pair_field(f, &cp->best, (int)(c - COL_vs_best_ratio));
		break;
	case COL_victim_trials:
		if (st->victim.trials >= 0)
			put(f, "%d", st->victim.trials);
		break;
	case COL_victim_ns_per_line_warm:
		if (st->victim.trials >= 0 && !st->victim.chase)
			number(f, "%.4g", st->victim.warm_ns);
		break;
	case COL_victim_ns_per_line_idle:
	case COL_victim_ns_per_line:
	case COL_victim_slowdown:
	case COL_victim_slowdown_ci_low:
	case COL_victim_slowdown_ci_high:
		if (st->victim.trials >= 0 && !st->victim.chase)
			probe_field(f, &st->victim, (int)(c - COL_victim_ns_per_line_idle));
		break;
	case COL_chase_ns_idle:
	case COL_chase_ns_median:
	case COL_chase_slowdown:
	case COL_chase_slowdown_ci_low:
	case COL_chase_slowdown_ci_high:
		if (st->victim.trials >= 0 && st->victim.chase)
			probe_field(f, &st->victim, (int)(c - COL_chase_ns_idle));
		break;
	case COL_chase_write_gbps: number(f, "%.6g", st->victim.write_gbps); break;
	case COL_remeasured: put(f, "%d", r->m->remeasured); break;
	case COL_quality:
		if (!r->m->failed)
			put(f, "%s", quality_format(r->m->quality, quality, sizeof quality));
		break;
	case COL_verified: put(f, "%s", st->verified ? "ok" : "failed"); break;
	case COL_COUNT: break;
	}
}

_Static_assert(COL_vs_next_verdict - COL_vs_next_ratio == 3 &&
	       COL_vs_next_ci_low - COL_vs_next_ratio == 1 &&
	       COL_vs_memset_verdict - COL_vs_memset_ratio == 3 &&
	       COL_vs_memset_ci_low - COL_vs_memset_ratio == 1 &&
	       COL_vs_best_ci_high - COL_vs_best_ratio == 2,
	       "pair_field reads a pair's four columns in the .def's order");
_Static_assert(COL_victim_slowdown_ci_high - COL_victim_ns_per_line_idle == 4 &&
	       COL_chase_slowdown_ci_high - COL_chase_ns_idle == 4,
	       "probe_field reads a probe's five columns in the .def's order");

static void field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* Columns [from, to) of r, each after a ',' but the very first column. */
static void fields(FILE *out, const struct row_source *r, int from, int to, char *f)
{
	for (int c = from; c < to; c++) {
		f[0] = '\0';
		column((enum csv_col)c, r, f);
		if (c)
			fputc(',', out);
		field(out, f);
	}
}

void csv_header(FILE *out)
{
	for (int c = 0; c < COL_COUNT; c++) {
		if (c)
			fputc(',', out);
		fputs(col_names[c], out);
	}
	fputc('\n', out);
}

char *csv_identity(const struct point *p, const struct run_config *o)
{
	struct row_source r = { .p = p, .o = o };
	char *text = NULL, *f = malloc(FIELD_MAX);
	size_t len = 0;
	FILE *m = f ? open_memstream(&text, &len) : NULL;

	if (m) {
		fields(m, &r, 0, CSV_FIRST_MEASURED, f);
		if (fclose(m)) {
			free(text);
			text = NULL;
		}
	}
	free(f);
	return text;
}

void csv_write_row(FILE *out, const char *identity, const struct csv_measured *m)
{
	struct row_source r = { .m = m };
	char f[FIELD_MAX];

	fputs(identity, out);
	fields(out, &r, CSV_FIRST_MEASURED, COL_COUNT, f);
	fputc('\n', out);
}

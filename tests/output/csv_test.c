/*
 * csv_test.c — the one row builder (bench/output/csv.c): every column of a fully measured point
 * gets a value, in the header's order; what is not measured stays empty, never zero; a point's
 * identity columns say what its name says.  On a replayed 2-socket Genoa, through the options
 * parser and sweep_threads() as `storebench run` builds its rows.  Plain C.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "groups.h"
#include "machine.h"
#include "run_config.h"
#include "quality.h"
#include "sweep_threads.h"
#include "replay_genoa.h"
#include "test_util.h"

static struct machine genoa;

/* One CSV line split into fields (RFC 4180 quotes undone); returns how many, at most max. */
static int split(const char *line, char fields[][8192], int max)
{
	int n = 0;

	while (n < max) {
		char *f = fields[n++];
		bool quoted = *line == '"';

		line += quoted;
		while (*line && (quoted || (*line != ',' && *line != '\n'))) {
			if (quoted && *line == '"') {
				if (line[1] != '"') {
					line++;
					quoted = false;
					continue;
				}
				line++;
			}
			*f++ = *line++;
		}
		*f = '\0';
		if (*line != ',')
			break;
		line++;
	}
	return n;
}

/* The header's names, in order. */
static int header(char names[][8192])
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int n;

	csv_header(m);
	fclose(m);
	n = split(text, names, COL_COUNT + 1);
	free(text);
	return n;
}

/* p's row as csv_write_row gives it, split into fields; returns their count. */
static int row_of(const struct point *p, const struct run_config *o, const struct csv_measured *m,
		  char fields[][8192])
{
	char *identity = csv_identity(p, o), *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int n;

	CHECK(identity && !strchr(identity, '\n'), "identity of %s", p->name);
	csv_write_row(out, identity ? identity : "", m);
	fclose(out);
	CHECK(len && text[len - 1] == '\n' && !memchr(text, '\n', len - 1),
	      "%s: one line ending in a newline", p->name);
	n = split(text, fields, COL_COUNT + 1);
	free(identity);
	free(text);
	return n;
}

/* Every statistic given, as a point measured over rounds with perf counters would have them. */
static struct point_stats full_stats(void)
{
	return (struct point_stats){
		.verified = true, .repetitions = 12, .iterations = 40, .calls_per_batch = 96,
		.read_bytes = 1 << 20, .write_bytes = 1 << 20, .rounds = 6,
		.gbps_median = 50.25, .gbps_mean = 50.5, .gbps_min = 49, .gbps_max = 52,
		.gbps_cv = 0.0125, .samples = 6, .gbps_ci_low = 49.5, .gbps_ci_high = 51.5,
		.read_gbps = 25.125, .write_gbps = 25.125, .ns_per_call = 640, .ticks_per_call = 1500,
		.ticks_per_line = 1.5, .cycles_per_call = 1400, .cpu_share_min = 0.998,
		.batch_ns = 200000, .start_skew_share = 0.0012,
		.victim = { .trials = -1, .idle_ns = NAN, .loaded_ns = NAN, .slowdown = NAN,
			    .lo = NAN, .hi = NAN, .write_gbps = NAN },
	};
}

/* Column c (named name) is a victim's: its identity or one probe's numbers (chase_ or victim_);
 * the other probe's and a row without a victim leave them empty (victim_probe_columns). */
static bool probe_column(const char *name, int c, bool chase)
{
	if (c == COL_victim_delay_ns)
		return chase; /* a chase's axis, named as its victim's */
	return !strncmp(name, chase ? "chase_" : "victim_", chase ? 6 : 7) ||
	       c == COL_victim_trials || c == COL_victim_bytes || c == COL_victim_cpu;
}

/* The run's options and sweep for args (NULL-ended, kept alive while o is used); run_config_free
 * and free(pts) after. */
static struct point *sweep(const char *const *args, struct run_config *o, size_t *n)
{
	static char *argv[32] = { "run" };
	struct sweep_counts counts;
	struct cmdline cl;
	struct point *pts = NULL;
	int argc = 1;

	for (; args[argc - 1]; argc++)
		argv[argc] = (char *)args[argc - 1];
	if (cmdline_read(argc, argv, &cl) || run_config_parse(&cl, &genoa, o))
		CHECK(0, "options refused");
	else
		pts = sweep_threads(o, n, &counts);
	cmdline_free(&cl);
	return pts;
}

#define SWEEP(o, n, ...) sweep((const char *const[]){ __VA_ARGS__, NULL }, o, n)

/* An interleave mix point with every statistic and a ranked, paired comparison: no column is
 * left without a value, and the header and the row agree field for field. */
static void every_column_has_a_source(void)
{
	static char names[COL_COUNT + 1][8192], f[COL_COUNT + 1][8192];
	struct run_config o;
	size_t n = 0;
	struct point *pts = SWEEP(&o, &n, "--kernels=memset,avx2_t_u4", "--threads=2",
				  "--rw=50", "--chunk=4096", "--call=256KiB");
	struct groups g;
	struct compare cmp;
	struct point_stats st = full_stats();
	struct csv_measured m = { .stats = &st, .cmp = &cmp, .i = 1, .quality = QUALITY_cv };
	int nh = header(names), nf;

	CHECK(pts && n == 2, "two mix points, got %zu", n);
	if (!pts || n != 2)
		return;
	CHECK(groups_init(&g, pts, n) && compare_init(&cmp, pts, &g, 0.02), "compare");
	/* point 1 (avx2_t_u4) trails memset (point 0), the best, and is out: its row pairs it
	 * with memset three ways (next, memset, best) */
	cmp.pt[1] = (struct compare_point){
		.rank = 2, .median = 50.25,
		.next = { .other = 0, .n = 6, .ratio = 1.25, .lo = 1.2, .hi = 1.3,
			  .verdict = VERDICT_DECIDED },
		.memset = { .other = 0, .n = 6, .ratio = 0.8, .lo = 0.77, .hi = 0.83,
			    .verdict = VERDICT_DECIDED },
		.best = { .other = 0, .n = 6, .ratio = 0.8, .lo = 0.77, .hi = 0.83,
			  .verdict = VERDICT_DECIDED },
		.set = SET_OUT,
	};
	nf = row_of(&pts[1], &o, &m, f);
	CHECK(nh == COL_COUNT && nf == COL_COUNT, "header %d, row %d fields, want %d", nh, nf,
	      COL_COUNT);
	/* a mix has no victim and no size distribution (run_test.dist fills call_dist): every
	 * column but those */
	for (int c = 0; c < nf && c < COL_COUNT; c++)
		CHECK(f[c][0] || c == COL_call_dist || probe_column(names[c], c, false) ||
		      probe_column(names[c], c, true),
		      "column %s left empty with everything measured", names[c]);
	CHECK(!strcmp(f[COL_point], pts[1].name), "point column %s, name %s", f[COL_point],
	      pts[1].name);
	CHECK(!strcmp(f[COL_kernel], "avx2_t_u4") && !strcmp(f[COL_rw_ratio], "50") &&
	      !strcmp(f[COL_chunk_bytes], "4096") && !strcmp(f[COL_call_bytes], "4096") &&
	      !strcmp(f[COL_ws_mode], "seq") && !strcmp(f[COL_threads], "2"),
	      "identity: %s %s %s %s %s", f[COL_kernel], f[COL_rw_ratio], f[COL_chunk_bytes],
	      f[COL_ws_mode], f[COL_threads]);
	CHECK(!strcmp(f[COL_gbps_median], "50.25") && !strcmp(f[COL_total_gbps], "50.25") &&
	      !strcmp(f[COL_gbps_cv], "0.0125") && !strcmp(f[COL_cpu_share_min], "0.998") &&
	      !strcmp(f[COL_batch_ns_median], "200000") && !strcmp(f[COL_start_skew_share], "0.0012"),
	      "numbers: %s %s %s %s %s %s", f[COL_gbps_median], f[COL_total_gbps], f[COL_gbps_cv],
	      f[COL_cpu_share_min], f[COL_batch_ns_median], f[COL_start_skew_share]);
	CHECK(!strcmp(f[COL_ws_class], "L2") && !strcmp(f[COL_vs_memset_point], pts[0].name),
	      "256 KiB a thread on Genoa's 32 KiB L1d, 1 MiB L2 is well inside L2 (%s), paired "
	      "with %s (%s)", f[COL_ws_class], pts[0].name, f[COL_vs_memset_point]);
	CHECK(!strcmp(f[COL_winner_set], "out") && !strcmp(f[COL_vs_best_ratio], "0.8000") &&
	      !strcmp(f[COL_vs_best_ci_low], "0.7700") && !strcmp(f[COL_vs_best_ci_high], "0.8300"),
	      "against the best: %s %s [%s, %s]", f[COL_winner_set], f[COL_vs_best_ratio],
	      f[COL_vs_best_ci_low], f[COL_vs_best_ci_high]);
	CHECK(!strcmp(f[COL_vs_next_kernel], "memset") && !strcmp(f[COL_vs_next_ratio], "1.2500") &&
	      !strcmp(f[COL_vs_memset_ci_high], "0.8300") &&
	      !strcmp(f[COL_vs_memset_verdict], "decided") && !strcmp(f[COL_quality], "cv") &&
	      !strcmp(f[COL_verified], "ok"), "comparisons: %s %s %s %s %s", f[COL_vs_next_kernel],
	      f[COL_vs_next_ratio], f[COL_vs_memset_ci_high], f[COL_vs_memset_verdict],
	      f[COL_quality]);
	compare_free(&cmp);
	groups_free(&g);
	free(pts);
	run_config_free(&o);
}

/* One round, no counters, a failed check: those columns stay empty, the rest still say what the
 * point is; a store point has no read kernel, a split mix no layout. */
static void unmeasured_stays_empty(void)
{
	static char f[COL_COUNT + 1][8192];
	struct run_config o;
	size_t n = 0;
	struct point *pts = SWEEP(&o, &n, "--kernels=memset", "--threads=2", "--rw=100,50",
				  "--rw-mode=split", "--call=64KiB", "--chunk=4096");
	struct point_stats st = full_stats();
	struct csv_measured m = { .stats = &st };
	const enum csv_col empty[] = { COL_cycles_per_call_median, COL_gbps_ci_low,
				       COL_gbps_ci_high, COL_group_rank, COL_vs_next_kernel,
				       COL_vs_next_verdict, COL_vs_memset_ratio, COL_iterations,
				       COL_samples, COL_read_kernel };

	CHECK(pts && n == 2 && pts[0].kind == POINT_STORE && pts[1].kind == POINT_MIX,
	      "a store and a split point, got %zu", n);
	if (!pts || n != 2)
		return;
	st.cycles_per_call = st.gbps_ci_low = st.gbps_ci_high = NAN;
	st.iterations = st.samples = -1;
	row_of(&pts[0], &o, &m, f);
	for (size_t i = 0; i < sizeof empty / sizeof *empty; i++)
		CHECK(!f[empty[i]][0], "column %d: '%s', want empty", (int)empty[i], f[empty[i]]);
	CHECK(!strcmp(f[COL_quality], "ok") && !strcmp(f[COL_rw_layout], "spread") &&
	      !strcmp(f[COL_rw_mode], "split") && !strcmp(f[COL_nodes], "0") && f[COL_cpus][0],
	      "store point: quality %s, layout %s, mode %s, nodes %s, cpus %s", f[COL_quality],
	      f[COL_rw_layout], f[COL_rw_mode], f[COL_nodes], f[COL_cpus]);
	st = (struct point_stats){ .verified = false, .repetitions = 3, .rounds = 1,
				   .iterations = -1, .samples = -1, .gbps_median = NAN,
				   .gbps_mean = NAN, .gbps_min = NAN, .gbps_max = NAN,
				   .gbps_cv = NAN, .gbps_ci_low = NAN, .gbps_ci_high = NAN,
				   .read_gbps = NAN, .write_gbps = NAN, .ns_per_call = NAN,
				   .ticks_per_call = NAN, .ticks_per_line = NAN,
				   .cycles_per_call = NAN, .cpu_share_min = NAN, .batch_ns = NAN,
				   .start_skew_share = NAN };
	m.failed = true;
	row_of(&pts[1], &o, &m, f);
	for (int c = COL_gbps_median; c <= COL_start_skew_share; c++)
		CHECK(!f[c][0], "failed point: column %d '%s', want empty", c, f[c]);
	CHECK(!strcmp(f[COL_verified], "failed") && !f[COL_quality][0] && !f[COL_rw_layout][0] &&
	      !strcmp(f[COL_read_kernel], o.load->name) && !strcmp(f[COL_repetitions], "3"),
	      "failed split point: verified %s, quality '%s', layout '%s', read kernel '%s'",
	      f[COL_verified], f[COL_quality], f[COL_rw_layout], f[COL_read_kernel]);
	free(pts);
	run_config_free(&o);
}

/* Store points with an own victim and a chase (on the replayed Genoa, the chase on CPU 1): each
 * fills its identity and its probe's columns, and leaves the other probe's empty. */
static void victim_probe_columns(void)
{
	static char names[COL_COUNT + 1][8192], f[COL_COUNT + 1][8192];
	struct run_config o;
	size_t n = 0;
	struct point *pts = SWEEP(&o, &n, "--kernels=memset", "--threads=1", "--call=1MiB",
				  "--victim=own:L2/2,chase:LLC/2");

	header(names);
	CHECK(pts && n == 2 && pts[0].victim.mode == VICTIM_OWN &&
	      pts[1].victim.mode == VICTIM_CHASE, "an own victim and a chase, got %zu points", n);
	for (size_t i = 0; pts && n == 2 && i < 2; i++) {
		bool chase = i == 1;
		struct point_stats st = full_stats();
		struct csv_measured m = { .stats = &st, .i = i };

		st.victim = (struct victim_result){ .trials = 16, .chase = chase,
						     .warm_ns = chase ? NAN : 0.25, .idle_ns = 0.5,
						     .loaded_ns = 1.5, .slowdown = 3, .lo = 2.5,
						     .hi = 3.5, .write_gbps = chase ? 12.5 : NAN };
		CHECK(row_of(&pts[i], &o, &m, f) == COL_COUNT, "%s: fields", pts[i].name);
		for (int c = 0; c < COL_COUNT; c++)
			if (probe_column(names[c], c, chase))
				CHECK(f[c][0], "%s: column %s empty", pts[i].name, names[c]);
			else if (probe_column(names[c], c, !chase))
				CHECK(!f[c][0], "%s: column %s is the other probe's, yet %s",
				      pts[i].name, names[c], f[c]);
		CHECK(!strcmp(f[COL_victim], chase ? "chase" : "own") &&
		      !strcmp(f[COL_victim_cpu], chase ? "1" : "0") &&
		      !strcmp(f[COL_victim_trials], "16") &&
		      !strcmp(f[chase ? COL_chase_slowdown : COL_victim_slowdown], "3.0000"),
		      "%s: victim %s on CPU %s, %s trials, slowdown %s", pts[i].name, f[COL_victim],
		      f[COL_victim_cpu], f[COL_victim_trials],
		      f[chase ? COL_chase_slowdown : COL_victim_slowdown]);
	}
	free(pts);
	run_config_free(&o);
}

int main(int argc, char **argv)
{
	int rc = replay_genoa(&genoa, argc, argv, "csv_test");

	if (rc)
		return rc;
	every_column_has_a_source();
	victim_probe_columns();
	unmeasured_stays_empty();
	machine_free(&genoa);
	return test_result("csv rows: every column from its one source, empty where unmeasured");
}

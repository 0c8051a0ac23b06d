/*
 * cmd_run.c — `storebench run`: validate everything, create the result files, sweep the points.
 * Plain C.  The order is the promise: all bad input is rejected (exit 2) before a file exists
 * or a buffer is mapped; after that every point is a complete, flushed CSV row as soon as it is
 * final (finished; with the drift canary, judged by its next sample; with rounds, all measured).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cache_check.h"
#include "canary.h"
#include "compare.h"
#include "commands.h"
#include "cpu.h"
#include "csv.h"
#include "cycles.h"
#include "dryrun.h"
#include "footprint.h"
#include "groups.h"
#include "gbench_shim.h"
#include "gbflags.h"
#include "machine.h"
#include "measure.h"
#include "options.h"
#include "run_config.h"
#include "run_levels.h"
#include "run_loop.h"
#include "outfiles.h"
#include "pool.h"
#include "progress.h"
#include "rounds.h"
#include "rows.h"
#include "stage_settings.h"
#include "run_metadata.h"
#include "signals.h"
#include "sweep.h"
#include "sweep_threads.h"
#include "tsc.h"
#include "winners.h"

/*
 * The bytes the sweep maps at its peak: footprint.c replays the pool's allocations in the order
 * the points run (rounds shuffle it, and a shuffled order regrows buffers differently), plus
 * the canaries' buffers and the victim helper's, which keeps the largest victim or chase.
 */
static bool memory_fits(const struct run_config *o, const struct point *pts, const size_t *order,
			size_t n)
{
	unsigned long long need, victim = 0;
	struct point *seq = malloc((n ? n : 1) * sizeof *seq);
	struct canary_config cfg;
	struct footprint f;
	char err[200];
	bool ok;

	for (size_t k = 0; seq && k < n; k++) {
		seq[k] = pts[order[k]];
		if (seq[k].victim.mode != VICTIM_NONE && seq[k].victim.bytes > victim)
			victim = seq[k].victim.bytes;
	}
	ok = seq && footprint_of(seq, n, o->pages, false, &o->placement, NULL, &f);
	free(seq);
	if (!ok) {
		fprintf(stderr, "storebench run: out of memory\n");
		return false;
	}
	need = f.peak_bytes + (victim ? buffer_footprint(victim, o->pages) : 0);
	cfg = canary_config_of(o);
	for (int r = 0; o->canary && r < CANARY_REGIMES; r++)
		if (canary_bytes(&cfg, (enum canary_regime)r))
			need += buffer_footprint(canary_bytes(&cfg, (enum canary_regime)r), o->pages);
	footprint_free(&f);
	if (buffer_memory_fits(need, o->pages, err, sizeof err))
		return true;
	fprintf(stderr, "storebench run: the sweep needs %s; use smaller --call/--ws/--victim or "
			"fewer --threads\n", err);
	return false;
}

/* One line about the cycles column: "available" or why not (also checked for every worker). */
static void probe_cycles(char *note, size_t len, bool *ok)
{
	int fd = cycles_open(note, len);

	*ok = fd >= 0;
	if (*ok) {
		close(fd);
		snprintf(note, len, "available (perf_event_open, user-space cycles)");
	}
}

/*
 * Descriptors 0-2 that are closed get /dev/null, so no file this run opens (a result file, a
 * perf counter) can become stdout or stderr and receive the console table or progress.
 */
static void fill_std_fds(void)
{
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
			int null = open("/dev/null", fd ? O_WRONLY : O_RDONLY);

			if (null >= 0 && null != fd) {
				dup2(null, fd);
				close(null);
			}
		}
}

/* The notes on what the run will not measure as asked, one stderr line each. */
static void print_notes(const struct run_config *o, const struct cpu_info *cpu,
			const struct sweep_counts *n)
{
	char llc_check[160];

	if (o->sel.skipped[0])
		fprintf(stderr, "storebench run: note: skipping %s\n", o->sel.skipped);
	if (n->skipped_rw)
		fprintf(stderr, "storebench run: note: %zu read/write combinations skipped (a mix walks "
				"seq regions, not cold/random; split needs 2 threads)\n", n->skipped_rw);
	if (n->skipped)
		fprintf(stderr, "storebench run: note: %zu combinations skipped where the call "
				"exceeds the working set\n", n->skipped);
	if (n->skipped_size)
		fprintf(stderr, "storebench run: note: %zu combinations skipped where a compile-time-size "
				"kernel was not built for the call size (memset_const: bytes"
				KERNEL_CONST_SIZES(KERNEL_CONST_SIZE_TEXT) ")\n", n->skipped_size);
	if (n->skipped_victim)
		fprintf(stderr, "storebench run: note: %zu victim combinations skipped (a victim stands "
				"beside store points only, on a core no writer uses: shared needs one "
				"in the writer's L3, remote another L3 of its package, socket another "
				"package)\n", n->skipped_victim);
	if (n->rounded_split)
		fprintf(stderr, "storebench run: note: %zu split points measure the ratio whole threads "
				"give (writers / threads), not the one asked; rw_ratio says which\n",
			n->rounded_split);
	if (cache_llc_implausible(cpu, llc_check, sizeof llc_check))
		fprintf(stderr, "storebench run: note: last-level cache %s%s\n", llc_check,
			levels_replaced(o) ? "" : "; LLC-relative sizes use it as reported (DRAM "
			"points only get larger; --levels auto measures it)");
	run_levels_notes(o);
	if (!cpu->invariant_tsc)
		fprintf(stderr, "storebench run: note: TSC not invariant here; tick columns stay "
				"empty\n");
	if (o->budget_s > 0 && o->rounds < 2)
		fprintf(stderr, "storebench run: note: --budget %g s adds rounds after the --rounds "
				"ones (2 or more); at --rounds 1 there are none, so it has no effect\n",
			o->budget_s);
}

/*
 * The plan's time by --dry-run's model against --budget, said before the first point: what the
 * planned rounds take and what is left for the contest rounds, or that none will fit.
 */
static void plan_line(const struct run_config *o, const struct canary_config *cfg,
		      const struct point *pts, size_t n)
{
	double s = dryrun_rounds_seconds(o, cfg, pts, n);

	if (isnan(s))
		return;
	fprintf(stderr, "storebench: plan: %d round%s of %zu point%s, estimated %.*f s by --dry-run's "
			"model", o->rounds, o->rounds == 1 ? "" : "s", n, n == 1 ? "" : "s",
		s < 10 ? 1 : 0, s);
	if (o->rounds > 1 && o->budget_s > 0 && s < o->budget_s)
		fprintf(stderr, "; contest rounds until --budget %g s", o->budget_s);
	else if (o->rounds > 1 && o->budget_s > 0)
		fprintf(stderr, "; past --budget %g s: the planned rounds run whole, no contest round "
				"will fit", o->budget_s);
	fputc('\n', stderr);
}

/*
 * Everything before a file exists: the machine (this one, or a replayed one for --dry-run), the
 * options, the sweep into mem (its order and slots too) and the memory check; the
 * dry run and --benchmark_list_tests end here.  Returns -1 to go on, else the exit status.
 */
static int points_of(const struct cmdline *cl, struct machine *mach, struct run_config *o,
		     struct run_mem *mem, struct sweep_counts *n)
{
	const char *topology = cl->given[OPT_topology], *cpuid = cl->given[OPT_cpuid];
	int rc;

	/* --dry-run plans for this machine or a replayed one; a real run only measures this one */
	if (cl->given[OPT_dry_run]) {
		if (machine_replay("storebench run", topology, cpuid, mach) < 0)
			return 2;
	} else if (machine_refuse_replay("storebench run", topology, cpuid)) {
		return 2;
	}
	rc = machine_load(mach, "storebench run");
	if (rc)
		return rc;
	if (!mach->topo) {
		fprintf(stderr, "storebench run: --cpuid '%s': a CPUID dump has no topology to place "
				"threads on; give its machine's --topology FILE.xml too\n",
			mach->cpuid_file);
		return 2;
	}
	rc = run_config_parse(cl, mach, o);
	if (rc)
		return rc;
	/* the first parse gave the thread counts' CPUs; the second sizes them by their levels */
	rc = run_levels(cl, mach, o);
	if (rc)
		return rc;
	if (mach->levels.n) {
		run_config_free(o);
		rc = run_config_parse(cl, mach, o);
		if (rc)
			return rc;
	}
	if (!gbs_init(cl->gb, cl->ngb))
		return 2;
	/* Google Benchmark's own flags win over the preset (--repetitions/--min-time are ours) */
	if (gbflag_given(cl->gb, cl->ngb, "benchmark_repetitions"))
		o->repetitions = 0;
	if (gbflag_given(cl->gb, cl->ngb, "benchmark_min_time"))
		o->min_time = 0;
	mem->pts = sweep_threads(o, &mem->npts, n);
	if (!mem->pts)
		return 2;
	if (!mem->npts) {
		/* the notes first: one of them says why (a victim with no free core, a call size
		 * memset_const was not built for, ...) */
		print_notes(o, &mach->cpu, n);
		fprintf(stderr, "storebench run: nothing to measure (the notes above say what was "
				"skipped; a filter or the working sets may exclude every point too)\n");
		return 2;
	}
	if (o->dry_run) {
		struct canary_config cfg = canary_config_of(o);

		return dryrun_print(stdout, mach, o, &cfg, mem->pts, mem->npts);
	}
	if (!groups_init(&mem->groups, mem->pts, mem->npts) ||
	    !compare_init(&mem->cmp, mem->pts, &mem->groups, o->tie_band)) {
		fprintf(stderr, "storebench run: out of memory\n");
		return 1;
	}
	mem->order = rounds_order(&mem->groups, o->rounds, o->seed, &mem->rng);
	mem->norder = mem->npts * (size_t)o->rounds;
	mem->slots = slots_new(mem->pts, mem->npts, o);
	mem->regime = calloc(mem->npts, sizeof *mem->regime);
	for (size_t i = 0; mem->regime && i < mem->npts; i++)
		mem->regime[i] = canary_regime_of(point_level(&mem->pts[i],
							       axes_at(o, mem->pts[i].threads)));
	if (!mem->order || !mem->slots || !mem->regime) {
		fprintf(stderr, "storebench run: out of memory\n");
		return 1;
	}
	if (!memory_fits(o, mem->pts, mem->order, mem->npts * (size_t)o->rounds))
		return 2;
	if (gbflag_bool(cl->gb, cl->ngb, "benchmark_list_tests", false)) {
		for (size_t i = 0; i < mem->npts; i++)
			puts(mem->pts[i].name);
		return 0;
	}
	return -1;
}

/* A stop request before any point finished, once both files are discarded: says so, and the
 * signal's exit status. */
static int stopped_before_first_point(void)
{
	fprintf(stderr, "storebench: stopped by signal %d before the first point finished; both "
			"files removed\n", signals_pending());
	return 128 + signals_pending();
}

/* Before the first point: stop the pool, remove both files, exit status 1. */
static int abandon(struct outfiles *of, struct pool *pool, struct measure_env *env)
{
	pool_stop(pool);
	measure_env_free(env);
	gbs_close();
	outfiles_discard(of);
	outfiles_guard(NULL);
	return 1;
}

static int run(const struct cmdline *cl, struct machine *mach, struct run_config *o,
	       struct run_mem *mem)
{
	struct cpu_info cpu;
	struct outfiles of;
	struct pool pool;
	struct measure_env env = { 0 };
	struct measure_settings ms;
	struct canary_config cfg;
	struct sweep_counts notes;
	struct rows_out w = { 0 };
	char cycles_note[200], err[256], *meta;
	size_t npts, name_width = 0;
	double tsc_hz, weight = 0;
	unsigned max_threads = 0;
	int rc, status = 0;
	const char *failed = NULL;
	time_t now = time(NULL);

	rc = points_of(cl, mach, o, mem, &notes);
	if (rc >= 0)
		return rc;
	cpu = mach->cpu;
	npts = mem->npts;
	for (size_t i = 0; i < npts; i++) {
		const struct point *p = &mem->pts[i];
		size_t width = strlen(p->name) + 12; /* Google Benchmark appends /manual_time etc. */

		name_width = width > name_width ? width : name_width;
		max_threads = p->threads > max_threads ? p->threads : max_threads;
		weight += point_weight(p);
	}

	/* from here on a signal must leave complete files, so the handlers precede the files */
	signals_install();
	fill_std_fds();
	rc = outfiles_create(&of, o->csv, o->json, o->machine, &cpu, now);
	if (rc)
		return rc;
	outfiles_guard(&of);
	/* notes only once the input is known good: bad input stays one line on stderr */
	print_notes(o, &cpu, &notes);
	tsc_hz = tsc_calibrate();
	probe_cycles(cycles_note, sizeof cycles_note, &env.cycles);
	meta = run_metadata(cl, mach, o, &of, now, tsc_hz, cycles_note);
	if (!meta) {
		fprintf(stderr, "storebench run: out of memory\n");
		outfiles_discard(&of);
		outfiles_guard(NULL);
		return 1;
	}
	/* Google Benchmark's table repeats the progress line: only on request */
	gbs_open(of.json.fd, o->verbose || cl->ngb > 0, name_width);
	mem->meta = meta;
	/* the canary's series and the winners are known at the end: the JSON's context, written
	 * first, waits for them */
	if (o->canary || o->rounds > 1)
		gbs_hold();
	write_preamble(NULL, meta, true);

	if (!pool_start(&pool, max_threads, o->placement.cpu, o->placement.node, env.cycles, err,
			sizeof err)) {
		fprintf(stderr, "storebench run: %s\n", err);
		outfiles_discard(&of);
		outfiles_guard(NULL);
		return 1;
	}
	env.pool = &pool;
	ms = measure_settings_of(o);
	env.s = &ms;
	env.tsc_hz = cpu.invariant_tsc ? tsc_hz : 0;
	if (!measure_env_init(&env)) {
		fprintf(stderr, "storebench run: out of memory for the threads' plans\n");
		return abandon(&of, &pool, &env);
	}
	cfg = canary_config_of(o);
	if (o->canary && !canary_start(&mem->canary, &cfg, mem->norder, err, sizeof err)) {
		if (signals_pending()) {
			abandon(&of, &pool, &env);
			return stopped_before_first_point();
		}
		fprintf(stderr, "storebench run: the drift canary's buffer: %s\n", err);
		return abandon(&of, &pool, &env);
	}
	w = (struct rows_out){ .of = &of, .slots = mem->slots, .nslots = mem->npts,
			       .cmp = o->rounds > 1 ? &mem->cmp : NULL };
	if (!rows_start(&w, meta, o->canary ? &mem->canary : NULL)) {
		pool_stop(&pool);
		measure_env_free(&env);
		gbs_close();
		outfiles_guard(NULL);
		return rows_write_failed(&of, w.failed, w.werr, 0);
	}
	fprintf(stderr, "storebench: %zu points -> %s\n", npts, of.csv.path);
	plan_line(o, &cfg, mem->pts, npts);
	progress_start(weight, npts, o->rounds);
	status = run_loop(&env, mem, &w, o);
	pool_stop(&pool);
	measure_env_free(&env);
	progress_end();
	rc = gbs_close();
	if (rc) {
		if (!w.failed) {
			w.werr = rc;
			w.failed = of.json.abs;
		}
		w.done = 0; /* a JSON that cannot be finished is not kept, nor the CSV without it */
	}
	outfiles_guard(NULL);
	if (w.failed)
		return rows_write_failed(&of, w.failed, w.werr, w.done);
	if (!w.done) {
		outfiles_discard(&of); /* not one point measured: nothing worth keeping */
		if (signals_pending())
			return stopped_before_first_point();
		return status ? status : 1;
	}
	if (!outfiles_close(&of, &failed)) {
		fprintf(stderr, "storebench run: closing %s: %s; its last point may be missing\n",
			failed, strerror(errno));
		return 1;
	}
	fprintf(stderr, "storebench: %zu of %zu points in %.1f s, %.1f s of it in timed batches\n",
		w.done, npts, progress_elapsed(), mem->timed_s);
	rows_print_flagged(&w.flagged, w.done, &o->quality);
	winners_print(stderr, &mem->cmp);
	if (signals_pending())
		fprintf(stderr, "storebench: stopped by signal %d after %zu points; both files are "
				"complete\n",
			signals_pending(), w.done);
	/* the two lines scripts read (results/README.md: Layout), last, whenever both are whole */
	fprintf(stderr, "storebench: csv %s\nstorebench: json %s\n", of.csv.abs, of.json.abs);
	return signals_pending() ? 128 + signals_pending() : status;
}

int cmd_run(int argc, char **argv)
{
	struct cmdline cl;
	struct machine mach = { 0 };
	struct run_config o = { 0 };
	struct run_mem mem = { 0 };
	int status;

	/* a reader of stderr gone after the first note or scan line must not kill the run */
	signals_catch_pipe();
	status = cmdline_read(argc, argv, &cl);
	/* the command line is read here once; every stage after asks cl (< 0: --help printed) */
	if (status < 0)
		status = 0;
	else if (!status)
		status = run(&cl, &mach, &o, &mem);

	run_mem_free(&mem);
	run_config_free(&o);
	machine_free(&mach);
	cmdline_free(&cl);
	return status;
}

/*
 * dryrun.c — the plan of a run, printed instead of measured: points, placement, memory, duration.
 * Plain C, no ISA.  Lines are "key=value ..." so CI and tests read them; "#" lines explain.  The
 * duration comes from the model in dryrun.h, stated in the output, so an estimate can be checked.
 */
#include "dryrun.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buffer.h"
#include "canary.h"
#include "footprint.h"
#include "metadata.h"
#include "options.h"
#include "rounds.h"
#include "sweep_threads.h"

/* Google Benchmark's own defaults when its flags replace ours (1.7: one repetition, 0.5 s). */
#define GB_DEFAULT_REPETITIONS 1
#define GB_DEFAULT_MIN_TIME_S 0.5


/* Bytes per second one of the point's threads moves in the level its working set fits in. */
static double thread_rate(enum level r, const struct scaled_axes *a)
{
	static const double gbps[] = { DRYRUN_GBPS_L1D, DRYRUN_GBPS_L2, DRYRUN_GBPS_L3,
				       DRYRUN_GBPS_DRAM };
	double rate = gbps[r];


	if (r == LEVEL_DRAM) {
		double cap = (double)DRYRUN_NODE_GBPS * (a->ts.nodes ? a->ts.nodes : 1) / a->ts.threads;

		rate = cap < rate ? cap : rate;
	}
	return rate * 1e9;
}

/* A point's first round (later: a later round, which reuses the first one's batch calibration
 * and Google Benchmark's iteration count, so it pays neither again, only its untimed batch). */
static double point_seconds(const struct point *p, const struct scaled_axes *a, int reps,
			    double min_time, bool grows, bool later)
{
	double pass = (double)point_region_bytes(p) / thread_rate(point_level(p, a), a);
	double batch = pass > DRYRUN_BATCH_MS / 1e3 ? pass : DRYRUN_BATCH_MS / 1e3;
	double rep = batch > min_time ? batch : min_time;
	double s = later ? DRYRUN_ROUND_FIXED_MS / 1e3 + batch + reps * rep + (grows ? pass : 0) :
			   DRYRUN_FIXED_MS / 1e3 + (reps + 1) * rep + DRYRUN_SETUP_PASSES * pass;

	if (p->victim.mode == VICTIM_CHASE)
		s += VICTIM_PAIRS * 2 * (pass > CHASE_WINDOW_NS / 1e9 ? pass : CHASE_WINDOW_NS / 1e9);
	else if (p->victim.mode != VICTIM_NONE)
		s += VICTIM_PAIRS * (2 * pass + 6 * (double)p->victim.bytes / (DRYRUN_GBPS_L3 * 1e9));
	if (grows) {
		double rate = p->threads * DRYRUN_FAULT_MBPS * 1e6;

		if (rate > DRYRUN_FAULT_TOTAL_GBPS * 1e9)
			rate = DRYRUN_FAULT_TOTAL_GBPS * 1e9;
		s += (double)point_region_bytes(p) * p->threads / rate;
	}
	return s;
}

/*
 * The drift canaries' cost around a sweep of sweep_s seconds: their first touch, then one sample
 * at the start, one per canary period of sweep and one at the end, each CANARY_PASSES passes of
 * one thread, and a tick of passes every CANARY_TICK_MS of sweep between them, or less often
 * when a tick lasts longer than 1/CANARY_TICK_SHARE of that; the DRAM canary's at the DRAM rate,
 * a cache canary's (CANARY_PASS_BYTES at most, after its untimed warming call) at the L3 rate.
 * *samples gets their count.
 */
static double canary_seconds(const struct run_config *o, const struct canary_config *cfg,
			     double sweep_s, size_t *samples)
{
	double s = 0, tick = 0;

	*samples = 2 + (size_t)(sweep_s / o->canary_period_s);
	for (int r = 0; r < CANARY_REGIMES; r++) {
		double bytes = (double)canary_bytes(cfg, (enum canary_regime)r);
		double pass = r == CANARY_DRAM || !bytes ? bytes : bytes < CANARY_PASS_BYTES ?
				     (double)CANARY_PASS_BYTES + bytes : 2 * bytes;
		double pass_s = pass / ((r == CANARY_DRAM ? DRYRUN_GBPS_DRAM : DRYRUN_GBPS_L3) * 1e9);

		s += bytes / (DRYRUN_FAULT_MBPS * 1e6) + (double)*samples * CANARY_PASSES * pass_s;
		tick += pass_s;
	}
	return s + sweep_s * (tick * CANARY_TICK_SHARE > CANARY_TICK_MS / 1e3 ?
				      1.0 / CANARY_TICK_SHARE : tick * 1e3 / CANARY_TICK_MS);
}

/* The stated time budget of a preset in minutes (plan_rules.h), 0 when it has none. */
static int budget_min(const char *preset)
{
	return !strcmp(preset, "quick") ? QUICK_BUDGET_MIN
	       : !strcmp(preset, "nightly") ? NIGHTLY_BUDGET_MIN : 0;
}

static void human_bytes(unsigned long long v, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double x = (double)v;
	int u = 0;

	while (x >= 1024 && u < 5) {
		x /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", x, unit[u]);
}

static void human_seconds(double s, char *buf, size_t len)
{
	unsigned long long whole = (unsigned long long)(s + 0.5);

	if (whole >= 3600)
		snprintf(buf, len, "%lluh%02llum", whole / 3600, whole % 3600 / 60);
	else if (whole >= 60)
		snprintf(buf, len, "%llum%02llus", whole / 60, whole % 60);
	else
		snprintf(buf, len, "%.1fs", s);
}

static void print_machine(FILE *out, const struct machine *m, const struct run_config *o,
			  unsigned long long *memory)
{
	const struct topology *t = m->topo;
	char replayed[1024], h[32];
	unsigned long long nodes_memory = 0;

	machine_replayed(m, replayed, sizeof replayed);
	for (size_t k = 0; k < t->nnodes; k++)
		nodes_memory += t->node[k].memory_bytes;
	/* this machine: what the run's own check uses; a replayed one: what its topology says */
	*memory = t->source ? nodes_memory : meminfo("MemAvailable");
	human_bytes(*memory, h, sizeof h);
	fprintf(out, "# storebench run --dry-run: nothing is measured%s\n",
		t->source ? " (a replayed machine is never measured)" : "");
	/* what a file or the user named goes through metadata_value: a newline in a topology path
	 * or a CPU vendor must not become a key=value line of its own (fits=yes) */
	fputs("replayed=", out);
	metadata_value(out, replayed);
	fputs("\nmachine=", out);
	metadata_value(out, m->cpu.vendor[0] ? m->cpu.vendor : "unknown");
	fputc(' ', out);
	metadata_value(out, m->cpu.codename && *m->cpu.codename ? m->cpu.codename : "unknown");
	fprintf(out, " packages=%u numa_nodes=%zu cores=%u cpus=%zu allowed_cpus=%u "
		     "l3_domains=%zu memory_bytes=%llu (%s, %s)\n",
		t->packages, t->nnodes, t->cores, t->npus, t->allowed_pus, t->cache[TOPO_L3].count,
		*memory, h, t->source ? "the topology's NUMA nodes" : "MemAvailable");
	fprintf(out, "preset=%s kernels=%zu repetitions=%d min_time_s=%g placement=", o->preset,
		o->sel.n, o->repetitions, o->min_time);
	metadata_value(out, o->placement.spec);
	fputs(" membind=", out);
	metadata_value(out, o->membind_name);
	fprintf(out, " pages=%s\n", page_policy_name[o->pages]);
	if (o->sel.skipped && o->sel.skipped[0]) {
		fputs("# skipped kernels: ", out);
		metadata_value(out, o->sel.skipped);
		fprintf(out, "%s\n", m->cpuid_file || !t->source ? "" :
			" (a topology has no ISA: give --cpuid too)");
	}
	fprintf(out, "# sizes: L1d, L2, L3, LLC are a thread's share at each thread count; DRAM = "
		     DRAM_RULE_TEXT "\n");
	fprintf(out, "# model: " DRYRUN_MODEL_TEXT "\n");
}

/* The header of one thread count: where its threads run and what its words are. */
static void print_threads(FILE *out, const struct run_config *o, const struct scaled_axes *a)
{
	size_t cap = 16 * (a->threads + 8);
	char *cpus = malloc(cap), nodes[4096];

	if (!cpus || !scaled_cpus(&a->ts, cpus, cap))
		snprintf(cpus ? cpus : nodes, cpus ? cap : sizeof nodes, "?");
	if (!scaled_nodes(o->topo, &a->ts, nodes, sizeof nodes))
		snprintf(nodes, sizeof nodes, "?");
	fprintf(out, "threads=%u cpus=%s nodes=%s l2_threads=%u l3_threads=%u l3_domains=%u "
		     "share_l1d=%llu share_l2=%llu share_l3=%llu share_llc=%llu dram=%llu levels=",
		a->threads, cpus ? cpus : "?", nodes, a->ts.cache[TOPO_L2].threads_max,
		a->ts.cache[TOPO_L3].threads_max, a->ts.cache[TOPO_L3].domains,
		a->words[SW_L1D].value, a->words[SW_L2].value, a->words[SW_L3].value,
		a->words[SW_LLC].value, a->words[SW_DRAM].value);
	/* which shares are measured ones (effective.h), each with the size the machine reports */
	for (int l = LEVEL_L1D; l < LEVEL_DRAM; l++)
		if (a->levels.replaced & 1u << l)
			fprintf(out, "%s%s:measured(reported:%llu)",
				a->levels.replaced & ((1u << l) - 1) ? "," : "", level_name[l],
				(unsigned long long)a->levels.reported.bytes[l]);
	fputs(a->levels.replaced ? "\n" : "reported\n", out);
	free(cpus);
}

/* Where a point's victim runs: its CPU, node, and L3 and package against the first writer's. */
static void print_victim(FILE *out, const struct run_config *o, const struct point *p)
{
	const struct topo_pu *v = topology_pu(o->topo, (unsigned)p->victim.cpu);
	const struct topo_pu *w = topology_pu(o->topo, (unsigned)o->placement.cpu[0]);

	fprintf(out, " victim=%s victim_bytes=%llu victim_cpu=%d victim_node=%d",
		victim_mode_name[p->victim.mode], (unsigned long long)p->victim.bytes,
		p->victim.cpu, p->victim.node);
	if (v && w)
		fprintf(out, " victim_l3=%s victim_package=%s",
			v->cache[TOPO_L3] == w->cache[TOPO_L3] ? "same" : "other",
			v->package == w->package ? "same" : "other");
	if (p->victim.mode == VICTIM_CHASE)
		fprintf(out, " victim_delay_ns=%llu", (unsigned long long)p->victim.delay_ns);
}

/* p's seconds over every planned round: its first (calibration, first touch when its buffers
 * grow) and the later ones. */
static double planned_seconds(const struct run_config *o, const struct point *p, int reps,
			      double min_time, bool grows)
{
	const struct scaled_axes *a = axes_at(o, p->threads);

	return point_seconds(p, a, reps, min_time, grows, false) +
	       (o->rounds - 1) * point_seconds(p, a, reps, min_time, false, true);
}

double dryrun_rounds_seconds(const struct run_config *o, const struct canary_config *cfg,
			     const struct point *pts, size_t n)
{
	unsigned long long *lens = calloc(o->placement.ncpus ? o->placement.ncpus : 1, sizeof *lens);
	int reps = rounds_repetitions(o->repetitions > 0 ? o->repetitions : GB_DEFAULT_REPETITIONS,
				      o->rounds);
	double min_time = o->min_time > 0 ? o->min_time : GB_DEFAULT_MIN_TIME_S, total = 0;
	size_t samples;

	if (!lens)
		return NAN;
	for (size_t i = 0; i < n; i++)
		total += planned_seconds(o, &pts[i], reps, min_time,
					 footprint_point_grows(&pts[i], lens));
	free(lens);
	return total + (o->canary ? canary_seconds(o, cfg, total, &samples) : 0);
}

int dryrun_print(FILE *out, const struct machine *m, const struct run_config *o,
		 const struct canary_config *cfg, const struct point *pts, size_t n)
{
	unsigned long long *lens = calloc(o->placement.ncpus ? o->placement.ncpus : 1, sizeof *lens);
	unsigned long long memory;
	int reps = rounds_repetitions(o->repetitions > 0 ? o->repetitions : GB_DEFAULT_REPETITIONS,
				      o->rounds);
	double min_time = o->min_time > 0 ? o->min_time : GB_DEFAULT_MIN_TIME_S, total = 0, group = 0;
	size_t regimes[LEVEL_COUNT] = { 0 }, in_group = 0, samples;
	struct footprint f;
	char h1[32], h2[32];
	bool fits;

	if (!lens || !footprint_of(pts, n, o->pages, o->bind.kind == MEMBIND_LOCAL, &o->placement,
				   o->topo, &f)) {
		free(lens);
		return 1;
	}
	print_machine(out, m, o, &memory);
	for (size_t i = 0; i < n; i++) {
		const struct point *p = &pts[i];
		const struct scaled_axes *a = axes_at(o, p->threads);
		enum level r = point_level(p, a), c = point_class(p, a);
		double s = planned_seconds(o, p, reps, min_time, footprint_point_grows(p, lens));
		unsigned long long region = point_region_bytes(p);

		if (!i || p->threads != pts[i - 1].threads) {
			print_threads(out, o, a);
			group = 0;
			in_group = 0;
		}
		human_bytes(region, h1, sizeof h1);
		fprintf(out, "  point=%s ws_bytes=%llu total_bytes=%llu regime=%s class=%s est_s=%.3f",
			p->name, (unsigned long long)point_ws_bytes(p),
			(unsigned long long)point_ws_bytes(p) * p->threads, level_name[r],
			c == LEVEL_BETWEEN ? "between" : level_name[c], s);
		if (p->victim.mode != VICTIM_NONE)
			print_victim(out, o, p);
		fprintf(out, "  # %s per thread\n", h1);
		regimes[r]++;
		total += s;
		group += s;
		in_group++;
		if (i + 1 == n || pts[i + 1].threads != p->threads) {
			human_seconds(group, h1, sizeof h1);
			fprintf(out, "  threads=%u points=%zu est_s=%.1f (%s)\n", p->threads, in_group,
				group, h1);
		}
	}
	fits = memory == 0 || f.peak_bytes <= memory;
	human_bytes(f.peak_bytes, h1, sizeof h1);
	human_bytes(memory, h2, sizeof h2);
	fprintf(out, "points=%zu l1d=%zu l2=%zu l3=%zu dram=%zu\n", n, regimes[LEVEL_L1D],
		regimes[LEVEL_L2], regimes[LEVEL_L3], regimes[LEVEL_DRAM]);
	fprintf(out, "memory_peak_bytes=%llu memory_bytes=%llu fits=%s  # %s of %s%s\n",
		f.peak_bytes, memory, memory ? fits ? "yes" : "no" : "unknown", h1, h2,
		memory ? "" : " (the source gives no memory size)");
	for (size_t k = 0; k < f.nnodes; k++) {
		unsigned long long have = o->topo->node[k].memory_bytes;

		if (!f.node_peak[k])
			continue;
		human_bytes(f.node_peak[k], h1, sizeof h1);
		human_bytes(have, h2, sizeof h2);
		fprintf(out, "node=%u memory_peak_bytes=%llu memory_bytes=%llu fits=%s  # %s of %s\n",
			o->topo->node[k].os, f.node_peak[k], have,
			!have ? "unknown" : f.node_peak[k] <= have ? "yes" : "no", h1, h2);
	}
	if (o->canary) {
		double s = canary_seconds(o, cfg, total, &samples);

		human_bytes(canary_bytes(cfg, CANARY_DRAM), h1, sizeof h1);
		fprintf(out, "canary_samples=%zu canary_s=%.1f  # one thread's %s over %s (and the "
			     "cache regimes' canaries), first touch + %d passes per sample + one "
			     "per %d ms\n", samples, s, CANARY_KERNEL, h1, CANARY_PASSES,
			CANARY_TICK_MS);
		total += s;
	}
	if (o->rounds > 1 && o->budget_s > total) {
		fprintf(out, "rounds_s=%.0f adaptive_until_s=%g  # then contest rounds of the open "
			     "kernels while --budget lasts\n", total, o->budget_s);
		total = o->budget_s;
	}
	human_seconds(total, h1, sizeof h1);
	fprintf(out, "estimated_s=%.0f  # %s, by the model above\n", total, h1);
	if (budget_min(o->preset))
		fprintf(out, "budget_s=%d within=%s  # the %s preset's budget (options as given)\n",
			60 * budget_min(o->preset), total <= 60.0 * budget_min(o->preset) ? "yes" : "no",
			o->preset);
	free(lens);
	footprint_free(&f);
	return 0;
}

/*
 * run_metadata.c — every key=value of a run, and how they reach the CSV preamble and JSON context.
 * Plain C.  The keys are written once into one text, so the two files describe the run alike.
 */
#include "run_metadata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "gbench_shim.h"
#include "gbflags.h"
#include "level_scan.h"
#include "levels.h"
#include "metadata.h"
#include "options.h"
#include "quality.h"
#include "signed_rank.h"
#include "stats.h"
#include "rounds.h"

/*
 * The cache levels' names in order, the rule of the ws_class column (levels.h), and at each
 * thread count the shares reported, measured and used (effective.h): levels_t<threads>_used is
 * what sized and classed the run, and what the scripts mark.
 */
static void level_metadata(FILE *m, const struct run_config *o)
{
	fputs("level_names=", m);
	for (int l = 0; l < LEVEL_COUNT; l++)
		fprintf(m, "%s%s", l ? "," : "", level_name[l]);
	fputc('\n', m);
	metadata_kv(m, "", "level_rule", "%s", level_rule);
	metadata_kv(m, "", "levels_setting", "%s", o->levels_spec);
	metadata_kv(m, "", "levels_scan", "%s", level_scan_method);
	metadata_kv(m, "", "levels_rule", "%s", effective_rule);
	metadata_kv(m, "", "levels_file", "%s", o->levels->path);
	for (size_t i = 0; i < o->threads.n; i++) {
		const struct scaled_axes *a = &o->at[i];
		const struct levels_entry *e = a->levels.measured;
		const uint64_t used[LEVEL_DRAM] = { a->words[SW_L1D].value, a->words[SW_L2].value,
						    a->words[SW_L3].value };
		char key[48], text[200];

		snprintf(key, sizeof key, "levels_t%u_reported", a->threads);
		effective_shares_text(a->levels.reported.bytes, text, sizeof text);
		metadata_kv(m, "", key, "%s", text);
		snprintf(key, sizeof key, "levels_t%u_measured", a->threads);
		effective_shares_text(e ? e->found.bytes : (uint64_t[LEVEL_DRAM]){ 0 }, text,
				      sizeof text);
		if (!e)
			metadata_kv(m, "", key, "none");
		else if (e->found.why[0])
			metadata_kv(m, "", key, "none: %s (cpus %s, %s)", e->found.why, e->cpus, e->utc);
		else
			metadata_kv(m, "", key, "%s (cpus %s, %s; ns %.3g/%.3g/%.3g/%.3g)", text, e->cpus,
				    e->utc, e->found.ns[0], e->found.ns[1], e->found.ns[2],
				    e->found.ns[3]);
		snprintf(key, sizeof key, "levels_t%u_used", a->threads);
		effective_shares_text(used, text, sizeof text);
		metadata_kv(m, "", key, "%s", text);
	}
}

static void join_list(const struct u64_list *l, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < l->n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%llu", i ? "," : "", l->v[i]);
}

/* The diagnostics a run was bent with, comma-joined in a fixed order ("" for a normal run). */
static const char *diagnostics(const struct run_config *o)
{
	static char text[64];

	snprintf(text, sizeof text, "%s%s%s%s", o->slowdown_pct > 0 ? ",inject-slowdown" : "",
		 o->stall_ms > 0 ? ",inject-stall" : "", o->skew_us > 0 ? ",inject-skew" : "",
		 o->drift_pct > 0 ? ",inject-drift" : "");
	return text[0] ? text + 1 : text;
}

/* Every key of the run but the defaults of its settings, into m. */
static void run_keys(FILE *m, const struct cmdline *cl, const struct machine *mach,
		     const struct run_config *o, const struct outfiles *of, time_t now,
		     double tsc_hz, const char *cycles_note)
{
	char buf[4096], stamp[32];

	metadata_machine(m, "", mach);
	strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	metadata_kv(m, "", "utc_time", "%s", stamp);
	metadata_kv(m, "", "command_line", "%s", cl->text);
	metadata_kv(m, "", "machine_id", "%s", of->machine);
	metadata_kv(m, "", "json_file", "%s", of->json.path);
	metadata_kv(m, "", "tsc_hz", "%.0f", tsc_hz);
	metadata_kv(m, "", "cycles", "%s", cycles_note);
	metadata_kv(m, "", "preset", "%s", o->preset);
	metadata_kv(m, "", "kernels", "%s", o->kernels_spec);
	metadata_kv(m, "", "kernels_skipped", "%s", o->sel.skipped);
	metadata_kv(m, "", "call_spec", "%s", o->call_spec);
	metadata_kv(m, "", "ws_spec", "%s", o->ws_spec);
	metadata_kv(m, "", "cold_ws_bytes", "%llu", o->cold_bytes);
	join_list(&o->threads, buf, sizeof buf);
	metadata_kv(m, "", "threads", "%s", buf);
	metadata_kv(m, "", "placement", "%s", o->placement.spec);
	buf[0] = '\0';
	for (size_t i = 0, used = 0; i < o->placement.ncpus && used < sizeof buf; i++)
		used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%d", i ? "," : "",
					 o->placement.cpu[i]);
	metadata_kv(m, "", "placement_cpus", "%s", buf);
	metadata_kv(m, "", "membind", "%s", o->membind_name);
	metadata_kv(m, "", "pages", "%s", page_policy_name[o->pages]);
	metadata_kv(m, "", "fill_byte", "%u", o->fill);
	metadata_kv(m, "", "prefill_byte", "%u", o->prefill);
	join_list(&o->misalign, buf, sizeof buf);
	metadata_kv(m, "", "misalign", "%s", buf);
	metadata_kv(m, "", "rw", "%s", o->rw_spec);
	metadata_kv(m, "", "rw_mode", "%s", o->rw_mode_spec);
	metadata_kv(m, "", "rw_layout", "%s", o->rw_layout_spec);
	join_list(&o->chunk, buf, sizeof buf);
	metadata_kv(m, "", "chunk_bytes", "%s", buf);
	metadata_kv(m, "", "read_kernel", "%s", o->load->name);
	metadata_kv(m, "", "victim", "%s", o->victim_spec);
	join_list(&o->victim_delay, buf, sizeof buf);
	metadata_kv(m, "", "victim_delay_ns", "%s", buf);
	metadata_kv(m, "", "victim_pairs", "%d", VICTIM_PAIRS);
	metadata_kv(m, "", "chase_window_ns", "%llu", CHASE_WINDOW_NS);
	if (o->repetitions > 0 && !gbflag_given(cl->gb, cl->ngb, "benchmark_repetitions"))
		metadata_kv(m, "", "repetitions", "%d", o->repetitions);
	else
		metadata_kv(m, "", "repetitions", "google benchmark flag");
	if (o->min_time > 0)
		metadata_kv(m, "", "min_time_s", "%g", o->min_time);
	else
		metadata_kv(m, "", "min_time_s", "google benchmark flag");
	metadata_kv(m, "", "rounds", "%d", o->rounds);
	metadata_kv(m, "", "seed", "%llu", o->seed);
	metadata_kv(m, "", "budget_s", "%g", o->budget_s);
	metadata_kv(m, "", "ci_method", "%s", MEDIAN_CI_METHOD);
	metadata_kv(m, "", "ci_level", "%g", MEDIAN_CI_LEVEL);
	metadata_kv(m, "", "tie_band", "%g", o->tie_band);
	metadata_kv(m, "", "answer_method", "%s", SIGNED_RANK_METHOD " of per-round log ratios "
		    "(batched in pairs while their lag-1 autocorrelation is over "
		    PLAN_STR(COMPARE_LAG1_MAX) " and twice its standard error); winner set (in, out, "
		    "edge) by one-sided tests at the band's edge, read at " PLAN_STR(COMPARE_LOOKS)
		    " planned looks from " PLAN_STR(COMPARE_LOOK_FIRST) " pairs, each twice the last, "
		    "Holm over each group");
	metadata_kv(m, "", "answer_alpha", "%g", COMPARE_ALPHA);
	metadata_kv(m, "", "pairing", "%s", o->rounds > 1 ?
		    "rounds: groups shuffled, each group's kernels back to back in a shuffled order" :
		    "none (one round)");
	if (!o->canary) /* with the canary, its keys follow once it started (canary_settings) */
		metadata_kv(m, "", "canary", "off");
	if (o->repetitions > 0 && !gbflag_given(cl->gb, cl->ngb, "benchmark_repetitions"))
		metadata_kv(m, "", "repetitions_per_round", "%d",
			    rounds_repetitions(o->repetitions, o->rounds));
	metadata_kv(m, "", "batch_rule", "calls per batch chosen so barrier and timer cost < 1%% and a "
		    "batch lasts 2 x quality_batch_ns_min, its median timed again");
	metadata_kv(m, "", "inject_slowdown_pct", "%g", o->slowdown_pct);
	if (o->slowed_spec)
		metadata_kv(m, "", "inject_slowdown_kernels", "%s", o->slowed_spec);
	metadata_kv(m, "", "inject_stall_ms", "%g", o->stall_ms);
	metadata_kv(m, "", "inject_skew_us", "%g", o->skew_us);
	metadata_kv(m, "", "inject_drift_pct", "%g", o->drift_pct);
	/* A run bent on purpose must never become the yardstick of a later one (scripts/nightly). */
	if (o->slowdown_pct > 0 || o->stall_ms > 0 || o->skew_us > 0 || o->drift_pct > 0)
		metadata_kv(m, "", "diagnostic", "%s", diagnostics(o));
	quality_metadata(m, "", &o->quality);
	level_metadata(m, o);
}

/* The settings whose defaults a run records: each metadata key with the option that sets it.
 * --canary's key is the canary's own (canary_settings), so it is judged apart.  The sweep's axes
 * (call sizes, kernels, threads) are what is measured, not settings that move its numbers. */
static const struct {
	const char *key;
	enum option_id opt;
} setting_key[] = {
	{ "fill_byte", OPT_fill }, { "prefill_byte", OPT_prefill }, { "pages", OPT_pages },
	{ "placement", OPT_placement }, { "membind", OPT_membind }, { "rounds", OPT_rounds },
	{ "budget_s", OPT_budget }, { "repetitions", OPT_repetitions },
	{ "min_time_s", OPT_min_time }, { "tie_band", OPT_tie_band },
	{ "quality_profile", OPT_profile }, { "quality_cpu_share_min", OPT_cpu_share_min },
	{ "quality_cv_max", OPT_cv_max }, { "quality_batch_ns_min", OPT_batch_ns_min },
	{ "quality_skew_max", OPT_skew_max }, { "quality_outlier_mads", OPT_outlier_mads },
	{ "quality_drift_band", OPT_drift_band }, { "inject_stall_ms", OPT_inject_stall },
	{ "inject_skew_us", OPT_inject_skew }, { "inject_slowdown_pct", OPT_inject_slowdown },
	{ "inject_drift_pct", OPT_inject_drift },
};

const char *run_metadata_setting_key(enum option_id id)
{
	if (id == OPT_canary)
		return "canary";
	for (size_t i = 0; i < sizeof setting_key / sizeof setting_key[0]; i++)
		if (setting_key[i].opt == id)
			return setting_key[i].key;
	return NULL;
}

/* The value of key in text's key=value lines, as "key=value" up to its newline; NULL if none. */
static const char *find_key(const char *text, const char *key, size_t *len)
{
	size_t n = strlen(key);

	for (const char *at = text; at && *at; at = strchr(at, '\n') ? strchr(at, '\n') + 1 : NULL)
		if (!strncmp(at, key, n) && at[n] == '=') {
			*len = strcspn(at, "\n");
			return at;
		}
	return NULL;
}

/*
 * settings_keys (the settings judged, comma-joined) and default_<key>=<value> for each of them
 * the command line moved off its default: the value the run would have written without that one
 * option, the rest as given (so a prefill follows the run's own fill).  A setting the command line
 * did not give is its default; a CSV reader needs no copy of the defaults, the presets or the
 * profiles of the storebench that ran.
 */
static void settings_defaults(FILE *m, const char *have, const struct cmdline *cl,
			      const struct machine *mach, const struct run_config *o,
			      const struct outfiles *of, time_t now, double tsc_hz,
			      const char *cycles_note)
{
	const char *const *given = cl->given;
	size_t n = sizeof setting_key / sizeof setting_key[0];
	struct run_config d;

	fputs("settings_keys=canary", m);
	for (size_t i = 0; i < n; i++)
		fprintf(m, ",%s", setting_key[i].key);
	fputc('\n', m);
	if (given[OPT_canary] && !run_config_parse_without(cl, mach, OPT_canary, &d) &&
	    d.canary != o->canary)
		fprintf(m, "default_canary=%s\n", d.canary ? "on" : "off");
	if (given[OPT_canary])
		run_config_free(&d);
	for (size_t i = 0; i < n; i++) {
		char *text = NULL;
		size_t len = 0, la = 0, lb = 0;
		const char *a, *b = NULL;
		FILE *t;

		if (!given[setting_key[i].opt])
			continue;
		if (!run_config_parse_without(cl, mach, setting_key[i].opt, &d) &&
		    (t = open_memstream(&text, &len))) {
			run_keys(t, cl, mach, &d, of, now, tsc_hz, cycles_note);
			fclose(t);
			b = find_key(text, setting_key[i].key, &lb);
		}
		a = find_key(have, setting_key[i].key, &la);
		if (a && b && (la != lb || strncmp(a, b, la)))
			fprintf(m, "default_%.*s\n", (int)lb, b);
		free(text);
		run_config_free(&d);
	}
}

char *run_metadata(const struct cmdline *cl, const struct machine *mach,
			  const struct run_config *o, const struct outfiles *of, time_t now,
			  double tsc_hz, const char *cycles_note)
{
	char *text = NULL, *keys = NULL;
	size_t len = 0, klen = 0;
	FILE *m = open_memstream(&keys, &klen);

	if (!m)
		return NULL;
	run_keys(m, cl, mach, o, of, now, tsc_hz, cycles_note);
	fclose(m);
	m = keys ? open_memstream(&text, &len) : NULL;
	if (!m) {
		free(keys);
		return NULL;
	}
	fputs(keys, m);
	settings_defaults(m, keys, cl, mach, o, of, now, tsc_hz, cycles_note);
	fclose(m);
	free(keys);
	return text;
}

void write_preamble(FILE *csv, const char *meta, bool context)
{
	for (const char *line = meta; *line; ) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		const char *eq = memchr(line, '=', n);

		if (csv)
			fprintf(csv, "# %.*s\n", (int)n, line);
		if (context && eq) {
			char *key = strndup(line, (size_t)(eq - line));
			char *val = strndup(eq + 1, n - (size_t)(eq - line) - 1);

			if (key && val)
				gbs_context(key, val);
			free(key);
			free(val);
		}
		line += n + (nl != NULL);
	}
}

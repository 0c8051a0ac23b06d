/*
 * stage_settings.c — the narrow settings of measuring and of the canaries, from a run's options.
 * Plain C.
 */
#include "stage_settings.h"

#include "rounds.h"
#include "signals.h"

struct measure_settings measure_settings_of(const struct run_config *o)
{
	return (struct measure_settings){
		.min_time = o->min_time, .repetitions = rounds_repetitions(o->repetitions, o->rounds),
		.quality = o->quality, .pages = o->pages, .bind = o->bind, .load = o->load,
		.llc_bytes = o->llc_bytes,
		.fill = o->fill, .prefill = o->prefill, .stall_ms = o->stall_ms,
		.skew_us = o->skew_us, .slowdown = o->slowdown_pct / 100.0,
		.slowed = o->slowed_spec ? o->slowed.k : NULL,
		.nslowed = o->slowed_spec ? o->slowed.n : 0,
	};
}

struct canary_config canary_config_of(const struct run_config *o)
{
	return (struct canary_config){
		.cpu = o->placement.cpu[0], .node = o->placement.node[0], .fill = o->fill,
		.band = o->quality.drift_band, .period_s = o->canary_period_s,
		.drift_pct = o->drift_pct, .l2_bytes = o->l2_bytes, .llc_bytes = o->llc_bytes,
		.cold_bytes = o->cold_bytes, .pages = o->pages, .bind = o->bind,
		.stopped = signals_pending,
	};
}

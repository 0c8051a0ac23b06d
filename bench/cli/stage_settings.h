/*
 * stage_settings.h — what each stage takes of a run's options: the narrow settings measuring
 * and the drift canaries get, made here from struct run_config, so that neither stage reads the
 * command line's whole config (nor includes it).  Plain C.
 */
#ifndef STOREBENCH_STAGE_SETTINGS_H
#define STOREBENCH_STAGE_SETTINGS_H

#include "canary.h"
#include "measure.h"
#include "run_config.h"

/* What measuring a point takes of run o; its kernel list points into o: keep o alive. */
struct measure_settings measure_settings_of(const struct run_config *o);

/* The canaries' settings of run o. */
struct canary_config canary_config_of(const struct run_config *o);

#endif

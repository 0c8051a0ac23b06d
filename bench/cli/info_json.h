/*
 * info_json.h — `storebench info --json`: the key=value lines as one JSON object, plus the topology.
 * Plain C, no ISA.  Built from the very lines `info` prints, so the two forms cannot disagree.
 */
#ifndef STOREBENCH_INFO_JSON_H
#define STOREBENCH_INFO_JSON_H

#include <stdio.h>

#include "machine.h"

/* kv: "key=value\n" lines.  Writes {"key": "value", ..., "topology": {...} or null}. */
void info_json(FILE *out, const char *kv, const struct machine *m);

#endif

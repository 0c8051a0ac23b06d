/*
 * winners.h — the answer at the end of a run: per comparison group its winner set (the kernels
 * within the tie band of the best), the best's lead over memset, what is out and what is still
 * open, and the crossovers.
 * Plain C.  Everything printed comes from compare.h's verdicts, the rule the CSV's vs_* columns
 * carry, so the table, the CSV and scripts/table cannot disagree.
 */
#ifndef STOREBENCH_WINNERS_H
#define STOREBENCH_WINNERS_H

#include <stdio.h>

#include "compare.h"

/* The table and the crossover lines, for a person (stderr at the end of `storebench run`). */
void winners_print(FILE *out, const struct compare *c);

/*
 * The same as two key=value lines for the JSON's context and the CSV's metadata, entries
 * comma-joined, fields space-separated (names hold neither):
 * winners=<group> <leader> <answer>[ <ratio over the runner-up> <low> <high>],...,
 * winner_sets=<group> <answer> <in kernels>+... <edge kernels>+... <open kernels>+... (- for
 * none),... and
 * crossovers=<series> <leader below> <its sizes> <leader above> <its sizes>,... (a series is a
 * group's shape without call: and ws:, the sizes are those two fields)
 */
void winners_keys(FILE *out, const char *prefix, const struct compare *c);

#endif

/*
 * quality_reasons.h — every reason a row's quality column may give, in the order the column
 * lists them: one X-macro list, which the flag bits (QUALITY_<name>), the column's words, the help
 * text and the run's metadata (quality_reasons, quality_why_<name>) all expand, so the scripts
 * read the reasons from the CSV and keep no copy.  Plain C, the list only.  A list macro, not a
 * .def of rows, because the help text expands it inside one string literal.
 *   REASON(name, why)
 *       name   the word in the quality column
 *       why    one line: what it means, naming the option that sets its limit
 */
#ifndef STOREBENCH_QUALITY_REASONS_H
#define STOREBENCH_QUALITY_REASONS_H

/* A limit's value in a reason's text (the limits are quality.h's). */
#define QUALITY_STR_(x) #x
#define QUALITY_STR(x) QUALITY_STR_(x)

#define QUALITY_REASON_LIST(REASON)                                                            \
	REASON(shared_cpu, "a thread got less than --cpu-share-min of its CPU")                 \
	REASON(cv, "GB/s over the repetitions varied more than --cv-max")                       \
	REASON(short_batch, "the median timed batch lasted less than --batch-ns-min")           \
	REASON(skew, "threads started a batch further apart than --skew-max of it, median over " \
		     "the batches")                                                             \
	REASON(drift, "the canary of its regime left its band, --drift-band around its median")  \
	REASON(outlier, "a repetition further than --outlier-mads MADs and --cv-max from the "  \
			"median")                                                               \
	REASON(victim_cold, "the victim's idle re-read, after waiting as long as the writes "   \
			    "took, was over " QUALITY_STR(QUALITY_VICTIM_COLD) " x slower than " \
			    "right after warming: time alone evicted it, so no strategy's cost " \
			    "can show")

/* "name (why), " for every reason: the list as one string literal, for the help text. */
#define QUALITY_REASON_HELP_(name, why) #name " (" why "), "
#define QUALITY_REASONS_HELP QUALITY_REASON_LIST(QUALITY_REASON_HELP_)

#endif

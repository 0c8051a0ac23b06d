/*
 * quality_test.c — the quality column's vocabulary and rules: names in their order, the two
 * profiles, the metadata lines, and the outlier rule on repetitions (MAD and its relative floor).
 * Plain C.  Whether real stalls and shared CPUs raise the flags is quality_cli_test.py's job.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quality.h"
#include "test_util.h"

static void format_is(unsigned mask, const char *want)
{
	char buf[QUALITY_TEXT_MAX];

	CHECK(!strcmp(quality_format(mask, buf, sizeof buf), want), "mask %#x: got '%s', want '%s'",
	      mask, buf, want);
}

static void outlier_is(const double *v, size_t n, const struct quality_limits *l, bool want,
		       const char *what)
{
	CHECK(quality_outlier(v, n, l) == want, "%s: want %s", what, want ? "outlier" : "none");
}

/* The start of the metal profile's metadata: its limits, the reasons, the first meaning. */
static const char want_meta[] =
	"# quality_profile=metal\n# quality_cpu_share_min=0.9\n# quality_cv_max=0.05\n"
	"# quality_batch_ns_min=100000\n# quality_skew_max=0.05\n# quality_outlier_mads=5\n"
	"# quality_drift_band=0.05\n"
	"# quality_reasons=shared_cpu,cv,short_batch,skew,drift,outlier,victim_cold\n"
	"# quality_why_shared_cpu=a thread got less than --cpu-share-min of its CPU\n"
	"# quality_why_cv=";

int main(void)
{
	struct quality_limits metal, vm, l;
	char *text = NULL;
	size_t len = 0;
	FILE *m;

	format_is(0, "ok");
	format_is(QUALITY_cv, "cv");
	format_is(QUALITY_outlier | QUALITY_shared_cpu | QUALITY_skew, "shared_cpu;skew;outlier");
	format_is((1u << QUALITY_REASONS) - 1,
		  "shared_cpu;cv;short_batch;skew;drift;outlier;victim_cold");

	CHECK(quality_profile("metal", &metal) && quality_profile("vm", &vm), "both profiles exist");
	CHECK(!quality_profile("cloud", &l) && !quality_profile("", &l), "no other profile");
	CHECK(vm.cpu_share_min < metal.cpu_share_min && vm.cv_max > metal.cv_max &&
		      vm.drift_band > metal.drift_band,
	      "vm is looser on shared_cpu, cv and drift");
	CHECK(vm.batch_ns_min == metal.batch_ns_min && vm.skew_max == metal.skew_max &&
		      vm.outlier_mads == metal.outlier_mads,
	      "the batch floor, skew and outlier rules hold for both");

	m = open_memstream(&text, &len);
	quality_metadata(m, "# ", &metal);
	fclose(m);
	/* the limits, then the reasons: the column's words are an interface (every CSV reader
	 * splits on them), so this test pins them where quality_reasons.h lists them */
	CHECK(text && !strncmp(text, want_meta, sizeof want_meta - 1) &&
	      strstr(text, "\n# quality_why_outlier=a repetition further than") &&
	      strstr(text, "\n# quality_why_victim_cold=the victim's idle re-read, after waiting "
			   "as long as the writes took, was over 2 x slower"),
	      "metadata lines:\n%s", text ? text : "(none)");
	free(text);

	/* one stalled repetition among nine, as a SIGSTOP during one would leave */
	outlier_is((const double[]){ 10.0, 10.2, 9.9, 10.1, 10.0, 2.0, 10.3, 9.8, 10.1 }, 9, &metal,
		   true, "one repetition at a fifth");
	/* spread evenly: the MAD grows with it, nothing stands out */
	outlier_is((const double[]){ 8, 9, 10, 11, 12 }, 5, &metal, false, "an even spread");
	/* three nearly equal values: tiny MAD, but within cv_max of the median: noise, not outlier */
	outlier_is((const double[]){ 10.0, 10.0001, 10.3 }, 3, &metal, false, "3% off, MAD ~0");
	outlier_is((const double[]){ 10.0, 10.0001, 13.0 }, 3, &metal, true, "30% off, MAD ~0");
	outlier_is((const double[]){ 10.0, 2.0 }, 2, &metal, false, "two repetitions say nothing");
	return test_result("ok: quality names, profiles, metadata and the outlier rule");
}

/*
 * quality.c — the quality flags' names, profiles, metadata and the outlier rule.  Plain C.
 * Kept apart from measure.c so the rules are stated once and every reason reads the same limits.
 */
#include "quality.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

#define NAME_(name, why) #name,
static const char *const reason_name[QUALITY_REASONS] = { QUALITY_REASON_LIST(NAME_) };
#undef NAME_
#define WHY_(name, why) why,
static const char *const reason_why[QUALITY_REASONS] = { QUALITY_REASON_LIST(WHY_) };
#undef WHY_

bool quality_profile(const char *name, struct quality_limits *l)
{
	bool vm = !strcmp(name, "vm");

	if (!vm && strcmp(name, "metal"))
		return false;
	*l = (struct quality_limits){
		.profile = vm ? "vm" : "metal",
		.cpu_share_min = vm ? QUALITY_VM_CPU_SHARE_MIN : QUALITY_METAL_CPU_SHARE_MIN,
		.cv_max = vm ? QUALITY_VM_CV_MAX : QUALITY_METAL_CV_MAX,
		.batch_ns_min = QUALITY_BATCH_NS_MIN,
		.skew_max = QUALITY_SKEW_MAX,
		.outlier_mads = QUALITY_OUTLIER_MADS,
		.drift_band = vm ? QUALITY_VM_DRIFT_BAND : QUALITY_METAL_DRIFT_BAND,
	};
	return true;
}

const char *quality_format(unsigned mask, char *buf, size_t len)
{
	size_t used = 0;

	snprintf(buf, len, "ok");
	for (int i = 0; i < QUALITY_REASONS && used < len; i++)
		if (mask & 1u << i)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ";" : "",
						 reason_name[i]);
	return buf;
}

void quality_metadata(FILE *out, const char *prefix, const struct quality_limits *l)
{
	fprintf(out, "%squality_profile=%s\n", prefix, l->profile);
	fprintf(out, "%squality_cpu_share_min=%g\n", prefix, l->cpu_share_min);
	fprintf(out, "%squality_cv_max=%g\n", prefix, l->cv_max);
	fprintf(out, "%squality_batch_ns_min=%.0f\n", prefix, l->batch_ns_min);
	fprintf(out, "%squality_skew_max=%g\n", prefix, l->skew_max);
	fprintf(out, "%squality_outlier_mads=%g\n", prefix, l->outlier_mads);
	fprintf(out, "%squality_drift_band=%g\n", prefix, l->drift_band);
	fprintf(out, "%squality_reasons=", prefix);
	for (int i = 0; i < QUALITY_REASONS; i++)
		fprintf(out, "%s%s", i ? "," : "", reason_name[i]);
	fputc('\n', out);
	for (int i = 0; i < QUALITY_REASONS; i++)
		fprintf(out, "%squality_why_%s=%s\n", prefix, reason_name[i], reason_why[i]);
}

bool quality_outlier(const double *v, size_t n, const struct quality_limits *l)
{
	double *dev = malloc(n * sizeof *dev), med, mad;
	bool out = false;

	if (n < 3 || !dev) {
		free(dev);
		return false;
	}
	memcpy(dev, v, n * sizeof *dev);
	med = stats_median(dev, n);
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(v[i] - med);
	mad = stats_median(dev, n);
	for (size_t i = 0; i < n; i++) {
		double d = fabs(v[i] - med);

		out |= d > l->outlier_mads * mad && d > l->cv_max * med;
	}
	free(dev);
	return out;
}

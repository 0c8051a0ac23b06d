/*
 * test_sizes.c — the size/list grammar every numeric axis of `storebench run` shares: units,
 * geometric and linear ranges (end included), duplicates, and the inputs that must be refused.
 * Plain C.
 */
#include <stdio.h>
#include <string.h>

#include "sizes.h"
#include "test_util.h"

static void expect_list(const char *spec, const char *want)
{
	struct u64_list l = { 0 };
	char err[256] = "", got[1024] = "";
	size_t used = 0;

	if (!u64_list_parse(spec, true, 1, &l, err, sizeof err)) {
		CHECK(false, "'%s' refused: %s", spec, err);
		return;
	}
	for (size_t i = 0; i < l.n; i++)
		used += (size_t)snprintf(got + used, sizeof got - used, "%s%llu", i ? "," : "", l.v[i]);
	CHECK(!strcmp(got, want), "'%s' -> %s, want %s", spec, got, want);
	u64_list_free(&l);
}

static void expect_refused(const char *spec, bool units)
{
	struct u64_list l = { 0 };
	char err[256] = "";

	if (u64_list_parse(spec, units, 1, &l, err, sizeof err))
		CHECK(false, "'%s' accepted", spec);
	else
		CHECK(err[0], "'%s' refused without a reason", spec);
	u64_list_free(&l);
}

int main(void)
{
	expect_list("64,1536,4KiB", "64,1536,4096");
	expect_list("4K,4KB,4kB,1M,1MB,1G,1GiB", "4096,4000,1048576,1000000,1073741824");
	expect_list("4KiB..64KiB", "4096,8192,16384,32768,65536");
	expect_list("4KiB..1GiB:x4", "4096,16384,65536,262144,1048576,4194304,16777216,67108864,"
				    "268435456,1073741824");
	expect_list("1..200:+64", "1,65,129,193,200");
	expect_list("12288..134217728:x4",
		    "12288,49152,196608,786432,3145728,12582912,50331648,134217728");
	expect_list("64,64,128", "64,128");
	expect_list("7..7", "7");
	expect_refused("0", true);
	expect_refused("-4", true);
	expect_refused("4XB", true);
	expect_refused("", true);
	expect_refused("64..32", true);
	expect_refused("4..64:x1", true);
	expect_refused("4..64:+0", true);
	expect_refused("4..64:y2", true);
	expect_refused("64,", true);
	expect_refused("4K", false);
	expect_refused("99999999999T", true);
	expect_refused("1..1000000000:+1", true);
	return test_result("ok: size grammar");
}

/*
 * outfiles.c — result file naming and exclusive creation.
 * Plain C, POSIX.  Default names carry the UTC second; if two runs start in the same second the
 * later one gets a -2, -3 ... suffix rather than failing or overwriting.
 */
#include "outfiles.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "turin-buildhost": codename (or f1a-m02) + short host name. */
void machine_id(const struct cpu_info *cpu, char *buf, size_t len)
{
	char host[256] = "", cpu_part[64];
	size_t i, j;

	gethostname(host, sizeof host - 1);
	host[strcspn(host, ".")] = '\0';
	/* "Turin (Zen 5)" -> "turin": the codename proper, without the family gloss */
	if (cpu->codename && strcmp(cpu->codename, "unknown"))
		snprintf(cpu_part, sizeof cpu_part, "%.*s", (int)strcspn(cpu->codename, "("),
			 cpu->codename);
	else
		snprintf(cpu_part, sizeof cpu_part, "f%02x-m%02x", cpu->family, cpu->model);
	snprintf(buf, len, "%s-%s", cpu_part, host[0] ? host : "host");
	for (i = 0, j = 0; buf[i]; i++) {
		unsigned char c = (unsigned char)buf[i];
		char out = isalnum(c) || c == '_' || c == '.' ? (char)tolower(c) : '-';

		if (out != '-' || (j && buf[j - 1] != '-'))
			buf[j++] = out;
	}
	while (j && buf[j - 1] == '-')
		j--;
	buf[j] = '\0';
}

static int mkdirs(const char *path)
{
	char tmp[1024];

	snprintf(tmp, sizeof tmp, "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0777) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(tmp, 0777) && errno != EEXIST ? -1 : 0;
}

static int create_excl(const char *path)
{
	return open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
}

static bool fail_path(const char *what, const char *path, int err)
{
	if (err == EEXIST)
		fprintf(stderr, "storebench run: %s '%s' already exists; results are never overwritten\n",
			what, path);
	else
		fprintf(stderr, "storebench run: cannot create %s '%s': %s\n", what, path,
			strerror(err));
	return false;
}

/* path with its .csv extension (if any) replaced by .json */
static void json_beside(const char *csv, char *out, size_t len)
{
	size_t n = strlen(csv);

	if (n > 4 && !strcmp(csv + n - 4, ".csv"))
		n -= 4;
	snprintf(out, len, "%.*s.json", (int)n, csv);
}

bool outfiles_create(struct outfiles *of, const char *csv, const char *json, const char *machine,
		     const struct cpu_info *cpu, time_t now)
{
	int fd = -1, jfd, e;

	memset(of, 0, sizeof *of);
	if (machine)
		snprintf(of->machine, sizeof of->machine, "%s", machine);
	else
		machine_id(cpu, of->machine, sizeof of->machine);
	if (csv) {
		snprintf(of->csv_path, sizeof of->csv_path, "%s", csv);
		fd = create_excl(csv);
		if (fd < 0)
			return fail_path("CSV file", csv, errno);
	} else {
		char dir[512], stamp[32];

		snprintf(dir, sizeof dir, "results/%s", of->machine);
		if (mkdirs(dir))
			return fail_path("results folder", dir, errno);
		strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", gmtime(&now));
		for (int n = 1; fd < 0 && n < 100; n++) {
			char jp[1024];

			if (n == 1)
				snprintf(of->csv_path, sizeof of->csv_path, "%s/%s.csv", dir, stamp);
			else
				snprintf(of->csv_path, sizeof of->csv_path, "%s/%s-%d.csv", dir, stamp, n);
			json_beside(of->csv_path, jp, sizeof jp);
			if (!json && access(jp, F_OK) == 0)
				continue;
			fd = create_excl(of->csv_path);
			if (fd < 0 && errno != EEXIST)
				return fail_path("CSV file", of->csv_path, errno);
		}
		if (fd < 0)
			return fail_path("CSV file", of->csv_path, EEXIST);
	}
	if (json)
		snprintf(of->json_path, sizeof of->json_path, "%s", json);
	else
		json_beside(of->csv_path, of->json_path, sizeof of->json_path);
	jfd = create_excl(of->json_path);
	if (jfd < 0) {
		e = errno;
		close(fd);
		unlink(of->csv_path);
		return fail_path("JSON file", of->json_path, e);
	}
	close(jfd);
	of->csv = fdopen(fd, "w");
	return of->csv != NULL;
}

void outfiles_discard(struct outfiles *of)
{
	if (of->csv)
		fclose(of->csv);
	of->csv = NULL;
	unlink(of->csv_path);
	unlink(of->json_path);
}

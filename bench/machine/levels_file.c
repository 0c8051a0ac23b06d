/*
 * levels_file.c — the measured levels' file: where it lives, whose it is, read, merge, write.
 * Plain C, POSIX.  Written whole to a temporary file and renamed, under a lock, so a reader never
 * sees half a file and two runs started together scan once.
 */
#include "levels_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input_file.h"

static const char header[] =
	"# storebench: cache levels measured on this machine (see `storebench run --help`, "
	"--levels).\n"
	"# Remove this file or run with --levels measure to measure them again.\n";

bool levels_path(const char *machine_id, char *buf, size_t len)
{
	const char *dir = getenv("STOREBENCH_LEVELS_DIR"), *xdg = getenv("XDG_CACHE_HOME"),
		   *home = getenv("HOME");
	int n;

	if (dir && *dir)
		n = snprintf(buf, len, "%s/%s.levels", dir, machine_id);
	else if (xdg && *xdg == '/')
		n = snprintf(buf, len, "%s/storebench/%s.levels", xdg, machine_id);
	else if (home && *home == '/')
		n = snprintf(buf, len, "%s/.cache/storebench/%s.levels", home, machine_id);
	else
		return false;
	return n > 0 && (size_t)n < len;
}

/* The boot's id: a guest restarted may run on another host, behind other neighbours. */
static void boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	buf[0] = 0;
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
}

void levels_fingerprint(const struct cpu_info *cpu, char *buf, size_t len)
{
	char boot[64];
	size_t at;

	boot_id(boot, sizeof boot);
	at = (size_t)snprintf(buf, len, "%s %s family=0x%x model=0x%x stepping=%u microcode=%s "
				    "cpus=%u boot=%s caches=", cpu->vendor, cpu->brand, cpu->family,
			      cpu->model, cpu->stepping, cpu->microcode, cpu->online_cpus, boot);
	for (size_t i = 0; i < cpu->ncaches && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%sL%u%c:%zu/%u", i ? "," : "",
				       cpu->caches[i].level, cpu->caches[i].type[0],
				       cpu->caches[i].size_bytes, cpu->caches[i].shared_cpus);
}

/* Copy src into a fixed field; false when it does not fit. */
static bool field(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		return false;
	memcpy(dst, src, n + 1);
	return true;
}

static bool number(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return end != s && !*end && !errno && *v >= 0;
}

static bool u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return end != s && !*end && !errno && *s != '-';
}

/* An "entry" line's fields after the word: threads cpus utc l1d l2 l3 ns*4 why command. */
static bool parse_entry(char *rest, struct levels_entry *e)
{
	char *f[12];
	uint64_t v;

	memset(e, 0, sizeof *e);
	for (int i = 0; i < 12; i++)
		if (!(f[i] = strsep(&rest, "\t")))
			return false;
	if (rest || !u64(f[0], &v) || !v || v > 1u << 20)
		return false;
	e->threads = (unsigned)v;
	if (!field(e->cpus, sizeof e->cpus, f[1]) || !*e->cpus || !field(e->utc, sizeof e->utc, f[2]))
		return false;
	for (int l = LEVEL_L1D; l < LEVEL_DRAM; l++)
		if (!u64(f[3 + l], &e->found.bytes[l]))
			return false;
	for (int l = LEVEL_L1D; l < LEVEL_COUNT; l++)
		if (!number(f[6 + l], &e->found.ns[l]))
			return false;
	return field(e->found.why, sizeof e->found.why, f[10]) &&
	       field(e->command, sizeof e->command, f[11]);
}

/* A "curve" line's fields: cpus, then bytes:ns pairs separated by spaces. */
static bool parse_curve(char *rest, struct levels_file *lf)
{
	char *cpus = strsep(&rest, "\t"), *pair;
	struct levels_entry *e = NULL;

	for (size_t i = 0; cpus && i < lf->n; i++)
		if (!strcmp(lf->e[i].cpus, cpus))
			e = &lf->e[i];
	if (!e || !rest)
		return false;
	e->curve.n = 0;
	while ((pair = strsep(&rest, " ")) && *pair) {
		/* bytes:load ns:store ns a line */
		char *load = strchr(pair, ':'), *store = load ? strchr(load + 1, ':') : NULL;
		struct latency_curve *c = &e->curve;

		if (!store || c->n >= EFFECTIVE_POINTS_MAX)
			return false;
		*load++ = 0;
		*store++ = 0;
		if (!u64(pair, &c->bytes[c->n]) || !number(load, &c->ns[c->n]) ||
		    !number(store, &c->store_ns[c->n]))
			return false;
		c->n++;
	}
	return true;
}

int levels_read(const char *path, const char *fingerprint, struct levels_file *lf, char *err,
		size_t errlen)
{
	char *text, *line, *rest;
	int lineno = 0;

	memset(lf, 0, sizeof *lf);
	field(lf->path, sizeof lf->path, path);
	if (fingerprint)
		field(lf->fingerprint, sizeof lf->fingerprint, fingerprint);
	text = input_file_read(path, LEVELS_FILE_MAX_BYTES, NULL, err, errlen);
	if (!text)
		return errno == ENOENT && fingerprint ? 0 : 2;
	rest = text;
	lf->fingerprint[0] = 0; /* the file's own, to be compared */
	while ((line = strsep(&rest, "\n"))) {
		char *word;
		bool ok = true;

		lineno++;
		if (!*line || *line == '#')
			continue;
		word = strsep(&line, "\t");
		if (!strcmp(word, "fingerprint") && line) {
			ok = field(lf->fingerprint, sizeof lf->fingerprint, line);
		} else if (!strcmp(word, "entry") && line) {
			struct levels_entry e;

			ok = parse_entry(line, &e) && levels_put(lf, &e);
		} else if (!strcmp(word, "curve") && line) {
			ok = parse_curve(line, lf);
		} else {
			ok = false;
		}
		if (!ok) {
			snprintf(err, errlen, "line %d is not a line of a levels file", lineno);
			free(text);
			levels_free(lf);
			return 2;
		}
	}
	free(text);
	if (fingerprint && !strcmp(lf->fingerprint, fingerprint))
		return 0;
	if (fingerprint) {
		/* another machine's, or this one before a reboot: measure again */
		levels_free(lf);
		field(lf->path, sizeof lf->path, path);
		field(lf->fingerprint, sizeof lf->fingerprint, fingerprint);
	}
	return 0;
}

const struct levels_entry *levels_lookup(const struct levels_file *lf, const char *cpus)
{
	for (size_t i = 0; lf && i < lf->n; i++)
		if (!strcmp(lf->e[i].cpus, cpus))
			return &lf->e[i];
	return NULL;
}

bool levels_put(struct levels_file *lf, const struct levels_entry *e)
{
	struct levels_entry *grown;

	for (size_t i = 0; i < lf->n; i++)
		if (!strcmp(lf->e[i].cpus, e->cpus)) {
			lf->e[i] = *e;
			return true;
		}
	grown = realloc(lf->e, (lf->n + 1) * sizeof *grown);
	if (!grown)
		return false;
	lf->e = grown;
	lf->e[lf->n++] = *e;
	return true;
}

/* Every folder above path, made where missing. */
static void make_parents(const char *path)
{
	char dir[sizeof ((struct levels_file *)0)->path];

	field(dir, sizeof dir, path);
	for (char *s = dir + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			mkdir(dir, 0755);
			*s = '/';
		}
}

static void write_entry(FILE *f, const struct levels_entry *e)
{
	fprintf(f, "entry\t%u\t%s\t%s", e->threads, e->cpus, e->utc);
	for (int l = LEVEL_L1D; l < LEVEL_DRAM; l++)
		fprintf(f, "\t%llu", (unsigned long long)e->found.bytes[l]);
	for (int l = LEVEL_L1D; l < LEVEL_COUNT; l++)
		fprintf(f, "\t%.4g", e->found.ns[l]);
	fprintf(f, "\t%s\t%s\ncurve\t%s\t", e->found.why, e->command, e->cpus);
	for (unsigned i = 0; i < e->curve.n; i++)
		fprintf(f, "%s%llu:%.4g:%.4g", i ? " " : "", (unsigned long long)e->curve.bytes[i],
			e->curve.ns[i], e->curve.store_ns[i]);
	fputc('\n', f);
}

bool levels_write(const struct levels_file *lf, char *err, size_t errlen)
{
	char tmp[sizeof lf->path + 16];
	FILE *f;
	int fd;
	bool ok;

	make_parents(lf->path);
	snprintf(tmp, sizeof tmp, "%s.XXXXXX", lf->path);
	fd = mkstemp(tmp);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		snprintf(err, errlen, "%s: %s", lf->path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return false;
	}
	fprintf(f, "%sfingerprint\t%s\n", header, lf->fingerprint);
	for (size_t i = 0; i < lf->n; i++)
		write_entry(f, &lf->e[i]);
	ok = !ferror(f) & !fflush(f) & !fsync(fileno(f));
	ok = !fclose(f) && ok && !rename(tmp, lf->path);
	if (!ok) {
		snprintf(err, errlen, "%s: %s", lf->path, strerror(errno));
		unlink(tmp);
	}
	return ok;
}

int levels_lock(const char *path)
{
	char lock[4096 + 8];
	int fd;

	make_parents(path);
	snprintf(lock, sizeof lock, "%s.lock", path);
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0 && flock(fd, LOCK_EX)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

void levels_free(struct levels_file *lf)
{
	free(lf->e);
	memset(lf, 0, sizeof *lf);
}

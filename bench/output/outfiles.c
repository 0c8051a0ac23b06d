/*
 * outfiles.c — result file naming and exclusive creation.
 * Plain C, POSIX.  Default names carry the UTC second; if two runs start in the same second the
 * later one gets a -2, -3 ... suffix rather than failing or overwriting.  A path that does not fit
 * PATH_MAX is refused whole: a cut name would create, and later remove, some other file.
 */
#include "outfiles.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
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
	char tmp[PATH_MAX];

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

static int fail_path(const char *what, const char *path, int err)
{
	if (err == EEXIST)
		fprintf(stderr, "storebench run: %s '%s' already exists; results are never overwritten\n",
			what, path);
	else
		fprintf(stderr, "storebench run: cannot create %s '%s': %s\n", what, path,
			strerror(err));
	return err == EEXIST || err == ENOENT || err == ENOTDIR || err == EISDIR ||
	       err == ENAMETOOLONG || err == ELOOP ? 2 : 1;
}

static int too_long(const char *what, const char *path)
{
	fprintf(stderr, "storebench run: %s '%.60s...' (%zu bytes): want a path that fits in %d bytes "
			"whole, as given and made absolute\n",
		what, path, strlen(path), PATH_MAX - 1);
	return 2;
}

bool outfiles_absolute(const char *path, char *out, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else if (slash == path)
		snprintf(dir, sizeof dir, "/");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
	if (!realpath(dir, real))
		return false;
	if ((size_t)snprintf(out, len, "%s/%s", strcmp(real, "/") ? real : "",
			     slash ? slash + 1 : path) < len)
		return true;
	errno = ENAMETOOLONG;
	return false;
}

/*
 * Create f->path with O_EXCL on a descriptor above 2 (a closed stdout must not become the
 * CSV) and remember its inode.  Returns errno, 0 on success.
 */
static int create_excl(struct outfile *f)
{
	struct stat st;
	/* read too: a rewrite copies the CSV's preamble from it (outfiles_rewrite_begin) */
	int fd = open(f->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644), e;

	if (fd < 0)
		return errno;
	f->created = true;
	if (fstat(fd, &st)) {
		e = errno;
		close(fd);
		return e;
	}
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->fd = fd;
	if (fd <= STDERR_FILENO) {
		f->fd = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
		e = errno;
		close(fd);
		if (f->fd < 0)
			return e;
	}
	return 0;
}

/* Whether path still names the inode (dev, ino). */
static bool names_inode(const char *path, dev_t dev, ino_t ino)
{
	struct stat st;

	return !lstat(path, &st) && st.st_dev == dev && st.st_ino == ino;
}

/* Whether f's name still holds the inode this run created. */
static bool still_own(const struct outfile *f)
{
	return names_inode(f->path, f->dev, f->ino);
}

/* Remove f if its name still holds the inode this run created (never a file put there since). */
static void remove_own(struct outfile *f)
{
	if (f->created && still_own(f))
		unlink(f->path);
	f->created = false;
}

void outfiles_remove_own(int fd, const char *path)
{
	struct stat st;

	if (!fstat(fd, &st) && names_inode(path, st.st_dev, st.st_ino))
		unlink(path);
}

/* path with its .csv extension (if any) replaced by .json; false if that does not fit */
static bool json_beside(const char *csv, char *out, size_t len)
{
	size_t n = strlen(csv);

	if (n > 4 && !strcmp(csv + n - 4, ".csv"))
		n -= 4;
	return (size_t)snprintf(out, len, "%.*s.json", (int)n, csv) < len;
}

static bool set_path(struct outfile *f, const char *path)
{
	return (size_t)snprintf(f->path, sizeof f->path, "%s", path) < sizeof f->path;
}

int outfiles_create(struct outfiles *of, const char *csv, const char *json, const char *machine,
		    const struct cpu_info *cpu, time_t now)
{
	char jp[PATH_MAX];
	int e = EEXIST;

	memset(of, 0, sizeof *of);
	of->csv.fd = of->json.fd = -1;
	if (machine)
		snprintf(of->machine, sizeof of->machine, "%s", machine);
	else
		machine_id(cpu, of->machine, sizeof of->machine);
	if (csv && !set_path(&of->csv, csv))
		return too_long("--csv", csv);
	if (json && !set_path(&of->json, json))
		return too_long("--json", json);
	if (csv && !json && !json_beside(csv, of->json.path, sizeof of->json.path))
		return too_long("--csv", csv);
	if (csv && !outfiles_absolute(of->csv.path, of->csv.abs, sizeof of->csv.abs))
		return errno == ENAMETOOLONG ? too_long("--csv", csv) : fail_path("CSV file", csv, errno);
	if (csv && !outfiles_absolute(of->json.path, of->json.abs, sizeof of->json.abs))
		return errno == ENAMETOOLONG ? too_long("--json", of->json.path)
					     : fail_path("JSON file", of->json.path, errno);
	if (csv) {
		e = create_excl(&of->csv);
		if (e)
			return fail_path("CSV file", csv, e);
	} else {
		char dir[sizeof of->machine + 16], stamp[32]; /* results/<machine> */

		snprintf(dir, sizeof dir, "results/%s", of->machine);
		if (mkdirs(dir))
			return fail_path("results folder", dir, errno);
		strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", gmtime(&now));
		for (int n = 1; e == EEXIST && n < 100; n++) {
			if (n == 1)
				snprintf(of->csv.path, sizeof of->csv.path, "%s/%s.csv", dir, stamp);
			else
				snprintf(of->csv.path, sizeof of->csv.path, "%s/%s-%d.csv", dir, stamp,
					 n);
			json_beside(of->csv.path, jp, sizeof jp);
			if (!json && access(jp, F_OK) == 0)
				continue;
			e = create_excl(&of->csv);
		}
		if (e)
			return fail_path("CSV file", of->csv.path, e);
		if (!json)
			snprintf(of->json.path, sizeof of->json.path, "%s", jp);
		if (!outfiles_absolute(of->csv.path, of->csv.abs, sizeof of->csv.abs) ||
		    !outfiles_absolute(of->json.path, of->json.abs, sizeof of->json.abs)) {
			e = errno;
			outfiles_discard(of);
			return e == ENAMETOOLONG ? too_long("--json", of->json.path)
						 : fail_path("JSON file", of->json.path, e);
		}
	}
	e = create_excl(&of->json);
	if (e) {
		outfiles_discard(of);
		return fail_path("JSON file", of->json.path, e);
	}
	of->csv_stream = fdopen(of->csv.fd, "w");
	if (!of->csv_stream) {
		e = errno;
		outfiles_discard(of);
		return fail_path("CSV file", of->csv.path, e);
	}
	return 0;
}

bool outfiles_keep_csv(struct outfiles *of)
{
	off_t at;
	int e;

	if (fflush(of->csv_stream) == 0 && !ferror(of->csv_stream) && fsync(of->csv.fd) == 0 &&
	    (at = lseek(of->csv.fd, 0, SEEK_CUR)) >= 0) {
		of->csv_kept = at;
		return true;
	}
	e = errno;
	outfiles_cut_csv(of, of->csv_kept);
	errno = e;
	return false;
}

void outfiles_cut_csv(struct outfiles *of, off_t to)
{
	/* drop what stdio still holds: the cut-back file must not grow a partial row again */
	__fpurge(of->csv_stream);
	clearerr(of->csv_stream);
	if (!ftruncate(of->csv.fd, to))
		fsync(of->csv.fd);
	lseek(of->csv.fd, to, SEEK_SET);
	of->csv_kept = to;
}

bool outfiles_close(struct outfiles *of, const char **failed)
{
	bool ok = true;
	int e = 0;

	*failed = NULL;
	if (of->csv_stream) {
		if (!outfiles_keep_csv(of)) {
			e = errno;
			*failed = of->csv.abs;
			ok = false;
		}
		if (fclose(of->csv_stream) && ok) {
			e = errno;
			*failed = of->csv.abs;
			ok = false;
		}
		of->csv_stream = NULL;
		of->csv.fd = -1;
	}
	if (of->json.fd >= 0) {
		int synced = fsync(of->json.fd), se = errno;

		if ((close(of->json.fd) || synced) && ok) {
			e = synced ? se : errno;
			*failed = of->json.abs;
			ok = false;
		}
		of->json.fd = -1;
	}
	errno = e;
	return ok;
}

void outfiles_discard(struct outfiles *of)
{
	if (of->csv_stream)
		fclose(of->csv_stream);
	else if (of->csv.fd >= 0)
		close(of->csv.fd);
	if (of->json.fd >= 0)
		close(of->json.fd);
	of->csv_stream = NULL;
	of->csv.fd = of->json.fd = -1;
	remove_own(&of->csv);
	remove_own(&of->json);
}

/* Copy the first n bytes of from into to (at its start). */
static bool copy_head(int from, int to, off_t n)
{
	char buf[1 << 16];
	off_t at = 0;

	while (at < n) {
		size_t want = n - at < (off_t)sizeof buf ? (size_t)(n - at) : sizeof buf;
		ssize_t got = pread(from, buf, want, at);

		if (got <= 0) {
			errno = got ? errno : EIO;
			return false;
		}
		for (ssize_t put = 0, w; put < got; put += w) {
			w = write(to, buf + put, (size_t)(got - put));
			if (w < 0)
				return false;
		}
		at += got;
	}
	return true;
}

bool outfiles_rewrite_begin(struct outfiles *of, off_t keep)
{
	struct outfile next = { .fd = -1 };
	int e;

	if ((size_t)snprintf(next.path, sizeof next.path, "%s.%ld.tmp", of->csv.path,
			     (long)getpid()) >= sizeof next.path) {
		errno = ENAMETOOLONG;
		return false;
	}
	e = create_excl(&next);
	if (!e && !copy_head(of->csv.fd, next.fd, keep))
		e = errno;
	if (!e) {
		of->next_stream = fdopen(next.fd, "w");
		e = of->next_stream ? 0 : errno;
	}
	if (e) {
		if (next.fd >= 0)
			close(next.fd);
		remove_own(&next);
		errno = e;
		return false;
	}
	memcpy(next.abs, of->csv.abs, sizeof next.abs);
	/* from here the rows go to the new file; the old one stands until it is replaced */
	of->prev = of->csv;
	of->prev_stream = of->csv_stream;
	of->prev_kept = of->csv_kept;
	of->csv = next;
	of->csv_stream = of->next_stream;
	of->next_stream = NULL;
	of->csv_kept = keep;
	return true;
}

bool outfiles_rewrite_commit(struct outfiles *of)
{
	char tmp[PATH_MAX];

	/* never over a file put at the name since: that is not this run's to replace */
	if (!still_own(&of->prev)) {
		errno = EEXIST;
		return false;
	}
	memcpy(tmp, of->csv.path, sizeof tmp);
	if (rename(tmp, of->prev.path))
		return false;
	memcpy(of->csv.path, of->prev.path, sizeof of->csv.path);
	fclose(of->prev_stream);
	of->prev_stream = NULL;
	of->prev.created = false;
	return true;
}

void outfiles_rewrite_abort(struct outfiles *of)
{
	fclose(of->csv_stream);
	remove_own(&of->csv);
	of->csv = of->prev;
	of->csv_stream = of->prev_stream;
	of->csv_kept = of->prev_kept;
	of->prev_stream = NULL;
}

static struct outfiles *guarded;

static void remove_at_exit(void)
{
	if (!guarded)
		return;
	outfiles_discard(guarded);
	fprintf(stderr, "storebench run: Google Benchmark ended the process before the files were "
			"complete; both files removed\n");
}

void outfiles_guard(struct outfiles *of)
{
	static bool registered;

	if (!registered)
		registered = !atexit(remove_at_exit);
	guarded = of;
}

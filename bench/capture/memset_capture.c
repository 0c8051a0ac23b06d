/*
 * memset_capture.c — libstorebench-capture.so, preloaded by `storebench capture`: counts the
 * size of every memset call a program makes through the dynamic linker (memset, the
 * __memset_chk of _FORTIFY_SOURCE builds, bzero), then calls the real one, so the program does
 * what it did.  Each program (a process, or what an exec made of it) writes its counts at
 * exit, before an exec and on SIGINT and SIGTERM before the program's own handling of them, to
 * $STOREBENCH_CAPTURE.<pid>.<its start in ns> in size_dist.h's pairs format; `storebench
 * capture` adds up the files of a command's programs.
 * Plain C, async-signal-safe where it writes.  Counting takes one atomic add (sizes below
 * SMALL_SIZES) or a lock-free table probe (larger ones), so threads never wait on each other
 * and a handler that calls memset cannot deadlock.  glibc's calls from inside glibc (calloc,
 * stdio) and memsets a compiler inlined do not go through the dynamic linker: they are not
 * counted.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Sizes counted one by one in a flat array: every call of fewer bytes costs one atomic add. */
#define SMALL_SIZES 65536
/* Slots of the table of larger sizes (open addressing, linear probing); a power of two. */
#define LARGE_SLOTS 16384

static _Atomic uint64_t small_count[SMALL_SIZES];
static struct {
	_Atomic uint64_t size;  /* 0: empty (a large size is never 0) */
	_Atomic uint64_t count;
} large[LARGE_SLOTS];
static _Atomic uint64_t lost;  /* calls of a large size that found the table full */

typedef void *(*memset_fn)(void *, int, size_t);
typedef void *(*memset_chk_fn)(void *, int, size_t, size_t);
typedef void (*bzero_fn)(void *, size_t);
static memset_fn real_memset;
static memset_chk_fn real_memset_chk;
static bzero_fn real_bzero;
static struct sigaction previous[2]; /* SIGINT's and SIGTERM's before ours */
static atomic_flag written = ATOMIC_FLAG_INIT;
static uint64_t image; /* this program image's start, in ns: an exec keeps the pid, so the file
			* of the image before it and this one's differ by this */

static void count(size_t n)
{
	if (n < SMALL_SIZES) {
		atomic_fetch_add_explicit(&small_count[n], 1, memory_order_relaxed);
		return;
	}
	for (size_t i = 0, at = (n * 0x9e3779b97f4a7c15ull) >> 50; i < LARGE_SLOTS; i++) {
		size_t slot = (at + i) & (LARGE_SLOTS - 1);
		uint64_t seen = atomic_load_explicit(&large[slot].size, memory_order_acquire);

		if (seen == 0) {
			uint64_t empty = 0;

			if (atomic_compare_exchange_strong(&large[slot].size, &empty, n))
				seen = n;
			else
				seen = empty; /* another thread took the slot first: its size */
		}
		if (seen == n) {
			atomic_fetch_add_explicit(&large[slot].count, 1, memory_order_relaxed);
			return;
		}
	}
	atomic_fetch_add_explicit(&lost, 1, memory_order_relaxed);
}

/* Until dlsym has found the real memset (dlsym may itself call memset): bytes one at a time,
 * through a volatile pointer so the compiler cannot turn the loop back into a memset call. */
static void *plain_memset(void *s, int c, size_t n)
{
	volatile unsigned char *p = s;

	while (n--)
		*p++ = (unsigned char)c;
	return s;
}

void *memset(void *s, int c, size_t n)
{
	count(n);
	return (real_memset ? real_memset : plain_memset)(s, c, n);
}

/* _FORTIFY_SOURCE's memset (what Debian's packages call where the size is not a constant):
 * counted, then glibc's, which checks the size against the destination's and may abort. */
void *__memset_chk(void *s, int c, size_t n, size_t destlen)
{
	count(n);
	if (real_memset_chk)
		return real_memset_chk(s, c, n, destlen);
	return (real_memset ? real_memset : plain_memset)(s, c, n);
}

void bzero(void *s, size_t n)
{
	count(n);
	if (real_bzero)
		real_bzero(s, n);
	else
		(real_memset ? real_memset : plain_memset)(s, 0, n);
}

/* Decimal digits of v into the end of buf; returns where they start. */
static char *digits(uint64_t v, char *end)
{
	do
		*--end = (char)('0' + v % 10);
	while (v /= 10);
	return end;
}

/* "SIZE COUNT\n" into out (room for 42 bytes); returns the bytes written. */
static size_t line_of(uint64_t size, uint64_t n, char *out)
{
	char a[20], b[20], *da = digits(size, a + sizeof a), *db = digits(n, b + sizeof b);
	size_t la = (size_t)(a + sizeof a - da), lb = (size_t)(b + sizeof b - db);

	for (size_t i = 0; i < la; i++)
		out[i] = da[i];
	out[la] = ' ';
	for (size_t i = 0; i < lb; i++)
		out[la + 1 + i] = db[i];
	out[la + 1 + lb] = '\n';
	return la + lb + 2;
}

/* All of n bytes of b to fd, or false. */
static bool put(int fd, const char *b, size_t n)
{
	return write(fd, b, n) == (ssize_t)n;
}

/* Write every count to $STOREBENCH_CAPTURE.<pid>, once: only open, write and close. */
static void write_counts(void)
{
	const char *prefix = getenv("STOREBENCH_CAPTURE");
	char path[4096], buf[4096], pid[20], *dp;
	size_t used = 0, plen;
	int fd, saved = errno;

	if (!prefix || atomic_flag_test_and_set(&written))
		return;
	plen = strlen(prefix);
	dp = digits((uint64_t)getpid(), pid + sizeof pid);
	if (plen + 1 + (size_t)(pid + sizeof pid - dp) + 1 > sizeof path)
		return;
	for (size_t i = 0; i < plen; i++)
		path[i] = prefix[i];
	path[plen] = '.';
	for (size_t i = 0; dp + i < pid + sizeof pid; i++)
		path[plen + 1 + i] = dp[i];
	path[plen + 1 + (size_t)(pid + sizeof pid - dp)] = '\0';
	if (plen + 1 + (size_t)(pid + sizeof pid - dp) + 22 > sizeof path)
		return;
	{
		char stamp[20], *ds = digits(image, stamp + sizeof stamp);
		size_t at = strlen(path);

		path[at++] = '.';
		while (ds < stamp + sizeof stamp)
			path[at++] = *ds++;
		path[at] = '\0';
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	for (size_t k = 0; k < SMALL_SIZES + LARGE_SLOTS; k++) {
		uint64_t size = k, n;

		if (k < SMALL_SIZES) {
			n = atomic_load(&small_count[k]);
		} else {
			size = atomic_load(&large[k - SMALL_SIZES].size);
			n = size ? atomic_load(&large[k - SMALL_SIZES].count) : 0;
		}
		if (!n)
			continue;
		if (used + 42 > sizeof buf) {
			if (!put(fd, buf, used))
				break;
			used = 0;
		}
		used += line_of(size, n, buf + used);
	}
	if (atomic_load(&lost) && used + 80 > sizeof buf && put(fd, buf, used))
		used = 0;
	if (atomic_load(&lost) && used + 80 <= sizeof buf) {
		/* the note storebench capture reads (cmd_capture.c's LOST_NOTE) */
		static const char note[] = "# calls of sizes the table had no room for: ";
		char b[20], *d = digits(atomic_load(&lost), b + sizeof b);

		for (size_t i = 0; i < sizeof note - 1; i++)
			buf[used++] = note[i];
		while (d < b + sizeof b)
			buf[used++] = *d++;
		buf[used++] = '\n';
	}
	put(fd, buf, used);
	close(fd);
	errno = saved;
}

/* SIGINT or SIGTERM: the counts first, then what the program had set up for the signal. */
static void on_signal(int sig, siginfo_t *info, void *ctx)
{
	const struct sigaction *was = &previous[sig == SIGTERM];

	write_counts();
	if (was->sa_flags & SA_SIGINFO) {
		if (was->sa_sigaction) {
			was->sa_sigaction(sig, info, ctx);
			return;
		}
	} else if (was->sa_handler == SIG_IGN) {
		return;
	} else if (was->sa_handler != SIG_DFL) {
		was->sa_handler(sig);
		return;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* After fork, the child counts its own calls only: the parent's stay the parent's. */
static void forget_counts(void)
{
	for (size_t i = 0; i < SMALL_SIZES; i++)
		atomic_store_explicit(&small_count[i], 0, memory_order_relaxed);
	for (size_t i = 0; i < LARGE_SLOTS; i++) {
		atomic_store_explicit(&large[i].size, 0, memory_order_relaxed);
		atomic_store_explicit(&large[i].count, 0, memory_order_relaxed);
	}
	atomic_store(&lost, 0);
	atomic_flag_clear(&written);
}

/*
 * An exec replaces the program without running its exit handlers: the counts so far are
 * written first, and counting goes on (into a rewritten file) if the exec fails.  The exec
 * functions programs call; glibc's own (execl*, system, posix_spawn) either fork first or reach
 * execve inside glibc, where the image's counts are the child's own.
 */
typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execv_fn)(const char *, char *const[]);
typedef int (*execvpe_fn)(const char *, char *const[], char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);

static void before_exec(void)
{
	write_counts();
	atomic_flag_clear(&written);
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	before_exec();
	return ((execve_fn)dlsym(RTLD_NEXT, "execve"))(path, argv, envp);
}

int execv(const char *path, char *const argv[])
{
	before_exec();
	return ((execv_fn)dlsym(RTLD_NEXT, "execv"))(path, argv);
}

int execvp(const char *file, char *const argv[])
{
	before_exec();
	return ((execv_fn)dlsym(RTLD_NEXT, "execvp"))(file, argv);
}

int execvpe(const char *file, char *const argv[], char *const envp[])
{
	before_exec();
	return ((execvpe_fn)dlsym(RTLD_NEXT, "execvpe"))(file, argv, envp);
}

int fexecve(int fd, char *const argv[], char *const envp[])
{
	before_exec();
	return ((fexecve_fn)dlsym(RTLD_NEXT, "fexecve"))(fd, argv, envp);
}

__attribute__((constructor)) static void capture_start(void)
{
	struct sigaction sa;
	const int sigs[2] = { SIGINT, SIGTERM };
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	image = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;

	real_memset_chk = (memset_chk_fn)dlsym(RTLD_NEXT, "__memset_chk");
	real_bzero = (bzero_fn)dlsym(RTLD_NEXT, "bzero");
	real_memset = (memset_fn)dlsym(RTLD_NEXT, "memset");
	pthread_atfork(NULL, NULL, forget_counts);
	atexit(write_counts);
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sa.sa_sigaction = on_signal;
	for (int i = 0; i < 2; i++)
		sigaction(sigs[i], &sa, &previous[i]);
}

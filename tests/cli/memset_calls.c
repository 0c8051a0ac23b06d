/*
 * memset_calls.c — a program whose memset calls are known, for capture_test.py:
 * `memset_calls THREADS CALLS [wait|exec|many]`.  Thread t (from 0) calls memset CALLS times with
 * 100 * (t + 1) bytes and once with 100000 (a size past the capture's flat array); a forked
 * child calls it 5 times with 7 bytes and exits.  With wait it then prints "ready" and sleeps
 * until a signal ends it; with exec it becomes `memset_calls 1 2` (execv, the same process);
 * with many it then calls memset once with each of 20000 sizes from 65536 up (more distinct
 * large sizes than the capture's table has room for).
 * Plain C.  Every call goes through the dynamic linker (a volatile pointer to memset: the
 * compiler can neither inline it nor see its size).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void *(*volatile set)(void *, int, size_t) = memset;
static long calls;

static void *worker(void *arg)
{
	size_t bytes = 100 * ((size_t)arg + 1);
	char *buf = malloc(100000);

	if (!buf)
		exit(3);
	for (long i = 0; i < calls; i++)
		set(buf, (int)i, bytes);
	set(buf, 0, 100000);
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	long threads = argc > 2 ? atol(argv[1]) : 0;
	pthread_t t[64];
	char small[8];
	pid_t child;

	calls = argc > 2 ? atol(argv[2]) : 0;
	if (threads < 1 || threads > 64 || calls < 0) {
		fputs("usage: memset_calls THREADS(1-64) CALLS [wait|exec|many]\n", stderr);
		return 2;
	}
	for (long i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i))
			return 3;
	for (long i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	child = fork();
	if (child == 0) {
		for (int i = 0; i < 5; i++)
			set(small, i, 7);
		exit(0);
	}
	if (child < 0 || waitpid(child, NULL, 0) != child)
		return 3;
	if (argc > 3 && !strcmp(argv[3], "many")) {
		char *big = malloc(65536 + 20000);

		if (!big)
			return 3;
		for (size_t i = 0; i < 20000; i++)
			set(big, 1, 65536 + i);
		free(big);
	}
	if (argc > 3 && !strcmp(argv[3], "exec")) {
		char *again[] = { argv[0], "1", "2", NULL };

		execv("/proc/self/exe", again);
		return 3;
	}
	if (argc > 3 && !strcmp(argv[3], "wait")) {
		puts("ready");
		fflush(stdout);
		for (;;)
			pause();
	}
	return 0;
}

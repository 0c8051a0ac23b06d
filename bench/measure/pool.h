/*
 * pool.h — the persistent pool of pinned threads that runs timed batches (pthreads + futex).
 * Plain C.  Thread 0 is the caller (Google Benchmark's thread), pinned like the others, so n
 * threads use n CPUs; idle workers sleep, active ones spin between batches: no wake-up per start.
 */
#ifndef STOREBENCH_POOL_H
#define STOREBENCH_POOL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "buffer.h"
#include "plan.h"

/* What pool_run has each active thread do. */
enum pool_job { JOB_ALLOC, JOB_PREFILL, JOB_BATCH, JOB_VERIFY, JOB_EXIT };

/* One thread's part of a task: which plan it runs, where, and its role in a split mix. */
struct pool_work {
	const struct plan *plan; /* PREFILL, BATCH, VERIFY: its calls, owned by the caller */
	size_t offset;           /* the plan's region start past the buffer's: the misalignment */
	bool reads_until_stop;   /* split reader: runs its read plan until the last writer is done */
	bool signals_stop;       /* split writer: one of the writers the readers wait for */
};

/*
 * What a point asks of the pool, in the caller's hands: passed to every pool_run and pool_batch
 * and read by the threads only while those run.  The pool owns its threads and their buffers,
 * nothing else, so no caller writes a pool field and no plan outlives its owner unnoticed.
 */
struct pool_task {
	unsigned active;         /* threads [0, active) take part */
	size_t alloc_len;        /* ALLOC: usable bytes per thread */
	enum page_policy pages;  /* ALLOC: the buffers' page size */
	struct membind bind;     /* ALLOC: the buffers' NUMA binding */
	store_fn store;          /* BATCH: the point's store kernel */
	load_fn load;            /* BATCH: the read kernel of a read/write mix */
	int fill;                /* BATCH: the byte stored; VERIFY: the byte the plan must leave */
	int prefill;             /* PREFILL: laid over every span; VERIFY: what must stay around */
	double slowdown;         /* BATCH: extra busy time as a fraction of the work time */
	uint64_t stall_ns;       /* BATCH: thread 0 sleeps this long in its timed window */
	uint64_t late_ns;        /* BATCH, 2+ threads: the last starts this long past the barrier */
	uint64_t pass_delay_ns;  /* BATCH: each thread waits this long after each pass (a chase's
				  * loaded window at a lower write rate, victim.h) */
	const struct pool_work *work; /* PREFILL, BATCH, VERIFY: thread i's part at work[i] */
};

/* One thread's state; aligned so threads never share a cache line. */
struct pool_thread {
	_Alignas(64) _Atomic unsigned go; /* generation this thread was told to run */
	_Atomic int sleeping;             /* waiting on go with futex */
	int cpu, node;
	int cycles_fd;          /* -1 when cycles cannot be counted */
	bool open_cycles;       /* the worker opens cycles_fd: a counter counts its own CPU */
	struct buffer buf;      /* this thread's memory, first touched on its own CPU */
	/* results of the last task */
	uint64_t t0_ns, t1_ns;  /* batch start and end, CLOCK_MONOTONIC_RAW */
	uint64_t c0, c1;        /* the same instants in TSC ticks */
	uint64_t cyc;           /* core cycles in the batch (user space) */
	uint64_t read_bytes;    /* split reader: whole chunks read in the batch */
	uint64_t cpu_ns;        /* this thread's CPU time across the batch, barrier included */
	uint64_t wall_ns;       /* wall time across the same span: cpu_ns well below it means the
				 * CPU was shared with other work while the batch ran */
	bool ok;                /* last ALLOC/VERIFY succeeded */
	uint64_t bad;           /* VERIFY: the first wrong byte's offset from the plan's region */
	char err[200];          /* ALLOC: why it failed */
	struct pool *pool;
	pthread_t tid;
};

struct pool {
	unsigned nthreads;        /* threads started (the largest thread count of the run) */
	struct pool_thread *t;
	unsigned gen;             /* last generation dispatched */
	/* the current job, read-only while it runs */
	enum pool_job job;
	const struct pool_task *task; /* the caller's, while pool_run runs it */
	unsigned active;          /* threads [0, active) take part */
	uint64_t passes;          /* BATCH: plan passes per thread */
	unsigned writers;         /* BATCH, split: active threads whose work signals_stop */
	_Alignas(64) _Atomic unsigned writers_done;
	atomic_bool stop;         /* BATCH, split: set by the last writer to finish */
	_Alignas(64) _Atomic unsigned arrived; /* start barrier */
	_Alignas(64) _Atomic unsigned released;
	_Alignas(64) _Atomic unsigned done;
};

/* What one timed batch measured. */
struct batch_time {
	uint64_t ns;       /* makespan: first start to last end */
	uint64_t skew_ns;  /* start skew: last thread's start - first thread's start */
	uint64_t ticks;    /* the same in TSC ticks */
	uint64_t cycles;   /* core cycles summed over threads, 0 when not counted */
	uint64_t read_bytes; /* bytes the split readers read (their share varies per batch) */
};

/* Start n threads on cpus[] (thread 0 = the caller); open cycle counters when count_cycles. */
bool pool_start(struct pool *p, unsigned n, const int *cpus, const int *nodes, bool count_cycles,
		char *err, size_t errlen);
void pool_stop(struct pool *p);

/* Run job for task on threads [0, task->active) and wait for all of them. */
void pool_run(struct pool *p, enum pool_job job, const struct pool_task *task);

/* One timed batch of passes passes of task on threads [0, task->active). */
struct batch_time pool_batch(struct pool *p, const struct pool_task *task, uint64_t passes);

#endif

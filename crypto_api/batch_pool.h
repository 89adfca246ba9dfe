/*
 * batch_pool.h: the library's pool of native worker threads, on which the
 * batch entry points (batch_call.h) split their work.
 *
 * No kernel counterpart: the kernel spreads dm-crypt's work over its
 * per-CPU workqueues (kernel/workqueue.c); this is a small pthread pool in
 * their place, owned by crypto_api._direct_call.
 *
 * A batch asks for n workers: the calling thread is worker 0 and the pool
 * lends up to n - 1 threads, each running the batch's work function with
 * its own worker number.  The work function takes its items from a shared
 * counter, so a worker that starts late (the pool busy with other batches)
 * finds less to do; once the caller is done with its own part, tasks that
 * no thread has started are taken back, and the caller waits only for the
 * started ones.  No Python is run on the pool's threads and they never
 * touch the GIL.
 *
 * Threads start lazily (the first batch that needs them), at most
 * BATCH_POOL_MAX; batch_pool_shutdown() stops and joins them (at
 * interpreter exit, from crypto_api/batch.py); after fork() the child's pool
 * is empty and its lock new (pthread_atfork), and it starts threads of its
 * own when it needs them.
 */
#ifndef CRYPTO_API_BATCH_POOL_H
#define CRYPTO_API_BATCH_POOL_H

#include <pthread.h>
#include <stdlib.h>

/* The most threads the pool holds (a batch asks for at most this + 1 workers). */
#define BATCH_POOL_MAX 63

typedef void (*batch_work_fn)(void *arg, int worker);

typedef struct BatchTask {
	struct BatchTask *next;
	batch_work_fn work;
	void *arg;
	int worker;
	int started;		/* a pool thread took it (under pool.mu) */
	int done;		/* ... and returned from it */
} BatchTask;

static struct {
	pthread_mutex_t mu;
	pthread_cond_t work_cv;		/* a task was queued, or stop */
	pthread_cond_t done_cv;		/* a task is done */
	BatchTask *head, *tail;
	pthread_t threads[BATCH_POOL_MAX];
	int nthreads;
	int stopping;
	unsigned long started_total;	/* threads started since load (or fork) */
} batch_pool = {
	PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER,
	NULL, NULL, {0}, 0, 0, 0,
};

static void *batch_pool_thread(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&batch_pool.mu);
	for (;;) {
		BatchTask *t;

		while (batch_pool.head == NULL && !batch_pool.stopping)
			pthread_cond_wait(&batch_pool.work_cv, &batch_pool.mu);
		t = batch_pool.head;
		if (t == NULL)		/* stopping, nothing left */
			break;
		batch_pool.head = t->next;
		if (batch_pool.head == NULL)
			batch_pool.tail = NULL;
		t->started = 1;
		pthread_mutex_unlock(&batch_pool.mu);
		t->work(t->arg, t->worker);
		pthread_mutex_lock(&batch_pool.mu);
		t->done = 1;
		pthread_cond_broadcast(&batch_pool.done_cv);
	}
	pthread_mutex_unlock(&batch_pool.mu);
	return NULL;
}

/* With pool.mu held: at least ``want`` threads (fewer where they cannot be
 * started: the caller's own worker then does more). */
static void batch_pool_grow(int want)
{
	if (want > BATCH_POOL_MAX)
		want = BATCH_POOL_MAX;
	while (batch_pool.nthreads < want && !batch_pool.stopping) {
		if (pthread_create(&batch_pool.threads[batch_pool.nthreads], NULL, batch_pool_thread,
				   NULL) != 0)
			break;
		batch_pool.nthreads++;
		batch_pool.started_total++;
	}
}

/* Take back the tasks of ``tasks`` no thread has started (pool.mu held). */
static void batch_pool_unqueue(BatchTask *tasks, int n)
{
	BatchTask **pp = &batch_pool.head, *prev = NULL;

	while (*pp != NULL) {
		BatchTask *t = *pp;

		if (t >= tasks && t < tasks + n) {
			*pp = t->next;
			continue;
		}
		prev = t;
		pp = &t->next;
	}
	batch_pool.tail = prev;
}

/*
 * Run work(arg, w) for w = 0 .. workers - 1: 0 in this thread, the others on
 * the pool's threads; return when every one that ran has returned (the GIL
 * is not touched: release it around this).  0, or -1 where the task array
 * could not be had (then work(arg, 0) alone ran).
 */
static int batch_pool_run(batch_work_fn work, void *arg, int workers)
{
	BatchTask *tasks = NULL;
	int n = workers - 1, i, rc = 0;

	if (n > BATCH_POOL_MAX)
		n = BATCH_POOL_MAX;
	if (n > 0) {
		tasks = calloc((size_t)n, sizeof(*tasks));
		if (tasks == NULL) {
			n = 0;
			rc = -1;
		}
	}
	if (n > 0) {
		pthread_mutex_lock(&batch_pool.mu);
		batch_pool_grow(n);
		for (i = 0; i < n; i++) {
			tasks[i].work = work;
			tasks[i].arg = arg;
			tasks[i].worker = i + 1;
			if (batch_pool.tail != NULL)
				batch_pool.tail->next = &tasks[i];
			else
				batch_pool.head = &tasks[i];
			batch_pool.tail = &tasks[i];
		}
		pthread_cond_broadcast(&batch_pool.work_cv);
		pthread_mutex_unlock(&batch_pool.mu);
	}
	work(arg, 0);
	if (n > 0) {
		pthread_mutex_lock(&batch_pool.mu);
		batch_pool_unqueue(tasks, n);
		for (i = 0; i < n; i++)
			while (tasks[i].started && !tasks[i].done)
				pthread_cond_wait(&batch_pool.done_cv, &batch_pool.mu);
		pthread_mutex_unlock(&batch_pool.mu);
		free(tasks);
	}
	return rc;
}

/* Stop the threads once the queue is empty, and join them. */
static void batch_pool_shutdown(void)
{
	int i, n;

	pthread_mutex_lock(&batch_pool.mu);
	if (batch_pool.stopping) {	/* another thread is stopping the pool */
		pthread_mutex_unlock(&batch_pool.mu);
		return;
	}
	batch_pool.stopping = 1;
	pthread_cond_broadcast(&batch_pool.work_cv);
	n = batch_pool.nthreads;
	pthread_mutex_unlock(&batch_pool.mu);
	for (i = 0; i < n; i++)
		pthread_join(batch_pool.threads[i], NULL);
	pthread_mutex_lock(&batch_pool.mu);
	batch_pool.nthreads = 0;
	batch_pool.stopping = 0;
	pthread_mutex_unlock(&batch_pool.mu);
}

/* fork(): the forking thread holds the lock across it, so the child's copy
 * of the pool is consistent; the child has none of the threads, and no
 * thread waits on its condition variables. */
static void batch_pool_prepare(void)
{
	pthread_mutex_lock(&batch_pool.mu);
}

static void batch_pool_parent(void)
{
	pthread_mutex_unlock(&batch_pool.mu);
}

static void batch_pool_child(void)
{
	/* this thread took the lock in batch_pool_prepare: it owns it here too */
	pthread_mutex_unlock(&batch_pool.mu);
	pthread_cond_init(&batch_pool.work_cv, NULL);
	pthread_cond_init(&batch_pool.done_cv, NULL);
	batch_pool.head = batch_pool.tail = NULL;
	batch_pool.nthreads = 0;
	batch_pool.stopping = 0;
	batch_pool.started_total = 0;
}

/* At module load (once per process: the handlers are inherited by children). */
static int batch_pool_init(void)
{
	static int registered;

	if (registered)
		return 0;
	if (pthread_atfork(batch_pool_prepare, batch_pool_parent, batch_pool_child) != 0)
		return -1;
	registered = 1;
	return 0;
}

#endif

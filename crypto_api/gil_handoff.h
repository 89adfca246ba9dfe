/*
 * gil_handoff.h: releasing the GIL around a short C call, and taking it
 * back without a sleep when another thread of ours is about to give it up.
 *
 * No kernel counterpart: this is CPython plumbing for crypto_api's C entry
 * points (crypto_api/direct_call.c).
 *
 * The GIL is a mutex and a condition variable.  A thread that asks for it
 * while another holds it sleeps on the condition variable; the holder wakes
 * it when it lets go.  Around a call of a microsecond (4 KiB of ChaCha) the
 * wake-up takes longer than the call: the thread that released the GIL is
 * done with its C work and takes the GIL back before the sleeper is awake,
 * and the sleeper finds it taken and sleeps again.  The switch interval does
 * not help: the sleeper asks the holder to drop the GIL only when a whole
 * interval (5 ms) passed without the GIL changing hands, and here it changes
 * hands, from the holder to itself, at every call.  The calls of two threads
 * then come in long runs of one thread (the other gets a turn only when it
 * happens to wake in time), and two threads get less done than one.
 *
 * Between threads that all come through here the GIL is handed over without
 * sleeping.  ``handoff_state`` says what the last of our threads did with
 * it:
 *
 *   HANDOFF_FREE  one of our threads released it (it is free, unless a
 *                 thread that is not ours, or one of ours coming back the
 *                 usual way, has taken it since);
 *   HANDOFF_HELD  one of our threads claimed it (it is held, unless that
 *                 thread has let it go elsewhere since).
 *
 * A thread done with its C work claims a FREE GIL (FREE -> HELD, one
 * compare-and-swap, so one thread takes it) and takes it at once.  If it
 * finds HELD, another of our threads is running Python and will release the
 * GIL in its next call: it spins until then, for at most HANDOFF_SPIN_NS.
 *
 * Getting there: a thread that is asleep in the usual wait never comes
 * through here to claim, so two threads start in the runs above, until the
 * other one happens to wake in time once.  A
 * thread whose call follows another thread's call closely (within
 * HANDOFF_RECENT_NS) and that, done with its C work, finds that no thread of
 * ours has released the GIL since its own release and none is in
 * its C work, takes that other thread to be waking up: it lets the GIL be,
 * for at most HANDOFF_SPIN_NS, until that thread has taken it and released
 * it in its own next call.  From then on both hand over through here.
 *
 * All of this is a hint: nothing here is needed for correctness, the GIL
 * itself is always taken through PyEval_RestoreThread, and every wait is
 * bounded.  A spin that ran out makes the next ones be skipped (1, 2, 4 ...
 * up to HANDOFF_PENALTY_MAX of them) until one succeeds again, so threads
 * that call now and then, with other work between, hardly ever spin.  A
 * lone thread finds FREE and pays a few atomic operations and a coarse
 * clock read.  Where the process may run on one CPU only, nothing spins:
 * the thread holding the GIL could not run while another spun; and a spin
 * longer than HANDOFF_POLITE_NS offers the CPU between its checks, in case
 * the thread it waits for is waiting for that CPU.
 *
 * A spin pays only where a CPU is free for it: the thread that holds the
 * GIL runs on one, each of our threads in its C work on another.  A thread
 * that would spin while those and the threads already spinning take every
 * CPU this process may use does not (it takes the usual wait): with more
 * threads than CPUs, spinners would take the CPUs from the threads whose
 * work they wait for, and N threads would get less done than one
 * ("crowded" in handoff_stats).
 */
#ifndef CRYPTO_API_GIL_HANDOFF_H
#define CRYPTO_API_GIL_HANDOFF_H

#include <Python.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <sched.h>
#include <unistd.h>

enum { HANDOFF_FREE = 1, HANDOFF_HELD = 2 };

/* The longest spin, for another thread's next release or for a waking
 * thread: far longer than the Python between two calls of a loop (about
 * 0.3 us here) and than a wake-up, far shorter than a scheduler tick. */
#define HANDOFF_SPIN_NS 30000
/* A call that follows another thread's release by less than this is taken
 * as contended (longer than a wake-up from the usual wait).  Read from the
 * coarse clock (HANDOFF_COARSE_CLOCK): where its step is a scheduler tick,
 * "recent" is "within the same tick", a few ms at most. */
#define HANDOFF_RECENT_NS 1000000
/* Spinning past this offers the CPU (sched_yield) between checks. */
#define HANDOFF_POLITE_NS 3000
/* A spin that ran out (nobody came) makes the next ones be skipped: 1, then
 * 2, 4 ... up to this many, until a spin succeeds again.  Threads that call
 * now and then, with other work between, so stop spinning for nothing. */
#define HANDOFF_PENALTY_MAX 1024

static atomic_int handoff_state = HANDOFF_HELD;
static atomic_ulong handoff_epoch;		/* releases through here so far */
static atomic_int handoff_in_c;			/* our threads in their C work */
static atomic_ulong handoff_last_thread;	/* who released last, and when */
static atomic_llong handoff_last_ns;
/* counts since load, for crypto_api._direct_call.handoff_stats() */
static atomic_ulong handoff_spun, handoff_futile, handoff_skipped, handoff_crowded;
static atomic_int handoff_spinners;		/* our threads spinning now */
static int handoff_cpus = 1;			/* CPUs this process may use */
static atomic_int handoff_skip;			/* spins still to skip ... */
static atomic_int handoff_penalty;		/* ... and after the next futile one */
static int64_t handoff_spin_ns = HANDOFF_SPIN_NS;

/* What a release leaves for the matching acquire. */
typedef struct {
	PyThreadState *ts;
	unsigned long epoch;	/* handoff_epoch after this release */
	int contended;		/* another thread released just before */
} Handoff;

/* At module load: no spinning where this process may use one CPU only. */
static inline void handoff_init(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef __linux__
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		cpus = CPU_COUNT(&set);
#endif
	handoff_cpus = cpus > 0 ? (int)cpus : 1;
	handoff_spin_ns = cpus >= 2 ? HANDOFF_SPIN_NS : 0;
}

static inline void handoff_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
	__asm__ __volatile__("yield");
#elif defined(__powerpc64__)
	__asm__ __volatile__("or 27,27,27");
#endif
}

/* The clock of the "recent" test, read at every release: the coarse
 * monotonic clock where there is one (on this project's 2-vCPU VM about 7 ns
 * a read against 26 ns for CLOCK_MONOTONIC, whose resolution only the spin
 * deadlines need). */
#ifdef CLOCK_MONOTONIC_COARSE
#define HANDOFF_COARSE_CLOCK CLOCK_MONOTONIC_COARSE
#else
#define HANDOFF_COARSE_CLOCK CLOCK_MONOTONIC
#endif

static inline int64_t handoff_clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Py_BEGIN_ALLOW_THREADS: release the GIL and say it is free. */
static inline Handoff handoff_release(void)
{
	Handoff h;
	unsigned long me = PyThread_get_thread_ident();
	int64_t now = handoff_clock_ns(HANDOFF_COARSE_CLOCK);
	unsigned long last = atomic_exchange_explicit(&handoff_last_thread, me,
						      memory_order_relaxed);
	int64_t then = atomic_exchange_explicit(&handoff_last_ns, now, memory_order_relaxed);

	h.contended = last != me && now - then < HANDOFF_RECENT_NS;
	h.ts = PyEval_SaveThread();
	atomic_fetch_add_explicit(&handoff_in_c, 1, memory_order_relaxed);
	h.epoch = atomic_fetch_add_explicit(&handoff_epoch, 1, memory_order_acq_rel) + 1;
	atomic_store_explicit(&handoff_state, HANDOFF_FREE, memory_order_release);
	return h;
}

/* Nobody of ours has released or claimed since our release, nobody of ours
 * is in C: the other thread of a contended pair is waking up the usual way. */
static inline int handoff_other_waking(const Handoff *h)
{
	return h->contended &&
	       atomic_load_explicit(&handoff_epoch, memory_order_acquire) == h->epoch &&
	       atomic_load_explicit(&handoff_in_c, memory_order_relaxed) == 0;
}

/* Whether to skip this spin (a recent one ran out): uses up one skip. */
static inline int handoff_skip_this_spin(void)
{
	int k = atomic_load_explicit(&handoff_skip, memory_order_relaxed);

	while (k > 0) {
		if (atomic_compare_exchange_weak_explicit(&handoff_skip, &k, k - 1,
							  memory_order_relaxed, memory_order_relaxed))
			return 1;
	}
	return 0;
}

/* A spin ran out: skip twice as many as last time (at most the maximum). */
static inline void handoff_spin_futile(void)
{
	int p = atomic_load_explicit(&handoff_penalty, memory_order_relaxed);

	atomic_fetch_add_explicit(&handoff_futile, 1, memory_order_relaxed);
	p = p == 0 ? 1 : (p >= HANDOFF_PENALTY_MAX / 2 ? HANDOFF_PENALTY_MAX : 2 * p);
	atomic_store_explicit(&handoff_penalty, p, memory_order_relaxed);
	atomic_store_explicit(&handoff_skip, p, memory_order_relaxed);
}

/* Whether a CPU is free for one more spinner: beside this thread, the GIL's
 * holder, our threads in their C work and those spinning already. */
static inline int handoff_cpu_free(void)
{
	int busy = atomic_load_explicit(&handoff_in_c, memory_order_relaxed) +
		   atomic_load_explicit(&handoff_spinners, memory_order_relaxed) + 2;

	return busy <= handoff_cpus;
}

/* Py_END_ALLOW_THREADS: take the GIL back, by claim where it was released
 * by one of our threads, after a bounded spin where one of them holds it or
 * where another thread is waking up to take it. */
static inline void handoff_acquire(Handoff h)
{
	int64_t deadline = 0, polite = 0;
	unsigned spins = 0;
	int spinning = 0;

	atomic_fetch_sub_explicit(&handoff_in_c, 1, memory_order_relaxed);
	for (;;) {
		int s = atomic_load_explicit(&handoff_state, memory_order_acquire);

		if (s == HANDOFF_FREE && (deadline < 0 || !handoff_other_waking(&h))) {
			if (atomic_compare_exchange_weak_explicit(&handoff_state, &s, HANDOFF_HELD,
								  memory_order_acq_rel,
								  memory_order_acquire))
				break;
			continue;
		}
		/* held by another of ours, or free for a thread waking up: spin */
		if (handoff_spin_ns == 0 || deadline < 0)
			break;
		if (spins == 0) {
			if (handoff_skip_this_spin()) {
				atomic_fetch_add_explicit(&handoff_skipped, 1, memory_order_relaxed);
				deadline = -1;	/* as if spent */
				continue;
			}
			if (!handoff_cpu_free()) {
				atomic_fetch_add_explicit(&handoff_crowded, 1, memory_order_relaxed);
				deadline = -1;	/* no CPU to spin on: the usual wait */
				continue;
			}
			atomic_fetch_add_explicit(&handoff_spinners, 1, memory_order_relaxed);
			spinning = 1;
			atomic_fetch_add_explicit(&handoff_spun, 1, memory_order_relaxed);
		}
		if ((++spins & 31) == 0) {
			int64_t now = handoff_clock_ns(CLOCK_MONOTONIC);

			if (deadline == 0) {
				deadline = now + handoff_spin_ns;
				polite = now + HANDOFF_POLITE_NS;
			} else if (now >= deadline) {
				deadline = -1;	/* spent: claim if free, else the usual wait */
				handoff_spin_futile();
				continue;
			}
			/* past the first microseconds, the thread we wait for may be
			 * waiting for this CPU: offer it between checks */
			if (now >= polite)
				sched_yield();
		}
		handoff_pause();
	}
	if (spinning)
		atomic_fetch_sub_explicit(&handoff_spinners, 1, memory_order_relaxed);
	if (spins && deadline >= 0)	/* a spin that got what it waited for */
		atomic_store_explicit(&handoff_penalty, 0, memory_order_relaxed);
	PyEval_RestoreThread(h.ts);
	atomic_store_explicit(&handoff_state, HANDOFF_HELD, memory_order_release);
}

#endif

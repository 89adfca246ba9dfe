/*
 * batch_call.h: many messages through one skcipher direct path in one call,
 * split over the pool's native worker threads (batch_pool.h) with the GIL
 * released for the whole batch; crypto_api/batch.py is its Python side.
 *
 * No kernel counterpart: the kernel's callers queue one request per message
 * (dm-crypt per sector, on every CPU's workqueue); here one call takes the
 * list.  Included by direct_call.c after SkcipherCall.
 *
 * Everything is checked and every buffer exported before any byte is
 * written: a batch it does not take as a whole (a message the direct path
 * would decline, an IV that is not bytes of the right size, outputs that
 * share bytes) is declined (None) and the caller runs its loop instead, or
 * refuses.  The exports are held until the last worker is done.
 */
#ifndef CRYPTO_API_BATCH_CALL_H
#define CRYPTO_API_BATCH_CALL_H

#include <stdatomic.h>
#include <stdlib.h>

#include "batch_pool.h"

typedef struct {
	Py_ssize_t items;	/* messages this worker did */
	Py_ssize_t nbytes;	/* their bytes */
	Py_ssize_t simd_bytes;	/* of which with the SIMD code */
} BatchWorkerStat;

typedef struct {
	const SkcipherCall *call;
	Py_ssize_t count;
	char **dst;
	const char **src;
	const char **iv;
	Py_ssize_t *len;
	unsigned char *simd;	/* the item takes the SIMD handle */
	atomic_llong next;	/* the next item to take */
	BatchWorkerStat *stat;	/* one per worker */
} BatchJob;

static void batch_work(void *arg, int worker)
{
	BatchJob *job = arg;
	const SkcipherCall *c = job->call;
	BatchWorkerStat *st = &job->stat[worker];

	for (;;) {
		long long i = atomic_fetch_add_explicit(&job->next, 1, memory_order_relaxed);
		const void *handle;
		size_t n;

		if (i >= job->count)
			break;
		n = (size_t)job->len[i];
		handle = job->simd[i] ? c->simd : c->generic;
		if (c->returns_int)
			(void)((crypt_int_fn)c->crypt)(handle, job->dst[i], job->src[i], n, job->iv[i]);
		else
			((crypt_void_fn)c->crypt)(handle, job->dst[i], job->src[i], n, job->iv[i]);
		st->items++;
		st->nbytes += (Py_ssize_t)n;
		if (job->simd[i])
			st->simd_bytes += (Py_ssize_t)n;
	}
}

typedef struct {
	uintptr_t start, end;
	Py_ssize_t index;
} BatchRange;

static int batch_range_cmp(const void *a, const void *b)
{
	const BatchRange *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * Whether the outputs share bytes with each other or with another item's
 * input (an item's own input may be its output, the same bytes: in place).
 * 1 with the two items in *a, *b; 0 if not; -1 out of memory (exception set).
 */
static int batch_overlap_at(char *const *dst, const char *const *src, const Py_ssize_t *len,
			    Py_ssize_t count, Py_ssize_t *a, Py_ssize_t *b)
{
	BatchRange *r = PyMem_Malloc((size_t)(count ? count : 1) * sizeof(*r));
	Py_ssize_t i, m = 0, found = 0;

	if (r == NULL) {
		PyErr_NoMemory();
		return -1;
	}
	for (i = 0; i < count; i++)
		if (len[i]) {
			r[m].start = (uintptr_t)dst[i];
			r[m].end = (uintptr_t)dst[i] + (size_t)len[i];
			r[m].index = i;
			m++;
		}
	qsort(r, (size_t)m, sizeof(*r), batch_range_cmp);
	for (i = 1; i < m && !found; i++)
		if (r[i].start < r[i - 1].end) {
			*a = r[i - 1].index;
			*b = r[i].index;
			found = 1;
		}
	for (i = 0; i < count && !found; i++) {
		uintptr_t s = (uintptr_t)src[i], e = s + (size_t)len[i];
		Py_ssize_t lo = 0, hi = m;

		if (!len[i])
			continue;
		while (lo < hi) {	/* the first output that ends after s */
			Py_ssize_t mid = lo + (hi - lo) / 2;

			if (r[mid].end <= s)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < m && r[lo].start < e; lo++)
			if (r[lo].index != i || r[lo].start != s || r[lo].end != e) {
				*a = r[lo].index;
				*b = i;
				found = 1;
				break;
			}
	}
	PyMem_Free(r);
	return (int)found;
}

/* The exports and pointers of one batch, taken before any work. */
typedef struct {
	Py_ssize_t count;
	Py_buffer *sv, *dv;
	unsigned char *have_s, *have_d;
	char **dst;
	const char **src;
	const char **iv;
	Py_ssize_t *len;
	unsigned char *simd;
} BatchBuffers;

static void batch_buffers_free(BatchBuffers *b)
{
	Py_ssize_t i;

	for (i = 0; i < b->count; i++) {
		if (b->have_s != NULL && b->have_s[i])
			PyBuffer_Release(&b->sv[i]);
		if (b->have_d != NULL && b->have_d[i])
			PyBuffer_Release(&b->dv[i]);
	}
	PyMem_Free(b->sv);
	PyMem_Free(b->dv);
	PyMem_Free(b->have_s);
	PyMem_Free(b->have_d);
	PyMem_Free(b->dst);
	PyMem_Free(b->src);
	PyMem_Free(b->iv);
	PyMem_Free(b->len);
	PyMem_Free(b->simd);
}

static int batch_buffers_alloc(BatchBuffers *b, Py_ssize_t count)
{
	size_t n = (size_t)(count ? count : 1);

	memset(b, 0, sizeof(*b));
	b->sv = PyMem_Calloc(n, sizeof(Py_buffer));
	b->dv = PyMem_Calloc(n, sizeof(Py_buffer));
	b->have_s = PyMem_Calloc(n, 1);
	b->have_d = PyMem_Calloc(n, 1);
	b->dst = PyMem_Calloc(n, sizeof(char *));
	b->src = PyMem_Calloc(n, sizeof(char *));
	b->iv = PyMem_Calloc(n, sizeof(char *));
	b->len = PyMem_Calloc(n, sizeof(Py_ssize_t));
	b->simd = PyMem_Calloc(n, 1);
	b->count = count;
	if (!b->sv || !b->dv || !b->have_s || !b->have_d || !b->dst || !b->src || !b->iv ||
	    !b->len || !b->simd) {
		PyErr_NoMemory();
		return -1;
	}
	return 0;
}

/* A list of the sequence's items (a new reference), or NULL with TypeError. */
static PyObject *batch_list(PyObject *o, const char *what)
{
	PyObject *l = PySequence_List(o);

	if (l == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
		PyErr_Clear();
		PyErr_Format(PyExc_TypeError, "batch: %s must be a sequence", what);
	}
	return l;
}

/* Take the outputs ``outs`` (a list or NULL) and inputs; 1 taken, 0 declined,
 * -1 error (exception set). */
static int batch_take(BatchBuffers *b, PyObject *datas, PyObject *outs)
{
	Py_ssize_t i, dn;
	int how;

	for (i = 0; i < b->count; i++) {
		int held = 0;
		char *p;

		how = take_buffer(PyList_GetItem(datas, i), 0, &b->sv[i], &held, &p, &b->len[i]);
		b->have_s[i] = (unsigned char)held;
		if (how != BUFFER_TAKEN)
			return how == BUFFER_FAILED ? -1 : 0;
		b->src[i] = p;
		if (outs == NULL)
			continue;
		held = 0;
		how = take_buffer(PyList_GetItem(outs, i), 1, &b->dv[i], &held, &b->dst[i], &dn);
		b->have_d[i] = (unsigned char)held;
		if (how != BUFFER_TAKEN)
			return how == BUFFER_FAILED ? -1 : 0;
		if (dn != b->len[i])
			return 0;
	}
	return 1;
}

/* The per-worker records: a tuple of (items, nbytes, simd_bytes). */
static PyObject *batch_stats(const BatchWorkerStat *st, int workers)
{
	PyObject *t = PyTuple_New(workers);
	int w;

	if (t == NULL)
		return NULL;
	for (w = 0; w < workers; w++) {
		PyObject *r = Py_BuildValue("(nnn)", st[w].items, st[w].nbytes, st[w].simd_bytes);

		if (r == NULL) {
			Py_DECREF(t);
			return NULL;
		}
		PyTuple_SetItem(t, w, r);
	}
	return t;
}

/* The SkcipherCall behind a direct path ``fn`` (a function of make()), or
 * NULL (no exception) if it is none. */
static const SkcipherCall *batch_call_of(PyObject *module, PyObject *fn)
{
	PyObject *tp = PyObject_GetAttrString(module, "SkcipherCallState");
	PyObject *self;
	int ok;

	if (tp == NULL) {
		PyErr_Clear();
		return NULL;
	}
	ok = PyObject_TypeCheck(fn, &PyCFunction_Type);
	self = ok ? PyCFunction_GetSelf(fn) : NULL;
	ok = self != NULL && (PyObject *)Py_TYPE(self) == tp;
	Py_DECREF(tp);
	return ok ? (const SkcipherCall *)self : NULL;
}

/*
 * batch(fn, datas, ivs, outs, workers) -> (results, stats), ("overlap", i, j)
 * or None (declined: the caller loops over fn's full path).
 */
static PyObject *batch(PyObject *module, PyObject *args)
{
	PyObject *fn, *datas_o, *ivs_o, *outs_o, *datas = NULL, *ivs = NULL, *outs = NULL;
	PyObject *res = NULL, *results = NULL, *stats;
	const SkcipherCall *c;
	BatchBuffers b;
	BatchWorkerStat *st = NULL;
	BatchJob job;
	Py_ssize_t i, count, oa, ob;
	int workers, taken, any_simd = 0;
	long v = 0;

	if (!PyArg_ParseTuple(args, "OOOOi:batch", &fn, &datas_o, &ivs_o, &outs_o, &workers))
		return NULL;
	c = batch_call_of(module, fn);
	if (c == NULL || workers < 1)
		Py_RETURN_NONE;
	datas = batch_list(datas_o, "datas");
	if (datas == NULL)
		return NULL;
	count = PyList_Size(datas);
	if (ivs_o != Py_None) {
		ivs = batch_list(ivs_o, "ivs");
		if (ivs == NULL)
			goto out_lists;
		if (PyList_Size(ivs) != count)
			goto decline_lists;
	} else if (c->ivsize != 0) {
		goto decline_lists;
	}
	if (outs_o != Py_None) {
		outs = batch_list(outs_o, "outs");
		if (outs == NULL)
			goto out_lists;
		if (PyList_Size(outs) != count)
			goto decline_lists;
	}
	if (workers > BATCH_POOL_MAX + 1)
		workers = BATCH_POOL_MAX + 1;
	if (batch_buffers_alloc(&b, count) < 0)
		goto out_buffers;
	for (i = 0; i < count; i++) {
		PyObject *iv = ivs == NULL ? NULL : PyList_GetItem(ivs, i);

		if (iv == NULL)
			b.iv[i] = "";
		else if (PyBytes_CheckExact(iv) && PyBytes_Size(iv) == c->ivsize)
			b.iv[i] = PyBytes_AsString(iv);
		else
			goto decline;
	}
	taken = batch_take(&b, datas, outs);
	if (taken < 0)
		goto out_buffers;
	if (!taken)
		goto decline;
	for (i = 0; i < count; i++) {
		Py_ssize_t n = b.len[i];

		if (n < c->min_len || n % c->align)
			goto decline;
		if (outs != NULL && partly_overlapping(b.src[i], b.dst[i], n))
			goto decline;
		b.simd[i] = c->simd_only || (c->simd != c->generic && n > c->simd_above);
		any_simd |= b.simd[i];
	}
	if (any_simd) {
		/* one answer for the batch; while a trace records, the SIMD code
		 * runs all the same and the caller records each worker's share */
		if (call_state_choice(&c->base, &v) < 0)
			goto out_buffers;
		if (v != c->simd_value && v != c->decline_value) {
			if (c->simd_only)
				goto decline;
			memset(b.simd, 0, (size_t)(count ? count : 1));
		}
	}
	if (outs != NULL) {
		int o = batch_overlap_at(b.dst, b.src, b.len, count, &oa, &ob);

		if (o < 0)
			goto out_buffers;
		if (o) {
			res = Py_BuildValue("(snn)", "overlap", oa, ob);
			goto out_buffers;
		}
	} else {
		/* new bytes for each, filled before anything else sees them */
		results = PyList_New(count);
		if (results == NULL)
			goto out_buffers;
		for (i = 0; i < count; i++) {
			PyObject *r = new_bytes(b.len[i], &b.dst[i]);

			if (r == NULL)
				goto out_buffers;
			PyList_SetItem(results, i, r);
		}
	}
	st = PyMem_Calloc((size_t)workers, sizeof(*st));
	if (st == NULL) {
		PyErr_NoMemory();
		goto out_buffers;
	}
	job.call = c;
	job.count = count;
	job.dst = b.dst;
	job.src = b.src;
	job.iv = b.iv;
	job.len = b.len;
	job.simd = b.simd;
	atomic_init(&job.next, 0);
	job.stat = st;
	if (workers > count)
		workers = count > 0 ? (int)count : 1;
	if (count > 0) {
		Handoff h = handoff_release();

		batch_pool_run(batch_work, &job, workers);
		handoff_acquire(h);
	}
	stats = batch_stats(st, workers);
	if (stats == NULL)
		goto out_buffers;
	if (results == NULL) {
		results = outs;
		Py_INCREF(results);
	}
	res = Py_BuildValue("(NN)", results, stats);
	results = NULL;
	goto out_buffers;

decline:
	Py_INCREF(Py_None);
	res = Py_None;
out_buffers:
	batch_buffers_free(&b);
	PyMem_Free(st);
	Py_XDECREF(results);
	goto out_lists;
decline_lists:
	Py_INCREF(Py_None);
	res = Py_None;
out_lists:
	Py_XDECREF(datas);
	Py_XDECREF(ivs);
	Py_XDECREF(outs);
	return res;
}

/* batch_overlap(datas, outs) -> None, or (i, j): outs[i] shares bytes with
 * outs[j] or datas[j] (other than in place); TypeError for what is not a
 * buffer (outs: writable), ValueError for lengths that differ. */
static PyObject *batch_overlap(PyObject *module, PyObject *args)
{
	PyObject *datas_o, *outs_o, *datas, *outs = NULL, *res = NULL;
	BatchBuffers b;
	Py_ssize_t count, oa, ob;
	int taken, o;

	(void)module;
	if (!PyArg_ParseTuple(args, "OO:batch_overlap", &datas_o, &outs_o))
		return NULL;
	datas = batch_list(datas_o, "datas");
	if (datas == NULL)
		return NULL;
	outs = batch_list(outs_o, "outs");
	if (outs == NULL)
		goto out_lists;
	count = PyList_Size(datas);
	if (PyList_Size(outs) != count) {
		PyErr_SetString(PyExc_ValueError, "batch_overlap: datas and outs differ in length");
		goto out_lists;
	}
	if (batch_buffers_alloc(&b, count) < 0)
		goto out;
	taken = batch_take(&b, datas, outs);
	if (taken < 0)
		goto out;
	if (!taken) {
		PyErr_SetString(PyExc_TypeError,
				"batch_overlap: an item is no buffer, an out no writable one of its length");
		goto out;
	}
	o = batch_overlap_at(b.dst, b.src, b.len, count, &oa, &ob);
	if (o < 0)
		goto out;
	if (o) {
		res = Py_BuildValue("(nn)", oa, ob);
	} else {
		Py_INCREF(Py_None);
		res = Py_None;
	}
out:
	batch_buffers_free(&b);
out_lists:
	Py_XDECREF(datas);
	Py_XDECREF(outs);
	return res;
}

/* batch_pool_stop(): stop and join the pool's threads (interpreter exit). */
static PyObject *batch_pool_stop(PyObject *module, PyObject *unused)
{
	(void)module;
	(void)unused;
	Py_BEGIN_ALLOW_THREADS
	batch_pool_shutdown();
	Py_END_ALLOW_THREADS
	Py_RETURN_NONE;
}

/* batch_pool_info() -> {"threads": .., "started": .., "max": ..}. */
static PyObject *batch_pool_info(PyObject *module, PyObject *unused)
{
	int n;
	unsigned long started;

	(void)module;
	(void)unused;
	pthread_mutex_lock(&batch_pool.mu);
	n = batch_pool.nthreads;
	started = batch_pool.started_total;
	pthread_mutex_unlock(&batch_pool.mu);
	return Py_BuildValue("{s:i,s:k,s:i}", "threads", n, "started", started, "max",
			     BATCH_POOL_MAX);
}

#endif

/*
 * digest_call.h: the one-call direct path of a fixed-size result as a CPython
 * C entry point, part of crypto_api._direct_call (included by
 * direct_call.c, after entry_point.h and gil_handoff.h, so that all its
 * entry points share one GIL hand-over state).
 *
 * No kernel counterpart: it is the userspace glue between ``tfm.digest(data)``
 * of a shash, or ``tfm.encrypt_one(block)`` / ``decrypt_one`` of a
 * single-block cipher, and one C routine of the driver
 * (``fn(handle, out, src, n)``, e.g. sha256_digest_call or aes_block_call),
 * made at setkey (or allocation, for an unkeyed hash) by
 * crypto_api.direct.digest_direct.  It is the one implementation of the
 * direct path (no Python copy; where it is not built the tfm takes its full
 * path).  Its decisions:
 *
 *  - the input in any C-contiguous buffer (a bytes object as it is), exported
 *    before its length is read and held until the routine has returned;
 *  - an input of other than ``in_len`` bytes (where in_len >= 0: a cipher's
 *    block) or of fewer than ``min_len`` is declined;
 *  - the ``simd`` handle for inputs longer than ``simd_above`` when choice()
 *    answers SIMD, the ``generic`` one when it answers GENERIC (or the input
 *    is shorter), and DECLINE (an FPU trace records) declines, so the
 *    modelled path makes the real sections;
 *  - a routine that returns nonzero declines (the full path raises the
 *    driver's error).
 *
 * The result is a new bytes object of ``out_len`` bytes, filled before
 * anyone else sees it.  The GIL is released around the routine for inputs of
 * at least ``nogil_min`` bytes.
 */
#ifndef CRYPTO_API_DIGEST_CALL_H
#define CRYPTO_API_DIGEST_CALL_H

/* 0: out holds the result; nonzero: declined (out is discarded). */
typedef int (*digest_call_fn)(const void *handle, char *out, const char *src, size_t n);

typedef struct {
	CallState base;			/* keep: what owns the routine and the handles */
	digest_call_fn fn;
	const void *generic;		/* handle for the generic code */
	const void *simd;		/* handle for the SIMD code (== generic: none) */
	Py_ssize_t in_len;		/* the one input length taken, or -1: any */
	Py_ssize_t min_len;		/* shorter inputs: None */
	Py_ssize_t out_len;
	Py_ssize_t simd_above;		/* SIMD only for inputs longer than this (SimdRule.above) */
	Py_ssize_t nogil_min;		/* the GIL is released from this length on */
	long simd_value;
	long decline_value;
} DigestCall;

/* fn(data) -> bytes, or None where the full path must run. */
static PyObject *digest_call(PyObject *self_obj, PyObject *const *args, Py_ssize_t nargs)
{
	const DigestCall *self = (const DigestCall *)self_obj;
	PyObject *res = NULL;
	Py_buffer sv;
	int have_s = 0, how, rc;
	const void *handle = self->generic;
	char *src, *out;
	Py_ssize_t n;

	if (nargs != 1) {
		PyErr_SetString(PyExc_TypeError, "digest_call: expected (data)");
		return NULL;
	}
	how = take_buffer(args[0], 0, &sv, &have_s, &src, &n);
	if (how != BUFFER_TAKEN) {
		res = not_taken(how);
		goto done;
	}
	if ((self->in_len >= 0 && n != self->in_len) || n < self->min_len)
		goto decline;
	if (self->simd != self->generic && n > self->simd_above) {
		long v;

		if (call_state_choice(&self->base, &v) < 0)
			goto done;
		if (v == self->simd_value)
			handle = self->simd;
		else if (v == self->decline_value)
			goto decline;
	}
	res = new_bytes(self->out_len, &out);
	if (res == NULL)
		goto done;
	if (n >= self->nogil_min) {
		Handoff h = handoff_release();

		rc = self->fn(handle, out, src, (size_t)n);
		handoff_acquire(h);
	} else {
		rc = self->fn(handle, out, src, (size_t)n);
	}
	if (rc == 0)
		goto done;
	Py_CLEAR(res);
decline:
	Py_INCREF(Py_None);
	res = Py_None;
done:
	if (have_s)
		PyBuffer_Release(&sv);
	return res;
}

static PyMethodDef digest_call_def = {
	"digest_call", (PyCFunction)(void (*)(void))digest_call, METH_FASTCALL,
	"fn(data) -> bytes or None: a fixed-size result's one-call direct path "
	"(crypto_api.direct.digest_direct)",
};

/*
 * make_digest(fn, generic, simd, keep, choice, in_len, min_len, out_len,
 *             simd_above, nogil_min, simd_value, decline_value) -> fn
 * fn, generic, simd: addresses (ints) that ``keep`` keeps alive.
 */
static PyObject *make_digest(PyObject *module, PyObject *args)
{
	PyObject *fn, *generic, *simd, *keep, *choice;
	DigestCall *self;
	Py_ssize_t in_len, min_len, out_len, simd_above, nogil_min;
	long simd_value, decline_value;
	void *p_fn, *p_generic, *p_simd;

	if (!PyArg_ParseTuple(args, "OOOOOnnnnnll:make_digest", &fn, &generic, &simd, &keep,
			      &choice, &in_len, &min_len, &out_len, &simd_above, &nogil_min,
			      &simd_value, &decline_value))
		return NULL;
	if (!PyCallable_Check(choice)) {
		PyErr_SetString(PyExc_TypeError, "make_digest: choice must be callable");
		return NULL;
	}
	if (!as_pointer(fn, &p_fn) || !as_pointer(generic, &p_generic) || !as_pointer(simd, &p_simd))
		return NULL;
	if (p_fn == NULL || p_generic == NULL || p_simd == NULL || in_len < -1 || min_len < 0 ||
	    out_len < 0) {
		PyErr_SetString(PyExc_ValueError,
				"make_digest: NULL routine or handle, or a negative length");
		return NULL;
	}
	self = (DigestCall *)call_state_new(module, "DigestCallState", keep, choice, NULL);
	if (self == NULL)
		return NULL;
	self->fn = (digest_call_fn)p_fn;
	self->generic = p_generic;
	self->simd = p_simd;
	self->in_len = in_len;
	self->min_len = min_len;
	self->out_len = out_len;
	self->simd_above = simd_above;
	self->nogil_min = nogil_min;
	self->simd_value = simd_value;
	self->decline_value = decline_value;
	return call_state_function(&self->base, &digest_call_def);
}

static PyType_Spec digest_state_spec = {
	"crypto_api._direct_call.DigestCallState", sizeof(DigestCall), 0,
	Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC, call_state_slots,
};

#endif

/*
 * crypto_api._direct_call: the one-call skcipher direct path of
 * crypto_api/direct.py (skcipher_direct) as a CPython C entry point.
 *
 * No kernel counterpart: it is the userspace glue between
 * ``tfm.encrypt(data, iv, out)`` and one C routine of a driver
 * (``crypt(handle, dst, src, n, iv)``, e.g. chacha_direct_bytes or
 * adiantum_encrypt_bytes).  Through cffi the same call costs more than the
 * cipher for short messages: cffi converts each argument through its type
 * machinery and always releases the GIL around the call, and handing the
 * GIL over between threads costs more than encrypting a few hundred bytes.
 * Here the Python buffers are taken as they are (Py_buffer), and the GIL is released only for messages of
 * at least ``nogil_min`` bytes; between threads that take turns in such
 * calls it is handed over without a sleep (gil_handoff.h).
 *
 * It is the one implementation of the skcipher direct path's checks and
 * its SIMD-or-generic choice (there is no Python copy; where this module is
 * not built no driver has a direct path).  It answers None (the caller
 * takes the full path) for anything it does not take; every
 * buffer but bytes is exported (PyObject_GetBuffer) before its length is
 * read and the export is held until the C routine has returned, so no other
 * thread, signal handler or trace function can resize it meanwhile.
 *
 * The module also holds the AEAD counterpart (aead_call.h, make_aead) and
 * the one for fixed-size results, a digest or a cipher's block
 * (digest_call.h, make_digest), which share the buffer helpers and the GIL
 * hand-over state, and the batch entry (batch_call.h, batch), which runs
 * many messages through one skcipher direct path on native worker threads
 * (batch_pool.h).
 *
 * Built with the limited API of CPython 3.11 (abi3) where the build runs on
 * 3.11 or later (Py_buffer is part of it from 3.11), else the full API.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#include "entry_point.h"
#include "gil_handoff.h"

typedef void (*crypt_void_fn)(const void *handle, char *dst, const char *src, size_t n,
			      const char *iv);
typedef int (*crypt_int_fn)(const void *handle, char *dst, const char *src, size_t n,
			    const char *iv);

typedef struct {
	CallState base;			/* keep: what owns the routine and the handles */
	void *crypt;			/* crypt_void_fn or crypt_int_fn (returns_int) */
	const void *generic;		/* handle for the generic code */
	const void *simd;		/* handle for the SIMD code (== generic: none) */
	Py_ssize_t ivsize;
	Py_ssize_t simd_above;		/* SIMD only for messages longer than this: the
					 * driver's SimdRule.above (crypto_api/simd_rule.py) */
	Py_ssize_t min_len;		/* shorter messages: None */
	Py_ssize_t nogil_min;		/* the GIL is released from this length on */
	Py_ssize_t align;		/* lengths not a multiple of this: None */
	int simd_only;			/* SimdRule.only: no generic code, None unless
					 * choice() says SIMD */
	long simd_value;
	long decline_value;
	int returns_int;
} SkcipherCall;

static void run(const SkcipherCall *self, const void *handle, char *dst, const char *src,
		Py_ssize_t n, const char *iv)
{
	if (n >= self->nogil_min) {
		Handoff h = handoff_release();

		if (self->returns_int)
			(void)((crypt_int_fn)self->crypt)(handle, dst, src, (size_t)n, iv);
		else
			((crypt_void_fn)self->crypt)(handle, dst, src, (size_t)n, iv);
		handoff_acquire(h);
	} else if (self->returns_int) {
		(void)((crypt_int_fn)self->crypt)(handle, dst, src, (size_t)n, iv);
	} else {
		((crypt_void_fn)self->crypt)(handle, dst, src, (size_t)n, iv);
	}
}

/* fn(data, iv, out) -> result, or None where the full path must run. */
static PyObject *skcipher_call(PyObject *self_obj, PyObject *const *args, Py_ssize_t nargs)
{
	const SkcipherCall *self = (const SkcipherCall *)self_obj;
	PyObject *data, *iv, *out, *res = NULL;
	Py_buffer sv, dv;
	int have_s = 0, have_d = 0, how;
	char *src, *dst = NULL;
	const void *handle;
	const char *ivp;
	Py_ssize_t n, dn;

	if (nargs != 3) {
		PyErr_SetString(PyExc_TypeError, "skcipher_call: expected (data, iv, out)");
		return NULL;
	}
	data = args[0];
	iv = args[1];
	out = args[2];
	if (iv == Py_None && self->ivsize == 0)
		ivp = "";			/* a mode without IV (ECB) */
	else if (PyBytes_CheckExact(iv) && PyBytes_Size(iv) == self->ivsize)
		ivp = PyBytes_AsString(iv);
	else
		Py_RETURN_NONE;
	/* any C-contiguous exporter; the export first: its length cannot
	 * change while it is held */
	how = take_buffer(data, 0, &sv, &have_s, &src, &n);
	if (how != BUFFER_TAKEN)
		goto not_taken;
	if (n < self->min_len || n % self->align)
		goto decline;
	if (out != Py_None) {
		/* a writable C-contiguous exporter of the same length (bytes is
		 * refused here: the full path says why); the same bytes as data
		 * (in place) or none of them */
		how = take_buffer(out, 1, &dv, &have_d, &dst, &dn);
		if (how != BUFFER_TAKEN)
			goto not_taken;
		if (dn != n || partly_overlapping(src, dst, n))
			goto decline;
	}
	handle = self->generic;
	if (self->simd_only || (self->simd != self->generic && n > self->simd_above)) {
		long v;

		if (call_state_choice(&self->base, &v) < 0)
			goto fail;
		if (v == self->simd_value)
			handle = self->simd;
		else if (v == self->decline_value || self->simd_only)
			goto decline;
	}
	if (out == Py_None) {
		/* nothing else has seen the new object: fill it, then hand it out */
		res = new_bytes(n, &dst);
		if (res != NULL)
			run(self, handle, dst, src, n, ivp);
		goto done;
	}
	run(self, handle, dst, src, n, ivp);
	Py_INCREF(out);
	res = out;
	goto done;

not_taken:
	/* not a buffer, not contiguous, not writable: the full path says which */
	res = not_taken(how);
	goto done;
decline:
	Py_INCREF(Py_None);
	res = Py_None;
	goto done;
fail:
	res = NULL;
done:
	if (have_d)
		PyBuffer_Release(&dv);
	if (have_s)
		PyBuffer_Release(&sv);
	return res;
}

static PyMethodDef skcipher_call_def = {
	"skcipher_call", (PyCFunction)(void (*)(void))skcipher_call, METH_FASTCALL,
	"fn(data, iv, out): an skcipher's direct path (crypto_api.direct.skcipher_direct)",
};

/*
 * make(crypt, generic, simd, keep, choice, ivsize, simd_above, min_len,
 *      nogil_min, simd_value, decline_value, returns_int[, align[, simd_only]]) -> fn
 * crypt, generic, simd: addresses (ints) that ``keep`` keeps alive.
 * align (default 1): lengths not a multiple of it are declined; simd_only:
 * the driver has no generic code (generic == simd), so anything but SIMD
 * from choice() declines, whatever the length.
 */
static PyObject *make(PyObject *module, PyObject *args)
{
	PyObject *crypt, *generic, *simd, *keep, *choice;
	SkcipherCall *self;
	Py_ssize_t ivsize, simd_above, min_len, nogil_min, align = 1;
	long simd_value, decline_value;
	int returns_int, simd_only = 0;
	void *p_crypt, *p_generic, *p_simd;

	if (!PyArg_ParseTuple(args, "OOOOOnnnnllp|np:make", &crypt, &generic, &simd, &keep,
			      &choice, &ivsize, &simd_above, &min_len, &nogil_min, &simd_value,
			      &decline_value, &returns_int, &align, &simd_only))
		return NULL;
	if (!PyCallable_Check(choice)) {
		PyErr_SetString(PyExc_TypeError, "make: choice must be callable");
		return NULL;
	}
	if (!as_pointer(crypt, &p_crypt) || !as_pointer(generic, &p_generic) ||
	    !as_pointer(simd, &p_simd))
		return NULL;
	if (p_crypt == NULL || p_generic == NULL || p_simd == NULL || ivsize < 0 || min_len < 0 ||
	    align < 1) {
		PyErr_SetString(PyExc_ValueError, "make: NULL routine or handle, a negative length or align < 1");
		return NULL;
	}
	self = (SkcipherCall *)call_state_new(module, "SkcipherCallState", keep, choice, NULL);
	if (self == NULL)
		return NULL;
	self->crypt = p_crypt;
	self->generic = p_generic;
	self->simd = p_simd;
	self->ivsize = ivsize;
	self->simd_above = simd_above;
	self->min_len = min_len;
	self->nogil_min = nogil_min;
	self->simd_value = simd_value;
	self->decline_value = decline_value;
	self->returns_int = returns_int;
	self->align = align;
	self->simd_only = simd_only;
	return call_state_function(&self->base, &skcipher_call_def);
}

#include "aead_call.h"
#include "digest_call.h"
#include "batch_call.h"

/* handoff_stats() -> {"spun": .., "futile": .., "skipped": .., "crowded": ..}:
 * spins for the GIL started, run out, skipped after futile ones, and not
 * started for want of a free CPU (gil_handoff.h). */
static PyObject *handoff_stats(PyObject *module, PyObject *unused)
{
	(void)module;
	(void)unused;
	return Py_BuildValue("{s:k,s:k,s:k,s:k}",
			     "spun", atomic_load(&handoff_spun),
			     "futile", atomic_load(&handoff_futile),
			     "skipped", atomic_load(&handoff_skipped),
			     "crowded", atomic_load(&handoff_crowded));
}

/* handoff_limits() -> {"spin_ns": .., "recent_ns": .., "polite_ns": .., "penalty_max": ..}:
 * the hand-over's bounds (gil_handoff.h); spin_ns is 0 where nothing spins (one CPU). */
static PyObject *handoff_limits(PyObject *module, PyObject *unused)
{
	(void)module;
	(void)unused;
	return Py_BuildValue("{s:L,s:L,s:L,s:i}",
			     "spin_ns", (long long)handoff_spin_ns,
			     "recent_ns", (long long)HANDOFF_RECENT_NS,
			     "polite_ns", (long long)HANDOFF_POLITE_NS,
			     "penalty_max", HANDOFF_PENALTY_MAX);
}

static PyMethodDef module_methods[] = {
	{"handoff_stats", handoff_stats, METH_NOARGS,
	 "handoff_stats() -> dict: spins for the GIL started, run out, skipped, not started for want "
	 "of a CPU (since load)"},
	{"handoff_limits", handoff_limits, METH_NOARGS,
	 "handoff_limits() -> dict: the hand-over's spin limit, 'recent' window, polite point, "
	 "largest back-off (ns, ns, ns, spins)"},
	{"batch", batch, METH_VARARGS,
	 "batch(fn, datas, ivs, outs, workers) -> (results, stats), ('overlap', i, j) or None: "
	 "many messages through the direct path fn on the pool's threads (batch_call.h)"},
	{"batch_overlap", batch_overlap, METH_VARARGS,
	 "batch_overlap(datas, outs) -> None or (i, j): outs[i] shares bytes with item j"},
	{"batch_pool_stop", batch_pool_stop, METH_NOARGS,
	 "batch_pool_stop(): stop and join the batch pool's threads (started again when needed)"},
	{"batch_pool_info", batch_pool_info, METH_NOARGS,
	 "batch_pool_info() -> dict: the pool's threads now, started since load, most"},
	{"make", make, METH_VARARGS,
	 "make(crypt, generic, simd, keep, choice, ivsize, simd_above, min_len, nogil_min, "
	 "simd_value, decline_value, returns_int[, align[, simd_only]]) -> fn(data, iv, out)"},
	{"make_aead", make_aead, METH_VARARGS,
	 "make_aead(core, key, keep, choice, bad_tag, salt, noncelen, taglen, ad_tail, nogil_min, "
	 "scratch_max, simd_value, encrypt) -> fn(data, iv, assoc, out)"},
	{"make_digest", make_digest, METH_VARARGS,
	 "make_digest(fn, generic, simd, keep, choice, in_len, min_len, out_len, simd_above, "
	 "nogil_min, simd_value, decline_value) -> fn(data)"},
	{NULL, NULL, 0, NULL},
};

static PyType_Spec skcipher_state_spec = {
	"crypto_api._direct_call.SkcipherCallState", sizeof(SkcipherCall), 0,
	Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC, call_state_slots,
};

static int module_exec(PyObject *module)
{
	PyType_Spec *specs[] = {&skcipher_state_spec, &aead_state_spec, &digest_state_spec};

	handoff_init();
	if (batch_pool_init() < 0) {
		PyErr_SetString(PyExc_OSError, "pthread_atfork failed");
		return -1;
	}
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		PyObject *tp = PyType_FromSpec(specs[i]);

		if (tp == NULL)
			return -1;
		/* the type's own name, after the module's */
		if (PyModule_AddObject(module, strrchr(specs[i]->name, '.') + 1, tp) < 0) {
			Py_DECREF(tp);
			return -1;
		}
	}
	return 0;
}

static PyModuleDef_Slot module_slots[] = {
	{Py_mod_exec, (void *)module_exec},
	{0, NULL},
};

static struct PyModuleDef module_def = {
	PyModuleDef_HEAD_INIT, "crypto_api._direct_call",
	"The one-call skcipher, AEAD, digest and cipher-block direct paths in C (see crypto_api/direct_call.c).",
	0, module_methods, module_slots, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__direct_call(void)
{
	return PyModuleDef_Init(&module_def);
}

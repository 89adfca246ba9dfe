/*
 * aead_call.h: the one-call AEAD direct path as a CPython C entry point, part
 * of crypto_api._direct_call (included by direct_call.c, after
 * entry_point.h and gil_handoff.h, so that both entry points share one GIL
 * hand-over state).
 *
 * No kernel counterpart: it is the userspace glue between
 * ``tfm.encrypt(data, iv, assoc, out)`` / ``tfm.decrypt`` of a one-pass
 * AEAD driver and its C core (x86: chacha20poly1305_seal_avx2 and
 * chacha20poly1305_open_avx2), made at setkey by
 * crypto_api.direct.aead_direct.  It is the one implementation of the
 * driver's direct path (no Python copy; where it is not built the tfm takes
 * its full path).  Its decisions:
 *
 *  - only when choice() answers SIMD (usable, and no FPU trace recording);
 *  - data, IV and AD in any C-contiguous buffers, exported before their
 *    lengths are read and held until the core has returned;
 *  - the nonce is the fixed salt (rfc7539esp's) followed by the IV, and
 *    must come to ``noncelen`` bytes; the last ``ad_tail`` bytes of the AD
 *    (rfc7539esp's copy of the IV) are not authenticated, and an AD
 *    shorter than that is declined;
 *  - ``out``: a writable C-contiguous buffer of the result's length that
 *    shares no byte with the data or the AD (else the full path goes
 *    through its private copy);
 *  - decryption opens into memory nobody else sees (the new bytes object,
 *    or a private buffer copied to ``out`` only once the tag is right and
 *    then wiped); a wrong tag calls ``bad_tag``, which raises EBADMSG.  The
 *    private buffer is the function's own, kept between calls up to
 *    ``scratch_max`` bytes (a fresh megabyte costs more in page faults than
 *    the cipher); a call that finds it in use (another thread's, while the
 *    GIL is released) or needs more takes a fresh one.
 *
 * Anything else answers None and the full path runs.  The GIL is released
 * around the core for texts of at least ``nogil_min`` bytes.
 */
#ifndef CRYPTO_API_AEAD_CALL_H
#define CRYPTO_API_AEAD_CALL_H

#include <string.h>

#include "memzero.h"		/* algs/include: the C code's one wiping routine */

typedef void (*aead_seal_fn)(const uint8_t *key, const uint8_t *nonce, const uint8_t *ad,
			     size_t adlen, const uint8_t *src, size_t len, uint8_t *dst);
typedef int (*aead_open_fn)(const uint8_t *key, const uint8_t *nonce, const uint8_t *ad,
			    size_t adlen, const uint8_t *src, size_t len, const uint8_t *tag,
			    uint8_t *dst);

#define AEAD_NONCE_MAX 32

typedef struct {
	CallState base;			/* keep: what owns the core and the key */
	void *core;			/* aead_seal_fn (encrypt) or aead_open_fn */
	const uint8_t *key;
	uint8_t salt[AEAD_NONCE_MAX];
	Py_ssize_t saltlen, noncelen, taglen, ad_tail, nogil_min, scratch_max;
	long simd_value;
	int encrypt;
	char *scratch;			/* decryption's private buffer (wiped after use) */
	Py_ssize_t scratch_size;
	int scratch_busy;		/* read and set with the GIL held */
} AeadCall;

/* The core on (src, n) into dst: 0, or nonzero for a wrong tag (dst zeroed). */
static int aead_core(const AeadCall *self, const uint8_t *nonce, const char *ad,
		     Py_ssize_t alen, const char *src, Py_ssize_t n, char *dst)
{
	if (!self->encrypt)
		return ((aead_open_fn)self->core)(self->key, nonce, (const uint8_t *)ad, (size_t)alen,
						  (const uint8_t *)src, (size_t)n,
						  (const uint8_t *)src + n, (uint8_t *)dst);
	((aead_seal_fn)self->core)(self->key, nonce, (const uint8_t *)ad, (size_t)alen,
				   (const uint8_t *)src, (size_t)n, (uint8_t *)dst);
	return 0;
}

/* aead_core, with the GIL released for long texts. */
static int aead_run(const AeadCall *self, const uint8_t *nonce, const char *ad, Py_ssize_t alen,
		    const char *src, Py_ssize_t n, char *dst)
{
	Handoff h;
	int bad;

	if (n < self->nogil_min)
		return aead_core(self, nonce, ad, alen, src, n, dst);
	h = handoff_release();
	bad = aead_core(self, nonce, ad, alen, src, n, dst);
	handoff_acquire(h);
	return bad;
}

/* The private buffer for n bytes (the kept one where free and big enough,
 * grown up to scratch_max), or NULL with MemoryError; *own: a fresh one
 * the caller frees.  Called with the GIL held. */
static char *aead_scratch_take(AeadCall *self, Py_ssize_t n, int *own)
{
	char *p;

	*own = self->scratch_busy || n > self->scratch_max;
	if (!*own && (self->scratch == NULL || self->scratch_size < n)) {
		Py_ssize_t size = n < 4096 ? 4096 : n;

		p = PyMem_Malloc((size_t)size);
		if (p == NULL) {
			PyErr_NoMemory();
			return NULL;
		}
		PyMem_Free(self->scratch);	/* wiped after its last use */
		self->scratch = p;
		self->scratch_size = size;
	}
	if (!*own) {
		self->scratch_busy = 1;
		return self->scratch;
	}
	p = PyMem_Malloc(n ? (size_t)n : 1);
	if (p == NULL)
		PyErr_NoMemory();
	return p;
}

/* Decryption into ``out``: through the private buffer, copied only when
 * the tag is right, then wiped.  0, 1 for a wrong tag, -1 on error. */
static int aead_open_into(AeadCall *self, const uint8_t *nonce, const char *ad, Py_ssize_t alen,
			  const char *src, Py_ssize_t n, char *dst)
{
	int own, bad;
	char *tmp = aead_scratch_take(self, n, &own);

	if (tmp == NULL)
		return -1;
	bad = aead_run(self, nonce, ad, alen, src, n, tmp);
	if (!bad)
		memcpy(dst, tmp, (size_t)n);
	memzero_explicit(tmp, (size_t)n);
	if (own)
		PyMem_Free(tmp);
	else
		self->scratch_busy = 0;
	return bad ? 1 : 0;
}

/* fn(data, iv, assoc, out) -> result, or None where the full path must run. */
static PyObject *aead_call(PyObject *self_obj, PyObject *const *args, Py_ssize_t nargs)
{
	AeadCall *self = (AeadCall *)self_obj;
	PyObject *out, *res = NULL, *c;
	Py_buffer views[4];		/* data, iv, assoc, out */
	int held[4] = {0, 0, 0, 0}, how, bad;
	char *src, *ivp, *ad, *dst;
	Py_ssize_t n, ivlen, adlen, outlen, dn, alen, i;
	uint8_t nonce[AEAD_NONCE_MAX];
	long v;

	if (nargs != 4) {
		PyErr_SetString(PyExc_TypeError, "aead_call: expected (data, iv, assoc, out)");
		return NULL;
	}
	out = args[3];
	if (call_state_choice(&self->base, &v) < 0)
		return NULL;
	if (v != self->simd_value)
		Py_RETURN_NONE;
	if ((how = take_buffer(args[0], 0, &views[0], &held[0], &src, &n)) != BUFFER_TAKEN ||
	    (how = take_buffer(args[1], 0, &views[1], &held[1], &ivp, &ivlen)) != BUFFER_TAKEN ||
	    (how = take_buffer(args[2], 0, &views[2], &held[2], &ad, &adlen)) != BUFFER_TAKEN)
		goto not_taken;
	alen = adlen - self->ad_tail;
	if (!self->encrypt)
		n -= self->taglen;	/* the text before the tag */
	if (alen < 0 || n < 0 || self->saltlen + ivlen != self->noncelen)
		goto decline;
	memcpy(nonce, self->salt, (size_t)self->saltlen);
	memcpy(nonce + self->saltlen, ivp, (size_t)ivlen);
	outlen = self->encrypt ? n + self->taglen : n;
	if (out == Py_None) {
		/* nothing else has seen the new object: fill it, then hand it out
		 * (a wrong tag leaves it zeroed, and it is dropped) */
		res = new_bytes(outlen, &dst);
		if (res == NULL)
			goto done;
		bad = aead_run(self, nonce, ad, alen, src, n, dst);
	} else {
		how = take_buffer(out, 1, &views[3], &held[3], &dst, &dn);
		if (how != BUFFER_TAKEN)
			goto not_taken;
		if (dn != outlen || sharing(dst, dn, src, n + (self->encrypt ? 0 : self->taglen)) ||
		    sharing(dst, dn, ad, adlen))
			goto decline;
		if (self->encrypt)
			bad = aead_run(self, nonce, ad, alen, src, n, dst);
		else if ((bad = aead_open_into(self, nonce, ad, alen, src, n, dst)) < 0)
			goto done;
		if (!bad) {
			Py_INCREF(out);
			res = out;
		}
	}
	if (bad) {
		Py_CLEAR(res);
		c = PyObject_CallNoArgs(self->base.bad_tag);		/* raises */
		if (c != NULL) {
			Py_DECREF(c);
			PyErr_SetString(PyExc_SystemError, "aead_call: bad_tag returned");
		}
	}
	goto done;

not_taken:
	res = not_taken(how);
	goto done;
decline:
	Py_INCREF(Py_None);
	res = Py_None;
done:
	memzero_explicit(nonce, sizeof(nonce));
	for (i = 0; i < 4; i++)
		if (held[i])
			PyBuffer_Release(&views[i]);
	return res;
}

static PyMethodDef aead_call_def = {
	"aead_call", (PyCFunction)(void (*)(void))aead_call, METH_FASTCALL,
	"fn(data, iv, assoc, out): the one-call AEAD direct path (crypto_api.direct.aead_direct)",
};

/* What goes with the state: the salt wiped, the private buffer (wiped
 * after each use) freed. */
static void aead_finalize(CallState *base)
{
	AeadCall *self = (AeadCall *)base;

	memzero_explicit(self->salt, sizeof(self->salt));
	PyMem_Free(self->scratch);
}

static PyType_Spec aead_state_spec = {
	"crypto_api._direct_call.AeadCallState", sizeof(AeadCall), 0,
	Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC, call_state_slots,
};

/*
 * make_aead(core, key, keep, choice, bad_tag, salt, noncelen, taglen, ad_tail,
 *           nogil_min, scratch_max, simd_value, encrypt) -> fn
 * core, key: addresses (ints) that ``keep`` keeps alive; core is the seal
 * routine where ``encrypt``, else the open routine; salt: bytes.
 */
static PyObject *make_aead(PyObject *module, PyObject *args)
{
	PyObject *core, *key, *keep, *choice, *bad_tag;
	AeadCall *self;
	const char *salt;
	Py_ssize_t saltlen, noncelen, taglen, ad_tail, nogil_min, scratch_max;
	long simd_value;
	int encrypt;
	void *p_core, *p_key;

	if (!PyArg_ParseTuple(args, "OOOOOy#nnnnnlp:make_aead", &core, &key, &keep, &choice,
			      &bad_tag, &salt, &saltlen, &noncelen, &taglen, &ad_tail, &nogil_min,
			      &scratch_max, &simd_value, &encrypt))
		return NULL;
	if (!PyCallable_Check(choice) || !PyCallable_Check(bad_tag)) {
		PyErr_SetString(PyExc_TypeError, "make_aead: choice and bad_tag must be callable");
		return NULL;
	}
	if (!as_pointer(core, &p_core) || !as_pointer(key, &p_key))
		return NULL;
	if (p_core == NULL || p_key == NULL || saltlen > noncelen || noncelen > AEAD_NONCE_MAX ||
	    taglen < 0 || ad_tail < 0) {
		PyErr_SetString(PyExc_ValueError, "make_aead: NULL routine or key, a salt longer than "
				"the nonce, a nonce over 32 bytes or a negative length");
		return NULL;
	}
	self = (AeadCall *)call_state_new(module, "AeadCallState", keep, choice, bad_tag);
	if (self == NULL)
		return NULL;
	self->base.finalize = aead_finalize;
	self->core = p_core;
	self->key = p_key;
	memcpy(self->salt, salt, (size_t)saltlen);
	self->saltlen = saltlen;
	self->noncelen = noncelen;
	self->taglen = taglen;
	self->ad_tail = ad_tail;
	self->nogil_min = nogil_min;
	self->scratch_max = scratch_max;
	self->simd_value = simd_value;
	self->encrypt = encrypt;
	return call_state_function(&self->base, &aead_call_def);
}

#endif

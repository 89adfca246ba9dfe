/*
 * entry_point.h: what the C entry points of crypto_api._direct_call share
 * (direct_call.c for the skcipher, aead_call.h for the AEAD): the common
 * start of their states and its life cycle, taking Python buffers, and
 * asking the FPU model whether SIMD may run.
 *
 * No kernel counterpart: CPython plumbing, included by direct_call.c.
 */
#ifndef CRYPTO_API_ENTRY_POINT_H
#define CRYPTO_API_ENTRY_POINT_H

#include <Python.h>

#include <stdint.h>

/*
 * The start of every entry point's state (the C function's ``self``): the
 * Python objects it keeps, seen by the garbage collector, and what to do
 * with the rest of it when it goes.
 */
typedef struct CallState {
	PyObject_HEAD
	PyObject *keep;			/* what owns the routines, handles and keys */
	PyObject *choice;		/* fpu.simd_choice: () -> SIMD | GENERIC | DECLINE */
	PyObject *bad_tag;		/* an AEAD's () -> raises EBADMSG; else NULL */
	void (*finalize)(struct CallState *self);	/* wipe and free its own memory */
} CallState;

static int call_state_traverse(PyObject *self_obj, visitproc visit, void *arg)
{
	CallState *self = (CallState *)self_obj;

	Py_VISIT(self->keep);
	Py_VISIT(self->choice);
	Py_VISIT(self->bad_tag);
	return 0;
}

static int call_state_clear(PyObject *self_obj)
{
	CallState *self = (CallState *)self_obj;

	Py_CLEAR(self->keep);
	Py_CLEAR(self->choice);
	Py_CLEAR(self->bad_tag);
	return 0;
}

static void call_state_dealloc(PyObject *self_obj)
{
	PyTypeObject *tp = Py_TYPE(self_obj);
	freefunc tp_free = (freefunc)PyType_GetSlot(tp, Py_tp_free);
	CallState *self = (CallState *)self_obj;

	PyObject_GC_UnTrack(self_obj);
	call_state_clear(self_obj);
	if (self->finalize != NULL)
		self->finalize(self);
	tp_free(self_obj);
	Py_DECREF(tp);
}

/* The slots of every state type (each its own PyType_Spec: name and size). */
static PyType_Slot call_state_slots[] = {
	{Py_tp_traverse, (void *)call_state_traverse},
	{Py_tp_clear, (void *)call_state_clear},
	{Py_tp_dealloc, (void *)call_state_dealloc},
	{Py_tp_doc, (void *)"The fixed arguments of one C entry point (crypto_api._direct_call)."},
	{0, NULL},
};

/* A new state of the module's type ``type_name``, keeping ``keep``,
 * ``choice`` and ``bad_tag`` (which may be NULL); NULL on error. */
static CallState *call_state_new(PyObject *module, const char *type_name, PyObject *keep,
				 PyObject *choice, PyObject *bad_tag)
{
	PyTypeObject *tp = (PyTypeObject *)PyObject_GetAttrString(module, type_name);
	CallState *self;

	if (tp == NULL)
		return NULL;
	self = (CallState *)PyType_GenericAlloc(tp, 0);
	Py_DECREF(tp);
	if (self == NULL)
		return NULL;
	Py_INCREF(keep);
	self->keep = keep;
	Py_INCREF(choice);
	self->choice = choice;
	Py_XINCREF(bad_tag);
	self->bad_tag = bad_tag;
	return self;
}

/* The Python function ``def`` over ``self``, which it then owns alone. */
static PyObject *call_state_function(CallState *self, PyMethodDef *def)
{
	PyObject *fn = PyCFunction_NewEx(def, (PyObject *)self, NULL);

	Py_DECREF(self);
	return fn;
}

/* What choice() answers now, in *v; -1 with the exception set on error. */
static int call_state_choice(const CallState *self, long *v)
{
	PyObject *c = PyObject_CallNoArgs(self->choice);

	if (c == NULL)
		return -1;
	*v = PyLong_AsLong(c);
	Py_DECREF(c);
	return *v == -1 && PyErr_Occurred() ? -1 : 0;
}

/* A new bytes object of n bytes, to be filled in place before anything else
 * sees it (*p: its bytes; n may be 0); NULL on error. */
static PyObject *new_bytes(Py_ssize_t n, char **p)
{
	static char empty[1];
	PyObject *b = PyBytes_FromStringAndSize(NULL, n);

	if (b != NULL)
		*p = n ? PyBytes_AsString(b) : empty;
	return b;
}

/* An address given as an int; 0 with the exception set on error. */
static int as_pointer(PyObject *o, void **p)
{
	*p = PyLong_AsVoidPtr(o);
	return !(*p == NULL && PyErr_Occurred());
}

/* Two ranges with a byte in common. */
static int sharing(const char *a, Py_ssize_t an, const char *b, Py_ssize_t bn)
{
	uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;

	return an && bn && pa < pb + (size_t)bn && pb < pa + (size_t)an;
}

/* Two n-byte ranges that share memory without being the same bytes. */
static int partly_overlapping(const char *a, const char *b, Py_ssize_t n)
{
	return a != b && sharing(a, n, b, n);
}

enum { BUFFER_TAKEN, BUFFER_DECLINED, BUFFER_FAILED };

/*
 * The bytes of ``o`` for C: a bytes object's own (read-only use), or those
 * of any other C-contiguous exporter (writable ones where ``writable``)
 * through an export into *view that the caller releases (*held set).  An
 * object that is no such buffer is BUFFER_DECLINED (the full path says what
 * is wrong with it); any other error is BUFFER_FAILED, with the exception set.
 */
static int take_buffer(PyObject *o, int writable, Py_buffer *view, int *held, char **p,
		       Py_ssize_t *n)
{
	if (!writable && PyBytes_CheckExact(o)) {
		*p = PyBytes_AsString(o);
		*n = PyBytes_Size(o);
		return BUFFER_TAKEN;
	}
	if (PyObject_GetBuffer(o, view, writable ? PyBUF_WRITABLE : PyBUF_SIMPLE) < 0) {
		if (!PyErr_ExceptionMatches(PyExc_TypeError) &&
		    !PyErr_ExceptionMatches(PyExc_BufferError) &&
		    !PyErr_ExceptionMatches(PyExc_ValueError))
			return BUFFER_FAILED;
		PyErr_Clear();
		return BUFFER_DECLINED;
	}
	*held = 1;
	*p = (char *)view->buf;
	*n = view->len;
	return BUFFER_TAKEN;
}

/* What an entry point returns where take_buffer did not take a buffer:
 * None (the full path runs), or NULL with the exception set. */
static PyObject *not_taken(int how)
{
	if (how == BUFFER_FAILED)
		return NULL;
	Py_INCREF(Py_None);
	return Py_None;
}

#endif

/*
 * crypto_api._direct_method: the public one-call methods of a transform
 * (``tfm.encrypt``, ``tfm.decrypt``, ``tfm.encrypt_one``, ``tfm.digest``)
 * entered in C.
 *
 * No kernel counterpart: it is CPython plumbing under crypto_api/tfm.py's
 * direct_methods.  Each of those methods is written in Python as one pattern:
 *
 *     direct = self._direct_enc              # the driver's direct path, or None
 *     if direct is not None:
 *         res = direct(<every parameter, in order>)
 *         if res is not None:          # None: it declined this call
 *             return res
 *     return <the full path>
 *
 * All of it holds the GIL, and with two threads encrypting 4 KiB messages
 * the GIL-held part of a call is what they queue for.  ``method(cls, func,
 * member, doc)`` makes a method descriptor of ``cls`` (the kind C methods
 * are, called with the tfm and the arguments as an array: no bound object,
 * no argument tuple) that runs that pattern in C: it reads the slot through
 * ``member`` (its member descriptor) and, where it holds a direct path and the
 * call is plain (positional arguments, or keywords naming parameters),
 * calls it with every parameter filled in from the function's defaults.
 * Everything else (no direct path, a decline, another shape of call) calls
 * the Python function with the arguments as given, which runs the pattern
 * again and the full path: the function stays the one definition of the
 * method, and the only one where this module is not built.  The slot is read
 * at every call, never kept, so a bound ``enc = tfm.encrypt`` follows
 * setkey and free as the Python method does.
 *
 * A method descriptor's C function receives no pointer to its own
 * definition, so each is one of POOL_SIZE small entry functions bound to a
 * slot of a static pool; a class is made once and keeps its methods, so the
 * pool is never given back.  When it is full, ``method`` answers None and
 * the Python function stays.
 *
 * Built with the limited API of CPython 3.11 (abi3) where the build runs on
 * 3.11 or later, as crypto_api._direct_call.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

/* The most parameters (after self) a method may have: AEAD's data, iv, assoc, out. */
#define MAX_PARAMS 4
#define POOL_SIZE 16

typedef struct {
	PyMethodDef def;	/* what the descriptor calls: entry_<n> */
	PyObject *func;		/* the Python method: the full path */
	PyObject *member;	/* the slot's member descriptor (e.g. DirectTfm._direct_enc) */
	descrgetfunc member_get;
	PyObject *names;	/* the parameters after self, in order (tuple of str) */
	PyObject *defaults;	/* the trailing parameters' defaults (tuple) */
	Py_ssize_t nparams;
	Py_ssize_t nrequired;	/* parameters without a default */
} Method;

/* A METH_FASTCALL function: (self, the arguments as an array, their number). */
typedef PyObject *(*fastcall_fn)(PyObject *, PyObject *const *, Py_ssize_t);

static Method pool[POOL_SIZE];
static int pool_used;

/* The index of parameter ``name``, or -1. */
static Py_ssize_t param_index(const Method *m, PyObject *name)
{
	Py_ssize_t i;

	for (i = 0; i < m->nparams; i++) {
		PyObject *p = PyTuple_GetItem(m->names, i);

		if (p == name || PyUnicode_Compare(p, name) == 0)
			return i;
	}
	PyErr_Clear();
	return -1;
}

/*
 * Fill ``all`` (borrowed references) with every parameter: ``args`` first,
 * then the keywords, then the defaults.  0 where the call is not plain (a
 * keyword that names no parameter or one given positionally, a required
 * parameter missing): the Python function then says what is wrong.
 */
static int fill_params(const Method *m, PyObject *const *args, Py_ssize_t nargs,
		       PyObject *kwnames, PyObject **all)
{
	Py_ssize_t i, nkw = kwnames == NULL ? 0 : PyTuple_Size(kwnames);

	if (nargs + nkw > m->nparams)
		return 0;
	for (i = 0; i < m->nparams; i++)
		all[i] = i < nargs ? args[i] : NULL;
	for (i = 0; i < nkw; i++) {
		Py_ssize_t k = param_index(m, PyTuple_GetItem(kwnames, i));

		if (k < nargs)		/* unknown (-1), or given positionally too */
			return 0;
		all[k] = args[nargs + i];
	}
	for (i = nargs; i < m->nparams; i++) {
		if (all[i] != NULL)
			continue;
		if (i < m->nrequired)
			return 0;
		all[i] = PyTuple_GetItem(m->defaults, i - m->nrequired);
	}
	return 1;
}

/*
 * The direct path with every parameter, in order.  The direct paths of
 * crypto_api._direct_call are C functions taking an argument array
 * (METH_FASTCALL): such a function is entered here with the array as it is,
 * without going through the call machinery (an argument count, a vector call
 * and its C function's wrapper), which at a 16-byte message costs about as
 * much as all of this module's own work.  Anything else (a Python function
 * a test plants, another kind of C function) is called as usual.
 */
static PyObject *call_direct(PyObject *direct, Py_ssize_t n, PyObject **a)
{
	if (PyCFunction_Check(direct) &&
	    (PyCFunction_GetFlags(direct) & (METH_VARARGS | METH_FASTCALL | METH_NOARGS | METH_O |
					     METH_KEYWORDS | METH_METHOD)) == METH_FASTCALL) {
		fastcall_fn f = (fastcall_fn)(void (*)(void))PyCFunction_GetFunction(direct);

		if (f != NULL)
			return f(PyCFunction_GetSelf(direct), (PyObject *const *)a, n);
	}
	switch (n) {
	case 1:
		return PyObject_CallFunctionObjArgs(direct, a[0], NULL);
	case 2:
		return PyObject_CallFunctionObjArgs(direct, a[0], a[1], NULL);
	case 3:
		return PyObject_CallFunctionObjArgs(direct, a[0], a[1], a[2], NULL);
	default:
		return PyObject_CallFunctionObjArgs(direct, a[0], a[1], a[2], a[3], NULL);
	}
}

/* func(tfm, *args, **kwargs) from the descriptor's vector call. */
static PyObject *call_python(const Method *m, PyObject *tfm, PyObject *const *args,
			     Py_ssize_t nargs, PyObject *kwnames)
{
	Py_ssize_t i, nkw = kwnames == NULL ? 0 : PyTuple_Size(kwnames);
	PyObject *targs = PyTuple_New(nargs + 1), *kwargs = NULL, *res = NULL;

	if (targs == NULL)
		return NULL;
	Py_INCREF(tfm);
	PyTuple_SetItem(targs, 0, tfm);
	for (i = 0; i < nargs; i++) {
		Py_INCREF(args[i]);
		PyTuple_SetItem(targs, i + 1, args[i]);
	}
	if (nkw) {
		kwargs = PyDict_New();
		if (kwargs == NULL)
			goto out;
		for (i = 0; i < nkw; i++)
			if (PyDict_SetItem(kwargs, PyTuple_GetItem(kwnames, i), args[nargs + i]) < 0)
				goto out;
	}
	res = PyObject_Call(m->func, targs, kwargs);
out:
	Py_XDECREF(kwargs);
	Py_DECREF(targs);
	return res;
}

static PyObject *enter(const Method *m, PyObject *tfm, PyObject *const *args, Py_ssize_t nargs,
		       PyObject *kwnames)
{
	PyObject *all[MAX_PARAMS];
	PyObject *direct, *res;

	if (!fill_params(m, args, nargs, kwnames, all))
		return call_python(m, tfm, args, nargs, kwnames);
	direct = m->member_get(m->member, tfm, NULL);
	if (direct == NULL)
		return NULL;		/* the slot is unset: the error says which */
	if (direct == Py_None) {
		Py_DECREF(direct);
		return call_python(m, tfm, args, nargs, kwnames);
	}
	res = call_direct(direct, m->nparams, all);
	Py_DECREF(direct);
	if (res != Py_None)		/* the result, or the direct path's exception */
		return res;
	Py_DECREF(res);			/* declined */
	return call_python(m, tfm, args, nargs, kwnames);
}

/* One entry function per pool slot. */
#define ENTRY(n)								\
	static PyObject *entry_##n(PyObject *tfm, PyObject *const *args,	\
				   Py_ssize_t nargs, PyObject *kwnames)		\
	{									\
		return enter(&pool[n], tfm, args, nargs, kwnames);		\
	}
ENTRY(0) ENTRY(1) ENTRY(2) ENTRY(3) ENTRY(4) ENTRY(5) ENTRY(6) ENTRY(7)
ENTRY(8) ENTRY(9) ENTRY(10) ENTRY(11) ENTRY(12) ENTRY(13) ENTRY(14) ENTRY(15)

typedef PyObject *(*entry_fn)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *);
static const entry_fn entries[POOL_SIZE] = {
	entry_0, entry_1, entry_2, entry_3, entry_4, entry_5, entry_6, entry_7,
	entry_8, entry_9, entry_10, entry_11, entry_12, entry_13, entry_14, entry_15,
};

/* How many parameters the function takes after self: (self, positional-or-
 * keyword ...) only; -1 with an exception otherwise. */
static Py_ssize_t count_params(PyObject *code)
{
	static const char *const fields[] = {
		"co_argcount", "co_kwonlyargcount", "co_posonlyargcount", "co_flags",
	};
	long v[4];
	int i;

	for (i = 0; i < 4; i++) {
		PyObject *o = PyObject_GetAttrString(code, fields[i]);

		if (o == NULL)
			return -1;
		v[i] = PyLong_AsLong(o);
		Py_DECREF(o);
		if (v[i] == -1 && PyErr_Occurred())
			return -1;
	}
	/* flags 0x04, 0x08: *args, **kwargs (CO_VARARGS, CO_VARKEYWORDS) */
	if (v[0] < 1 || v[0] - 1 > MAX_PARAMS || v[1] != 0 || v[2] != 0 || (v[3] & 0x0c)) {
		PyErr_Format(PyExc_ValueError,
			     "method: the function must take self and at most %d "
			     "positional-or-keyword parameters, nothing else", MAX_PARAMS);
		return -1;
	}
	return v[0] - 1;
}

static char *copy_str(PyObject *s)
{
	Py_ssize_t n;
	const char *utf8 = PyUnicode_AsUTF8AndSize(s, &n);
	char *c;

	if (utf8 == NULL)
		return NULL;
	c = PyMem_Malloc(n + 1);
	if (c == NULL) {
		PyErr_NoMemory();
		return NULL;
	}
	memcpy(c, utf8, n + 1);
	return c;
}

/* Take a pool slot for func: 0 with an exception where it does not fit. */
static int setup(Method *m, PyObject *func, PyObject *member, PyObject *doc)
{
	PyObject *code, *varnames, *defaults, *name;
	Py_ssize_t ndefaults;

	m->member_get = (descrgetfunc)PyType_GetSlot(Py_TYPE(member), Py_tp_descr_get);
	if (m->member_get == NULL) {
		PyErr_SetString(PyExc_TypeError, "method: member must be a descriptor (a slot's)");
		return 0;
	}
	code = PyObject_GetAttrString(func, "__code__");
	if (code == NULL)
		return 0;
	m->nparams = count_params(code);
	varnames = m->nparams < 0 ? NULL : PyObject_GetAttrString(code, "co_varnames");
	Py_DECREF(code);
	if (varnames == NULL)
		return 0;
	m->names = PyTuple_GetSlice(varnames, 1, m->nparams + 1);
	Py_DECREF(varnames);
	if (m->names == NULL)
		return 0;
	defaults = PyObject_GetAttrString(func, "__defaults__");
	if (defaults == NULL)
		return 0;
	if (defaults == Py_None) {
		Py_DECREF(defaults);
		defaults = PyTuple_New(0);
		if (defaults == NULL)
			return 0;
	}
	m->defaults = defaults;
	ndefaults = PyTuple_Check(defaults) ? PyTuple_Size(defaults) : -1;
	if (ndefaults < 0 || ndefaults > m->nparams) {
		PyErr_SetString(PyExc_ValueError, "method: bad __defaults__");
		return 0;
	}
	m->nrequired = m->nparams - ndefaults;
	name = PyObject_GetAttrString(func, "__name__");
	if (name == NULL)
		return 0;
	m->def.ml_name = copy_str(name);
	Py_DECREF(name);
	m->def.ml_doc = doc == Py_None ? NULL : copy_str(doc);
	if (m->def.ml_name == NULL || (doc != Py_None && m->def.ml_doc == NULL))
		return 0;
	Py_INCREF(func);
	m->func = func;
	Py_INCREF(member);
	m->member = member;
	return 1;
}

/*
 * method(cls, func, member, doc) -> a method descriptor of cls, or None when
 * the pool is full.  func: the Python method (the pattern above); member:
 * the member descriptor of its direct-path slot; doc: the descriptor's
 * docstring (str, its first line the text signature), or None.
 */
static PyObject *method(PyObject *module, PyObject *args)
{
	PyObject *cls, *func, *member, *doc, *descr;
	Method *m;

	(void)module;
	if (!PyArg_ParseTuple(args, "OOOO:method", &cls, &func, &member, &doc))
		return NULL;
	if (!PyType_Check(cls) || !PyCallable_Check(func) || (doc != Py_None && !PyUnicode_Check(doc))) {
		PyErr_SetString(PyExc_TypeError, "method(cls, func, member, doc): a class, a function, "
				"a descriptor and a str or None");
		return NULL;
	}
	if (pool_used == POOL_SIZE)
		Py_RETURN_NONE;
	m = &pool[pool_used];
	if (!setup(m, func, member, doc))
		goto fail;
	m->def.ml_meth = (PyCFunction)(void (*)(void))entries[pool_used];
	m->def.ml_flags = METH_FASTCALL | METH_KEYWORDS;
	descr = PyDescr_NewMethod((PyTypeObject *)cls, &m->def);
	if (descr == NULL)
		goto fail;
	pool_used++;
	return descr;
fail:
	Py_CLEAR(m->func);
	Py_CLEAR(m->member);
	Py_CLEAR(m->names);
	Py_CLEAR(m->defaults);
	PyMem_Free((void *)m->def.ml_name);
	PyMem_Free((void *)m->def.ml_doc);
	memset(m, 0, sizeof(*m));
	return NULL;
}

static PyMethodDef module_methods[] = {
	{"method", method, METH_VARARGS,
	 "method(cls, func, member, doc) -> a method descriptor of cls entering func's direct path "
	 "in C, or None when no more can be made"},
	{NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
	PyModuleDef_HEAD_INIT, "crypto_api._direct_method",
	"A transform's one-call methods entered in C (see crypto_api/direct_method.c).",
	0, module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__direct_method(void)
{
	return PyModule_Create(&module_def);
}

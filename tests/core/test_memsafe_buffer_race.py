"""Buffers resized in the middle of a call never make C overrun them.

A direct path that reads ``len()`` of a bytearray before it exports the
buffer to C can be raced: another thread, a signal handler or a trace
function shrinks the bytearray in between, and C then reads or writes the old
length through the new, shorter allocation.  Here a profile and trace
function fires on every call, line and builtin-call event inside the package
and, at the k-th event of a request (k = 1, 2, ... until the request finishes
first), tries to shrink the input and the ``out=`` buffer.  The request must
either fail cleanly (CryptoError) or give the result of the whole message or
of the shrunk one (a result shrunk after it was written is cut short), as a
second tfm fed immutable bytes computes them.

Where ``tfm.encrypt`` and ``digest`` are entered in C (crypto_api/
direct_method.c), a call that the C direct path takes whole has no Python event
inside it, hence nothing to race from a trace function; each scenario
therefore also runs with the methods as their Python functions, whose calls
have events between taking the buffers and C.

Each scenario runs in a child interpreter whose buffers of 64 KiB or more are
separate mappings (glibc's ``MALLOC_MMAP_THRESHOLD_``): shrinking one unmaps
its tail, so an overrun faults at once instead of corrupting the heap
quietly.  The child must exit cleanly.
"""

import os
import subprocess
import sys
import textwrap

import pytest

CHILD = textwrap.dedent(r'''
    import os, sys
    import crypto_api as capi
    import crypto_api.algs, crypto_api.arch
    from crypto_api.errors import CryptoError

    kind, name, how, entry = sys.argv[1:5]
    if entry == "python":                       # the methods as Python functions (tfm.direct_methods)
        from crypto_api.tfm import PYTHON_METHODS
        for (cls, attr), func in PYTHON_METHODS.items():
            setattr(cls, attr, func)
    N = 256 * 1024                              # above the mmap threshold set by the parent
    SHORT = 48                                  # what the resizer shrinks buffers to
    ROOTS = tuple(os.path.dirname(m.__file__) + os.sep for m in (capi, crypto_api.algs, crypto_api.arch))
    pattern = bytes((i * 7 + 3) & 0xFF for i in range(N))

    def alloc():
        if kind == "skcipher":
            t = capi.crypto_alloc_skcipher(name)
            t.setkey(bytes(range(1, t.max_keysize + 1)))
        else:
            t = capi.crypto_alloc_shash(name)
            if t.alg.setkey is not None:
                t.setkey(bytes(range(256)) * 4 + bytes(64))
        return t

    try:
        tfm, ref = alloc(), alloc()
    except CryptoError as e:
        print("SKIP", e)
        sys.exit(0)
    iv = bytes(range(32))[:getattr(tfm, "ivsize", 0)]

    def expected(data):
        if kind == "skcipher":
            return ref.encrypt(bytes(data), iv)
        return ref.digest(bytes(data))

    FULL, SHORT_RESULT = expected(pattern), expected(pattern[:SHORT])


    class Resizer:
        """Counts events inside the package; at event ``at`` shrinks ``bufs``."""

        def __init__(self, at, bufs):
            self.at, self.bufs, self.seen = at, bufs, 0

        def hit(self, frame):
            if not frame.f_code.co_filename.startswith(ROOTS):
                return False
            self.seen += 1
            if self.seen == self.at:
                for b in self.bufs:
                    try:
                        del b[SHORT:]
                    except BufferError:             # exported to C: cannot be resized
                        pass
            return True

        def profile(self, frame, event, arg):
            self.hit(frame)

        def trace(self, frame, event, arg):
            return self.trace if self.hit(frame) else None

    def one_request(at):
        data, out = bytearray(pattern), bytearray(N)
        r = Resizer(at, (data, out))
        sys.setprofile(r.profile)
        sys.settrace(r.trace)
        try:
            if how == "new":
                res = tfm.encrypt(data, iv) if kind == "skcipher" else tfm.digest(data)
            elif how == "out":
                res = tfm.encrypt(data, iv, out=out)
            elif how == "inplace":
                res = tfm.encrypt(data, iv, out=data)
            elif how == "update":
                d = tfm.desc().init()
                d.update(data)
                res = d.final()
        except CryptoError:
            res = None                              # a clean refusal is fine
        finally:
            sys.settrace(None)
            sys.setprofile(None)
        if res is not None:
            # the shrink may land before the data was taken (the short message is
            # processed) or after the result was written (which is then cut short)
            got = {"out": out, "inplace": data}.get(how, res)
            assert bytes(got) in (FULL[:len(got)], SHORT_RESULT), (at, len(got))
        return r.seen

    at = 1
    while one_request(at) >= at:
        at += 1
    print("OK", at)
''')

# one driver per Python glue (the SIMD variants of a family share theirs)
SKCIPHERS = ["chacha20-generic", "xchacha12-simd",
             "adiantum(xchacha12-simd,aes-aesni,nhpoly1305-avx2)",
             "adiantum(xchacha20-generic,aes-generic,nhpoly1305-generic)"]
SHASHES = ["nhpoly1305-generic", "nhpoly1305-avx2", "poly1305-generic"]
CASES = ([("skcipher", n, how) for n in SKCIPHERS for how in ("new", "out", "inplace")]
         + [("shash", n, how) for n in SHASHES for how in ("new", "update")])


def run_child(kind, name, how, entry="c"):
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536", MALLOC_CHECK_="3",
               CRYPTO_API_SELFTESTS=os.environ.get("CRYPTO_API_SELFTESTS", "off"))
    return subprocess.run([sys.executable, "-c", CHILD, kind, name, how, entry], env=env,
                          capture_output=True, text=True)


@pytest.mark.parametrize("entry", ["c", "python"])
@pytest.mark.parametrize("kind,name,how", CASES, ids=[f"{n}-{h}" for _, n, h in CASES])
def test_shrinking_buffers_at_every_point_of_a_call(kind, name, how, entry):
    p = run_child(kind, name, how, entry)
    assert p.returncode == 0, f"child died (rc {p.returncode}):\n{p.stdout}\n{p.stderr[-3000:]}"
    if p.stdout.startswith("SKIP"):
        pytest.skip(p.stdout.strip())
    assert p.stdout.startswith("OK"), p.stdout + p.stderr
    if entry == "python":
        assert int(p.stdout.split()[1]) > 3         # the resizer really fired inside the call

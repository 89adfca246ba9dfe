"""A scatterlist entry changed after the request was checked never makes C overrun.

``Scatterlist.offset`` and ``.length`` are plain attributes: a trace
function (or another thread) can move an entry after ``check_sgl`` accepted
the request and before a driver slices the one-entry contiguous path out of it.
The drivers' contiguous path then hands C ``cryptlen`` bytes; the views must
really hold them, or the request takes the walk, whose copies are bounded by
Python.  Each case runs in a child interpreter whose 256 KiB buffers are
separate mappings (glibc's ``MALLOC_MMAP_THRESHOLD_``), so an overrun faults
at once; the child must exit cleanly.
"""

import os
import subprocess
import sys
import textwrap

import pytest

CHILD = textwrap.dedent(r'''
    import sys
    import crypto_api as capi
    from crypto_api.errors import CryptoError

    name = sys.argv[1]
    N = 256 * 1024
    tfm = capi.crypto_alloc_skcipher(name)
    tfm.setkey(bytes(range(1, tfm.max_keysize + 1)))
    buf = bytearray(N)
    sgl = capi.sg_init_one(buf)
    req = capi.skcipher_request_alloc(tfm)
    capi.skcipher_request_set_crypt(req, sgl, sgl, N, bytearray(tfm.ivsize))
    moved = []

    def tracer(frame, event, arg):
        if event == "call" and frame.f_code.co_name == "sg_linear_views" and not moved:
            sgl[0].offset = N - 48          # the entry now runs 48 bytes before the end
            moved.append(True)
        return None

    sys.settrace(tracer)
    try:
        capi.crypto_skcipher_encrypt(req)
        outcome = "done"
    except CryptoError as e:
        outcome = f"refused errno {e.errno}"
    finally:
        sys.settrace(None)
    print("MOVED" if moved else "NOT-REACHED", outcome)
''')


@pytest.mark.parametrize("name", ["chacha20-generic", "xchacha12-generic", "xchacha12-simd",
                                  "adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)"])
def test_entry_moved_after_the_check(name):
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536", CRYPTO_API_SELFTESTS="off")
    r = subprocess.run([sys.executable, "-c", CHILD, name], capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 0, f"{name}: child died (rc {r.returncode}): {r.stderr[-2000:]}"
    if "no skcipher" in r.stderr or "ENOENT" in r.stderr:
        pytest.skip(f"{name} is not available on this CPU")
    assert r.stdout.startswith("MOVED"), f"{name}: the trace never reached sg_linear_views: {r.stdout!r}"

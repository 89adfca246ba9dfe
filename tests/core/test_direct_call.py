"""The C entry point of the skcipher direct path (crypto_api/direct_call.c).

Where it is built, setkey installs it as ``tfm._direct_enc``/``_direct_dec`` of the
ChaCha family and Adiantum (tests/algs/test_direct_paths.py runs the direct-path
tests on it and on the Python function alike).  Here: what only it does.
It holds the GIL for messages shorter than ``crypto_api.direct.NOGIL_MIN`` (a hand-over
costs more than the cipher) and releases it for longer ones, so another
thread runs meanwhile; a bytearray it works on stays exported all the while,
so that thread cannot resize it under C.

The GIL test is deterministic where it says "held": with a switch interval
of 10 s, the other thread can run only when this one blocks or releases the
GIL itself, and between ``go`` and ``done`` this thread only makes the call.
"""

import os
import sys

import pytest

import crypto_api as capi
from crypto_api import direct as direct_path
from buffer_shrinker import shrinking
from alloc_or_skip import alloc_or_skip

pytestmark = pytest.mark.skipif(direct_path._skcipher_call is None, reason="crypto_api._direct_call is not built")

NAMES = ["xchacha12-simd", "chacha20-generic", "adiantum(xchacha12-simd,aes-aesni,nhpoly1305-avx2)"]


def _alloc(name):
    return alloc_or_skip(capi.crypto_alloc_skcipher, name, os.urandom(32))


@pytest.mark.parametrize("name", NAMES)
def test_setkey_installs_the_c_entry_point(name):
    tfm = _alloc(name)
    for fn in (tfm._direct_enc, tfm._direct_dec):
        assert type(fn).__name__ == "builtin_function_or_method"
        assert type(fn.__self__).__name__ == "SkcipherCallState"
    iv = os.urandom(tfm.ivsize)
    data = os.urandom(5000)
    assert tfm._direct_dec(tfm._direct_enc(data, iv, None), iv, None) == data


def _calls_seen_by_another_thread(tfm, n, tries):
    """Encrypt n bytes in place ``tries`` times; the other thread's turns
    during the calls, and its refused / successful shrinks."""
    iv = os.urandom(tfm.ivsize)
    data = os.urandom(n)
    want = tfm.encrypt(data, iv)
    buf = bytearray(data)
    with shrinking(buf) as other:
        for _ in range(tries):
            buf[:] = data
            other.go = True
            assert tfm.encrypt(buf, iv, out=buf) is buf
            other.go = False
            assert bytes(buf) == want
            if n >= direct_path.NOGIL_MIN and other.turns:
                break
    return other.turns, other.refused, other.shrunk


@pytest.mark.parametrize("name", NAMES)
def test_gil_held_for_short_calls(name):
    tfm = _alloc(name)
    for n in (16, 600, direct_path.NOGIL_MIN - 1):
        turns, refused, shrunk = _calls_seen_by_another_thread(tfm, n, 200)
        assert (turns, refused, shrunk) == (0, 0, 0), n


@pytest.mark.parametrize("name", NAMES)
def test_gil_released_for_long_calls_with_the_buffer_kept_exported(name):
    tfm = _alloc(name)
    turns, refused, shrunk = _calls_seen_by_another_thread(tfm, 8 << 20, 50)
    assert turns > 0, "the other thread never ran during 50 long calls"
    assert refused == turns and shrunk == 0


def test_make_refuses_null_pointers_and_negative_lengths():
    tfm = _alloc("xchacha12-simd")
    fn = tfm._direct_enc
    state = fn.__self__
    with pytest.raises(TypeError):
        fn(b"x", bytes(32))                          # three arguments, always
    with pytest.raises(ValueError):
        direct_path._skcipher_call(0, 1, 1, (), capi.simd_choice, 32, 64, 0, 2048, 0, 2, False)
    with pytest.raises(ValueError):
        direct_path._skcipher_call(1, 1, 1, (), capi.simd_choice, -1, 64, 0, 2048, 0, 2, False)
    with pytest.raises(TypeError):
        direct_path._skcipher_call(1, 1, 1, (), None, 32, 64, 0, 2048, 0, 2, False)
    assert type(state).__module__ == "crypto_api._direct_call"


def test_c_file_builds_without_warnings_with_the_project_flags():
    """As tests/algs/test_build_flags.py does for the cffi extensions: the
    build's flags plus -Werror, with the limited API setup.py asks for."""
    import pathlib
    import shutil
    import subprocess
    import sysconfig
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler (gcc/cc) on PATH")
    from c_build import build_common
    CFLAGS = build_common().CFLAGS
    root = pathlib.Path(__file__).resolve().parents[2]
    limited = ["-DPy_LIMITED_API=0x030B0000"] if sys.version_info >= (3, 11) else []
    cmd = [cc, "-c", "-o", os.devnull, *CFLAGS, "-Werror", *limited,
           "-I" + sysconfig.get_paths()["include"], "-I" + str(root / "algs" / "include"),
           str(root / "crypto_api" / "direct_call.c")]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0 and not r.stderr, r.stderr

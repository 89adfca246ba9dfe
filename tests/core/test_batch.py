"""The batch entry point: ``tfm.encrypt_batch``/``decrypt_batch`` (crypto_api/batch.py)
over the C batch of crypto_api._direct_call (batch_call.h) and its native thread pool
(batch_pool.h).

Every batch is checked against the one-call methods message by message (an
independent path: one call each, on the calling thread), for drivers with a
direct path (the C batch) and without one (the loop); refusals leave every
out untouched; a forked child runs batches on a pool of its own; many
Python threads running batches and single calls at once get the same bytes.
"""

import os
import threading

import pytest
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api import batch as batch_mod
from crypto_api.errors import CryptoError
from crypto_api.fpu import fpu_trace, simd_disabled
from alloc_or_skip import alloc_or_skip

needs_c = pytest.mark.skipif(batch_mod._c_batch is None, reason="crypto_api._direct_call is not built")

#: (name, key size, whether the driver has a direct path where the C entries are built)
CIPHERS = [("xchacha12-simd", 32, True), ("adiantum(xchacha12-simd,aes-aesni,nhpoly1305-avx2)", 32, True),
           ("chacha20-generic", 32, True), ("xts(aes-generic)", 64, False)]


def _alloc(name, keylen, key=None):
    return alloc_or_skip(capi.crypto_alloc_skcipher, name, key if key is not None else os.urandom(keylen))


def _min_len(tfm):
    return 16 if "xts" in tfm.driver_name or "adiantum" in tfm.driver_name else 0


@pytest.fixture(scope="module", params=CIPHERS, ids=[c[0] for c in CIPHERS])
def cipher(request):
    name, keylen, direct = request.param
    tfm = _alloc(name, keylen, bytes(range(keylen)))
    if direct and batch_mod._c_batch is not None:
        assert tfm._direct_enc is not None
    if not direct:
        assert tfm._direct_enc is None         # the loop: same answers expected
    yield tfm
    tfm.free()


@settings(max_examples=30, deadline=None)
@given(data=st.data(), workers=st.integers(1, 4), in_place=st.booleans(), into_outs=st.booleans())
def test_batch_matches_single_calls(cipher, data, workers, in_place, into_outs):
    lo = _min_len(cipher)
    sizes = data.draw(st.lists(st.sampled_from([lo, lo + 1, 64, 512, 4096, 5000]).filter(
        lambda n: n >= lo and ("xts" not in cipher.driver_name or n % 16 == 0 or n > 16)), max_size=12))
    datas = [data.draw(st.binary(min_size=n, max_size=n)) for n in sizes]
    ivs = [data.draw(st.binary(min_size=cipher.ivsize, max_size=cipher.ivsize)) for _ in sizes]
    want = [cipher.encrypt(d, iv) for d, iv in zip(datas, ivs)]
    if in_place:
        bufs = [bytearray(d) for d in datas]
        got = cipher.encrypt_batch(bufs, ivs, bufs, workers=workers)
        assert all(g is b for g, b in zip(got, bufs))
        got = [bytes(b) for b in bufs]
    elif into_outs:
        outs = [bytearray(len(d)) for d in datas]
        cipher.encrypt_batch(datas, ivs, outs, workers=workers)
        got = [bytes(o) for o in outs]
    else:
        got = cipher.encrypt_batch(datas, ivs, workers=workers)
    assert got == want
    back = cipher.decrypt_batch(got, ivs, workers=workers)
    assert back == datas


@needs_c
def test_batch_pieces_of_one_buffer_in_place():
    tfm = _alloc("xchacha12-simd", 32)
    buf = bytearray(os.urandom(64 * 4096))
    orig = bytes(buf)
    mv = memoryview(buf)
    pieces = [mv[i * 4096:(i + 1) * 4096] for i in range(64)]
    ivs = [i.to_bytes(32, "little") for i in range(64)]
    tfm.encrypt_batch(pieces, ivs, pieces, workers=3)
    assert bytes(buf) == b"".join(tfm.encrypt(orig[i * 4096:(i + 1) * 4096], ivs[i]) for i in range(64))


@needs_c
def test_batch_workers_share_the_work_and_trace_records_them():
    tfm = _alloc("xchacha12-simd", 32)
    datas = [os.urandom(4096) for _ in range(200)]
    ivs = [os.urandom(32) for _ in datas]
    res, stats = batch_mod._c_batch(tfm._direct_enc, datas, ivs, None, 3)
    assert len(stats) == 3
    assert sum(s[0] for s in stats) == 200 and sum(s[1] for s in stats) == 200 * 4096
    assert sum(s[2] for s in stats) == 200 * 4096            # all with SIMD code
    with fpu_trace() as tr:
        got = tfm.encrypt_batch(datas, ivs, workers=3)
    assert got == res
    assert tr.sections and all(s.closed and s.worker is not None for s in tr.sections)
    assert sum(tr.nbytes) == 200 * 4096
    assert len({s.worker for s in tr.sections}) == len(tr.sections) <= 3
    with simd_disabled(), fpu_trace() as tr:                 # the generic code: no section
        assert tfm.encrypt_batch(datas, ivs, workers=3) == res
    assert tr.sections == []


@needs_c
def test_batch_pool_is_lazy_and_bounded():
    tfm = _alloc("xchacha12-simd", 32)
    tfm.encrypt_batch([bytes(64)] * 8, [bytes(32)] * 8, workers=5)
    info = batch_mod.batch_pool_info()
    assert 1 <= info["threads"] <= info["max"]
    batch_mod.batch_pool_stop()
    assert batch_mod.batch_pool_info()["threads"] == 0
    assert tfm.encrypt_batch([bytes(64)] * 8, [bytes(32)] * 8, workers=2) == [tfm.encrypt(bytes(64), bytes(32))] * 8


def _refused(tfm, datas, ivs, outs, match, **kw):
    saved = [bytes(o) for o in outs] if outs is not None else None
    with pytest.raises(CryptoError, match=match) as e:
        tfm.encrypt_batch(datas, ivs, outs, **kw)
    assert e.value.errno == 22
    if outs is not None:
        assert [bytes(o) for o in outs] == saved          # nothing half-written


@pytest.mark.parametrize("name,keylen,direct", CIPHERS, ids=[c[0] for c in CIPHERS])
def test_batch_refusals_write_nothing(name, keylen, direct):
    tfm = _alloc(name, keylen)
    n = tfm.ivsize
    outs = [bytearray(b"\xaa" * 64) for _ in range(3)]
    datas = [bytes(64)] * 3
    _refused(tfm, datas, [bytes(n)] * 2, outs, "2 IVs for 3 messages")
    _refused(tfm, datas, [bytes(n), bytes(n + 1), bytes(n)], outs, "batch item 1: IV is")
    _refused(tfm, datas, [bytes(n)] * 3, outs[:2] + [bytearray(63)], "batch item 2: out must be")
    _refused(tfm, datas, [bytes(n)] * 3, outs, "workers 0", workers=0)
    _refused(tfm, b"abc", [bytes(n)] * 3, outs, "must be a sequence")
    # the driver's own refusal of a message (too short): no out touched either
    if _min_len(tfm):
        with pytest.raises(CryptoError):
            tfm.encrypt_batch(datas[:2] + [bytes(8)], [bytes(n)] * 3, outs[:2] + [bytearray(8)])
        assert all(bytes(o) == b"\xaa" * 64 for o in outs[:2])


@needs_c
def test_batch_refuses_outs_that_share_bytes():
    tfm = _alloc("xchacha12-simd", 32)
    big = bytearray(8192)
    mv = memoryview(big)
    ivs = [bytes(32)] * 2
    _refused(tfm, [bytes(4096)] * 2, ivs, [mv[0:4096], mv[100:4196]], "item 0's out shares bytes with item 1")
    src = bytearray(os.urandom(4096))
    # out 1 is data 0's bytes: a worker could read them after another wrote them
    _refused(tfm, [src, bytes(4096)], ivs, [bytearray(4096), src], "shares bytes")
    # in place (out is its own data) is fine, and so are sources shared by many
    same = bytes(4096)
    assert tfm.encrypt_batch([same, same], ivs, [bytearray(4096), bytearray(4096)])[0] == tfm.encrypt(same, ivs[0])


def test_batch_without_key_and_after_free():
    tfm = capi.crypto_alloc_skcipher("xchacha12")
    with pytest.raises(CryptoError) as e:
        tfm.encrypt_batch([bytes(16)], [bytes(32)])
    assert e.value.errno == 126            # ENOKEY
    tfm.setkey(bytes(32))
    tfm.free()
    with pytest.raises(CryptoError):
        tfm.encrypt_batch([bytes(16)], [bytes(32)])


@needs_c
@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_batch_in_a_forked_child():
    tfm = _alloc("xchacha12-simd", 32)
    datas = [os.urandom(4096) for _ in range(64)]
    ivs = [os.urandom(32) for _ in datas]
    want = [tfm.encrypt(d, iv) for d, iv in zip(datas, ivs)]
    assert tfm.encrypt_batch(datas, ivs, workers=4) == want    # the parent's pool is started
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:                                               # the child: its own pool
        ok = False
        try:
            fresh = batch_mod.batch_pool_info()["threads"] == 0
            ok = fresh and tfm.encrypt_batch(datas, ivs, workers=4) == want and \
                batch_mod.batch_pool_info()["threads"] >= 1
        finally:
            os.write(w, b"1" if ok else b"0")
            os._exit(0)
    os.close(w)
    got = os.read(r, 1)
    os.close(r)
    os.waitpid(pid, 0)
    assert got == b"1"
    assert tfm.encrypt_batch(datas, ivs, workers=4) == want    # the parent's pool still works


@needs_c
def test_threads_hammering_batch_and_single_calls():
    names = ["xchacha12-simd", "adiantum(xchacha12-simd,aes-aesni,nhpoly1305-avx2)"]
    key = os.urandom(32)
    ref = {n: _alloc(n, 32, key) for n in names}
    datas = [os.urandom(n) for n in (16, 512, 2048, 4096, 65536) for _ in range(4)]
    ivs = [os.urandom(32) for _ in datas]
    want = {n: [t.encrypt(d, iv) for d, iv in zip(datas, ivs)] for n, t in ref.items()}
    errors = []

    def run(k):
        name = names[k % 2]
        tfm = _alloc(name, 32, key)                 # one tfm per thread, as documented
        try:
            for rnd in range(15):
                if (k + rnd) % 3:
                    got = tfm.encrypt_batch(datas, ivs, workers=1 + (k + rnd) % 4)
                else:
                    got = [tfm.encrypt(d, iv) for d, iv in zip(datas, ivs)]
                if got != want[name]:
                    errors.append((k, rnd))
        finally:
            tfm.free()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


@needs_c
def test_pool_threads_are_joined_at_exit():
    """The pool's threads are stopped and joined at interpreter exit (an
    atexit handler registered before crypto_api runs after the pool's)."""
    import subprocess
    import sys
    code = (
        "import atexit, os\n"
        "seen = []\n"
        "atexit.register(lambda: print('after exit:', seen[0].batch_pool_info()['threads'], flush=True))\n"
        "import crypto_api as capi\n"
        "from crypto_api import batch\n"
        "seen.append(batch)\n"
        "t = capi.crypto_alloc_skcipher('xchacha12')\n"
        "t.setkey(bytes(32))\n"
        "t.encrypt_batch([bytes(4096)] * 16, [bytes(32)] * 16, workers=4)\n"
        "print('during:', batch.batch_pool_info()['threads'], flush=True)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    during = int(r.stdout.split("during:")[1].split()[0])
    assert during >= 1
    assert "after exit: 0" in r.stdout

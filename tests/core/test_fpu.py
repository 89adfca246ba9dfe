"""The FPU model: kernel_fpu_begin/end, crypto_simd_usable, traces, per-thread state.

Mirrors arch/x86/kernel/fpu/core.c and include/crypto/internal/simd.h.  The SIMD drivers have their own tests; here a ChaCha20 test driver
written against the public interface (keystream from the ``cryptography``
package) plays a SIMD driver: one FPU section per walk step when
crypto_simd_usable(), no section otherwise.
"""

import threading

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

import crypto_api as capi
from crypto_api.errors import ELIBBAD

KEY = bytes(range(32))
IV = bytes(range(16))


@pytest.fixture(autouse=True)
def clean_fpu_state():
    assert not capi.in_kernel_fpu() and capi.crypto_simd_usable()
    yield
    assert not capi.in_kernel_fpu() and capi.crypto_simd_usable()


# ---------------------------------------------------------------- the primitives

def test_begin_end_nesting_rules():
    capi.kernel_fpu_begin()
    try:
        assert capi.in_kernel_fpu()
        with pytest.raises(capi.FpuUsageError, match="nested"):
            capi.kernel_fpu_begin()
        assert capi.in_kernel_fpu()
    finally:
        capi.kernel_fpu_end()
    assert not capi.in_kernel_fpu()
    with pytest.raises(capi.FpuUsageError, match="no FPU section"):
        capi.kernel_fpu_end()


def test_sleeping_inside_a_section_is_a_bug():
    capi.might_sleep("regtest")                    # fine outside
    capi.kernel_fpu_begin()
    try:
        with pytest.raises(capi.FpuUsageError, match="regtest"):
            capi.might_sleep("regtest")
    finally:
        capi.kernel_fpu_end()


def test_simd_usability():
    assert capi.crypto_simd_usable() and capi.may_use_simd() and capi.irq_fpu_usable()
    with capi.simd_disabled():
        assert not capi.crypto_simd_usable()
        assert capi.may_use_simd()                 # only the self-test switch is off
        with capi.simd_disabled():
            assert not capi.crypto_simd_usable()
        assert not capi.crypto_simd_usable()
        capi.kernel_fpu_begin()                    # the FPU itself is still usable
        capi.kernel_fpu_end()
    assert capi.crypto_simd_usable()
    with capi.interrupt_context():
        assert not capi.crypto_simd_usable() and not capi.may_use_simd()
        with pytest.raises(capi.FpuUsageError, match="interrupt"):
            capi.kernel_fpu_begin()
    capi.kernel_fpu_begin()
    try:
        assert not capi.crypto_simd_usable()       # the FPU is taken
    finally:
        capi.kernel_fpu_end()


def test_the_switches_are_undone_by_exceptions():
    with pytest.raises(KeyError):
        with capi.simd_disabled():
            raise KeyError
    with pytest.raises(KeyError):
        with capi.interrupt_context():
            raise KeyError
    assert capi.crypto_simd_usable()


def test_traces_record_sections_and_bytes():
    capi.kernel_fpu_begin()
    capi.fpu_account(5)                            # no trace running: not recorded
    capi.kernel_fpu_end()
    with capi.fpu_trace() as outer:
        capi.kernel_fpu_begin()
        capi.fpu_account(100)
        capi.fpu_account(28)
        capi.kernel_fpu_yield()
        capi.fpu_account(7)
        capi.kernel_fpu_end()
        capi.fpu_account(1000)                     # outside a section: not recorded
        with capi.fpu_trace() as inner:
            capi.kernel_fpu_begin()
            capi.fpu_account(3)
            capi.kernel_fpu_end()
    assert outer.nbytes == [128, 7, 3] and outer.yields == 2
    assert inner.nbytes == [3]
    assert all(s.closed for s in outer.sections)
    with capi.fpu_trace() as empty:
        pass
    assert empty.sections == [] and empty.yields == 0


def test_fpu_state_is_per_thread():
    results = {}
    entered, release = threading.Event(), threading.Event()

    def other():
        capi.kernel_fpu_begin()
        with capi.simd_disabled():
            entered.set()
            release.wait(10)
        capi.kernel_fpu_end()

    t = threading.Thread(target=other)
    with capi.fpu_trace() as tr:
        t.start()
        entered.wait(10)
        # the other "CPU" is inside a section with SIMD disabled; this one is not
        results["usable"] = capi.crypto_simd_usable()
        results["in_fpu"] = capi.in_kernel_fpu()
        capi.kernel_fpu_begin()
        capi.fpu_account(1)
        capi.kernel_fpu_end()
        release.set()
        t.join(10)
    assert results == {"usable": True, "in_fpu": False}
    assert tr.nbytes == [1]


# ---------------------------------------------------------------- a SIMD-style test driver

def simd_chacha20(driver, priority, one_section=False, atomic=False):
    """ChaCha20 over the walk; FPU sections when SIMD is usable.

    ``one_section``: a single section around the whole walk (as the v5.0 glue
    does with an atomic walk) instead of one per step.
    """

    def setkey(tfm, key):
        capi.crypto_skcipher_ctx(tfm).key = bytes(key)

    def crypt(req):
        ctx = capi.crypto_skcipher_ctx(capi.crypto_skcipher_reqtfm(req))
        stream = Cipher(algorithms.ChaCha20(ctx.key, bytes(req.iv[:16])), mode=None).encryptor()
        simd = capi.crypto_simd_usable()
        walk = capi.skcipher_walk_virt(req, atomic=atomic)
        if simd and one_section:
            capi.kernel_fpu_begin()
        try:
            while walk.nbytes:
                n = walk.nbytes if walk.nbytes == walk.total else walk.nbytes - walk.nbytes % walk.stride
                if simd and not one_section:
                    capi.kernel_fpu_begin()
                try:
                    walk.dst[:n] = stream.update(bytes(walk.src[:n]))
                    if simd:
                        capi.fpu_account(n)
                finally:
                    if simd and not one_section:
                        capi.kernel_fpu_end()
                capi.skcipher_walk_done(walk, walk.nbytes - n)
        finally:
            if simd and one_section:
                capi.kernel_fpu_end()

    return capi.SkcipherAlg(
        cra_name="chacha20", cra_driver_name=driver, cra_priority=priority, cra_blocksize=1,
        min_keysize=32, max_keysize=32, ivsize=16, chunksize=64,
        setkey=setkey, encrypt=crypt, decrypt=crypt)


def peer(data):
    return Cipher(algorithms.ChaCha20(KEY, IV), mode=None).encryptor().update(data)


def test_a_simd_style_driver_makes_one_section_per_walk_step(register):
    register(simd_chacha20("regtest-chacha20-fpu", 7000))
    data = bytes(range(256)) * 40                  # 10240 bytes: pages of 4096, 4096, 2048
    with capi.crypto_alloc_skcipher("chacha20") as tfm:
        assert tfm.driver_name == "regtest-chacha20-fpu"
        tfm.setkey(KEY)
        with capi.fpu_trace() as tr:
            assert tfm.encrypt(data, IV) == peer(data)
        assert tr.nbytes == [4096, 4096, 2048] and tr.yields == 2
        for switch in (capi.simd_disabled, capi.interrupt_context):
            with capi.fpu_trace() as tr, switch():
                assert tfm.encrypt(data, IV) == peer(data)
            assert tr.sections == []


def test_sleeping_in_a_walk_inside_one_section_is_caught(register, selftest_level):
    # the self-tests' "may sleep" configuration catches such a driver ...
    register(simd_chacha20("regtest-chacha20-sleepy", 1, one_section=True, atomic=False))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("regtest-chacha20-sleepy")
    assert e.value.errno == ELIBBAD
    # ... and so does the walk itself, seen here with the self-tests off
    selftest_level("off")
    register(simd_chacha20("regtest-chacha20-sleepy2", 1, one_section=True, atomic=False))
    register(simd_chacha20("regtest-chacha20-atomic", 1, one_section=True, atomic=True))
    data = bytes(range(256)) * 40
    for driver, ok in (("regtest-chacha20-sleepy2", False), ("regtest-chacha20-atomic", True)):
        with capi.crypto_alloc_skcipher(driver) as tfm:
            tfm.setkey(KEY)
            src, dst = bytearray(data), bytearray(len(data))
            req = capi.skcipher_request_alloc(tfm)
            capi.skcipher_request_set_callback(req, capi.CRYPTO_TFM_REQ_MAY_SLEEP)
            capi.skcipher_request_set_crypt(req, capi.sg_init_one(src), capi.sg_init_one(dst),
                                            len(data), bytearray(IV))
            if ok:
                with capi.fpu_trace() as tr:
                    capi.crypto_skcipher_encrypt(req)
                assert dst == peer(data) and tr.nbytes == [len(data)]
            else:
                with pytest.raises(capi.FpuUsageError, match="skcipher_walk_done"):
                    capi.crypto_skcipher_encrypt(req)
                assert dst == bytes(len(data))          # the failed request wrote nothing
            # without MAY_SLEEP the walk never sleeps, atomic or not
            capi.skcipher_request_set_callback(req, 0)
            dst[:] = bytes(len(data))
            capi.crypto_skcipher_encrypt(req)
            assert dst == peer(data)

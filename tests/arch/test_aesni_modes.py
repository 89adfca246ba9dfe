"""The AES-NI mode drivers (aesni_intel): names, priorities and flags as v5.0
registers them (plus the AVX and VAES drivers of later kernels), the XTS vectors
of aes-xts.json, cross-checks against `cryptography` (and, for 48-byte XTS
keys and ciphertext stealing, an XTS built here on its AES-ECB), key and
length refusals, the one FPU section per request of v5.0, and the SIMD
wrapper's move to cryptd where SIMD is unusable.
"""

import threading
from errno import EINPROGRESS, EINVAL

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api.arch.x86 import _cpufeatures
from crypto_api.fpu import fpu_trace, simd_disabled
from crypto_api.scatterlist import Scatterlist
from crypto_api.simd import atomic_context
from crypto_api.testmgr.vectors import load_json

pytestmark = pytest.mark.skipif(not _cpufeatures.lib.cpu_has(b"aes"), reason="CPU lacks AES-NI")

HAS_VAES = all(_cpufeatures.lib.cpu_has(f)
               for f in (b"vaes", b"vpclmulqdq", b"pclmulqdq", b"avx2", b"xsave_ymm"))
HAS_AVX10 = HAS_VAES and all(_cpufeatures.lib.cpu_has(f) for f in (b"avx512f", b"avx512bw",
                                                                  b"avx512vl", b"bmi2", b"xsave_zmm"))
INTERNAL = capi.CRYPTO_ALG_INTERNAL
ASYNC = capi.CRYPTO_ALG_ASYNC

# (cra_name, driver, priority, blocksize, min key, max key, ivsize)
V50_DRIVERS = [
    ("ecb(aes)", "ecb-aes-aesni", 400, 16, 16, 32, 0),
    ("cbc(aes)", "cbc-aes-aesni", 400, 16, 16, 32, 16),
    ("ctr(aes)", "ctr-aes-aesni", 400, 1, 16, 32, 16),
    ("xts(aes)", "xts-aes-aesni", 401, 16, 32, 64, 16),
]
AVX_DRIVERS = [                              # 6.10+/6.15+, on the AES-NI routines
    ("xts(aes)", "xts-aes-aesni-avx", 500, 16, 32, 64, 16),
    ("ctr(aes)", "ctr-aes-aesni-avx", 500, 1, 16, 32, 16),
]
VAES_DRIVERS = [
    ("xts(aes)", "xts-aes-vaes-avx2", 600, 16, 32, 64, 16),
    ("ctr(aes)", "ctr-aes-vaes-avx2", 600, 1, 16, 32, 16),
]
AVX10_DRIVERS = [
    ("xts(aes)", "xts-aes-vaes-avx10_256", 700, 16, 32, 64, 16),
    ("ctr(aes)", "ctr-aes-vaes-avx10_256", 700, 1, 16, 32, 16),
    ("xts(aes)", "xts-aes-vaes-avx10_512", 800, 16, 32, 64, 16),
    ("ctr(aes)", "ctr-aes-vaes-avx10_512", 800, 1, 16, 32, 16),
]
if HAS_AVX10:
    from crypto_api.arch.x86.cpufeature import boot_cpu_has
    if boot_cpu_has("prefer_ymm"):          # a CPU that downclocks with zmm: priority 1
        AVX10_DRIVERS = [d[:2] + (1 if "512" in d[1] else d[2],) + d[3:] for d in AVX10_DRIVERS]
HAS_AVX = bool(_cpufeatures.lib.cpu_has(b"avx"))
DRIVERS = (V50_DRIVERS + (AVX_DRIVERS if HAS_AVX else []) + (VAES_DRIVERS if HAS_VAES else [])
           + (AVX10_DRIVERS if HAS_AVX10 else []))
XTS_DRIVERS = [d[1] for d in DRIVERS if d[0] == "xts(aes)"]


def by_driver(records, name):
    found = [r for r in records if r["driver"] == name]
    assert len(found) == 1, name
    return found[0]


@pytest.mark.parametrize("cra_name,driver,prio,bs,kmin,kmax,ivsize", DRIVERS)
def test_names_priorities_flags(proc_records, cra_name, driver, prio, bs, kmin, kmax, ivsize):
    with capi.crypto_alloc_skcipher(driver) as tfm:       # instantiates cryptd(__...)
        assert tfm.alg.cra_flags & ASYNC
        recs = proc_records()
    fields = {"priority": str(prio), "blocksize": str(bs), "min keysize": str(kmin),
              "max keysize": str(kmax), "ivsize": str(ivsize), "chunksize": "16",
              "walksize": "16", "type": "skcipher"}
    wrapper = by_driver(recs, driver)
    assert wrapper["name"] == cra_name and wrapper["module"] == "aesni_intel"
    assert wrapper["async"] == "yes" and wrapper["internal"] == "no"
    inner = by_driver(recs, "__" + driver)
    assert inner["name"] == "__" + cra_name and inner["module"] == "aesni_intel"
    assert inner["async"] == "no" and inner["internal"] == "yes"
    queue = by_driver(recs, f"cryptd(__{driver})")
    assert queue["name"] == "__" + cra_name and queue["module"] == "cryptd"
    assert queue["async"] == "yes" and queue["internal"] == "yes"
    for rec, p in ((wrapper, prio), (inner, prio), (queue, prio + 50)):
        assert {k: rec[k] for k in fields} == dict(fields, priority=str(p))


def test_internal_algs_invisible_to_plain_lookups():
    with pytest.raises(capi.CryptoError):
        capi.crypto_alloc_skcipher("__xts-aes-aesni")
    with capi.crypto_alloc_skcipher("__xts-aes-aesni", INTERNAL, INTERNAL) as tfm:
        assert tfm.alg.cra_priority == 401 and not tfm.alg.cra_flags & ASYNC


def test_best_xts_driver():
    best = max((d for d in DRIVERS if d[0] == "xts(aes)"), key=lambda d: d[2])[1]
    with capi.crypto_alloc_skcipher("xts(aes)") as tfm:
        assert tfm.alg.cra_driver_name == best


# --------------------------------------------------------------------------
# References

def ecb(key, data, encrypt=True):
    c = Cipher(algorithms.AES(key), modes.ECB())
    return (c.encryptor() if encrypt else c.decryptor()).update(data)


def mul_x(t: bytes) -> bytes:
    v = int.from_bytes(t, "little") << 1
    if v >> 128:
        v = (v & ((1 << 128) - 1)) ^ 0x87
    return v.to_bytes(16, "little")


def xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


def xts_ref(key, iv, data, encrypt=True):
    """IEEE P1619 XTS with ciphertext stealing over AES-ECB (any AES key size)."""
    k1, k2 = key[:len(key) // 2], key[len(key) // 2:]
    t = ecb(k2, iv)
    m, r = divmod(len(data), 16)
    tweaks = []
    for _ in range(m + 1):
        tweaks.append(t)
        t = mul_x(t)

    def blk(i, b, tw):
        return xor(ecb(k1, xor(b, tw), encrypt), tw)
    full = m - 1 if r else m
    out = b"".join(blk(i, data[16 * i:16 * i + 16], tweaks[i]) for i in range(full))
    if r:
        a, b = (tweaks[m - 1], tweaks[m]) if encrypt else (tweaks[m], tweaks[m - 1])
        cc = blk(0, data[16 * (m - 1):16 * m], a)
        out += blk(0, data[16 * m:] + cc[r:], b) + cc[:r]
    return out


def openssl(name, key, iv, data, encrypt=True):
    mode = {"cbc": modes.CBC, "ctr": modes.CTR, "xts": modes.XTS}[name](iv) if iv else modes.ECB()
    c = Cipher(algorithms.AES(key), mode)
    return (c.encryptor() if encrypt else c.decryptor()).update(data)


# --------------------------------------------------------------------------
# Vectors

XTS_VECTORS = load_json("aes-xts.json")["vectors"]


@pytest.mark.parametrize("driver", XTS_DRIVERS + ["__xts-aes-aesni"])
def test_xts_vectors(driver):
    kw = (INTERNAL, INTERNAL) if driver.startswith("__") else ()
    with capi.crypto_alloc_skcipher(driver, *kw) as tfm:
        for v in XTS_VECTORS:
            key, iv = bytes.fromhex(v["key"]), bytes.fromhex(v["kernel_iv"])
            pt, ct = bytes.fromhex(v["plaintext"]), bytes.fromhex(v["ciphertext"])
            tfm.setkey(key)
            assert tfm.encrypt(pt, iv) == ct, v["id"]
            assert tfm.decrypt(ct, iv) == pt, v["id"]
            # the request path over two scatterlist pieces, in place
            buf = bytearray(ct)
            cut = len(buf) // 3
            sgl = [Scatterlist(memoryview(buf), 0, cut), Scatterlist(memoryview(buf), cut, len(buf) - cut)]
            req = capi.skcipher_request_alloc(tfm)
            wait = capi.crypto_init_wait()
            capi.skcipher_request_set_callback(req, 0, capi.crypto_req_done, wait)
            capi.skcipher_request_set_crypt(req, sgl, sgl, len(buf), bytearray(iv))
            assert capi.crypto_wait_req(capi.crypto_skcipher_decrypt(req), wait) == 0
            assert bytes(buf) == pt, v["id"]


# --------------------------------------------------------------------------
# Cross-checks

MODE_OF = {d[1]: d[0][:3] for d in DRIVERS}


@pytest.mark.parametrize("driver", [d[1] for d in DRIVERS])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_against_cryptography(driver, data):
    mode = MODE_OF[driver]
    xts = mode == "xts"
    keylen = data.draw(st.sampled_from([32, 48, 64] if xts else [16, 24, 32]))
    key = data.draw(st.binary(min_size=keylen, max_size=keylen))
    if xts and key[:keylen // 2] == key[keylen // 2:]:
        key = bytes([key[0] ^ 1]) + key[1:]
    iv = data.draw(st.binary(min_size=16, max_size=16)) if mode != "ecb" else None
    if mode == "ctr" and data.draw(st.booleans()):
        iv = b"\xff" * 15 + bytes([data.draw(st.integers(0xf0, 0xff))])     # 128-bit carry
    size = data.draw(st.integers(16 if xts else 0, 1200))
    if mode in ("ecb", "cbc"):
        size -= size % 16
    pt = data.draw(st.binary(min_size=size, max_size=size))
    with capi.crypto_alloc_skcipher(driver) as tfm:
        tfm.setkey(key)
        ct = tfm.encrypt(pt, iv)
        if xts:
            assert ct == xts_ref(key, iv, pt)
            if keylen != 48:
                assert ct == openssl("xts", key, iv, pt)
        else:
            assert ct == openssl(mode, key, iv, pt)
        assert tfm.decrypt(ct, iv) == pt
        # request path, out of place over uneven pieces; CBC/CTR leave the next IV
        src = bytearray(ct)
        dst = bytearray(size)
        cut = data.draw(st.integers(0, size))
        sg = lambda b: [Scatterlist(memoryview(b), 0, cut), Scatterlist(memoryview(b), cut, size - cut)]
        ivb = bytearray(iv) if iv else None
        req = capi.skcipher_request_alloc(tfm)
        wait = capi.crypto_init_wait()
        capi.skcipher_request_set_callback(req, 0, capi.crypto_req_done, wait)
        capi.skcipher_request_set_crypt(req, sg(src), sg(dst), size, ivb)
        assert capi.crypto_wait_req(capi.crypto_skcipher_decrypt(req), wait) == 0
        assert bytes(dst) == pt
        if mode == "cbc" and size:
            assert bytes(ivb) == ct[-16:]
        if mode == "ctr":
            nblocks = -(-size // 16)
            want = (int.from_bytes(iv, "big") + nblocks) % (1 << 128)
            assert bytes(ivb) == want.to_bytes(16, "big")
        if xts:
            assert bytes(ivb) == iv


@pytest.mark.parametrize("driver", XTS_DRIVERS)
def test_xts_refusals(driver):
    with capi.crypto_alloc_skcipher(driver) as tfm:
        for bad in (33, 40, 65, 16):
            with pytest.raises(capi.CryptoError) as e:
                tfm.setkey(bytes(range(bad)))
            assert e.value.errno == EINVAL
        same = bytes(range(32)) * 2
        tfm.setkey(same)                    # equal halves: allowed without the flag
        tfm.set_flags(capi.CRYPTO_TFM_REQ_FORBID_WEAK_KEYS)
        with pytest.raises(capi.CryptoError) as e:
            tfm.setkey(same)
        assert e.value.errno == EINVAL and "equal" in str(e.value)
        tfm.setkey(bytes(range(64)))
        for n in (0, 1, 15):
            with pytest.raises(capi.CryptoError) as e:
                tfm.encrypt(bytes(n), bytes(16))
            assert e.value.errno == EINVAL and driver in str(e.value)


@pytest.mark.parametrize("driver", ["ecb-aes-aesni", "cbc-aes-aesni"])
def test_block_modes_refuse_partial_blocks(driver):
    with capi.crypto_alloc_skcipher(driver) as tfm:
        tfm.setkey(bytes(16))
        out = bytearray(b"\xaa" * 33)
        with pytest.raises(capi.CryptoError) as e:
            tfm.encrypt(bytes(33), bytes(16) if "cbc" in driver else None, out=out)
        assert e.value.errno == EINVAL and out == bytearray(b"\xaa" * 33)


# --------------------------------------------------------------------------
# FPU and the wrapper's choice

@pytest.mark.parametrize("driver", [d[1] for d in DRIVERS])
def test_one_fpu_section_per_request(driver):
    with capi.crypto_alloc_skcipher(driver) as tfm:
        tfm.setkey(bytes(range(tfm.alg.max_keysize)))
        iv = bytes(16) if tfm.ivsize else None
        with fpu_trace() as trace:
            tfm.encrypt(bytes(3 * 4096), iv)
        assert trace.nbytes == [3 * 4096]


@pytest.mark.parametrize("driver", [d[1] for d in DRIVERS])
def test_wrapper_queues_to_cryptd_when_simd_unusable(driver):
    with capi.crypto_alloc_skcipher(driver) as tfm:
        tfm.setkey(bytes(range(tfm.alg.max_keysize)))
        iv = bytes(range(16)) if tfm.ivsize else None
        want = tfm.encrypt(bytes(4096), iv)
        seen = []
        done = threading.Event()

        def callback(req, err):
            seen.append((req, err, threading.current_thread().name))
            done.set()
        buf = bytearray(4096)
        req = capi.skcipher_request_alloc(tfm)
        marker = object()
        capi.skcipher_request_set_callback(req, 0, callback, marker)
        capi.skcipher_request_set_crypt(req, capi.sg_init_one(buf), capi.sg_init_one(buf), 4096,
                                        bytearray(iv) if iv else None)
        with simd_disabled():
            assert capi.crypto_skcipher_encrypt(req) == -EINPROGRESS
            assert tfm.encrypt(bytes(4096), iv) == want      # the one-call method waits
        done.wait()
        (sub, err, thread), = seen
        assert err == 0 and sub is not req and sub.data is marker
        assert thread.startswith("cryptd/")
        assert bytes(buf) == want
        # SIMD usable: the same request runs at once, no callback
        buf[:] = bytes(4096)
        capi.skcipher_request_set_crypt(req, capi.sg_init_one(buf), capi.sg_init_one(buf), 4096,
                                        bytearray(iv) if iv else None)
        assert capi.crypto_skcipher_encrypt(req) == 0
        assert bytes(buf) == want and len(seen) == 1


def test_atomic_callers_queue_behind_queued_work():
    with capi.crypto_alloc_skcipher("cbc-aes-aesni") as tfm:
        tfm.setkey(bytes(16))
        hold, entered = threading.Event(), threading.Event()
        results = []
        finished = threading.Semaphore(0)

        def blocking(req, err):
            entered.set()
            hold.wait()
            results.append(("first", err))
            finished.release()

        def later(req, err):
            results.append(("second", err))
            finished.release()

        def request(cb):
            req = capi.skcipher_request_alloc(tfm)
            capi.skcipher_request_set_callback(req, 0, cb, None)
            buf = bytearray(64)
            capi.skcipher_request_set_crypt(req, capi.sg_init_one(buf), capi.sg_init_one(buf), 64,
                                            bytearray(16))
            return req
        with simd_disabled():
            assert capi.crypto_skcipher_encrypt(request(blocking)) == -EINPROGRESS
        entered.wait()                      # its callback runs: still in flight
        try:
            assert capi.crypto_skcipher_encrypt(request(later)) == 0      # process context: at once
            with atomic_context():
                assert capi.crypto_skcipher_encrypt(request(later)) == -EINPROGRESS
        finally:
            hold.set()
        finished.acquire()
        finished.acquire()
        assert sorted(results) == [("first", 0), ("second", 0)]
        with atomic_context():              # nothing queued any more: at once again
            assert capi.crypto_skcipher_encrypt(request(later)) == 0

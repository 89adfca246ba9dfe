"""cryptd (crypto_api.cryptd) and the completion model (crypto_api.completion):
the template's names and flags, -EINPROGRESS / -EBUSY with MAY_BACKLOG /
ENOSPC without it, the backlog notice, the worker pool running two requests
at once, the one-call methods waiting, asyncio, the self-test manager on an
async algorithm, and rfc7539 over an asynchronous ChaCha20 child.
"""

import asyncio
import threading
from errno import EBUSY, EINPROGRESS, EINVAL, ENOSPC

import pytest

import crypto_api as capi
from crypto_api import cryptd
from crypto_api.completion import crypto_req_await
from crypto_api.testmgr import alg_test

ASYNC = capi.CRYPTO_ALG_ASYNC
KEY = bytes(range(32))
IV = bytes(range(16))


@pytest.fixture
def queue(monkeypatch):
    """``queue(max_qlen, workers)``: a private cryptd queue for this test."""
    def make(max_qlen=cryptd.CRYPTD_MAX_CPU_QLEN, workers=1):
        q = cryptd.CryptdQueue(max_qlen, workers)
        monkeypatch.setattr(cryptd, "_queue", q)
        return q
    return make


def gated_driver(name, gate):
    """A synchronous XOR-with-0x5a skcipher whose every request first calls gate()."""
    def crypt(req):
        gate()
        data = capi.scatterlist.sg_copy_to_bytes(req.src, req.cryptlen)
        capi.scatterlist.sg_copy_from_bytes(req.dst, bytes(b ^ 0x5a for b in data))
    return capi.SkcipherAlg(cra_name=name, cra_driver_name=name + "-gated", cra_priority=10,
                            min_keysize=0, max_keysize=0, setkey=lambda t, k: None,
                            encrypt=crypt, decrypt=crypt)


def request(tfm, n, callback, flags=0, data=None):
    buf = bytearray(n)
    req = capi.skcipher_request_alloc(tfm)
    capi.skcipher_request_set_callback(req, flags, callback, data)
    capi.skcipher_request_set_crypt(req, capi.sg_init_one(buf), capi.sg_init_one(buf), n, None)
    return req, buf


def test_instance_names_priority_flags(proc_records):
    with capi.crypto_alloc_skcipher("cryptd(chacha20-generic)") as tfm:
        alg = tfm.alg
        assert alg.cra_name == "chacha20" and alg.cra_driver_name == "cryptd(chacha20-generic)"
        inner = capi.crypto_alloc_skcipher("chacha20-generic")
        assert alg.cra_priority == inner.alg.cra_priority + 50
        assert alg.cra_flags & ASYNC and not alg.cra_flags & capi.CRYPTO_ALG_INTERNAL
        assert (alg.ivsize, alg.min_keysize, alg.cra_blocksize) == (16, 32, 1)
        rec = next(r for r in proc_records() if r["driver"] == "cryptd(chacha20-generic)")
        assert rec["module"] == "cryptd" and rec["async"] == "yes"
        inner.free()


def test_inner_must_be_sync():
    with pytest.raises(capi.CryptoError):
        capi.crypto_alloc_skcipher("cryptd(cryptd(chacha20-generic))")


def test_one_call_methods_wait_and_match():
    with capi.crypto_alloc_skcipher("cryptd(chacha20-generic)") as a, \
            capi.crypto_alloc_skcipher("chacha20-generic") as s:
        a.setkey(KEY)
        s.setkey(KEY)
        data = bytes(range(256)) * 9
        assert a.encrypt(data, IV) == s.encrypt(data, IV)
        assert a.decrypt(s.encrypt(data, IV), IV) == data


def test_request_completes_through_callback_on_a_worker():
    with capi.crypto_alloc_skcipher("cryptd(chacha20-generic)") as a, \
            capi.crypto_alloc_skcipher("chacha20-generic") as s:
        a.setkey(KEY)
        s.setkey(KEY)
        wait = capi.crypto_init_wait()
        buf = bytearray(1000)
        req = capi.skcipher_request_alloc(a)
        capi.skcipher_request_set_callback(req, 0, capi.crypto_req_done, wait)
        capi.skcipher_request_set_crypt(req, capi.sg_init_one(buf), capi.sg_init_one(buf), 1000,
                                        bytearray(IV))
        assert capi.crypto_skcipher_encrypt(req) == -EINPROGRESS
        assert capi.crypto_wait_req(-EINPROGRESS, wait) == 0
        assert bytes(buf) == s.encrypt(bytes(1000), IV)


def test_backlog_ebusy_enospc(register, queue):
    queue(max_qlen=2, workers=1)
    entered, release = threading.Event(), threading.Event()
    first = [True]

    def gate():
        if first[0]:
            first[0] = False
            entered.set()
            release.wait()
    register(gated_driver("gatedx", gate))
    events = []
    done = threading.Semaphore(0)

    def cb(req, err):
        events.append((req.data, err))
        if err != -EINPROGRESS:
            done.release()
    with capi.crypto_alloc_skcipher("cryptd(gatedx-gated)") as tfm:
        r1, b1 = request(tfm, 16, cb, data="r1")
        assert capi.crypto_skcipher_encrypt(r1) == -EINPROGRESS
        entered.wait()                      # the worker holds r1: the queue is empty
        reqs = [request(tfm, 16, cb, data=n) for n in ("r2", "r3")]
        for r, _ in reqs:
            assert capi.crypto_skcipher_encrypt(r) == -EINPROGRESS
        r4, b4 = request(tfm, 16, cb, data="r4")
        with pytest.raises(capi.CryptoError) as e:         # full, no backlog: not queued
            capi.crypto_skcipher_encrypt(r4)
        assert e.value.errno == ENOSPC
        r5, b5 = request(tfm, 16, cb, flags=capi.CRYPTO_TFM_REQ_MAY_BACKLOG, data="r5")
        assert capi.crypto_skcipher_encrypt(r5) == -EBUSY
        assert cryptd.cryptd_skcipher_queued(tfm)
        release.set()
        for _ in range(4):
            done.acquire()
        # one worker: FIFO; r5 hears that it left the backlog before it completes
        assert events.index(("r5", -EINPROGRESS)) < events.index(("r5", 0))
        assert [e for e in events if e[1] == 0] == [("r1", 0), ("r2", 0), ("r3", 0), ("r5", 0)]
        assert b1 == b5 == bytearray(b"\x5a" * 16) and b4 == bytearray(16)
        assert ("r4", 0) not in events


def test_crypto_wait_req_on_backlogged_request(register, queue):
    queue(max_qlen=0, workers=1)            # everything goes to the backlog
    register(gated_driver("gatedy", lambda: None))
    with capi.crypto_alloc_skcipher("cryptd(gatedy-gated)") as tfm:
        wait = capi.crypto_init_wait()
        req, buf = request(tfm, 32, capi.crypto_req_done, capi.CRYPTO_TFM_REQ_MAY_BACKLOG, wait)
        assert capi.crypto_wait_req(capi.crypto_skcipher_encrypt(req), wait) == 0
        assert buf == bytearray(b"\x5a" * 32)


def test_two_requests_run_concurrently(register, queue):
    """Each request waits inside the driver until the other one is there too:
    with a single worker (or a worker holding a global lock) the barrier
    breaks and both requests fail."""
    queue(workers=2)
    barrier = threading.Barrier(2, timeout=120)
    register(gated_driver("gatedz", barrier.wait))
    with capi.crypto_alloc_skcipher("cryptd(gatedz-gated)") as tfm:
        waits = [capi.crypto_init_wait() for _ in range(2)]
        reqs = [request(tfm, 64, capi.crypto_req_done, data=w) for w in waits]
        for r, _ in reqs:
            assert capi.crypto_skcipher_encrypt(r) == -EINPROGRESS
        assert [capi.crypto_wait_req(-EINPROGRESS, w) for w in waits] == [0, 0]
        assert all(b == bytearray(b"\x5a" * 64) for _, b in reqs)


def test_failure_reaches_the_callback_and_dst_is_untouched():
    from crypto_api import modules
    modules.request_module("xts-aes-aesni")     # the internal alg comes with the module
    if not modules.is_loaded("aesni_intel"):
        pytest.skip("no AES-NI")
    with capi.crypto_alloc_skcipher("cryptd(__xts-aes-aesni)", capi.CRYPTO_ALG_INTERNAL,
                                    capi.CRYPTO_ALG_INTERNAL) as tfm:
        tfm.setkey(bytes(range(64)))
        wait = capi.crypto_init_wait()
        buf = bytearray(b"\x11" * 8)        # XTS refuses fewer than 16 bytes
        req = capi.skcipher_request_alloc(tfm)
        capi.skcipher_request_set_callback(req, 0, capi.crypto_req_done, wait)
        capi.skcipher_request_set_crypt(req, capi.sg_init_one(buf), capi.sg_init_one(buf), 8,
                                        bytearray(16))
        assert capi.crypto_wait_req(capi.crypto_skcipher_encrypt(req), wait) == -EINVAL
        assert buf == bytearray(b"\x11" * 8)


def test_asyncio_await():
    async def main(tfm):
        buf = bytearray(300)
        req = capi.skcipher_request_alloc(tfm)
        capi.skcipher_request_set_crypt(req, capi.sg_init_one(buf), capi.sg_init_one(buf), 300,
                                        bytearray(IV))
        status = await crypto_req_await(req, capi.crypto_skcipher_encrypt)
        return status, bytes(buf)
    with capi.crypto_alloc_skcipher("cryptd(chacha20-generic)") as a, \
            capi.crypto_alloc_skcipher("chacha20-generic") as s:
        a.setkey(KEY)
        s.setkey(KEY)
        assert asyncio.run(main(a)) == (0, s.encrypt(bytes(300), IV))
        assert asyncio.run(main(s)) == (0, s.encrypt(bytes(300), IV))    # sync: at once


def test_selftest_manager_tests_async_algorithms():
    assert alg_test("cryptd(chacha20-generic)", "chacha20") == 0


def test_selftest_manager_catches_a_wrong_async_result(register):
    register(gated_driver("chacha20", lambda: None))       # wrong bytes, named chacha20
    with pytest.raises(Exception):
        alg_test("cryptd(chacha20-gated)", "chacha20")


def test_rfc7539_over_an_async_chacha_child():
    name = "rfc7539(cryptd(chacha20-generic),poly1305-generic)"
    with capi.crypto_alloc_aead(name) as a, \
            capi.crypto_alloc_aead("rfc7539(chacha20-generic,poly1305-generic)") as s:
        assert a.alg.cra_flags & ASYNC
        key, nonce, ad, text = bytes(range(32)), bytes(12), b"header", bytes(range(200)) * 3
        a.setkey(key)
        s.setkey(key)
        sealed = s.encrypt(text, nonce, ad)
        assert a.encrypt(text, nonce, ad) == sealed                 # one-call: waits
        assert a.decrypt(sealed, nonce, ad) == text
        # the request path goes asynchronous and completes through the callback
        buf = bytearray(ad + text + bytes(16))
        req = capi.aead_request_alloc(a)
        wait = capi.crypto_init_wait()
        capi.aead_request_set_callback(req, 0, capi.crypto_req_done, wait)
        capi.aead_request_set_ad(req, len(ad))
        capi.aead_request_set_crypt(req, capi.sg_init_one(buf), capi.sg_init_one(buf), len(text),
                                    bytearray(nonce))
        rc = capi.crypto_aead_encrypt(req)
        assert rc == -EINPROGRESS
        assert capi.crypto_wait_req(rc, wait) == 0
        assert bytes(buf[len(ad):]) == sealed
    assert alg_test(name, "rfc7539(chacha20,poly1305)") == 0

"""The rfc7539 chain over an asynchronous ChaCha20 child (crypto/chacha20poly1305.c, v5.0).

A test-only ``chacha20`` driver (priority 500, CRYPTO_ALG_ASYNC) queues every
request for a worker thread and returns -EINPROGRESS; every other request it
takes into a "backlog" instead (-EBUSY, then a -EINPROGRESS notice, then the
result), as cryptd does with MAY_BACKLOG.  It is registered with the
self-tests off (the skcipher one-call path does not wait for async drivers);
the rfc7539 instance built on it is then self-tested by testmgr at level fast,
through the whole chain.  The instance is ASYNC, each request returns
-EINPROGRESS and its result arrives once through the callback; the one-call
methods wait for it; a sync-only lookup avoids the instance.
"""

import gc
import queue
import threading
from errno import EBUSY, EINPROGRESS

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

import crypto_api as capi
from crypto_api import registry
from crypto_api.algs import chacha_generic as cg
from crypto_api.errors import EBADMSG, CryptoError

RFC = "rfc7539(chacha20,poly1305)"
KEY = bytes(range(32))
NONCE = bytes(range(12))
AD = b"associated data"
PT = bytes(range(256)) * 5 + b"tail"


class Worker:
    """A one-thread workqueue: jobs run in order, away from the caller."""

    def __init__(self):
        self.jobs = queue.Queue()
        self.count = 0
        self.flags = []
        self.threads = set()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self):
        while True:
            job = self.jobs.get()
            if job is None:
                return
            self.threads.add(threading.get_ident())
            job()

    def stop(self):
        self.jobs.put(None)
        self.thread.join()


WORKER = None


def async_crypt(req):
    WORKER.count += 1
    WORKER.flags.append(req.flags)
    backlog = WORKER.count % 2 == 0 and req.flags & capi.CRYPTO_TFM_REQ_MAY_BACKLOG

    def job():
        if backlog:
            req.complete(req, -EINPROGRESS)         # "your backlogged request has started"
        try:
            cg.crypto_chacha_crypt(req)
            err = 0
        except CryptoError as e:
            err = -e.errno
        req.complete(req, err)

    WORKER.jobs.put(job)
    return -EBUSY if backlog else -EINPROGRESS


ASYNC_CHACHA = capi.SkcipherAlg(
    cra_name="chacha20", cra_driver_name="chacha20-async-test", cra_priority=500,
    cra_flags=capi.CRYPTO_ALG_ASYNC, cra_blocksize=1, min_keysize=32, max_keysize=32, ivsize=16,
    chunksize=64, setkey=cg.chacha20_setkey, encrypt=async_crypt, decrypt=async_crypt,
    exit=cg.chacha_exit)


def drop_unused_instances():
    """Unregister idle rfc7539 instances (a sync-only one survives a new async chacha20
    and a lookup would find it), so each test builds its instance afresh."""
    for a in registry.snapshot():
        if a.cra_name == RFC and a.instance is not None and a.cra_refcnt == 1 and not a.is_moribund:
            registry.kill_alg(a)


@pytest.fixture
def async_chacha(register, selftest_level):
    global WORKER
    gc.collect()
    drop_unused_instances()
    WORKER = Worker()
    selftest_level("off")
    register(ASYNC_CHACHA)
    selftest_level("fast")
    yield WORKER
    WORKER.stop()


def test_the_instance_over_an_async_child_is_async_and_passes_its_self_tests(async_chacha, proc_records):
    with capi.crypto_alloc_aead(RFC) as tfm:
        assert tfm.driver_name.startswith("rfc7539(chacha20-async-test,")
        assert tfm.alg.cra_flags & capi.CRYPTO_ALG_ASYNC
        assert tfm.alg.cra_flags & capi.CRYPTO_ALG_TESTED       # every vector, every config
        rec = [r for r in proc_records() if r["driver"] == tfm.driver_name][0]
        assert rec["async"] == "yes" and rec["selftest"] == "passed"
    assert async_chacha.count > 1000                  # the self-test went through the worker
    assert threading.get_ident() not in async_chacha.threads


def test_requests_return_einprogress_and_complete_once_through_the_callback(async_chacha):
    ref = ChaCha20Poly1305(KEY).encrypt(NONCE, PT, AD)
    with capi.crypto_alloc_aead(RFC) as tfm:
        tfm.setkey(KEY)
        for flags in (0, capi.CRYPTO_TFM_REQ_MAY_BACKLOG, capi.CRYPTO_TFM_REQ_MAY_SLEEP):
            for encrypt, inp, out in ((True, PT, ref), (False, ref, PT)):
                src = bytearray(AD + inp)
                dst = bytearray(len(AD) + len(out))
                done = threading.Event()
                calls = []

                def complete(req, err):
                    calls.append((req, err, threading.get_ident()))
                    done.set()

                req = capi.aead_request_alloc(tfm)
                capi.aead_request_set_callback(req, flags, complete, "mine")
                capi.aead_request_set_crypt(req, capi.sg_init_one(src), capi.sg_init_one(dst),
                                            len(inp), bytearray(NONCE))
                capi.aead_request_set_ad(req, len(AD))
                rc = (capi.crypto_aead_encrypt if encrypt else capi.crypto_aead_decrypt)(req)
                assert rc == -EINPROGRESS
                assert done.wait(30)
                assert [(r, e) for r, e, _ in calls] == [(req, 0)]
                assert calls[0][2] != threading.get_ident()      # delivered from the worker
                assert req.data == "mine"
                assert bytes(dst[len(AD):]) == out


def test_a_bad_tag_arrives_as_ebadmsg_through_the_callback(async_chacha):
    with capi.crypto_alloc_aead(RFC) as tfm:
        tfm.setkey(KEY)
        ct = bytearray(tfm.encrypt(PT, NONCE, AD))
        ct[-3] ^= 0x10
        src = bytearray(AD + ct)
        wait = capi.crypto_init_wait()
        req = capi.aead_request_alloc(tfm)
        capi.aead_request_set_callback(req, capi.CRYPTO_TFM_REQ_MAY_BACKLOG, capi.crypto_req_done, wait)
        capi.aead_request_set_crypt(req, capi.sg_init_one(src), capi.sg_init_one(src), len(ct),
                                    bytearray(NONCE))
        capi.aead_request_set_ad(req, len(AD))
        assert capi.crypto_wait_req(capi.crypto_aead_decrypt(req), wait) == -EBADMSG
        out = bytearray(b"\x99" * len(PT))
        with pytest.raises(capi.CryptoError) as e:        # the one-call method waits, then refuses
            tfm.decrypt(bytes(ct), NONCE, AD, out=out)
        assert e.value.errno == EBADMSG and out == b"\x99" * len(PT)


def test_one_call_methods_wait_and_match_the_sync_instance(async_chacha):
    with capi.crypto_alloc_aead(RFC) as tfm, \
            capi.crypto_alloc_aead(RFC, 0, capi.CRYPTO_ALG_ASYNC) as sync:
        assert tfm.alg.cra_flags & capi.CRYPTO_ALG_ASYNC
        assert not sync.alg.cra_flags & capi.CRYPTO_ALG_ASYNC      # a sync-only lookup
        assert "chacha20-async-test" not in sync.driver_name
        for t in (tfm, sync):
            t.setkey(KEY)
        for n in (0, 1, 63, 64, 65, 4096, 5000):
            data = PT[:n] if n <= len(PT) else bytes(n)
            ct = tfm.encrypt(data, NONCE, AD)
            assert ct == sync.encrypt(data, NONCE, AD) == ChaCha20Poly1305(KEY).encrypt(NONCE, data, AD)
            assert tfm.decrypt(ct, NONCE, AD) == data


def test_sub_requests_inherit_the_flags_and_drop_may_sleep_after_an_async_step(async_chacha):
    with capi.crypto_alloc_aead(RFC) as tfm:
        tfm.setkey(KEY)
        for encrypt in (True, False):
            data = PT if encrypt else tfm.encrypt(PT, NONCE, AD)
            async_chacha.flags.clear()
            wait = capi.crypto_init_wait()
            src = bytearray(AD + data + bytes(16))
            req = capi.aead_request_alloc(tfm)
            flags = capi.CRYPTO_TFM_REQ_MAY_SLEEP | capi.CRYPTO_TFM_REQ_MAY_BACKLOG
            capi.aead_request_set_callback(req, flags, capi.crypto_req_done, wait)
            capi.aead_request_set_crypt(req, capi.sg_init_one(src), capi.sg_init_one(src), len(data),
                                        bytearray(NONCE))
            capi.aead_request_set_ad(req, len(AD))
            op = capi.crypto_aead_encrypt if encrypt else capi.crypto_aead_decrypt
            assert capi.crypto_wait_req(op(req), wait) == 0
            # two ChaCha sub-requests (text, key block): the first with the caller's
            # flags, the second after an asynchronous step, so without MAY_SLEEP (5.4+)
            assert async_chacha.flags == [flags, capi.CRYPTO_TFM_REQ_MAY_BACKLOG]
            assert req.flags == flags

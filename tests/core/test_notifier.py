"""The crypto notifier chain and what the registry announces on it.

Mirrors include/linux/notifier.h (priority order, NOTIFY_STOP_MASK), crypto/api.c
(crypto_chain, crypto_probing_notify, crypto_larval_wait), crypto/algapi.c
(crypto_wait_for_test, crypto_alg_tested) and crypto/algboss.c (cryptomgr_notify):
the registry announces CRYPTO_MSG_ALG_REGISTER, CRYPTO_MSG_ALG_LOADED and
CRYPTO_MSG_ALG_REQUEST; the crypto manager answers the first with the self-test
and the last with the template probe.
"""

from errno import EPERM

import pytest

import crypto_api as capi
from crypto_api import algboss, notifier, registry
from crypto_api.errors import EEXIST, EINVAL, ELIBBAD, ENOENT
from crypto_api.notifier import (CRYPTO_MSG_ALG_LOADED, CRYPTO_MSG_ALG_REGISTER,
                                 CRYPTO_MSG_ALG_REQUEST, NOTIFY_DONE, NOTIFY_OK, NOTIFY_STOP,
                                 BlockingNotifierHead, NotifierBlock)
from toy_skciphers import xor_skcipher as toy


def test_the_message_values_are_v5_0s():
    assert (CRYPTO_MSG_ALG_REQUEST, CRYPTO_MSG_ALG_REGISTER, CRYPTO_MSG_ALG_LOADED) == (0, 1, 2)
    assert (notifier.NOTIFY_DONE, notifier.NOTIFY_OK, notifier.NOTIFY_STOP_MASK) == (0, 1, 0x8000)
    assert notifier.NOTIFY_STOP == 0x8001 and notifier.NOTIFY_BAD == 0x8002


# ---------------------------------------------------------------- the chain itself

def _block(calls, tag, priority=0, answer=NOTIFY_DONE):
    def call(nb, msg, data):
        calls.append((tag, msg, data))
        return answer
    return NotifierBlock(call, priority=priority, name=tag)


def test_blocks_run_by_descending_priority_in_registration_order():
    head, calls = BlockingNotifierHead("t"), []
    for tag, prio in (("low", -5), ("a10", 10), ("zero", 0), ("b10", 10)):
        head.register(_block(calls, tag, prio))
    assert head.call_chain(7, "x") == NOTIFY_DONE
    assert [c[0] for c in calls] == ["a10", "b10", "zero", "low"]
    assert all(c[1:] == (7, "x") for c in calls)


def test_the_stop_mask_ends_the_call_and_the_last_answer_is_returned():
    head, calls = BlockingNotifierHead("t"), []
    head.register(_block(calls, "first", 3, NOTIFY_OK))
    head.register(_block(calls, "stopper", 2, NOTIFY_STOP))
    head.register(_block(calls, "never", 1))
    assert head.call_chain(1, None) == NOTIFY_STOP
    assert [c[0] for c in calls] == ["first", "stopper"]
    assert BlockingNotifierHead("empty").call_chain(1, None) == NOTIFY_DONE
    ok_only = BlockingNotifierHead("ok")
    ok_only.register(_block([], "ok", 0, NOTIFY_OK))
    assert ok_only.call_chain(1, None) == NOTIFY_OK


def test_double_registration_is_eexist_and_unknown_blocks_enoent():
    head = BlockingNotifierHead("t")
    nb = _block([], "nb")
    head.register(nb)
    with pytest.raises(capi.CryptoError) as e:
        head.register(nb)
    assert e.value.errno == EEXIST and "nb" in str(e.value)
    head.unregister(nb)
    with pytest.raises(capi.CryptoError) as e:
        head.unregister(nb)
    assert e.value.errno == ENOENT and "nb" in str(e.value)
    with pytest.raises(TypeError):
        head.register(lambda nb, msg, data: 0)


def test_a_callback_may_reenter_and_change_the_chain_without_disturbing_the_call():
    head, calls = BlockingNotifierHead("t"), []
    late = _block(calls, "late", -1)

    def reentrant(nb, msg, data):
        calls.append(("outer", msg, data))
        if msg == 1:
            head.register(late)                      # seen by the next call only
            assert head.call_chain(2, "inner") == NOTIFY_DONE
        return NOTIFY_DONE

    head.register(NotifierBlock(reentrant, name="outer"))
    head.call_chain(1, "outer-call")
    assert calls == [("outer", 1, "outer-call"), ("outer", 2, "inner"), ("late", 2, "inner")]


def test_an_error_in_a_callback_stops_the_chain_and_reaches_the_caller():
    head, calls = BlockingNotifierHead("t"), []

    def refuse(nb, msg, data):
        raise capi.CryptoError(EPERM, "refused")

    head.register(NotifierBlock(refuse, priority=1))
    head.register(_block(calls, "after"))
    with pytest.raises(capi.CryptoError) as e:
        head.call_chain(0, None)
    assert e.value.errno == EPERM and calls == []


# ---------------------------------------------------------------- what the registry announces

def bad_ecb_aes(driver):
    """Claims ecb(aes), for which official vectors exist: it fails its self-test."""
    return toy("ecb(aes)", driver, cra_blocksize=16, min_keysize=16, max_keysize=32)


@pytest.fixture
def subscribe():
    """``subscribe(fn, priority)``: a notifier block on crypto_chain for this test only."""
    blocks = []

    def _subscribe(fn, priority=100):
        nb = NotifierBlock(fn, priority=priority, name=f"test-{len(blocks)}")
        capi.crypto_register_notifier(nb)
        blocks.append(nb)
        return nb

    yield _subscribe
    for nb in blocks:
        if nb in notifier.crypto_chain.blocks():
            capi.crypto_unregister_notifier(nb)


@pytest.fixture
def events(subscribe):
    """Every announcement, seen ahead of the crypto manager, as simple tuples."""
    seen = []

    def record(nb, msg, data):
        listed = [q for q in registry.alg_list if q.cra_driver_name == data.cra_driver_name]
        seen.append((msg, data.cra_name, data.cra_driver_name, data.tested,
                     sum(q.is_test_larval and not q.is_moribund for q in listed)))
        return NOTIFY_DONE

    subscribe(record)
    return seen


def test_the_crypto_manager_is_subscribed_on_import():
    assert algboss.CRYPTOMGR_NOTIFIER in notifier.crypto_chain.blocks()


def test_registration_announces_register_then_loaded(register, events):
    register(toy("ntf-toy", "ntf-toy-drv"))
    mine = [e for e in events if e[2] == "ntf-toy-drv"]
    # REGISTER: not yet tested, listed behind its test larval; LOADED once it passed
    assert mine == [(CRYPTO_MSG_ALG_REGISTER, "ntf-toy", "ntf-toy-drv", False, 1),
                    (CRYPTO_MSG_ALG_LOADED, "ntf-toy", "ntf-toy-drv", True, 0)]


def test_the_self_test_runs_inside_the_register_announcement(register, subscribe):
    seen = []

    def after_manager(nb, msg, data):            # below the manager: it answered with STOP
        seen.append((msg, data.cra_driver_name))
        return NOTIFY_DONE

    subscribe(after_manager, priority=-100)
    register(toy("ntf-toy2", "ntf-toy2-drv"))
    assert (CRYPTO_MSG_ALG_REGISTER, "ntf-toy2-drv") not in seen
    assert (CRYPTO_MSG_ALG_LOADED, "ntf-toy2-drv") in seen
    assert next(a for a in registry.snapshot() if a.cra_driver_name == "ntf-toy2-drv").tested


def test_a_failed_self_test_is_not_announced_loaded(register, events):
    register(bad_ecb_aes("ntf-ecb-aes-bad"))
    mine = [e[0] for e in events if e[2] == "ntf-ecb-aes-bad"]
    assert mine == [CRYPTO_MSG_ALG_REGISTER]
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("ntf-ecb-aes-bad")
    assert e.value.errno == ELIBBAD


def test_a_manager_of_our_own_gives_the_verdict(register, subscribe):
    """Answering REGISTER with NOTIFY_STOP replaces the crypto manager's test:
    the verdict is whatever crypto_alg_tested is told."""

    def verdict(nb, msg, data):
        if msg == CRYPTO_MSG_ALG_REGISTER and data.cra_driver_name.startswith("ntf-verdict-"):
            registry.crypto_alg_tested(data.cra_driver_name,
                                       EINVAL if data.cra_driver_name.endswith("no") else 0)
            return NOTIFY_STOP
        return NOTIFY_DONE

    subscribe(verdict)
    register(toy("ntf-verdict", "ntf-verdict-no"))          # no vectors: the manager would pass it
    register(bad_ecb_aes("ntf-verdict-yes"))                # the manager would fail it
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("ntf-verdict-no")
    assert e.value.errno == ELIBBAD
    with capi.crypto_alloc_skcipher("ntf-verdict-yes") as tfm:
        assert tfm.alg.tested


def test_without_the_crypto_manager_nothing_is_tested_or_built(register):
    calls = []
    register(capi.Template(name="ntfnomgr", create=lambda tmpl, tb: calls.append(tb)))
    algboss.cryptomgr_exit()
    try:
        # the kernel without cryptomgr: crypto_alg_tested(name, 0) for everything
        register(bad_ecb_aes("ntf-nomgr-ecb-aes"))
        assert next(a for a in registry.snapshot() if a.cra_driver_name == "ntf-nomgr-ecb-aes").tested
        with pytest.raises(capi.CryptoError) as e:
            capi.crypto_alloc_skcipher("ntfnomgr(xchacha12)")
        assert e.value.errno == ENOENT and calls == []
    finally:
        algboss.cryptomgr_init()
    with pytest.raises(capi.CryptoError):
        capi.crypto_alloc_skcipher("ntfnomgr(xchacha12)")     # the template registers nothing
    assert len(calls) == 1                                    # but the manager called it


def test_a_subscriber_that_refuses_a_registration_leaves_nothing_listed(register, subscribe):
    def refuse(nb, msg, data):
        if msg == CRYPTO_MSG_ALG_REGISTER and data.cra_driver_name == "ntf-refused":
            raise capi.CryptoError(EPERM, "ntf-refused: not today")
        return NOTIFY_DONE

    nb = subscribe(refuse)
    desc = toy("ntf-refused-name", "ntf-refused")
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_register_skcipher(desc)
    assert e.value.errno == EPERM
    assert not [a for a in registry.snapshot() if a.cra_driver_name == "ntf-refused"]
    assert not [a for a in registry.snapshot() if a.is_larval]
    capi.crypto_unregister_notifier(nb)
    register(desc)                            # the refusal left no trace: it registers now
    assert capi.crypto_has_alg("ntf-refused")


def test_a_lookup_miss_announces_request_with_its_larval(subscribe):
    seen = []

    def watch(nb, msg, data):
        if msg == CRYPTO_MSG_ALG_REQUEST:
            seen.append((data.is_larval, data.cra_name, data.cra_flags & capi.CRYPTO_ALG_TYPE_MASK,
                         data.larval_mask & capi.CRYPTO_ALG_TYPE_MASK, data in registry.alg_list))
        return NOTIFY_DONE

    subscribe(watch)
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("ntfnosuch(xchacha12)")
    assert e.value.errno == ENOENT
    assert seen == [(True, "ntfnosuch(xchacha12)", capi.CRYPTO_ALG_TYPE_SKCIPHER,
                     capi.CRYPTO_ALG_TYPE_BLKCIPHER_MASK, True)]
    assert not [a for a in registry.snapshot() if a.is_larval]


def test_a_request_answered_by_a_subscriber_fulfils_the_lookup(register, subscribe):
    """Whoever answers REQUEST may set the larval's adult, as cryptomgr's probe does."""
    target = register(toy("ntf-real", "ntf-real-drv"))

    def alias(nb, msg, data):
        if msg == CRYPTO_MSG_ALG_REQUEST and data.cra_name == "ntf-alias(x)":
            data.adult = registry.find_registered(target)
            return NOTIFY_STOP
        return NOTIFY_DONE

    subscribe(alias)
    with capi.crypto_alloc_skcipher("ntf-alias(x)") as tfm:
        assert tfm.driver_name == "ntf-real-drv"

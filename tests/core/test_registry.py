"""Registry rules: registration checks, conflicts, lookup, TESTED gating, refcounts.

Mirrors crypto/algapi.c (crypto_check_alg, __crypto_register_alg,
crypto_unregister_alg) and crypto/api.c (__crypto_alg_lookup, the two-pass
lookup, INTERNAL hiding).  Drivers here are written against the public
driver interface (the README's "Write your own driver");
the ChaCha20 one computes its keystream with the ``cryptography`` package so
that it is independent of this project's C code.
"""

import gc

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

import crypto_api as capi
from crypto_api.errors import EBUSY, EEXIST, EINVAL, ELIBBAD, ENAMETOOLONG, ENOENT
from crypto_api.testmgr.vectors import load_json
from toy_skciphers import xor_skcipher as toy

KEY = bytes(range(32))
IV16 = bytes(range(100, 116))


# ---------------------------------------------------------------- test drivers

def chacha20_driver(driver, priority, corrupt=False, name="chacha20", flags=0):
    """ChaCha20 (kernel IV layout) over the walk, keystream from ``cryptography``.

    ``corrupt`` flips one keystream bit: such a driver must fail its self-test.
    """

    def setkey(tfm, key):
        capi.crypto_skcipher_ctx(tfm).key = bytes(key)

    def crypt(req):
        ctx = capi.crypto_skcipher_ctx(capi.crypto_skcipher_reqtfm(req))
        stream = Cipher(algorithms.ChaCha20(ctx.key, bytes(req.iv[:16])), mode=None).encryptor()
        walk = capi.skcipher_walk_virt(req, atomic=False)
        while walk.nbytes:
            n = walk.nbytes if walk.nbytes == walk.total else walk.nbytes - walk.nbytes % walk.stride
            out = bytearray(stream.update(bytes(walk.src[:n])))
            if corrupt and out:
                out[-1] ^= 0x80
            walk.dst[:n] = out
            capi.skcipher_walk_done(walk, walk.nbytes - n)

    return capi.SkcipherAlg(
        cra_name=name, cra_driver_name=driver, cra_priority=priority, cra_flags=flags,
        cra_blocksize=1, min_keysize=32, max_keysize=32, ivsize=16, chunksize=64,
        setkey=setkey, encrypt=crypt, decrypt=crypt)


def peer_chacha20(key, iv, data):
    return Cipher(algorithms.ChaCha20(key, iv), mode=None).encryptor().update(data)


def driver_of(name, type=0, mask=0):
    with capi.crypto_alloc_skcipher(name, type, mask) as tfm:
        return tfm.driver_name


def record(proc_records, driver):
    found = [r for r in proc_records() if r["driver"] == driver]
    return found[0] if found else None


# ---------------------------------------------------------------- lookup order

def test_highest_priority_wins_whatever_the_order(register):
    register(toy("regtest-prio", "regtest-prio-high", 300))
    register(toy("regtest-prio", "regtest-prio-low", 200))
    assert driver_of("regtest-prio") == "regtest-prio-high"


def test_ties_go_to_the_most_recent_registration(register):
    a = register(toy("regtest-tie", "regtest-tie-a", 150))
    assert driver_of("regtest-tie") == "regtest-tie-a"
    b = register(toy("regtest-tie", "regtest-tie-b", 150))
    assert driver_of("regtest-tie") == "regtest-tie-b"
    capi.crypto_unregister_skcipher(b)
    assert driver_of("regtest-tie") == "regtest-tie-a"
    register(toy("regtest-tie", "regtest-tie-c", 150))
    assert driver_of("regtest-tie") == "regtest-tie-c"
    capi.crypto_unregister_skcipher(a)
    assert driver_of("regtest-tie") == "regtest-tie-c"


def test_exact_driver_name_beats_priority(register):
    register(toy("regtest-exact", "regtest-exact-low", 1))
    register(toy("regtest-exact", "regtest-exact-high", 1000))
    assert driver_of("regtest-exact") == "regtest-exact-high"
    assert driver_of("regtest-exact-low") == "regtest-exact-low"


def test_lookup_filters_by_type(register):
    register(toy("regtest-type", "regtest-type-drv"))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_shash("regtest-type")
    assert e.value.errno == ENOENT and "regtest-type" in str(e.value)
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_cipher("regtest-type-drv")
    assert e.value.errno == ENOENT


def test_unknown_name_is_enoent():
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("regtest-no-such-alg")
    assert e.value.errno == ENOENT
    assert "regtest-no-such-alg" in str(e.value)
    assert not capi.crypto_has_alg("regtest-no-such-alg")


# ---------------------------------------------------------------- conflicts

def test_names_and_driver_names_share_one_namespace(register, proc_records):
    register(toy("regtest-ns", "regtest-ns-drv"))
    # new cra_name == an existing driver name
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_register_skcipher(toy("regtest-ns-drv", "regtest-ns-other"))
    assert e.value.errno == EEXIST
    assert "regtest-ns-other" in str(e.value) and "regtest-ns-drv" in str(e.value)
    # new driver name == an existing cra_name
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_register_skcipher(toy("regtest-unrelated", "regtest-ns"))
    assert e.value.errno == EEXIST and "regtest-ns" in str(e.value)
    assert record(proc_records, "regtest-ns-other") is None
    assert record(proc_records, "regtest-ns") is None


def test_duplicate_driver_names_are_refused(register):
    register(toy("regtest-dup", "regtest-dup-drv", 100))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_register_skcipher(toy("regtest-dup", "regtest-dup-drv", 500))
    assert e.value.errno == EEXIST and "regtest-dup-drv" in str(e.value)
    assert driver_of("regtest-dup") == "regtest-dup-drv"


def test_the_same_descriptor_cannot_register_twice(register):
    alg = register(toy("regtest-twice", "regtest-twice-drv"))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_register_skcipher(alg)
    assert e.value.errno == EEXIST and "regtest-twice-drv" in str(e.value)


def test_same_cra_name_with_different_drivers_is_normal(register):
    register(toy("regtest-many", "regtest-many-1", 10))
    register(toy("regtest-many", "regtest-many-2", 20))
    register(toy("regtest-many", "regtest-many-3", 15))
    assert driver_of("regtest-many") == "regtest-many-2"


def test_unregistering_an_unregistered_alg_is_enoent():
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_unregister_skcipher(toy("regtest-never", "regtest-never-drv"))
    assert e.value.errno == ENOENT and "regtest-never-drv" in str(e.value)


# ---------------------------------------------------------------- crypto_check_alg

@pytest.mark.parametrize("field, value, words", [
    ("cra_alignmask", 5, "alignmask"),
    ("cra_alignmask", 255, "alignmask"),
    ("cra_blocksize", 161, "blocksize"),
    ("cra_priority", -1, "priority"),
    ("min_keysize", 33, "key sizes"),
    ("ivsize", 4097, "ivsize"),
])
def test_registration_checks(field, value, words):
    alg = toy("regtest-check", "regtest-check-drv", **{field: value})
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_register_skcipher(alg)
    assert e.value.errno == EINVAL
    assert "regtest-check-drv" in str(e.value) and words in str(e.value)
    assert not capi.crypto_has_alg("regtest-check-drv")


def test_a_plain_cipher_is_limited_to_16_byte_blocks():
    alg = capi.CipherAlg(cra_name="regtest-bigblock", cra_driver_name="regtest-bigblock-drv",
                         cra_blocksize=32, min_keysize=16, max_keysize=16,
                         setkey=lambda tfm, k: None, encrypt=lambda tfm, d, s: None,
                         decrypt=lambda tfm, d, s: None)
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_register_cipher(alg)
    assert e.value.errno == EINVAL and "regtest-bigblock-drv" in str(e.value)


def test_a_missing_callback_is_refused():
    alg = capi.SkcipherAlg(cra_name="regtest-nocb", cra_driver_name="regtest-nocb-drv",
                           setkey=lambda tfm, k: None, encrypt=lambda req: None)
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_register_skcipher(alg)
    assert e.value.errno == EINVAL and "decrypt" in str(e.value)


def test_over_long_driver_name_is_refused():
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_register_skcipher(toy("regtest-long", "d" * 128))
    assert e.value.errno == ENAMETOOLONG and "128" in str(e.value)


def test_a_missing_driver_name_becomes_name_generic(register):
    register(toy("regtest-nodrv", ""))
    assert driver_of("regtest-nodrv") == "regtest-nodrv-generic"


def test_chunksize_and_walksize_defaults(register):
    register(toy("regtest-sizes", "regtest-sizes-a", cra_blocksize=8))
    register(toy("regtest-sizes2", "regtest-sizes-b", chunksize=64))
    with capi.crypto_alloc_skcipher("regtest-sizes-a") as tfm:
        assert (tfm.blocksize, tfm.chunksize, tfm.walksize) == (8, 8, 8)
    with capi.crypto_alloc_skcipher("regtest-sizes-b") as tfm:
        assert (tfm.blocksize, tfm.chunksize, tfm.walksize) == (1, 64, 64)


# ---------------------------------------------------------------- TESTED gating

def test_a_driver_with_a_wrong_keystream_is_never_handed_out(register, proc_records):
    # A tested chacha20 must exist beforehand: with none loaded, the lookup
    # stops at the failed one (ELIBBAD) before modules are requested, as in
    # the kernel (see the ecb(aes) test below).
    driver_of("chacha20-generic")
    # Asking for TESTED in the descriptor changes nothing: it is cleared at registration.
    register(chacha20_driver("regtest-chacha20-bad", 9000, corrupt=True,
                             flags=capi.CRYPTO_ALG_TESTED))
    rec = record(proc_records, "regtest-chacha20-bad")
    assert rec is not None and rec["selftest"] == "unknown"
    # by cra_name: a lower-priority tested driver, never the failed one
    with capi.crypto_alloc_skcipher("chacha20") as tfm:
        assert tfm.driver_name != "regtest-chacha20-bad"
        assert tfm.alg.cra_priority < 9000
        tfm.setkey(KEY)
        data = bytes(300)
        assert tfm.encrypt(data, IV16) == peer_chacha20(KEY, IV16, data)
    # by driver name: ELIBBAD
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("regtest-chacha20-bad")
    assert e.value.errno == ELIBBAD and "regtest-chacha20-bad" in str(e.value)
    assert not capi.crypto_has_alg("regtest-chacha20-bad")


def test_a_failed_driver_that_is_the_only_one_of_its_name_gives_elibbad(register, monkeypatch):
    # a name with official vectors (the ecb(aes) ones) and no other implementation
    from crypto_api.testmgr import descs
    entry = descs.AlgTestDesc("regtest-ecb-aes", "skcipher", "ecb(aes)")
    monkeypatch.setattr(descs, "ALG_TEST_DESCS",
                        tuple(sorted(descs.ALG_TEST_DESCS + (entry,), key=lambda d: d.alg.encode())))
    register(toy("regtest-ecb-aes", "regtest-ecb-aes-bad", 100, cra_blocksize=16,
                 min_keysize=16, max_keysize=32))
    for name in ("regtest-ecb-aes", "regtest-ecb-aes-bad"):
        with pytest.raises(capi.CryptoError) as e:
            capi.crypto_alloc_sync_skcipher(name)
        assert e.value.errno == ELIBBAD and "regtest-ecb-aes-bad" in str(e.value)


def test_a_driver_without_test_vectors_is_marked_passed(register, proc_records):
    register(toy("regtest-novec", "regtest-novec-drv"))
    assert record(proc_records, "regtest-novec-drv")["selftest"] == "passed"


def test_selftests_off_marks_everything_passed(register, selftest_level, proc_records):
    selftest_level("off")
    register(chacha20_driver("regtest-chacha20-untested", 1, corrupt=True))
    assert record(proc_records, "regtest-chacha20-untested")["selftest"] == "passed"


# ---------------------------------------------------------------- INTERNAL

def test_internal_algorithms_are_hidden_unless_asked_for(register):
    register(chacha20_driver("__regtest-chacha20-internal", 9500, flags=capi.CRYPTO_ALG_INTERNAL))
    register(toy("regtest-only-internal", "regtest-only-internal-drv",
                 flags=capi.CRYPTO_ALG_INTERNAL))
    INTERNAL = capi.CRYPTO_ALG_INTERNAL
    assert driver_of("chacha20") != "__regtest-chacha20-internal"
    for name in ("__regtest-chacha20-internal", "regtest-only-internal",
                 "regtest-only-internal-drv"):
        with pytest.raises(capi.CryptoError) as e:
            capi.crypto_alloc_skcipher(name)
        assert e.value.errno == ENOENT
    # type or mask mentioning INTERNAL makes them visible (or excludes them explicitly)
    assert driver_of("chacha20", INTERNAL, INTERNAL) == "__regtest-chacha20-internal"
    assert driver_of("chacha20", INTERNAL, 0) == "__regtest-chacha20-internal"
    assert driver_of("__regtest-chacha20-internal", INTERNAL, 0) == "__regtest-chacha20-internal"
    assert driver_of("regtest-only-internal", INTERNAL, INTERNAL) == "regtest-only-internal-drv"
    assert driver_of("chacha20", 0, INTERNAL) != "__regtest-chacha20-internal"
    with pytest.raises(capi.CryptoError):
        capi.crypto_alloc_skcipher("regtest-only-internal", 0, INTERNAL)


# ---------------------------------------------------------------- a driver of the public interface

def test_a_public_interface_driver_wins_loses_and_disappears(register):
    drv = register(chacha20_driver("regtest-chacha20-peer", 8000))
    with capi.crypto_alloc_skcipher("chacha20") as tfm:
        assert tfm.driver_name == "regtest-chacha20-peer"
        for v in load_json("chacha20.json")["vectors"][:12]:
            tfm.setkey(bytes.fromhex(v["key"]))
            iv = bytes.fromhex(v["kernel_iv"])
            assert tfm.encrypt(bytes.fromhex(v["plaintext"]), iv).hex() == v["ciphertext"]
    assert driver_of("chacha20-generic") == "chacha20-generic"
    capi.crypto_unregister_skcipher(drv)
    assert driver_of("chacha20") != "regtest-chacha20-peer"
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("regtest-chacha20-peer")
    assert e.value.errno == ENOENT


# ---------------------------------------------------------------- refcounts

def refcnt(proc_records, driver):
    return int(record(proc_records, driver)["refcnt"])


def test_refcounts_follow_live_transforms(register, proc_records):
    alg = register(toy("regtest-ref", "regtest-ref-drv"))
    assert refcnt(proc_records, "regtest-ref-drv") == 1
    t1 = capi.crypto_alloc_skcipher("regtest-ref")
    t2 = capi.crypto_alloc_skcipher("regtest-ref-drv")
    assert refcnt(proc_records, "regtest-ref-drv") == 3
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_unregister_skcipher(alg)
    assert e.value.errno == EBUSY and "regtest-ref-drv" in str(e.value)
    # the refusal changed nothing: still listed, still usable
    t1.setkey(b"\x0f")
    assert t1.encrypt(b"\x00\xf0") == b"\x0f\xff"
    capi.crypto_free_skcipher(t1)
    capi.crypto_free_skcipher(t1)          # freeing twice is harmless
    assert refcnt(proc_records, "regtest-ref-drv") == 2
    with t2:
        pass
    assert refcnt(proc_records, "regtest-ref-drv") == 1
    capi.crypto_unregister_skcipher(alg)
    assert record(proc_records, "regtest-ref-drv") is None


def test_a_dropped_transform_is_released_by_gc(register, proc_records):
    alg = register(toy("regtest-gc", "regtest-gc-drv"))
    tfm = capi.crypto_alloc_skcipher("regtest-gc")
    assert refcnt(proc_records, "regtest-gc-drv") == 2
    del tfm
    gc.collect()
    assert refcnt(proc_records, "regtest-gc-drv") == 1
    capi.crypto_unregister_skcipher(alg)


def test_a_failed_allocation_holds_no_reference(register, proc_records):
    def bad_init(tfm):
        raise capi.CryptoError(EINVAL, "regtest-initfail-drv: init refused")

    register(toy("regtest-initfail", "regtest-initfail-drv", init=bad_init))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("regtest-initfail")
    assert e.value.errno == EINVAL
    assert refcnt(proc_records, "regtest-initfail-drv") == 1

"""The hctr2 and hctr2_base templates through the public API (crypto/hctr2.c, 6.0 to 6.18).

The kernel's vectors both ways on the generic and the best instance, a
cross-check against HCTR2 written from the paper (tests/hctr2_ref.py, over
cryptography's AES) on random keys, tweaks, lengths and scatterlist layouts
(in place too), the kernel's names, priority formula and refusals.
"""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api.algs.hctr2 import hctr2_priority
from crypto_api.errors import EINVAL, ENOENT
from crypto_api.testmgr import alg_test
from crypto_api.testmgr.vectors import load_json
from hctr2_ref import hctr2 as ref_hctr2
from sglayout import gather, layouts, outside, scatter

VECS = load_json("aes-hctr2.json")["vectors"]
GENERIC = "hctr2_base(xctr(aes-generic),polyval-generic)"
NAMES = (GENERIC, "hctr2(aes)")


@pytest.fixture(scope="module")
def tfms():
    ts = {n: capi.crypto_alloc_skcipher(n) for n in NAMES}
    yield ts
    for t in ts.values():
        t.free()


def _fields(v):
    return (bytes.fromhex(v[f]) for f in ("key", "kernel_iv", "plaintext", "ciphertext"))


def test_the_reference_agrees_with_the_official_vectors():
    for v in VECS:
        k, tw, p, c = _fields(v)
        assert ref_hctr2(k, tw, p) == c and ref_hctr2(k, tw, c, encrypt=False) == p


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("vec", VECS, ids=[v["id"] for v in VECS])
def test_official_vector_both_ways(tfms, name, vec):
    t = tfms[name]
    k, tw, p, c = _fields(vec)
    t.setkey(k)
    assert t.encrypt(p, tw) == c
    assert t.decrypt(c, tw) == p


def test_names_fields_and_priority():
    with capi.crypto_alloc_skcipher(GENERIC) as t:
        a = t.alg
        assert (a.cra_name, a.cra_driver_name) == ("hctr2(aes)", GENERIC)
        assert (t.ivsize, t.blocksize, a.min_keysize, a.max_keysize) == (32, 16, 16, 32)
        # the block cipher is the best "aes" registered (the name inside xctr's cra_name)
        x, b, h = (s.alg for s in a.instance.spawns)
        assert (x.cra_driver_name, b.cra_name, h.cra_driver_name) == ("xctr(aes-generic)", "aes",
                                                                      "polyval-generic")
        assert a.cra_priority == (2 * x.cra_priority + 4 * h.cra_priority + b.cra_priority) // 7
    with capi.crypto_alloc_skcipher("hctr2(aes)") as t:      # hctr2(X) = hctr2_base(xctr(X),polyval)
        x, b, h = (s.alg for s in t.alg.instance.spawns)
        assert (x.cra_name, b.cra_name, h.cra_name) == ("xctr(aes)", "aes", "polyval")
        assert t.driver_name == f"hctr2_base({x.cra_driver_name},{h.cra_driver_name})"


def test_the_priority_formulas():
    # 6.0-6.18: the hash weighted twice (it runs twice); 6.19: POLYVAL is a library
    assert hctr2_priority(400, 200, 300) == (800 + 800 + 300) // 7 == 271
    assert hctr2_priority(100, 100, 100) == 100
    assert hctr2_priority(400, 200, 300, since_6_19=True) == (800 + 300) // 3 == 366


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
       tweak=st.binary(min_size=32, max_size=32), n=st.integers(16, 600),
       name=st.sampled_from(NAMES), inplace=st.booleans(), enc=st.booleans(), data=st.data())
def test_random_inputs_and_layouts_match_the_paper(tfms, key, tweak, n, name, inplace, enc, data):
    msg = data.draw(st.binary(min_size=n, max_size=n))
    t = tfms[name]
    t.setkey(key)
    want = ref_hctr2(key, tweak, msg, encrypt=enc)
    layout = data.draw(layouts(n))
    src, sbufs = scatter(msg, layout, b"\xa5")
    if inplace:
        dst, dbufs, dlayout = src, sbufs, layout
    else:
        dlayout = data.draw(layouts(n))
        dst, dbufs = scatter(bytes(n), dlayout, b"\x5a")
    around = outside(dbufs, dlayout)
    req = capi.skcipher_request_alloc(t)
    capi.skcipher_request_set_crypt(req, src, dst, n, bytearray(tweak))
    (capi.crypto_skcipher_encrypt if enc else capi.crypto_skcipher_decrypt)(req)
    assert gather(dbufs, dlayout) == want
    assert outside(dbufs, dlayout) == around


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.binary(min_size=32, max_size=32), tweak=st.binary(min_size=32, max_size=32),
       msg=st.binary(min_size=16, max_size=100), pos=st.integers(0, 99))
def test_one_changed_bit_changes_the_whole_ciphertext_block_structure(tfms, key, tweak, msg, pos):
    """Wide block: flipping one plaintext bit changes the first block and the
    XCTR output (both depend on every byte), unlike a narrow-block mode."""
    t = tfms[GENERIC]
    t.setkey(key)
    flipped = bytearray(msg)
    flipped[pos % len(msg)] ^= 1
    a, b = t.encrypt(msg, tweak), t.encrypt(bytes(flipped), tweak)
    assert a[:16] != b[:16]
    # the rest is XCTR's keystream under a new IV: a tail of n bytes repeats by
    # chance with probability 2^-8n, so only tails of a block or more are asserted
    assert len(msg) < 32 or a[16:] != b[16:]


@pytest.mark.parametrize("n", [0, 1, 15])
def test_messages_shorter_than_one_block_are_einval(tfms, n):
    t = tfms[GENERIC]
    t.setkey(bytes(16))
    for op in (t.encrypt, t.decrypt):
        with pytest.raises(capi.CryptoError) as e:
            op(bytes(n), bytes(32))
        assert e.value.errno == EINVAL and GENERIC in str(e.value) and "16" in str(e.value)


@pytest.mark.parametrize("n", [0, 8, 15, 33, 64])
def test_a_key_aes_does_not_take_is_einval(n):
    with capi.crypto_alloc_skcipher(GENERIC) as t:
        with pytest.raises(capi.CryptoError) as e:
            t.setkey(bytes(n))
        assert e.value.errno == EINVAL


@pytest.mark.parametrize("name, errno, culprit", [
    ("hctr2_base(ctr(aes-generic),polyval-generic)", EINVAL, "not an xctr"),
    ("hctr2_base(xctr(aes-generic),sha256-generic)", EINVAL, "polyval"),
    ("hctr2_base(xctr(aes-generic))", ENOENT, "parameter 2"),
    ("hctr2_base(xctr(aes),polyval,aes)", EINVAL, "2 parameters"),
    ("hctr2(aes,aes)", EINVAL, "1 parameter"),
    ("hctr2(regtest-nosuchcipher)", ENOENT, "regtest-nosuchcipher"),
])
def test_bad_inner_algorithms(name, errno, culprit):
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher(name)
    assert e.value.errno == errno
    assert culprit in str(e.value)


def test_the_self_test_manager_passes_the_generic_and_the_best_instance():
    for name in NAMES:
        with capi.crypto_alloc_skcipher(name) as t:
            assert alg_test(t.driver_name, "hctr2(aes)") == 0


def _first_available(alloc, *names):
    """The first of ``names`` this machine has (the others: ENOENT)."""
    for name in names:
        try:
            with alloc(name) as t:
                return t.driver_name
        except capi.CryptoError as e:
            if e.errno != ENOENT:
                raise
    raise AssertionError(f"none of {names}")


def test_full_self_tests_fuzz_the_best_instance_against_the_generic_one(selftest_level):
    """The entry's generic_driver is the reference the full tests compare
    random messages against (as testmgr.c's .generic_driver, which the kernel
    needs here: hctr2(aes-generic) cannot be instantiated); the instance
    tested is built over the SIMD drivers this machine has."""
    from crypto_api import testmgr
    assert testmgr.find_test("hctr2(aes)").generic_driver == GENERIC
    saved = testmgr.get_fuzz_iterations(), testmgr.get_fuzz_seed()
    selftest_level("full")
    testmgr.set_fuzz_iterations(30)
    testmgr.set_fuzz_seed(1)
    try:
        x = _first_available(capi.crypto_alloc_skcipher, "xctr-aes-aesni", "xctr(aes-aesni)",
                             "xctr(aes-generic)")
        h = _first_available(capi.crypto_alloc_shash, "polyval-clmulni", "polyval-generic")
        best = f"hctr2_base({x},{h})"
        if best == GENERIC:
            pytest.skip("only the generic drivers here: nothing to compare")
        with capi.crypto_alloc_skcipher(best) as t:
            assert t.driver_name == best
            assert alg_test(best, "hctr2(aes)") == 0
    finally:
        testmgr.set_fuzz_iterations(saved[0])
        testmgr.set_fuzz_seed(saved[1])

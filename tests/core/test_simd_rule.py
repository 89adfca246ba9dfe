"""One place for the SIMD-or-generic decision (crypto_api.simd_rule): a
driver's declared threshold is what its request path, its contiguous path and
its direct path (the C entry of crypto_api/direct_call.c, where built) all
follow."""

import os
import types

import attrs
import pytest

import crypto_api as capi
from crypto_api import direct as direct_path
from crypto_api.algs import chacha_generic as cg
from crypto_api.fpu import DECLINE, GENERIC, SIMD
from crypto_api.simd_rule import ANY_LENGTH, SimdRule, simd_rule_of
from crypto_api.scatterlist import sg_init_one
from alloc_or_skip import alloc_or_skip

KEY = bytes(range(32))
IV = bytes(range(32))


def test_the_rule_asks_the_fpu_model_only_above_its_threshold():
    rule = SimdRule(above=100)
    assert capi.simd_choice() == SIMD
    assert rule.choice(100) == GENERIC and rule.choice(101) == SIMD
    with capi.fpu_trace():
        assert rule.choice(100) == GENERIC      # not asked: no decline either
        assert rule.choice(101) == DECLINE
    with capi.simd_disabled():
        assert rule.choice(101) == GENERIC
    only = SimdRule(above=100, only=True)
    with capi.fpu_trace():
        assert only.choice(1) == DECLINE        # no generic code: every length asks
    assert simd_rule_of(capi.SkcipherAlg(cra_name="x")) is ANY_LENGTH


@pytest.fixture
def simd_pair(register, selftest_level):
    """(the xchacha12-simd tfm, the same driver declaring SIMD only above 256 bytes)."""
    base = alloc_or_skip(capi.crypto_alloc_skcipher, "xchacha12-simd", KEY)
    assert base.alg.simd_rule == cg.CHACHA_SIMD_RULE == SimdRule(above=64)
    selftest_level("off")
    register(attrs.evolve(base.alg.desc, cra_driver_name="xchacha12-simd-above256", cra_priority=10,
                          simd_rule=SimdRule(above=256)))
    moved = capi.crypto_alloc_skcipher("xchacha12-simd-above256")
    moved.setkey(KEY)
    yield base, moved
    moved.free()
    base.free()


def _sections(fn):
    with capi.fpu_trace() as tr:
        out = fn()
    return out, [s.nbytes for s in tr.sections]


def _request(tfm, data):
    out = bytearray(len(data))
    req = capi.skcipher_request_alloc(tfm)
    capi.skcipher_request_set_crypt(req, sg_init_one(bytes(data)), sg_init_one(out), len(data), bytearray(IV))
    capi.crypto_skcipher_encrypt(req)
    return bytes(out)


@pytest.mark.parametrize("n", [200, 300])
def test_the_request_and_linear_paths_follow_the_declared_threshold(simd_pair, n):
    base, moved = simd_pair
    data = os.urandom(n)
    with capi.crypto_alloc_skcipher("xchacha12-generic") as ref:
        ref.setkey(KEY)
        want = ref.encrypt(data, IV)
    for path in (_request, lambda tfm, d: tfm.encrypt(d, IV)):   # request; direct, else contiguous
        out, base_sections = _sections(lambda: path(base, data))
        assert out == want and base_sections == [n]           # 64 < n: SIMD, one section
        out, moved_sections = _sections(lambda: path(moved, data))
        assert out == want
        assert moved_sections == ([] if n <= 256 else [n])    # SIMD only above 256 bytes


def test_the_direct_path_follows_the_declared_threshold(simd_pair):
    base, moved = simd_pair
    if direct_path._skcipher_call is None:
        pytest.skip("crypto_api._direct_call is not built")
    for tfm in (base, moved):
        tfm.setkey(KEY)                                         # rebuilds the direct path
        assert not isinstance(tfm._direct_enc, types.FunctionType)     # the C entry
    with capi.fpu_trace() as tr:
        # while a trace records, a length the rule sends to SIMD declines (so the
        # modelled path can make the sections); one it keeps generic is done at once
        assert base._direct_enc(bytes(65), IV, None) is None
        assert base._direct_enc(bytes(64), IV, None) is not None
        assert moved._direct_enc(bytes(65), IV, None) is not None
        assert moved._direct_enc(bytes(256), IV, None) is not None
        assert moved._direct_enc(bytes(257), IV, None) is None
    assert tr.sections == []

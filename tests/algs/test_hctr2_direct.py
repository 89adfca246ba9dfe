"""HCTR2's one-call path (algs/hctr2_direct.py over algs/hctr2_core.c).

Instances whose children offer C entries (BLOCK, XCTR, POLYVAL) run a
message in one C call from ``tfm.encrypt`` (the direct path), the contiguous
entry and one-buffer requests; they must give the bytes of the paper's HCTR2
(tests/hctr2_ref.py) and of the composed path (algs/hctr2.py's
``hctr2_crypt``) at every length, in place, from misaligned buffers.  A
plug-in POLYVAL that offers no entries leaves the instance on the composed
path, with the same bytes; an FPU trace sees the composed path's sections;
refusals are unchanged.
"""

import hashlib
import os

import attrs
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api.algs import hctr2 as hctr2_mod
from crypto_api.algs import polyval_generic
from crypto_api.cinterface import Kind, entries
from crypto_api.errors import EINVAL
from crypto_api.fpu import fpu_trace, simd_disabled
from hctr2_ref import hctr2 as ref_hctr2

GENERIC = "hctr2_base(xctr(aes-generic),polyval-generic)"
PLUGIN_HASH = "polyval-regtest-noentries"
PLUGIN = f"hctr2_base(xctr(aes-generic),{PLUGIN_HASH})"
NAMES = (GENERIC, "hctr2(aes)", PLUGIN)


@pytest.fixture(scope="module")
def tfms():
    """The generic instance, the best one, and one over a POLYVAL plug-in
    that declares no C entries (polyval-generic's code otherwise)."""
    plugin = attrs.evolve(polyval_generic.ALG, cra_driver_name=PLUGIN_HASH, cra_priority=1,
                          c_entries=())
    capi.crypto_register_shash(plugin)
    ts = {n: capi.crypto_alloc_skcipher(n) for n in NAMES}
    yield ts
    for t in ts.values():
        t.free()
    capi.crypto_unregister_shash(plugin)


def _composed(t, msg: bytes, tweak: bytes, enc: bool) -> bytes:
    """The composed path (algs/hctr2.py's hctr2_crypt) over a two-piece request."""
    cut = len(msg) // 3
    src = capi.sg_init_table(2)
    capi.sg_set_buf(src[0], bytearray(msg[:cut]), 0, cut)
    capi.sg_set_buf(src[1], bytearray(msg[cut:]), 0, len(msg) - cut)
    out = bytearray(len(msg))
    req = capi.skcipher_request_alloc(t)
    capi.skcipher_request_set_crypt(req, src, capi.sg_init_one(out), len(msg), bytearray(tweak))
    assert hctr2_mod.hctr2_crypt(req, enc) == 0
    return bytes(out)


def test_which_instances_have_the_one_call_path(tfms):
    for name, t in tfms.items():
        t.setkey(bytes(range(32)))
        assert (t.ctx.fast is not None) == (name != PLUGIN), name
    g = tfms[GENERIC]
    # the generic children offer their C code whether or not SIMD may run
    for simd in (False, True):
        assert entries(g.ctx.xctr, Kind.XCTR, simd) is not None
        assert entries(g.ctx.polyval, Kind.POLYVAL, simd) is not None
    assert entries(tfms[PLUGIN].ctx.polyval, Kind.POLYVAL, True) is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
       tweak=st.binary(min_size=32, max_size=32),
       n=st.one_of(st.integers(16, 300), st.integers(4000, 4200), st.sampled_from([16, 512, 4096, 65536 + 7])),
       name=st.sampled_from(NAMES), enc=st.booleans(), skew=st.integers(0, 15), data=st.data())
def test_every_path_gives_the_papers_bytes(tfms, key, tweak, n, name, enc, skew, data):
    msg = (data.draw(st.binary(min_size=n, max_size=n)) if n < 5000    # long ones: expanded from a drawn seed
           else hashlib.shake_256(data.draw(st.binary(min_size=16, max_size=16))).digest(n))
    t = tfms[name]
    t.setkey(key)
    want = ref_hctr2(key, tweak, msg, encrypt=enc)
    op = t.encrypt if enc else t.decrypt
    assert op(msg, tweak) == want                                   # the direct path, new bytes
    buf = bytearray(skew) + bytearray(msg)                          # misaligned, in place
    view = memoryview(buf)[skew:]
    assert op(view, tweak, out=view) is view and bytes(view) == want
    out = bytearray(n + 3)                                          # misaligned output
    assert bytes(op(memoryview(bytearray(msg)), tweak, out=memoryview(out)[3:])) == want
    io = bytearray(msg)                                             # a one-buffer request in place
    req = capi.skcipher_request_alloc(t)
    capi.skcipher_request_set_crypt(req, capi.sg_init_one(io), capi.sg_init_one(io), n, bytearray(tweak))
    (capi.crypto_skcipher_encrypt if enc else capi.crypto_skcipher_decrypt)(req)
    assert bytes(io) == want
    assert _composed(t, msg, tweak, enc) == want


def test_the_one_call_path_runs_without_the_composed_one(tfms, monkeypatch):
    """With the composed path broken, the instances with entries still work
    (direct path, contiguous entry, one-buffer request); the plug-in one fails."""
    def broken(req, enc):
        raise AssertionError("composed path used")
    monkeypatch.setattr(hctr2_mod, "hctr2_crypt", broken)
    key, tweak, msg = bytes(range(32)), bytes(32), os.urandom(1000)
    want = ref_hctr2(key, tweak, msg, encrypt=True)
    for name in (GENERIC, "hctr2(aes)"):
        t = tfms[name]
        t.setkey(key)
        assert t.encrypt(msg, tweak) == want
        assert t.encrypt(bytearray(msg), bytearray(tweak)) == want
        out = bytearray(len(msg))
        req = capi.skcipher_request_alloc(t)
        capi.skcipher_request_set_crypt(req, capi.sg_init_one(bytearray(msg)), capi.sg_init_one(out),
                                        len(msg), bytearray(tweak))
        capi.crypto_skcipher_encrypt(req)
        assert bytes(out) == want
    t = tfms[PLUGIN]
    t.setkey(key)
    with pytest.raises(AssertionError, match="composed path used"):
        t.encrypt(msg, tweak)


def test_an_fpu_trace_sees_the_composed_paths_sections(tfms):
    """While a trace records, the one-call path declines: the children's own
    sections show (SIMD children only), and the bytes are the same."""
    t = tfms["hctr2(aes)"]
    key, tweak, msg = bytes(range(32)), bytes(range(32)), os.urandom(5000)
    t.setkey(key)
    want = ref_hctr2(key, tweak, msg, encrypt=True)
    with fpu_trace() as trace:
        assert t.encrypt(msg, tweak) == want
    children = (t.ctx.polyval, t.ctx.xctr, t.ctx.blockcipher)
    if any("generic" not in c.driver_name for c in children):
        assert trace.sections and all(s.closed for s in trace.sections)
    else:
        assert trace.sections == []


def test_without_simd_the_bytes_are_the_same(tfms):
    key, tweak, msg = bytes(range(32)), bytes(range(32)), os.urandom(4096)
    want = ref_hctr2(key, tweak, msg, encrypt=False)
    for name in NAMES:
        t = tfms[name]
        t.setkey(key)
        with simd_disabled():
            assert t.decrypt(msg, tweak) == want, name


@pytest.mark.parametrize("n", [0, 1, 15])
def test_short_messages_are_einval_on_every_path(tfms, n):
    for name, t in tfms.items():
        t.setkey(bytes(32))
        for op in (t.encrypt, t.decrypt):
            for data in (bytes(n), bytearray(n)):
                with pytest.raises(capi.CryptoError) as e:
                    op(data, bytes(32))
                assert e.value.errno == EINVAL and name.split("(")[0] in str(e.value), name
                assert "16" in str(e.value)


def test_rekey_replaces_the_structs_and_wipes_the_old_ones(tfms):
    t = tfms[GENERIC]
    t.setkey(bytes(range(32)))
    old = [f for f in t.ctx.fast.structs.values() if f is not None]
    assert old and all(any(bytes(capi_buffer(f))) for f in old)
    t.setkey(bytes(range(1, 33)))
    assert all(not any(bytes(capi_buffer(f))) for f in old)
    assert t.encrypt(bytes(64), bytes(32)) == ref_hctr2(bytes(range(1, 33)), bytes(32), bytes(64), encrypt=True)


def capi_buffer(cdata):
    from crypto_api.algs._hctr2 import ffi
    return ffi.buffer(cdata)


def test_keyed_where_simd_is_unusable_a_simd_only_child_leaves_the_composed_path(tfms):
    """xctr-aes-aesni offers its XCTR code only through its SIMD wrapper while
    that would call it: keyed under simd_disabled(), the best instance has no
    one-call path (when its XCTR is that driver), and the same bytes."""
    t = tfms["hctr2(aes)"]
    key, tweak, msg = bytes(range(32)), bytes(32), bytes(range(200))
    with simd_disabled():
        t.setkey(key)
    simd_only_xctr = entries(t.ctx.xctr, Kind.XCTR, False) is None
    if simd_only_xctr:
        assert t.ctx.fast is None
    assert t.encrypt(msg, tweak) == ref_hctr2(key, tweak, msg, encrypt=True)
    t.setkey(key)
    assert t.ctx.fast is not None

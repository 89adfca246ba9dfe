"""The typed child interface (crypto_api.cinterface): what a driver declares
is what a template gets; a driver that declares nothing gets the composed
path with the same bytes; nothing outside the core reads another driver's
context."""

import ast
import os
from pathlib import Path

import attrs
import pytest

import crypto_api as capi
from crypto_api.algs import aes_generic, nhpoly1305_generic
from crypto_api.algs import chacha_generic as cg
from crypto_api.arch.common import glue
from crypto_api.cinterface import (BlockEntries, Kind, Nhpoly1305Entries, Offer, StreamEntries,
                                   WideEntries, XctrEntries, XtsEntries, entries, offering_tfm, offers)
from source_files import ROOT, source_files
from alloc_or_skip import alloc_or_skip

KEY = bytes(range(32))
TWEAK = bytes(range(100, 132))


def plugin_stream(driver):
    """An xchacha12 that declares no C entries (all its paths are the request's)."""
    return cg.chacha_alg("xchacha12", driver, 50, True, 12, cg.crypto_xchacha_crypt,
                         c_stream=None, contiguous=None, direct=None)


def plugin_cipher(driver):
    """aes-generic's callbacks under another name, declaring no C entries."""
    return attrs.evolve(aes_generic.ALG, cra_driver_name=driver, cra_priority=50, c_entries=(),
                        direct=None)


def plugin_hash(driver):
    return attrs.evolve(nhpoly1305_generic.ALG, cra_driver_name=driver, cra_priority=50,
                        c_entries=(), direct=None)


@pytest.fixture
def plugins(register, selftest_level):
    selftest_level("off")
    register(plugin_stream("xchacha12-noentries"))
    register(plugin_cipher("aes-noentries"))
    register(plugin_hash("nhpoly1305-noentries"))


def test_the_generic_drivers_offer_typed_records_once_keyed():
    with capi.crypto_alloc_cipher("aes-generic") as aes, \
            capi.crypto_alloc_skcipher("xchacha12-generic") as xc, \
            capi.crypto_alloc_shash("nhpoly1305-generic") as nh:
        assert entries(aes, Kind.BLOCK) is None        # no key yet
        aes.setkey(KEY)
        xc.setkey(KEY)
        nh.setkey(bytes(1088))
        assert type(entries(aes, Kind.BLOCK)) is BlockEntries
        assert type(entries(xc, Kind.STREAM, False)) is StreamEntries
        assert entries(xc, Kind.STREAM).nrounds == 12
        assert type(entries(nh, Kind.NHPOLY1305)) is Nhpoly1305Entries
        assert entries(aes, Kind.STREAM) is None      # a kind it does not declare
        assert offering_tfm(aes, Kind.BLOCK) is aes


@pytest.mark.parametrize("inner", [
    "xchacha12-noentries,aes-generic,nhpoly1305-generic",
    "xchacha12-generic,aes-noentries,nhpoly1305-generic",
    "xchacha12-generic,aes-generic,nhpoly1305-noentries",
])
def test_adiantum_over_a_child_that_declares_nothing_composes_with_the_same_bytes(plugins, inner):
    data = os.urandom(4096 + 5)
    with capi.crypto_alloc_skcipher("adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)") as ref, \
            capi.crypto_alloc_skcipher(f"adiantum({inner})") as tfm:
        ref.setkey(KEY)
        tfm.setkey(KEY)
        assert type(entries(ref, Kind.WIDE)) is WideEntries   # the one-call path exists there
        assert entries(tfm, Kind.WIDE) is None                  # and not here: composed
        ct = tfm.encrypt(data, TWEAK)
        assert ct == ref.encrypt(data, TWEAK)
        assert tfm.decrypt(ct, TWEAK) == data


@pytest.mark.parametrize("mode", ["cbc", "ctr", "xts", "ecb"])
def test_a_mode_over_a_cipher_that_declares_nothing_gives_the_same_bytes(plugins, mode):
    key = KEY + bytes(range(50, 82)) if mode == "xts" else KEY
    iv = bytes(range(16)) if mode != "ecb" else None
    data = os.urandom(16 * 37)
    with capi.crypto_alloc_skcipher(f"{mode}(aes-generic)") as ref, \
            capi.crypto_alloc_skcipher(f"{mode}(aes-noentries)") as tfm:
        ref.setkey(key)
        tfm.setkey(key)
        assert tfm.encrypt(data, iv) == ref.encrypt(data, iv)


def test_ecb_delegates_to_its_cipher_and_xts_uses_that():
    with capi.crypto_alloc_skcipher("ecb(aes-generic)") as ecb:
        ecb.setkey(KEY)
        assert offering_tfm(ecb, Kind.BLOCK).driver_name == "aes-generic"
        assert entries(ecb, Kind.BLOCK) is not None
        assert entries(ecb, Kind.XTS) is None


def test_an_offer_of_the_wrong_record_type_is_a_type_error(register, selftest_level):
    selftest_level("off")
    wrong = Offer(Kind.BLOCK, lambda tfm, simd: StreamEntries(crypt=None, hchacha=None, key=None, nrounds=0))
    register(attrs.evolve(aes_generic.ALG, cra_driver_name="aes-wrong-offer", cra_priority=50,
                          c_entries=(wrong,)))
    with capi.crypto_alloc_cipher("aes-wrong-offer") as tfm:
        tfm.setkey(KEY)
        with pytest.raises(TypeError, match="aes-wrong-offer: its BLOCK offer gave StreamEntries"):
            entries(tfm, Kind.BLOCK)


def test_an_arch_variant_of_a_generic_descriptor_offers_nothing():
    # arm64/arm NEON and table drivers are the generic descriptors with the
    # request callbacks replaced: the generic C entries must not come along.
    assert offers(aes_generic.ALG) == (Kind.BLOCK,)
    assert offers(nhpoly1305_generic.ALG) == (Kind.NHPOLY1305,)
    assert offers(glue.request_path_variant(aes_generic.ALG)) == ()
    assert offers(glue.request_path_variant(nhpoly1305_generic.ALG, update=None)) == ()


def test_hctr2s_children_declare_their_kinds():
    from crypto_api.algs import polyval_generic
    assert offers(polyval_generic.ALG) == (Kind.POLYVAL,)
    with capi.crypto_alloc_skcipher("xctr(aes-generic)") as x:
        assert offers(x.alg) == (Kind.XCTR,)
        assert entries(x, Kind.XCTR) is None           # no key yet
        x.setkey(KEY)
        assert type(entries(x, Kind.XCTR)) is XctrEntries


def test_the_simd_wrapper_delegates_while_it_would_call_its_internal_driver():
    tfm = alloc_or_skip(capi.crypto_alloc_skcipher, "xts-aes-aesni", KEY + bytes(range(50, 82)))
    with tfm:
        assert offering_tfm(tfm, Kind.XTS).driver_name == "__xts-aes-aesni"
        assert type(entries(tfm, Kind.XTS)) is XtsEntries
        assert entries(tfm, Kind.XTS, simd=False) is None      # SIMD code only
        with capi.simd_disabled():                              # the wrapper would queue to cryptd
            assert entries(tfm, Kind.XTS) is None


# --------------------------------------------------------------------------
# No module outside the core reads another driver's context

#: ``.ctx`` that is no tfm's context: C struct fields named ``ctx`` and an
#: AEAD request's context (file, the expression).
NOT_A_TFM = {("algs/sector_batch.py", "desc.ctx"), ("arch/x86/aesni_modes_glue.py", "h.ctx"),
             ("algs/chacha20poly1305.py", "req.ctx"), ("algs/gcm.py", "req.ctx"), ("algs/authenc.py", "req.ctx"),
             ("algs/hmac.py", "desc.ctx"),
             ("arch/ppc64le/ghash_glue.py", "desc.ctx")}   # a descriptor's or request's own state, not a tfm's


def _own_tfm(node) -> bool:
    """``tfm``/``self``, or ``req.tfm``/``desc.tfm``: the driver's own tfm."""
    if isinstance(node, ast.Name):
        return node.id in ("tfm", "self")
    return (isinstance(node, ast.Attribute) and node.attr == "tfm"
            and isinstance(node.value, ast.Name) and node.value.id in ("req", "desc"))


def foreign_ctx_reads(rel: str, source: str):
    """``(line, expression)`` of each ``X.ctx`` (or getattr/hasattr of ``ctx``)
    in ``source`` where X is not the driver's own tfm."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "ctx" and not _own_tfm(node.value):
            text = ast.unparse(node)
            if (rel, text) not in NOT_A_TFM:
                found.append((node.lineno, text))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "hasattr") and len(node.args) > 1
              and isinstance(node.args[1], ast.Constant) and node.args[1].value == "ctx"):
            found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


def test_the_scan_finds_a_template_reading_its_childs_context():
    src = ("def setkey(tfm, key):\n    ctx = tfm.ctx\n    k = ctx.child.ctx.key\n"
           "    inner = ctx.child\n    if hasattr(inner.ctx, 'c_block'):\n        pass\n"
           "    getattr(inner, 'ctx')\n    own = tfm.ctx.key\n")
    assert foreign_ctx_reads("algs/xts.py", src) == [
        (3, "ctx.child.ctx"), (5, "inner.ctx"), (7, "getattr(inner, 'ctx')")]


def test_no_module_outside_the_core_reads_another_drivers_context():
    bad = []
    for rel in source_files():
        if rel.endswith(".py") and rel.split("/")[0] in ("algs", "arch", "dmcrypt", "tools"):
            text = (Path(ROOT) / rel).read_text(encoding="utf-8")
            bad += [f"{rel}:{line}: {expr}" for line, expr in foreign_ctx_reads(rel, text)]
    assert not bad, "ask through crypto_api.cinterface.entries instead:\n" + "\n".join(bad)

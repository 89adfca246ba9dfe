"""Templates: the cryptomgr name parser, instantiation, spawns, killing and naming.

Mirrors crypto/algboss.c (cryptomgr_schedule_probe's parser, cryptomgr_probe),
crypto/algapi.c (templates, instances, spawns, crypto_alg_finish_registration
and crypto_remove_spawns) and the naming rules of crypto/adiantum.c.  A small template
written against the public interface exercises the machinery; Adiantum shows
the naming, priority and upgrade rules on the real template.
"""

import gc
import re

import pytest

import crypto_api as capi
from crypto_api.errors import EAGAIN, EBUSY, EEXIST, EINVAL, ENAMETOOLONG, ENOENT
from crypto_api.template import registered_templates
from toy_skciphers import wrap_template, xor_skcipher

ALG, U32 = capi.CryptoAttrAlg, capi.CryptoAttrU32
KEY = bytes(range(32))
TWEAK = bytes(range(64, 96))


# ---------------------------------------------------------------- the parser

@pytest.mark.parametrize("name, tname, params", [
    ("adiantum(xchacha12,aes)", "adiantum", [ALG("xchacha12"), ALG("aes")]),
    ("adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)", "adiantum",
     [ALG("xchacha12-generic"), ALG("aes-generic"), ALG("nhpoly1305-generic")]),
    ("cts(cbc(aes))", "cts", [ALG("cbc(aes)")]),
    ("a_b-9(x(y(z,w)),ecb(aes))", "a_b-9", [ALG("x(y(z,w))"), ALG("ecb(aes)")]),
    ("t(16,010,0,0755,08,0x10)", "t", [U32(16), U32(8), U32(0), U32(0o755), U32(0), ALG("0x10")]),
    ("t(12(aes))", "t", [ALG("12(aes)")]),
    ("adiantum(xchacha12,aes)junk,(", "adiantum", [ALG("xchacha12"), ALG("aes")]),
    ("t(" + ",".join(str(i) for i in range(32)) + ")", "t", [U32(i) for i in range(32)]),
])
def test_parser_accepts(name, tname, params):
    assert capi.parse_template_name(name) == (tname, params)


@pytest.mark.parametrize("name, problem", [
    ("adiantum(xchacha12", "missing ')'"),
    ("adiantum()", "empty parameter"),
    ("adiantum(xchacha12,,aes)", "empty parameter"),
    ("adiantum(xchacha12,aes", "missing ')'"),
    ("adiantum(ecb(aes,xchacha12)", "missing ')'"),
    ("adiantum(ecb(aes,xchacha12", "unbalanced"),
    ("adiantum(a(b)c)", "unexpected 'c'"),
    ("adiantum(a b)", "unexpected ' '"),
    ("(aes)", "template(parameters)"),
    ("adiantum", "template(parameters)"),
    ("ad.iantum(x)", "template(parameters)"),
    ("t(" + ",".join(str(i) for i in range(33)) + ")", "more than 32"),
])
def test_parser_refuses(name, problem):
    with pytest.raises(ValueError, match=re.escape(problem)):
        capi.parse_template_name(name)


@pytest.mark.parametrize("name, problem", [
    ("adiantum(xchacha12", "missing ')'"),
    ("adiantum()", "empty parameter"),
    ("adiantum(xchacha12,,aes)", "empty parameter"),
])
def test_malformed_names_are_enoent_naming_the_problem(name, problem):
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher(name)
    assert e.value.errno == ENOENT
    assert name in str(e.value) and problem in str(e.value)


def test_names_nested_past_128_characters_are_enametoolong():
    name = "adiantum(" * 12 + "xchacha12" + ",aes)" * 12
    assert len(name) >= 128
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher(name)
    assert e.value.errno == ENAMETOOLONG and str(len(name)) in str(e.value)


# ---------------------------------------------------------------- a test template

def drivers(proc_records):
    return [r["driver"] for r in proc_records()]


def test_a_lookup_miss_instantiates_the_template(register, proc_records):
    calls = []
    register(xor_skcipher("tmpltest-x", "tmpltest-x-drv"))
    register(wrap_template("tmplwrap", calls))
    t1 = capi.crypto_alloc_skcipher("tmplwrap(tmpltest-x)")
    assert t1.driver_name == "tmplwrap(tmpltest-x-drv)"
    assert t1.alg.cra_name == "tmplwrap(tmpltest-x)"
    t1.setkey(b"\x55")
    assert t1.encrypt(b"\x00\xff") == b"\x55\xaa"
    # the instance is now registered: found again by name and by driver name
    t2 = capi.crypto_alloc_skcipher("tmplwrap(tmpltest-x-drv)")
    assert t2.alg is t1.alg and len(calls) == 1
    rec = [r for r in proc_records() if r["driver"] == "tmplwrap(tmpltest-x-drv)"][0]
    assert rec["name"] == "tmplwrap(tmpltest-x)" and rec["refcnt"] == "3"
    # tb[0] is the type attribute of the lookup; the rest are the parameters
    assert calls[0][0].type & capi.CRYPTO_ALG_TYPE_MASK == capi.CRYPTO_ALG_TYPE_SKCIPHER
    assert calls[0][1:] == [ALG("tmpltest-x")]
    t1.free()
    t2.free()


def test_create_receives_numbers_and_its_refusal_reaches_the_caller(register):
    calls = []
    register(wrap_template("tmplnum", calls,
                           fail_with=[capi.CryptoError(EINVAL, "tmplnum: recorded and refused")]))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_shash("tmplnum(16,010,0x10,ecb(aes))")
    assert e.value.errno == EINVAL and "tmplnum" in str(e.value)
    tb = calls[0]
    assert tb[0].type & capi.CRYPTO_ALG_TYPE_MASK == capi.CRYPTO_ALG_TYPE_SHASH
    assert tb[1:] == [U32(16), U32(8), ALG("0x10"), ALG("ecb(aes)")]


def test_create_is_retried_on_eagain(register):
    calls = []
    register(xor_skcipher("tmpltest-ea", "tmpltest-ea-drv"))
    register(wrap_template("tmplagain", calls, fail_with=[
        capi.CryptoError(EAGAIN, "tmplagain: try again"),
        capi.CryptoError(EAGAIN, "tmplagain: try again")]))
    with capi.crypto_alloc_skcipher("tmplagain(tmpltest-ea)") as tfm:
        assert tfm.driver_name == "tmplagain(tmpltest-ea-drv)"
    assert len(calls) == 3


def test_the_template_refuses_another_type(register):
    register(xor_skcipher("tmpltest-ty", "tmpltest-ty-drv"))
    register(wrap_template("tmpltype"))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_cipher("tmpltype(tmpltest-ty)")
    assert e.value.errno == EINVAL and "tmpltype" in str(e.value)


def test_unknown_inner_algorithm_is_enoent_naming_it(register):
    register(wrap_template("tmplmiss"))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("tmplmiss(tmpltest-nonexistent)")
    assert e.value.errno == ENOENT and "tmpltest-nonexistent" in str(e.value)


def test_instance_names_of_128_characters_are_enametoolong(register):
    register(wrap_template("tmpllong"))
    fits = "tmpltest-fits-" + "d" * (127 - len("tmpllong()") - 14)
    register(xor_skcipher("tmpltest-fits", fits))
    with capi.crypto_alloc_skcipher("tmpllong(tmpltest-fits)") as tfm:
        assert len(tfm.driver_name) == 127
    too_long = "tmpltest-long-" + "d" * (128 - len("tmpllong()") - 14)
    register(xor_skcipher("tmpltest-long", too_long))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("tmpllong(tmpltest-long)")
    assert e.value.errno == ENAMETOOLONG and "tmpllong" in str(e.value)
    assert "128" in str(e.value)


def test_template_registration_rules(register):
    tmpl = register(wrap_template("tmplreg"))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_register_template(tmpl)
    assert e.value.errno == EEXIST and "tmplreg" in str(e.value)
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_unregister_template(wrap_template("tmplnever"))
    assert e.value.errno == ENOENT and "tmplnever" in str(e.value)
    with pytest.raises(TypeError):
        capi.crypto_register_template("tmplreg")


def test_unregistering_an_inner_algorithm_kills_its_instances(register, proc_records):
    inner = register(xor_skcipher("tmpltest-k", "tmpltest-k-drv"))
    register(wrap_template("tmplkill"))
    tfm = capi.crypto_alloc_skcipher("tmplkill(tmpltest-k)")
    inst = tfm.alg
    # a live child transform pins the inner algorithm
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_unregister_skcipher(inner)
    assert e.value.errno == EBUSY
    tfm.free()
    capi.crypto_unregister_skcipher(inner)
    assert inst.cra_flags & capi.CRYPTO_ALG_DEAD
    assert "tmplkill(tmpltest-k-drv)" not in drivers(proc_records)
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("tmplkill(tmpltest-k)")
    assert e.value.errno == ENOENT and "tmpltest-k" in str(e.value)


def test_unregistering_a_template_removes_its_instances(register, proc_records):
    register(xor_skcipher("tmpltest-u", "tmpltest-u-drv"))
    tmpl = register(wrap_template("tmplgone"))
    tfm = capi.crypto_alloc_skcipher("tmplgone(tmpltest-u)")
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_unregister_template(tmpl)
    assert e.value.errno == EBUSY and "tmplgone(tmpltest-u-drv)" in str(e.value)
    tfm.free()
    capi.crypto_unregister_template(tmpl)
    assert "tmplgone(tmpltest-u-drv)" not in drivers(proc_records)
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("tmplgone(tmpltest-u)")
    assert e.value.errno == ENOENT


def test_a_better_inner_algorithm_kills_instances_and_live_tfms_keep_working(register, proc_records):
    register(xor_skcipher("tmpltest-up", "tmpltest-up-low", 100))
    register(wrap_template("tmplup"))
    old = capi.crypto_alloc_skcipher("tmplup(tmpltest-up)")
    old.setkey(b"\x0f")
    old_inst = old.alg
    # a weaker implementation arriving kills nothing
    register(xor_skcipher("tmpltest-up", "tmpltest-up-lower", 50))
    assert not old_inst.cra_flags & capi.CRYPTO_ALG_DEAD
    with capi.crypto_alloc_skcipher("tmplup(tmpltest-up)") as same:
        assert same.alg is old_inst
    # a better one kills the instance built on the weaker one
    register(xor_skcipher("tmpltest-up", "tmpltest-up-high", 200))
    assert old_inst.cra_flags & capi.CRYPTO_ALG_DEAD
    assert "tmplup(tmpltest-up-low)" not in drivers(proc_records)
    assert old.encrypt(b"\x00\xf0") == b"\x0f\xff"
    with capi.crypto_alloc_skcipher("tmplup(tmpltest-up)") as new:
        assert new.driver_name == "tmplup(tmpltest-up-high)"
    old.free()


# ---------------------------------------------------------------- module autoload

def drop_adiantum_instances():
    """Unload the template module, which takes every adiantum instance with it.

    An existing instance answers its cra_name whatever inner drivers it was
    built on (as in the kernel), so naming tests start from none.
    """
    gc.collect()
    if "adiantum" in capi.loaded_modules():
        capi.rmmod("adiantum")


def test_the_template_module_loads_through_crypto_adiantum(proc_records):
    drop_adiantum_instances()
    assert not [r for r in proc_records() if r["name"].startswith("adiantum(")]
    assert capi.request_module("crypto-adiantum(xchacha12,aes)") == 0
    with capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)") as tfm:
        assert "adiantum" in capi.loaded_modules()
        assert [r["module"] for r in proc_records() if r["driver"] == tfm.driver_name] == ["adiantum"]


# ---------------------------------------------------------------- Adiantum naming and priority

def xchacha12_wrapper(driver, priority, flags=0):
    """An ``xchacha12`` driver forwarding to a child of xchacha12-generic (passes its tests)."""

    def init(tfm):
        tfm.ctx.child = capi.crypto_alloc_skcipher("xchacha12-generic")

    def crypt(req):
        sub = capi.skcipher_request_alloc(req.tfm.ctx.child)
        capi.skcipher_request_set_crypt(sub, req.src, req.dst, req.cryptlen, req.iv)
        capi.crypto_skcipher_encrypt(sub)

    return capi.SkcipherAlg(
        cra_name="xchacha12", cra_driver_name=driver, cra_priority=priority, cra_flags=flags,
        cra_blocksize=1, min_keysize=32, max_keysize=32, ivsize=32, chunksize=64,
        setkey=lambda tfm, key: tfm.ctx.child.setkey(key), encrypt=crypt, decrypt=crypt,
        init=init, exit=lambda tfm: tfm.ctx.child.free())


def aes_wrapper(driver, priority, max_keysize=32):
    def cra_init(tfm):
        tfm.ctx.child = capi.crypto_alloc_cipher("aes-generic")

    def encrypt(tfm, dst, src):
        dst[:] = tfm.ctx.child.encrypt_one(src)

    def decrypt(tfm, dst, src):
        dst[:] = tfm.ctx.child.decrypt_one(src)

    return capi.CipherAlg(
        cra_name="aes", cra_driver_name=driver, cra_priority=priority, cra_blocksize=16,
        min_keysize=16, max_keysize=max_keysize, setkey=lambda tfm, key: tfm.ctx.child.setkey(key),
        encrypt=encrypt, decrypt=decrypt, cra_init=cra_init, cra_exit=lambda tfm: tfm.ctx.child.free())


def nhpoly1305_wrapper(driver, priority):
    with capi.crypto_alloc_shash("nhpoly1305-generic") as g:
        statesize = g.statesize

    def init_tfm(tfm):
        tfm.ctx.child = capi.crypto_alloc_shash("nhpoly1305-generic")

    def init(desc):
        desc.ctx.d = desc.tfm.ctx.child.desc().init()

    def import_(desc, state):
        desc.ctx.d = desc.tfm.ctx.child.desc()
        desc.ctx.d.import_(state)

    return capi.ShashAlg(
        cra_name="nhpoly1305", cra_driver_name=driver, cra_priority=priority, cra_blocksize=0,
        digestsize=16, statesize=statesize,
        setkey=lambda tfm, key: tfm.ctx.child.setkey(key), init=init,
        update=lambda desc, data: desc.ctx.d.update(data), final=lambda desc: desc.ctx.d.final(),
        export=lambda desc: desc.ctx.d.export(), import_=import_,
        init_tfm=init_tfm, exit_tfm=lambda tfm: tfm.ctx.child.free())


def best(alloc, name):
    with alloc(name) as t:
        return t.driver_name, t.alg.cra_priority


def test_adiantum_three_parameter_form_keeps_the_two_parameter_cra_name():
    name = "adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)"
    with capi.crypto_alloc_skcipher(name) as tfm:
        assert tfm.alg.cra_name == "adiantum(xchacha12,aes)"
        assert tfm.driver_name == name
        assert tfm.alg.cra_priority == 100
        assert (tfm.ivsize, tfm.blocksize, tfm.min_keysize, tfm.max_keysize) == (32, 16, 32, 32)
        assert (tfm.chunksize, tfm.walksize) == (16, 16)
        assert tfm.alg.cra_module == "adiantum"


@pytest.mark.parametrize("stream", ["xchacha12", "xchacha20"])
def test_adiantum_two_parameter_form_names_the_best_inner_drivers(stream):
    drop_adiantum_instances()
    s, sp = best(capi.crypto_alloc_skcipher, stream)
    b, bp = best(capi.crypto_alloc_cipher, "aes")
    h, hp = best(capi.crypto_alloc_shash, "nhpoly1305")
    with capi.crypto_alloc_skcipher(f"adiantum({stream},aes)") as tfm:
        assert tfm.alg.cra_name == f"adiantum({stream},aes)"
        assert tfm.driver_name == f"adiantum({s},{b},{h})"
        assert tfm.alg.cra_priority == (4 * sp + 2 * hp + bp) // 7


def test_adiantum_priority_is_the_floored_weighted_mean(register):
    register(xchacha12_wrapper("regtest-xchacha12-p1001", 1001))
    register(aes_wrapper("regtest-aes-p3", 3))
    register(nhpoly1305_wrapper("regtest-nhpoly1305-p10", 10))
    name = "adiantum(regtest-xchacha12-p1001,regtest-aes-p3,regtest-nhpoly1305-p10)"
    with capi.crypto_alloc_skcipher(name) as tfm:
        assert tfm.alg.cra_name == "adiantum(xchacha12,aes)"
        assert tfm.driver_name == name
        assert tfm.alg.cra_priority == (4 * 1001 + 2 * 10 + 3) // 7 == 575
        tfm.setkey(KEY)
        with capi.crypto_alloc_skcipher(
                "adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)") as ref:
            ref.setkey(KEY)
            data = bytes(range(256)) * 3
            assert tfm.encrypt(data, TWEAK) == ref.encrypt(data, TWEAK)
    # The instance joins the priority contest for its cra_name: the
    # instances built on the weaker xchacha12 drivers died when the 1001 one
    # arrived, so the plain two-parameter request finds this one.
    with capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)") as tfm:
        assert tfm.driver_name == name


def test_adiantum_upgrade_kills_the_old_instance_and_live_tfms_keep_working(register, proc_records):
    data = bytes(range(256)) * 16
    old = capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)")
    old.setkey(KEY)
    expected = old.encrypt(data, TWEAK)
    old_inst, old_driver = old.alg, old.driver_name
    assert "regtest" not in old_driver
    drv = register(xchacha12_wrapper("regtest-xchacha12-upgrade", 5000))
    assert old_inst.cra_flags & capi.CRYPTO_ALG_DEAD
    assert old_driver not in drivers(proc_records)
    assert old.encrypt(data, TWEAK) == expected and old.decrypt(expected, TWEAK) == data
    new = capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)")
    assert new.driver_name.startswith("adiantum(regtest-xchacha12-upgrade,")
    new.setkey(KEY)
    assert new.encrypt(data, TWEAK) == expected
    new_driver = new.driver_name
    new.free()
    # unregistering the inner algorithm kills the instance built on it
    capi.crypto_unregister_skcipher(drv)
    assert new_driver not in drivers(proc_records)
    with capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)") as again:
        assert "regtest" not in again.driver_name
        again.setkey(KEY)
        assert again.encrypt(data, TWEAK) == expected
    assert old.decrypt(expected, TWEAK) == data
    old.free()


def test_adiantum_inherits_async_and_a_sync_request_spawns_a_sync_stream(register):
    # v5.0: the instance takes the stream cipher's ASYNC flag; a sync-only
    # allocation (mask ASYNC) makes the template grab a sync stream cipher.
    register(xchacha12_wrapper("regtest-xchacha12-async", 6000, flags=capi.CRYPTO_ALG_ASYNC))
    with capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)") as tfm:
        assert tfm.driver_name.startswith("adiantum(regtest-xchacha12-async,")
        assert tfm.alg.cra_flags & capi.CRYPTO_ALG_ASYNC
    with capi.crypto_alloc_sync_skcipher("adiantum(xchacha12,aes)") as tfm:
        assert not tfm.driver_name.startswith("adiantum(regtest-xchacha12-async,")
        assert not tfm.alg.cra_flags & capi.CRYPTO_ALG_ASYNC


def test_a_weaker_instance_built_during_a_self_test_does_not_answer_the_lookup(
        register, selftest_level):
    # At the full level the self-test of a new adiantum instance builds the
    # all-generic reference instance (same cra_name, lower priority) while the
    # new one is still under test.  The lookup must still get the better one
    # (the kernel's "best" rule for lookup larvals, 5.5+).
    register(xchacha12_wrapper("regtest-xchacha12-best", 4000))   # kills existing instances
    selftest_level("full")
    saved = capi.testmgr.set_fuzz_iterations(1)
    try:
        with capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)") as tfm:
            assert tfm.driver_name.startswith("adiantum(regtest-xchacha12-best,")
    finally:
        capi.testmgr.set_fuzz_iterations(saved)


# ---------------------------------------------------------------- several at once

def test_register_templates_is_all_or_none():
    """crypto_register_templates(): a template already registered refuses the
    set (EEXIST, as the kernel's same-template check) and leaves none of it
    registered; unregistering goes in reverse order."""
    a = capi.Template(name="tmplset-a", create=None)
    b = capi.Template(name="tmplset-b", create=None)
    capi.crypto_register_template(b)
    try:
        with pytest.raises(capi.CryptoError) as e:
            capi.crypto_register_templates((a, b))
        assert e.value.errno == EEXIST
        assert "tmplset-a" not in registered_templates()
    finally:
        capi.crypto_unregister_template(b)
    capi.crypto_register_templates((a, b))
    assert {"tmplset-a", "tmplset-b"} <= set(registered_templates())
    capi.crypto_unregister_templates((a, b))
    assert not {"tmplset-a", "tmplset-b"} & set(registered_templates())

"""Template instance names with text after the closing parenthesis.

The kernel's parser (cryptomgr_schedule_probe in crypto/algboss.c) stops at
the parenthesis that closes the parameter list and never reads further: for
``adiantum(xchacha12,aes))`` the template builds ``adiantum(xchacha12,aes)``,
whose names never match the lookup larval, so the lookup fails with ENOENT
(crypto_larval_wait finds no adult).  Such a name can never succeed there;
crypto_api refuses it with ENOENT before building anything, naming the junk.
Well-formed names, nested ones included, still work.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import crypto_api as capi
from crypto_api import registry
from crypto_api.errors import EINVAL, ENOENT
from toy_skciphers import wrap_template

KEY = bytes(range(32))

JUNK = [
    ("adiantum(xchacha12,aes))", ")"),
    ("adiantum(xchacha12,aes)x", "x"),
    ("adiantum(xchacha12,aes)(aes)", "(aes)"),
    ("adiantum(xchacha12,aes),", ","),
    ("adiantum(xchacha12,aes)-generic", "-generic"),
    ("adiantum(xchacha12),aes)", ",aes)"),
    ("adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)))", "))"),
]


TOKEN = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1, max_size=8)
NAMES = st.recursive(
    TOKEN,
    lambda inner: st.tuples(TOKEN.filter(lambda t: not t.isdigit()),
                            st.lists(inner, min_size=1, max_size=4)).map(
        lambda tp: f"{tp[0]}({','.join(tp[1])})"),
    max_leaves=10)


@settings(max_examples=200, deadline=None)
@given(TOKEN.filter(lambda t: not t.isdigit()), st.lists(NAMES, min_size=1, max_size=6),
       st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_(),", max_size=12))
def test_the_text_after_the_parameters_is_returned_exactly(tname, params, junk):
    clean = f"{tname}({','.join(params)})"
    assert capi.split_template_name(clean + junk) == capi.split_template_name(clean)[:2] + (junk,)


def _entries():
    return {(a.cra_driver_name, a.is_larval) for a in registry.snapshot()}


@pytest.mark.parametrize("name, junk", JUNK)
def test_split_template_name_returns_the_text_after_the_parameters(name, junk):
    tname, params, rest = capi.split_template_name(name)
    assert tname == "adiantum" and rest == junk
    # the kernel's parser itself does not look at it: parse_template_name agrees
    assert capi.parse_template_name(name) == (tname, params)


@pytest.mark.parametrize("name, junk", JUNK)
def test_junk_after_the_closing_parenthesis_is_enoent_naming_it(name, junk):
    before = _entries()
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher(name)
    assert e.value.errno == ENOENT
    msg = str(e.value)
    assert name in msg and repr(junk) in msg and "follows the closing parenthesis" in msg
    assert not capi.crypto_has_alg(name)
    # nothing was built or left behind for it (no instance, no module's algorithms, no larval)
    assert _entries() == before
    assert not [a for a in registry.snapshot() if a.is_larval]


def test_junk_is_refused_even_when_the_clean_instance_exists():
    with capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)") as tfm:
        refs = tfm.alg.cra_refcnt
        for name, junk in JUNK:
            with pytest.raises(capi.CryptoError) as e:
                capi.crypto_alloc_skcipher(name)
            assert e.value.errno == ENOENT and repr(junk) in str(e.value)
        assert tfm.alg.cra_refcnt == refs        # the live instance was not handed out


def test_junk_inside_a_parameter_is_still_a_parse_error():
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("adiantum(xchacha12(x)y,aes)")
    assert e.value.errno == ENOENT and "unexpected 'y'" in str(e.value)


def test_nested_junk_is_refused_at_the_outer_name():
    name = "adiantum(adiantum(xchacha12,aes)),aes)"
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher(name)
    assert e.value.errno == ENOENT and "',aes)' follows" in str(e.value)


@pytest.mark.parametrize("name", [
    "adiantum(xchacha12,aes)",
    "adiantum(xchacha20,aes)",
    "adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)",
    "adiantum(xchacha12-generic,aes-generic)",
])
def test_well_formed_names_still_work(name):
    with capi.crypto_alloc_skcipher(name) as tfm:
        assert tfm.alg.cra_name.startswith("adiantum(")
        tfm.setkey(KEY)
        data = bytes(range(48))
        iv = bytes(32)
        assert tfm.decrypt(tfm.encrypt(data, iv), iv) == data


def test_nested_instances_of_a_template_still_build(register):
    register(wrap_template("tnwrap"))
    inner = "tnwrap(tnwrap(xchacha12))"
    with capi.crypto_alloc_skcipher(inner) as tfm, \
            capi.crypto_alloc_skcipher("xchacha12") as ref:
        assert tfm.alg.cra_name == inner
        tfm.setkey(KEY)
        ref.setkey(KEY)
        iv = bytes(range(32))
        data = bytes(range(100))
        assert tfm.encrypt(data, iv) == ref.encrypt(data, iv)
    for junk_name in (inner + ")", inner + "x", "tnwrap(tnwrap(xchacha12)))"):
        with pytest.raises(capi.CryptoError) as e:
            capi.crypto_alloc_skcipher(junk_name)
        assert e.value.errno == ENOENT and junk_name in str(e.value)


def test_a_template_refusal_still_reaches_the_caller():
    # DESIGN: the template's own error, not a bare ENOENT (the junk rule does not mask it)
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("adiantum(chacha20,aes)")
    assert e.value.errno == EINVAL and "chacha20" in str(e.value)

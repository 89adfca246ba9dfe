"""The other hooks that replace imports in the core: the module loader the
registry calls (kmod's request_module, THIS_MODULE) and the type table the
frontends fill (struct crypto_type's ``.show``), with ``crypto_grab_<type>``
living in each frontend (crypto/skcipher.c, crypto/shash.c, crypto/cipher.c).
"""

import attrs
import pytest

import crypto_api as capi
from crypto_api import cipher, crypto_type, modules, registry, shash, skcipher, template
from crypto_api.errors import EEXIST, ENOENT


@pytest.fixture
def loader():
    """Install a recording module loader for one test; ``loader.owner`` names THIS_MODULE."""

    class Recorder:
        aliases = []
        owner = None

    rec = Recorder()
    old = registry.set_module_loader(registry.ModuleLoader(
        request_module=lambda alias: rec.aliases.append(alias) or 0,
        current_module=lambda: rec.owner))
    yield rec
    registry.set_module_loader(old)


def toy(name, driver):
    def crypt(req):
        walk = capi.skcipher_walk_virt(req)
        while walk.nbytes:
            walk.dst[:walk.nbytes] = walk.src[:walk.nbytes]
            capi.skcipher_walk_done(walk, 0)

    return capi.SkcipherAlg(cra_name=name, cra_driver_name=driver, cra_priority=100,
                            cra_blocksize=1, setkey=lambda tfm, key: None,
                            encrypt=crypt, decrypt=crypt)


def test_importing_crypto_api_installs_the_module_loader(monkeypatch):
    asked = []
    monkeypatch.setattr(modules, "request_module", lambda alias: asked.append(alias) or 7)
    monkeypatch.setattr(modules, "current_module", lambda: "someone")
    assert registry.crypto_request_module("crypto-hooks-x") == 7 and asked == ["crypto-hooks-x"]
    assert registry.owning_module() == "someone"
    with pytest.raises(TypeError):
        registry.set_module_loader(modules.request_module)


def test_a_lookup_miss_asks_the_loader_for_both_aliases(loader):
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("hooks-nosuch")
    assert e.value.errno == ENOENT
    assert loader.aliases == ["crypto-hooks-nosuch", "crypto-hooks-nosuch-all"]
    loader.aliases.clear()
    with pytest.raises(capi.CryptoError):
        capi.crypto_alloc_skcipher("hooks-nosuch", 0, capi.CRYPTO_ALG_NOLOAD)
    assert loader.aliases == []


def test_a_template_is_loaded_through_the_loader(loader):
    with pytest.raises(capi.CryptoError):
        capi.crypto_alloc_skcipher("hookstmpl(xchacha12)")
    assert "crypto-hookstmpl" in loader.aliases


def test_without_a_loader_nothing_loads(loader):
    registry.set_module_loader(registry.NO_MODULE_LOADER)
    assert registry.crypto_request_module("crypto-xchacha12") == 0
    assert registry.owning_module() is None


def test_the_loader_names_the_owner_of_what_is_registered(register, loader, proc_records):
    loader.owner = "hooks_mod"
    register(toy("hooks-owned", "hooks-owned-drv"))
    register(capi.Template(name="hooksowned", create=lambda tmpl, tb: None))
    loader.owner = None
    rec = next(r for r in proc_records() if r["driver"] == "hooks-owned-drv")
    assert rec["module"] == "hooks_mod"
    assert template._find_template("hooksowned").module == "hooks_mod"


@pytest.mark.parametrize("kind, mod, frontend", [
    ("skcipher", skcipher, skcipher.SKCIPHER_FRONTEND),
    ("shash", shash, shash.SHASH_FRONTEND),
    ("cipher", cipher, cipher.CIPHER_FRONTEND),
])
def test_each_frontend_registers_its_type_and_grab_helper(kind, mod, frontend):
    t = crypto_type.crypto_type_of(kind)
    assert t.frontend is frontend and t.show is mod.show
    with pytest.raises(capi.CryptoError) as e:
        crypto_type.crypto_register_type(kind, frontend, mod.show)
    assert e.value.errno == EEXIST and kind in str(e.value)
    grab = getattr(mod, f"crypto_grab_{kind}")
    assert getattr(capi, f"crypto_grab_{kind}") is grab
    assert not hasattr(template, f"crypto_grab_{kind}")     # lives with its frontend now


def test_grab_helpers_find_inner_algorithms_of_their_type():
    sp = capi.crypto_grab_cipher("aes")
    assert sp.frontend is cipher.CIPHER_FRONTEND and sp.alg.cra_name == "aes"
    sp = capi.crypto_grab_shash("nhpoly1305")
    assert sp.frontend is shash.SHASH_FRONTEND and sp.alg.digestsize == 16
    sp = capi.crypto_grab_skcipher("xchacha12")
    assert sp.frontend is skcipher.SKCIPHER_FRONTEND and sp.alg.ivsize == 32
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_grab_cipher("xchacha12")                  # not a cipher
    assert e.value.errno == ENOENT and "cipher" in str(e.value)


def test_proc_shows_each_type_through_the_table(register, proc_records, monkeypatch):
    register(toy("hooks-shown", "hooks-shown-drv"))
    orig = crypto_type.crypto_type_of("skcipher")
    monkeypatch.setitem(crypto_type._types, "skcipher",
                        attrs.evolve(orig, show=lambda alg: orig.show(alg) + [("hooked", alg.cra_name)]))
    rec = next(r for r in proc_records() if r["driver"] == "hooks-shown-drv")
    assert rec["type"] == "skcipher" and rec["hooked"] == "hooks-shown"
    monkeypatch.delitem(crypto_type._types, "skcipher")
    rec = next(r for r in proc_records() if r["driver"] == "hooks-shown-drv")
    assert rec["type"] == "unknown"

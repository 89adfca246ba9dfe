"""Module loading: MODULE_ALIAS_CRYPTO, request_module, plug-ins, insmod/rmmod.

Mirrors what include/linux/crypto.h's MODULE_ALIAS_CRYPTO and modprobe do for
the crypto API (crypto/api.c's crypto_larval_lookup asks for "crypto-<name>",
then "crypto-<name>-all").  Plug-ins are installed
for real: a throw-away distribution (a ``*.dist-info`` with entry points in the
``crypto_api.modules`` group) is put on sys.path, so discovery goes through
importlib.metadata exactly as for an installed third-party driver.
"""

import subprocess
import sys
import textwrap

import pytest

import crypto_api as capi
from crypto_api import modules
from crypto_api.errors import EBUSY, EEXIST, ENOENT

PLUGIN = '''
"""Throw-away crypto_api plug-in for tests/core/test_modules.py."""
import crypto_api as capi
import regplug_events

MODULE_ALIASES = {aliases!r}


def _copy(req):
    walk = capi.skcipher_walk_virt(req)
    while walk.nbytes:
        walk.dst[:walk.nbytes] = walk.src[:walk.nbytes]
        capi.skcipher_walk_done(walk, 0)


ALG = capi.SkcipherAlg(cra_name={name!r}, cra_driver_name={driver!r}, cra_priority=100,
                       cra_blocksize=1, setkey=lambda tfm, key: None,
                       encrypt=_copy, decrypt=_copy)


def module_init():
    regplug_events.EVENTS.append(("init", __name__))
    capi.require_cpu({cpu_ok!r}, {driver!r}, "regtest: pretend the CPU lacks a feature")
    capi.crypto_register_skcipher(ALG)


def module_exit():
    regplug_events.EVENTS.append(("exit", __name__))
    capi.crypto_unregister_skcipher(ALG)
'''


@pytest.fixture
def plugins(tmp_path):
    """``plugins({"modname": (aliases, cra_name, driver[, cpu_ok])})`` installs a distribution.

    Returns the shared event list the plug-ins append ``("init", name)`` to.
    Teardown unloads the plug-ins and uninstalls the distribution.
    """
    installed = []

    def install(spec):
        (tmp_path / "regplug_events.py").write_text("EVENTS = []\n")
        eps = ["[crypto_api.modules]"]
        for modname, (aliases, name, driver, *rest) in spec.items():
            cpu_ok = rest[0] if rest else True
            (tmp_path / f"{modname}.py").write_text(PLUGIN.format(
                aliases=tuple(aliases), name=name, driver=driver, cpu_ok=cpu_ok))
            eps.append(f"{modname} = {modname}")
            installed.append(modname)
        dist = tmp_path / "regtest_plugins-0.0.dist-info"
        dist.mkdir()
        (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: regtest-plugins\nVersion: 0.0\n")
        (dist / "entry_points.txt").write_text("\n".join(eps) + "\n")
        sys.path.insert(0, str(tmp_path))
        modules.rescan()
        import regplug_events
        return regplug_events.EVENTS

    yield install
    for name in installed:
        if name in capi.loaded_modules():
            capi.rmmod(name)
        sys.modules.pop(name, None)
    sys.modules.pop("regplug_events", None)
    if str(tmp_path) in sys.path:
        sys.path.remove(str(tmp_path))
    modules.rescan()


def alloc_driver(name, type=0, mask=0):
    with capi.crypto_alloc_skcipher(name, type, mask) as tfm:
        return tfm.driver_name


def test_module_alias_crypto_gives_both_forms():
    assert capi.MODULE_ALIAS_CRYPTO("x") == ("x", "crypto-x")
    assert capi.MODULE_ALIAS_CRYPTO("aes", "aes-generic") == (
        "aes", "crypto-aes", "aes-generic", "crypto-aes-generic")


def test_the_generic_modules_alias_every_name_and_driver_name():
    from crypto_api.algs import chacha_generic
    for n in ("chacha20", "xchacha20", "xchacha12"):
        for alias in (n, "crypto-" + n, n + "-generic", "crypto-" + n + "-generic"):
            assert alias in chacha_generic.MODULE_ALIASES


def test_a_lookup_miss_loads_a_plugin_through_its_crypto_alias(plugins, proc_records):
    events = plugins({"regplug_one": (capi.MODULE_ALIAS_CRYPTO("regplugalg1", "regplugalg1-drv"),
                                      "regplugalg1", "regplugalg1-drv")})
    assert "regplug_one" not in capi.loaded_modules()
    assert alloc_driver("regplugalg1") == "regplugalg1-drv"
    assert events == [("init", "regplug_one")]
    assert "regplug_one" in capi.loaded_modules()
    rec = [r for r in proc_records() if r["driver"] == "regplugalg1-drv"]
    assert rec[0]["module"] == "regplug_one"
    # already loaded: a second lookup loads nothing
    assert alloc_driver("regplugalg1-drv") == "regplugalg1-drv"
    assert capi.request_module("crypto-regplugalg1") == 0
    assert events == [("init", "regplug_one")]


def test_lookups_request_only_the_crypto_prefixed_alias(plugins):
    events = plugins({"regplug_bare": (("regplugalg2",), "regplugalg2", "regplugalg2-drv")})
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("regplugalg2")
    assert e.value.errno == ENOENT and "regplugalg2" in str(e.value)
    assert events == []
    # userspace may still load it by the unprefixed alias
    assert capi.request_module("regplugalg2") == 1
    assert alloc_driver("regplugalg2") == "regplugalg2-drv"


def test_the_all_alias_is_requested_unless_need_fallback_is_forbidden(plugins):
    events = plugins({"regplug_all": (("crypto-regplugalg3-all",), "regplugalg3", "regplugalg3-drv")})
    NF = capi.CRYPTO_ALG_NEED_FALLBACK
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("regplugalg3", 0, NF)     # forbids NEED_FALLBACK
    assert e.value.errno == ENOENT
    assert events == []
    assert alloc_driver("regplugalg3") == "regplugalg3-drv"
    assert events == [("init", "regplug_all")]


def test_asking_for_need_fallback_still_requests_the_all_alias(plugins):
    events = plugins({"regplug_all2": (("crypto-regplugalg8-all",), "regplugalg8", "regplugalg8-drv")})
    NF = capi.CRYPTO_ALG_NEED_FALLBACK
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("regplugalg8", NF, NF)   # requires the flag: loads, finds none
    assert e.value.errno == ENOENT
    assert events == [("init", "regplug_all2")]


def test_crypto_name_is_requested_before_crypto_name_all(plugins):
    events = plugins({
        "regplug_order_all": (("crypto-regplugalg4-all",), "regplugalg4", "regplugalg4-fallback"),
        "regplug_order_main": (("crypto-regplugalg4",), "regplugalg4", "regplugalg4-main"),
    })
    alloc_driver("regplugalg4")
    assert events == [("init", "regplug_order_main"), ("init", "regplug_order_all")]


def test_a_module_whose_init_fails_registers_nothing(plugins):
    events = plugins({"regplug_nocpu": (capi.MODULE_ALIAS_CRYPTO("regplugalg5"), "regplugalg5",
                                        "regplugalg5-drv", False)})
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("regplugalg5")
    assert e.value.errno == ENOENT
    assert events == [("init", "regplug_nocpu")]
    assert "regplug_nocpu" not in capi.loaded_modules()
    assert capi.request_module("crypto-regplugalg5") == 0


def test_a_broken_plugin_does_not_break_lookups(plugins, tmp_path):
    plugins({"regplug_fine": (capi.MODULE_ALIAS_CRYPTO("regplugalg6"), "regplugalg6", "regplugalg6-drv")})
    (tmp_path / "regplug_broken.py").write_text("raise ImportError('regtest: broken on purpose')\n")
    eps = tmp_path / "regtest_plugins-0.0.dist-info" / "entry_points.txt"
    eps.write_text(eps.read_text() + "regplug_broken = regplug_broken\n")
    modules.rescan()
    assert alloc_driver("regplugalg6") == "regplugalg6-drv"


def test_request_module_of_an_unknown_alias_loads_nothing():
    assert capi.request_module("crypto-regtest-no-such-alias") == 0


def test_insmod_and_rmmod(tmp_path, proc_records):
    path = tmp_path / "regtest_insmod_drv.py"
    (tmp_path / "regplug_events.py").write_text("EVENTS = []\n")
    path.write_text(PLUGIN.format(aliases=(), name="regplugalg7", driver="regplugalg7-drv", cpu_ok=True))
    sys.path.insert(0, str(tmp_path))
    try:
        name = capi.insmod(str(path))
        assert name == "regtest_insmod_drv"
        assert name in capi.loaded_modules()
        with pytest.raises(capi.CryptoError) as e:
            capi.insmod(str(path))
        assert e.value.errno == EEXIST and name in str(e.value)
        tfm = capi.crypto_alloc_skcipher("regplugalg7")
        assert [r["module"] for r in proc_records() if r["driver"] == "regplugalg7-drv"] == [name]
        with pytest.raises(capi.CryptoError) as e:
            capi.rmmod(name)
        assert e.value.errno == EBUSY and "regplugalg7-drv" in str(e.value)
        tfm.free()
        capi.rmmod(name)
        assert name not in capi.loaded_modules()
        assert not capi.crypto_has_alg("regplugalg7")
        with pytest.raises(capi.CryptoError) as e:
            capi.rmmod(name)
        assert e.value.errno == ENOENT and name in str(e.value)
    finally:
        if "regtest_insmod_drv" in capi.loaded_modules():
            capi.rmmod("regtest_insmod_drv")
        sys.path.remove(str(tmp_path))
        sys.modules.pop("regplug_events", None)


def test_insmod_of_a_missing_file_is_enoent(tmp_path):
    with pytest.raises(capi.CryptoError) as e:
        capi.insmod(str(tmp_path / "regtest_missing.py"))
    assert e.value.errno == ENOENT and "regtest_missing.py" in str(e.value)


def test_importing_crypto_api_loads_no_algorithm_module():
    code = textwrap.dedent("""
        import crypto_api as capi
        print(capi.loaded_modules(), repr(capi.proc_crypto()))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[] ''"

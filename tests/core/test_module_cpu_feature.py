"""Modules loaded at boot by CPU feature (MODULE_CPU_FEATURE): what
module_cpu_feature_match's device-table entry makes udev do in the kernel,
here done by the first request_module.  A module with no crypto aliases is
found only this way; a CPU without the feature never loads it."""

import sys

import pytest

import crypto_api as capi
from crypto_api import modules
from crypto_api.errors import ENODEV, CryptoError

MODULE = '''
import crypto_api as capi

MODULE_ALIASES = ()
MODULE_CPU_FEATURE = {feature!r}


def _copy(req):
    walk = capi.skcipher_walk_virt(req)
    while walk.nbytes:
        walk.dst[:walk.nbytes] = walk.src[:walk.nbytes]
        capi.skcipher_walk_done(walk, 0)


ALG = capi.SkcipherAlg(cra_name="cpufeatalg", cra_driver_name={driver!r}, cra_priority=100,
                       cra_blocksize=1, setkey=lambda tfm, key: None, encrypt=_copy, decrypt=_copy)


def module_init():
    capi.request_module("crypto-lookup-during-init-cpufeat")   # as a tfm init allocating a hash
    capi.crypto_register_skcipher(ALG)


def module_exit():
    capi.crypto_unregister_skcipher(ALG)
'''

MODS = {"cpufeat_present": "featpresent", "cpufeat_absent": "featabsent"}


class FakeCpu:
    """The booted machine (its arch kept) with a CPU that has "featpresent" only."""

    def __init__(self, arch, error=None):
        self.arch = arch
        self.error = error

    def has(self, feature):
        if self.error:
            raise self.error
        return feature == "featpresent"


@pytest.fixture
def feature_modules(tmp_path, monkeypatch):
    eps = ["[crypto_api.modules]"]
    for mod, feature in MODS.items():
        (tmp_path / f"{mod}.py").write_text(MODULE.format(feature=feature, driver=mod + "-drv"))
        eps.append(f"{mod} = {mod}")
    dist = tmp_path / "cpufeat_plugins-0.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: cpufeat-plugins\nVersion: 0.0\n")
    (dist / "entry_points.txt").write_text("\n".join(eps) + "\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(modules, "_coldplugged", False)
    modules.rescan()
    yield
    for mod in MODS:
        if mod in capi.loaded_modules():
            capi.rmmod(mod)
        sys.modules.pop(mod, None)
    monkeypatch.undo()
    modules.rescan()


def test_first_request_loads_the_modules_whose_feature_the_cpu_has(feature_modules, monkeypatch):
    from crypto_api.machine import selection
    monkeypatch.setattr(selection, "current_machine", lambda arch=selection.current_machine().arch: FakeCpu(arch))
    assert "cpu:featpresent" in modules.alias_index()
    capi.request_module("crypto-no-such-alg-cpufeat")
    assert modules.is_loaded("cpufeat_present") and not modules.is_loaded("cpufeat_absent")
    with capi.crypto_alloc_skcipher("cpufeatalg") as tfm:
        assert tfm.driver_name == "cpufeat_present-drv"
    # once only, as boot: an rmmod'ed module stays unloaded
    capi.rmmod("cpufeat_present")
    capi.request_module("crypto-no-such-alg-cpufeat")
    assert not modules.is_loaded("cpufeat_present")


def test_unknown_cpu_features_load_nothing_and_lookups_go_on(feature_modules, monkeypatch):
    from crypto_api.machine import selection
    err = CryptoError(ENODEV, "machine arm64: missing qemu-aarch64 (Debian package qemu-user)")
    monkeypatch.setattr(selection, "current_machine", lambda arch=selection.current_machine().arch: FakeCpu(arch, err))
    assert capi.request_module("crypto-no-such-alg-cpufeat") == 0
    assert not modules.is_loaded("cpufeat_present") and not modules.is_loaded("cpufeat_absent")


LOOKING_MODULE = '''
import crypto_api as capi

MODULE_ALIASES = ()
MODULE_CPU_FEATURE = "featpresent"
INITS = []


def module_init():
    INITS.append(1)
    # as a registration self-test that allocates a fallback: a lookup from inside init,
    # the first request_module of the boot
    capi.request_module("crypto-no-such-alg-cpufeat")


def module_exit():
    pass
'''


def test_a_lookup_from_a_coming_module_does_not_load_it_again(feature_modules, tmp_path, monkeypatch):
    """modprobe skips a module whose init is running: the coldplug that the first lookup
    starts must not run that module's init a second time (vmx_crypto's registration
    self-tests allocate their fallbacks while its init runs)."""
    from crypto_api.machine import selection
    monkeypatch.setattr(selection, "current_machine", lambda arch=selection.current_machine().arch: FakeCpu(arch))
    (tmp_path / "cpufeat_looking.py").write_text(LOOKING_MODULE)
    dist = tmp_path / "cpufeat_looking-0.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: cpufeat-looking\nVersion: 0.0\n")
    (dist / "entry_points.txt").write_text("[crypto_api.modules]\ncpufeat_looking = cpufeat_looking\n")
    modules.rescan()
    try:
        assert modules.load_all(only=["cpufeat_looking"]) == {"cpufeat_looking": None}
        assert sys.modules["cpufeat_looking"].INITS == [1]
        assert modules.is_loaded("cpufeat_present")     # the rest of the coldplug still happened
    finally:
        if modules.is_loaded("cpufeat_looking"):
            capi.rmmod("cpufeat_looking")
        sys.modules.pop("cpufeat_looking", None)


def test_a_module_loaded_by_hand_is_not_loaded_again_by_the_coldplug_its_init_starts(feature_modules,
                                                                                     monkeypatch):
    """load_all() (or insmod) loads the module before any lookup; its init's
    own lookup runs the boot coldplug, which must not load that module a
    second time (its drivers would be registered twice)."""
    from crypto_api.machine import selection
    monkeypatch.setattr(selection, "current_machine", lambda arch=selection.current_machine().arch: FakeCpu(arch))
    assert capi.load_all(only=["cpufeat_present"]) == {"cpufeat_present": None}
    drivers = [a.cra_driver_name for a in capi.registry.snapshot() if a.cra_name == "cpufeatalg"]
    assert drivers == ["cpufeat_present-drv"]

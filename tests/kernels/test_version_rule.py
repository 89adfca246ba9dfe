"""The registry's version rule (crypto_api.registry.VersionRule): the one hook
through which a kernel version decides each registration.  Checked in this
process with a made-up rule over made-up drivers, so it is independent of
the table's facts."""

import attrs
import pytest

import crypto_api as capi
from crypto_api import registry
from crypto_api.errors import ENOENT
from crypto_api.template import registered_templates
from toy_skciphers import wrap_template, xor_skcipher


@pytest.fixture
def rule():
    """Install a rule that renames ``kv-renamed`` to ``kv-renamed-6x`` (priority 321),
    leaves out ``kv-absent`` and the template ``kvtmpl``; the previous one is restored."""

    def driver(desc):
        if desc.cra_driver_name == "kv-absent":
            return None
        if desc.cra_driver_name == "kv-renamed":
            return attrs.evolve(desc, cra_driver_name="kv-renamed-6x", cra_priority=321)
        return desc

    old = registry.set_version_rule(registry.VersionRule(driver=driver, template=lambda n: n != "kvtmpl"))
    yield
    registry.set_version_rule(old)


def test_renamed_and_reprioritised(rule, register):
    desc = register(xor_skcipher("kvname", "kv-renamed", priority=100))
    tfm = capi.crypto_alloc_skcipher("kvname")
    try:
        assert (tfm.alg.cra_driver_name, tfm.alg.cra_priority) == ("kv-renamed-6x", 321)
    finally:
        tfm.free()
    assert registry.find_registered(desc).cra_driver_name == "kv-renamed-6x"
    capi.crypto_unregister_alg(desc)          # by the descriptor the module holds
    assert not capi.crypto_has_alg("kv-renamed-6x")


def test_left_out_registers_nothing_and_unregisters_quietly(rule):
    desc = xor_skcipher("kvgone", "kv-absent")
    capi.crypto_register_alg(desc)
    assert registry.refused(desc)
    assert not capi.crypto_has_alg("kv-absent") and not capi.crypto_has_alg("kvgone")
    capi.crypto_unregister_alg(desc)          # the module's exit: no error
    assert not registry.refused(desc)
    with pytest.raises(capi.CryptoError) as e:  # a second time it is an unknown descriptor
        capi.crypto_unregister_alg(desc)
    assert e.value.errno == ENOENT


def test_ungoverned_drivers_register_as_they_are(rule, register):
    register(xor_skcipher("kvplain", "kv-plain", priority=77))
    tfm = capi.crypto_alloc_skcipher("kvplain")
    try:
        assert (tfm.alg.cra_driver_name, tfm.alg.cra_priority) == ("kv-plain", 77)
    finally:
        tfm.free()


def test_template_left_out(rule):
    tmpl = wrap_template("kvtmpl")
    capi.crypto_register_template(tmpl)
    assert "kvtmpl" not in registered_templates()
    capi.crypto_unregister_template(tmpl)     # quietly, as for a driver


def test_no_rule_installed_means_every_driver_as_registered():
    assert registry.NO_VERSION_RULE.driver(object) is object
    assert registry.NO_VERSION_RULE.template("anything")

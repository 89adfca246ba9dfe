"""The ppc64le machine: its names, default CPU model and HWCAP/HWCAP2
decoding, and the features each emulated POWER model reports."""

import json

import pytest
from ppc64le_emulation import ppc_python

from crypto_api.errors import CryptoError
from crypto_api.machine import hwcap_features
from crypto_api.machine.selection import _make


def test_hwcap2_bits_name_the_power_generations():
    # uapi/asm/cputable.h: VEC_CRYPTO 0x02000000, ARCH_3_00 0x00800000, ARCH_3_1 0x00040000
    assert hwcap_features("ppc64le", 0, 0x02000000) == ("vcrypto",)
    assert hwcap_features("ppc64le", 0, 0x00800000) == ("arch_3_00",)
    assert hwcap_features("ppc64le", 0, 0x00040000) == ("arch_3_1",)
    assert hwcap_features("ppc64le", 0x00000080 | 0x10000000, 0) == ("vsx", "altivec")
    assert hwcap_features("ppc64le", 0xFFFFFFFF, 0) and "" not in hwcap_features("ppc64le", ~0, ~0)


def test_arm64_decoding_is_unchanged_by_the_table():
    assert hwcap_features("arm64", 0b1010, 0) == ("asimd", "aes")
    assert hwcap_features("x86_64", ~0, ~0) == ()


def test_default_cpu_and_spellings():
    m = _make("ppc64el", None)
    assert (m.arch, m.cpu, m.emulated) == ("ppc64le", "power9", True)
    assert _make("powerpc64le", "power10").cpu == "power10"
    with pytest.raises(CryptoError):
        _make("ppc64", None)


_FEATURES = "from crypto_api.machine import current_machine; import json; print(json.dumps(current_machine().features))"


@pytest.mark.emulation
@pytest.mark.parametrize("cpu,has,lacks", [
    ("power8", {"vsx", "altivec", "vcrypto", "arch_2_07"}, {"arch_3_00", "arch_3_1"}),
    ("power9", {"vsx", "vcrypto", "arch_3_00"}, {"arch_3_1"}),
    ("power10", {"vsx", "vcrypto", "arch_3_00", "arch_3_1", "mma"}, set()),
])
def test_emulated_models_report_their_isa(cpu, has, lacks):
    feats = set(json.loads(ppc_python(_FEATURES, cpu).stdout))
    assert has <= feats and not (lacks & feats)


def test_without_tools_ppc64le_skips_naming_packages_or_fails_as_required(monkeypatch):
    from arm64_emulation import REQUIRE_VAR, require_emulation
    from crypto_api.machine import backend
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(CryptoError) as e:
        backend.load("ppc64le", "aes_p8", cpu="some-model-never-started")
    assert e.value.errno == 19
    assert "powerpc64le-linux-gnu-gcc (Debian packages gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross)" \
        in str(e.value) and "qemu-ppc64le (Debian package qemu-user)" in str(e.value)
    monkeypatch.delenv(REQUIRE_VAR, raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"ppc64le emulation unavailable: missing .*qemu-ppc64le"):
        require_emulation("ppc64le")
    monkeypatch.setenv(REQUIRE_VAR, "1")
    with pytest.raises(pytest.fail.Exception, match="CRYPTO_API_REQUIRE_EMULATION=1"):
        require_emulation("ppc64le")

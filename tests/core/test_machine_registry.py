"""The machines registry (crypto_api.machine.known): entry points, the tree, lookups, refusals.

The installed entry points of ``crypto_api.machines`` and the tree's
``arch/<dir>/machine.py`` files (what the helpers' prebuild reads without
metadata) are the same machines; a name or alias finds its machine in any
case; bad registrations are left out with a warning and do not hide the
others; a fifth machine registered the same way is bootable, decodes its
HWCAP bits, owns its package's modules and brings its SIMD unit's
begin/end functions, with no line of the core changed.
"""

from __future__ import annotations

import logging
from importlib import metadata
from pathlib import Path

import pytest

from crypto_api import fpu, modules
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.machine import (MachineSpec, SimdUnit, Toolchain, emulated_machines, find_machine,
                                hwcap_features, known, machine_names, machine_spec, machines)
from crypto_api.machine.core import arch_cores
from crypto_api.machine.selection import _make

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def registry():
    """The registry, restored to the entry points' machines afterwards."""
    yield known
    known.rescan()


def test_the_entry_points_and_the_tree_are_the_same_machines():
    eps = {ep.name: ep.value for ep in metadata.entry_points(group=known.ENTRY_POINT_GROUP)}
    tree = known.tree_machines(str(ROOT / "arch"))
    assert sorted(eps) == sorted(name for name, _mod, _spec in tree) == list(machine_names())
    for name, mod, spec in tree:
        assert eps[name] == f"{mod}:MACHINE"
        assert machines()[name] is spec
        assert spec.package == mod.rsplit(".", 1)[0] and spec.package.startswith("crypto_api.arch.")


def test_the_project_machines_and_what_they_say():
    assert machine_names() == ("arm", "arm64", "ppc64le", "x86_64")
    assert [m.name for m in emulated_machines()] == ["arm", "arm64", "ppc64le"]
    assert machine_spec("x86_64").toolchain is None and not machine_spec("x86_64").emulatable
    assert machine_spec("arm").simd_in_softirq is False
    assert all(m.simd_in_softirq for m in machines().values() if m.name != "arm")
    for m in emulated_machines():
        assert arch_cores(m.name), m.name                  # every emulated machine has cores
        assert m.toolchain.cc.endswith("-gcc") and m.toolchain.qemu.startswith("qemu-")


@pytest.mark.parametrize("spelling, name", [("aarch64", "arm64"), ("AArch64", "arm64"), ("arm64", "arm64"),
                                            ("armv7l", "arm"), ("armhf", "arm"), ("ppc64el", "ppc64le"),
                                            ("powerpc64le", "ppc64le"), ("amd64", "x86_64"), (" X86_64 ", "x86_64")])
def test_names_and_aliases_find_their_machine(spelling, name):
    assert find_machine(spelling).name == name


def test_an_unknown_machine_is_einval_naming_the_known_ones():
    assert find_machine("sparc") is None
    with pytest.raises(CryptoError) as e:
        machine_spec("sparc")
    assert e.value.errno == EINVAL
    assert "unknown architecture 'sparc'" in e.value.message and "known: arm, arm64, ppc64le, x86_64" in e.value.message


def _spec(name, **kw):
    return MachineSpec(name=name, package=f"crypto_api.arch.{name}", **kw)


def test_bad_registrations_are_left_out_with_a_warning(registry, caplog):
    good = _spec("riscv64", aliases=("rv64",))
    with caplog.at_level(logging.WARNING, logger="crypto_api"):
        registry.use([("riscv64", "m:GOOD", good),
                      ("notaspec", "m:NOT", object()),
                      ("s390x", "m:WRONG", _spec("s390")),                 # named differently from its entry
                      ("rv", "m:CLASH", _spec("rv", aliases=("RV64",))),   # an alias another machine has
                      ("riscv64", "m:TWICE", _spec("riscv64"))])
    assert machine_names() == ("riscv64",) and find_machine("RV64") is good
    log = caplog.text
    assert "notaspec (m:NOT) is not a MachineSpec" in log
    assert "entry s390x (m:WRONG) describes 's390'" in log
    assert "rv (m:CLASH): rv64 already names another machine" in log
    assert "riscv64 (m:TWICE): riscv64 already names another machine" in log


RISCV64 = MachineSpec(
    name="riscv64", package="crypto_api.arch.riscv64", aliases=("riscv",),
    hwcap=("", "", "", "", "", "", "", "", "i", "", "", "", "m", "", "", "", "", "", "", "", "", "v"),
    default_cpu="rv64", cpu_models=("rv64",),
    toolchain=Toolchain(cc="riscv64-linux-gnu-gcc", packages="gcc-riscv64-linux-gnu", cflags=("-O2",),
                        qemu="qemu-riscv64-no-such-binary"),
    simd_units=(SimdUnit(name="vector", begin="kernel_vector_begin", end="kernel_vector_end",
                         about="riscv: the V unit."),))


def test_a_fifth_machine_needs_no_line_of_the_core(registry):
    registry.use(known.tree_machines(str(ROOT / "arch")) + [("riscv64", "test:RISCV64", RISCV64)])
    m = _make("riscv", None)            # its alias; booted on this host, so emulated, its default CPU
    assert (m.arch, m.cpu, m.emulated) == ("riscv64", "rv64", True)
    assert hwcap_features("riscv64", 1 << 8 | 1 << 12 | 1 << 21) == ("i", "m", "v")
    assert modules._package_arch("crypto_api.arch.riscv64.crc32c_glue") == "riscv64"
    assert modules._module_name("riscv64.chacha_vector") == "chacha_vector"
    sections = fpu.machine_sections()
    assert {"kernel_vector_begin", "kernel_vector_end", "kernel_neon_begin", "enable_kernel_vsx"} <= set(sections)
    with fpu.fpu_trace() as trace:
        sections["kernel_vector_begin"]()
        fpu.fpu_account(64)
        sections["kernel_vector_end"]()
    assert trace.units == ["vector"] and trace.nbytes == [64]
    assert "riscv: the V unit." in sections["kernel_vector_begin"].__doc__


def test_one_unit_declared_by_two_machines_is_one_pair_and_a_clash_is_left_out(registry, caplog):
    neon_a = SimdUnit(name="neon", begin="kernel_neon_begin", end="kernel_neon_end", about="a's rule")
    neon_b = SimdUnit(name="neon", begin="kernel_neon_begin", end="kernel_neon_end", about="b's rule")
    clash = SimdUnit(name="other", begin="kernel_neon_begin", end="kernel_other_end")
    registry.use([("a", "m:A", _spec("a", simd_units=(neon_a,))), ("b", "m:B", _spec("b", simd_units=(neon_b,))),
                  ("c", "m:C", _spec("c", simd_units=(clash,)))])
    with caplog.at_level(logging.WARNING, logger="crypto_api"):
        sections = fpu.machine_sections()
    assert sorted(sections) == ["kernel_neon_begin", "kernel_neon_end"]
    assert "a's rule" in sections["kernel_neon_begin"].__doc__ and "b's rule" in sections["kernel_neon_end"].__doc__
    assert "machine c: SIMD unit other: kernel_neon_begin/kernel_other_end already name another unit's" in caplog.text
    with fpu.fpu_trace() as trace:
        sections["kernel_neon_begin"]()
        with pytest.raises(fpu.FpuUsageError, match="the open section is a neon section"):
            fpu.kernel_fpu_end()
        sections["kernel_neon_end"]()
    assert trace.units == ["neon"]


def test_a_machine_that_is_never_emulated_cannot_be_booted_elsewhere(registry):
    host = _spec("host9", aliases=("h9",), cpu_note="mask its features instead")
    registry.use(known.tree_machines(str(ROOT / "arch")) + [("host9", "m:H", host)])
    with pytest.raises(CryptoError) as e:
        _make("h9", None)
    assert e.value.errno == EINVAL and "host9 cannot be emulated on a" in e.value.message

"""The arm64 ChaCha NEON glue's sections per kernel version.

The same worked trace as test_chacha_neon_drivers.py (other-arches reference
§1.5: an 8192-byte request over two pages gives 3840, a 320-byte bounce
step and 4032 bytes, each in a NEON section of its own, XChaCha's HChaCha in
one more) under the versions on each side of 5.5, where the glue dropped
the 64-byte shortcut and began to decide SIMD at each step (§1.6).  Each
case boots arm64 as that kernel in a fresh process.
"""

import json

import pytest
from arm64_emulation import CHACHA_NEON_TRACE, arm64_env, run_python

pytestmark = pytest.mark.emulation
WORKED = [["neon", 3840], ["neon", 320], ["neon", 4032]]


def trace(version):
    env = arm64_env(extra={"CRYPTO_API_KERNEL": version, "CRYPTO_API_SELFTESTS": "off"})
    out = json.loads(run_python(CHACHA_NEON_TRACE, env=env).stdout)
    assert all(v["ok"] for v in out.values()), out       # the same bytes as the generic driver
    return out


@pytest.mark.parametrize("version", ["5.0", "5.4", "5.10", "6.12"])
def test_worked_trace_in_every_version_with_the_driver(version):
    out = trace(version)
    assert out["c20_8192"]["sections"] == WORKED
    assert out["x12_8192"]["sections"] == [["neon", 0]] + WORKED
    assert out["x20_100"]["sections"] == [["neon", 0], ["neon", 100]]
    assert out["x12_nosimd"]["sections"] == []
    assert out["x12_nested"]["sections"] == [["neon", 0]]     # only the caller's own section


@pytest.mark.parametrize("version, sections", [
    ("5.4", []),                                   # v5.0-5.4: 64 bytes or less run the generic code
    ("5.10", [["neon", 0], ["neon", 64]]),         # 5.5+: no shortcut, HChaCha and one step
])
def test_the_64_byte_shortcut_ends_at_5_5(version, sections):
    assert trace(version)["x12_64"]["sections"] == sections

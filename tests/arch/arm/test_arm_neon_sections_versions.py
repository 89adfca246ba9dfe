"""The arm ChaCha NEON glue's sections on each side of 5.5 (other-arches
reference §2.3, §2.4): v5.0-5.4 send 64 bytes or less to the generic code;
5.5+ decide SIMD once per request for any length, so a 64-byte XChaCha
request shows HChaCha's section and one step's.  Each case boots arm (a
Cortex-A15: 5.5+ leaves the NEON code off on an A5/A7) as that kernel in a
fresh process; the bytes are checked against the generic driver."""

import json

import pytest
from arm64_emulation import CHACHA_NEON_TRACE, arm64_env, run_python

pytestmark = pytest.mark.emulation


def trace(version):
    env = arm64_env("cortex-a15", {"CRYPTO_API_KERNEL": version, "CRYPTO_API_SELFTESTS": "off"}, arch="arm")
    out = json.loads(run_python(CHACHA_NEON_TRACE, env=env).stdout)
    assert all(v["ok"] for v in out.values()), out
    return out


@pytest.mark.parametrize("version, short", [("5.4", []), ("5.10", [["neon", 0], ["neon", 64]])])
def test_short_requests_by_version(version, short):
    out = trace(version)
    assert out["x12_64"]["sections"] == short
    # one section per walk step (stride 256: whole pages here), HChaCha in its own
    assert out["x12_8192"]["sections"] == [["neon", 0], ["neon", 4096], ["neon", 4096]]
    assert out["x12_nosimd"]["sections"] == []                # decided once: the whole request generic
    assert out["x12_nested"]["sections"] == [["neon", 0]]

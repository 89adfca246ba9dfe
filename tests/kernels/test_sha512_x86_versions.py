"""The x86 SHA-512 drivers per kernel version (arch/x86/kernel_rows.py):
sha512/sha384-ssse3, -avx, -avx2 (module sha512_ssse3) from 5.0 until the
SHA-512 library replaced them (6.17), then crypto/sha512.c's -lib drivers;
a booted version answers ``sha512`` and ``hmac(sha512)`` accordingly."""

import json
import os
import subprocess
import sys

import pytest

from crypto_api.arch.x86.cpufeature import IS_X86
from crypto_api.arch.x86.sha_variants import SSSE3_AVX_AVX2
from crypto_api.kernels import KNOWN, query
from crypto_api.kernels.versions import key

X86_DRIVERS = {f"{n}-{s}": (n, p) for n in ("sha384", "sha512") for s, p, _ in SSSE3_AVX_AVX2}


@pytest.mark.parametrize("version", KNOWN)
def test_the_table_per_version(version):
    snap = query.snapshot(version, "x86_64")
    mine = {d: v for d, v in snap.items() if d in X86_DRIVERS}
    if key(version) < (6, 17):
        assert mine == X86_DRIVERS
        assert (snap["sha512-generic"], snap["sha384-generic"]) == (("sha512", 100), ("sha384", 100))
    else:
        assert mine == {}
        assert (snap["sha512-lib"], snap["sha384-lib"]) == (("sha512", 100), ("sha384", 100))
    coldplugged = {t.module for t in query.coldplugged(version, "x86_64")}
    assert ("sha512_ssse3" in coldplugged) == ((6, 2) <= key(version) < (6, 17))


CHILD = """
import json, sys, crypto_api as capi
capi.boot(kernel=sys.argv[1])
out = []
for name in ("sha512", "sha384"):
    with capi.crypto_alloc_shash(name) as h:
        out.append(h.driver_name)
h = capi.crypto_alloc_shash("hmac(sha512)")
out.append(h.driver_name)
h.free()
print(json.dumps(out))
"""


@pytest.mark.skipif(not IS_X86, reason="x86 host only")
@pytest.mark.parametrize("version", ["5.0", "6.12", "6.18"])
def test_a_booted_version_answers_sha512(version):
    best = [s for s, _, check in SSSE3_AVX_AVX2 if check()]
    if key(version) >= (6, 17):
        suffix = "lib"
    else:
        suffix = best[-1] if best else "generic"
    env = {k: v for k, v in os.environ.items() if k not in ("CRYPTO_API_KERNEL", "CRYPTO_API_ARCH", "CRYPTO_API_CPU")}
    env["CRYPTO_API_SELFTESTS"] = "off"
    out = subprocess.run([sys.executable, "-c", CHILD, version], env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.splitlines()[-1]) == \
        [f"sha512-{suffix}", f"sha384-{suffix}", f"hmac(sha512-{suffix})"]

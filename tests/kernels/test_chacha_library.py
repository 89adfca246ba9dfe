"""x86 ChaCha from 6.16: crypto/chacha.c's drivers over the x86 ChaCha library
(rule ``chacha.sections`` = "library").  In 6.18 and 6.19 the ``*-lib``
drivers run the SIMD code (registered by chacha_x86_64 in place of the
generic module's), and a request's FPU sections follow the library: per walk
step, 64 bytes or less (or no SIMD) generic and no section, longer steps a
section each (pieces of at most 4096 bytes, and a step is at most a page).
The walk steps themselves are what 6.12's per-step glue shows for the same
request, so 6.18's sections are 6.12's without the steps of 64 bytes or
less; the bytes are cryptography's ChaCha20 in both.  Each version boots in a
fresh process (x86_64)."""

import json
import os
import subprocess
import sys

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

from crypto_api.arch.x86.cpufeature import boot_cpu_has
from crypto_api.kernels import query

pytestmark = pytest.mark.skipif(not boot_cpu_has("ssse3"), reason="CPU lacks SSSE3: no x86 ChaCha code")

CHILD = r"""
import json, sys
import crypto_api as capi
capi.boot(kernel=sys.argv[1], arch="x86_64")
LENGTHS = [64, 1024, 64, 4096, 100, 3652]
got = {}
for name, ivsize in (("chacha20", 16), ("xchacha12", 32)):
    t = capi.crypto_alloc_skcipher(name)
    t.setkey(bytes(range(32)))
    iv = bytes(range(100, 100 + ivsize))
    data = bytes(i % 253 for i in range(sum(LENGTHS)))
    buf = bytearray(data)
    sgl = capi.sg_init_table(len(LENGTHS))
    pos = 0
    for sg, n in zip(sgl, LENGTHS):
        capi.sg_set_buf(sg, buf, pos, n)
        pos += n
    req = capi.skcipher_request_alloc(t)
    capi.skcipher_request_set_crypt(req, sgl, sgl, pos, bytearray(iv))
    with capi.fpu_trace() as tr:
        capi.crypto_skcipher_encrypt(req)
    with capi.fpu_trace() as short:
        t.encrypt(data[:64], iv)
    with capi.simd_disabled(), capi.fpu_trace() as nosimd:
        plain = t.encrypt(data, iv)
    got[name] = {"driver": t.driver_name, "priority": t.alg.cra_priority, "module": t.alg.cra_module,
                 "sections": tr.nbytes, "short": short.nbytes, "nosimd": nosimd.nbytes,
                 "out": bytes(buf).hex(), "nosimd_out": plain.hex()}
    t.free()
print(json.dumps(got))
"""

KEY = bytes(range(32))
DATA = bytes(i % 253 for i in range(64 + 1024 + 64 + 4096 + 100 + 3652))
_cache = {}


def boot(version):
    if version not in _cache:
        env = {k: v for k, v in os.environ.items()
               if k not in ("CRYPTO_API_KERNEL", "CRYPTO_API_ARCH", "CRYPTO_API_CPU")}
        env["CRYPTO_API_SELFTESTS"] = "off"
        out = subprocess.run([sys.executable, "-c", CHILD, version], env=env, capture_output=True, text=True,
                             timeout=600)
        assert out.returncode == 0, out.stderr
        _cache[version] = json.loads(out.stdout)
    return _cache[version]


def chacha20(iv):
    return Cipher(algorithms.ChaCha20(KEY, iv), mode=None).encryptor().update(DATA).hex()


@pytest.mark.parametrize("version", ["6.12", "6.18", "6.19"])
def test_chacha20_bytes_with_and_without_simd(version):
    got = boot(version)["chacha20"]
    want = chacha20(bytes(range(100, 116)))
    assert got["out"] == got["nosimd_out"] == want
    assert got["nosimd"] == []
    assert boot(version)["xchacha12"]["out"] == boot(version)["xchacha12"]["nosimd_out"]


@pytest.mark.parametrize("version", ["6.18", "6.19"])
def test_the_lib_drivers_run_the_x86_library(version):
    got = boot(version)
    for name in ("chacha20", "xchacha12"):
        assert (got[name]["driver"], got[name]["priority"], got[name]["module"]) == \
            (name + "-lib", 300, "chacha_x86_64")
        assert query.snapshot(version, "x86_64")[name + "-lib"] == (name, 300)
        # 6.12's walk steps, less those of 64 bytes or less (the library's generic code)
        steps = [n for n in boot("6.12")[name]["sections"]]
        if name == "xchacha12":
            assert steps[0] == got[name]["sections"][0] == 0      # HChaCha: a section of its own
            steps = steps[1:]
        want = [n for n in steps if n > 64]
        assert want != steps                       # the request has such steps
        assert got[name]["sections"][(name == "xchacha12"):] == want
        assert all(n <= 4096 for n in want)
        assert got[name]["short"] == []            # 64 bytes: the generic code
        assert got[name]["out"] == boot("6.12")[name]["out"]


def test_each_machine_module_holds_the_lib_names():
    """6.18+: the *-lib names belong to each machine's ChaCha module (its
    library), never to the generic module's rows."""
    owners = {"x86_64": "chacha_x86_64", "arm64": "chacha_neon", "arm": "chacha_neon",
              "ppc64le": "chacha_p10_crypto"}
    for version in ("6.18", "6.19"):
        for machine, module in owners.items():
            rows = [r for r in query.rows_for(version, machine) if r.driver == "xchacha12-lib"]
            assert [r.module for r in rows] == [module], (version, machine)
    assert [r.driver for r in query.rows_for("6.12", "x86_64") if r.cra_name == "xchacha12"] == \
        ["xchacha12-simd", "xchacha12-generic"]

"""The x86 ARIA modules' CPU checks (module init; a failed check is ENODEV
and registers nothing) and the S-box choice: masking GFNI on a GFNI CPU
makes the AVX and AVX2 modules run their AES-NI S-box code, which must then
pass the full self-tests (vectors and fuzzing against aria-generic) that
gate registration.  Each case runs in a fresh interpreter (module state is
per process), as tests/arch/test_cpu_masking.py does."""

import json
import os
import subprocess
import sys

import pytest

from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has

pytestmark = pytest.mark.skipif(not IS_X86, reason="x86 only")

PROBE = r"""
import json, os, crypto_api as capi
from crypto_api.arch.x86 import aria_aesni_avx_glue, aria_aesni_avx2_glue, aria_gfni_avx512_glue
names = ("aria_gfni_avx512_x86_64", "aria_aesni_avx2_x86_64", "aria_aesni_avx_x86_64")
errors = {k: (v.errno if v else None) for k, v in capi.load_all(only=names).items()}
recs = {}
for block in capi.proc_crypto().split("\n\n"):
    r = {l[:13].rstrip(): l[15:] for l in block.splitlines()}
    if "aria" in r.get("driver", ""):
        recs[r["driver"]] = r.get("selftest")
gfni = {m.MODULE_NAME: [a.cra_driver_name for a in m.MODULE.internal] and m.MODULE.impl.gfni
        for m in (aria_aesni_avx_glue, aria_aesni_avx2_glue, aria_gfni_avx512_glue) if m.MODULE.internal}
vec = json.load(open(os.environ["ARIA_VECTORS"]))["vectors"]
ok = {}
for drv in [d for d in recs if d.startswith(("ecb-aria", "ctr-aria"))]:
    with capi.crypto_alloc_skcipher(drv) as t:
        good = True
        for v in vec:
            if v["mode"] not in ("block", "ctr") or (v["mode"] == "block") != drv.startswith("ecb"):
                continue
            k, iv, p, c = (bytes.fromhex(v[f]) for f in ("key", "iv", "plaintext", "ciphertext"))
            t.setkey(k)
            good &= t.encrypt(p, iv or None) == c
        ok[drv] = good
print(json.dumps({"errors": errors, "selftests": recs, "gfni": gfni, "vectors": ok}))
"""


def probe(mask: str) -> dict:
    vectors = os.path.join(os.path.dirname(__file__), "..", "..", "crypto_api", "testmgr", "vectors",
                           "aria.json")
    env = dict(os.environ, CRYPTO_API_CPU_MASK=mask, CRYPTO_API_SELFTESTS="full",
               ARIA_VECTORS=os.path.abspath(vectors))
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def _need(*features):
    for f in features:
        if not boot_cpu_has(f):
            pytest.skip(f"CPU lacks {f.upper()}")


def test_gfni_masked_selects_the_aesni_sboxes():
    _need("avx2", "aes", "xsave_ymm")
    r = probe("gfni")
    assert r["errors"]["aria_gfni_avx512_x86_64"] == 19          # ENODEV: AVX-512 needs GFNI
    assert r["errors"]["aria_aesni_avx2_x86_64"] is None and r["errors"]["aria_aesni_avx_x86_64"] is None
    assert r["gfni"] == {"aria_aesni_avx_x86_64": False, "aria_aesni_avx2_x86_64": False}
    assert not [d for d in r["selftests"] if d.endswith("avx512")]
    for d in ("ecb-aria-avx", "ctr-aria-avx", "ecb-aria-avx2", "ctr-aria-avx2"):
        assert r["selftests"][d] == "passed" and r["vectors"][d], d


def test_gfni_cpu_runs_the_gfni_sboxes():
    _need("avx2", "aes", "xsave_ymm", "gfni")
    r = probe("")
    assert r["gfni"]["aria_aesni_avx_x86_64"] is True and r["gfni"]["aria_aesni_avx2_x86_64"] is True
    assert all(r["vectors"].values()) and len(r["vectors"]) == (6 if boot_cpu_has("avx512f") else 4)


def test_without_avx2_only_the_avx_module_registers():
    _need("avx", "aes", "xsave_ymm")
    r = probe("avx2")
    assert r["errors"] == {"aria_gfni_avx512_x86_64": 19, "aria_aesni_avx2_x86_64": 19,
                           "aria_aesni_avx_x86_64": None}
    assert sorted(d for d in r["selftests"] if d.startswith(("ecb-aria", "ctr-aria"))) == [
        "ctr-aria-avx", "ecb-aria-avx"]


def test_without_aesni_or_avx_nothing_registers():
    r = probe("aes,avx512f")
    assert r["errors"]["aria_aesni_avx_x86_64"] == 19 and r["errors"]["aria_aesni_avx2_x86_64"] == 19
    r = probe("avx")
    assert set(r["errors"].values()) == {19}
    assert not [d for d in r["selftests"] if d.startswith(("ecb-aria", "ctr-aria", "__"))]


def test_without_zmm_state_no_avx512():
    _need("avx2", "aes", "xsave_ymm")
    r = probe("xsave_zmm")
    assert r["errors"]["aria_gfni_avx512_x86_64"] == 19

"""x86's XCTR generations, cts-cbc-aes-aesni and the directly registered ARIA
drivers per kernel version, each version in a fresh process.

* The first allocation of ``xctr(aes)`` and ``cts(cbc(aes))`` (the AES-NI
  module is loaded at boot by its CPU device table, so its drivers answer the
  first lookup): before 6.0 no xctr; 6.0-6.16 ``xctr-aes-aesni`` (400,
  where AVX is usable); from the 6.17 glue read the best generation this CPU
  runs (``-aesni-avx`` 500, ``-vaes-avx2`` 600, ``-vaes-avx512`` 800, or 1
  where 512-bit vectors are discouraged).  ``cts(cbc(aes))`` is the template
  over ``cbc-aes-aesni`` before 5.12 and ``cts-cbc-aes-aesni`` after.
* hctr2(aes) over that XCTR driver, with 6.0-6.18's priority
  (2·xctr + 4·polyval + aes) / 7 and 6.19's (2·xctr + aes) / 3.
* testmgr's full tests (vectors, then fuzzing against the generic drivers)
  of these drivers and of the ARIA ones pass under 5.15, 6.12, 6.18 and 6.19.
* 6.16+: the ARIA drivers are synchronous and not internal, with no cryptd.
The expectations are written from the kernel's facts (the version table's
sources), the CPU's features from its checks.
"""

import json
import os
import subprocess
import sys

import pytest

from crypto_api.arch.x86.aesni_cpu import has_vaes_avx2, has_vaes_avx10
from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has
from crypto_api.kernels import KNOWN, query
from crypto_api.kernels.versions import key

pytestmark = pytest.mark.skipif(not (IS_X86 and boot_cpu_has("aes") and boot_cpu_has("pclmulqdq")),
                                reason="x86 with AES-NI and PCLMULQDQ only")

FIRST = os.path.join(os.path.dirname(__file__), "first_answer_child.py")
HCTR2 = r"""
import json, sys, crypto_api as capi
capi.boot(kernel=sys.argv[1])
t = capi.crypto_alloc_skcipher("hctr2(aes)")
x = capi.crypto_alloc_skcipher("xctr(aes)")
print(json.dumps([t.driver_name, t.alg.cra_priority, x.alg.cra_priority]))
"""
ARIA = r"""
import json, sys, crypto_api as capi
capi.boot(kernel=sys.argv[1])
capi.load_all()
out = {a.cra_driver_name: [a.cra_name, a.cra_flags & (capi.CRYPTO_ALG_ASYNC | capi.CRYPTO_ALG_INTERNAL)]
       for a in capi.registry.snapshot() if "aria" in a.cra_driver_name and not a.is_larval}
print(json.dumps(out))
"""


def env():
    e = {k: v for k, v in os.environ.items() if k not in ("CRYPTO_API_KERNEL", "CRYPTO_API_ARCH", "CRYPTO_API_CPU")}
    e["CRYPTO_API_SELFTESTS"] = "off"
    return e


def run(args):
    out = subprocess.run([sys.executable, *args], env=env(), capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def best_xctr(version):
    """The kernel's answer on this CPU: the 6.0 driver where AVX is usable, or the best generation."""
    if key(version) < key("6.0"):
        return None
    avx = boot_cpu_has("avx")
    if key(version) < key("6.17"):
        return "xctr-aes-aesni" if avx and boot_cpu_has("xsave_ymm") else "xctr(aes-aesni)"
    if has_vaes_avx10() and not boot_cpu_has("prefer_ymm"):
        return "xctr-aes-vaes-avx512"
    if has_vaes_avx2():
        return "xctr-aes-vaes-avx2"
    return "xctr-aes-aesni-avx" if avx else "xctr(aes-aesni)"


@pytest.mark.parametrize("version", KNOWN)
def test_first_allocation_of_xctr_and_cts(version):
    got = run([FIRST, version, "xctr(aes)", "cts(cbc(aes))"])
    want = best_xctr(version)
    if want is None:
        assert "ENOENT" in got["xctr(aes)"], got
    else:
        assert got["xctr(aes)"]["first"] == got["xctr(aes)"]["second"] == want
    cts = "cts-cbc-aes-aesni" if key(version) >= key("5.12") else "cts(cbc-aes-aesni)"
    assert got["cts(cbc(aes))"]["first"] == got["cts(cbc(aes))"]["second"] == cts


@pytest.mark.parametrize("version", ["6.1", "6.12", "6.18", "6.19"])
def test_hctr2_over_each_versions_xctr(version):
    driver, prio, xprio = run(["-c", HCTR2, version])
    polyval = "polyval-lib" if key(version) >= key("6.19") else "polyval-clmulni"
    assert driver == f"hctr2_base({best_xctr(version)},{polyval})"
    aes = 300                                               # aes-aesni
    if polyval == "polyval-lib":
        assert prio == (2 * xprio + aes) // 3
    else:
        assert prio == (2 * xprio + 4 * 200 + aes) // 7     # polyval-clmulni 200


@pytest.mark.parametrize("version", ["6.12", "6.18"])
def test_aria_drivers_are_direct_from_6_16(version):
    got = run(["-c", ARIA, version])
    if not got:
        pytest.skip("CPU without the ARIA modules' features")
    public = {d: v for d, v in got.items() if not d.startswith(("__", "cryptd(")) and d != "aria-generic"}
    assert public
    for d, (name, flags) in public.items():
        assert not name.startswith("__")
        # 6.1-6.15: the SIMD wrapper (async) over an internal twin; 6.16+: sync, not internal, no twin
        assert bool(flags) == (version == "6.12"), (d, flags)
        assert ("__" + d in got) == (version == "6.12"), d


@pytest.mark.parametrize("version", ["5.15", "6.12", "6.18", "6.19"])
def test_testmgr_full_tests_pass(version):
    have = {name for name, _prio in query.snapshot(version, "x86_64").values()}
    names = [n for n in ("cts(cbc(aes))", "xctr(aes)", "ecb(aria)", "ctr(aria)", "xts(aria)") if n in have]
    out = subprocess.run([sys.executable, "-m", "crypto_api", "--kernel", version, "selftest", "--full",
                          "--iterations", "40", *names], env=env(), capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    rows = [ln.split() for ln in out.stdout.splitlines()]
    passed = {r[0] for r in rows if len(r) == 5 and r[2] == "passed"}
    assert not [r for r in rows if len(r) >= 3 and r[2] == "failed"], out.stdout
    if key(version) >= key("5.12"):
        assert "cts-cbc-aes-aesni" in passed
    if best_xctr(version) and not best_xctr(version).startswith("xctr("):
        assert best_xctr(version) in passed

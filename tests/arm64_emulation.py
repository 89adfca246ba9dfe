"""Whether arm64 (or another emulated arch's) code can run here (qemu-user and the cross compiler), and
how an emulated test reacts when it cannot: a skip naming the missing
package, or — with CRYPTO_API_REQUIRE_EMULATION=1 (CI) — a failure.  The
check and the variable are the library's (crypto_api.machine.emulation), the
ones the command line applies to an emulated machine."""

import json
import os
import subprocess
import sys
from typing import Dict, List, Optional

import pytest

from crypto_api.machine.emulation import REQUIRE_VAR, required, tools_problem


def require_emulation(arch: str = "arm64") -> None:
    """Skip (or fail, when required) unless ``arch`` code can be built and run."""
    err = tools_problem(arch)
    if err is None:
        return
    if required():
        pytest.fail(f"{err.message} ({REQUIRE_VAR}=1 requires it)")
    pytest.skip(err.message)


def arm64_env(cpu: str = "max", extra: Optional[Dict[str, str]] = None,
              arch: str = "arm64") -> Dict[str, str]:
    """The environment of a process booted as ``arch`` (default arm64) with ``cpu``."""
    env = dict(os.environ, CRYPTO_API_ARCH=arch, CRYPTO_API_CPU=cpu)
    env.update(extra or {})
    return env


def run_python(code: str, cpu: str = "max", env: Optional[Dict[str, str]] = None,
               check: bool = True) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter booted as an arm64 machine."""
    r = subprocess.run([sys.executable, "-c", code], env=env or arm64_env(cpu),
                       capture_output=True, text=True)
    if check:
        assert r.returncode == 0, f"rc {r.returncode}\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}"
    return r


def run_json(code: str, cpu: str = "max", extra: Optional[Dict[str, str]] = None,
             stdin: Optional[object] = None):
    """Run ``code`` in a fresh arm64 interpreter with ``cpu`` (``extra``
    added to its environment, this tests folder importable: what such code
    imports is in tests/emulated_cases.py), the JSON of ``stdin`` (if any) on
    its standard input; the JSON of its last output line."""
    tests_dir = os.path.dirname(os.path.abspath(__file__))
    # no empty PYTHONPATH entry (it would put the child's working directory first)
    path = os.pathsep.join([tests_dir] + [p for p in [os.environ.get("PYTHONPATH")] if p])
    env = arm64_env(cpu, {"PYTHONPATH": path, **(extra or {})})
    r = subprocess.run([sys.executable, "-c", code], input=None if stdin is None else json.dumps(stdin),
                       env=env, capture_output=True, text=True)
    assert r.returncode == 0, f"rc {r.returncode}\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}"
    return json.loads(r.stdout.strip().splitlines()[-1])


def run_cases(code: str, cases: list, cpu: str = "max") -> list:
    """:func:`run_json` with the self-tests off and ``cases`` on stdin."""
    return run_json(code, cpu, {"CRYPTO_API_SELFTESTS": "off"}, cases)


def run_cli(*args: str, env: Optional[Dict[str, str]] = None) -> subprocess.CompletedProcess:
    """``python -m crypto_api ARGS`` (the caller passes --arch/--cpu)."""
    return subprocess.run([sys.executable, "-m", "crypto_api", *args], env=env or dict(os.environ),
                          capture_output=True, text=True)


def host_env() -> Dict[str, str]:
    """The environment without a machine choice: the CLI boots the host unless told --arch."""
    return {k: v for k, v in os.environ.items() if k not in ("CRYPTO_API_ARCH", "CRYPTO_API_CPU")}


def list_records(text: str) -> Dict[str, Dict[str, str]]:
    """The records of ``python -m crypto_api list`` (/proc/crypto format), by driver name."""
    recs, cur = [], {}
    for line in text.splitlines() + [""]:
        if not line.strip():
            if cur:
                recs.append(cur)
            cur = {}
            continue
        k, _, v = line.partition(":")
        cur[k.strip()] = v.strip()
    return {r["driver"]: r for r in recs if "driver" in r}


ADIANTUM_DISK = ("--cipher", "xchacha12,aes-adiantum-plain64", "--sector-size", "4096")


def disk_image_via(machine: List[str], img: str, key_file: str, op: str = "encrypt") -> bytes:
    """Run ``disk ... op img`` (Adiantum, 4096-byte sectors) on ``machine`` (CLI options,
    [] for the host); the image's bytes afterwards."""
    r = run_cli(*machine, "disk", *ADIANTUM_DISK, "--key-file", key_file, op, img, env=host_env())
    assert r.returncode == 0, r.stderr
    with open(img, "rb") as f:
        return f.read()


_PLANTED_SELFTEST = r"""
import os
import crypto_api as capi
from crypto_api import testmgr
capi.request_module("crypto-xchacha12")            # the real drivers first, tested
testmgr.set_level("full"); testmgr.set_fuzz_iterations(20); testmgr.set_fuzz_seed(1)
capi.insmod(os.environ["PLANTED"])
driver = "driver       : " + os.environ["PLANTED_DRIVER"]
rec = capi.proc_crypto().split(driver)[1].split("\n\n")[0]
print(rec.split("selftest     : ")[1].split()[0])
"""


def planted_selftest(env: Dict[str, str], module: str, driver: str) -> str:
    """Insmod the plug-in ``module`` (after the real xchacha12 drivers) at self-test level
    full, 20 fuzz iterations, seed 1, in a machine booted with ``env``; the ``selftest``
    field /proc/crypto then shows for ``driver``."""
    return run_python(_PLANTED_SELFTEST, env=dict(env, PLANTED=module, PLANTED_DRIVER=driver)).stdout.strip()


#: Script text: the official chacha20/xchacha20/xchacha12 vectors both ways through
#: the ``*-neon`` drivers of the booted machine, counting them in ``n`` (the caller's
#: script goes on from there and prints n).
CHACHA_NEON_VECTORS = r"""
import crypto_api as capi
from crypto_api.testmgr.vectors import suite
n = 0
for alg in ("chacha20", "xchacha20", "xchacha12"):
    with capi.crypto_alloc_skcipher(alg) as t:
        assert t.driver_name == alg + "-neon", t.driver_name
        for v in suite(alg):
            t.setkey(v.key)
            assert t.encrypt(v.ptext, v.iv) == v.ctext, v.id
            assert t.decrypt(v.ctext, v.iv) == v.ptext, v.id
            n += 1
"""


#: A child's code: the NEON sections (unit, bytes) and the bytes (against the
#: generic driver) of the ChaCha NEON drivers on page-aligned buffers, printed
#: as JSON: 8192 bytes (the references' worked trace), 100 and 64 bytes, and
#: 8192 bytes with SIMD disabled for test or inside the caller's own section.
CHACHA_NEON_TRACE = r"""
import json, mmap
import crypto_api as capi

def trace(driver, n, nosimd=False, nested=False, ivsize=32):
    t = capi.crypto_alloc_skcipher(driver)
    g = capi.crypto_alloc_skcipher(driver.replace("-neon", "-generic"))
    key = bytes(range(32)); t.setkey(key); g.setkey(key)
    buf = mmap.mmap(-1, 3 * 4096)                       # page-aligned
    data = bytes((i * 13) & 0xFF for i in range(n))
    buf[:n] = data
    iv = bytearray(range(ivsize))
    req = capi.skcipher_request_alloc(t)
    sg = capi.sg_init_one(memoryview(buf)[:n])
    capi.skcipher_request_set_crypt(req, sg, sg, n, iv)
    with capi.fpu_trace() as tr:
        if nosimd:
            with capi.simd_disabled():
                capi.crypto_skcipher_encrypt(req)
        elif nested:
            capi.kernel_neon_begin()
            try:
                capi.crypto_skcipher_encrypt(req)
            finally:
                capi.kernel_neon_end()
        else:
            capi.crypto_skcipher_encrypt(req)
    ok = bytes(buf[:n]) == g.encrypt(data, bytes(range(ivsize)))
    sections = [[s.unit, s.nbytes] for s in tr.sections]
    t.free(); g.free()
    return {"sections": sections, "ok": ok}

print(json.dumps({
    "x12_8192": trace("xchacha12-neon", 8192),
    "c20_8192": trace("chacha20-neon", 8192, ivsize=16),
    "x20_100": trace("xchacha20-neon", 100),
    "x12_64": trace("xchacha12-neon", 64),
    "x12_nosimd": trace("xchacha12-neon", 8192, nosimd=True),
    "x12_nested": trace("xchacha12-neon", 8192, nested=True),
}))
"""

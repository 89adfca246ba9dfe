"""arm64, arm and ppc64le ChaCha from 6.16: crypto/chacha.c's drivers over each
machine's ChaCha library (rule ``chacha.sections`` = "library"), the real
NEON/VSX code under qemu-user.

Each case boots one version on one emulated machine in a fresh process
(library_arches_child.py).  The bytes are cryptography's ChaCha20 and a
pure-Python XChaCha (tests/chacha_ref.py), with SIMD usable and not.  The
sections are predicted from the walk steps a made-up skcipher sees over the
same scatterlist: in 6.18/6.19 the steps of stride 64 longer than 64 bytes,
each in pieces of at most 4096 bytes (XChaCha's NEON HChaCha first, in a
section of its own, on arm and arm64), against 6.12's one section per step
of the driver's own walksize (320 on arm64, 256 on arm, 64 on POWER10).
"""

import json
import os
import struct
import subprocess
import sys

import pytest
from arm64_emulation import host_env, require_emulation, run_cli
from chacha_ref import ref_hchacha_words, ref_keystream
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

from crypto_api.kernels import query

CHILD = os.path.join(os.path.dirname(__file__), "library_arches_child.py")
sys.path.insert(0, os.path.dirname(__file__))
from library_arches_child import KEY, LENGTHS  # noqa: E402

DATA = bytes(i % 251 for i in range(sum(LENGTHS)))
#: (machine, CPU, the module holding the names, the SIMD unit, whether it has a SIMD HChaCha)
MACHINES = [("arm64", "max", "chacha_neon", "neon", True),
            ("arm", "cortex-a7", "chacha_neon", "neon", True),
            ("ppc64le", "power10", "chacha_p10_crypto", "vsx", False)]
NAMES = (("chacha20", 16, 20), ("xchacha20", 32, 20), ("xchacha12", 32, 12))
_cache = {}


def boot(version, arch, cpu):
    if (version, arch, cpu) not in _cache:
        require_emulation(arch)
        env = {k: v for k, v in os.environ.items() if k != "CRYPTO_API_KERNEL"}
        env.update(CRYPTO_API_ARCH=arch, CRYPTO_API_CPU=cpu, CRYPTO_API_SELFTESTS="off")
        out = subprocess.run([sys.executable, CHILD, version], env=env, capture_output=True, text=True,
                             timeout=600)
        assert out.returncode == 0, out.stderr
        _cache[version, arch, cpu] = json.loads(out.stdout)
    return _cache[version, arch, cpu]


def reference(name, iv, nrounds):
    """ChaCha20 from cryptography; XChaCha from the pure-Python permutation."""
    if name == "chacha20":
        return Cipher(algorithms.ChaCha20(KEY, iv), mode=None).encryptor().update(DATA)
    consts = list(struct.unpack("<4I", b"expand 32-byte k"))
    key = list(struct.unpack("<8I", KEY))
    subkey = ref_hchacha_words(consts + key + list(struct.unpack("<4I", iv[:16])), nrounds)
    state = consts + subkey + list(struct.unpack("<4I", iv[24:32] + iv[16:24]))
    return bytes(a ^ b for a, b in zip(DATA, ref_keystream(state, len(DATA), nrounds)))


def pieces(n):
    return [4096] * (n // 4096) + ([n % 4096] if n % 4096 else [])


@pytest.mark.parametrize("version", ["6.12", "6.18", "6.19"])
@pytest.mark.parametrize("arch,cpu,module,unit,hchacha", MACHINES, ids=[m[0] for m in MACHINES])
def test_bytes_with_and_without_simd(version, arch, cpu, module, unit, hchacha):
    got = boot(version, arch, cpu)
    for name, ivsize, nrounds in NAMES:
        want = reference(name, bytes(range(100, 100 + ivsize)), nrounds).hex()
        assert got[name]["out"] == got[name]["nosimd_out"] == want, name
        assert got[name]["nosimd"] == [], name          # no SIMD: the generic (scalar) code, no section


@pytest.mark.parametrize("version", ["6.18", "6.19"])
@pytest.mark.parametrize("arch,cpu,module,unit,hchacha", MACHINES, ids=[m[0] for m in MACHINES])
def test_the_lib_drivers_run_the_machine_library(version, arch, cpu, module, unit, hchacha):
    got, old = boot(version, arch, cpu), boot("6.12", arch, cpu)
    steps64 = got["steps64"]
    assert any(n <= 64 for n in steps64) and any(n > 64 for n in steps64)   # both kinds of step
    for name, _ivsize, _nrounds in NAMES:
        g = got[name]
        assert (g["driver"], g["priority"], g["module"], g["walksize"]) == (name + "-lib", 300, module, 64)
        assert query.snapshot(version, arch)[name + "-lib"] == (name, 300)
        first = [0] if hchacha and name != "chacha20" else []
        assert g["sections"] == first + [p for n in steps64 if n > 64 for p in pieces(n)], name
        assert g["units"] == [unit]
        assert g["short"] == first                     # 64 bytes: the generic code (HChaCha aside)
        # 6.12: one section per step of the driver's own walksize, short steps included
        o = old[name]
        assert o["steps"] == (steps64 if arch == "ppc64le" else o["steps"]) and o["walksize"] == \
            {"arm64": 320, "arm": 256, "ppc64le": 64}[arch]
        assert o["sections"] == first + o["steps"], name
        assert o["sections"] != g["sections"]


def test_power9_lib_drivers_run_the_generic_code():
    """6.18 registers *-lib on every CPU: on POWER9 (no POWER10 code) the
    powerpc module's drivers run the generic code, with no section."""
    got = boot("6.18", "ppc64le", "power9")
    for name, ivsize, nrounds in NAMES:
        assert (got[name]["driver"], got[name]["module"]) == (name + "-lib", "chacha_p10_crypto")
        assert got[name]["sections"] == got[name]["nosimd"] == []
        assert got[name]["out"] == reference(name, bytes(range(100, 100 + ivsize)), nrounds).hex()


def test_adiantum_takes_the_neon_library_on_arm64():
    got = boot("6.18", "arm64", "max")
    assert got["adiantum"]["driver"] == "adiantum(xchacha12-lib,aes-ce,nhpoly1305-neon)"
    assert got["xchacha12"]["module"] == "chacha_neon"
    assert got["adiantum"]["units"] == ["neon"]


@pytest.mark.parametrize("arch,arch_name", [("arm64", "arm64"), ("arm", "arm"), ("ppc64le", "powerpc")])
def test_table_names_and_rules(arch, arch_name):
    """6.16-6.17 (no bootable version of their own): *-<arch> 300 from the
    machine's module and the library rule; 6.18+: *-lib; the generic module's
    *-lib rows give way on the machine; *-generic until 6.18."""
    ours = {"arm64": "-neon", "arm": "-neon", "ppc64le": "-p10"}[arch]
    for version, suffix in (("6.16", "-" + arch_name), ("6.17", "-" + arch_name), ("6.18", "-lib"),
                            ("6.19", "-lib")):
        for name, _ivsize, _nrounds in NAMES:
            governed, row = query.decide("driver", arch, name + ours, version)
            assert governed and (row.driver, row.priority) == (name + suffix, 300), (version, name)
        assert query.rule_row("chacha.sections", arch, version).value == "library"
        generic = query.decide("driver", arch, "chacha20-generic", version)[1]
        assert (generic is not None) == (version in ("6.16", "6.17"))
    before = query.rule_row("chacha.sections", arch, "6.12")
    assert before is None or before.value != "library"
    registers = {v: query.rule_row("chacha.registers", arch, v).value for v in ("6.16", "6.18")}
    assert registers == ({"6.16": "always", "6.18": "always"} if arch == "arm"
                         else {"6.16": "optimized", "6.18": "always"})


@pytest.mark.parametrize("arch", ["x86_64", "arm64"])
def test_generic_only_keeps_the_generic_lib_drivers(arch):
    """With no arch module (selftest --generic-only), 6.18's *-lib drivers are
    the generic module's (a kernel without arch ChaCha code), not missing."""
    out = run_cli("--kernel", "6.18", "--arch", arch, "selftest", "--generic-only", env=host_env())
    assert out.returncode == 0, out.stderr
    rows = {line.split()[0]: line.split()[2] for line in out.stdout.splitlines()
            if len(line.split()) > 3 and line.split()[0] in ("chacha20-lib", "xchacha12-lib")}
    assert rows == {"chacha20-lib": "passed", "xchacha12-lib": "passed"}

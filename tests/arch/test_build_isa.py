"""The x86 SIMD build: instruction sets per function, wiped ChaCha stacks.

* No SIMD extension's wrapper code uses an instruction beyond baseline
  x86-64: in the built shared objects (objdump -d), cffi's functions
  (``_cffi_*``, ``PyInit_*``) and every SSSE3/SSE2/AES-NI function hold no
  VEX/EVEX instruction (no v-prefixed mnemonic, no ymm/zmm/mask register),
  while the AVX2/AVX-512 code does use its registers (the target attributes
  took effect).  Before, each SIMD file was compiled whole with -mavx2 etc.,
  and the SSSE3 code inside the AVX2/AVX-512 extensions came out VEX-encoded.
* Each exported x86 ChaCha entry, and the C glue loop over a worker, leaves
  no keystream on the stack: a C harness (data/stack_residue.c, built with
  the extensions' own flags) runs the code over zeros, then scans the stack
  its frames used for 16-byte pieces of the output.  A positive control shows that the scan does find
  keystream a function leaves behind.
"""
from __future__ import annotations

import importlib
import platform
import re
import shutil
import subprocess

import pytest

from c_build import build_common, build_harness, run_residue

IS_X86_64 = platform.machine().lower() in ("x86_64", "amd64")
OBJDUMP = shutil.which("objdump")

pytestmark = pytest.mark.skipif(not IS_X86_64, reason="x86-64 code")

SIMD_MODULES = ["_chacha_ssse3", "_chacha_avx2", "_chacha_avx512vl", "_chacha_avx512",
                "_nh_sse2", "_nh_avx2", "_aesni"]
BASELINE_MODULES = ["_cpufeatures", "_chacha_glue", "_poly1305_x86_64"]
# functions that must stay legacy-encoded wherever they are linked in (the
# one-block HChaCha; the eight-lane one, hchacha_lanes_avx2, is AVX2 code)
LEGACY_FN = re.compile(r"ssse3|sse2|aesni|hchacha_block")
VEX = re.compile(r"^\s*[0-9a-f]+:\s+v[a-z0-9]+\b|%[yz]mm\d|%k[0-7]\b")


def _functions(so: str) -> dict:
    """{symbol: [instruction lines]} from objdump -d of a shared object."""
    out = subprocess.run([OBJDUMP, "-d", "--no-show-raw-insn", so], capture_output=True,
                         text=True, check=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
        elif cur is not None and line.strip():
            cur.append(line)
    return funcs


def _disassembly(name: str) -> dict:
    if OBJDUMP is None:
        pytest.skip("objdump (binutils) is not installed")
    mod = importlib.import_module("crypto_api.arch.x86." + name)
    funcs = _functions(mod.__file__)
    if not any(f.startswith("_cffi_f_") for f in funcs):
        pytest.skip(f"{mod.__file__} has no symbols (stripped)")
    return funcs


def _vex_functions(funcs: dict) -> set:
    return {name for name, lines in funcs.items() if any(VEX.search(x) for x in lines)}


@pytest.mark.parametrize("name", SIMD_MODULES + BASELINE_MODULES)
def test_wrapper_and_legacy_functions_have_no_vex(name):
    funcs = _disassembly(name)
    vex = _vex_functions(funcs)
    wrapper = {f for f in vex if f.startswith(("_cffi_", "PyInit_"))}
    assert not wrapper, f"{name}: cffi wrapper code uses VEX/EVEX: {sorted(wrapper)}"
    legacy = {f for f in vex if LEGACY_FN.search(f)}
    assert not legacy, f"{name}: SSE-level functions are VEX-encoded: {sorted(legacy)}"
    if name in BASELINE_MODULES:
        assert not vex, f"{name}: baseline extension uses VEX/EVEX in {sorted(vex)}"


@pytest.mark.parametrize("name,register", [("_chacha_avx2", "%ymm"), ("_nh_avx2", "%ymm"),
                                           ("_chacha_avx512vl", "%ymm"), ("_chacha_avx512", "%zmm")])
def test_isa_functions_use_their_registers(name, register):
    funcs = _disassembly(name)
    users = {f for f, lines in funcs.items() if any(register in x for x in lines)}
    assert users, f"{name}: no function uses {register}: the target attributes did not apply"
    assert not {f for f in users if f.startswith(("_cffi_", "PyInit_"))}


# --------------------------------------------------------------------------
# Stack residue of the x86 ChaCha entries

@pytest.fixture(scope="module")
def residue_harness(tmp_path_factory):
    common = build_common()
    # the four ISA extensions, the glue loop, the AEAD core, with what they link
    cores = [n for n, (_, core, _) in common.host_cores().items()
             if core.module.startswith("crypto_api.arch.x86._chacha")]
    sources = sorted({s for n in cores for s in common.linked_sources(n)})
    include_dirs = common.host_cores()["chacha_avx512"][2]
    return build_harness(tmp_path_factory.mktemp("residue") / "stack_residue",
                         ["tests/arch/data/stack_residue.c", *sources],
                         [*include_dirs, "tests/include"])


@pytest.mark.parametrize("length", [1, 64, 100, 256, 300, 512, 1000, 1024, 1500, 4096, 6000, 8192])
@pytest.mark.parametrize("isa", ["ssse3", "avx2", "avx512vl", "avx512"])
def test_chacha_entry_leaves_no_keystream_on_the_stack(residue_harness, isa, length):
    assert run_residue(residue_harness, isa, length) == 0


@pytest.mark.parametrize("length", [1, 64, 300, 1000, 4096, 8192])
@pytest.mark.parametrize("isa", ["ssse3", "avx2", "avx512vl", "avx512"])
def test_glue_loop_leaves_no_keystream_on_the_stack(residue_harness, isa, length):
    """XChaCha20 through chacha_glue_crypt_contiguous over a worker (no wipe of
    its own): the loop wipes once, after the last step."""
    assert run_residue(residue_harness, "glue-" + isa, length) == 0


@pytest.mark.parametrize("length", [0, 1, 64, 300, 512, 1000, 1024, 3000, 4096, 8192])
@pytest.mark.parametrize("form", ["aead", "aead512"])
def test_aead_core_leaves_no_keystream_on_the_stack(residue_harness, form, length):
    """The one-pass ChaCha20-Poly1305 sweep (AVX2 and AVX-512 forms) runs
    chunk by chunk and wipes what the ChaCha code left once, at the end."""
    assert run_residue(residue_harness, form, length) == 0


@pytest.mark.parametrize("length", [8, 512, 800, 4096, 7936])
def test_lanes_entries_leave_no_keystream_or_subkey_on_the_stack(residue_harness, length):
    """Eight streams side by side (chacha_lanes_xor_avx2), then eight HChaCha
    subkeys (hchacha_lanes_avx2): each entry wipes what its work left."""
    assert run_residue(residue_harness, "lanes", length) == 0


def test_hchacha_entry_leaves_no_subkey_on_the_stack(residue_harness):
    assert run_residue(residue_harness, "hchacha", 32) == 0


def test_the_scan_finds_keystream_left_behind(residue_harness):
    """Positive control: keystream copied to an unwiped stack buffer is found."""
    assert run_residue(residue_harness, "leak", 512) >= 16

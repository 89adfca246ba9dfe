"""The C build (algs/build_common.py and the build_*.py scripts beside the C).

* every extension is built through the one helper, with -Wall -Wextra
  -Werror=implicit-function-declaration and no -m (instruction set) flag;
* every C file of algs/ and arch/x86/ belongs to an extension, and each
  compiles with those flags plus -Werror: zero warnings;
* cffi's generated wrapper of every extension compiles with -Werror too;
* ``python <build script> <outdir>`` builds into outdir, never into the tree;
* crypto_memzero, exported by every extension, is memzero.h's routine, the
  only wiping routine of the C code.

gcc is needed (it builds the extensions); the compile checks skip without it.
"""
from __future__ import annotations

import importlib
import importlib.util
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import sysconfig

import pytest

from c_build import build_common

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPTS = sorted(str(p.relative_to(ROOT)) for p in [*ROOT.glob("algs/build_*.py"),
                                                    *ROOT.glob("arch/x86/build_*.py")]
                 if p.name != "build_common.py")
CC = shutil.which("gcc") or shutil.which("cc")
needs_cc = pytest.mark.skipif(CC is None, reason="no C compiler (gcc/cc) on PATH")


def _load_all():
    """Every build script loaded through the helper; returns (helper, {module: ffi})."""
    common = build_common()
    builders = {}
    for script in SCRIPTS:
        mod = common.load_builder(script)
        for value in vars(mod).values():
            src = getattr(value, "_assigned_source", None)
            if src is not None:
                builders[src[0]] = value
    return common, builders


COMMON, BUILDERS = _load_all()


def _kwds(ffi) -> dict:
    return ffi._assigned_source[3]


def test_every_extension_in_setup_py_goes_through_the_helper():
    setup = (ROOT / "setup.py").read_text()
    listed = re.findall(r'"([\w/]+\.py):(\w+)"', setup)
    modules = set()
    for script, name in listed:
        ffi = getattr(COMMON.load_builder(script), name)
        modules.add(ffi._assigned_source[0])
    assert modules == set(COMMON.SPECS) == set(BUILDERS)
    assert len(modules) == 22


@pytest.mark.parametrize("module", sorted(BUILDERS))
def test_flags_warnings_on_no_isa_flags(module):
    flags = _kwds(BUILDERS[module])["extra_compile_args"]
    for flag in ("-Wall", "-Wextra", "-Werror=implicit-function-declaration"):
        assert flag in flags, (module, flags)
    isa = [f for f in flags if f.startswith("-m")]
    assert not isa, f"{module}: {isa}: ISA code takes target attributes, the wrapper stays baseline"


def test_every_c_file_belongs_to_an_extension():
    ours = {str(p.relative_to(ROOT)) for p in [*ROOT.glob("algs/*.c"), *ROOT.glob("arch/x86/*.c")]}
    built = {s for spec in COMMON.SPECS.values() for s in spec.sources}
    assert ours == built


def _include_flags(spec) -> list:
    return ["-I" + str(ROOT / d) for d in spec.include_dirs]


def _c_files():
    seen = {}
    for spec in COMMON.SPECS.values():
        for src in spec.sources:
            seen.setdefault(src, spec)
    return sorted(seen.items())


@needs_cc
@pytest.mark.parametrize("src,spec", _c_files(), ids=[s for s, _ in _c_files()])
def test_c_file_has_no_warnings(src, spec):
    """Our own C: the build's flags plus -Werror (-O3 kept: some warnings
    only come from the optimiser's analyses)."""
    cmd = [CC, "-c", "-o", os.devnull, *COMMON.CFLAGS, "-Werror", *_include_flags(spec), str(ROOT / src)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0 and not r.stderr, r.stderr


@needs_cc
@pytest.mark.parametrize("module", sorted(BUILDERS))
def test_generated_wrapper_has_no_warnings(module, tmp_path):
    """cffi's generated wrapper, with our preamble, under the same flags and -Werror."""
    ffi = BUILDERS[module]
    c_file = tmp_path / (module.replace(".", "_") + ".c")
    ffi.emit_c_code(str(c_file))
    spec = COMMON.SPECS[module]
    cmd = [CC, "-fsyntax-only", *COMMON.CFLAGS, "-Werror", *_include_flags(spec),
           "-I" + sysconfig.get_paths()["include"], str(c_file)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0 and not r.stderr, r.stderr


@needs_cc
def test_script_run_directly_builds_into_outdir(tmp_path):
    """``python arch/x86/build_cpufeatures.py OUT``: the helper's __main__,
    absolute paths, the extension under OUT and nothing new in the tree."""
    def tree_files():
        return {p for p in [*ROOT.glob("algs/**/*"), *ROOT.glob("arch/**/*"), *ROOT.glob("crypto_api/**/*")]
                if "__pycache__" not in p.parts}
    before = tree_files()
    r = subprocess.run([sys.executable, "arch/x86/build_cpufeatures.py", str(tmp_path)], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    built = list(tmp_path.rglob("_cpufeatures*.so"))
    assert len(built) == 1, list(tmp_path.rglob("*"))
    assert tree_files() == before
    probe = ("import importlib.util, sys; spec = importlib.util.spec_from_file_location("
             "'crypto_api.arch.x86._cpufeatures', sys.argv[1]); m = importlib.util.module_from_spec(spec); "
             "spec.loader.exec_module(m); print(m.lib.cpu_feature_known(b'avx2'))")
    r = subprocess.run([sys.executable, "-c", probe, str(built[0])], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "1", r.stderr


# --------------------------------------------------------------------------
# One memzero

def _memzero_modules():
    mods = []
    for module in sorted(BUILDERS):
        m = importlib.import_module(module)
        if hasattr(m.lib, "crypto_memzero"):
            mods.append(m)
    return mods


@pytest.mark.parametrize("module", _memzero_modules(), ids=lambda m: m.__name__)
def test_crypto_memzero_clears_exactly_the_range(module):
    ffi, lib = module.ffi, module.lib
    buf = ffi.new("uint8_t[]", list(range(1, 65)))
    lib.crypto_memzero(buf + 5, 40)
    got = bytes(ffi.buffer(buf))
    assert got == bytes(range(1, 6)) + bytes(40) + bytes(range(46, 65))
    lib.crypto_memzero(ffi.NULL, 0)            # a zero-length wipe of NULL is allowed


def test_one_wiping_routine_in_the_c_code():
    """memzero.h defines the only wiping routine; no C file open-codes one
    (a volatile store loop, an asm barrier after memset) or defines another."""
    defs = {}
    for path in [*ROOT.glob("algs/**/*.[ch]"), *ROOT.glob("arch/x86/*.[ch]")]:
        text = path.read_text()
        rel = str(path.relative_to(ROOT))
        for name in re.findall(r"^\w[^;\n]*\bvoid\s+(\w*(?:memzero|wipe|zeroize)\w*)\s*\(",
                               text, re.M):
            defs.setdefault(name, []).append(rel)
        assert not re.search(r"volatile\s+u?int\w*\s*\*", text), f"{rel}: open-coded volatile wipe"
        assert '__asm__ __volatile__("" ' not in text, f"{rel}: memset + compiler barrier wipe"
    assert defs == {"memzero_explicit": ["algs/include/memzero.h"],
                    "crypto_memzero": ["algs/include/memzero.h"],
                    "memzero_stack": ["algs/include/memzero.h"]}, defs
    header = (ROOT / "algs/include/memzero.h").read_text()
    for wrapper in ("void crypto_memzero", "void memzero_stack"):      # both through memzero_explicit
        assert "memzero_explicit(" in header[header.index(wrapper):].split("}")[0]


# --------------------------------------------------------------------------
# The plug-in example: same conventions, standing alone

EXAMPLE = ROOT / "examples" / "xchacha12_mine" / "xchacha12_mine"


def test_example_build_script_stands_alone_with_the_same_flags():
    text = (EXAMPLE / "build_core.py").read_text()
    assert not re.search(r"^\s*(from|import)\s+build_common", text, re.M)
    assert "sys.path" not in text
    spec = importlib.util.spec_from_file_location("_example_build_core", EXAMPLE / "build_core.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    flags = mod.ffibuilder._assigned_source[3]["extra_compile_args"]
    for flag in COMMON.WARN_FLAGS:
        assert flag in flags


@needs_cc
def test_example_c_has_no_warnings():
    r = subprocess.run([CC, "-c", "-o", os.devnull, "-O2", "-std=c99", *COMMON.WARN_FLAGS, "-Werror",
                        "-I" + str(EXAMPLE), str(EXAMPLE / "chacha_mine.c")], capture_output=True, text=True)
    assert r.returncode == 0 and not r.stderr, r.stderr


@pytest.mark.parametrize("cflags, opt", [(None, ["-O3"]), ("-g -fPIC", ["-O3"]),
                                         ("-fsanitize=address,undefined -g -O1", []),
                                         ("-O0 -fprofile-instr-generate", [])])
def test_an_optimisation_level_in_cflags_is_not_overridden(cflags, opt):
    """setuptools puts the environment's CFLAGS before an extension's own flags,
    and gcc takes the last -O: the helper adds -O3 only where CFLAGS name no level,
    so a sanitizer or coverage build (make test-asan, make fuzz) keeps its -O1."""
    env = {k: v for k, v in os.environ.items() if k != "CFLAGS"}
    if cflags is not None:
        env["CFLAGS"] = cflags
    code = "import sys; sys.path.insert(0, sys.argv[1]); import build_common, json; print(json.dumps(build_common.CFLAGS))"
    r = subprocess.run([sys.executable, "-c", code, str(ROOT / "algs")], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert [f for f in got if f.startswith("-O")] == opt
    assert got[len(opt):] == ["-Wall", "-Wextra", "-Werror=implicit-function-declaration"]

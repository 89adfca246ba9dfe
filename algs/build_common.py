"""The one cffi build helper of crypto_api's C extensions (the role of the
kernel's crypto/Makefile and arch/x86/crypto/Makefile rules): include paths,
compiler flags, source paths and the ``python <build script> [outdir]`` entry.

Each build script (algs/build_*.py, arch/x86/build_*.py) keeps only its cdef,
its wrapper source, its list of C files and the builders whose types it
shares; a prototype its C header already declares is not written again there
but read from the header (:func:`header_cdef`).  It reaches this module with
two lines::

    sys.path.insert(0, <this directory>)
    from build_common import extension, main

Three ways in, one behaviour:

* ``pip install`` / ``make test``: setup.py's ``cffi_modules`` execute the
  build scripts from the project root, and setuptools wants source paths
  relative to it;
* ``python algs/build_chacha.py [outdir]``: :func:`main` compiles into
  ``outdir`` (default ``$CRYPTO_API_BUILD_DIR`` or <tmpdir>/crypto_api_build),
  never into the source tree; ``ffi.compile`` changes into that directory, so
  the paths are absolute there;
* the tests import :data:`SPECS` to compile every C file on its own with the
  same flags (tests/algs/test_build_flags.py).

SIMD code is never compiled with ``-m`` flags: every function of a SIMD file
carries ``__attribute__((target(...)))`` (arch/x86/x86_common.h), so cffi's
generated wrapper, which runs at import on any CPU, stays baseline x86-64.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
import types
from dataclasses import dataclass

from cffi import FFI

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALGS = "algs"
ALGS_INCLUDE = os.path.join("algs", "include")
X86 = os.path.join("arch", "x86")
# The header directories of each tree (the directory itself, then the shared
# headers; x86 code that includes an algs/ builder sees algs/ headers too).
ALGS_DIRS = (ALGS, ALGS_INCLUDE)
X86_DIRS = (X86, ALGS_INCLUDE, ALGS)

def _opt_flags() -> list:
    """``-O3``, unless the environment's CFLAGS choose an optimisation level
    (a sanitizer or coverage build): setuptools puts CFLAGS before the
    extension's own flags, so a later ``-O3`` would win over them."""
    if any(f.startswith("-O") for f in os.environ.get("CFLAGS", "").split()):
        return []
    return ["-O3"]


OPT_FLAGS = _opt_flags()
# Every C file, cffi's generated wrapper included, builds with zero warnings
# under these (tests/algs/test_build_flags.py compiles each with -Werror).
WARN_FLAGS = ["-Wall", "-Wextra", "-Werror=implicit-function-declaration"]
CFLAGS = OPT_FLAGS + WARN_FLAGS


@dataclass(frozen=True)
class ExtensionSpec:
    """One C extension: module name and the project-relative C files and
    include directories it is built from."""
    module: str
    sources: tuple
    include_dirs: tuple

    @property
    def depends(self) -> list:
        """Every header of the include directories (a change rebuilds)."""
        return sorted(os.path.join(d, h) for d in self.include_dirs
                      for h in os.listdir(os.path.join(ROOT, d)) if h.endswith(".h"))


# Every extension built through extension(), by module name (for the tests).
SPECS: dict = {}


def _compiled_directly() -> bool:
    """True when a build script runs as ``python <script>`` (ffi.compile,
    absolute paths), False under setuptools (paths relative to the root)."""
    main_file = getattr(sys.modules.get("__main__"), "__file__", None) or ""
    main_file = os.path.abspath(main_file)
    return (os.path.basename(main_file).startswith("build_")
            and main_file.startswith(ROOT + os.sep))


def _path(rel: str) -> str:
    if _compiled_directly():
        return os.path.join(ROOT, rel)
    return os.path.relpath(os.path.join(ROOT, rel))


def extension(module: str, cdef: str, source: str, sources: list, *,
              include_dirs: tuple = ALGS_DIRS, includes: tuple = ()) -> FFI:
    """An FFI builder for ``module``: ``cdef`` is what Python sees, ``source``
    the wrapper preamble (headers, small adapters), ``sources`` the C files
    (project-relative), ``includes`` other extensions' builders whose types
    this one shares (``ffi.include``; that module is imported first at run
    time)."""
    ffi = FFI()
    for other in includes:
        ffi.include(other)
    ffi.cdef(cdef)
    dirs = tuple(include_dirs)
    spec = ExtensionSpec(module, tuple(sources), dirs)
    SPECS[module] = spec
    ffi.set_source(
        module,
        source,
        sources=[_path(s) for s in spec.sources],
        include_dirs=[_path(d) for d in dirs],
        depends=[_path(d) for d in spec.depends],
        extra_compile_args=list(CFLAGS),
    )
    return ffi


CDEF_BEGIN = "/* cdef: begin */"
CDEF_END = "/* cdef: end */"


def header_cdef(header: str) -> str:
    """The part of a C header (project-relative path) that a cdef shares with it:
    every region from a ``/* cdef: begin */`` line to the next ``/* cdef: end */``
    line, in order.  A region holds only what cffi's cdef parses (integer
    #defines, typedefs, structs, prototypes; comments are dropped by cffi)."""
    with open(os.path.join(ROOT, header)) as f:
        text = f.read()
    regions = []
    for part in text.split(CDEF_BEGIN)[1:]:
        if CDEF_END not in part:
            raise ValueError(f"{header}: {CDEF_BEGIN} without a {CDEF_END} after it")
        regions.append(part.split(CDEF_END, 1)[0])
    if not regions or text.count(CDEF_END) != len(regions):
        raise ValueError(f"{header}: expected matching {CDEF_BEGIN} / {CDEF_END} lines")
    return "\n".join(regions)


def load_builder(script: str) -> types.ModuleType:
    """Another build script (project-relative path) as a module, loaded once
    under a private name: its builders for ``includes=``, and what they need."""
    mod_name = "_crypto_api_build_" + script.replace(os.sep, "_").replace("/", "_")[:-3]
    mod = sys.modules.get(mod_name)
    if mod is None:
        spec = importlib.util.spec_from_file_location(mod_name, os.path.join(ROOT, script))
        mod = importlib.util.module_from_spec(spec)
        sys.modules[mod_name] = mod
        spec.loader.exec_module(mod)
    return mod


def main(*builders: FFI) -> None:
    """``python <build script> [outdir]``: compile each builder into outdir."""
    out = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "CRYPTO_API_BUILD_DIR", os.path.join(tempfile.gettempdir(), "crypto_api_build"))
    for ffi in builders:
        print(ffi.compile(tmpdir=out, verbose=True))

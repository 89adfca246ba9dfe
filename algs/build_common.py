"""The one cffi build helper of crypto_api's C extensions (the role of the
kernel's crypto/Makefile and arch/x86/crypto/Makefile rules): include paths,
compiler flags, source paths, and the builder of each host core.

The host's C is described once, as data: the cores lists of algs/cores.py
and arch/x86/cores.py (crypto_api.machine.core.Core: sources, headers,
linked and included cores, bytes adapters, module name).  :func:`builder`
turns a core into its cffi builder: the declarations come from the
``cdef: begin``/``cdef: end`` regions of its headers, the wrapper preamble
includes those headers, and each bytes adapter is generated from the
header's prototype (crypto_api.machine.cdefs).  Nothing here names a core.

Three ways in, one behaviour:

* ``pip install`` / ``make test``: setup.py's ``cffi_modules`` (one
  ``algs/build_cores.py:<core>`` per module, :func:`cffi_modules`) execute
  algs/build_cores.py from the project root, and setuptools wants source
  paths relative to it;
* ``python algs/build_cores.py [outdir [core ...]]``: :func:`main` compiles
  into ``outdir`` (default ``$CRYPTO_API_BUILD_DIR`` or
  <tmpdir>/crypto_api_build), never into the source tree; ``ffi.compile``
  changes into that directory, so the paths are absolute there;
* the tests import :data:`SPECS` (every core's builder made by
  :func:`all_builders`) to compile every C file on its own with the same
  flags (tests/algs/test_build_flags.py).

SIMD code is never compiled with ``-m`` flags: every function of a SIMD file
carries ``__attribute__((target(...)))`` (arch/x86/x86_common.h), so cffi's
generated wrapper, which runs at import on any CPU, stays baseline x86-64.

Standard library and cffi only (pip's isolated build has no attrs): the cores
lists are imported with ``crypto_api`` as a bare package of this tree when
the real one is not loaded (:func:`host_cores`).
"""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
import types
from dataclasses import dataclass
from typing import Dict, List, Tuple

from cffi import FFI

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALGS = "algs"
X86 = os.path.join("arch", "x86")


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
    """True when algs/build_cores.py runs as ``python <script>`` (ffi.compile,
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
              include_dirs: tuple, includes: tuple = ()) -> FFI:
    """An FFI builder for ``module``: ``cdef`` is what Python sees, ``source``
    the wrapper preamble (headers, generated adapters), ``sources`` the C files
    and ``include_dirs`` the header directories (project-relative),
    ``includes`` other extensions' builders whose types
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


#: The directories whose C the host builds, each with a ``cores.py`` (CORES, INCLUDE_DIRS).
HOST_DIRS = (ALGS, X86)
#: What the generated wrapper defines before including a core's headers (a
#: header may show cffi a const table as a variable under it).
WRAPPER_MACRO = "CRYPTO_API_CFFI"


def _tree_import(names: List[str]) -> List[types.ModuleType]:
    """Import modules of crypto_api; when the real package is not loaded (setup.py,
    a build script run by path), under bare packages of this tree whose
    ``__init__`` does not run (it needs the run-time dependencies), removed again."""
    if "crypto_api" in sys.modules:
        return [importlib.import_module(n) for n in names]
    tree = {"crypto_api": "crypto_api", "crypto_api.machine": os.path.join("crypto_api", "machine"),
            "crypto_api.algs": ALGS, "crypto_api.arch": "arch"}
    try:
        for name, path in tree.items():
            mod = types.ModuleType(name, f"{name}, loaded bare for the C build")
            mod.__path__ = [os.path.join(ROOT, path)]
            mod.__package__ = name
            sys.modules[name] = mod
        return [importlib.import_module(n) for n in names]
    finally:
        for name in [n for n in sys.modules if n == "crypto_api" or n.startswith("crypto_api.")]:
            del sys.modules[name]


_HOST: Dict[str, Tuple[str, object, Tuple[str, ...]]] = {}


def host_cores() -> Dict[str, Tuple[str, object, Tuple[str, ...]]]:
    """name -> (directory, Core, include directories) for every host core
    (directories project-relative); ValueError for a name given twice."""
    if not _HOST:
        mods = _tree_import(["crypto_api.machine.cdefs", "crypto_api.machine.core"] + ["crypto_api." + d.replace(os.sep, ".").replace("/", ".")
                                                            + ".cores" for d in HOST_DIRS])
        _HOST["__cdefs__"] = (ROOT, mods[0], ())
        _HOST["__core__"] = (ROOT, mods[1], ())
        for d, mod in zip(HOST_DIRS, mods[2:]):
            dirs = tuple(os.path.normpath(os.path.join(d, i)) for i in mod.INCLUDE_DIRS)
            for core in mod.CORES:
                if core.name in _HOST:
                    raise ValueError(f"host core {core.name!r} is listed twice ({_HOST[core.name][0]}, {d})")
                _HOST[core.name] = (d, core, dirs)
    return {k: v for k, v in _HOST.items() if not k.startswith("__")}


def _cdefs():
    host_cores()
    return _HOST["__cdefs__"][1]


def header_cdef(header: str) -> str:
    """The cdef regions of a C header (project-relative path):
    crypto_api.machine.cdefs.header_regions, for a header no core names."""
    with open(os.path.join(ROOT, header)) as f:
        return _cdefs().header_regions(f.read(), header)


def linked_sources(name: str) -> List[str]:
    """The project-relative C files of core ``name`` and of the cores it links
    (crypto_api.machine.core.linked_sources)."""
    return _HOST["__core__"][1].linked_sources(name, {n: (d, c) for n, (d, c, _) in host_cores().items()})


def _included_headers(name: str) -> List[str]:
    """The headers of the cores ``name`` includes (cffi checks their types in
    this wrapper too), then its own, as the wrapper includes them."""
    d, core, _ = host_cores()[name]
    out: List[str] = []
    for other in core.includes:
        out += [h for h in _included_headers(other) if h not in out]
    return out + [os.path.basename(h) for h in core.headers if os.path.basename(h) not in out]


def wrapper_source(name: str) -> str:
    """The wrapper preamble of core ``name``: its headers (and those of the
    cores it includes), then its generated bytes adapters."""
    d, core, _ = host_cores()[name]
    lines = [f"#define {WRAPPER_MACRO} 1"] + [f'#include "{h}"' for h in _included_headers(name)]
    adapters = [c for _, c in core.adapters(os.path.join(ROOT, d))]
    return "\n".join(lines) + "\n" + "".join("\n" + a for a in adapters)


_BUILDERS: Dict[str, FFI] = {}


def builder(name: str) -> FFI:
    """The cffi builder of host core ``name`` (made once)."""
    if name not in _BUILDERS:
        d, core, dirs = host_cores()[name]
        if not core.module:
            raise ValueError(f"host core {name!r} has no module: it is only linked by other cores")
        _BUILDERS[name] = extension(core.module, core.declarations(os.path.join(ROOT, d)),
                                    wrapper_source(name), linked_sources(name), include_dirs=dirs,
                                    includes=[builder(n) for n in core.includes])
    return _BUILDERS[name]


def module_cores() -> List[str]:
    """The names of the host cores that are modules, in the lists' order."""
    return [n for n, (_, core, _) in host_cores().items() if core.module]


def all_builders() -> Dict[str, FFI]:
    """module -> builder for every host core with a module (fills :data:`SPECS`)."""
    return {host_cores()[n][1].module: builder(n) for n in module_cores()}


def cffi_modules() -> List[str]:
    """setup.py's ``cffi_modules``: one ``algs/build_cores.py:<core>`` per module."""
    return [f"{ALGS}/build_cores.py:{n}" for n in module_cores()]


def main(argv: List[str] = None) -> None:
    """``python algs/build_cores.py [outdir [core ...]]``: compile each named core
    (default: every module) into outdir."""
    args = sys.argv[1:] if argv is None else argv
    out = args[0] if args else os.environ.get(
        "CRYPTO_API_BUILD_DIR", os.path.join(tempfile.gettempdir(), "crypto_api_build"))
    for name in args[1:] or module_cores():
        print(builder(name).compile(tmpdir=out, verbose=True))

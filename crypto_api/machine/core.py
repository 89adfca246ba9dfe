"""A core: C sources and the prototypes the glue calls, for every directory with C.

The one descriptor of the C, host and emulated: algs/cores.py and
arch/x86/cores.py list the host's cffi extensions (setup.py and
algs/build_common.py read them), ``arch/<arch>/cores_*.py`` the cores of an
emulated machine's static helper (crypto_api.machine.helper_build);
:func:`arch_cores` collects an architecture's cores from the ``cores``
module of its package (the machine descriptor's ``package``,
``crypto_api.arch.<dir>``).

Standard library only, as crypto_api.machine.cdefs (the helpers' prebuild
runs it where the run-time dependencies are not installed).
"""

from __future__ import annotations

import glob
import importlib
import os
import sys
from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Tuple

from errno import ELOOP

from ..errors import EEXIST, ENOENT, CryptoError
from .cdefs import Function, bytes_adapter, header_regions, parse_cdef
from .known import machine_spec


# keyword-only where dataclasses can say so (3.10 and later)
@dataclass(frozen=True, **({"kw_only": True} if sys.version_info >= (3, 10) else {}))
class Core:
    """One core: C ``sources`` (relative to the directory of the cores list
    that names it), ``links`` (the cores whose sources it is linked with,
    :func:`linked_sources`), what Python calls, extra ``cflags`` and the CPU
    ``feature`` it needs (HWCAP name on an emulated machine; on the host the
    feature the glue checks before calling in).

    What Python calls comes from the headers: a host core names its
    ``headers``, whose ``cdef: begin``/``cdef: end`` regions cffi reads; an
    emulated core's ``cdef``, in the helper's grammar, is :func:`header_cdef`
    of its header (written out only where no header declares it).

    Host cores (algs/cores.py, arch/x86/cores.py) are cffi extensions:
    ``module`` names it (empty: a part other cores link, no module of its
    own); ``includes`` the cores whose cffi types it shares (``ffi.include``);
    ``bytes_adapters`` the ``(name, target)`` pairs of functions generated
    from the header's prototype of ``target`` with ``char *`` for each
    ``uint8_t *`` (crypto_api.machine.cdefs.bytes_adapter), so that cffi
    takes bytes as they are."""

    name: str
    sources: Tuple[str, ...]
    cdef: str = ""
    headers: Tuple[str, ...] = ()
    cflags: Tuple[str, ...] = ()
    feature: str = "asimd"
    module: str = ""
    links: Tuple[str, ...] = ()
    includes: Tuple[str, ...] = ()
    bytes_adapters: Tuple[Tuple[str, str], ...] = ()

    def declarations(self, directory: str) -> str:
        """What cffi (or the helper's dispatcher) sees of this core: its
        header's regions (those of every core and this core's own), then its
        ``cdef``, then the prototypes of its bytes adapters."""
        text = "".join(header_regions(self.header_text(directory, h), f"core {self.name}: {h}",
                                      self.name) + "\n" for h in self.headers)
        return text + self.cdef + "".join("\n" + a[0] for a in self.adapters(directory))

    def header_text(self, directory: str, header: str = "") -> str:
        """One header's text (relative to ``directory``), or every header's."""
        out = ""
        for h in [header] if header else self.headers:
            with open(os.path.join(directory, h)) as f:
                out += f.read() + "\n"
        return out

    def adapters(self, directory: str) -> List[Tuple[str, str]]:
        """(cdef prototype, C definition) of each bytes adapter."""
        if not self.bytes_adapters:
            return []
        text = self.header_text(directory)
        return [bytes_adapter(text, name, target, f"core {self.name}")
                for name, target in self.bytes_adapters]

    def functions(self) -> List[Function]:
        """The prototypes of an emulated core, in the helper's grammar."""
        return parse_cdef(self.cdef, f"core {self.name}")

    def instruction_set(self) -> str:
        """The instruction set the core is built for (its -march or -mcpu, else the baseline)."""
        march = [f.split("=", 1)[1] for f in self.cflags if f.startswith(("-march=", "-mcpu="))]
        fpu = [f.split("=", 1)[1] for f in self.cflags if f.startswith("-mfpu=")]
        isa = (march[-1] if march else "the arch baseline") + (f"+{fpu[-1]}" if fpu else "")
        return f"{isa} (HWCAP feature {self.feature!r})"


def header_cdef(directory: str, *headers: str, tag: str = "") -> str:
    """The ``cdef: begin``/``cdef: end`` regions of ``headers`` (relative to
    ``directory``; those of ``tag`` too): the ``cdef`` of an emulated
    machine's core, read from the header that declares it rather than typed
    again (crypto_api.machine.cdefs.header_regions)."""
    out = []
    for h in headers:
        with open(os.path.join(directory, h)) as f:
            out.append(header_regions(f.read(), h, tag))
    return "\n".join(out)


#: The cores lists any emulated machine's core may link (``links``): the C that
#: the arm and arm64 machines share, and the generic C of algs/.
SHARED_CORES = ("crypto_api.arch.common.c_sources", "crypto_api.algs.cores")


def linked_sources(name: str, cores: Mapping[str, Tuple[str, Core]]) -> List[str]:
    """The C files of core ``name`` and of the cores it links, depth first, each
    once: ``cores`` maps a name to (the directory of its list, the Core), and
    each path is that directory joined with the source, normalised.
    CryptoError(ENOENT) for a link no list names, ELOOP for a circle."""
    out: List[str] = []

    def walk(n: str, path: Tuple[str, ...]) -> None:
        if n not in cores:
            raise CryptoError(ENOENT, f"core {path[-1] if path else n}: links {n!r}, which no cores list names")
        if n in path:
            raise CryptoError(ELOOP, f"cores link each other in a circle: {' -> '.join(path + (n,))}")
        directory, core = cores[n]
        for s in core.sources:
            p = os.path.normpath(os.path.join(directory, s))
            if p not in out:
                out.append(p)
        for other in core.links:
            walk(other, path + (n,))

    walk(name, ())
    return out


def shared_cores() -> Dict[str, Tuple[str, Core]]:
    """name -> (directory, Core) of the :data:`SHARED_CORES` lists."""
    out: Dict[str, Tuple[str, Core]] = {}
    for modname in SHARED_CORES:
        mod = importlib.import_module(modname)
        directory = os.path.dirname(os.path.abspath(mod.__file__))
        for c in mod.CORES:
            out.setdefault(c.name, (directory, c))
    return out


def arch_sources(arch: str, cores: Optional[Mapping[str, Core]] = None,
                 src_dir: str = "") -> Dict[str, List[str]]:
    """name -> the C files of each core of ``arch`` (or of ``cores``), with what it
    links (its own cores first, then the shared lists'); for sources in
    ``src_dir`` (default the arch's directory), the shared lists' files are
    taken from the tree ``src_dir`` lies in (``<root>/arch/<dir>``)."""
    real_dir = arch_dir(arch)
    src_dir = src_dir or real_dir
    own = arch_cores(arch) if cores is None else cores
    real_root = os.path.dirname(os.path.dirname(real_dir))
    root = os.path.dirname(os.path.dirname(os.path.abspath(src_dir)))
    table = {n: (os.path.join(root, os.path.relpath(d, real_root)), c) for n, (d, c) in shared_cores().items()}
    table.update({n: (src_dir, c) for n, c in own.items()})
    return {n: linked_sources(n, table) for n in own}


def collect_cores(package: str, directory: str) -> List[Core]:
    """The ``CORES`` lists of ``<package>.cores_*`` (the files ``cores_*.py`` of
    ``directory``), concatenated in sorted file order: an arch's ``cores.py``."""
    out: List[Core] = []
    for path in sorted(glob.glob(os.path.join(directory, "cores_*.py"))):
        name = os.path.splitext(os.path.basename(path))[0]
        out += importlib.import_module(f"{package}.{name}").CORES
    return out


def arch_dir(arch: str) -> str:
    """The directory holding an architecture's sources (its descriptor's package)."""
    mod = importlib.import_module(machine_spec(arch).package)
    return os.path.dirname(os.path.abspath(mod.__file__))


def arch_cores(arch: str) -> Dict[str, Core]:
    """name -> Core for every core of ``arch`` (``<package>.cores.CORES``, the package
    of its descriptor)."""
    try:
        mod = importlib.import_module(f"{machine_spec(arch).package}.cores")
    except ModuleNotFoundError:
        raise CryptoError(ENOENT, f"machine: architecture {arch} has no cores") from None
    out: Dict[str, Core] = {}
    for c in mod.CORES:
        if c.name in out:
            raise CryptoError(EEXIST, f"machine: two {arch} cores are named {c.name!r}")
        out[c.name] = c
    return out

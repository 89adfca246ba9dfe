"""One interface for the glue to call a core, whichever backend runs it.

``backend.load(arch, core_name)`` gives an object whose attributes are the
core's functions, called with Python buffers, ints and None.  On a host of
that architecture it is a cffi extension built (at first use, in cffi's API
mode, into the helper cache) from the same sources and cdef and called the
same way (:class:`NativeLib`; kept simple: on the hosts here only the
portable probe core goes through it).  On any other host it is a proxy into
the one static helper of the architecture, running under qemu-user with the
machine's CPU model (crypto_api.machine.qemu).

Errors are CryptoError(ENODEV): a missing tool (naming its Debian
package), a core needing a CPU feature the machine lacks, a core killed by
SIGILL.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from typing import Any, Dict, Optional

from ..errors import ENODEV, ENOENT, CryptoError
from .core import Core, arch_cores, arch_dir, arch_sources  # noqa: F401  (Core: the contract's import path)
from .known import machine_spec
from .selection import current_machine, host_arch, hwcap_features

_native: Dict[Any, Any] = {}
_native_lock = threading.Lock()


def _cpu_for(arch: str, cpu: Optional[str]) -> str:
    if cpu:
        return cpu
    m = current_machine()
    return m.cpu if m.arch == arch else machine_spec(arch).default_cpu


class NativeLib:
    """A core's cffi extension called as the qemu proxy is: Python buffers,
    ints and None (a pointer argument becomes ``ffi.from_buffer``, writable
    unless ``const``), so the glue never knows which backend runs."""

    def __init__(self, ffi: Any, lib: Any, core: Core) -> None:
        self.core = core
        for fn in core.functions():
            setattr(self, fn.name, self._bind(ffi, getattr(lib, fn.name), fn))

    @staticmethod
    def _bind(ffi: Any, cfn: Any, fn) -> Any:
        conv = []
        for p in fn.params:
            if not p.pointer:
                conv.append(None)
            else:
                ctype = ("char" if p.ctype == "void" else p.ctype) + "[]"
                conv.append((ctype, not p.const))

        def call(*args: Any) -> int:
            if len(args) != len(conv):
                raise TypeError(f"{fn.name}() takes {len(conv)} arguments ({len(args)} given)")
            cargs = []
            for c, a in zip(conv, args):
                if c is None or isinstance(a, ffi.CData):
                    cargs.append(a)
                elif a is None:
                    cargs.append(ffi.NULL)
                else:
                    cargs.append(ffi.from_buffer(c[0], a, require_writable=c[1]))
            ret = cfn(*cargs)
            return 0 if ret is None else ret
        call.__name__ = fn.name
        return call


def _load_native(arch: str, core: Core) -> Any:
    """cffi extension of ``core`` (built once into the cache), wrapped in :class:`NativeLib`."""
    with _native_lock:
        lib = _native.get((arch, core.name))
        if lib is not None:
            return lib
        import cffi
        from .helper_build import cache_root
        ffi = cffi.FFI()
        ffi.cdef(core.cdef)
        src_dir = arch_dir(arch)
        sources = arch_sources(arch)[core.name]
        modname = f"_capi_core_{arch}_{core.name}"
        ffi.set_source(modname, "".join(f'#include "{s}"\n' for s in sources),
                       include_dirs=[src_dir], extra_compile_args=["-O3", *core.cflags])
        out = os.path.join(cache_root(), "native", arch)
        os.makedirs(out, exist_ok=True)
        path = ffi.compile(tmpdir=out)
        spec = importlib.util.spec_from_file_location(modname, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        lib = _native[(arch, core.name)] = NativeLib(mod.ffi, mod.lib, core)
        return lib


def load(arch: str, core_name: str, *, cpu: Optional[str] = None, check_feature: bool = True) -> Any:
    """The functions of core ``core_name`` of ``arch``.

    ``cpu``: the qemu CPU model (default: the booted machine's when it is
    ``arch``, else the arch's default CPU, its descriptor's ``default_cpu``).  ``check_feature=False`` skips the HWCAP check
    (tests use it to watch a helper die of SIGILL)."""
    cores = arch_cores(arch)
    core = cores.get(core_name)
    if core is None:
        raise CryptoError(ENOENT, f"machine {arch}: no core named {core_name!r}")
    if arch == host_arch():
        if check_feature and not current_machine().has(core.feature):
            raise CryptoError(ENODEV, f"{arch} core {core_name}: the CPU lacks {core.feature!r}")
        return _load_native(arch, core)
    from .helper_build import require_tools
    from .qemu import QemuLib, helper
    require_tools(arch)
    m = current_machine()
    booted = m.emulated and m.arch == arch and _cpu_for(arch, cpu) == m.cpu
    h = helper(arch, _cpu_for(arch, cpu), pin_callers=booted)
    if check_feature:
        if core.feature not in hwcap_features(arch, h.hwcap, h.hwcap2):
            raise CryptoError(ENODEV, f"{arch} core {core_name}: the emulated CPU {h.cpu!r} lacks "
                              f"{core.feature!r} (instruction set {core.instruction_set()})")
    return QemuLib(h, core)

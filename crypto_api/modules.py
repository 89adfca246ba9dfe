"""Module loading: aliases, request_module, insmod/rmmod, plug-ins.

Mirrors MODULE_ALIAS_CRYPTO (include/linux/crypto.h) and what modprobe does
with it.  A crypto_api module is a Python module that defines

* ``MODULE_ALIASES``: built with :func:`MODULE_ALIAS_CRYPTO` (each name gives
  the alias ``name`` and ``crypto-name``);
* ``module_init()``: registers its algorithms (raise ``CryptoError(ENODEV)``
  when the CPU lacks what it needs: nothing is then registered);
* ``module_exit()``: unregisters them;
* optionally ``MODULE_NAME`` (default: the entry-point name, else the last
  component of the module's dotted name);
* optionally ``MODULE_ARCH`` (``"x86_64"``, ``"arm64"``): the module is built
  for that architecture only and loads only on a machine booted as it
  (crypto_api.machine); modules without it are generic and load everywhere.
  The modules of a machine's package (its descriptor's ``package``, as
  ``crypto_api.arch.<dir>``) are skipped on other machines before they are
  even imported;
* optionally ``MODULE_CPU_FEATURE`` (e.g. ``"aes"``): the module is loaded
  at boot on a machine whose CPU has that feature, as
  module_cpu_feature_match's device-table entry makes udev do; the first
  request_module stands for boot here (a module with no crypto aliases, such
  as arm64's aes_ce_cipher, is found this way only).

Modules are found through the entry-point group ``crypto_api.modules`` (this
project's own modules are listed there too) and are imported only to read
their aliases; ``import crypto_api`` itself loads none of them.  Loading
runs under the registry lock, so a module is loaded once however many
threads ask for it at the same time; a module whose init fails is reported
and the lookup goes on without it.  The registry does not import this
module: importing it installs :func:`request_module` and
:func:`current_module` as the registry's module loader.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import os
import sys
import threading
from errno import ENOEXEC
from importlib import metadata
from types import ModuleType
from typing import Dict, Iterable, List, Optional, Tuple, Union

from . import registry
from .errors import EBUSY, EEXIST, ENODEV, ENOENT, CryptoError

log = logging.getLogger("crypto_api")

ENTRY_POINT_GROUP = "crypto_api.modules"


def MODULE_ALIAS_CRYPTO(*names: str) -> Tuple[str, ...]:
    """The aliases of MODULE_ALIAS_CRYPTO for each name: ``x`` and ``crypto-x``."""
    out: List[str] = []
    for n in names:
        out += [n, "crypto-" + n]
    return tuple(out)


class LoadedModule:
    """A module whose init has run (an entry of /proc/modules)."""

    __slots__ = ("name", "module", "source")

    def __init__(self, name: str, module: ModuleType, source: str) -> None:
        self.name = name
        self.module = module
        self.source = source

    def __repr__(self) -> str:
        return f"<LoadedModule {self.name} from {self.source}>"


_loaded: Dict[str, LoadedModule] = {}
_available: Optional[Dict[str, str]] = None        # module name -> import path
_alias_index: Optional[Dict[str, List[str]]] = None  # alias -> module names
_coldplugged = False                                 # CPU-feature modules loaded once
_generic_only = False                                # no arch module loads (generic_only())
_coldplug_extra = lambda: ()                         # noqa: E731  (set_coldplug_rule)
_alias_extra = lambda: {}                            # noqa: E731  (set_alias_rule)
CPU_ALIAS = "cpu:"                                   # alias prefix of MODULE_CPU_FEATURE
_state = threading.local()


def current_module() -> Optional[str]:
    """Name of the module whose init is running on this thread, if any."""
    stack = getattr(_state, "stack", None)
    return stack[-1] if stack else None


def module_name_of(mod: ModuleType, default: Optional[str] = None) -> str:
    return getattr(mod, "MODULE_NAME", None) or default or mod.__name__.rsplit(".", 1)[-1]


def _machine_arch() -> str:
    from .machine.selection import current_machine
    return current_machine().arch


def _package_arch(path: str) -> Optional[str]:
    """The machine whose package (its descriptor's, crypto_api.machine.spec) holds the
    module ``path``, or None for a module of no machine's package."""
    from .machine.known import machines
    for arch, spec in machines().items():
        if path.startswith(spec.package + "."):
            return arch
    return None


def _path_fits_machine(path: str) -> bool:
    arch = _package_arch(path)
    return arch is None or (not _generic_only and arch == _machine_arch())


def _module_name(ep_name: str) -> str:
    """An entry point ``<arch>.<module>`` names the kernel module ``<module>``
    of that arch (two arches may build a module of the same name, as the
    kernel's arm and arm64 chacha_neon)."""
    from .machine.known import machines
    arch, dot, rest = ep_name.partition(".")
    return rest if dot and arch in machines() else ep_name


def module_fits_machine(mod: ModuleType) -> bool:
    """False for a module whose MODULE_ARCH is not the booted machine's."""
    arch = getattr(mod, "MODULE_ARCH", None)
    return arch is None or (not _generic_only and arch == _machine_arch())


def generic_only() -> None:
    """From now on, load no module built for an architecture (this project's
    ``crypto_api.arch`` ones, any with ``MODULE_ARCH``): only the generic
    drivers register, whatever the machine can run (``crypto-api selftest
    --generic-only``).  Call it before the first lookup: loaded modules stay."""
    global _generic_only
    with registry.lock:
        _generic_only = True
    rescan()


def generic_only_chosen() -> bool:
    """True once :func:`generic_only` was called."""
    return _generic_only


def _entry_points() -> Dict[str, str]:
    found: Dict[str, str] = {}
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if _path_fits_machine(ep.value):
            found.setdefault(_module_name(ep.name), ep.value)
    return found


def available_modules() -> Dict[str, str]:
    """Modules that can be loaded: name -> dotted import path."""
    global _available
    with registry.lock:
        if _available is None:
            _available = _entry_points()
        return dict(_available)


def _import(path: str) -> ModuleType:
    return importlib.import_module(path.split(":", 1)[0])


def alias_index() -> Dict[str, List[str]]:
    """alias -> names of the modules declaring it (modules.alias)."""
    global _alias_index
    with registry.lock:
        if _alias_index is None:
            index: Dict[str, List[str]] = {}
            for name, path in available_modules().items():
                try:
                    mod = _import(path)
                except Exception as e:  # a broken plug-in must not break lookups
                    log.warning("crypto_api: cannot import module %s (%s): %s", name, path, e)
                    continue
                if not module_fits_machine(mod):
                    continue
                for alias in getattr(mod, "MODULE_ALIASES", ()):
                    index.setdefault(alias, []).append(name)
                feature = getattr(mod, "MODULE_CPU_FEATURE", None)
                if feature:
                    index.setdefault(CPU_ALIAS + feature, []).append(name)
            for alias, names in _alias_extra().items():
                for name in names:
                    if name in available_modules() and name not in index.get(alias, ()):
                        index.setdefault(alias, []).append(name)
            _alias_index = index
        return _alias_index


def rescan() -> None:
    """Forget the cached module list (after installing a plug-in at run time)."""
    global _available, _alias_index
    with registry.lock:
        _available = None
        _alias_index = None


def request_module(alias: str) -> int:
    """Load every module declaring ``alias``; failures are ignored. Returns how many loaded."""
    if not isinstance(alias, str):
        raise TypeError(f"request_module: alias must be str, not {type(alias).__name__}")
    count = 0
    with registry.lock:
        _coldplug_cpu_modules()
        initialising = getattr(_state, "stack", None) or ()
        for name in alias_index().get(alias, ()):
            if name in _loaded or name in initialising:
                continue            # loaded, or its init is what asked (modprobe skips a "coming" module)
            try:
                path = available_modules()[name]
                _load(name, _import(path), path)
                count += 1
            except CryptoError as e:
                log.debug("request_module(%s): module %s not loaded: %s", alias, name, e)
            except Exception as e:  # a broken module must not break every lookup
                log.warning("request_module(%s): module %s failed to load: %s: %s",
                            alias, name, type(e).__name__, e)
    return count


def set_alias_rule(extra) -> None:
    """Install ``extra()``: alias -> module names, aliases the modules declare
    in the chosen kernel version beyond their own (crypto_api.kernels: the
    driver names a version renames, as 6.18's ``xchacha12-lib``)."""
    global _alias_extra
    _alias_extra = extra
    rescan()


def set_coldplug_rule(extra) -> None:
    """Install ``extra()``: the names of further modules a booted system has
    loaded by their CPU device table (crypto_api.kernels: per kernel version,
    e.g. x86's aesni_intel); each loads at the coldplug if its init accepts the CPU."""
    global _coldplug_extra
    _coldplug_extra = extra


def _coldplug_cpu_modules() -> None:
    """Once: load the modules whose MODULE_CPU_FEATURE the machine's CPU has
    (udev's boot-time coldplug of cpu device-table aliases), then those the
    coldplug rule names.  A module whose init is what asked (loaded by hand,
    its init looking a name up) is skipped, as modprobe skips a "coming" one."""
    global _coldplugged
    if _coldplugged:
        return
    _coldplugged = True
    initialising = getattr(_state, "stack", None) or ()
    for name in _coldplug_extra():
        if name in _loaded or name in initialising or name not in available_modules():
            continue
        try:
            path = available_modules()[name]
            _load(name, _import(path), path)
        except Exception as e:  # as at boot: a module refusing the CPU is reported, boot goes on
            log.debug("crypto_api: device-table module %s not loaded: %s", name, e)
    for alias, names in alias_index().items():
        if not alias.startswith(CPU_ALIAS):
            continue
        from .machine.selection import current_machine
        try:
            present = current_machine().has(alias[len(CPU_ALIAS):])
        except CryptoError as e:    # an emulated CPU without its tools: no coldplug
            log.debug("crypto_api: CPU features unknown, %s not loaded: %s", names, e)
            continue
        if not present:
            continue
        for name in names:
            if name in _loaded or name in initialising:
                continue
            try:
                path = available_modules()[name]
                _load(name, _import(path), path)
            except Exception as e:  # as at boot: a failing module is reported, boot goes on
                log.debug("crypto_api: CPU-feature module %s not loaded: %s", name, e)


def _load(name: str, mod: ModuleType, source: str) -> LoadedModule:
    if name in _loaded:
        raise CryptoError(EEXIST, f"module {name} is already loaded")
    if not module_fits_machine(mod):
        why = "generic drivers only were asked for" if _generic_only else f"the machine is {_machine_arch()}"
        raise CryptoError(ENOEXEC, f"module {name} is built for {mod.MODULE_ARCH}, {why}")
    init = getattr(mod, "module_init", None)
    if init is None or not callable(getattr(mod, "module_exit", None)):
        raise CryptoError(ENOEXEC, f"module {name}: module_init/module_exit missing")
    stack = getattr(_state, "stack", None)
    if stack is None:
        stack = _state.stack = []
    stack.append(name)
    try:
        init()
    finally:
        stack.pop()
    lm = LoadedModule(name, mod, source)
    _loaded[name] = lm
    log.debug("crypto_api: loaded module %s", name)
    return lm


def insmod(target: Union[str, "os.PathLike[str]"], name: Optional[str] = None) -> str:
    """Load a module given as a path to a .py file, a module object or a dotted name.

    Returns the module name.  Raises EEXIST if it is already loaded and the
    module's own error (e.g. ENODEV) if its init fails.
    """
    with registry.lock:
        if isinstance(target, ModuleType):
            mod, source = target, target.__name__
        elif isinstance(target, (str, os.PathLike)) and (os.fspath(target).endswith(".py") or os.sep in os.fspath(target)):
            path = os.path.abspath(os.fspath(target))
            if not os.path.isfile(path):
                raise CryptoError(ENOENT, f"insmod: no such file {path}")
            loaded = next((lm.name for lm in _loaded.values() if lm.source == path), None)
            if loaded is not None:      # refuse before running the file's code again
                raise CryptoError(EEXIST, f"insmod: {path} is already loaded as module {loaded}")
            modname = "crypto_api_insmod_" + os.path.splitext(os.path.basename(path))[0]
            spec = importlib.util.spec_from_file_location(modname, path)
            mod = importlib.util.module_from_spec(spec)
            sys.modules[modname] = mod
            spec.loader.exec_module(mod)
            source = path
            if name is None:       # named after its file, as insmod foo.ko gives "foo"
                name = module_name_of(mod, os.path.splitext(os.path.basename(path))[0])
        elif isinstance(target, str):
            try:
                mod = _import(available_modules().get(target, target))
            except ModuleNotFoundError as e:
                if e.name is None or not target.startswith(e.name):
                    raise               # the module exists but one of its imports does not
                raise CryptoError(ENOENT, f"insmod: no module {target!r}") from None
            source = target
            if name is None and target in available_modules():
                name = target
        else:
            raise TypeError(f"insmod: expected a path, module or module name, not {type(target).__name__}")
        if name is None:
            name = module_name_of(mod)
            for ep_name, ep_path in available_modules().items():
                if ep_path.split(":")[0] == mod.__name__:
                    name = getattr(mod, "MODULE_NAME", None) or ep_name
        _load(name, mod, source)
        return name


def rmmod(name: str) -> None:
    """Unload a module: refused with EBUSY while its algorithms are in use."""
    if not isinstance(name, str):
        raise TypeError(f"rmmod: module name must be str, not {type(name).__name__}")
    with registry.lock:
        lm = _loaded.get(name)
        if lm is None:
            raise CryptoError(ENOENT, f"rmmod: module {name} is not loaded")
        busy = [a for a in registry.alg_list
                if a.cra_module == name and not a.is_larval and a.cra_refcnt > 1]
        if busy:
            raise CryptoError(EBUSY, f"rmmod: module {name} is in use by "
                              + ", ".join(a.cra_driver_name for a in busy))
        lm.module.module_exit()
        del _loaded[name]


def loaded_modules() -> List[str]:
    with registry.lock:
        return list(_loaded)


def is_loaded(name: str) -> bool:
    return name in _loaded


def load_all(only: Optional[Iterable[str]] = None) -> Dict[str, Optional[CryptoError]]:
    """modprobe every available module (or those named in ``only``), as a boot
    does; returns name -> None if loaded (now or before) or the error."""
    result: Dict[str, Optional[CryptoError]] = {}
    with registry.lock:
        for name, path in available_modules().items():
            if only is not None and name not in only:
                continue
            if name in _loaded:
                result[name] = None
                continue
            try:
                mod = _import(path)
            except Exception as e:  # a broken plug-in must not stop the others
                result[name] = CryptoError(ENOENT, f"module {name}: cannot import {path}: {e}")
                continue
            try:
                _load(name, mod, path)
                result[name] = None
            except CryptoError as e:
                result[name] = e
            except Exception as e:  # its module_init crashed: report it, load the others
                result[name] = CryptoError(ENOEXEC, f"module {name}: init failed: {type(e).__name__}: {e}")
    return result


def emulated_drivers() -> List[str]:
    """Driver names registered by arch modules of an emulated machine (their
    code runs under qemu-user: speed figures of them are labelled emulated)."""
    from .machine.selection import current_machine
    if not current_machine().emulated:
        return []
    with registry.lock:
        arch_mods = {n for n, lm in _loaded.items() if getattr(lm.module, "MODULE_ARCH", None)}
        return [a.cra_driver_name for a in registry.alg_list if a.cra_module in arch_mods]


def require_cpu(ok: bool, driver: str, why: str) -> None:
    """Module init helper: ENODEV (nothing registered) when the CPU lacks a feature."""
    if not ok:
        log.debug("%s: not registered: %s", driver, why)
        raise CryptoError(ENODEV, f"{driver}: {why}")


# Looked up at each call, so that what replaces them here (a test's monkeypatch) is used.
registry.set_module_loader(registry.ModuleLoader(request_module=lambda alias: request_module(alias),
                                                 current_module=lambda: current_module()))

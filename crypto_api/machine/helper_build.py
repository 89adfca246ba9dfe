"""Build the static helper of an architecture: every core plus a generated dispatcher.

The helper is one static executable per architecture, built with the cross
compiler of the machine's descriptor (:func:`toolchain_of`, the
``Toolchain`` of ``arch/<arch>/machine.py``) and ``-static``, run under
its qemu-user binary by crypto_api.machine.qemu.  Its ``main``
maps the shared memory it is given, reports the CPU's HWCAP words
(``getauxval``), then serves fixed-size request records from stdin with
reply records on stdout.  The dispatcher is generated from the cores' cdefs
(crypto_api.machine.cdefs); each core's sources, with those of the shared
cores it links (crypto_api.machine.core.arch_sources: arch/common's, the
generic parts of algs/; each file once), are compiled with the core's own
flags (an ``+crypto`` core does not widen the others).  The optimisation
level is the host extensions' (-O3, the machine's toolchain flags).

Built lazily, at first use, into ``$CRYPTO_API_CACHE`` (default
``$XDG_CACHE_HOME/crypto_api``, else ``~/.cache/crypto_api``) under a name
keyed by a hash of the sources, headers, generated code, flags and
compiler, so an edited core rebuilds and an unchanged one is reused.  A
lock file serialises concurrent builds; the executable appears atomically.

A wheel built where the cross compilers are present ships the helpers
prebuilt (``make dist``; :func:`prebuild` writes them into the package's
``prebuilt/`` directory, gzipped so wheel tools do not take a foreign
executable for a library of the wheel's platform).  They are looked up
first, under a key (:func:`source_key`) that hashes the same sources,
headers, generated dispatcher and flags, with paths taken relative to the
package, so it is the same where the wheel was built and where it is
installed; a stale or missing one is never used, and the lazy build runs as
before.  A prebuilt helper needs only qemu-user, not the cross compiler.
"""

from __future__ import annotations

import fcntl
import glob
import gzip
import hashlib
import os
import shutil
import subprocess
import tempfile
from typing import Dict, List, Optional, Tuple

from errno import EINVAL, ENODEV, ENOEXEC

from ..errors import CryptoError
from .cdefs import Function
from .core import Core, arch_cores, arch_dir, arch_sources
from .known import machine_spec
from .spec import Toolchain

MAGIC = 0x43415049  # "CAPI": the helper's hello record starts with it
NULL_OFFSET = 0xFFFFFFFFFFFFFFFF


#: ``CRYPTO_API_HELPER_SANITIZE=undefined`` (``make test-asan`` sets it): every
#: object of the helper compiled with UBSan in trap mode.  A static executable
#: cannot link gcc's sanitizer runtimes; trap mode needs none: undefined
#: behaviour in a core executes a trap instruction, the helper dies and the
#: call fails.  (ASan has no such mode: the helpers are not address-checked.)
SANITIZE_VAR = "CRYPTO_API_HELPER_SANITIZE"
SANITIZE_FLAGS = {"undefined": ("-fsanitize=undefined", "-fsanitize-undefined-trap-on-error")}


def sanitize_flags() -> Tuple[str, ...]:
    """The compile flags ``$CRYPTO_API_HELPER_SANITIZE`` asks for (none when unset)."""
    want = os.environ.get(SANITIZE_VAR, "")
    if not want:
        return ()
    if want not in SANITIZE_FLAGS:
        raise CryptoError(EINVAL, f"{SANITIZE_VAR}={want!r}: not a helper sanitizer "
                                  f"(known: {', '.join(SANITIZE_FLAGS)})")
    return SANITIZE_FLAGS[want]


def cache_root() -> str:
    base = os.environ.get("CRYPTO_API_CACHE")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = os.path.join(xdg, "crypto_api")
    return base


#: Where a wheel carries prebuilt helpers: ``prebuilt/<arch>-<source key>.gz``.
PREBUILT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "prebuilt")


def toolchain_of(arch: str) -> Toolchain:
    """The toolchain of machine ``arch`` (its descriptor's); ENODEV for a machine
    that is never emulated, EINVAL for an unknown one."""
    spec = machine_spec(arch)
    if spec.toolchain is None:
        raise CryptoError(ENODEV, f"machine {spec.name}: never emulated, it has no cross toolchain")
    return spec.toolchain


def missing_tools(arch: str) -> List[str]:
    """'tool (package ...)' for each tool of ``arch`` not on PATH (the cross
    compiler only when no prebuilt helper matches the sources)."""
    tc = toolchain_of(arch)
    out = []
    if shutil.which(tc.cc) is None and prebuilt_path(arch) is None:
        out.append(f"{tc.cc} (Debian packages {tc.packages})")
    if shutil.which(tc.qemu) is None:
        out.append(f"{tc.qemu} (Debian package {tc.qemu_package})")
    return out


def require_tools(arch: str) -> None:
    miss = missing_tools(arch)
    if miss:
        raise CryptoError(ENODEV, f"machine {arch}: cannot run {arch} cores, missing " + ", ".join(miss))


def functions_of(cores: Dict[str, Core]) -> List[Tuple[Core, Function]]:
    """Every (core, function) in a stable order: the dispatcher's numbering."""
    out = []
    for name in sorted(cores):
        for fn in cores[name].functions():
            out.append((cores[name], fn))
    return out


def _arg(i: int, p) -> str:
    if p.pointer:
        return (f"(a[{i}] == CAPI_NULL ? ({p.c_decl()})0 : ({p.c_decl()})(shm + a[{i}]))")
    return f"({p.ctype})a[{i}]"


def dispatcher_source(fns: List[Tuple[Core, Function]]) -> str:
    """The generated C: prototypes, the dispatch switch and the serving main."""
    lines = ["/* Generated by crypto_api.machine.helper_build: do not edit. */",
             "#include <stddef.h>", "#include <stdint.h>", "#include <stdlib.h>",
             "#include <unistd.h>", "#include <sys/auxv.h>", "#include <sys/mman.h>", "",
             f"#define CAPI_NULL 0x{NULL_OFFSET:x}ULL", f"#define CAPI_MAGIC 0x{MAGIC:x}ULL", ""]
    for _, fn in fns:
        params = ", ".join(f"{p.c_decl()}{'' if p.pointer else ' '}{p.name}" for p in fn.params) or "void"
        lines.append(f"{fn.ret} {fn.name}({params});")
    lines += ["", "struct capi_req { uint32_t fn; uint32_t pad; uint64_t a[8]; };",
              "struct capi_rep { int64_t ret; uint64_t status; };", "",
              "static int dispatch(uint8_t *shm, const struct capi_req *r, int64_t *ret)",
              "{", "\tconst uint64_t *a = r->a;", "\t(void)a; (void)shm;", "\tswitch (r->fn) {"]
    for i, (_, fn) in enumerate(fns):
        call = f"{fn.name}({', '.join(_arg(j, p) for j, p in enumerate(fn.params))})"
        if fn.ret == "void":
            lines.append(f"\tcase {i}: {call}; *ret = 0; return 0;")
        else:
            lines.append(f"\tcase {i}: *ret = (int64_t){call}; return 0;")
    lines += ["\tdefault: return 1;", "\t}", "}", "",
              "static int io_all(int fd, void *buf, size_t n, int rd)",
              "{",
              "\tuint8_t *p = buf;",
              "\twhile (n) {",
              "\t\tssize_t k = rd ? read(fd, p, n) : write(fd, p, n);",
              "\t\tif (k <= 0) return -1;",
              "\t\tp += k; n -= (size_t)k;",
              "\t}",
              "\treturn 0;",
              "}", "",
              "int main(int argc, char **argv)",
              "{",
              "\tif (argc != 3) return 2;",
              "\tint fd = atoi(argv[1]);",
              "\tsize_t size = strtoull(argv[2], NULL, 10);",
              "\tuint8_t *shm = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);",
              "\tif (shm == MAP_FAILED) return 3;",
              f"\tuint64_t hello[4] = {{ CAPI_MAGIC, {len(fns)}, getauxval(AT_HWCAP), getauxval(AT_HWCAP2) }};",
              "\tif (io_all(1, hello, sizeof(hello), 0)) return 4;",
              "\tfor (;;) {",
              "\t\tstruct capi_req r;",
              "\t\tstruct capi_rep p = { 0, 0 };",
              "\t\tif (io_all(0, &r, sizeof(r), 1)) return 0;",
              "\t\tp.status = (uint64_t)dispatch(shm, &r, &p.ret);",
              "\t\tif (io_all(1, &p, sizeof(p), 0)) return 5;",
              "\t}",
              "}", ""]
    return "\n".join(lines)


def _digest(arch: str, cores: Dict[str, Core], dispatcher: str, src_dir: str) -> str:
    h = hashlib.sha256()
    tc = toolchain_of(arch)
    h.update(repr((tc.cc, tc.cflags, shutil.which(tc.cc), sanitize_flags())).encode())
    h.update(dispatcher.encode())
    files = set(glob.glob(os.path.join(src_dir, "*.h")))
    linked = arch_sources(arch, cores, src_dir)
    for c in cores.values():
        h.update(repr((c.name, c.sources, c.links, c.cflags)).encode())
        srcs = linked[c.name]
        files.update(srcs)
        # headers beside sources of other directories and in -I directories (a core may
        # build the common or the generic C, as arch/arm's build arch/common's)
        dirs = {os.path.dirname(f) for f in srcs} | {f[2:] for f in c.cflags if f.startswith("-I")}
        for d in dirs:
            files.update(glob.glob(os.path.join(d, "*.h")))
    for f in sorted(files):
        h.update(f.encode())
        with open(f, "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()[:16]


def _sources_root(src_dir: str) -> str:
    """The directory holding ``arch/`` and ``algs/`` (the repository, or the installed package)."""
    return os.path.dirname(os.path.dirname(os.path.abspath(src_dir)))


def source_key(arch: str, cores: Dict[str, Core], dispatcher: str, src_dir: str) -> str:
    """A hash of what goes into ``arch``'s helper, independent of where the
    package lies and of the compiler's path: the compiler's name and flags, the
    dispatcher, each core's sources and flags, and every source and header
    (named relative to the package).  The name of a prebuilt helper."""
    root = _sources_root(src_dir)

    def rel(path: str) -> str:
        path = os.path.normpath(path)
        return os.path.relpath(path, root) if os.path.isabs(path) else path

    def rel_flag(flag: str) -> str:
        return "-I" + rel(flag[2:]) if flag.startswith("-I") and os.path.isabs(flag[2:]) else flag

    h = hashlib.sha256()
    tc = toolchain_of(arch)
    h.update(repr((tc.cc, tc.cflags) + ((sanitize_flags(),) if sanitize_flags() else ())).encode())
    h.update(dispatcher.encode())
    files = set(glob.glob(os.path.join(src_dir, "*.h")))
    linked = arch_sources(arch, cores, src_dir)
    for c in cores.values():
        h.update(repr((c.name, c.sources, c.links, tuple(rel_flag(f) for f in c.cflags))).encode())
        srcs = linked[c.name]
        files.update(srcs)
        dirs = {os.path.dirname(f) for f in srcs} | {f[2:] for f in c.cflags if f.startswith("-I")}
        for d in dirs:
            files.update(glob.glob(os.path.join(d, "*.h")))
    for name, path in sorted((rel(f), f) for f in files):
        h.update(name.encode())
        with open(path, "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()[:32]


def _prebuilt_name(arch: str) -> Tuple[str, List[Tuple[Core, Function]]]:
    cores = arch_cores(arch)
    fns = functions_of(cores)
    return f"{arch}-{source_key(arch, cores, dispatcher_source(fns), arch_dir(arch))}", fns


def prebuilt_path(arch: str) -> Optional[str]:
    """The packaged helper of ``arch`` that matches the installed sources, or None."""
    if not os.path.isdir(PREBUILT_DIR):            # a source tree: no hashing
        return None
    path = os.path.join(PREBUILT_DIR, _prebuilt_name(arch)[0] + ".gz")
    return path if os.path.isfile(path) else None


def _unpack_prebuilt(packed: str, name: str) -> str:
    """The prebuilt helper unpacked (once) into the cache, executable."""
    out_dir = os.path.join(cache_root(), "helpers", "prebuilt-" + name)
    exe = os.path.join(out_dir, "helper")
    if os.path.exists(exe):
        return exe
    os.makedirs(out_dir, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=out_dir, prefix=".helper.")
    try:
        with os.fdopen(fd, "wb") as out, gzip.open(packed, "rb") as src:
            shutil.copyfileobj(src, out)
        os.chmod(tmp, 0o755)
        os.replace(tmp, exe)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return exe


def prebuild(arch: str, dest_dir: str) -> str:
    """Build ``arch``'s helper now and store it gzipped in ``dest_dir`` under its
    source key (``make dist`` / setup.py put it into the wheel); its path."""
    exe, _fns = _build_in_cache(arch)
    name, _ = _prebuilt_name(arch)
    os.makedirs(dest_dir, exist_ok=True)
    path = os.path.join(dest_dir, name + ".gz")
    with open(exe, "rb") as src, gzip.GzipFile(path, "wb", mtime=0) as out:
        shutil.copyfileobj(src, out)
    return path


def _run(cmd: List[str], what: str) -> None:
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        raise CryptoError(ENOEXEC, f"helper build: {what} failed ({' '.join(cmd)}):\n{r.stderr.strip()}")


def build_helper(arch: str) -> Tuple[str, List[Tuple[Core, Function]]]:
    """The path of ``arch``'s helper (the packaged prebuilt one when it matches
    the sources, else built now if its cache entry is missing) and the
    dispatcher's function table."""
    packed = prebuilt_path(arch)
    if packed is not None:
        name = os.path.basename(packed)[:-len(".gz")]
        return _unpack_prebuilt(packed, name), functions_of(arch_cores(arch))
    return _build_in_cache(arch)


def _build_in_cache(arch: str) -> Tuple[str, List[Tuple[Core, Function]]]:
    """The lazy build: compile and link ``arch``'s helper into the cache (once)."""
    require_tools(arch)
    cores = arch_cores(arch)
    fns = functions_of(cores)
    disp = dispatcher_source(fns)
    src_dir = arch_dir(arch)
    key = _digest(arch, cores, disp, src_dir)
    out_dir = os.path.join(cache_root(), "helpers", f"{arch}-{key}")
    exe = os.path.join(out_dir, "helper")
    if os.path.exists(exe):
        return exe, fns
    os.makedirs(out_dir, exist_ok=True)
    tc = toolchain_of(arch)
    with open(os.path.join(out_dir, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(exe):
            return exe, fns
        with tempfile.TemporaryDirectory(dir=out_dir) as tmp:
            objs = []
            dpath = os.path.join(tmp, "dispatch.c")
            with open(dpath, "w") as f:
                f.write(disp)
            linked = arch_sources(arch, cores, src_dir)
            done = set()          # a file two cores link is compiled once, with the first one's flags
            for c in [None] + [cores[n] for n in sorted(cores)]:
                srcs = [dpath] if c is None else [s for s in linked[c.name] if s not in done]
                done.update(srcs)
                flags = list(tc.cflags) + ([] if c is None else list(c.cflags)) + list(sanitize_flags())
                for s in srcs:
                    obj = os.path.join(tmp, f"{len(objs)}_{os.path.basename(s)}.o")
                    _run([tc.cc, *flags, "-I", src_dir, "-c", s, "-o", obj],
                         f"compiling {'the dispatcher' if c is None else 'core ' + c.name}")
                    objs.append(obj)
            tmp_exe = os.path.join(tmp, "helper")
            _run([tc.cc, "-static", "-o", tmp_exe, *objs], "linking the helper")
            os.replace(tmp_exe, exe)
    return exe, fns

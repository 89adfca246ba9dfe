import os
import subprocess
import sys

from setuptools import Command, Extension, setup
from setuptools.command.build import build

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "algs"))
from build_common import CFLAGS, cffi_modules  # noqa: E402


def _packages_under(package, directory):
    """``package`` and every package below it: each directory under
    ``directory`` with an ``__init__.py``, found, not listed, so a new package
    (a machine's arch/<dir>, a core subpackage) needs no line of packaging
    (the C files of arch/: pyproject.toml's package-data of crypto_api.arch)."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), directory)
    found = []
    for path, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__pycache__")))
        if "__init__.py" in files:
            rel = os.path.relpath(path, root)
            found.append(package if rel == "." else package + "." + rel.replace(os.sep, "."))
    return found


# pyproject.toml's package-dir says where each lives (crypto_api.arch.<dir>: arch/<dir>)
PACKAGES = [
    *_packages_under("crypto_api", "crypto_api"),
    "crypto_api.testmgr.vectors",       # data only: the self-tests' vectors (JSON)
    *_packages_under("crypto_api.algs", "algs"),
    "crypto_api.algs.include",          # data only: the C cores' shared headers
    *_packages_under("crypto_api.arch", "arch"),
    *_packages_under("crypto_api.tools", "tools"),
    *_packages_under("crypto_api.dmcrypt", "dmcrypt"),
]

# The C entry points that are CPython extensions rather than cffi ones
# (crypto_api/direct_call.c, crypto_api/direct_method.c): the limited API
# (abi3) from 3.11 on, where Py_buffer belongs to it; build flags as
# algs/build_common.py's.
_LIMITED = sys.version_info >= (3, 11)


def _cpython_extension(name, sources, depends=(), threads=False):
    return Extension(
        name, sources, depends=list(depends),
        include_dirs=["algs/include"],      # memzero.h, the C code's one wiping routine
        # threads: it starts pthreads of its own (crypto_api/batch_pool.h)
        extra_compile_args=list(CFLAGS) + (["-pthread"] if threads else []),
        # it may call nothing in libc but clock_gettime (vDSO), and the linker
        # would drop libc from its DT_NEEDED; auditwheel reads the libc
        # (glibc/musl) from that entry
        extra_link_args=(["-pthread"] if threads else []) + ["-Wl,--no-as-needed", "-lc"],
        define_macros=[("Py_LIMITED_API", "0x030B0000")] if _LIMITED else [],
        py_limited_api=_LIMITED)


DIRECT_CALL = _cpython_extension("crypto_api._direct_call", ["crypto_api/direct_call.c"],
                                 depends=["crypto_api/gil_handoff.h", "crypto_api/entry_point.h",
                                          "crypto_api/aead_call.h", "crypto_api/digest_call.h",
                                          "crypto_api/batch_call.h", "crypto_api/batch_pool.h",
                                          "algs/include/memzero.h"],
                                 threads=True)
DIRECT_METHOD = _cpython_extension("crypto_api._direct_method", ["crypto_api/direct_method.c"])


class build_helpers(Command):
    """Prebuild the emulated machines' static helpers into the wheel
    (crypto_api/machine/prebuilt/), for each cross compiler present; skipped in
    editable installs and with CRYPTO_API_PREBUILT_HELPERS=0."""

    description = "prebuild the qemu-user helpers of the emulated machines"
    user_options = []
    editable_mode = False

    def initialize_options(self):
        self.build_lib = None
        self.build_temp = None

    def finalize_options(self):
        self.set_undefined_options("build", ("build_lib", "build_lib"), ("build_temp", "build_temp"))

    def run(self):
        if self.editable_mode or os.environ.get("CRYPTO_API_PREBUILT_HELPERS") == "0":
            return
        lib = os.path.abspath(self.build_lib)
        machine = os.path.join(lib, "crypto_api", "machine")
        # run by path, not with -m: so it imports neither crypto_api's __init__ nor
        # the run-time dependencies, which pip's isolated build environment lacks
        subprocess.run([sys.executable, os.path.join(machine, "prebuild.py"),
                        os.path.join(machine, "prebuilt")],
                       check=True, cwd=lib, env=dict(os.environ,      # its own cache
                                                     CRYPTO_API_CACHE=os.path.abspath(self.build_temp)))


build.sub_commands.append(("build_helpers", None))

setup(
    packages=PACKAGES,
    cmdclass={"build_helpers": build_helpers},
    ext_modules=[DIRECT_CALL, DIRECT_METHOD],
    # every extension uses the limited API there (cffi's too): one wheel,
    # tagged cp311-abi3, for CPython 3.11 and every later version
    options={"bdist_wheel": {"py_limited_api": "cp311"}} if _LIMITED else {},
    # one per module core of algs/cores.py and arch/x86/cores.py, found, not listed
    cffi_modules=cffi_modules(),
)

import os
import subprocess
import sys

from setuptools import Command, Extension, setup
from setuptools.command.build import build

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "algs"))
from build_common import CFLAGS, cffi_modules  # noqa: E402


def _arch_packages():
    """``crypto_api.arch.<dir>`` for each package directory of arch/ (one with an
    ``__init__.py``): found, not listed, so a machine's directory needs no line
    of packaging (its C files: pyproject.toml's package-data of crypto_api.arch)."""
    arch = os.path.join(os.path.dirname(os.path.abspath(__file__)), "arch")
    return ["crypto_api.arch." + d for d in sorted(os.listdir(arch))
            if os.path.isfile(os.path.join(arch, d, "__init__.py"))]


# pyproject.toml's package-dir says where each lives (crypto_api.arch.<dir>: arch/<dir>)
PACKAGES = [
    "crypto_api",
    "crypto_api.testmgr",
    "crypto_api.testmgr.vectors",       # data only: the self-tests' vectors (JSON)
    "crypto_api.algs",
    "crypto_api.algs.include",          # data only: the C cores' shared headers
    "crypto_api.arch",
    *_arch_packages(),
    "crypto_api.machine",
    "crypto_api.kernels",
    "crypto_api.tools",
    "crypto_api.dmcrypt",
]

# The C entry points that are CPython extensions rather than cffi ones
# (crypto_api/linear_call.c, crypto_api/fast_method.c): the limited API
# (abi3) from 3.11 on, where Py_buffer belongs to it; build flags as
# algs/build_common.py's.
_LIMITED = sys.version_info >= (3, 11)


def _cpython_extension(name, sources, depends=()):
    return Extension(
        name, sources, depends=list(depends),
        include_dirs=["algs/include"],      # memzero.h, the C code's one wiping routine
        extra_compile_args=list(CFLAGS),
        # it may call nothing in libc but clock_gettime (vDSO), and the linker
        # would drop libc from its DT_NEEDED; auditwheel reads the libc
        # (glibc/musl) from that entry
        extra_link_args=["-Wl,--no-as-needed", "-lc"],
        define_macros=[("Py_LIMITED_API", "0x030B0000")] if _LIMITED else [],
        py_limited_api=_LIMITED)


LINEAR_CALL = _cpython_extension("crypto_api._linear_call", ["crypto_api/linear_call.c"],
                                 depends=["crypto_api/gil_handoff.h", "crypto_api/entry_point.h",
                                          "crypto_api/aead_call.h", "crypto_api/digest_call.h",
                                          "algs/include/memzero.h"])
FAST_METHOD = _cpython_extension("crypto_api._fast_method", ["crypto_api/fast_method.c"])


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
    ext_modules=[LINEAR_CALL, FAST_METHOD],
    # every extension uses the limited API there (cffi's too): one wheel,
    # tagged cp311-abi3, for CPython 3.11 and every later version
    options={"bdist_wheel": {"py_limited_api": "cp311"}} if _LIMITED else {},
    # one per module core of algs/cores.py and arch/x86/cores.py, found, not listed
    cffi_modules=cffi_modules(),
)

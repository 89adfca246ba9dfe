"""The kernel switch in its three forms: ``--kernel``, ``CRYPTO_API_KERNEL``, crypto_api.boot."""

import os
import platform
import subprocess
import sys

import pytest

import crypto_api as capi
from crypto_api import kernels
from crypto_api.kernels import query
from crypto_api.errors import EBUSY, EINVAL

KNOWN_LIST = ", ".join(kernels.KNOWN)


def cli(*args, **env):
    e = dict(os.environ, CRYPTO_API_SELFTESTS="off")
    for k in ("CRYPTO_API_KERNEL", "CRYPTO_API_ARCH", "CRYPTO_API_CPU"):
        e.pop(k, None)
    e.update(env)
    return subprocess.run([sys.executable, "-m", "crypto_api", *args], env=e, capture_output=True,
                          text=True, timeout=600)


def drivers(listing):
    return {line.split()[2] for line in listing.splitlines()[2:]}


@pytest.mark.parametrize("where", ["before", "after"])
def test_option_before_or_after_the_command(where):
    args = ["--kernel", "5.10", "list", "--table"] if where == "before" else ["list", "--table", "--kernel", "5.10"]
    out = cli(*args)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == "# kernel: Linux 5.10"
    got = drivers(out.stdout)
    assert {"chacha20-simd", "poly1305-simd", "aes-generic"} <= got
    assert not {"chacha20-lib", "aria-generic", "sha256-lib"} & got


def test_environment_and_the_option_export_it():
    out = cli("list", "--table", CRYPTO_API_KERNEL="6.18")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == "# kernel: Linux 6.18"
    got = drivers(out.stdout)
    assert {"chacha20-lib", "sha256-lib"} <= got and not {"chacha20-simd", "chacha20-generic"} & got


def test_no_kernel_chosen_lists_the_default_6_18():
    """With neither --kernel nor $CRYPTO_API_KERNEL the listing is 6.18's, and says so."""
    out = cli("list", "--table")
    assert out.returncode == 0, out.stderr
    assert kernels.DEFAULT == "6.18"
    assert out.stdout.splitlines()[0] == "# kernel: Linux 6.18"
    got = drivers(out.stdout)
    expected = cli("--kernel", "6.18", "list", "--table")
    assert expected.returncode == 0, expected.stderr
    assert got == drivers(expected.stdout)
    # the table's 6.18 drivers of this machine, none of the composite's own names
    assert {"sha256-lib", "chacha20-lib"} <= got <= set(query.snapshot("6.18", platform.machine()))
    assert not {"chacha20-simd", "chacha20-generic", "sha256-generic"} & got


DEFAULT_CHILD = """
import crypto_api as capi
from crypto_api.kernel_version import kernel_version
print(capi.kernels.selected(), kernel_version())
print(capi.crypto_alloc_shash("sha256").alg.cra_driver_name)
print(capi.proc_crypto().splitlines()[0])
print(capi.boot())
"""


def test_python_api_default_is_6_18():
    """A program that chooses nothing follows 6.18 (selected(), lookups, /proc/crypto, boot())."""
    out = subprocess.run([sys.executable, "-c", DEFAULT_CHILD], capture_output=True, text=True, timeout=600,
                         env={k: v for k, v in os.environ.items()
                              if k not in ("CRYPTO_API_KERNEL", "CRYPTO_API_KERNEL_VERSION")})
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["6.18 5.2", "sha256-lib", "# kernel: Linux 6.18", "Linux 6.18"]


OLD_SWITCH_CHILD = r"""
import sys
import crypto_api as capi
from crypto_api.kernel_version import kernel_version
if sys.argv[1] != "-":
    capi.boot(kernel=sys.argv[1])
t = capi.crypto_alloc_skcipher("ecb(aes-generic)")
rec = capi.proc_crypto().split("driver       : ecb(aes-generic)")[1].split("\n\n")[0]
print(capi.kernels.selected(), kernel_version(), "blkcipher" in rec)
"""


@pytest.mark.parametrize("kernel,old,expected", [
    ("-", "5.0", "6.18 5.0 True"),          # the default kernel leaves the user's 5.0 records
    ("6.1", "5.0", "6.1 5.0 True"),
    ("5.0", "5.2", "5.0 5.2 False"),        # --kernel 5.0 does not override an explicit 5.2
    ("5.0", None, "5.0 5.0 True"),          # unset: it follows the kernel version
    ("-", None, "6.18 5.2 False"),
])
def test_the_older_switch_is_honoured_when_set(kernel, old, expected):
    """``CRYPTO_API_KERNEL_VERSION`` set by the user stays as set whatever kernel is followed."""
    env = {k: v for k, v in os.environ.items() if k not in ("CRYPTO_API_KERNEL", "CRYPTO_API_KERNEL_VERSION")}
    if old:
        env["CRYPTO_API_KERNEL_VERSION"] = old
    out = subprocess.run([sys.executable, "-c", OLD_SWITCH_CHILD, kernel], capture_output=True, text=True,
                         timeout=600, env=dict(env, CRYPTO_API_SELFTESTS="off"))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == expected


@pytest.mark.parametrize("how", ["option", "environment"])
def test_unknown_version_is_one_line(how):
    out = cli("--kernel", "5.20", "list") if how == "option" else cli("list", CRYPTO_API_KERNEL="5.20")
    assert out.returncode == 1 and out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and "'5.20'" in lines[0] and "5.0 to 6.19" in lines[0]
    assert lines[0].endswith(KNOWN_LIST)


def test_boot_unknown_version_is_einval():
    with pytest.raises(capi.CryptoError) as e:
        capi.boot(kernel="4.19")
    assert e.value.errno == EINVAL and KNOWN_LIST in str(e.value) and "4.19" in str(e.value)
    assert "5.0 to 6.19" in str(e.value)


CHILD = """
import crypto_api as capi
from crypto_api.errors import EBUSY
print(capi.boot(kernel="6.1", arch="arm64"))
capi.load_all()
print(capi.proc_crypto().splitlines()[0])
names = {a.cra_driver_name for a in capi.registry.snapshot()}
print("xchacha12-neon" in names, "poly1305-neon" in names, "xchacha12-lib" in names)
try:
    capi.boot(kernel="6.18")
except capi.CryptoError as e:
    print(e.errno == EBUSY)
"""


def test_boot_in_python_and_too_late():
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=600,
                         env={k: v for k, v in os.environ.items()
                              if k not in ("CRYPTO_API_KERNEL", "CRYPTO_API_ARCH", "CRYPTO_API_CPU")})
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["Linux 6.1", "# kernel: Linux 6.1", "True True False", "True"]


def test_v50_shows_v50_records():
    """--kernel 5.0 keeps v5.0's /proc/crypto records (crypto_api.kernel_version)."""
    code = ("import crypto_api as capi\nfrom crypto_api.kernel_version import kernel_version\n"
            "capi.boot(kernel='5.0')\nt = capi.crypto_alloc_skcipher('ecb(aes-generic)')\n"
            "print(kernel_version())\nrec = capi.proc_crypto().split('ecb(aes-generic)')[1]\n"
            "print('blkcipher' in rec.split('\\n\\n')[0])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["5.0", "True"]


@pytest.mark.parametrize("how", ["option", "environment"])
def test_composite_asks_for_no_version_explicitly(how):
    """``composite`` is the registry with no version chosen (what a test suite
    can pin whatever the default becomes)."""
    out = cli("--kernel", "composite", "list", "--table") if how == "option" else \
        cli("list", "--table", CRYPTO_API_KERNEL="composite")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("name ")
    assert {"chacha20-simd", "chacha20-generic"} <= drivers(out.stdout)


def test_boot_composite_after_a_version_was_chosen_in_the_environment():
    code = ("import crypto_api as capi\nprint(capi.kernels.selected())\n"
            "print(capi.boot(kernel='composite').split()[0], capi.kernels.selected())\n")
    env = dict(os.environ, CRYPTO_API_KERNEL="6.1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["6.1", "composite None"]


def test_enc_follows_the_default_kernel(tmp_path):
    """``enc`` finds drivers by the followed kernel's names: 6.18's
    ``xchacha12-lib`` with none chosen (the composite's ``xchacha12-generic``
    is ENOENT there), the other way round under ``--kernel composite``; both
    give the same XChaCha12 bytes."""
    key, msg = tmp_path / "key", tmp_path / "msg"
    key.write_bytes(bytes(range(32)))
    msg.write_bytes(bytes(range(256)) * 3)
    iv = "07" + "00" * 31

    def enc(*args):
        return subprocess.run([sys.executable, "-m", "crypto_api", *args, "--key-file", str(key), "--iv", iv,
                               "-i", str(msg)], env={k: v for k, v in os.environ.items()
                                                     if k != "CRYPTO_API_KERNEL"},
                              capture_output=True, timeout=600)

    lib = enc("enc", "-c", "xchacha12-lib")
    assert lib.returncode == 0, lib.stderr
    missing = enc("enc", "-c", "xchacha12-generic")
    assert missing.returncode == 1 and b"ENOENT" in missing.stderr and b"xchacha12-generic" in missing.stderr
    generic = enc("--kernel", "composite", "enc", "-c", "xchacha12-generic")
    assert generic.returncode == 0, generic.stderr
    assert enc("--kernel", "composite", "enc", "-c", "xchacha12-lib").returncode == 1
    assert lib.stdout == generic.stdout and len(lib.stdout) == 768 and lib.stdout != msg.read_bytes()

"""Machine selection (crypto_api.machine) and the module gating by MODULE_ARCH."""

import errno
import os
import subprocess
import sys

import pytest

import crypto_api as capi
from crypto_api import modules
from crypto_api.machine import current_machine, host_arch, hwcap_features, select_machine


def _clean_env(**kw):
    env = {k: v for k, v in os.environ.items() if k not in ("CRYPTO_API_ARCH", "CRYPTO_API_CPU")}
    env.update(kw)
    return env


def test_the_host_is_the_default():
    code = ("from crypto_api.machine import current_machine as c; m = c(); "
            "print(m.arch, m.cpu, m.emulated)")
    r = subprocess.run([sys.executable, "-c", code], env=_clean_env(), capture_output=True, text=True)
    assert r.stdout.split() == [host_arch(), "host", "False"], r.stderr


def test_a_booted_machine_cannot_change():
    m = current_machine()
    assert select_machine(m.arch) is m
    other = "arm64" if m.arch != "arm64" else "x86_64"
    with pytest.raises(capi.CryptoError) as e:
        select_machine(other)
    assert e.value.errno in (errno.EBUSY, errno.EINVAL)


@pytest.mark.parametrize("args, words", [
    (["--arch", "sparc", "list"], "unknown architecture 'sparc'"),
    (["list", "--cpu", "cortex-a53"], "is for emulated machines"),
])
def test_bad_machine_options_are_one_line_errors(args, words):
    r = subprocess.run([sys.executable, "-m", "crypto_api", *args], env=_clean_env(),
                       capture_output=True, text=True)
    assert r.returncode == 1 and words in r.stderr and "Traceback" not in r.stderr


def test_hwcap_words_decode_to_kernel_feature_names():
    # cortex-a53,neon=off,vfp=off reports 0x883 under qemu 7.2
    assert hwcap_features("arm64", 0x883) == ("fp", "asimd", "crc32", "cpuid")
    assert "aes" in hwcap_features("arm64", 1 << 3)


def test_arch_modules_of_other_machines_do_not_load():
    if current_machine().arch != "x86_64":
        pytest.skip("an x86_64 machine's view")
    assert "chacha_neon" not in modules.available_modules()
    assert "chacha_x86_64" in modules.available_modules()
    assert "crypto-chacha20-neon" not in modules.alias_index()
    with pytest.raises(capi.CryptoError) as e:
        modules.insmod("crypto_api.arch.arm64.chacha_neon_glue")
    assert e.value.errno == errno.ENOEXEC and "built for arm64" in str(e.value)
    assert not capi.crypto_has_alg("chacha20-neon")

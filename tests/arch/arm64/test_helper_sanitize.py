"""The emulated machines' helpers under UBSan (CRYPTO_API_HELPER_SANITIZE=undefined,
as make test-asan sets it): trap mode, since a static executable cannot link
the sanitizer runtime; the flags are part of the helper's cache key and of
its source key, so a sanitized helper and a plain one never stand in for
each other; and undefined behaviour in code built so stops it under qemu."""

import shutil
import subprocess

import pytest

from crypto_api import CryptoError
from crypto_api.errors import EINVAL
from crypto_api.machine import helper_build as hb
from crypto_api.machine.core import arch_cores, arch_dir

#: a left shift by 40 of an int: undefined, and only a run-time value shows it
UB_MAIN = "int shift(int a, int b) { return a << b; }\nint main(int argc, char **argv) " \
          "{ (void)argv; return shift(argc, 39 + argc) == 12345; }\n"


def test_unset_means_no_flags_and_a_bad_value_is_refused(monkeypatch):
    monkeypatch.delenv(hb.SANITIZE_VAR, raising=False)
    assert hb.sanitize_flags() == ()
    monkeypatch.setenv(hb.SANITIZE_VAR, "undefined")
    assert hb.sanitize_flags() == ("-fsanitize=undefined", "-fsanitize-undefined-trap-on-error")
    monkeypatch.setenv(hb.SANITIZE_VAR, "address")
    with pytest.raises(CryptoError) as e:
        hb.sanitize_flags()
    assert e.value.errno == EINVAL and hb.SANITIZE_VAR in str(e.value) and "undefined" in str(e.value)


@pytest.mark.parametrize("arch", ["arm64", "arm", "ppc64le"])
def test_the_flags_change_both_keys(arch, monkeypatch):
    cores = arch_cores(arch)
    disp = hb.dispatcher_source(hb.functions_of(cores))
    keys = []
    for value in ("", "undefined"):
        monkeypatch.setenv(hb.SANITIZE_VAR, value)
        keys.append((hb._digest(arch, cores, disp, arch_dir(arch)),
                     hb.source_key(arch, cores, disp, arch_dir(arch))))
    assert keys[0][0] != keys[1][0] and keys[0][1] != keys[1][1]


@pytest.mark.parametrize("arch", ["arm64", "arm", "ppc64le"])
def test_undefined_behaviour_stops_a_sanitized_static_program_under_qemu(arch, tmp_path, monkeypatch):
    tc = hb.toolchain_of(arch)
    if shutil.which(tc.cc) is None or shutil.which(tc.qemu) is None:
        pytest.skip(f"{tc.cc} or {tc.qemu} is missing")
    monkeypatch.setenv(hb.SANITIZE_VAR, "undefined")
    src = tmp_path / "ub.c"
    src.write_text(UB_MAIN)
    status = {}
    for name, extra in (("plain", []), ("sanitized", list(hb.sanitize_flags()))):
        obj, exe = tmp_path / f"{name}.o", tmp_path / name
        subprocess.run([tc.cc, *tc.cflags, *extra, "-c", str(src), "-o", str(obj)], check=True)
        subprocess.run([tc.cc, "-static", "-o", str(exe), str(obj)], check=True)     # as the helper links
        status[name] = subprocess.run([tc.qemu, str(exe)], capture_output=True).returncode
    assert status["plain"] in (0, 1)                    # it runs to the end, whatever the shift gave
    assert status["sanitized"] not in (0, 1)            # the trap: killed by a signal

"""The qemu-user backend: calls through shared memory, HWCAP per CPU model,
SIGILL handling and restart, threads, missing tools."""

import errno
import threading

import pytest

import crypto_api as capi
from crypto_api.machine import backend
from crypto_api.machine.qemu import helper
from arm64_emulation import REQUIRE_VAR, require_emulation

NO_CE = "cortex-a53,neon=off,vfp=off"      # HWCAP 0x883: no crypto extensions (qemu 7.2)

emulation = pytest.mark.emulation


@emulation
def test_buffers_travel_in_and_out():
    lib = backend.load("arm64", "backend_probe", cpu="max")
    lib.probe_nop()
    data = bytes(range(256)) * 3
    assert lib.probe_sum(data, len(data)) == sum(data)
    assert lib.probe_sum(None, 0) == 0                      # NULL pointer
    buf = bytearray(b"\x00\x10\xff" * 100)
    before = bytes(buf)
    lib.probe_touch(buf, 200)                                # non-const: copied back
    assert buf[:200] == bytes((b + 1) & 0xFF for b in before[:200]) and buf[200:] == before[200:]
    view = memoryview(buf)[10:20]
    lib.probe_touch(view, 10)                                # a slice of a bigger buffer
    assert buf[10:20] == bytes((b + 2) & 0xFF for b in before[10:20])
    with pytest.raises(BufferError):
        lib.probe_touch(b"read-only", 9)


@emulation
def test_features_are_the_emulated_cpus():
    words = {cpu: helper("arm64", cpu) for cpu in ("max", "cortex-a53", NO_CE)}
    feats = {cpu: set(backend.hwcap_features("arm64", h.hwcap, h.hwcap2)) for cpu, h in words.items()}
    assert {"asimd", "aes", "pmull", "sha2", "sha3", "sha512", "sve"} <= feats["max"]
    assert {"asimd", "aes", "pmull", "sha1", "sha2"} <= feats["cortex-a53"]
    assert not {"sha3", "sve"} & feats["cortex-a53"]
    assert feats[NO_CE] == {"fp", "asimd", "crc32", "cpuid"}


@emulation
def test_a_core_needing_a_missing_feature_is_refused_at_load():
    with pytest.raises(capi.CryptoError) as e:
        backend.load("arm64", "aes_ce_probe", cpu=NO_CE)
    assert e.value.errno == errno.ENODEV
    assert "'aes'" in str(e.value) and NO_CE in str(e.value)
    assert backend.load("arm64", "aes_ce_probe", cpu="cortex-a53")


@emulation
def test_sigill_fails_the_call_names_the_instruction_set_and_restarts():
    lib = backend.load("arm64", "aes_ce_probe", cpu=NO_CE, check_feature=False)
    probe = backend.load("arm64", "backend_probe", cpu=NO_CE)
    h = helper("arm64", NO_CE)
    probe.probe_nop()
    pid, starts = h.pid, h.starts
    block = bytearray(16)
    with pytest.raises(capi.CryptoError) as e:
        lib.probe_aese(block, bytes(16))
    msg = str(e.value)
    assert e.value.errno == errno.ENODEV
    assert "aes_ce_probe" in msg and "armv8-a+crypto" in msg and "illegal instruction" in msg
    assert block == bytes(16)                      # nothing copied back from a dead helper
    assert h.pid is None                           # reaped
    probe.probe_nop()                              # the next call restarts it
    assert h.starts == starts + 1 and h.pid != pid
    # the same instruction on a CPU with the extensions: AESE on zero state and key
    # is SubBytes(0) = 0x63 everywhere, and MixColumns of equal bytes keeps them
    good = backend.load("arm64", "aes_ce_probe", cpu="cortex-a53")
    block = bytearray(16)
    good.probe_aese(block, bytes(16))
    assert block == b"\x63" * 16


@emulation
def test_threads_share_one_helper():
    lib = backend.load("arm64", "backend_probe", cpu="max")
    errors = []

    def worker(seed):
        try:
            for i in range(50):
                buf = bytearray(((seed + i + j) & 0xFF for j in range(97 + seed)))
                want = bytes((b + 1) & 0xFF for b in buf)
                lib.probe_touch(buf, len(buf))
                assert buf == want
                assert lib.probe_sum(bytes(buf), len(buf)) == sum(want)
        except BaseException as e:      # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_missing_tools_name_their_packages(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(capi.CryptoError) as e:
        backend.load("arm64", "backend_probe", cpu="some-model-never-started")
    assert e.value.errno == errno.ENODEV
    msg = str(e.value)
    assert "qemu-aarch64 (Debian package qemu-user)" in msg
    assert "aarch64-linux-gnu-gcc (Debian packages gcc-aarch64-linux-gnu libc6-dev-arm64-cross)" in msg


def test_without_tools_emulated_tests_skip_or_fail_as_required(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv(REQUIRE_VAR, raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"missing .*qemu-aarch64 \(Debian package qemu-user\)"):
        require_emulation()
    monkeypatch.setenv(REQUIRE_VAR, "1")
    with pytest.raises(pytest.fail.Exception, match="CRYPTO_API_REQUIRE_EMULATION=1"):
        require_emulation()


_FORK = r"""
import os
from crypto_api.machine import backend
from crypto_api.machine.qemu import helper
lib = backend.load("arm64", "backend_probe", cpu="max")
parent_pid = helper("arm64", "max").pid
pid = os.fork()
if pid == 0:
    buf = bytearray(100)
    lib.probe_touch(buf, 100)
    os._exit(0 if buf == b"\x01" * 100 and helper("arm64", "max").pid != parent_pid else 1)
buf = bytearray(50)
lib.probe_touch(buf, 50)
_, status = os.waitpid(pid, 0)
assert os.waitstatus_to_exitcode(status) == 0
assert buf == b"\x01" * 50 and helper("arm64", "max").pid == parent_pid
print("ok")
"""


@emulation
def test_a_forked_child_gets_its_own_helper():
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-c", _FORK], capture_output=True, text=True)
    assert r.stdout.strip() == "ok", r.stderr


@emulation
def test_the_helper_dumps_no_core_and_is_pinned_to_one_cpu():
    import os
    h = helper("arm64", "max")
    h.ensure_started()
    with open(f"/proc/{h.pid}/limits") as f:
        core = next(line for line in f if line.startswith("Max core file size"))
    assert core.split()[4:6] == ["0", "0"]
    assert len(os.sched_getaffinity(h.pid)) == 1


def test_the_native_backend_takes_the_same_arguments(tmp_path, monkeypatch):
    """The cffi path of an arm64 host, exercised here with the portable probe core
    (plain C, so the host compiler builds it): same calling convention as the proxy."""
    monkeypatch.setenv("CRYPTO_API_CACHE", str(tmp_path))
    lib = backend._load_native("arm64", backend.arch_cores("arm64")["backend_probe"])
    lib.probe_nop()
    data = bytes(range(200))
    assert lib.probe_sum(data, len(data)) == sum(data)
    assert lib.probe_sum(None, 0) == 0
    buf = bytearray(b"\x05" * 40)
    lib.probe_touch(memoryview(buf)[8:16], 8)
    assert buf == b"\x05" * 8 + b"\x06" * 8 + b"\x05" * 24
    with pytest.raises(BufferError):
        lib.probe_touch(b"read-only", 9)

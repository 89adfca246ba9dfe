"""The portable C code wipes what it leaves on the stack (the kernel's
memzero_explicit() after a keystream block, a decrypted block, a tweak or a
message schedule).

A wipe written as ``memset`` of a local that is not read again is a dead
store, and the compiler drops it: modes_ctr left its last keystream block
and sha256_blocks_generic its whole message schedule behind that way.  A C
harness (data/generic_residue.c, built with the extensions' own flags) runs
each routine on known input, then scans the stack its frames used for
16-byte pieces of what must not be left there; a positive control shows the
scan finds keystream a function leaves behind.
"""
from __future__ import annotations

import importlib
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CC = shutil.which("gcc")


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    if CC is None:
        pytest.skip("gcc is not installed")
    sys.path.insert(0, str(ROOT / "algs"))
    try:
        common = importlib.import_module("build_common")
    finally:
        sys.path.remove(str(ROOT / "algs"))
    exe = tmp_path_factory.mktemp("wipes") / "generic_residue"
    cmd = [CC, *common.CFLAGS, "-I" + str(ROOT / "algs"), "-I" + str(ROOT / "algs" / "include"),
           str(ROOT / "tests/algs/data/generic_residue.c"),
           *[str(ROOT / "algs" / f) for f in ("aes_generic.c", "modes_core.c", "sha256_generic.c")],
           "-o", str(exe)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return exe


def _residue(exe, what: str, length: int) -> int:
    r = subprocess.run([str(exe), what, str(length)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return int(r.stdout)


@pytest.mark.parametrize("length", [16, 48, 256, 4096])
@pytest.mark.parametrize("what", ["ctr", "cbc"])
def test_no_keystream_or_decrypted_block_is_left_on_the_stack(harness, what, length):
    assert _residue(harness, what, length) == 0


@pytest.mark.parametrize("length", [16, 48, 112, 4016])
def test_sha256_leaves_no_message_on_the_stack(harness, length):
    """Lengths that end inside a block, so the last block the schedule holds is message."""
    assert _residue(harness, "sha256", length) == 0


@pytest.mark.parametrize("length", [17, 40, 100, 4095])
def test_xts_with_stealing_leaves_no_tweak_on_the_stack(harness, length):
    assert _residue(harness, "xts", length) == 0


def test_the_scan_finds_keystream_left_behind(harness):
    """Positive control: keystream copied to an unwiped stack buffer is found."""
    assert _residue(harness, "leak", 512) >= 16

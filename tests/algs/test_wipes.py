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

import pytest

from c_build import build_harness, run_residue

SOURCES = ["tests/algs/data/generic_residue.c", "algs/aes_generic.c", "algs/modes_core.c",
           "algs/sha256_generic.c", "algs/sha1_generic.c", "algs/sha512_generic.c"]


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    return build_harness(tmp_path_factory.mktemp("wipes") / "generic_residue", SOURCES,
                         ["algs", "algs/include", "tests/include"])


@pytest.mark.parametrize("length", [16, 48, 256, 4096])
@pytest.mark.parametrize("what", ["ctr", "xctr", "cbc"])
def test_no_keystream_or_decrypted_block_is_left_on_the_stack(harness, what, length):
    assert run_residue(harness, what, length) == 0


@pytest.mark.parametrize("length", [16, 48, 112, 4016])
def test_sha256_leaves_no_message_on_the_stack(harness, length):
    """Lengths that end inside a block, so the last block the schedule holds is message."""
    assert run_residue(harness, "sha256", length) == 0


@pytest.mark.parametrize("length", [16, 48, 112, 200, 4016])
@pytest.mark.parametrize("what", ["sha1", "sha512"])
def test_sha1_and_sha512_leave_no_message_on_the_stack(harness, what, length):
    """The schedule and the buffer (algs/include/md_buffer.h) are wiped; lengths
    end inside a block."""
    assert run_residue(harness, what, length) == 0


@pytest.mark.parametrize("length", [17, 40, 100, 4095])
def test_xts_with_stealing_leaves_no_tweak_on_the_stack(harness, length):
    assert run_residue(harness, "xts", length) == 0


def test_the_scan_finds_keystream_left_behind(harness):
    """Positive control: keystream copied to an unwiped stack buffer is found."""
    assert run_residue(harness, "leak", 512) >= 16

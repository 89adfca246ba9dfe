"""Fixtures of the tool tests."""

import os
import subprocess

import pytest


@pytest.fixture
def small_fs(tmp_path):
    """A 1 MiB tmpfs (as root) and a function that resizes it."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1M", "tmpfs", str(mnt)],
                       capture_output=True, text=True)
    if r.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.strip()}")

    def resize(size):
        subprocess.run(["mount", "-o", f"remount,size={size}", str(mnt)], check=True)

    yield mnt, resize
    subprocess.run(["umount", str(mnt)], check=True)

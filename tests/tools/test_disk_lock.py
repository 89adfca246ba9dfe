"""``crypto-api disk`` holds an exclusive lock on the image (tools/disk_lock.py).

Two runs on the same image at once: the second refuses at once (EBUSY,
naming the image and the lock) and the image is encrypted exactly once.
"""

import fcntl
import os
import subprocess
import sys
import time

from crypto_api.__main__ import main
from dmcrypt_ref import journal_done, reference_image

ADIANTUM = "xchacha12,aes-adiantum-plain64"
ENV = dict(os.environ, CRYPTO_API_SELFTESTS="off")


def command(path, key_path, *extra):
    return [sys.executable, "-m", "crypto_api", "disk", "encrypt", str(path), "--cipher", ADIANTUM,
            "--key-file", str(key_path), *extra]


def test_two_processes_at_once_the_second_refuses_and_the_image_is_encrypted_once(tmp_path):
    key = os.urandom(32)
    (tmp_path / "key").write_bytes(key)
    orig = os.urandom(48 << 20)
    path = tmp_path / "img"
    path.write_bytes(orig)
    jpath = str(path) + ".crypto-api-journal"
    first = subprocess.Popen(command(path, tmp_path / "key", "--batch-size", "4K"), env=ENV,
                             stderr=subprocess.PIPE)
    try:
        while first.poll() is None and not os.path.exists(jpath):
            time.sleep(0.001)
        second = subprocess.run(command(path, tmp_path / "key"), env=ENV, stderr=subprocess.PIPE)
        first_was_running = first.poll() is None
        _, err1 = first.communicate(timeout=600)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert first_was_running, "the first run ended before the second started; make the image bigger"
    err = second.stderr.decode()
    assert second.returncode == 1 and err.count("\n") == 1, err
    assert "EBUSY" in err and str(path) in err and "locked (flock LOCK_EX)" in err, err
    assert first.returncode == 0, err1.decode()
    assert path.read_bytes() == reference_image(orig, key)          # once, not twice
    assert journal_done(path)


def test_a_held_lock_refuses_at_once_and_changes_nothing(tmp_path, capsys):
    key = os.urandom(32)
    (tmp_path / "key").write_bytes(key)
    orig = os.urandom(64 << 10)
    path = tmp_path / "img"
    path.write_bytes(orig)
    argv = ["disk", "encrypt", str(path), "--cipher", ADIANTUM, "--key-file", str(tmp_path / "key")]
    with open(path, "rb") as holder:
        fcntl.flock(holder.fileno(), fcntl.LOCK_EX)
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert "EBUSY" in err and f"{path}: the image is locked" in err, err
        assert main(argv + ["--output", str(tmp_path / "out")]) == 1      # reading it elsewhere too
        assert "EBUSY" in capsys.readouterr().err
    assert path.read_bytes() == orig
    assert sorted(os.listdir(tmp_path)) == ["img", "key"]               # no journal, no output
    assert main(argv) == 0
    assert path.read_bytes() == reference_image(orig, key)


def test_a_held_journal_lock_refuses(tmp_path, capsys):
    """The journal is locked too (another image path to the same journal, e.g. --journal)."""
    key = os.urandom(32)
    (tmp_path / "key").write_bytes(key)
    orig = os.urandom(64 << 10)
    for name in ("a", "b"):
        (tmp_path / name).write_bytes(orig)
    journal = tmp_path / "shared.journal"
    argv = ["disk", "encrypt", str(tmp_path / "a"), "--cipher", ADIANTUM, "--key-file",
            str(tmp_path / "key"), "--journal", str(journal)]
    assert main(argv) == 0                                # leaves the finished job's journal
    with open(journal, "rb") as holder:
        fcntl.flock(holder.fileno(), fcntl.LOCK_EX)
        argv[2] = str(tmp_path / "b")
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert "EBUSY" in err and f"{journal}: the journal is locked" in err, err
    assert (tmp_path / "b").read_bytes() == orig

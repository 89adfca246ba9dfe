"""``crypto-api disk`` on a filesystem that fills up (a small tmpfs, as root).

The image is sparse, so encrypting it in place needs new blocks and the
filesystem runs out in the middle of the run; or there is no room for the
journal at all.  Either way the run stops with ENOSPC, one line, and once
space is freed the same command finishes: the result equals the one-shot
reference.
"""

import os

from crypto_api.__main__ import main
from dmcrypt_ref import journal_done, reference_image

ADIANTUM = "xchacha12,aes-adiantum-plain64"


def test_the_disk_fills_up_mid_run_and_the_same_command_finishes(small_fs, tmp_path, capsys):
    mnt, resize = small_fs
    key = os.urandom(32)
    (tmp_path / "key").write_bytes(key)
    path = mnt / "img"
    with open(path, "wb") as f:
        f.truncate(1536 << 10)                   # sparse: 1.5 MiB of zeros on a 1 MiB filesystem
    argv = ["disk", "encrypt", str(path), "--cipher", ADIANTUM, "--key-file", str(tmp_path / "key"),
            "--batch-size", "64K"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ENOSPC" in err and "run the same command again" in err, err
    assert os.path.exists(str(path) + ".crypto-api-journal")
    resize("4M")                                 # space is freed
    assert main(argv) == 0, capsys.readouterr().err
    assert path.read_bytes() == reference_image(bytes(1536 << 10), key)
    assert journal_done(path)


def test_no_room_for_the_journal_changes_nothing(small_fs, tmp_path, capsys):
    mnt, resize = small_fs
    key = os.urandom(32)
    (tmp_path / "key").write_bytes(key)
    orig = os.urandom(512 << 10)
    path = mnt / "img"
    path.write_bytes(orig)
    filler = mnt / "filler"
    with open(filler, "wb") as f:                # fill the filesystem up
        try:
            while True:
                f.write(bytes(64 << 10))
                f.flush()
        except OSError:
            pass
    argv = ["disk", "encrypt", str(path), "--cipher", ADIANTUM, "--key-file", str(tmp_path / "key"),
            "--batch-size", "64K"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ENOSPC" in err and "journal" in err and "unchanged" in err, err
    assert path.read_bytes() == orig
    assert sorted(os.listdir(mnt)) == ["filler", "img"]
    filler.unlink()
    assert main(argv) == 0
    assert path.read_bytes() == reference_image(orig, key)

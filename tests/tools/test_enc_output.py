"""Where ``enc``/``dec`` write (tools/output_target.py): nothing is destroyed.

Devices, FIFOs and symlinks to them are written in place and survive; a
symlink to a file is followed and stays a link; a hard-linked file, a file
of another owner and a file with extended attributes are written in place; a
replaced file keeps its owner, group and mode; a file the user may not write
is refused, naming it (checked as user ``nobody`` in a forked child, since
the suite runs as root).  The old code replaced all of these with a new
regular file.
"""

import errno
import fcntl
import os
import shutil
import stat
import subprocess
import sys
import tempfile

import pytest

import crypto_api as capi
from crypto_api.__main__ import main
from crypto_api.tools import output_target
from crypto_api.tools.output_target import open_output

NOBODY = 65534
IV = bytes(range(32))
pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="devices, chown and setuid need root")


@pytest.fixture
def d():
    """A directory every user may use (pytest's tmp_path is private to root)."""
    path = tempfile.mkdtemp(prefix="enc-output-")
    os.chmod(path, 0o777)
    key, data = os.urandom(32), os.urandom(200_000)
    for name, content in (("key", key), ("in", data)):
        with open(os.path.join(path, name), "wb") as f:
            f.write(content)
        os.chmod(os.path.join(path, name), 0o644)
    with capi.crypto_alloc_skcipher("xchacha12") as tfm:
        tfm.setkey(key)
        expected = tfm.encrypt(data, IV)
    yield path, expected
    shutil.rmtree(path)


def enc_args(path, out):
    return ["enc", "-c", "xchacha12", "--keyfile", os.path.join(path, "key"), "--iv", IV.hex(),
            "-i", os.path.join(path, "in"), "-o", out]


def run(path, out, capsys):
    rc = main(enc_args(path, out))
    return rc, capsys.readouterr().err


def run_as_nobody(path, out):
    """``enc`` in a forked child running as nobody: (exit status, stderr)."""
    errfile = os.path.join(path, "stderr")
    pid = os.fork()
    if pid == 0:                                   # pragma: no cover - the child
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            sys.stderr = open(errfile, "w")
            rc = main(enc_args(path, out))
            sys.stderr.flush()
        except BaseException:
            rc = 99
        os._exit(rc)
    _, status = os.waitpid(pid, 0)
    with open(errfile) as f:
        err = f.read()
    os.unlink(errfile)
    return os.waitstatus_to_exitcode(status), err


def names(path):
    return sorted(os.listdir(path))


def test_a_character_device_and_a_symlink_to_it_survive(d, capsys):
    path, _ = d
    null = os.path.join(path, "null")
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))      # what /dev/null is
    os.symlink("null", os.path.join(path, "to-null"))
    for out in (null, os.path.join(path, "to-null")):
        rc, err = run(path, out, capsys)
        assert rc == 0, err
        st = os.stat(null)
        assert stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 3)
    assert os.path.islink(os.path.join(path, "to-null"))
    assert names(path) == ["in", "key", "null", "to-null"]


def test_a_fifo_is_written_in_place(d, capsys):
    """The test holds the FIFO open (read and write, so opening it never
    blocks) with room for the whole output, and reads it back afterwards."""
    path, expected = d
    fifo = os.path.join(path, "fifo")
    os.mkfifo(fifo)
    fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
    try:
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 1 << 20)
        rc, err = run(path, fifo, capsys)
        assert rc == 0, err
        got = b""
        while len(got) < len(expected):
            try:
                piece = os.read(fd, len(expected) - len(got))
            except BlockingIOError:
                break
            got += piece
    finally:
        os.close(fd)
    assert got == expected
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_symlink_to_a_file_is_followed_and_stays_a_link(d, capsys):
    path, expected = d
    target, link = os.path.join(path, "target"), os.path.join(path, "link")
    with open(target, "wb") as f:
        f.write(b"old")
    os.symlink("target", link)
    rc, err = run(path, link, capsys)
    assert rc == 0, err
    assert os.path.islink(link) and os.readlink(link) == "target"
    with open(target, "rb") as f:
        assert f.read() == expected


def test_a_hard_linked_file_is_written_in_place(d, capsys):
    path, expected = d
    a, b = os.path.join(path, "a"), os.path.join(path, "b")
    with open(a, "wb") as f:
        f.write(b"old content, longer than nothing")
    os.link(a, b)
    ino = os.stat(a).st_ino
    rc, err = run(path, a, capsys)
    assert rc == 0, err
    for name in (a, b):
        st = os.stat(name)
        assert (st.st_ino, st.st_nlink) == (ino, 2)
        with open(name, "rb") as f:
            assert f.read() == expected


def test_a_replaced_file_keeps_owner_group_and_mode(d, capsys):
    path, expected = d
    out = os.path.join(path, "out")
    with open(out, "wb") as f:
        f.write(b"old")
    os.chown(out, NOBODY, NOBODY)
    os.chmod(out, 0o640)
    ino = os.stat(out).st_ino
    rc, err = run(path, out, capsys)
    assert rc == 0, err
    st = os.stat(out)
    assert st.st_ino != ino                          # replaced, atomically
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (NOBODY, NOBODY, 0o640)
    with open(out, "rb") as f:
        assert f.read() == expected
    assert names(path) == ["in", "key", "out"]


def test_a_file_with_extended_attributes_is_written_in_place(d, capsys):
    path, expected = d
    out = os.path.join(path, "out")
    with open(out, "wb") as f:
        f.write(b"old")
    try:
        os.setxattr(out, "user.note", b"keep me")
    except OSError as e:
        pytest.skip(f"no user xattrs here: {e}")
    ino = os.stat(out).st_ino
    rc, err = run(path, out, capsys)
    assert rc == 0, err
    assert os.stat(out).st_ino == ino and os.getxattr(out, "user.note") == b"keep me"
    with open(out, "rb") as f:
        assert f.read() == expected


def test_a_read_only_file_is_refused_for_a_user_who_may_not_write_it(d):
    path, _ = d
    out = os.path.join(path, "ro")
    with open(out, "wb") as f:
        f.write(b"precious")
    os.chmod(out, 0o444)
    rc, err = run_as_nobody(path, out)
    assert rc == 1, err
    assert err.count("\n") == 1 and "EACCES" in err and out in err, err
    with open(out, "rb") as f:
        assert f.read() == b"precious"
    assert os.stat(out).st_uid == 0 and names(path) == ["in", "key", "ro"]


def test_root_may_overwrite_a_read_only_file_and_it_stays_read_only(d, capsys):
    path, expected = d
    out = os.path.join(path, "ro")
    with open(out, "wb") as f:
        f.write(b"old")
    os.chmod(out, 0o444)
    rc, err = run(path, out, capsys)
    assert rc == 0, err
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o444
    with open(out, "rb") as f:
        assert f.read() == expected


def test_a_writable_file_of_another_owner_is_written_in_place_keeping_its_owner(d):
    path, expected = d
    out = os.path.join(path, "shared")
    with open(out, "wb") as f:
        f.write(b"old")
    os.chmod(out, 0o666)
    ino = os.stat(out).st_ino
    rc, err = run_as_nobody(path, out)
    assert rc == 0, err
    st = os.stat(out)
    assert (st.st_ino, st.st_uid) == (ino, 0)
    with open(out, "rb") as f:
        assert f.read() == expected


def test_a_new_file_of_a_user_is_theirs(d):
    path, expected = d
    rc, err = run_as_nobody(path, os.path.join(path, "new"))
    assert rc == 0, err
    assert os.stat(os.path.join(path, "new")).st_uid == NOBODY


def test_a_directory_is_refused_naming_it(d, capsys):
    path, _ = d
    rc, err = run(path, path, capsys)
    assert rc == 1 and "EISDIR" in err and path in err


def test_input_and_output_the_same_file(d, capsys):
    """Replaced through a temporary file: fine.  Hard-linked, so it would be
    written in place while being read: refused, the input intact."""
    path, expected = d
    inp = os.path.join(path, "in")
    with open(inp, "rb") as f:
        data = f.read()
    rc, err = run(path, inp, capsys)
    assert rc == 0, err
    with open(inp, "rb") as f:
        assert f.read() == expected
    os.link(inp, os.path.join(path, "in2"))
    rc, err = run(path, inp, capsys)
    assert rc == 1 and "is also the input" in err and inp in err, err
    with open(inp, "rb") as f:
        assert f.read() == expected                  # untouched by the refused run
    assert data != expected


def test_named_temporary_file_where_there_is_no_o_tmpfile(d, monkeypatch):
    """Without O_TMPFILE the hidden ``.<name>.crypto-api-*`` file is used, and
    removed when the write fails; committed, it becomes the target."""
    path, _ = d
    monkeypatch.setattr(output_target, "_LINKAT", None)
    out = os.path.join(path, "out")
    with open(out, "wb") as f:
        f.write(b"old")
    with pytest.raises(OSError):
        with open_output(out) as target:
            target.write(b"partial")
            hidden = [n for n in names(path) if n.startswith(".out.crypto-api-")]
            assert len(hidden) == 1 and stat.S_IMODE(os.stat(os.path.join(path, hidden[0])).st_mode) == 0o600
            raise OSError(errno.ENOSPC, "disk full")
    assert names(path) == ["in", "key", "out"]
    with open_output(out) as target:
        target.write(b"new")
        target.commit()
    assert names(path) == ["in", "key", "out"]
    with open(out, "rb") as f:
        assert f.read() == b"new"


@pytest.fixture
def loop_device(d):
    path, _ = d
    image = os.path.join(path, "image")
    with open(image, "wb") as f:
        f.write(os.urandom(1 << 20))
    p = subprocess.run(["losetup", "-f", "--show", image], capture_output=True, text=True)
    if p.returncode:
        pytest.skip(f"no loop device: {p.stderr.strip()}")
    node = os.path.join(path, "blk")          # a private node: /dev is never at risk
    os.mknod(node, stat.S_IFBLK | 0o600, os.stat(p.stdout.strip()).st_rdev)
    yield node, image
    subprocess.run(["losetup", "-d", p.stdout.strip()], check=True)


def test_a_block_device_is_written_in_place_and_not_onto_itself(d, loop_device, capsys):
    """Output to a block device: written in place, still a device.  The same
    device as input and output: refused (a kill would leave it half processed)."""
    path, expected = d
    dev, image = loop_device
    rc, err = run(path, dev, capsys)
    assert rc == 0, err
    assert stat.S_ISBLK(os.stat(dev).st_mode)
    with open(dev, "rb") as f:
        assert f.read(len(expected)) == expected
    rc = main(["enc", "-c", "xchacha12", "--keyfile", os.path.join(path, "key"), "--iv", IV.hex(),
               "-i", dev, "-o", dev])
    err = capsys.readouterr().err
    assert rc == 1 and "is also the input" in err and dev in err, err
    with open(dev, "rb") as f:
        assert f.read(len(expected)) == expected

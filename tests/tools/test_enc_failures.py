"""``enc``/``dec`` when things go wrong: one line, non-zero exit, nothing hidden left.

A full device (a private copy of /dev/full, and a 1 MiB tmpfs), a reader that
closes the pipe, a closed stdin, and SIGKILL at several points of a write
through the temporary file: the target is either untouched or complete, and
no file is left beside it (the temporary file is anonymous, O_TMPFILE).
The kill points are found by watching the child's own write count
(/proc/PID/io), never by timing.
"""

import array
import fcntl
import os
import signal
import stat
import subprocess
import sys
import termios
import time

import pytest

import crypto_api as capi

ENV = dict(os.environ, CRYPTO_API_SELFTESTS="off")
IV = bytes(range(32))
MIB = 1 << 20


def iv_for(cipher):
    """IV's first 16 bytes for the AES modes, all 32 for the others."""
    return IV[:16] if cipher.startswith(("xts(", "cbc(")) else IV


def command(verb, cipher, path, *extra):
    return [sys.executable, "-m", "crypto_api", verb, "-c", cipher, "--key-file", str(path / "key"),
            "--iv", iv_for(cipher).hex(), *extra]


def assert_one_line_error(rc, err: bytes, *words):
    text = err.decode()
    assert rc not in (0, None), text
    assert "Traceback" not in text and text.count("\n") == 1, text
    for w in words:
        assert w in text, text


@pytest.fixture
def d(tmp_path):
    (tmp_path / "key").write_bytes(os.urandom(32))
    return tmp_path


def crypt(path, cipher, encrypt, data):
    with capi.crypto_alloc_skcipher(cipher) as tfm:
        tfm.setkey((path / "key").read_bytes())
        iv = iv_for(cipher)
        return tfm.encrypt(data, iv) if encrypt else tfm.decrypt(data, iv)


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod needs root")
def test_a_full_device_is_one_line_and_survives(d):
    full = d / "full"
    os.mknod(full, stat.S_IFCHR | 0o666, os.makedev(1, 7))       # what /dev/full is
    (d / "in").write_bytes(os.urandom(100_000))
    p = subprocess.run(command("enc", "xchacha12", d, "-i", str(d / "in"), "-o", str(full)),
                       env=ENV, capture_output=True, timeout=120)
    assert_one_line_error(p.returncode, p.stderr, "ENOSPC", str(full))
    assert stat.S_ISCHR(os.stat(full).st_mode) and os.stat(full).st_rdev == os.makedev(1, 7)


@pytest.fixture
def small_fs(tmp_path):
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt)], capture_output=True)
    if p.returncode:
        pytest.skip(f"cannot mount a tmpfs: {p.stderr.decode().strip()}")
    yield mnt
    subprocess.run(["umount", str(mnt)], check=True)


@pytest.mark.parametrize("cipher", ["xchacha12", "adiantum(xchacha12,aes)"])
def test_a_full_filesystem_leaves_the_old_file_and_nothing_else(d, small_fs, cipher):
    (d / "in").write_bytes(os.urandom(2 * MIB))
    out = small_fs / "out"
    out.write_bytes(b"old content")
    p = subprocess.run(command("enc", cipher, d, "-i", str(d / "in"), "-o", str(out)),
                       env=ENV, capture_output=True, timeout=120)
    assert_one_line_error(p.returncode, p.stderr, "ENOSPC", str(out))
    assert out.read_bytes() == b"old content"
    assert os.listdir(small_fs) == ["out"]
    st = os.statvfs(small_fs)
    assert st.f_bfree * st.f_bsize > 900 * 1024              # the space came back


def test_a_reader_closing_the_pipe_is_a_one_line_error(d):
    (d / "in").write_bytes(os.urandom(8 * MIB))
    p = subprocess.Popen(command("enc", "xchacha12", d, "-i", str(d / "in")), env=ENV,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert len(p.stdout.read(1)) == 1                       # `| head -c1`
    p.stdout.close()
    err = p.stderr.read()
    p.stderr.close()
    assert_one_line_error(p.wait(timeout=120), err, "EPIPE", "standard output")


def test_a_closed_stdin_is_a_one_line_error(d):
    p = subprocess.run(["sh", "-c", 'exec "$0" "$@" <&-', *command("dec", "xchacha12", d)],
                       env=ENV, capture_output=True, timeout=120)
    assert_one_line_error(p.returncode, p.stderr, "EBADF", "standard input is closed")
    assert p.stdout == b""


def written(pid):
    with open(f"/proc/{pid}/io") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("wchar:"))


def waiting_for_more_input(p):
    """The child has read everything fed so far and is blocked reading stdin."""
    unread = array.array("i", [0])
    fcntl.ioctl(p.stdin.fileno(), termios.FIONREAD, unread)
    with open(f"/proc/{p.pid}/syscall") as f:
        call = f.read().split()
    return unread[0] == 0 and call[0] in ("0", "19") and int(call[1], 16) == 0    # read/readv(0, ...)


def wait_written(p, n):
    """Until the child has written ``n`` bytes; with a fed stdin, a child that
    consumed all its input without writing them is not streaming (fail, not hang)."""
    while written(p.pid) < n:
        assert p.poll() is None, p.stderr.read()
        if p.stdin is not None:
            assert not (waiting_for_more_input(p) and written(p.pid) < n), "read its input without writing"
        time.sleep(0.001)


def kill(p):
    p.send_signal(signal.SIGKILL)
    p.wait(timeout=60)
    p.stderr.close()


@pytest.mark.parametrize("cipher", ["xchacha12", "xts(aes)"])
@pytest.mark.parametrize("verb", ["enc", "dec"])
def test_killed_while_writing_a_stream_leaves_the_old_file_and_nothing_else(d, verb, cipher):
    """The input comes through a pipe the test feeds, so the child is stopped
    at known points: after writing 1, 3, 6 chunks of its output (xts holds
    one block back from each chunk: 100 bytes more than the chunks are fed)."""
    data = os.urandom(8 * MIB + 5)
    out = d / "out"
    out.write_bytes(b"old content")
    for chunks in (1, 3, 6):
        p = subprocess.Popen(command(verb, cipher, d, "-o", str(out)), env=ENV,
                             stdin=subprocess.PIPE, stderr=subprocess.PIPE)
        p.stdin.write(data[:chunks * MIB + 100])
        p.stdin.flush()
        wait_written(p, chunks * MIB)                       # its output so far: `chunks` MiB
        kill(p)
        p.stdin.close()
        assert out.read_bytes() == b"old content"
        assert sorted(os.listdir(d)) == ["key", "out"]
    p = subprocess.run(command(verb, cipher, d, "-o", str(out)), env=ENV, input=data,
                       capture_output=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert out.read_bytes() == crypt(d, cipher, verb == "enc", data)


@pytest.mark.parametrize("cipher", ["adiantum(xchacha12,aes)", "xts(aes)", "cbc(aes)"])
@pytest.mark.parametrize("verb", ["enc", "dec"])
def test_killed_file_run_leaves_the_old_file_or_the_whole_new_one(d, verb, cipher):
    """A file through two-pass Adiantum or a streamed block mode, killed once
    it has written 1, 5, 20 MiB (or later, if it ran on): the target is old
    or complete, nothing else."""
    data = os.urandom(32 * MIB)
    (d / "in").write_bytes(data)
    out = d / "out"
    want = crypt(d, cipher, verb == "enc", data)
    for mib in (1, 5, 20):
        out.write_bytes(b"old content")
        p = subprocess.Popen(command(verb, cipher, d, "-i", str(d / "in"),
                                     "-o", str(out)), env=ENV, stderr=subprocess.PIPE)
        try:
            wait_written(p, mib * MIB)
        except (AssertionError, FileNotFoundError, ProcessLookupError):
            pass                                            # it finished first
        kill(p)
        assert out.read_bytes() in (b"old content", want)
        assert sorted(os.listdir(d)) == ["in", "key", "out"]

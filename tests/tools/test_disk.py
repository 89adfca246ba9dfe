"""``crypto-api disk encrypt|decrypt`` (tools/disk.py): dm-crypt compatible sectors.

Every IV convention is checked sector by sector against the library: sector
``i`` of the result must be ``tfm.encrypt(original sector i, iv)`` with the
IV written out here from dm-crypt's documented rules (dm-crypt.rst: IV
sector = i * (sector_size/512) + iv_offset, or i + iv_offset/(sector_size/512)
with iv_large_sectors; plain64 = le64, plain = le32 of it, zero padded).
The interruption tests kill a real subprocess in the middle of a run.
"""

import os
import re
import signal
import subprocess
import sys
import time

import pytest

import crypto_api as capi
from crypto_api.__main__ import main

ENV = dict(os.environ, CRYPTO_API_SELFTESTS="off")


def dm_iv(i, sector_size, iv_offset=0, large=False, mode="plain64", ivsize=32):
    per = sector_size // 512
    number = i + iv_offset // per if large else i * per + iv_offset
    head = (number % (1 << 32)).to_bytes(4, "little") if mode == "plain" else number.to_bytes(8, "little")
    return head + bytes(ivsize - len(head))


def sectors(data, ss):
    return [data[i:i + ss] for i in range(0, len(data), ss)]


@pytest.fixture
def image(tmp_path):
    key = os.urandom(32)
    (tmp_path / "key").write_bytes(key)

    def make(nbytes):
        data = os.urandom(nbytes)
        (tmp_path / "img").write_bytes(data)
        return tmp_path / "img", data

    return tmp_path, key, make


CASES = [
    # spec, sector size, iv-offset, iv-large-sectors, offset (sectors), size (sectors or None)
    ("xchacha12,aes-adiantum-plain64", 512, 0, False, 0, None),
    ("xchacha12,aes-adiantum-plain64", 4096, 0, False, 0, None),
    ("xchacha20,aes-adiantum-plain64", 4096, 16, True, 0, None),
    ("xchacha12,aes-adiantum-plain64", 4096, 24, False, 0, None),
    ("xchacha12,aes-adiantum-plain64", 512, 1000, True, 0, None),
    ("capi:adiantum(xchacha20,aes)-plain", 512, (1 << 32) - 5, False, 0, None),     # plain wraps
    ("capi:adiantum(xchacha12,aes)-plain", 4096, (1 << 32) - 16, True, 0, None),
    ("capi:adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)-plain64", 4096, 8, True, 3, 5),
    ("xchacha12,aes-adiantum-plain64", 512, 0, False, 7, 9),
]


@pytest.mark.parametrize("spec, ss, ivoff, large, first, count", CASES)
def test_sector_by_sector_against_the_library(image, capsys, spec, ss, ivoff, large, first, count):
    d, key, make = image
    nsec = 20
    path, orig = make(nsec * ss)
    args = ["--cipher", spec, "--key-file", str(d / "key"), "--sector-size", str(ss),
            "--iv-offset", str(ivoff)] + (["--iv-large-sectors"] if large else [])
    if count is not None:
        args += ["--offset", str(first * ss), "--size", str(count * ss)]
    assert main(["disk", "encrypt", str(path), *args]) == 0, capsys.readouterr().err
    mode = spec.rsplit("-", 1)[1]
    algorithm = spec[5:].rsplit("-", 1)[0] if spec.startswith("capi:") else \
        "adiantum(" + spec.split("-")[0] + ")"
    done = path.read_bytes()
    last = nsec if count is None else first + count
    with capi.crypto_alloc_skcipher(algorithm) as tfm:
        tfm.setkey(key)
        for i, (new, old) in enumerate(zip(sectors(done, ss), sectors(orig, ss))):
            if first <= i < last:
                assert new == tfm.encrypt(old, dm_iv(i, ss, ivoff, large, mode)), f"sector {i}"
            else:
                assert new == old, f"sector {i} outside the range changed"
    assert main(["disk", "decrypt", str(path), *args]) == 0
    assert path.read_bytes() == orig


def test_iv_large_sectors_documented_example(image, capsys):
    """dm-crypt.rst: 4096-byte sectors, the second sector's plain64 IV is 8
    without iv_large_sectors and 1 with it."""
    d, key, make = image
    path, orig = make(2 * 4096)
    base = ["--cipher", "xchacha12,aes-adiantum-plain64", "--key-file", str(d / "key"),
            "--sector-size", "4096"]
    with capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)") as tfm:
        tfm.setkey(key)
        for flag, number in (([], 8), (["--iv-large-sectors"], 1)):
            path.write_bytes(orig)
            assert main(["disk", "encrypt", str(path), *base, *flag]) == 0
            iv = bytes([number]) + bytes(31)
            assert path.read_bytes()[4096:] == tfm.encrypt(orig[4096:], iv)


def test_output_file_leaves_image_alone(image, capsys):
    d, key, make = image
    path, orig = make(16 * 512)
    out = d / "out.img"
    out.write_bytes(b"old junk that is longer than the image" * 1000)
    args = ["--cipher", "xchacha12,aes-adiantum-plain64", "--key-file", str(d / "key"),
            "--offset", "1024", "--size", "2048"]
    assert main(["disk", "encrypt", str(path), *args, "--output", str(out)]) == 0
    assert path.read_bytes() == orig
    copy = d / "inplace.img"
    copy.write_bytes(orig)
    assert main(["disk", "encrypt", str(copy), *args]) == 0
    assert out.read_bytes() == copy.read_bytes()           # the same image, truncated to its size
    assert main(["disk", "encrypt", str(path), *args, "--output", str(path)]) == 0   # same file: in place
    assert path.read_bytes() == copy.read_bytes()


@pytest.mark.parametrize("extra, words", [
    (["--sector-size", "4096", "--iv-offset", "4"], ["--iv-offset 4", "multiple", "8"]),
    (["--offset", "100"], ["--offset 100", "multiple"]),
    (["--size", "1000"], ["--size 1000", "multiple"]),
    (["--offset", "8192", "--size", "512"], ["runs past the end"]),
    (["--offset", "1M"], ["beyond the end"]),
    (["--size", "0"], ["nothing to do"]),
    (["--iv-offset", str(1 << 64)], ["outside"]),
    (["--cipher", "aes-nosuchmode-plain64"], ["nosuchmode(aes)", "ENOENT"]),
    (["--cipher", "aes-cbc-essiv:sha256"], ["IV mode 'essiv'"]),
    (["--cipher", "capi:nhpoly1305-plain64"], ["nhpoly1305", "no skcipher"]),
    (["--sector-size", "4096", "--iv-offset", "12", "--iv-large-sectors"], ["--iv-offset 12"]),
    (["--key-file", "{short}"], ["key file", "key is 16 bytes"]),
    (["--key-file", "{missing}"], ["No such file"]),
])
def test_refusals_change_nothing(image, capsys, extra, words):
    d, key, make = image
    path, orig = make(16 * 512)
    (d / "short").write_bytes(bytes(16))
    opts = {"--cipher": "xchacha12,aes-adiantum-plain64", "--key-file": str(d / "key")}
    rest = []
    it = iter(extra)
    for a in it:
        if a in opts:
            opts[a] = next(it).format(short=d / "short", missing=d / "missing")
        else:
            rest.append(a)
    args = [x for kv in opts.items() for x in kv] + rest
    rc = main(["disk", "encrypt", str(path), *args, "--output", str(d / "out")])
    err = capsys.readouterr().err
    assert rc == 1 and err.startswith("crypto-api disk: ") and err.count("\n") == 1, err
    for w in words:
        assert w in err, err
    assert path.read_bytes() == orig
    assert not (d / "out").exists()                # refused before the output was opened


def test_image_not_whole_sectors_and_bad_image(image, capsys):
    d, key, make = image
    path, orig = make(4096 + 512)
    base = ["--cipher", "xchacha12,aes-adiantum-plain64", "--key-file", str(d / "key")]
    assert main(["disk", "encrypt", str(path), *base, "--sector-size", "4096"]) == 1
    assert "not a multiple of the 4096-byte sector size" in capsys.readouterr().err
    assert main(["disk", "encrypt", str(path), *base, "--sector-size", "4096", "--size", "4096"]) == 0
    assert main(["disk", "encrypt", str(d), *base]) == 1            # a directory
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["disk", "encrypt", str(d / "nope.img"), *base]) == 1
    assert "No such file" in capsys.readouterr().err


# ----------------------------------------------------------- interrupted runs

BIG = 64 << 20
SS = 4096


def start_run(path, key_path, *extra):
    return subprocess.Popen(
        [sys.executable, "-m", "crypto_api", "disk", "encrypt", str(path), "--cipher",
         "xchacha12,aes-adiantum-plain64", "--key-file", str(key_path), "--sector-size", str(SS), *extra],
        env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_for_first_write(proc, path, orig_first):
    """Poll the image until the first sector changed (the first batch is on disk)."""
    with open(path, "rb") as f:
        while proc.poll() is None:
            if os.pread(f.fileno(), SS, 0) != orig_first:
                return True
            time.sleep(0.0005)
    return False


def check_whole_sectors(path, orig, key):
    """Every sector is the original or its complete encryption; returns how many are new."""
    data = path.read_bytes()
    new = 0
    with capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)") as tfm:
        tfm.setkey(key)
        for i, (now, old) in enumerate(zip(sectors(data, SS), sectors(orig, SS))):
            if now == old:
                continue
            assert tfm.decrypt(now, dm_iv(i, SS)) == old, f"sector {i} is neither old nor new"
            new += 1
    return new


def test_sigkill_mid_run_leaves_only_whole_sectors(image):
    d, key, make = image
    path, orig = make(BIG)
    proc = start_run(path, d / "key")
    try:
        running = wait_for_first_write(proc, path, orig[:SS])
        proc.kill()
    finally:
        proc.wait()
    if not running:
        pytest.skip("the run finished before it could be interrupted")
    new = check_whole_sectors(path, orig, key)
    assert 0 < new < BIG // SS
    # in order: the encrypted sectors are a prefix
    data = path.read_bytes()
    assert data[new * SS:] == orig[new * SS:]


def test_sigint_reports_where_to_resume_and_resuming_finishes(image, capsys):
    d, key, make = image
    path, orig = make(BIG)
    proc = start_run(path, d / "key", "--offset", str(SS))
    try:
        with open(path, "rb") as f:                           # sector 0 is outside the range
            while proc.poll() is None and os.pread(f.fileno(), SS, SS) == orig[SS:2 * SS]:
                time.sleep(0.0005)
        running = proc.poll() is None
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if not running or proc.returncode == 0:
        pytest.skip("the run finished before it could be interrupted")
    err = err.decode()
    assert proc.returncode == 130 and "Traceback" not in err and err.count("\n") == 1, err
    m = re.search(r"--offset (\d+) --size (\d+)", err)
    done, left = int(m.group(1)), int(m.group(2))
    assert done % SS == 0 and done + left == BIG and SS < done < BIG
    assert check_whole_sectors(path, orig, key) == done // SS - 1      # exactly [SS, done) is new
    assert path.read_bytes()[done:] == orig[done:]
    assert main(["disk", "encrypt", str(path), "--cipher", "xchacha12,aes-adiantum-plain64",
                 "--key-file", str(d / "key"), "--sector-size", str(SS),
                 "--offset", str(done), "--size", str(left)]) == 0
    assert main(["disk", "decrypt", str(path), "--cipher", "capi:adiantum(xchacha12,aes)-plain64",
                 "--key-file", str(d / "key"), "--sector-size", str(SS), "--offset", str(SS)]) == 0
    assert path.read_bytes() == orig


def test_every_write_is_whole_sectors_and_short_writes_are_continued(image, monkeypatch):
    """Each pwrite the tool makes starts on a sector boundary and covers whole
    sectors; when the kernel writes only part (a short write, cut at a page
    boundary), the rest is written from there."""
    from crypto_api.tools import disk
    d, key, make = image
    path, orig = make(3 * 1024 * 1024 + 8 * 512)
    real = os.pwrite
    calls = []

    def short_pwrite(fd, data, offset):
        calls.append((offset, len(data)))
        return real(fd, memoryview(data)[:min(len(data), 4096 * 3)], offset)  # page-aligned short write

    monkeypatch.setattr(disk.os, "pwrite", short_pwrite)
    ref = d / "ref.img"
    ref.write_bytes(orig)
    args = ["--cipher", "xchacha12,aes-adiantum-plain64", "--key-file", str(d / "key")]
    assert main(["disk", "encrypt", str(path), *args]) == 0
    assert calls and all(off % 512 == 0 and n % 512 == 0 for off, n in calls)
    assert len(calls) > (len(orig) // (4096 * 3))              # the short writes were continued
    monkeypatch.setattr(disk.os, "pwrite", real)
    assert main(["disk", "encrypt", str(ref), *args]) == 0
    assert path.read_bytes() == ref.read_bytes()

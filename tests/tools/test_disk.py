"""``crypto-api disk encrypt|decrypt`` (tools/disk.py): dm-crypt compatible sectors.

Every result is compared with an image computed from the dm-crypt table's
definition (tests/dmcrypt_ref.py: cryptsetup plain ``--offset`` is where the
volume starts and its IVs restart at 0, ``--skip`` is added to the IV
number, all in 512-byte sectors).  Locking, the journal and kills are in
test_disk_lock.py, test_disk_journal.py and test_disk_kill.py.
"""

import os

import pytest

import crypto_api as capi
from crypto_api.__main__ import main
from dmcrypt_ref import iv_bytes, journal_done, reference_image
from kernel_names import specs

ADIANTUM = "xchacha12,aes-adiantum-plain64"


@pytest.fixture
def image(tmp_path):
    key = os.urandom(32)
    (tmp_path / "key").write_bytes(key)

    def make(nbytes):
        data = os.urandom(nbytes)
        (tmp_path / "img").write_bytes(data)
        return tmp_path / "img", data

    return tmp_path, key, make


def algorithm_of(spec):
    return spec[5:].rsplit("-", 1)[0] if spec.startswith("capi:") else "adiantum(" + spec.split("-")[0] + ")"


CASES = [
    # spec, sector size, --skip, --iv-large-sectors, --offset, --size (512-byte sectors; None: to the end)
    (ADIANTUM, 512, 0, False, 0, None),
    (ADIANTUM, 4096, 0, False, 0, None),
    ("xchacha20,aes-adiantum-plain64", 4096, 16, True, 0, None),
    (ADIANTUM, 4096, 24, False, 0, None),
    (ADIANTUM, 512, 1000, True, 0, None),
    ("capi:adiantum(xchacha20,aes)-plain", 512, (1 << 32) - 5, False, 0, None),     # plain wraps
    ("capi:adiantum(xchacha12,aes)-plain", 4096, (1 << 32) - 16, True, 0, None),
    ("capi:adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)-plain64", 4096, 8, True, 24, 40),
    (ADIANTUM, 512, 0, False, 7, 9),
    (ADIANTUM, 512, 7, False, 7, None),            # a sub-range keeping the IVs: --offset k --skip k
    (ADIANTUM, 4096, 40, False, 16, 64),
]
CASES = specs(CASES)        # driver names as the followed kernel has them


@pytest.mark.parametrize("spec, ss, skip, large, offset, size", CASES)
def test_matches_the_dm_crypt_table(image, capsys, spec, ss, skip, large, offset, size):
    d, key, make = image
    path, orig = make(20 * 4096)
    args = ["--cipher", spec, "--key-file", str(d / "key"), "--sector-size", str(ss),
            "--skip", str(skip), "--offset", str(offset)] + (["--iv-large-sectors"] if large else [])
    if size is not None:
        args += ["--size", str(size)]
    assert main(["disk", "encrypt", str(path), *args]) == 0, capsys.readouterr().err
    mode = spec.rsplit("-", 1)[1]
    want = reference_image(orig, key, algorithm_of(spec), mode, ss, offset, size, skip, large)
    assert path.read_bytes() == want
    assert journal_done(path)                            # the finished job's receipt
    assert main(["disk", "decrypt", str(path), *args]) == 0
    assert path.read_bytes() == orig


def test_offset_restarts_the_ivs_and_skip_moves_them(image, capsys):
    """cryptsetup plain: the volume's first sector (at --offset) has IV number
    --skip; without --skip it is 0 whatever --offset is."""
    d, key, make = image
    path, orig = make(8 * 512)
    base = ["--cipher", ADIANTUM, "--key-file", str(d / "key")]
    with capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)") as tfm:
        tfm.setkey(key)
        for extra, number in ((["--offset", "3"], 0), (["--offset", "3", "--skip", "5"], 5)):
            path.write_bytes(orig)
            assert main(["disk", "encrypt", str(path), *base, *extra]) == 0
            got = path.read_bytes()
            assert got[:3 * 512] == orig[:3 * 512]
            assert got[3 * 512:4 * 512] == tfm.encrypt(orig[3 * 512:4 * 512], iv_bytes(number))


def test_iv_large_sectors_documented_example(image, capsys):
    """dm-crypt.rst: 4096-byte sectors, the second sector's plain64 IV is 8
    without iv_large_sectors and 1 with it."""
    d, key, make = image
    path, orig = make(2 * 4096)
    base = ["--cipher", ADIANTUM, "--key-file", str(d / "key"), "--sector-size", "4096"]
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
    args = ["--cipher", ADIANTUM, "--key-file", str(d / "key"), "--offset", "2", "--size", "4"]
    assert main(["disk", "encrypt", str(path), *args, "--output", str(out)]) == 0
    assert path.read_bytes() == orig
    want = reference_image(orig, key, offset=2, size=4)
    assert out.read_bytes() == want                      # the same image, truncated to its size
    assert main(["disk", "encrypt", str(path), *args, "--output", str(path)]) == 0   # same file: in place
    assert path.read_bytes() == want


@pytest.mark.parametrize("extra, words", [
    (["--sector-size", "4096", "--skip", "4"], ["--skip", "4", "multiple", "8"]),
    (["--sector-size", "4096", "--offset", "4"], ["--offset 4", "multiple", "8"]),
    (["--sector-size", "4096", "--size", "12"], ["--size 12", "multiple"]),
    (["--offset", "16", "--size", "1"], ["runs past the end"]),
    (["--offset", "17"], ["beyond the end"]),
    (["--offset", "16"], ["nothing to do"]),
    (["--skip", str(1 << 64)], ["outside"]),
    (["--skip", str((1 << 64) - 8)], ["outside"]),              # the last sector's IV overflows
    (["--cipher", "capi:chacha20-plain64"], ["EINVAL", "chacha20: a stream cipher", "--allow-unsafe-cipher"]),
    (["--cipher", "capi:xchacha12-plain64"], ["EINVAL", "xchacha12: a stream cipher", "--allow-unsafe-cipher"]),
    (["--cipher", "aes-nosuchmode-plain64"], ["nosuchmode(aes)", "ENOENT"]),
    (["--cipher", "aes-cbc-benbi"], ["IV mode 'benbi'"]),
    (["--cipher", "capi:nhpoly1305-plain64"], ["nhpoly1305", "no skcipher"]),
    (["--sector-size", "4096", "--skip", "12", "--iv-large-sectors"], ["--skip", "12"]),
    (["--key-file", "{short}"], ["key file", "key is 16 bytes"]),
    (["--key-file", "{missing}"], ["No such file"]),
])
def test_refusals_change_nothing(image, capsys, extra, words):
    d, key, make = image
    path, orig = make(16 * 512)
    (d / "short").write_bytes(bytes(16))
    opts = {"--cipher": ADIANTUM, "--key-file": str(d / "key")}
    rest = []
    it = iter(extra)
    for a in it:
        if a in opts:
            opts[a] = next(it).format(short=d / "short", missing=d / "missing")
        else:
            rest.append(a)
    args = [x for kv in opts.items() for x in kv] + rest
    for where in (["--output", str(d / "out")], []):
        rc = main(["disk", "encrypt", str(path), *args, *where])
        err = capsys.readouterr().err
        assert rc == 1 and err.startswith("crypto-api disk: ") and err.count("\n") == 1, err
        for w in words:
            assert w in err, err
        assert path.read_bytes() == orig
        assert not (d / "out").exists()                # refused before the output was opened
        assert sorted(os.listdir(d)) == ["img", "key", "short"]     # and before any journal


def test_old_byte_and_iv_offset_options_are_gone(image, capsys):
    """--iv-offset is cryptsetup's --skip now; --offset/--size count 512-byte sectors."""
    d, key, make = image
    path, orig = make(16 * 512)
    with pytest.raises(SystemExit):
        main(["disk", "encrypt", str(path), "--cipher", ADIANTUM, "--key-file", str(d / "key"),
              "--iv-offset", "8"])
    assert "unrecognized arguments: --iv-offset" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["disk", "encrypt", str(path), "--cipher", ADIANTUM, "--key-file", str(d / "key"),
              "--offset", "1K"])
    assert path.read_bytes() == orig


def test_image_not_whole_sectors_and_bad_image(image, capsys):
    d, key, make = image
    path, orig = make(4096 + 512)
    base = ["--cipher", ADIANTUM, "--key-file", str(d / "key")]
    assert main(["disk", "encrypt", str(path), *base, "--sector-size", "4096"]) == 1
    assert "not a multiple of the 4096-byte sector size; give --size" in capsys.readouterr().err
    assert main(["disk", "encrypt", str(path), *base, "--sector-size", "4096", "--size", "8"]) == 0
    assert path.read_bytes() == reference_image(orig, key, sector_size=4096, size=8)
    assert main(["disk", "encrypt", str(d), *base]) == 1            # a directory
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["disk", "encrypt", str(d / "nope.img"), *base]) == 1
    assert "No such file" in capsys.readouterr().err


def test_every_write_is_whole_sectors_and_short_writes_are_continued(image, monkeypatch):
    """Each image pwrite starts on a sector boundary and covers whole sectors;
    when the kernel writes only part (a short write, cut at a page boundary),
    the rest is written from there."""
    d, key, make = image
    path, orig = make(3 * 1024 * 1024 + 8 * 512)
    real = os.pwrite
    calls = []
    image_fds = set()
    real_open = os.open

    def tracking_open(p, *a, **k):
        fd = real_open(p, *a, **k)
        if os.fspath(p) == str(path):
            image_fds.add(fd)
        return fd

    def short_pwrite(fd, data, offset):
        if fd in image_fds:
            calls.append((offset, len(data)))
        return real(fd, memoryview(data)[:min(len(data), 4096 * 3)], offset)  # page-aligned short write

    monkeypatch.setattr(os, "open", tracking_open)
    monkeypatch.setattr(os, "pwrite", short_pwrite)
    assert main(["disk", "encrypt", str(path), "--cipher", ADIANTUM, "--key-file", str(d / "key")]) == 0
    monkeypatch.undo()
    assert calls and all(off % 512 == 0 and n % 512 == 0 for off, n in calls)
    assert len(calls) > (len(orig) // (4096 * 3))              # the short writes were continued
    assert path.read_bytes() == reference_image(orig, key)


def test_allow_unsafe_cipher_forces_a_stream_cipher(image, capsys):
    d, key, make = image
    path, orig = make(8 * 512)
    args = ["--cipher", "capi:chacha20-plain64", "--key-file", str(d / "key"), "--allow-unsafe-cipher"]
    assert main(["disk", "encrypt", str(path), *args]) == 0
    assert path.read_bytes() == reference_image(orig, key, "chacha20", "plain64")

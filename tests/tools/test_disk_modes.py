"""``crypto-api disk`` with cryptsetup's AES specs: ``aes-xts-plain64``
(the default), ``aes-xts-plain`` and ``aes-cbc-essiv:sha256`` (dm-crypt
5.4+: the essiv template with the plain64 sector number).  Every sector of
the image is checked against ``cryptography`` (XTS; CBC with
E_{sha256(key)}(le64 sector) as IV), not against this project's code."""

import hashlib
import os

import pytest
from cryptography.hazmat.primitives.ciphers import modes

from crypto_api.__main__ import main
from dmcrypt_ref import iv_number, journal_done
from modes_ref import aes


def expected(orig, key, spec, ss, skip=0, large=False):
    out = bytearray()
    for n in range(len(orig) // ss):
        sector = orig[n * ss:(n + 1) * ss]
        num = iv_number(n, ss, skip, large)
        if spec == "aes-cbc-essiv:sha256":
            iv = aes(hashlib.sha256(key).digest(), modes.ECB(), num.to_bytes(8, "little") + bytes(8))
            out += aes(key, modes.CBC(iv), sector)
        else:
            num = num % (1 << 32) if spec == "aes-xts-plain" else num
            width = 4 if spec == "aes-xts-plain" else 8
            out += aes(key, modes.XTS(num.to_bytes(width, "little") + bytes(16 - width)), sector)
    return bytes(out)


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("spec, keylen, ss, skip, large", [
    ("aes-xts-plain64", 64, 512, 0, False),
    ("aes-xts-plain64", 64, 4096, 0, False),
    ("aes-xts-plain64", 32, 4096, 8, True),
    ("aes-xts-plain64", 32, 512, (1 << 40) + 3, False),
    ("aes-xts-plain", 64, 512, (1 << 32) - 5, False),       # plain wraps at 2^32
    ("aes-cbc-essiv:sha256", 32, 512, 0, False),
    ("aes-cbc-essiv:sha256", 16, 4096, 16, False),
])
def test_sectors_equal_cryptographys(tmp_path, capsys, spec, keylen, ss, skip, large, jobs):
    key = os.urandom(keylen)
    (tmp_path / "key").write_bytes(key)
    orig = os.urandom(24 * 4096)
    img = tmp_path / "img"
    img.write_bytes(orig)
    args = ["--cipher", spec, "--key-file", str(tmp_path / "key"), "--sector-size", str(ss),
            "--skip", str(skip), "--jobs", jobs] + (["--iv-large-sectors"] if large else [])
    assert main(["disk", "encrypt", str(img), *args]) == 0, capsys.readouterr().err
    assert img.read_bytes() == expected(orig, key, spec, ss, skip, large)
    assert journal_done(img)
    assert main(["disk", "decrypt", str(img), *args]) == 0, capsys.readouterr().err
    assert img.read_bytes() == orig


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("spec, keylen", [("aes-xts-plain64", 64), ("aes-xts-plain64", 32),
                                          ("aes-xts-plain", 64), ("aes-cbc-essiv:sha256", 32)])
@pytest.mark.parametrize("ss", [512, 4096])
@pytest.mark.parametrize("out", [False, True])
def test_offset_size_and_skip_equal_cryptographys(tmp_path, capsys, spec, keylen, ss, jobs, out):
    """The volume inside the image (--offset, --size) with moved IVs (--skip),
    in place and into --output, several batches: only the volume changes,
    each of its sectors as cryptography computes it."""
    key = os.urandom(keylen)
    (tmp_path / "key").write_bytes(key)
    offset, size, skip = 24, 136 * 8, 8 * 1001          # 512-byte sectors; whole 4 KiB sectors
    orig = os.urandom((offset + size + 16) * 512)
    img = tmp_path / "img"
    img.write_bytes(orig)
    dst = tmp_path / "out" if out else img
    args = ["--cipher", spec, "--key-file", str(tmp_path / "key"), "--sector-size", str(ss),
            "--offset", str(offset), "--size", str(size), "--skip", str(skip), "--jobs", jobs,
            "--batch-size", "64K"] + (["--output", str(dst)] if out else [])
    assert main(["disk", "encrypt", str(img), *args]) == 0, capsys.readouterr().err
    got = dst.read_bytes()
    lo, hi = offset * 512, (offset + size) * 512
    assert got[:lo] == orig[:lo] and got[hi:] == orig[hi:]
    assert got[lo:hi] == expected(orig[lo:hi], key, spec, ss, skip)
    if out:
        assert img.read_bytes() == orig
        args[args.index("--output") + 1] = str(tmp_path / "back")
        dst = tmp_path / "back"
        src = tmp_path / "out"
    else:
        src = img
    assert main(["disk", "decrypt", str(src), *args]) == 0, capsys.readouterr().err
    assert dst.read_bytes() == orig

"""``crypto-api enc``/``dec`` with block modes: ``xts`` of any length, ``ecb``/``cbc``/``ctr`` streamed.

XTS files of 16, 17, 31, 32, 33 bytes, of every length within 17 bytes of
the 1 MiB chunk and of the chunk plus the block held back from it, and of
1,000,001 bytes give exactly ``cryptography``'s AES-XTS of the whole file
(the IV as its tweak), for 256- and 512-bit keys, and ``dec`` gives the file
back; real subprocesses do the same from files and pipes.  Under 16 bytes is
EINVAL naming ``xts(aes)`` with nothing written; ``cbc`` still refuses a
partial block, naming ``cbc(aes)``, from a file or a pipe, before writing
anything; ``ecb``/``cbc``/``ctr`` over several chunks are ``cryptography``'s.
A fresh process encrypting a 256 MiB (sparse) file with ``xts(aes)``,
``cbc(aes)``, ``ecb(aes)`` or ``ctr(aes)`` peaks far below the file's size.
"""

import os

import pytest
from cryptography.hazmat.primitives.ciphers import modes

from crypto_api.__main__ import main
from crypto_api.tools.stream_crypt import CHUNK
from enc_cli import assert_one_line_error, cli, peak_rss_kib
from modes_ref import aes

IV = bytes.fromhex("0f1e2d3c4b5a69788796a5b4c3d2e1f0")
BLOCK = 16
#: a request is CHUNK bytes while the input goes on, one block held back for the last
BOUNDARIES = (CHUNK, CHUNK + BLOCK)
LENGTHS = sorted({16, 17, 31, 32, 33, 2 * CHUNK + BLOCK - 1, 2 * CHUNK + BLOCK + 1, 1_000_001}
                 | {b + k for b in BOUNDARIES for k in range(-17, 18)})


def xts_reference(key, data, encrypt=True):
    return aes(key, modes.XTS(IV), data, encrypt)


def distinct_halves_key(n):
    """A random XTS key (cryptography refuses equal halves)."""
    while True:
        key = os.urandom(n)
        if key[:n // 2] != key[n // 2:]:
            return key


@pytest.fixture(params=[32, 64], ids=["xts-aes-128", "xts-aes-256"])
def d(tmp_path, request):
    (tmp_path / "key").write_bytes(distinct_halves_key(request.param))
    return tmp_path


def argv(verb, d, *extra, cipher="xts(aes)", iv=IV):
    return [verb, "-c", cipher, "--key-file", str(d / "key"), *(["--iv", iv.hex()] if iv else []), *extra]


def test_every_length_from_16_matches_cryptography_and_round_trips(d, capsys):
    key = (d / "key").read_bytes()
    data = os.urandom(max(LENGTHS))
    for n in LENGTHS:
        (d / "in").write_bytes(data[:n])
        assert main(argv("enc", d, "-i", str(d / "in"), "-o", str(d / "ct"))) == 0, (n, capsys.readouterr())
        ct = (d / "ct").read_bytes()
        assert ct == xts_reference(key, data[:n]), n
        assert main(argv("dec", d, "-i", str(d / "ct"), "-o", str(d / "pt"))) == 0, n
        assert (d / "pt").read_bytes() == data[:n], n


@pytest.mark.parametrize("cipher", ["xts(aes)", "xts(ecb(aes-generic))"])
def test_a_million_and_one_bytes_through_files_and_pipes(d, cipher):
    key, data = (d / "key").read_bytes(), os.urandom(1_000_001)
    want = xts_reference(key, data)
    (d / "in").write_bytes(data)
    p = cli(argv("enc", d, "-i", str(d / "in"), "-o", str(d / "ct"), cipher=cipher))
    assert p.returncode == 0 and p.stderr == b"" and p.stdout == b""
    assert (d / "ct").read_bytes() == want
    p = cli(argv("enc", d, cipher=cipher), input=data)
    assert p.returncode == 0 and p.stdout == want, p.stderr
    p = cli(argv("dec", d, cipher=cipher), input=want)
    assert p.returncode == 0 and p.stdout == data, p.stderr


def test_under_one_block_is_refused_naming_xts_and_nothing_is_written(d):
    (d / "in").write_bytes(b"fifteen bytes!!")
    p = cli(argv("enc", d, "-i", str(d / "in"), "-o", str(d / "out")))
    assert_one_line_error(p, "EINVAL", "xts(aes)", "15 bytes", "at least 16")
    assert not (d / "out").exists()
    for data in (b"fifteen bytes!!", b""):
        p = cli(argv("dec", d), input=data)
        assert_one_line_error(p, "EINVAL", "xts(aes)", f"{len(data)} bytes", "at least 16")
        assert p.stdout == b""


@pytest.mark.parametrize("cipher", ["cbc(aes)", "ecb(aes)"])
def test_cbc_and_ecb_refuse_a_partial_block_from_a_file_or_a_pipe(tmp_path, cipher):
    (tmp_path / "key").write_bytes(os.urandom(32))
    iv = IV if cipher == "cbc(aes)" else None
    data = os.urandom(3 * CHUNK + 1)                 # the partial block only at the very end
    (tmp_path / "in").write_bytes(data)
    p = cli(argv("enc", tmp_path, "-i", str(tmp_path / "in"), "-o", str(tmp_path / "out"), cipher=cipher, iv=iv))
    assert_one_line_error(p, "EINVAL", cipher, f"{len(data)} bytes", "not a multiple of its 16-byte block")
    assert sorted(os.listdir(tmp_path)) == ["in", "key"]
    p = cli(argv("enc", tmp_path, cipher=cipher, iv=iv), input=data)
    assert_one_line_error(p, "EINVAL", cipher, f"{len(data)} bytes", "not a multiple of its 16-byte block")
    assert p.stdout == b""                           # the pipe was spooled and checked first


@pytest.mark.parametrize("cipher", ["cbc(aes)", "ecb(aes)", "ctr(aes)", "cbc(aes-generic)", "ctr(aes-generic)"])
def test_cbc_ecb_and_ctr_stream_as_one_message(tmp_path, cipher):
    """Over three chunks; ctr with a partial block at the end and its counter wrapping."""
    key = os.urandom(32)
    (tmp_path / "key").write_bytes(key)
    ctr = cipher.startswith("ctr")
    iv = None if cipher.startswith("ecb") else (2 ** 128 - CHUNK // BLOCK - 5).to_bytes(16, "big") if ctr else IV
    mode = modes.CTR(iv) if ctr else modes.CBC(iv) if iv else modes.ECB()
    data = os.urandom(3 * CHUNK + 2 * BLOCK + (7 if ctr else 0))
    want = aes(key, mode, data)
    (tmp_path / "in").write_bytes(data)
    p = cli(argv("enc", tmp_path, "-i", str(tmp_path / "in"), "-o", str(tmp_path / "ct"), cipher=cipher, iv=iv))
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "ct").read_bytes() == want
    p = cli(argv("dec", tmp_path, cipher=cipher, iv=iv), input=want)
    assert p.returncode == 0 and p.stdout == data, p.stderr


@pytest.mark.parametrize("cipher", ["xts(aes)", "cbc(aes)", "ecb(aes)", "ctr(aes)"])
def test_a_256_mib_file_costs_far_less_memory_than_its_size(tmp_path, cipher):
    """A sparse input (no disk used) into /dev/null: the peak RSS of the run,
    for either direction, stays under a quarter of the file (the whole input in
    memory would be at least all of it)."""
    size = 256 << 20
    (tmp_path / "key").write_bytes(distinct_halves_key(64 if cipher.startswith("xts") else 32))
    with open(tmp_path / "big", "wb") as f:
        f.truncate(size)
    iv = None if cipher.startswith("ecb") else IV
    for verb in ("enc", "dec"):
        peak = peak_rss_kib(argv(verb, tmp_path, "-i", str(tmp_path / "big"), "-o", os.devnull,
                                 cipher=cipher, iv=iv))
        assert peak * 1024 < size // 4, (verb, peak)

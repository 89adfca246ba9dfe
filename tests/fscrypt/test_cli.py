"""``crypto-api fscrypt`` through real subprocesses: the key identifier,
files and names against the Python API and tests/fscrypt_ref.py, the output
written through a temporary file (an old output survives a failure), and
each bad input as one one-line error."""

import os

import pytest

from crypto_api.fscrypt import FscryptInode, Policy, encrypt_contents, nokey_name
from enc_cli import assert_one_line_error, cli
from fscrypt_cases import INO, MASTER, NONCE, UUID
from fscrypt_ref import reference_contents, reference_name

NONCE_HEX = NONCE.hex()


@pytest.fixture
def key_file(tmp_path):
    path = tmp_path / "master.key"
    path.write_bytes(MASTER)
    return str(path)


def _inode_args(spec, key_file, *more):
    return ["--policy", spec, "--master-key-file", key_file, "--nonce", NONCE_HEX, *more]


def test_key_id(key_file):
    p = cli(["fscrypt", "key-id", "--master-key-file", key_file])
    assert p.returncode == 0, p.stderr
    assert p.stdout == b"69b2f6edeee720cce0577937eb8a6751\n"


@pytest.mark.parametrize("spec, extra", [
    ("v2:1:4:pad32", []),
    ("v2:1:4:iv_ino_lblk_32", ["--ino", str(INO), "--fs-uuid", UUID.hex()]),
    ("v2:9:9:direct_key", []),
    ("v1:5:6", []),
])
def test_file_round_trip(tmp_path, key_file, spec, extra):
    data = os.urandom(9000)
    src, enc, dec = tmp_path / "in", tmp_path / "enc", tmp_path / "dec"
    src.write_bytes(data)
    args = _inode_args(spec, key_file, *extra)
    p = cli(["fscrypt", "encrypt-file", *args, "-i", str(src), "-o", str(enc)])
    assert p.returncode == 0, p.stderr
    policy = Policy.parse(spec)
    ino, uuid = (INO, UUID) if extra else (None, None)
    assert enc.read_bytes() == reference_contents(policy.version, policy.contents_mode, policy.flags,
                                                  MASTER, NONCE, data, ino=ino, uuid=uuid)
    p = cli(["fscrypt", "decrypt-file", *args, "--size", "9000", "-i", str(enc), "-o", str(dec)])
    assert p.returncode == 0, p.stderr
    assert dec.read_bytes() == data


def test_pipes_and_data_unit_size(key_file):
    data = os.urandom(3000)
    args = _inode_args("v2:1:10", key_file, "--data-unit-size", "1024")
    p = cli(["fscrypt", "encrypt-file", *args], input=data)
    assert p.returncode == 0, p.stderr
    with FscryptInode(Policy(2, 1, 10), MASTER, NONCE) as inode:
        assert p.stdout == encrypt_contents(inode, data, 1024)
    p = cli(["fscrypt", "decrypt-file", *args, "--size", "3000"], input=p.stdout)
    assert p.returncode == 0, p.stderr
    assert p.stdout == data


def test_an_existing_output_is_replaced_and_survives_a_failure(tmp_path, key_file):
    out = tmp_path / "out"
    out.write_bytes(b"old content")
    src = tmp_path / "in"
    src.write_bytes(os.urandom(5000))
    args = _inode_args("v2:1:4", key_file)
    p = cli(["fscrypt", "decrypt-file", *args, "-i", str(src), "-o", str(out)])
    assert_one_line_error(p, "5000 bytes", "whole 4096-byte data units")
    assert out.read_bytes() == b"old content"
    # from a pipe the length is known only at the end: the old file still stays
    p = cli(["fscrypt", "decrypt-file", *args, "-o", str(out)], input=os.urandom(5000))
    assert_one_line_error(p, "904-byte piece", "4096-byte data unit")
    assert out.read_bytes() == b"old content"
    p = cli(["fscrypt", "encrypt-file", *args, "-i", str(src), "-o", str(out)])
    assert p.returncode == 0, p.stderr
    assert len(out.read_bytes()) == 8192
    assert sorted(os.listdir(tmp_path)) == ["in", "master.key", "out"]   # no temporary left


def test_names(key_file):
    args = _inode_args("v2:1:4:pad16,iv_ino_lblk_64", key_file, "--ino", "77", "--fs-uuid",
                       "b0a9a1c6-f4b3-4bbc-8e1a-4d27c3f1e2d5")
    p = cli(["fscrypt", "encrypt-name", *args, "hello.txt"])
    assert p.returncode == 0, p.stderr
    ct = bytes.fromhex(p.stdout.decode())
    assert ct == reference_name(2, 4, 0x0A, MASTER, NONCE, b"hello.txt", 77, UUID)
    p = cli(["fscrypt", "decrypt-name", *args, ct.hex()])
    assert p.returncode == 0 and p.stdout == b"hello.txt\n", p.stderr
    p = cli(["fscrypt", "encrypt-name", *args, "--nokey", "--dirhash", "5", "hello.txt"])
    assert p.stdout.decode() == nokey_name(ct, 5) + "\n"


@pytest.mark.parametrize("argv, words", [
    (["encrypt-name", "--policy", "v2:1:4", "NAME"], ["master key is 8 bytes", "AES-256-CTS-CBC", "32 to 64"]),
    (["encrypt-name", "--policy", "v2:1:4", "a" * 256], ["256-byte name", "NAME_MAX"]),
    (["encrypt-name", "--policy", "v2:2:4", "x"], ["unknown encryption mode number 2"]),
    (["encrypt-name", "--policy", "v2:10:10", "x"], ["AES-256-HCTR2", "filenames only"]),
    (["encrypt-name", "--policy", "v2:1:4:direct_key", "x"], ["direct_key"]),
    (["encrypt-name", "--policy", "v2:9:9:iv_ino_lblk_64", "x"], ["iv_ino_lblk_64", "AES-256-XTS"]),
    (["encrypt-name", "--policy", "v2:1:4:iv_ino_lblk_64", "x"], ["inode number"]),
    (["decrypt-name", "--policy", "v2:1:4", "00ff"], ["2 bytes cannot be an encrypted name"]),
    (["decrypt-name", "--policy", "v2:1:4", "xyz"], ["not hex"]),
])
def test_bad_input_is_one_error(tmp_path, argv, words):
    key = tmp_path / "k"
    key.write_bytes(bytes(8) if "NAME" in argv else MASTER)
    cmd, rest = argv[0], argv[1:]
    p = cli(["fscrypt", cmd, "--master-key-file", str(key), "--nonce", NONCE_HEX, *rest])
    assert_one_line_error(p, *words)


def test_bad_nonce_is_one_error(key_file):
    p = cli(["fscrypt", "encrypt-name", "--policy", "v2:1:4", "--master-key-file", key_file,
             "--nonce", "0011", "x"])
    assert_one_line_error(p, "the nonce is 2 bytes")

"""crypto_api.fscrypt names: the padded length rule, every filenames mode
and padding against tests/fscrypt_ref.py (AES-CTS-CBC by ``cryptography``
CBC with the CS3 swap; Adiantum and HCTR2 through the registry's generic
drivers named by hand), round trips, the no-key name form, refusals."""

import base64
import errno
import hashlib

import pytest

from crypto_api.errors import CryptoError
from crypto_api.fscrypt import (FscryptInode, Policy, decrypt_name, encrypt_name,
                                encrypted_size, nokey_name)
from fscrypt_cases import MASTER, NONCE, POLICIES, inode_args
from fscrypt_ref import reference_name

LENGTHS = [1, 3, 15, 16, 17, 31, 32, 33, 100, 149, 150, 254, 255]


@pytest.mark.parametrize("policy", POLICIES, ids=Policy.describe)
def test_names_match_reference(policy):
    ino, uuid = inode_args(policy)
    with FscryptInode(policy, MASTER, NONCE, ino, uuid) as inode:
        for n in LENGTHS:
            name = bytes(0x41 + i % 26 for i in range(n))
            ct = encrypt_name(inode, name)
            assert ct == reference_name(policy.version, policy.filenames_mode, policy.flags,
                                        MASTER, NONCE, name, ino, uuid)
            assert decrypt_name(inode, ct) == name


@pytest.mark.parametrize("pad, expect", [
    (0, {1: 16, 16: 16, 17: 20, 33: 36, 253: 255, 255: 255}),
    (1, {1: 16, 17: 24, 33: 40, 249: 255, 255: 255}),
    (2, {1: 16, 17: 32, 33: 48, 241: 255}),
    (3, {1: 32, 16: 32, 17: 32, 33: 64, 225: 255}),
])
def test_encrypted_size(pad, expect):
    with FscryptInode(Policy(2, 1, 4, pad), MASTER, NONCE) as inode:
        for n, size in expect.items():
            assert encrypted_size(inode, n) == size
            assert len(encrypt_name(inode, b"a" * n)) == size


def test_name_refusals():
    with FscryptInode(Policy(2, 1, 4), MASTER, NONCE) as inode:
        with pytest.raises(CryptoError, match="256-byte name") as e:
            encrypt_name(inode, b"a" * 256)
        assert e.value.errno == errno.ENAMETOOLONG
        for bad in (b"", b".", b"..", b"a/b", b"a\0b"):
            with pytest.raises(CryptoError, match="not a name") as e:
                encrypt_name(inode, bad)
            assert e.value.errno == errno.EINVAL
        for n in (15, 256):
            with pytest.raises(CryptoError, match="cannot be an encrypted name") as e:
                decrypt_name(inode, bytes(n))
            assert e.value.errno == errno.EUCLEAN


def test_utf8_name_round_trip():
    with FscryptInode(Policy(2, 1, 10, 3), MASTER, NONCE) as inode:
        assert decrypt_name(inode, encrypt_name(inode, "héllo wörld")) == "héllo wörld".encode()


def _decode(text):
    assert set(text) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def test_nokey_name_short():
    ct = bytes(range(200, 232))
    text = nokey_name(ct, 0x11223344, 0x55667788)
    assert _decode(text) == bytes.fromhex("4433221188776655") + ct
    assert nokey_name(ct).startswith("A" * 10)      # 8 zero bytes: 60 bits of zeros lead


@pytest.mark.parametrize("n", [149, 150, 255])
def test_nokey_name_long_is_abbreviated(n):
    ct = bytes((i * 13) % 256 for i in range(n))
    raw = _decode(nokey_name(ct))
    if n <= 149:
        assert raw == bytes(8) + ct
    else:
        assert raw == bytes(8) + ct[:149] + hashlib.sha256(ct[149:]).digest()
        assert len(nokey_name(ct)) == 252


def test_nokey_name_refusals():
    with pytest.raises(CryptoError) as e:
        nokey_name(bytes(10))
    assert e.value.errno == errno.EUCLEAN
    with pytest.raises(CryptoError, match="32-bit"):
        nokey_name(bytes(16), 1 << 32)

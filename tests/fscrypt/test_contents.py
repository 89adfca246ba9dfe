"""crypto_api.fscrypt contents: every accepted policy's ciphertext byte for
byte against tests/fscrypt_ref.py (AES-XTS, AES-CBC-ESSIV by
``cryptography``; Adiantum through the registry's generic drivers named by
hand, with the reference's keys and IVs), round trips, data unit sizes, and
the refusals."""

import errno
import os

import pytest

from crypto_api.errors import CryptoError
from crypto_api.fscrypt import FscryptInode, Policy, decrypt_contents, encrypt_contents
from crypto_api.fscrypt.ivs import generate_iv
from fscrypt_cases import INO, MASTER, NONCE, POLICIES, UUID, inode_args
from fscrypt_ref import reference_contents, reference_hashed_ino, reference_iv

DATA = bytes((i * 7 + 3) % 251 for i in range(3 * 4096 + 1000))   # 3.24 data units


@pytest.mark.parametrize("policy", POLICIES, ids=Policy.describe)
def test_contents_match_reference(policy):
    ino, uuid = inode_args(policy)
    with FscryptInode(policy, MASTER, NONCE, ino, uuid) as inode:
        ct = encrypt_contents(inode, DATA)
        assert len(ct) == 4 * 4096
        assert ct == reference_contents(policy.version, policy.contents_mode, policy.flags,
                                        MASTER, NONCE, DATA, ino=ino, uuid=uuid)
        assert decrypt_contents(inode, ct, len(DATA)) == DATA
        assert decrypt_contents(inode, ct) == DATA + bytes(len(ct) - len(DATA))


@pytest.mark.parametrize("du", [512, 1024, 16384])
@pytest.mark.parametrize("spec", ["v2:1:4", "v2:9:9:direct_key", "v2:1:4:iv_ino_lblk_32", "v1:5:6"])
def test_data_unit_sizes(spec, du):
    policy = Policy.parse(spec)
    ino, uuid = inode_args(policy)
    data = os.urandom(2 * du + 17)
    with FscryptInode(policy, MASTER, NONCE, ino, uuid) as inode:
        ct = encrypt_contents(inode, data, du)
        assert ct == reference_contents(policy.version, policy.contents_mode, policy.flags,
                                        MASTER, NONCE, data, du, ino, uuid)
        assert decrypt_contents(inode, ct, len(data), du) == data


def test_empty_file():
    with FscryptInode(Policy(2, 1, 4), MASTER, NONCE) as inode:
        assert encrypt_contents(inode, b"") == b""
        assert decrypt_contents(inode, b"", 0) == b""


def test_lblk32_index_wraps_with_the_hashed_inode():
    policy = Policy(2, 1, 4, 0x10)
    with FscryptInode(policy, MASTER, NONCE, INO, UUID) as inode:
        h = reference_hashed_ino(MASTER, INO)
        assert inode.hashed_ino == h
        index = (1 << 32) - h          # hashed + index = 2^32: wraps to 0
        assert inode.iv(policy.contents, index) == bytes(16)
        assert inode.iv(policy.contents, index + 5) == reference_iv(0x10, 1, index + 5, hashed_ino=h)


def test_lblk64_iv_layout():
    policy = Policy(2, 1, 4, 0x08)
    iv = generate_iv(policy, policy.contents, 7, NONCE, 0xA0B0C0D0)
    assert iv == bytes.fromhex("07000000d0c0b0a0") + bytes(8)


@pytest.mark.parametrize("flags", [0x08, 0x10])
def test_lblk_index_past_32_bits_refused(flags):
    policy = Policy(2, 1, 4, flags)
    with FscryptInode(policy, MASTER, NONCE, INO, UUID) as inode:
        with pytest.raises(CryptoError, match="32-bit index") as e:
            inode.iv(policy.contents, 1 << 32)
    assert e.value.errno == errno.EINVAL


@pytest.mark.parametrize("ino", [None, 0, 1 << 32])
def test_lblk_needs_a_32_bit_inode_number(ino):
    with pytest.raises(CryptoError, match="inode number") as e:
        FscryptInode(Policy(2, 1, 4, 0x08), MASTER, NONCE, ino, UUID)
    assert e.value.errno == errno.EINVAL


@pytest.mark.parametrize("du", [0, 256, 4095, 131072])
def test_bad_data_unit_size(du):
    with FscryptInode(Policy(2, 1, 4), MASTER, NONCE) as inode:
        with pytest.raises(CryptoError, match="data unit size") as e:
            encrypt_contents(inode, b"x", du)
    assert e.value.errno == errno.EINVAL


def test_decrypt_refusals():
    with FscryptInode(Policy(2, 1, 4), MASTER, NONCE) as inode:
        ct = encrypt_contents(inode, DATA)
        with pytest.raises(CryptoError, match="not whole 4096-byte data units"):
            decrypt_contents(inode, ct[:-1])
        for size in (len(ct) + 1, 3 * 4096, -1):
            with pytest.raises(CryptoError, match="file size"):
                decrypt_contents(inode, ct, size)

"""crypto_api.fscrypt.keys: the key identifier against xfstests' known value,
every derivation against tests/fscrypt_ref.py (HKDF and AES-ECB by
``cryptography``), SipHash against its paper, the master-key size rules."""

import errno

import pytest

from crypto_api.errors import CryptoError
from crypto_api.fscrypt import MODES, Policy, derive_key, inode_hash, key_identifier
from crypto_api.fscrypt.siphash import siphash24
from fscrypt_ref import reference_hashed_ino, reference_key, hkdf_sha512

from fscrypt_cases import MASTER, NONCE, POLICIES, UUID, inode_args


def test_key_identifier_xfstests_value():
    # xfstests common/encrypt: TEST_RAW_KEY is the bytes 1..64, and
    # TEST_KEY_IDENTIFIER is what real kernels report for it
    assert key_identifier(MASTER).hex() == "69b2f6edeee720cce0577937eb8a6751"


@pytest.mark.parametrize("size", [16, 32, 64])
def test_key_identifier_reference(size):
    key = bytes(range(100, 100 + size))
    assert key_identifier(key) == hkdf_sha512(key, 1, b"", 16)


def test_siphash_paper_vector():
    # SipHash paper, appendix A: key 00..0f, message 00..0e
    out = siphash24(bytes(range(16)), bytes(range(15)))
    assert out.to_bytes(8, "little").hex() == "e545be4961ca29a1"


def test_inode_hash_reference():
    for ino in (1, 12, 0xFFFFFFFF):
        assert inode_hash(MASTER, ino) == reference_hashed_ino(MASTER, ino)


@pytest.mark.parametrize("policy", POLICIES, ids=Policy.describe)
def test_derived_keys_match_reference(policy):
    _, uuid = inode_args(policy)
    for mode in (policy.contents, policy.filenames):
        got = derive_key(policy, MASTER, mode, NONCE, uuid)
        assert got == reference_key(policy.version, policy.flags, mode.number, MASTER, NONCE, uuid)
        assert len(got) == mode.keysize


def test_per_file_keys_differ_by_nonce_shared_keys_do_not():
    xts = MODES[1]
    other = bytes(16)
    per_file = Policy(2, 1, 4)
    assert derive_key(per_file, MASTER, xts, NONCE) != derive_key(per_file, MASTER, xts, other)
    lblk = Policy(2, 1, 4, 0x08)
    assert derive_key(lblk, MASTER, xts, NONCE, UUID) == derive_key(lblk, MASTER, xts, other, UUID)
    assert derive_key(lblk, MASTER, xts, NONCE, UUID) != derive_key(lblk, MASTER, xts, NONCE, bytes(16))


@pytest.mark.parametrize("policy, size, ok", [
    (Policy(2, 1, 4), 32, True),          # v2: the security strength (32), not the key size (64)
    (Policy(2, 1, 4), 31, False),
    (Policy(2, 5, 6), 16, True),
    (Policy(2, 5, 6), 15, False),         # below FSCRYPT_MIN_KEY_SIZE
    (Policy(2, 1, 4), 65, False),         # above FSCRYPT_MAX_KEY_SIZE
    (Policy(1, 1, 4), 32, False),         # v1: the whole 64-byte XTS key
    (Policy(1, 1, 4), 64, True),
    (Policy(1, 9, 9, 0x04), 31, False),
])
def test_master_key_sizes(policy, size, ok):
    key = bytes(range(size))
    if ok:
        assert derive_key(policy, key, policy.contents, NONCE)
        return
    with pytest.raises(CryptoError) as e:
        derive_key(policy, key, policy.contents, NONCE)
    assert e.value.errno == errno.EINVAL
    assert f"master key is {size} bytes" in str(e.value) and policy.contents.name in str(e.value)


def test_lblk_keys_need_the_uuid_and_a_good_nonce():
    with pytest.raises(CryptoError, match="filesystem UUID"):
        derive_key(Policy(2, 1, 4, 0x10), MASTER, MODES[1], NONCE)
    with pytest.raises(CryptoError, match="the nonce is 15 bytes"):
        derive_key(Policy(2, 1, 4), MASTER, MODES[1], NONCE[:15])

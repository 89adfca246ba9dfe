"""crypto_api.fscrypt.policy: the compact spelling, and every refusal of the
kernel's fscrypt_supported_policy() as one EINVAL naming what is wrong."""

import errno

import pytest

from crypto_api.errors import CryptoError
from crypto_api.fscrypt import MODES, Policy

from fscrypt_cases import POLICIES


@pytest.mark.parametrize("policy", POLICIES, ids=Policy.describe)
def test_accepted_policies_parse_back(policy):
    assert Policy.parse(policy.describe()) == policy
    assert policy.check() is policy


def test_parse_flags_and_padding():
    p = Policy.parse("v2:1:4:pad16,iv_ino_lblk_64")
    assert (p.version, p.contents_mode, p.filenames_mode) == (2, 1, 4)
    assert p.padding == 16 and p.flags == 0x0A
    assert Policy.parse("1:9:9:direct_key").flags == 0x04
    assert Policy.parse("v2:1:4").padding == 4
    assert Policy.parse("v2:1:10:0x3").padding == 32


def test_mode_table_sizes():
    # fs/crypto/keysetup.c's fscrypt_modes[]: key size, IV size per mode number
    assert {n: (m.keysize, m.ivsize) for n, m in MODES.items()} == {
        1: (64, 16), 4: (32, 16), 5: (16, 16), 6: (16, 16), 9: (32, 32), 10: (32, 32)}


@pytest.mark.parametrize("spec, words", [
    ("v2:3:4", ["unknown encryption mode number 3"]),
    ("v2:99:4", ["unknown encryption mode number 99"]),
    ("v2:7:8", ["SM4-XTS", "sm4"]),
    ("v2:10:10", ["AES-256-HCTR2", "filenames only"]),
    ("v2:4:4", ["AES-256-CTS-CBC", "filenames only"]),
    ("v1:1:10", ["AES-256-HCTR2", "not a valid v1 combination"]),
    ("v2:1:6", ["AES-128-CTS-CBC", "not a valid v2 combination"]),
    ("v2:5:4", ["AES-128-CBC-ESSIV", "not a valid v2 combination"]),
    ("v2:1:4:direct_key", ["direct_key needs the same contents and filenames mode"]),
    ("v2:5:6:direct_key", ["direct_key needs the same contents and filenames mode"]),
    ("v2:9:9:iv_ino_lblk_64", ["iv_ino_lblk_64", "AES-256-XTS contents", "Adiantum"]),
    ("v2:5:6:iv_ino_lblk_32", ["iv_ino_lblk_32", "AES-128-CBC-ESSIV"]),
    ("v1:1:4:iv_ino_lblk_64", ["0x8", "v1 policy"]),
    ("v2:1:4:iv_ino_lblk_64,iv_ino_lblk_32", ["mutually exclusive"]),
    ("v2:9:9:direct_key,iv_ino_lblk_64", ["mutually exclusive"]),
    ("v2:1:4:0x20", ["0x20", "not valid"]),
    ("v3:1:4", ["version 3"]),
    ("v2:1:4:pad64", ["unknown flag 'pad64'"]),
    ("v2:x:4", ["must be numbers"]),
    ("v2:1", ["VERSION:CONTENTS:FILENAMES"]),
])
def test_refused_policies(spec, words):
    with pytest.raises(CryptoError) as e:
        Policy.parse(spec)
    assert e.value.errno == errno.EINVAL
    for w in words:
        assert w in str(e.value)


def test_direct_key_only_with_adiantum_in_both_versions():
    # the only pair with one mode for both whose IV holds index and nonce (32 bytes)
    for version in (1, 2):
        assert Policy(version, 9, 9, 0x04).check().key_flag == 0x04
        for c, f in ((1, 4), (5, 6)):
            with pytest.raises(CryptoError, match="direct_key needs the same"):
                Policy(version, c, f, 0x04).check()

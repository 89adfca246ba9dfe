"""The policies the fscrypt tests run: every mode pair the kernel accepts
with every key-derivation flag it allows for that pair."""

from crypto_api.fscrypt.policy import Policy

PAIRS = {1: [(1, 4), (5, 6), (9, 9)], 2: [(1, 4), (5, 6), (9, 9), (1, 10)]}
FLAGS = {"none": 0x00, "direct_key": 0x04, "iv_ino_lblk_64": 0x08, "iv_ino_lblk_32": 0x10}


def _allowed(version, contents, filenames, flag):
    if flag == 0x04:
        return contents == filenames == 9
    if flag in (0x08, 0x10):
        return version == 2 and contents == 1
    return True


POLICIES = [Policy(v, c, f, flag | pad)
            for v, pairs in PAIRS.items() for c, f in pairs
            for flag in FLAGS.values() if _allowed(v, c, f, flag)
            for pad in (0, 3)]

MASTER = bytes(range(1, 65))                          # xfstests' TEST_RAW_KEY
NONCE = bytes.fromhex("00112233445566778899aabbccddeeff")
UUID = bytes.fromhex("b0a9a1c6f4b34bbc8e1a4d27c3f1e2d5")
INO = 0x1234


def inode_args(policy):
    """(ino, uuid) for the IV_INO_LBLK policies, else (None, None)."""
    return (INO, UUID) if policy.flags & 0x18 else (None, None)

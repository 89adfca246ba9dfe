"""``crypto-api enc`` / ``dec`` with ``authenc(hmac(sha256),cbc(aes))`` (tools/aead_crypt.py's in-memory path).

The key file holds the authenc key blob (rtattr ‖ HMAC key ‖ AES key), the
IV is the CBC IV, ``--taglen`` up to the 32-byte digest; the output is
checked against an independent construction (``cryptography``'s AES-CBC and
Python's HMAC over AD ‖ ciphertext), and a tampered AD is refused with one
line and no output.
"""

import hashlib
import hmac
import os

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from crypto_api.algs.authenc import authenc_key
from enc_cli import assert_one_line_error, cli
from kernel_names import instance

AUTHKEY, ENCKEY, IV = b"h" * 32, bytes(range(32)), bytes(range(16, 32))


@pytest.mark.parametrize("cipher", ["authenc(hmac(sha256),cbc(aes))",
                                    instance("authenc(hmac(sha256-generic),cbc(aes-generic))")])
@pytest.mark.parametrize("taglen", [12, 32])
def test_enc_dec_match_cbc_then_hmac(tmp_path, cipher, taglen):
    (tmp_path / "key").write_bytes(authenc_key(AUTHKEY, ENCKEY))
    data, aad = os.urandom(16 * 40), os.urandom(20)
    (tmp_path / "in").write_bytes(data)
    common = ["-c", cipher, "--keyfile", str(tmp_path / "key"), "--iv", IV.hex(), "--aad", aad.hex(),
              "--taglen", str(taglen)]
    p = cli(["enc", *common, "-i", str(tmp_path / "in"), "-o", str(tmp_path / "ct")])
    assert p.returncode == 0 and p.stderr == b"", p.stderr
    enc = Cipher(algorithms.AES(ENCKEY), modes.CBC(IV)).encryptor()
    ct = enc.update(data) + enc.finalize()
    tag = hmac.new(AUTHKEY, aad + ct, hashlib.sha256).digest()[:taglen]
    assert (tmp_path / "ct").read_bytes() == ct + tag
    p = cli(["dec", *common, "-i", str(tmp_path / "ct"), "-o", str(tmp_path / "pt")])
    assert p.returncode == 0 and (tmp_path / "pt").read_bytes() == data, p.stderr
    bad = ["-c", cipher, "--keyfile", str(tmp_path / "key"), "--iv", IV.hex(),
           "--aad", bytes([aad[0] ^ 1]).hex() + aad[1:].hex(), "--taglen", str(taglen)]
    p = cli(["dec", *bad, "-i", str(tmp_path / "ct"), "-o", str(tmp_path / "pt2")])
    assert_one_line_error(p, "EBADMSG", "nothing written")
    assert not (tmp_path / "pt2").exists()

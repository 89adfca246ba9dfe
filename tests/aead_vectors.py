"""The AEAD vector files (rfc7539-chacha20poly1305.json, aes-gcm.json) as the
AEAD tests use them: ``unhex`` decodes the byte fields a vector has, ``check_vector``
runs one through a tfm's one-call methods in the kernel's layout with the
vector's tag length (a valid vector both ways, an invalid one refused with
EBADMSG)."""

import pytest

import crypto_api as capi
from crypto_api.errors import EBADMSG

BYTE_FIELDS = ("kernel_key", "kernel_iv", "kernel_assoc", "plaintext", "kernel_ctext",
               "ciphertext", "tag", "aad", "nonce", "key")


def unhex(v):
    return {k: bytes.fromhex(v[k]) for k in BYTE_FIELDS if k in v}


def check_vector(tfm, vec):
    b = unhex(vec)
    tfm.setkey(b["kernel_key"])
    tfm.setauthsize(len(b["kernel_ctext"]) - len(b["plaintext"]))     # GCM: 4..16
    if vec["valid"]:
        assert tfm.encrypt(b["plaintext"], b["kernel_iv"], b["kernel_assoc"]) == b["kernel_ctext"]
        assert tfm.decrypt(b["kernel_ctext"], b["kernel_iv"], b["kernel_assoc"]) == b["plaintext"]
    else:
        with pytest.raises(capi.CryptoError) as e:
            tfm.decrypt(b["kernel_ctext"], b["kernel_iv"], b["kernel_assoc"])
        assert e.value.errno == EBADMSG

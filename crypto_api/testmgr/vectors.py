"""Test vectors as data (the role of crypto/testmgr.h).

The official vectors ship as JSON in ``crypto_api/testmgr/vectors``; this
module turns them into kernel-shaped test vectors: :class:`CipherTestvec`
(key, iv, ptext, ctext), :class:`HashTestvec` (key, plaintext, digest) and
:class:`AeadTestvec` (key, iv, assoc, ptext, ctext = ciphertext ‖ tag).
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Optional, Tuple

import attrs

from ..version_rules import rule


@attrs.frozen
class CipherTestvec:
    id: str
    key: bytes
    iv: bytes
    ptext: bytes
    ctext: bytes
    setkey_error: int = 0
    crypt_error: int = 0


@attrs.frozen
class HashTestvec:
    id: str
    key: bytes
    plaintext: bytes
    digest: bytes
    setkey_error: int = 0
    digest_error: int = 0


@attrs.frozen
class AeadTestvec:
    """An AEAD vector in the 5.1+ testmgr form (``struct aead_testvec``).

    ``ctext`` includes the tag, so ``authsize = len(ctext) - len(ptext)``;
    ``novrfy``: decryption must fail with EBADMSG (encryption is skipped).
    """

    id: str
    key: bytes
    iv: bytes
    assoc: bytes
    ptext: bytes
    ctext: bytes
    novrfy: bool = False
    setkey_error: int = 0
    setauthsize_error: int = 0
    crypt_error: int = 0

    @property
    def authsize(self) -> int:
        return len(self.ctext) - len(self.ptext)


def _hex(s: Optional[str]) -> bytes:
    return bytes.fromhex(s or "")


@functools.lru_cache(maxsize=None)
def load_json(filename: str) -> dict:
    """One vector file of the package, parsed."""
    ref = resources.files("crypto_api.testmgr").joinpath("vectors", filename)
    return json.loads(ref.read_text(encoding="utf-8"))


def _stream(filename: str, kernel_only: bool = False) -> Tuple[CipherTestvec, ...]:
    """Vectors with a ``kernel_iv``; ``kernel_only`` keeps those marked ``kernel_compatible``."""
    return tuple(CipherTestvec(v["id"], _hex(v["key"]), _hex(v["kernel_iv"]),
                               _hex(v["plaintext"]), _hex(v["ciphertext"]))
                 for v in load_json(filename)["vectors"] if not kernel_only or v["kernel_compatible"])


def _aes() -> Tuple[CipherTestvec, ...]:
    return tuple(CipherTestvec(v["id"], _hex(v["key"]), b"", _hex(v["plaintext"]), _hex(v["ciphertext"]))
                 for v in load_json("aes.json")["vectors"])


def _xts_aes() -> Tuple[CipherTestvec, ...]:
    """IEEE 1619 vectors (the kernel's five among them) and one NIST record per
    data-unit length (the ciphertext-stealing ones included); the test suite
    runs every vector of the file.  Under a kernel whose xts has no ciphertext
    stealing (before 5.4: crypto_api.version_rules ``xts.stealing``) only the
    whole-block ones (v5.0's testmgr had no stealing vectors)."""
    whole_only = rule("xts.stealing", "stealing") != "stealing"
    seen = set()
    out = []
    for v in load_json("aes-xts.json")["vectors"]:
        n = (len(v["key"]), len(v["plaintext"]))
        if whole_only and len(v["plaintext"]) % 32:     # hex digits: 16 bytes a block
            continue
        if v["source"].startswith("ieee1619") or n not in seen:
            seen.add(n)
            out.append(CipherTestvec(v["id"], _hex(v["key"]), _hex(v["kernel_iv"]),
                                     _hex(v["plaintext"]), _hex(v["ciphertext"])))
    return tuple(out)


def _aes_modes(kernel_alg: str, filename: str = "aes-modes.json") -> Tuple[CipherTestvec, ...]:
    return tuple(CipherTestvec(v["id"], _hex(v["key"]), _hex(v["iv"]), _hex(v["plaintext"]),
                               _hex(v["ciphertext"]))
                 for v in load_json(filename)["vectors"] if v["kernel_alg"] == kernel_alg)


def _aria(mode: str) -> Tuple[CipherTestvec, ...]:
    """RFC 5794's single blocks (``block``) or the kernel's cbc/ctr(aria) vectors."""
    return tuple(CipherTestvec(v["id"], _hex(v["key"]), _hex(v["iv"]), _hex(v["plaintext"]),
                               _hex(v["ciphertext"]))
                 for v in load_json("aria.json")["vectors"] if v["mode"] == mode)


def _sha256(kernel_alg: str) -> Tuple[HashTestvec, ...]:
    return _digests("sha256.json", kernel_alg)


def _digests(filename: str, kernel_alg: str) -> Tuple[HashTestvec, ...]:
    """The vectors of one hash (``kernel_alg``) in a file of message/digest
    records; a ``key`` field, where present, is the (HMAC) key."""
    return tuple(HashTestvec(v["id"], _hex(v.get("key")), _hex(v["message"]), _hex(v["digest"]))
                 for v in load_json(filename)["vectors"] if v["kernel_alg"] == kernel_alg)


def _poly1305() -> Tuple[HashTestvec, ...]:
    return tuple(HashTestvec(v["id"], b"", _hex(v["kernel_plaintext"]), _hex(v["digest"]))
                 for v in load_json("poly1305.json")["vectors"])


def _nhpoly1305() -> Tuple[HashTestvec, ...]:
    return tuple(HashTestvec(v["id"], _hex(v["key"]), _hex(v["message"]), _hex(v["digest"]))
                 for v in load_json("nhpoly1305.json")["vectors"])


def _polyval() -> Tuple[HashTestvec, ...]:
    return tuple(HashTestvec(v["id"], _hex(v["key"]), _hex(v["message"]), _hex(v["digest"]))
                 for v in load_json("polyval.json")["vectors"])


def _with_iv(filename: str) -> Tuple[CipherTestvec, ...]:
    """Every vector of a file whose IV field is ``iv``."""
    return tuple(CipherTestvec(v["id"], _hex(v["key"]), _hex(v["iv"]), _hex(v["plaintext"]),
                               _hex(v["ciphertext"]))
                 for v in load_json(filename)["vectors"])


def _aead(filename: str, kernel_alg: str) -> Tuple[AeadTestvec, ...]:
    """The vectors of one kernel template, in the kernel's form; invalid ones are ``novrfy``."""
    return tuple(AeadTestvec(v["id"], _hex(v["kernel_key"]), _hex(v["kernel_iv"]),
                             _hex(v["kernel_assoc"]), _hex(v["plaintext"]), _hex(v["kernel_ctext"]),
                             novrfy=not v["valid"])
                 for v in load_json(filename)["vectors"] if v["kernel_alg"] == kernel_alg)


def _ghash() -> Tuple[HashTestvec, ...]:
    return tuple(HashTestvec(v["id"], _hex(v["key"]), _hex(v["message"]), _hex(v["digest"]))
                 for v in load_json("ghash.json")["vectors"])


def _gcm_aes() -> Tuple[AeadTestvec, ...]:
    """The NIST records marked ``testmgr`` (the test suite runs all of them)."""
    keep = {v["id"] for v in load_json("aes-gcm.json")["vectors"] if v["testmgr"]}
    return tuple(v for v in _aead("aes-gcm.json", "gcm(aes)") if v.id in keep)


_SUITES = {
    "chacha20": lambda: _stream("chacha20.json"),
    "xchacha12": lambda: _stream("xchacha12.json"),
    "xchacha20": lambda: _stream("xchacha20.json"),
    "adiantum(xchacha12,aes)": lambda: _stream("adiantum-xchacha12-aes.json", kernel_only=True),
    "adiantum(xchacha20,aes)": lambda: _stream("adiantum-xchacha20-aes.json", kernel_only=True),
    "ecb(aes)": _aes,
    "cbc(aes)": lambda: _aes_modes("cbc(aes)"),
    "ctr(aes)": lambda: _aes_modes("ctr(aes)"),
    "rfc3686(ctr(aes))": lambda: _aes_modes("rfc3686(ctr(aes))"),
    "essiv(cbc(aes),sha256)": lambda: _aes_modes("essiv(cbc(aes),sha256)", "essiv-aes-cbc.json"),
    "cts(cbc(aes))": lambda: tuple(CipherTestvec(v["id"], _hex(v["key"]), _hex(v["iv"]), _hex(v["plaintext"]),
                                                 _hex(v["ciphertext"]))
                                   for v in load_json("cts-aes-cbc.json")["vectors"]),
    "xts(aes)": _xts_aes,
    "ecb(aria)": lambda: _aria("block"),
    "cbc(aria)": lambda: _aria("cbc"),
    "ctr(aria)": lambda: _aria("ctr"),
    "sha224": lambda: _sha256("sha224"),
    "sha256": lambda: _sha256("sha256"),
    "sha1": lambda: _digests("sha1.json", "sha1"),
    "sha384": lambda: _digests("sha512.json", "sha384"),
    "sha512": lambda: _digests("sha512.json", "sha512"),
    "hmac(sha1)": lambda: _digests("hmac.json", "hmac(sha1)"),
    "hmac(sha224)": lambda: _digests("hmac.json", "hmac(sha224)"),
    "hmac(sha256)": lambda: _digests("hmac.json", "hmac(sha256)"),
    "hmac(sha384)": lambda: _digests("hmac.json", "hmac(sha384)"),
    "hmac(sha512)": lambda: _digests("hmac.json", "hmac(sha512)"),
    "poly1305": _poly1305,
    "nhpoly1305": _nhpoly1305,
    "polyval": _polyval,
    "xctr(aes)": lambda: _with_iv("aes-xctr.json"),
    "hctr2(aes)": lambda: _stream("aes-hctr2.json"),
    "ghash": _ghash,
    "gcm(aes)": _gcm_aes,
    "rfc4106(gcm(aes))": lambda: _aead("aes-gcm-rfc4106.json", "rfc4106(gcm(aes))"),
    "rfc4543(gcm(aes))": lambda: _aead("aes-gcm-rfc4543.json", "rfc4543(gcm(aes))"),
    **{f"authenc(hmac({h}),cbc(aes))": functools.partial(_aead, "authenc-aes-cbc.json",
                                                          f"authenc(hmac({h}),cbc(aes))")
       for h in ("sha1", "sha256", "sha512")},
    "essiv(authenc(hmac(sha256),cbc(aes)),sha256)":
        lambda: _aead("essiv-authenc-aes-cbc.json", "essiv(authenc(hmac(sha256),cbc(aes)),sha256)"),
    "rfc7539(chacha20,poly1305)":
        lambda: _aead("rfc7539-chacha20poly1305.json", "rfc7539(chacha20,poly1305)"),
    "rfc7539esp(chacha20,poly1305)":
        lambda: _aead("rfc7539-chacha20poly1305.json", "rfc7539esp(chacha20,poly1305)"),
}


def _aes_ecb_skcipher() -> Tuple[CipherTestvec, ...]:
    """``ecb(aes)`` as an skcipher: the multi-block records and the kernel's
    own single blocks (all 1103 run through the cipher and the test suite)."""
    return tuple(CipherTestvec(v["id"], _hex(v["key"]), b"", _hex(v["plaintext"]), _hex(v["ciphertext"]))
                 for v in load_json("aes.json")["vectors"]
                 if v["mode"] == "ecb" or "linux-testmgr" in v["source"])


#: Entries whose vectors for the ecb skcipher differ from the cipher's.
_SKCIPHER_SUITES = {"ecb(aes)": _aes_ecb_skcipher}


@functools.lru_cache(maxsize=None)
def skcipher_suite(name: str) -> tuple:
    """The vectors of a "cipher" entry when its ecb skcipher is tested."""
    make = _SKCIPHER_SUITES.get(name)
    return make() if make is not None else suite(name)


@functools.lru_cache(maxsize=None)
def suite(name: str) -> tuple:
    """The vectors of a testmgr entry (by its alg name)."""
    return _SUITES[name]()

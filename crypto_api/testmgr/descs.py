"""The test descriptor table (``alg_test_descs[]`` in crypto/testmgr.c).

Sorted by ``alg`` in strcmp order and looked up by binary search; the order
is checked at first use.  ``generic_driver`` names the reference
implementation that full tests fuzz against; when absent it is derived by
appending ``-generic`` to every non-template component of the name.  A
chosen kernel version (crypto_api.kernels) may say otherwise through
:func:`set_version_entries`: an entry that version lacks, and the generic
driver its entry names ("" for none: no comparison in that version).
"""

from __future__ import annotations

import bisect
import logging
from typing import Optional, Tuple

import attrs

log = logging.getLogger("crypto_api")


@attrs.frozen
class AlgTestDesc:
    alg: str
    test: str                 # "skcipher", "hash", "cipher" or "aead"
    suite: str                # key of testmgr.vectors.suite
    generic_driver: Optional[str] = None
    fips_allowed: bool = False
    aad_iv: bool = False          # AEADs: the AD ends with a copy of the IV (IPsec forms)
    einval_allowed: bool = False  # AEADs: an inauthentic input may also give EINVAL


ALG_TEST_DESCS: Tuple[AlgTestDesc, ...] = (
    AlgTestDesc("adiantum(xchacha12,aes)", "skcipher", "adiantum(xchacha12,aes)",
                generic_driver="adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)"),
    AlgTestDesc("adiantum(xchacha20,aes)", "skcipher", "adiantum(xchacha20,aes)",
                generic_driver="adiantum(xchacha20-generic,aes-generic,nhpoly1305-generic)"),
    *(AlgTestDesc(f"authenc(hmac({h}),cbc(aes))", "aead", f"authenc(hmac({h}),cbc(aes))", fips_allowed=True)
      for h in ("sha1", "sha256", "sha512")),
    AlgTestDesc("cbc(aes)", "skcipher", "cbc(aes)", fips_allowed=True),
    AlgTestDesc("cbc(aria)", "skcipher", "cbc(aria)"),
    AlgTestDesc("chacha20", "skcipher", "chacha20"),
    AlgTestDesc("ctr(aes)", "skcipher", "ctr(aes)", fips_allowed=True),
    AlgTestDesc("ctr(aria)", "skcipher", "ctr(aria)"),
    AlgTestDesc("cts(cbc(aes))", "skcipher", "cts(cbc(aes))", fips_allowed=True),
    AlgTestDesc("ecb(aes)", "cipher", "ecb(aes)", fips_allowed=True),
    AlgTestDesc("ecb(aria)", "cipher", "ecb(aria)"),
    AlgTestDesc("essiv(authenc(hmac(sha256),cbc(aes)),sha256)", "aead",
                "essiv(authenc(hmac(sha256),cbc(aes)),sha256)", fips_allowed=True),
    AlgTestDesc("essiv(cbc(aes),sha256)", "skcipher", "essiv(cbc(aes),sha256)", fips_allowed=True),
    AlgTestDesc("gcm(aes)", "aead", "gcm(aes)", generic_driver="gcm_base(ctr(aes-generic),ghash-generic)",
                fips_allowed=True),
    AlgTestDesc("ghash", "hash", "ghash", fips_allowed=True),      # v5.0; dropped in 6.2
    AlgTestDesc("hctr2(aes)", "skcipher", "hctr2(aes)",
                generic_driver="hctr2_base(xctr(aes-generic),polyval-generic)"),
    AlgTestDesc("hmac(sha1)", "hash", "hmac(sha1)", fips_allowed=True),
    AlgTestDesc("hmac(sha224)", "hash", "hmac(sha224)", fips_allowed=True),
    AlgTestDesc("hmac(sha256)", "hash", "hmac(sha256)", fips_allowed=True),
    AlgTestDesc("hmac(sha384)", "hash", "hmac(sha384)", fips_allowed=True),
    AlgTestDesc("hmac(sha512)", "hash", "hmac(sha512)", fips_allowed=True),
    AlgTestDesc("nhpoly1305", "hash", "nhpoly1305"),
    AlgTestDesc("poly1305", "hash", "poly1305"),
    AlgTestDesc("polyval", "hash", "polyval"),
    AlgTestDesc("rfc3686(ctr(aes))", "skcipher", "rfc3686(ctr(aes))", fips_allowed=True),
    AlgTestDesc("rfc4106(gcm(aes))", "aead", "rfc4106(gcm(aes))",
                generic_driver="rfc4106(gcm_base(ctr(aes-generic),ghash-generic))",
                fips_allowed=True, aad_iv=True, einval_allowed=True),
    AlgTestDesc("rfc4543(gcm(aes))", "aead", "rfc4543(gcm(aes))",
                generic_driver="rfc4543(gcm_base(ctr(aes-generic),ghash-generic))",
                aad_iv=True, einval_allowed=True),
    AlgTestDesc("rfc7539(chacha20,poly1305)", "aead", "rfc7539(chacha20,poly1305)"),
    AlgTestDesc("rfc7539esp(chacha20,poly1305)", "aead", "rfc7539esp(chacha20,poly1305)",
                aad_iv=True, einval_allowed=True),
    AlgTestDesc("sha1", "hash", "sha1", fips_allowed=True),
    AlgTestDesc("sha224", "hash", "sha224", fips_allowed=True),
    AlgTestDesc("sha256", "hash", "sha256", fips_allowed=True),
    AlgTestDesc("sha384", "hash", "sha384", fips_allowed=True),
    AlgTestDesc("sha512", "hash", "sha512", fips_allowed=True),
    AlgTestDesc("xchacha12", "skcipher", "xchacha12"),
    AlgTestDesc("xchacha20", "skcipher", "xchacha20"),
    AlgTestDesc("xctr(aes)", "skcipher", "xctr(aes)"),
    AlgTestDesc("xts(aes)", "skcipher", "xts(aes)", generic_driver="xts(ecb(aes-generic))",
                fips_allowed=True),
)

_checked = False
_version_entry = None           # alg -> (present, generic driver name or None); see set_version_entries


def set_version_entries(entry) -> None:
    """Install ``entry(alg)``: None (the entry as this table has it) or
    ``(present, generic_driver)`` as the chosen kernel version had it
    (``generic_driver`` None: derived; "": no comparison)."""
    global _version_entry
    _version_entry = entry


def _version(alg: str):
    return _version_entry(alg) if _version_entry is not None else None


def check_order(descs=ALG_TEST_DESCS) -> bool:
    """Warn about entries out of strcmp order or duplicated; True if sorted."""
    ok = True
    for a, b in zip(descs, descs[1:]):
        ka, kb = a.alg.encode(), b.alg.encode()
        if ka == kb:
            log.warning("testmgr: duplicate alg_test_descs entry: %s", a.alg)
            ok = False
        elif ka > kb:
            log.warning("testmgr: alg_test_descs entries in wrong order: '%s' before '%s'", a.alg, b.alg)
            ok = False
    return ok


def find_test(alg: str) -> Optional[AlgTestDesc]:
    global _checked
    if not _checked:
        check_order()
        _checked = True
    keys = [d.alg.encode() for d in ALG_TEST_DESCS]
    i = bisect.bisect_left(keys, alg.encode())
    if i < len(keys) and keys[i] == alg.encode():
        ruled = _version(alg)
        return ALG_TEST_DESCS[i] if ruled is None or ruled[0] else None
    return None


def generic_driver_name(alg: str, desc: Optional[AlgTestDesc]) -> str:
    """The reference driver: the chosen version's, the entry's, or every leaf
    name + ``-generic``; "" where the chosen version compares with none."""
    ruled = _version(alg)
    if ruled is not None and ruled[1] is not None:
        return ruled[1]
    if desc is not None and desc.generic_driver:
        return desc.generic_driver
    out, token = [], ""
    for c in alg:
        if c in "(),":
            if token:
                out.append(token if c == "(" else token + "-generic")
            out.append(c)
            token = ""
        else:
            token += c
    if token:
        out.append(token + "-generic")
    return "".join(out)

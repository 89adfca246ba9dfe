"""Fuzz target: the template-name parser and allocation by arbitrary names.

No kernel counterpart (crypto/algboss.c's cryptomgr_schedule_probe parses
the same names).  One input is a name built from known pieces (template and
algorithm names, driver suffixes, parentheses, commas, digits) and odd
characters (junk after ``)``, NUL, spaces, non-ASCII).  The parser must return
or raise ValueError, nothing else; what it returns must come back from
the name rebuilt from it.  Allocating the name as a skcipher, AEAD, hash
or cipher must give a transform that answers to that name, or a
CryptoError (TypeError for a non-str) with a message, and must leave no
larval behind.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api import CryptoError, registry
from crypto_api.template import CryptoAttrU32

from fuzz_input import FuzzInput

PIECES = ["adiantum(", "xchacha12", "xchacha20", "chacha20", "aes", "aria", "nhpoly1305", "poly1305",
          "cbc(", "ctr(", "ecb(", "xts(", "essiv(", "rfc7539(", "rfc7539esp(", "cryptd(", "sha256",
          "-generic", "-simd", "-aesni", "(", ")", ",", "0", "012", "4294967296", "x", "-", "_",
          "\0", " ", "é", "))", ",,", ")junk",
          "hmac(", "cts(", "gcm(", "gcm_base(", "rfc4106(", "rfc4543(", "xctr(", "hctr2(", "hctr2_base(",
          "ghash", "polyval", "sha512", "sha1", "authenc(", "authencesn(", "polyval-lib"]
ALLOCATORS = (capi.crypto_alloc_skcipher, capi.crypto_alloc_aead, capi.crypto_alloc_shash,
              capi.crypto_alloc_cipher)


def _rebuilt(tname: str, params: list) -> str:
    return f"{tname}({','.join(str(p.num) if isinstance(p, CryptoAttrU32) else p.name for p in params)})"


def check(data: bytes) -> None:
    fi = FuzzInput(data)
    name = "".join(fi.choice(PIECES) for _ in range(fi.uint(14)))
    try:
        tname, params = capi.parse_template_name(name)
    except ValueError as e:
        if not str(e):
            raise AssertionError(f"{name!r}: ValueError without a message")
    else:
        if not name.startswith(tname + "(") or not 1 <= len(params) <= 32:
            raise AssertionError(f"{name!r}: parsed as {tname!r} with {len(params)} parameters")
        again = capi.parse_template_name(_rebuilt(tname, params))
        if again != (tname, params):
            raise AssertionError(f"{name!r}: parsed as {(tname, params)}, its rebuilt name as {again}")
    alloc = fi.choice(ALLOCATORS)
    try:
        tfm = alloc(name)
    except CryptoError as e:
        if not str(e):
            raise AssertionError(f"{alloc.__name__}({name!r}): CryptoError without a message")
    else:
        try:
            # a cryptd instance keeps its child's cra_name (crypto/cryptd.c): only
            # its driver name says cryptd
            kept_name = name.startswith("cryptd(") and tfm.alg.cra_driver_name.startswith("cryptd(")
            if name not in (tfm.alg.cra_name, tfm.alg.cra_driver_name) and not kept_name:
                raise AssertionError(f"{alloc.__name__}({name!r}) gave {tfm.alg.cra_driver_name} "
                                     f"({tfm.alg.cra_name})")
        finally:
            tfm.free()
    larvals = [a.cra_name for a in registry.snapshot() if a.is_larval]
    if larvals:
        raise AssertionError(f"{alloc.__name__}({name!r}) left larvals behind: {larvals}")

"""Fuzz target: the cryptsetup / dm-crypt cipher-specification parser.

No kernel counterpart (drivers/md/dm-crypt.c's crypt_ctr_cipher parses the
same strings).  One input is a specification built from known pieces (cipher
and chain-mode names, IV modes with and without options, ``capi:``, key
counts, separators) and odd characters, sometimes past the length limit.
:func:`parse_cipher_spec` must return a :class:`CipherSpec` or refuse with
CryptoError(EINVAL) naming the specification; what it returns must be a valid
algorithm name and come back the same from its ``capi:`` form.  A
:class:`VolumeCipher` of an accepted specification is built or refused with
a CryptoError.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api import CryptoError
from crypto_api.dmcrypt.cipher_spec import parse_cipher_spec
from crypto_api.errors import EINVAL
from crypto_api.registry import check_name

from fuzz_input import FuzzInput

PIECES = ["aes", "xchacha12", "xchacha20", "aria", ",", "-", "adiantum", "xts", "cbc", "ecb", "ctr",
          "plain", "plain64", "essiv", ":", "sha256", "essiv:sha256", "capi:", "(", ")", "benbi",
          ":1", ":2", "-generic", "-simd", "cbc(aes)", "adiantum(xchacha12,aes)", " ", "\0", "é", "x" * 60]


def check(data: bytes) -> None:
    fi = FuzzInput(data)
    spec = "".join(fi.choice(PIECES) for _ in range(fi.uint(16)))
    try:
        parsed = parse_cipher_spec(spec)
    except CryptoError as e:
        if e.errno != EINVAL:
            raise AssertionError(f"{spec!r}: refused with errno {e.errno}, not EINVAL: {e}")
        if repr(spec[:20])[1:-1] not in str(e):
            raise AssertionError(f"{spec!r}: the refusal does not name the specification: {e}")
        return
    check_name(parsed.algorithm)
    again = parse_cipher_spec(parsed.capi)
    if (again.algorithm, again.ivmode) != (parsed.algorithm, parsed.ivmode):
        raise AssertionError(f"{spec!r}: {parsed}, but its capi form gives {again}")
    if fi.flag():
        try:
            capi.VolumeCipher(spec, fi.blob(64), allow_unsafe=True).close()
        except CryptoError as e:
            if not str(e):
                raise AssertionError(f"VolumeCipher({spec!r}): CryptoError without a message")

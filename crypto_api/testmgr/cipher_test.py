"""Single-block cipher self-tests (test_cipher in crypto/testmgr.c).

The ``ecb(<name>)`` vectors are applied block by block through
encrypt_one/decrypt_one, in both directions.
"""

from __future__ import annotations

from ..errors import CryptoError
from .failure import fail


def test_cipher(tfm, vecs) -> None:
    driver = tfm.alg.cra_driver_name
    bs = tfm.blocksize
    for i, vec in enumerate(vecs):
        try:
            tfm.setkey(vec.key)
        except CryptoError as e:
            if e.errno == vec.setkey_error:
                continue
            fail(f"alg: cipher: {driver} setkey failed on test vector {i}; flags={tfm.crt_flags:#x}", e.errno)
        for encrypt in (True, False):
            inp, expected = (vec.ptext, vec.ctext) if encrypt else (vec.ctext, vec.ptext)
            if len(inp) % bs:
                fail(f"alg: cipher: {driver} test vector {i} is not a multiple of the block size {bs}")
            fn = tfm.encrypt_one if encrypt else tfm.decrypt_one
            out = b"".join(fn(inp[k:k + bs]) for k in range(0, len(inp), bs))
            if out != expected:
                op = "encryption" if encrypt else "decryption"
                fail(f"alg: cipher: Test {i} failed on {op} for {driver}")

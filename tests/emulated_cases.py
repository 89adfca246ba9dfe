"""What the emulated-machine tests run in their child interpreter: the NEON
sections a call opens, one AEAD request of a random case (its scatterlist
layouts from sglayout), one decryption of a tampered message and one split
keyed digest.  The parent side,
``arm64_emulation.run_json`` / ``run_cases``, sends a batch as JSON on stdin
and reads the results back the same way."""

import crypto_api as capi
from sglayout import gather, outside, scatter


def trace(fn):
    """``fn()`` and the [unit, nbytes] of each SIMD section it opened."""
    with capi.fpu_trace() as tr:
        res = fn()
    return res, [[s.unit, s.nbytes] for s in tr.sections]


def aead_case(tfm, c):
    """Key ``c``'s key and tag length into ``tfm``, run one request (IV
    ``c["nonce"]``) with src and dst scattered as ``c`` lays them out: [rc,
    the output after the AD region (hex), nothing outside dst's entries
    written, src untouched, dst's AD region untouched (zeros as laid out)]."""
    key, iv, ad, inp = (bytes.fromhex(c[k]) for k in ("key", "nonce", "ad", "inp"))
    tfm.setkey(key)
    tfm.setauthsize(c["authsize"])
    outlen = len(inp) + (c["authsize"] if c["encrypt"] else -c["authsize"])
    src, sbufs = scatter(ad + inp, c["src"], b"\x5a")
    dst, dbufs = scatter(bytes(len(ad) + outlen), c["dst"], b"\xa5")
    around = outside(dbufs, c["dst"])
    req = capi.aead_request_alloc(tfm)
    capi.aead_request_set_crypt(req, src, dst, len(inp), bytearray(iv))
    capi.aead_request_set_ad(req, len(ad))
    rc = (capi.crypto_aead_encrypt if c["encrypt"] else capi.crypto_aead_decrypt)(req)
    out = gather(dbufs, c["dst"])
    return [rc, out[len(ad):].hex(), outside(dbufs, c["dst"]) == around, gather(sbufs, c["src"]) == ad + inp,
            out[:len(ad)] == bytes(len(ad))]


def tampered_decrypt(tfm, sealed, ad, iv, part, pos):
    """Flip bit 4 of byte ``pos`` of the ``part`` ("tag" or "text": of
    ``sealed``; "assoc": of ``ad``) and decrypt it out of place into a dst
    filled with 0xee: [errno (0 if accepted), message, dst's AD region
    untouched, dst's text region (hex)]."""
    ct, a = bytearray(sealed), bytearray(ad)
    (a if part == "assoc" else ct)[pos] ^= 0x10
    textlen = len(ct) - tfm.authsize
    src = bytearray(a + ct)
    dst = bytearray(b"\xee" * (len(a) + textlen))
    req = capi.aead_request_alloc(tfm)
    capi.aead_request_set_crypt(req, capi.sg_init_one(src), capi.sg_init_one(dst), len(ct), bytearray(iv))
    capi.aead_request_set_ad(req, len(a))
    try:
        capi.crypto_aead_decrypt(req)
        res = [0, ""]
    except capi.CryptoError as err:
        res = [err.errno, err.message]
    return res + [bytes(dst[:len(a)]) == b"\xee" * len(a), bytes(dst[len(a):]).hex()]


def split_digest(tfm, c):
    """The digest (hex) of ``c``'s input under ``c``'s key (a keyed shash:
    GHASH, POLYVAL), updated in the pieces ``c["cuts"]`` makes."""
    key, data = bytes.fromhex(c["key"]), bytes.fromhex(c["inp"])
    tfm.setkey(key)
    d = tfm.desc()
    d.init()
    pos = 0
    for n in c["cuts"] + [len(data)]:
        d.update(data[pos:n])
        pos = n
    return d.final().hex()

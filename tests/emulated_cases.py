"""What the emulated-machine tests run in their child interpreter: the NEON
sections a call opens, one AEAD request of a random case (its scatterlist
layouts from sglayout) and one split GHASH digest.  The parent side,
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
    written, src untouched]."""
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
    return [rc, gather(dbufs, c["dst"])[len(ad):].hex(), outside(dbufs, c["dst"]) == around,
            gather(sbufs, c["src"]) == ad + inp]


def ghash_case(tfm, c):
    """The digest (hex) of ``c``'s input under ``c``'s key, updated in the pieces ``c["cuts"]`` makes."""
    key, data = bytes.fromhex(c["key"]), bytes.fromhex(c["inp"])
    tfm.setkey(key)
    d = tfm.desc()
    d.init()
    pos = 0
    for n in c["cuts"] + [len(data)]:
        d.update(data[pos:n])
        pos = n
    return d.final().hex()

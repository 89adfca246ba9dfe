"""What the emulated-machine tests run in their child interpreter: the NEON
sections a call opens (of an skcipher request over a scatterlist layout too), one skcipher
request of a random case against a generic driver, the vectors an skcipher fails, one AEAD request of a random case (its scatterlist
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


def skcipher_sections(tfm, layout, encrypt=True):
    """The [unit, nbytes] of each SIMD section one request of ``tfm`` opens
    over zeros scattered as ``layout`` (src and dst alike, a zero IV); every
    section must have been closed."""
    n = sum(length for _, length in layout)
    src, _ = scatter(bytes(n), layout, b"\x00")
    dst, _ = scatter(bytes(n), layout, b"\x00")
    req = capi.skcipher_request_alloc(tfm)
    capi.skcipher_request_set_crypt(req, src, dst, n, bytearray(tfm.ivsize))
    op = capi.crypto_skcipher_encrypt if encrypt else capi.crypto_skcipher_decrypt
    with capi.fpu_trace() as tr:
        op(req)
    assert all(s.closed for s in tr.sections)
    return [[s.unit, s.nbytes] for s in tr.sections]


def vector_failures(tfm, suite_file, iv_field="iv"):
    """The ids of the vectors of ``suite_file`` (testmgr/vectors) that ``tfm``
    does not both encrypt and decrypt right (one-call, the IV from ``iv_field``)."""
    from crypto_api.testmgr.vectors import load_json
    bad = []
    for v in load_json(suite_file)["vectors"]:
        k, iv, p, c = (bytes.fromhex(v[f]) for f in ("key", iv_field, "plaintext", "ciphertext"))
        tfm.setkey(k)
        if tfm.encrypt(p, iv) != c or tfm.decrypt(c, iv) != p:
            bad.append(v["id"])
    return bad


def scattered_request(tfm, c, data, iv):
    """One request of ``tfm`` (``c["encrypt"]``: encrypt, else decrypt) over
    ``data`` scattered as ``c["src"]`` into a dst scattered as ``c["dst"]``:
    [rc, the output, the bytes around dst's entries unchanged, src unchanged,
    the IV buffer it left]."""
    src, sbufs = scatter(data, c["src"], b"\x5a")
    dst, dbufs = scatter(bytes(len(data)), c["dst"], b"\xa5")
    around = outside(dbufs, c["dst"])
    req = capi.skcipher_request_alloc(tfm)
    ivbuf = bytearray(iv)
    capi.skcipher_request_set_crypt(req, src, dst, len(data), ivbuf)
    rc = (capi.crypto_skcipher_encrypt if c["encrypt"] else capi.crypto_skcipher_decrypt)(req)
    return [rc, gather(dbufs, c["dst"]), outside(dbufs, c["dst"]) == around, gather(sbufs, c["src"]) == data,
            ivbuf]


def skcipher_case(tfm, generic, c):
    """Key ``tfm`` and ``generic`` with ``c``'s key, en- or decrypt ``c``'s
    data under its IV through ``generic`` (one call) and through ``tfm`` (a
    request from src scattered as ``c["src"]`` into dst as ``c["dst"]``):
    [rc, tfm's result (hex), generic's (hex), the bytes around dst's
    entries unchanged, src and the IV unchanged]."""
    key, iv, data = (bytes.fromhex(c[k]) for k in ("key", "iv", "data"))
    tfm.setkey(key)
    generic.setkey(key)
    want_generic = (generic.encrypt if c["encrypt"] else generic.decrypt)(data, iv).hex()
    rc, out, around_ok, src_ok, ivbuf = scattered_request(tfm, c, data, iv)
    return [rc, out.hex(), want_generic, around_ok, src_ok and bytes(ivbuf) == iv]


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

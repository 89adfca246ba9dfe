"""Fuzz target: the AEAD drivers (ChaCha20-Poly1305, GCM and its ESP forms) against the generic form.

No kernel counterpart (crypto/testmgr.c's test_aead_vs_generic_impl).  One
input picks a pair (pairs.AEADS: RFC 7539 or its ESP form, GCM, rfc4106 or
rfc4543 over the x86 GCM drivers, authenc and authencesn over the x86 HMAC
and CBC drivers with their rtattr key), a key and an authsize (valid, or not:
both refuse alike), an IV, associated data (for the ESP forms of GCM mostly
the 16 or 20 bytes they accept) and a message; it encrypts, or decrypts the
reference's ciphertext with maybe one bit flipped (both must refuse with
EBADMSG), through the one-call path in one buffer form and through a request
over random scatterlists.
"""

from __future__ import annotations

import crypto_api as capi

from crypto_api.algs.authenc import authenc_key

from buffers import run_direct, run_request
from fuzz_input import FuzzInput
from pairs import AEADS, pick, outcome, raise_status, same_outcome

#: past two of the one-pass driver's 4 KiB IFMA chunks (where the CPU has
#: AVX512_IFMA, texts of 4 KiB or more take that sweep) plus a tail
MAX_LEN = 2 * 4096 + 300


def _request(tfm, encrypt: bool, iv: bytes, assoclen: int, cryptlen: int):
    def submit(src, dst):
        wait = capi.crypto_init_wait()
        req = capi.aead_request_alloc(tfm)
        capi.aead_request_set_callback(req, 0, capi.crypto_req_done, wait)
        capi.aead_request_set_crypt(req, src, dst, cryptlen, bytearray(iv))
        capi.aead_request_set_ad(req, assoclen)
        op = capi.crypto_aead_encrypt if encrypt else capi.crypto_aead_decrypt
        raise_status(tfm, capi.crypto_wait_req(op(req) or 0, wait))
    return submit


def check(data: bytes) -> None:
    fi = FuzzInput(data)
    picked = pick(fi, AEADS, capi.crypto_alloc_aead)
    if picked is None:
        return
    _, drv_name, ref, drv = picked
    authenc = drv_name.startswith("authenc")
    if authenc:                                     # the rtattr key of crypto/authenc.c, parts drawn
        authkey = fi.blob(fi.choice((20, 32, 64, fi.uint(80))))
        key = authenc_key(authkey, fi.blob(fi.choice((16, 32, fi.uint(40)))))
        keylen = len(key)
    else:
        keylen = fi.choice((32, 36, 32, 36, fi.uint(48)))
        key = fi.blob(keylen)
    if same_outcome(f"{drv_name} setkey({keylen} bytes)",
                    lambda: ref.setkey(key) or b"", lambda: drv.setkey(key) or b"") is None:
        return
    authsize = fi.choice((16, 16, fi.uint(20)))
    if same_outcome(f"{drv_name} setauthsize({authsize})", lambda: ref.setauthsize(authsize) or b"",
                    lambda: drv.setauthsize(authsize) or b"") is None:
        return
    iv = fi.blob(ref.ivsize)
    esp_gcm = drv_name.startswith(("rfc4106", "rfc4543"))
    assoc = fi.blob(fi.choice((16, 20, fi.length(64))) if esp_gcm else fi.length(64))
    msglen = fi.length(MAX_LEN)
    if authenc and fi.flag():                       # CBC: mostly whole blocks (the rest refused alike)
        msglen -= msglen % 16
    msg = fi.blob(msglen)
    encrypt = fi.flag()
    if not encrypt:
        msg, refused = outcome(lambda: ref.encrypt(msg, iv, assoc))
        if refused:
            return                                  # the encrypt side compares refusals
        if msg and fi.flag():                       # a forgery: one bit flipped
            pos = fi.uint(len(msg) - 1)
            msg = msg[:pos] + bytes([msg[pos] ^ (1 << fi.uint(7))]) + msg[pos + 1:]
    outlen = len(msg) + authsize if encrypt else max(0, len(msg) - authsize)
    what = f"{drv_name} {'encrypt' if encrypt else 'decrypt'} {len(msg)} bytes, {len(assoc)} of AD"
    ref_op = ref.encrypt if encrypt else ref.decrypt
    drv_op = drv.encrypt if encrypt else drv.decrypt
    want = same_outcome(what, lambda: ref_op(msg, iv, assoc),
                        lambda: run_direct(fi, lambda d, out: drv_op(d, iv, assoc, out=out), msg, outlen))
    if want is None:
        return
    # the request path: AD then the message in src; dst's bytes after the AD are the output
    submit = _request(drv, encrypt, iv, len(assoc), len(msg))
    got = same_outcome(what + " (request)", lambda: want,
                       lambda: run_request(fi, submit, assoc + msg, len(assoc) + outlen)[len(assoc):])
    assert got == want

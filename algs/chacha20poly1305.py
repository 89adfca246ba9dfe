"""The ``rfc7539`` and ``rfc7539esp`` AEAD templates (crypto/chacha20poly1305.c, Linux v5.0).

``rfc7539(<chacha>,<poly>)`` is ChaCha20-Poly1305 as RFC 7539 defines it
(key 32 bytes, IV 12 bytes); ``rfc7539esp`` is its IPsec form (key 32 bytes
plus a 4-byte salt, IV 8 bytes, the AD ending with an 8-byte copy of the IV
that is not authenticated).  Each instance spawns a ChaCha20 skcipher (IV
16 bytes, block size 1) and a Poly1305 hash (16-byte digest) by name, so any
registered implementation slots in.  Names by kernel version (the rule
``rfc7539.instance`` of algs/kernel_rows.py): v5.0's ``cra_name`` repeats
the parameters as written in the request (so asking by driver names gives an
instance whose cra_name is those driver names, for which testmgr has no
test); from 5.2 it is built from the children's cra_names.  The driver name
comes from the children's driver names and the priority is the integer mean
of theirs.  From 6.16 the kernel hashes with the Poly1305 library: the second
parameter must be ``poly1305`` or ``poly1305-generic``, the driver name says
``poly1305-generic``, the priority is the ChaCha child's, and out of place
the AD is copied into dst.  Here the library's code is the best registered
``poly1305`` shash, spawned as before.  The composite registry keeps v5.0's
names.

The construction, with ``chacha_iv(c) = le32(c) ‖ salt ‖ nonce``: the
Poly1305 one-time key is the first 32 bytes of keystream block 0; the text
is en/decrypted from block 1; the tag is Poly1305 over
``pad16(AD) ‖ pad16(ciphertext) ‖ le64(|AD|) ‖ le64(|ciphertext|)``.  As in
the kernel, a request is a chain of steps, each of which issues at most one
sub-request to a child; a child that returns -EINPROGRESS/-EBUSY continues
the chain from its completion callback, and the AEAD request's own callback
then delivers the result.  With synchronous children the chain runs straight
through and the callback is never called.  Decryption computes the tag over
the ciphertext, decrypts, then compares: on EBADMSG the plaintext is already
in dst (kernel behaviour; the one-call ``tfm.decrypt`` never shows it).

Direct requests: over a synchronous ChaCha20 child, while no fpu_trace()
records, the same chain runs with less Python around it.  A ChaCha20
sub-request over one contiguous run per side goes to the child's one-call
method (same child, same bytes), small Poly1305 inputs are gathered into one
update, the descs are reused (wiped) from request to request, and the
one-call ``tfm.encrypt``/``decrypt`` on bytes run the chain straight from an
``AeadAlg.direct``.  A traced request keeps every sub-request and update
the kernel issues (tests/algs/test_chacha20poly1305_direct.py checks both).
"""

from __future__ import annotations

import hmac
from errno import EINPROGRESS
from typing import Any, Callable, List, Sequence

import crypto_api as capi
from crypto_api.aead import _wipe as wipe_bytearray  # the frontend's own wipe of its private result
from crypto_api.completion import ASYNC_PENDING
from crypto_api.errors import EBADMSG, EINVAL, CryptoError
from crypto_api.version_rules import rule
from crypto_api.scatterlist import (partly_overlapping, scatterwalk_ffwd, scatterwalk_map_and_copy,
                                    Scatterlist, sg_copy_from_bytes, sg_copy_to_bytes, sg_init_one, sg_pieces)

MODULE_NAME = "chacha20poly1305"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("rfc7539", "rfc7539esp")

CHACHA_KEY_SIZE = 32
CHACHA_IV_SIZE = 16
CHACHAPOLY_IV_SIZE = 12
POLY1305_KEY_SIZE = 32
POLY1305_DIGEST_SIZE = 16
ESP_IV_COPY = 8
_ZEROS = bytes(16)
_ZEROS32 = bytes(POLY1305_KEY_SIZE)
_PLAIN = (bytes, bytearray)
#: direct requests gather Poly1305 inputs up to this many bytes per update
POLY_PEND = 256
_ZEROS_PEND = bytes(POLY_PEND)
#: one-call requests up to this many bytes hold the text and the tag in two buffers
SPLIT_MAX = 4096
_ZEROS_SPLIT = memoryview(bytes(SPLIT_MAX))


# --------------------------------------------------------------------------
# Per-tfm set-up

def chachapoly_init(tfm: Any) -> None:
    spawns = tfm.alg.instance.spawns
    ctx = tfm.ctx
    ctx.saltlen = CHACHAPOLY_IV_SIZE - tfm.alg.ivsize
    ctx.salt = bytearray(ctx.saltlen)
    ctx.chacha = capi.crypto_spawn_skcipher(spawns[0])
    ctx.chacha_sync = not ctx.chacha.alg.cra_flags & capi.CRYPTO_ALG_ASYNC
    ctx.copy_ad = rule("rfc7539.instance", "echo") == "library"   # 6.16+: the AD goes to dst out of place
    # (desc, gather buffer) pairs, wiped, that direct requests leave for the
    # next ones (list pop/append: safe between threads)
    ctx.poly_pool = []
    try:
        ctx.poly = capi.crypto_spawn_shash(spawns[1])
    except BaseException:
        chachapoly_exit(tfm)
        raise


def chachapoly_exit(tfm: Any) -> None:
    ctx = tfm.ctx
    ctx.poly_pool = []
    for name in ("poly", "chacha"):
        child = getattr(ctx, name, None)
        if child is not None:
            child.free()
            setattr(ctx, name, None)
    salt = getattr(ctx, "salt", None)
    if salt is not None:
        salt[:] = bytes(len(salt))


def chachapoly_setkey(tfm: Any, key: bytearray) -> None:
    """32 key bytes for the ChaCha20 child, then the salt (rfc7539esp: 4 bytes)."""
    ctx = tfm.ctx
    want = CHACHA_KEY_SIZE + ctx.saltlen
    if len(key) != want:
        extra = f" (32-byte key and {ctx.saltlen}-byte salt)" if ctx.saltlen else ""
        raise CryptoError(EINVAL, f"{tfm.alg.cra_driver_name}: key is {len(key)} bytes, "
                                  f"expected {want}{extra}")
    kv = memoryview(key)                       # no extra copies of the key
    ctx.salt[:] = kv[CHACHA_KEY_SIZE:]
    ctx.chacha.clear_flags(capi.CRYPTO_TFM_REQ_MASK)
    ctx.chacha.set_flags(tfm.crt_flags & capi.CRYPTO_TFM_REQ_MASK)
    ctx.chacha.setkey(kv[:CHACHA_KEY_SIZE])


def chachapoly_setauthsize(tfm: Any, authsize: int) -> None:
    if authsize != POLY1305_DIGEST_SIZE:
        raise CryptoError(EINVAL, f"{tfm.alg.cra_driver_name}: authsize {authsize} refused, "
                                  f"only {POLY1305_DIGEST_SIZE} is supported")


# --------------------------------------------------------------------------
# The request state and the chain

class ChachaPolyReqCtx:
    """What one request carries from step to step (the kernel's request context)."""

    __slots__ = ("encrypt", "steps", "next", "flags", "nonce", "alen", "textlen", "src_text",
                 "dst_text", "polykey", "desc", "tag", "error", "direct", "pend", "plen", "pool",
                 "fed")

    def __init__(self, req: Any, encrypt: bool, steps: Sequence[Callable]) -> None:
        tfm = req.tfm
        self.encrypt = encrypt
        self.steps = steps
        self.next = 0
        self.flags = req.flags
        salt = tfm.ctx.salt
        nonce = bytes(req.iv[:tfm.alg.ivsize])
        self.nonce = bytes(salt) + nonce if salt else nonce
        self.alen = req.assoclen                 # the AD Poly1305 sees (esp: without the IV copy)
        self.textlen = req.cryptlen - (0 if encrypt else POLY1305_DIGEST_SIZE)
        self.src_text = _ffwd(req.src, req.assoclen)
        self.dst_text = self.src_text if req.dst is req.src else _ffwd(req.dst, req.assoclen)
        self.polykey = bytearray(POLY1305_KEY_SIZE)
        self.desc = None
        self.tag = b""
        self.error: Any = None
        # Direct: the ChaCha child is synchronous and no fpu_trace() records, so
        # its sub-requests may go through its one-call entry point (which gives
        # the request path's bytes, see SkcipherAlg) and small Poly1305 inputs
        # are gathered in ``pend`` and hashed together (Poly1305 hashes the
        # same bytes however they are split); a traced request runs every
        # sub-request and every update as the kernel issues them.
        self.direct = tfm.ctx.chacha_sync and not capi.fpu_tracing()
        self.pend = None
        self.plen = 0
        self.pool = tfm.ctx.poly_pool
        self.fed = False                # direct: whether desc has been initialised and fed

    def chacha_iv(self, counter: int) -> bytes:
        return counter.to_bytes(4, "little") + self.nonce

    def wipe(self) -> None:
        self.polykey[:] = _ZEROS32
        desc, pend = self.desc, self.pend
        if desc is not None:
            desc.state[:] = bytes(len(desc.state))
            self.desc = None
        if pend is not None:            # it held the one-time key and the text
            pend[:] = _ZEROS_PEND
            self.pend = None
        if pend is not None and desc is not None:
            self.pool.append((desc, pend))     # the pair of a direct request, once

    def poly(self, data: Any) -> None:
        """Hash ``data`` (direct: gathered while small, at most POLY_PEND bytes)."""
        pend = self.pend
        if pend is None:
            self.desc.update(data)
            return
        p, n = self.plen, len(data)
        if p + n > POLY_PEND:
            if not self.fed:
                self.desc.init()
                self.fed = True
            if p:
                self.desc.update(memoryview(pend)[:p])
            p = 0
            if n > POLY_PEND:
                self.plen = 0
                self.desc.update(data)
                return
        pend[p:p + n] = data
        self.plen = p + n

    def poly_finup(self, data: bytes) -> bytes:
        if self.pend is None:
            return self.desc.finup(data)
        self.poly(data)
        gathered = memoryview(self.pend)[:self.plen]
        # all of it gathered: one digest call (init, update, final)
        return self.desc.finup(gathered) if self.fed else self.desc.digest(gathered)


def _ffwd(sgl: List, skip: int) -> List:
    """scatterwalk_ffwd, which hands back the list itself when nothing is
    skipped, and (the kernel's chains the entries after its first) shares the
    entries when the skip ends on an entry boundary."""
    if not skip:
        return sgl
    for i, sg in enumerate(sgl):
        if skip < sg.length:
            break
        skip -= sg.length
    else:
        return []
    return sgl[i:] if skip == 0 else scatterwalk_ffwd(sgl[i:], skip)


def _run_chain(req: Any, start: int) -> int:
    """Run the steps from ``start``: 0 when all are done, -EINPROGRESS/-EBUSY when a
    child went asynchronous (its completion resumes the chain), else -errno."""
    rctx = req.ctx
    steps = rctx.steps
    for i in range(start, len(steps)):
        rctx.next = i + 1
        try:
            rc = steps[i](req, rctx)
        except CryptoError as e:
            rctx.error = e
            rctx.wipe()
            return -e.errno
        except BaseException:
            rctx.wipe()
            raise
        if rc in ASYNC_PENDING:
            return rc
    rctx.wipe()
    return 0


def _step_done(subreq: Any, err: int) -> None:
    """Completion of a child sub-request: go on with the chain, or end it."""
    if err == -EINPROGRESS:
        return                      # a backlogged child has started; the real end follows
    req = subreq.data
    rctx = req.ctx
    rctx.flags &= ~capi.CRYPTO_TFM_REQ_MAY_SLEEP     # 5.4+: no sleeping after an async step
    if err == 0:
        try:
            err = _run_chain(req, rctx.next)
        except Exception as e:      # a step crashed on the child's thread: still one completion
            rctx.error = e
            err = -EINVAL
        if err in ASYNC_PENDING:
            return
    else:
        rctx.wipe()
    capi.aead_request_complete(req, err)


def _run_at(sgl: List, pos: int, nbytes: int) -> Any:
    """A view of the ``nbytes`` at byte ``pos`` of ``sgl`` when one entry holds
    them all, else None."""
    for sg in sgl:
        if pos >= sg.length:
            pos -= sg.length
            continue
        if sg.length - pos < nbytes or sg.buf is None:
            return None
        start = sg.offset + pos
        view = sg.buf[start:start + nbytes]
        return view if len(view) == nbytes else None    # None: an entry changed meanwhile
    return None


def _first_run(sgl: List, nbytes: int) -> Any:
    """The first ``nbytes`` of ``sgl`` when its first entry holds them all, else
    None; as the bytes/bytearray itself when they are all of it (the child's
    C one-call path takes those: a contiguous byte view as long as its object
    is that object's bytes)."""
    if not sgl:
        return None
    sg = sgl[0]
    if sg.length < nbytes or sg.buf is None:
        return None
    view = sg.buf[sg.offset:sg.offset + nbytes]
    if len(view) != nbytes:             # an entry changed since it was checked
        return None
    obj = view.obj
    return obj if type(obj) in _PLAIN and len(obj) == nbytes else view


def _chacha(req: Any, rctx: ChachaPolyReqCtx, src: List, dst: List, nbytes: int, counter: int,
            encrypt: bool) -> int:
    """One sub-request to the ChaCha20 child (its result may arrive later).

    A direct request whose src and dst each start with a run of ``nbytes``
    (the one-call methods' layout) hands them to the child's one-call method
    instead: same child, same bytes, without building and re-checking a
    request over scatterlists this template made itself.  (Two whole objects
    are never partly overlapping: the same bytearray is in place.)"""
    chacha = req.tfm.ctx.chacha
    if rctx.direct:
        sv, dv = _first_run(src, nbytes), _first_run(dst, nbytes)
        # (the one-call methods refuse a dst that partly overlaps src: the request does not)
        if sv is not None and dv is not None and (
                type(sv) is not memoryview or type(dv) is not memoryview
                or not partly_overlapping(sv, dv)):
            (chacha.encrypt if encrypt else chacha.decrypt)(sv, rctx.chacha_iv(counter), out=dv)
            return 0
    sub = capi.skcipher_request_alloc(chacha)
    capi.skcipher_request_set_callback(sub, rctx.flags, _step_done, req)
    capi.skcipher_request_set_crypt(sub, src, dst, nbytes, bytearray(rctx.chacha_iv(counter)))
    return (capi.crypto_skcipher_encrypt if encrypt else capi.crypto_skcipher_decrypt)(sub)


# -- the steps: each returns 0 (go on) or -EINPROGRESS/-EBUSY (a child will call back)

def step_crypt_text(req: Any, rctx: ChachaPolyReqCtx) -> int:
    if not rctx.textlen:
        return 0                    # no text: no ChaCha call at all
    return _chacha(req, rctx, rctx.src_text, rctx.dst_text, rctx.textlen, 1, rctx.encrypt)


def step_genkey(req: Any, rctx: ChachaPolyReqCtx) -> int:
    """The Poly1305 key: keystream block 0 over 32 zero bytes (the child's decrypt)."""
    if req.tfm.ctx.saltlen:
        if req.assoclen < ESP_IV_COPY:
            raise CryptoError(EINVAL, f"{req.tfm.alg.cra_driver_name}: assoclen {req.assoclen} "
                                      f"cannot hold the {ESP_IV_COPY}-byte IV copy")
        rctx.alen = req.assoclen - ESP_IV_COPY
    if rctx.direct:             # the child's one-call method straight into polykey
        req.tfm.ctx.chacha.decrypt(_ZEROS32, rctx.chacha_iv(0), out=rctx.polykey)
        return 0
    rctx.polykey[:] = _ZEROS32
    key = sg_init_one(rctx.polykey)
    return _chacha(req, rctx, key, key, POLY1305_KEY_SIZE, 0, False)


def step_poly_init(req: Any, rctx: ChachaPolyReqCtx) -> int:
    if req.tfm.ctx.copy_ad and req.assoclen and req.dst is not req.src:
        sg_copy_from_bytes(req.dst, sg_copy_to_bytes(req.src, req.assoclen))
    poly = req.tfm.ctx.poly
    if rctx.direct:                 # a desc and gather buffer of an earlier direct request
        pool = rctx.pool
        rctx.desc, rctx.pend = pool.pop() if pool else (poly.desc(), bytearray(POLY_PEND))
    else:
        rctx.desc = poly.desc().init()
    return 0


def step_poly_setkey(req: Any, rctx: ChachaPolyReqCtx) -> int:
    rctx.poly(rctx.polykey)                 # the v5.0 shash takes r ‖ s as its first 32 bytes
    rctx.polykey[:] = _ZEROS32
    return 0


def step_poly_ad(req: Any, rctx: ChachaPolyReqCtx) -> int:
    _poly_pieces(rctx, req.src, rctx.alen)
    return 0


def _poly_pieces(rctx: ChachaPolyReqCtx, sgl: List, nbytes: int) -> None:
    """Hash the first ``nbytes`` of ``sgl`` page by page, as sg_miter maps them
    (a direct request over one run: at once)."""
    if not nbytes:
        return
    if rctx.direct:
        run = _first_run(sgl, nbytes)
        if run is not None:
            rctx.poly(run)
            return
    for piece in sg_pieces(sgl, nbytes):
        rctx.poly(piece)


def step_poly_adpad(req: Any, rctx: ChachaPolyReqCtx) -> int:
    pad = -rctx.alen % 16
    if pad:
        rctx.poly(_ZEROS[:pad])
    return 0


def step_poly_text(req: Any, rctx: ChachaPolyReqCtx) -> int:
    """The ciphertext: from dst when encrypting, from src when decrypting."""
    _poly_pieces(rctx, rctx.dst_text if rctx.encrypt else rctx.src_text, rctx.textlen)
    return 0


def step_poly_textpad(req: Any, rctx: ChachaPolyReqCtx) -> int:
    pad = -rctx.textlen % 16
    if pad:
        rctx.poly(_ZEROS[:pad])
    return 0


def step_poly_tail(req: Any, rctx: ChachaPolyReqCtx) -> int:
    lengths = rctx.alen.to_bytes(8, "little") + rctx.textlen.to_bytes(8, "little")
    rctx.tag = rctx.poly_finup(lengths)
    return 0


def _tag_at(rctx: ChachaPolyReqCtx, sgl: List) -> Any:
    """Direct: a view of the tag's 16 bytes after the text when one entry holds them."""
    return _run_at(sgl, rctx.textlen, POLY1305_DIGEST_SIZE) if rctx.direct else None


def step_copy_tag(req: Any, rctx: ChachaPolyReqCtx) -> int:
    room = _tag_at(rctx, rctx.dst_text)
    if room is not None:
        room[:] = rctx.tag
    else:
        scatterwalk_map_and_copy(rctx.tag, req.dst, req.assoclen + rctx.textlen,
                                 POLY1305_DIGEST_SIZE, True)
    return 0


def step_verify(req: Any, rctx: ChachaPolyReqCtx) -> int:
    received = _tag_at(rctx, rctx.src_text)
    if received is None:
        received = bytearray(POLY1305_DIGEST_SIZE)
        scatterwalk_map_and_copy(received, req.src, req.assoclen + rctx.textlen,
                                 POLY1305_DIGEST_SIZE, False)
    if not hmac.compare_digest(bytes(received), rctx.tag):
        raise CryptoError(EBADMSG, f"{req.tfm.alg.cra_driver_name}: authentication failed "
                                   "(tag mismatch)")
    return 0


_POLY_STEPS = (step_poly_init, step_poly_setkey, step_poly_ad, step_poly_adpad, step_poly_text,
               step_poly_textpad, step_poly_tail)
ENCRYPT_STEPS = (step_crypt_text, step_genkey) + _POLY_STEPS + (step_copy_tag,)
DECRYPT_STEPS = (step_genkey,) + _POLY_STEPS + (step_crypt_text, step_verify)


def _crypt(req: Any, encrypt: bool) -> Any:
    rctx = req.ctx = ChachaPolyReqCtx(req, encrypt, ENCRYPT_STEPS if encrypt else DECRYPT_STEPS)
    rc = _run_chain(req, 0)
    if rc in ASYNC_PENDING:
        return rc
    if rc:
        raise rctx.error
    return None


def chachapoly_direct(tfm: Any, encrypt: bool) -> Any:
    """``AeadAlg.direct``: ``tfm.encrypt``/``decrypt`` on bytes (data, IV and
    AD; no ``out``) run the chain above over a request on those bytes, without
    the frontend's generic one-call set-up (a waiter, a scratch buffer, a
    second check of scatterlists built here).  Only for a synchronous ChaCha
    child, where the chain never waits; anything else (other buffer types,
    ``out``, a wrong IV length, a short ciphertext, an FPU trace recording)
    declines to the frontend's path, which says what is wrong."""
    if not tfm.ctx.chacha_sync or tfm.authsize != POLY1305_DIGEST_SIZE:
        return None
    ivsize = tfm.alg.ivsize
    flags = capi.CRYPTO_TFM_REQ_MAY_BACKLOG       # as the frontend's one-call path sets

    def fn(data: Any, iv: Any, assoc: Any, out: Any) -> Any:
        if (out is not None or type(data) is not bytes or type(assoc) is not bytes
                or type(iv) is not bytes or len(iv) != ivsize or capi.fpu_tracing()):
            return None
        alen, n = len(assoc), len(data)
        outlen = n + POLY1305_DIGEST_SIZE if encrypt else n - POLY1305_DIGEST_SIZE
        if outlen < 0:
            return None
        # src: the caller's bytes; dst: the AD room (the template never writes
        # it), then the result, private until it is final.  A short text and its
        # tag lie in buffers of their own, which the ChaCha child's one-call
        # method takes as they are (a copy of at most SPLIT_MAX bytes).
        short = (n if encrypt else outlen) <= SPLIT_MAX
        src, dst = [], []
        if alen:                                # no empty AD entries
            src.append(Scatterlist(memoryview(assoc), 0, alen))
            dst.append(Scatterlist(memoryview(bytearray(alen)), 0, alen))
        tag = None
        if encrypt:
            src.append(Scatterlist(memoryview(data), 0, n))
            res = bytearray(n if short else outlen)
            dst.append(Scatterlist(memoryview(res), 0, len(res)))
            if short:
                tag = bytearray(POLY1305_DIGEST_SIZE)
                dst.append(Scatterlist(memoryview(tag), 0, POLY1305_DIGEST_SIZE))
        else:
            if short:
                src += [Scatterlist(memoryview(data[:outlen]), 0, outlen),
                        Scatterlist(memoryview(data), outlen, POLY1305_DIGEST_SIZE)]
            else:
                src.append(Scatterlist(memoryview(data), 0, n))
            res = bytearray(outlen)
            dst.append(Scatterlist(memoryview(res), 0, outlen))
        req = capi.AeadRequest(tfm)
        req.src, req.dst = src, dst
        req.cryptlen, req.assoclen, req.iv, req.flags = n, alen, iv, flags
        try:
            _crypt(req, encrypt)                # synchronous child: never -EINPROGRESS
            return bytes(res) if tag is None else b"".join((res, tag))
        finally:
            if not encrypt:                     # the plaintext, authentic or not
                if short:
                    res[:] = _ZEROS_SPLIT[:outlen]
                else:
                    wipe_bytearray(res)

    return fn


def chachapoly_encrypt(req: Any) -> Any:
    return _crypt(req, True)


def chachapoly_decrypt(req: Any) -> Any:
    return _crypt(req, False)


# --------------------------------------------------------------------------
# The templates

def chachapoly_create(tmpl: capi.Template, tb: list, ivsize: int) -> None:
    name = tmpl.name
    algt = capi.crypto_get_attr_type(tb)
    if (algt.type ^ capi.CRYPTO_ALG_TYPE_AEAD) & algt.mask & capi.CRYPTO_ALG_TYPE_MASK:
        raise CryptoError(EINVAL, f"{name}: instances are AEADs, not the type "
                                  f"{capi.type_name(algt.type)} that was asked for")
    mask = capi.crypto_requires_sync(algt.type, algt.mask)
    chacha_name = capi.crypto_attr_alg_name(tb, 1, name)
    poly_name = capi.crypto_attr_alg_name(tb, 2, name)
    if len(tb) > 3:
        raise CryptoError(EINVAL, f"{name}: takes 2 parameters (chacha, poly), got {len(tb) - 1}")
    naming = rule("rfc7539.instance", "echo")
    if naming == "library":
        if poly_name not in ("poly1305", "poly1305-generic"):
            raise CryptoError(EINVAL, f"{name}: {poly_name}: from 6.16 the template hashes with the "
                                      "Poly1305 library, named poly1305 or poly1305-generic")
        poly_name = "poly1305"          # the library's code: the best registered Poly1305
    poly = capi.crypto_grab_shash(poly_name)
    if poly.alg.digestsize != POLY1305_DIGEST_SIZE:
        raise CryptoError(EINVAL, f"{name}: {poly.alg.cra_driver_name} has a {poly.alg.digestsize}-byte "
                                  f"digest, a Poly1305 of {POLY1305_DIGEST_SIZE} bytes is needed")
    chacha = capi.crypto_grab_skcipher(chacha_name, 0, mask)
    c, p = chacha.alg, poly.alg
    if c.ivsize != CHACHA_IV_SIZE or c.cra_blocksize != 1:
        raise CryptoError(EINVAL, f"{name}: {c.cra_driver_name} (ivsize {c.ivsize}, blocksize "
                                  f"{c.cra_blocksize}) is no ChaCha20 stream cipher: ivsize "
                                  f"{CHACHA_IV_SIZE} and blocksize 1 are needed")
    library = naming == "library"
    inst = capi.AeadAlg(
        cra_name=(capi.crypto_inst_name(name, chacha_name, poly_name) if naming == "echo"
                  else capi.crypto_inst_name(name, c.cra_name, "poly1305" if library else p.cra_name)),
        cra_driver_name=capi.crypto_inst_name(name, c.cra_driver_name,
                                              "poly1305-generic" if library else p.cra_driver_name),
        cra_priority=c.cra_priority if library else (c.cra_priority + p.cra_priority) // 2,
        cra_flags=(c.cra_flags | p.cra_flags) & capi.CRYPTO_ALG_ASYNC,
        cra_blocksize=1, cra_alignmask=c.cra_alignmask | (0 if library else p.cra_alignmask),
        ivsize=ivsize, maxauthsize=POLY1305_DIGEST_SIZE, chunksize=c.chunksize,
        setkey=chachapoly_setkey, setauthsize=chachapoly_setauthsize,
        encrypt=chachapoly_encrypt, decrypt=chachapoly_decrypt, direct=chachapoly_direct,
        init=chachapoly_init, exit=chachapoly_exit)
    capi.aead_register_instance(tmpl, inst, [chacha, poly])


def rfc7539_create(tmpl: capi.Template, tb: list) -> None:
    chachapoly_create(tmpl, tb, CHACHAPOLY_IV_SIZE)


def rfc7539esp_create(tmpl: capi.Template, tb: list) -> None:
    chachapoly_create(tmpl, tb, CHACHAPOLY_IV_SIZE - 4)


TEMPLATES = (capi.Template(name="rfc7539", create=rfc7539_create),
             capi.Template(name="rfc7539esp", create=rfc7539esp_create))


def module_init() -> None:
    capi.crypto_register_templates(TEMPLATES)


def module_exit() -> None:
    capi.crypto_unregister_templates(TEMPLATES)

"""Block cipher modes in ``enc``/``dec``: one message cut into requests, constant memory.

A kernel block-mode request is a whole message; for ``ecb``, ``cbc``,
``ctr`` and ``xts`` the same message can also be sent as several requests of
whole blocks, each with the IV the message has at the block it starts on.
That IV is a property of the mode (crypto/ecb.c, crypto/cbc.c, crypto/ctr.c,
crypto/xts.c), the same for every driver of a ``cra_name``, and kept here:

* ``ecb(c)``: no IV; blocks are independent.
* ``cbc(c)``: a chunk's IV is the ciphertext block before it (the last
  output block when encrypting, the last input block when decrypting).
* ``ctr(c)``: the IV is the counter block, one big-endian integer, plus one
  per block (carrying through all of it, wrapping at its width).
* ``xts(c)``: block j of a message is tweaked with T_j = E_K2(IV)·α^j in
  GF(2^128) (IEEE P1619, the little-endian convention of the kernel's
  gf128mul_x_ble).  A request turns its IV into its first tweak with E_K2,
  and crypto/xts.c never hands back a continued IV, so a chunk that starts at
  block j is sent the IV D_K2(E_K2(IV)·α^j): a bare ``c`` (the cipher the
  template takes its tweak from) keyed with the key's second half gives it.

Requests are :data:`CHUNK` bytes while the input goes on; one block is held
back from every chunk, so the last request has at least one whole block and
carries any partial tail with the block before it, where XTS steals
ciphertext (any length of at least 16 bytes, as the skcipher itself takes;
``ctr`` takes any length).  ``ecb``/``cbc`` take whole blocks only; the
caller checks the length before the output is touched.  Any other mode has
no continuation here (``essiv`` encrypts its IV with a key derived inside the
tfm, ``rfc3686`` restarts its counter in every request; ``cts`` is not
implemented) and ``enc`` gives it the whole input as one request.
"""

from __future__ import annotations

from typing import Iterator, Optional

import crypto_api as capi
from crypto_api.errors import EINVAL, ENOENT, CryptoError

from .cli_common import check_length
from .stream_crypt import CHUNK, InputSource

XTS_BLOCK = 16
_GF128_MODULUS = (1 << 128) | 0x87           # x^128 + x^7 + x^2 + x + 1


def gf128_mul(a: int, b: int) -> int:
    """The product in GF(2^128), bit i of each integer the coefficient of x^i."""
    r = 0
    while b:
        if b & 1:
            r ^= a
        b >>= 1
        a <<= 1
        if a >> 128:
            a ^= _GF128_MODULUS
    return r


def gf128_x_pow(j: int) -> int:
    """α^j (α = x, the element 2)."""
    r, base = 1, 2
    while j:
        if j & 1:
            r = gf128_mul(r, base)
        base = gf128_mul(base, base)
        j >>= 1
    return r


class EcbChain:
    """``ecb``: no IV to carry."""

    def __init__(self, block_size: int) -> None:
        self.block_size = block_size

    def next_iv(self, iv, src: memoryview, dst: memoryview, encrypt: bool):
        return iv

    def close(self) -> None:
        pass


class CbcChain(EcbChain):
    """``cbc``: the next IV is the last ciphertext block."""

    def next_iv(self, iv, src: memoryview, dst: memoryview, encrypt: bool) -> bytes:
        return bytes((dst if encrypt else src)[-self.block_size:])


class CtrChain(EcbChain):
    """``ctr``: the counter moved on by the chunk's blocks."""

    def next_iv(self, iv, src: memoryview, dst: memoryview, encrypt: bool) -> bytes:
        width = 8 * len(iv)
        counter = (int.from_bytes(iv, "big") + len(src) // self.block_size) % (1 << width)
        return counter.to_bytes(len(iv), "big")


class XtsChain(EcbChain):
    """``xts``: the IV whose tweak is this one's moved on by the chunk's blocks."""

    def __init__(self, tweak_cipher) -> None:
        super().__init__(XTS_BLOCK)
        self.tweak = tweak_cipher
        self._powers = {}

    def iv_at(self, iv: bytes, blocks: int) -> bytes:
        """The IV of the same message ``blocks`` blocks further on."""
        step = self._powers.get(blocks)
        if step is None:
            step = self._powers[blocks] = gf128_x_pow(blocks)
        t = int.from_bytes(self.tweak.encrypt_one(iv), "little")
        return self.tweak.decrypt_one(gf128_mul(t, step).to_bytes(XTS_BLOCK, "little"))

    def next_iv(self, iv, src: memoryview, dst: memoryview, encrypt: bool) -> bytes:
        return self.iv_at(iv, len(src) // XTS_BLOCK)

    def close(self) -> None:
        if self.tweak is not None:
            self.tweak.free()
            self.tweak = None


def _template(cra_name: str):
    """(template, inner) of ``t(inner)``, or (None, None)."""
    head, sep, rest = cra_name.partition("(")
    if not sep or not rest.endswith(")"):
        return None, None
    return head, rest[:-1]


def block_chain_for(tfm, key: Optional[bytes]):
    """The continuation of ``tfm``'s mode (``key``: the key it was given, for
    XTS's tweak half), or None when this module knows none."""
    template, inner = _template(tfm.alg.cra_name)
    bs = tfm.chunksize if template == "ctr" else tfm.blocksize    # ctr: the counter's block
    if template not in ("ecb", "cbc", "ctr", "xts") or bs < 1 or CHUNK % bs:
        return None
    if template == "ctr":
        return CtrChain(bs) if tfm.ivsize == bs else None
    if template == "ecb":
        return EcbChain(bs)
    if template == "cbc":
        return CbcChain(bs) if tfm.ivsize == bs else None
    if key is None or bs != XTS_BLOCK or tfm.ivsize != XTS_BLOCK:
        return None
    try:
        tweak = capi.crypto_alloc_cipher(inner)
    except CryptoError as e:
        if e.errno in (ENOENT, EINVAL):
            return None
        raise
    try:
        tweak.setkey(memoryview(key)[len(key) // 2:])
    except BaseException:
        tweak.free()
        raise
    return XtsChain(tweak)


def crypt_chained(tfm, encrypt: bool, iv, chain, src: InputSource,
                  chunk_size: int = CHUNK) -> Iterator[memoryview]:
    """The output of ``tfm`` over ``src`` as one message, piece by piece.

    A generator: each piece is valid until the next is asked for.  The first
    piece comes after the first read, so a message shorter than the mode's
    minimum (a pipe of 5 bytes into XTS) is refused before the caller opens
    its output.
    """
    bs = chain.block_size
    if chunk_size <= 0 or chunk_size % bs:
        raise ValueError(f"chunk_size must be a positive multiple of {bs}")
    crypt = tfm.encrypt if encrypt else tfm.decrypt
    size = chunk_size + bs
    inbuf, outbuf = bytearray(size), bytearray(size)
    inview, outview = memoryview(inbuf), memoryview(outbuf)
    have, before = 0, 0               # bytes held in inbuf; bytes of the message already sent
    try:
        while True:
            have += src.read_full(inview[have:])
            if have < size:           # the input ends here: the last request
                check_length(tfm, before + have, "the input")
                if have:
                    crypt(inview[:have], iv, out=outview[:have])
                    yield outview[:have]
                return
            crypt(inview[:chunk_size], iv, out=outview[:chunk_size])
            yield outview[:chunk_size]
            iv = chain.next_iv(iv, inview[:chunk_size], outview[:chunk_size], encrypt)
            inbuf[:bs] = inbuf[chunk_size:]
            have, before = bs, before + chunk_size
    finally:
        inbuf[:] = bytes(size)        # the plaintext (one side or the other) does not linger
        outbuf[:] = bytes(size)


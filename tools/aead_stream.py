"""ChaCha20-Poly1305 (``rfc7539`` / ``rfc7539esp``) for ``enc``/``dec`` in constant memory.

An AEAD request is one shot, but the rfc7539 construction (the kernel's
crypto/chacha20poly1305.c, RFC 8439 section 2.8) is a stream cipher and a
MAC that both continue over pieces: the text is ChaCha20 from keystream
block 1 on, and the tag is Poly1305, keyed by the first 32 bytes of block 0,
over ``pad16(AD) ‖ pad16(ciphertext) ‖ le64(|AD|) ‖ le64(|ciphertext|)``.
So a message of any size goes through in chunks of :data:`CHUNK` bytes
(whole 64-byte keystream blocks): each chunk is one request to the ChaCha20
skcipher with its IV moved on to the chunk's block
(tools/stream_continuation.py), and the Poly1305 desc is updated with each
chunk of ciphertext.  The bytes are those of the one-message AEAD.

The two children are the registry's own algorithms, resolved from the AEAD
(:func:`stream_for`): a template instance's spawns (the very ChaCha20
skcipher and Poly1305 shash the instance uses), or, for a driver that is
no instance (a one-pass driver registered as ``rfc7539(chacha20,poly1305)``),
the names in its ``cra_name``, looked up as usual.  Any other AEAD has no
known streaming rule: :func:`stream_for` returns None.

Decryption releases no plaintext before the tag checks: :meth:`open_one_pass`
writes into a place nobody can see (an unlinked O_TMPFILE) and says at the
end whether to keep it; :meth:`verify` is the first of two passes over a
seekable input, and :meth:`decrypt_verified` the second, which checks that
every chunk it decrypts is the one the first pass authenticated (SHA-256 of
each chunk, 32 bytes per MiB), so a file changed between the passes cannot
slip unauthenticated plaintext out.
"""

from __future__ import annotations

import ctypes
import errno
import hashlib
import hmac
import os
from typing import Callable, List, Optional, Tuple

import attrs

import crypto_api as capi
from crypto_api.errors import EBADMSG, EINVAL, CryptoError

from .stream_continuation import continuation_for
from .stream_crypt import CHUNK, InputSource

TEMPLATES = {"rfc7539": 0, "rfc7539esp": 4}          #: template name -> salt length
KEY_SIZE = 32
NONCE_SIZE = 12
TAG_SIZE = 16
ESP_IV_COPY = 8
_ZEROS = bytes(16)
Writer = Callable[[memoryview], None]


def wipe_buffer(buf) -> None:
    """Zero a bytearray in place (``buf[:] = bytes(n)`` would hold a second n bytes)."""
    if buf:
        ctypes.memset((ctypes.c_char * len(buf)).from_buffer(buf), 0, len(buf))


def _children(tfm) -> Optional[Tuple[str, object, object]]:
    """(template name, ChaCha20 skcipher, Poly1305 shash) allocated for ``tfm``'s
    algorithm, or None when it is not rfc7539-shaped (see the module doc)."""
    alg = tfm.alg
    inst = alg.instance
    if inst is not None:
        tname = inst.record.tmpl.name
        if tname not in TEMPLATES or len(inst.spawns) != 2:
            return None
        chacha = capi.crypto_spawn_skcipher(inst.spawns[0])
        try:
            poly = capi.crypto_spawn_shash(inst.spawns[1])
        except BaseException:
            chacha.free()
            raise
        return tname, chacha, poly
    try:
        tname, params = capi.parse_template_name(alg.cra_name)
    except ValueError:
        return None
    if (tname not in TEMPLATES or len(params) != 2
            or not all(isinstance(p, capi.CryptoAttrAlg) for p in params)):
        return None
    try:
        chacha = capi.crypto_alloc_skcipher(params[0].name)
    except CryptoError:
        return None                      # its name's children are not there: no rule
    try:
        poly = capi.crypto_alloc_shash(params[1].name)
    except BaseException as e:
        chacha.free()
        if isinstance(e, CryptoError):
            return None
        raise
    return tname, chacha, poly


def stream_for(tfm) -> Optional["Rfc7539Stream"]:
    """The streaming form of the AEAD ``tfm``, or None (no streaming rule known)."""
    if tfm.authsize != TAG_SIZE:
        return None
    found = _children(tfm)
    if found is None:
        return None
    tname, chacha, poly = found
    rule = continuation_for(chacha)
    if (rule is None or rule.offset != 0 or chacha.alg.ivsize != 16
            or poly.alg.cra_name != "poly1305" or poly.alg.digestsize != TAG_SIZE):
        chacha.free()
        poly.free()
        return None
    return Rfc7539Stream(aead=tfm.alg.cra_driver_name, chacha=chacha, poly=poly,
                         saltlen=TEMPLATES[tname], rule=rule,
                         from_instance=tfm.alg.instance is not None)


@attrs.define
class TextReader:
    """The input as text chunks of ``chunk`` bytes, the last ``taglen`` bytes held back
    as the tag (known only at the end of a pipe)."""

    src: InputSource
    buf: bytearray
    chunk: int
    taglen: int
    tag: bytes = b""
    textlen: int = 0

    def chunks(self):
        view, t, have = memoryview(self.buf), self.taglen, 0
        while True:
            want = self.chunk + t
            n = self.src.read_full(view[have:want])
            have += n
            if have < want:                         # the end of the input
                text = have - t
                if text < 0:
                    raise CryptoError(EINVAL, f"{self.src.name}: the input is {have} bytes, "
                                              f"shorter than the {t}-byte tag it must end with")
                self.tag = bytes(view[text:have])
                if text:
                    self.textlen += text
                    yield view[:text]
                return
            self.textlen += self.chunk
            yield view[:self.chunk]
            view[:t] = view[self.chunk:want]        # the held-back tail starts the next chunk
            have = t


def rewind(src: InputSource) -> None:
    """Back to the start of a seekable input."""
    try:
        os.lseek(src.fd, src.base, os.SEEK_SET)
    except OSError as e:
        raise CryptoError(e.errno or errno.EIO, f"{src.name}: cannot seek: {e.strerror}") from None


@attrs.define
class Rfc7539Stream:
    """The ChaCha20 and Poly1305 children of one rfc7539(esp) AEAD, keyed by :meth:`setkey`."""

    aead: str                           #: the AEAD's driver name (for messages)
    chacha: object
    poly: object
    saltlen: int
    rule: object
    from_instance: bool = True          #: the children are a template instance's spawns
    salt: bytearray = attrs.Factory(bytearray)

    @property
    def children(self) -> str:
        """The children, for messages."""
        names = f"{self.chacha.alg.cra_driver_name} and {self.poly.alg.cra_driver_name}"
        if self.from_instance:
            return f"its children {names}"
        return f"{names} (the driver cannot be fed in pieces: the children its name says)"

    def setkey(self, key) -> None:
        kv = memoryview(key)
        if len(kv) != KEY_SIZE + self.saltlen:
            raise CryptoError(EINVAL, f"{self.aead}: key is {len(kv)} bytes, expected {KEY_SIZE + self.saltlen}")
        self.chacha.setkey(kv[:KEY_SIZE])
        self.salt = bytearray(kv[KEY_SIZE:])

    def free(self) -> None:
        wipe_buffer(self.salt)
        self.chacha.free()
        self.poly.free()

    def __enter__(self) -> "Rfc7539Stream":
        return self

    def __exit__(self, *exc) -> None:
        self.free()

    # -- the pieces of the construction ----------------------------------
    def _nonce(self, iv: bytes) -> bytes:
        nonce = bytes(self.salt) + bytes(iv)
        if len(nonce) != NONCE_SIZE:
            raise CryptoError(EINVAL, f"{self.aead}: IV is {len(iv)} bytes, expected {NONCE_SIZE - self.saltlen}")
        return nonce

    def _mac_ad(self, aad: bytes) -> bytes:
        """The part of the AD that Poly1305 covers (rfc7539esp: without the IV copy)."""
        if not self.saltlen:
            return aad
        if len(aad) < ESP_IV_COPY:
            raise CryptoError(EINVAL, f"{self.aead}: {len(aad)} bytes of associated data cannot "
                                      f"hold the {ESP_IV_COPY}-byte IV copy")
        return aad[:-ESP_IV_COPY]

    def _mac_start(self, nonce: bytes, ad: bytes):
        """A Poly1305 desc keyed from keystream block 0 that has taken pad16(AD)."""
        polykey = bytearray(KEY_SIZE)
        try:
            self.chacha.encrypt(bytes(KEY_SIZE), bytes(4) + nonce, out=polykey)
            desc = self.poly.desc().init()
            desc.update(polykey)                # the v5.0 shash takes r ‖ s as its first 32 bytes
        finally:
            wipe_buffer(polykey)
        desc.update(ad)
        desc.update(_ZEROS[:-len(ad) % 16])
        return desc

    @staticmethod
    def _mac_end(desc, alen: int, textlen: int) -> bytes:
        desc.update(_ZEROS[:-textlen % 16])
        tag = desc.finup(alen.to_bytes(8, "little") + textlen.to_bytes(8, "little"))
        wipe_buffer(desc.state)
        return tag

    def _iv(self, nonce: bytes, blocks: int) -> bytes:
        """The ChaCha20 IV of the text ``blocks`` keystream blocks in (the text starts at block 1)."""
        return self.rule.iv_at((1).to_bytes(4, "little") + nonce, blocks)

    def _buffers(self, chunk_size: int, extra: int = 0):
        if chunk_size <= 0 or chunk_size % self.rule.block_size:
            raise ValueError(f"chunk_size must be a positive multiple of {self.rule.block_size}")
        return bytearray(chunk_size + extra), bytearray(chunk_size)

    def _bad_tag(self) -> CryptoError:
        return CryptoError(EBADMSG, f"{self.aead}: authentication failed (wrong tag, key, IV or "
                                    "associated data): nothing written")

    # -- whole messages ----------------------------------------------------
    def seal(self, iv: bytes, aad: bytes, src: InputSource, write: Writer,
             chunk_size: int = CHUNK) -> None:
        """Encrypt the input, writing ciphertext ‖ tag, chunk by chunk."""
        nonce, ad = self._nonce(iv), self._mac_ad(aad)
        inbuf, outbuf = self._buffers(chunk_size)
        out = memoryview(outbuf)
        desc = self._mac_start(nonce, ad)
        reader = TextReader(src, inbuf, chunk_size, 0)
        try:
            blocks = 0
            for piece in reader.chunks():
                n = len(piece)
                self.chacha.encrypt(piece, self._iv(nonce, blocks), out=out[:n])
                desc.update(out[:n])
                write(out[:n])
                blocks += n // self.rule.block_size
            write(memoryview(self._mac_end(desc, len(ad), reader.textlen)))
        finally:
            wipe_buffer(inbuf)
            wipe_buffer(desc.state)

    def open_one_pass(self, iv: bytes, aad: bytes, src: InputSource, write: Writer,
                      chunk_size: int = CHUNK) -> None:
        """Decrypt the input into ``write`` while computing the tag; EBADMSG at the
        end if it does not verify.  ``write`` must go where nobody can read it
        until the caller keeps it (an unlinked temporary file)."""
        nonce, ad = self._nonce(iv), self._mac_ad(aad)
        inbuf, outbuf = self._buffers(chunk_size, TAG_SIZE)
        out = memoryview(outbuf)
        desc = self._mac_start(nonce, ad)
        reader = TextReader(src, inbuf, chunk_size, TAG_SIZE)
        try:
            blocks = 0
            for piece in reader.chunks():
                n = len(piece)
                desc.update(piece)
                self.chacha.decrypt(piece, self._iv(nonce, blocks), out=out[:n])
                write(out[:n])
                wipe_buffer(outbuf)        # the skcipher snapshots out before writing it
                blocks += n // self.rule.block_size
            tag = self._mac_end(desc, len(ad), reader.textlen)
        finally:
            wipe_buffer(outbuf)
            wipe_buffer(desc.state)
        if not hmac.compare_digest(tag, reader.tag):
            raise self._bad_tag()

    def verify(self, iv: bytes, aad: bytes, src: InputSource, pins: Optional[List[bytes]],
               chunk_size: int = CHUNK) -> None:
        """Pass 1 over a seekable input: check the tag (EBADMSG), decrypting
        nothing; with ``pins`` a list, append each chunk's SHA-256 to it."""
        nonce, ad = self._nonce(iv), self._mac_ad(aad)
        inbuf = bytearray(chunk_size + TAG_SIZE)
        desc = self._mac_start(nonce, ad)
        reader = TextReader(src, inbuf, chunk_size, TAG_SIZE)
        try:
            for piece in reader.chunks():
                desc.update(piece)
                if pins is not None:
                    pins.append(hashlib.sha256(piece).digest())
            tag = self._mac_end(desc, len(ad), reader.textlen)
        finally:
            wipe_buffer(desc.state)
        if not hmac.compare_digest(tag, reader.tag):
            raise self._bad_tag()

    def decrypt_verified(self, iv: bytes, src: InputSource, write: Writer,
                         pins: Optional[List[bytes]], chunk_size: int = CHUNK) -> None:
        """Pass 2: decrypt the input :meth:`verify` authenticated; with ``pins``,
        refuse (EIO, before writing it) a chunk that is not the one verified."""
        nonce = self._nonce(iv)
        inbuf, outbuf = self._buffers(chunk_size, TAG_SIZE)
        out = memoryview(outbuf)
        reader = TextReader(src, inbuf, chunk_size, TAG_SIZE)
        try:
            blocks = 0
            for i, piece in enumerate(reader.chunks()):
                if pins is not None and (i >= len(pins) or hashlib.sha256(piece).digest() != pins[i]):
                    raise CryptoError(errno.EIO, f"{src.name}: changed after its tag was verified "
                                                 f"(at byte {blocks * self.rule.block_size}): "
                                                 "the rest is not decrypted")
                n = len(piece)
                self.chacha.decrypt(piece, self._iv(nonce, blocks), out=out[:n])
                write(out[:n])
                wipe_buffer(outbuf)
                blocks += n // self.rule.block_size
            if pins is not None and (i + 1 if reader.textlen else 0) != len(pins):
                raise CryptoError(errno.EIO, f"{src.name}: changed after its tag was verified "
                                             "(its length): the output is incomplete")
        finally:
            wipe_buffer(outbuf)

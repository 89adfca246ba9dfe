"""``enc``/``dec`` with an AEAD, as libkcapi's kcapi-enc takes one.

    crypto-api enc -c 'rfc7539(chacha20,poly1305)' --keyfile key --iv HEX --aad-file hdr -i in -o out
    crypto-api dec -c 'rfc7539(chacha20,poly1305)' --keyfile key --iv HEX --aad HEX < out > in

The associated data comes from ``--aad-file PATH`` or ``--aad HEX`` (none
by default) and is not part of the output; the tag (``--taglen``, default
16, set with ``setauthsize``) is appended to the ciphertext, and on
decryption it is the input's last ``taglen`` bytes.

An AEAD message is one shot: its tag covers the whole text, and neither the
template instance nor the one-pass drivers offer a way to feed it in
pieces (the kernel API has none either).  So the message is processed in
memory, in place, in ONE buffer holding ``AD ‖ text ‖ room for the tag``:
the input is read straight into it (a pipe is first spooled to an
anonymous temporary file to learn its size: disk, not memory), one request
with src = dst runs over it, and the result is written out of it.  Peak
memory is about the input's size plus the interpreter; the input is never
held twice.

Decryption is verified before a single byte is written anywhere: the
plaintext exists only in that private buffer until the tag has checked.
A bad tag (EBADMSG) wipes the buffer and fails with one line; the output
was never written (a new file is never created, an existing one keeps its
content: the output is an anonymous temporary file until the commit of
tools/output_target.py, so a kill at any point leaves nothing either).
"""

from __future__ import annotations

import ctypes
import errno
import os
from typing import Optional

import crypto_api as capi
from crypto_api.errors import EBADMSG, EINVAL, CryptoError

from .cli_common import parse_iv, read_key_fd, read_key_file, wipe
from .output_target import open_output
from .stream_crypt import InputSource, open_input, spool

#: Refuse AD files larger than this (the AD is held in memory with the text).
MAX_AAD_FILE = 1 << 30


def add_arguments(p) -> None:
    """The AEAD options of ``enc``/``dec`` (refused for a skcipher)."""
    aad = p.add_mutually_exclusive_group()
    aad.add_argument("--aad-file", metavar="PATH", help="AEADs: read the associated data from this file")
    aad.add_argument("--aad", metavar="HEX", help="AEADs: the associated data in hex")
    p.add_argument("--taglen", type=int, metavar="N",
                   help="AEADs: tag length in bytes, appended to the ciphertext (default 16)")


def uses_aead_options(args) -> Optional[str]:
    """The first AEAD-only option given, or None."""
    for opt, value in (("--aad-file", args.aad_file), ("--aad", args.aad), ("--taglen", args.taglen)):
        if value is not None:
            return opt
    return None


def _read_aad(args) -> bytes:
    if args.aad is not None:
        try:
            return bytes.fromhex(args.aad)
        except ValueError:
            raise CryptoError(EINVAL, f"--aad {args.aad[:40]!r}: not a hex string") from None
    if args.aad_file is None:
        return b""
    with open_input(args.aad_file) as src:
        if src.size is not None and src.size > MAX_AAD_FILE:
            raise CryptoError(EINVAL, f"{args.aad_file}: {src.size} bytes of associated data, "
                                      f"more than the {MAX_AAD_FILE} this tool holds in memory")
        buf = bytearray(src.size or 0)
        n = src.read_full(memoryview(buf))
        if n != len(buf):
            raise CryptoError(EINVAL, f"{args.aad_file}: changed while being read")
        return bytes(buf)


def _key(args, tfm) -> None:
    name = tfm.alg.cra_name
    if args.keyfile is None and args.keyfd is None:
        raise CryptoError(EINVAL, f"{name}: needs a key: give --keyfile PATH or --keyfd N")
    key = read_key_file(args.keyfile) if args.keyfile is not None else read_key_fd(args.keyfd)
    try:
        tfm.setkey(key)
    finally:
        wipe(key)


def _wipe(buf: bytearray) -> None:
    """Zero ``buf`` in place (``buf[:] = bytes(n)`` would hold a second n bytes)."""
    if buf:
        ctypes.memset((ctypes.c_char * len(buf)).from_buffer(buf), 0, len(buf))


def _message_buffer(src: InputSource, alen: int, extra: int) -> tuple:
    """(buffer, text length): AD room ‖ the whole input ‖ ``extra`` bytes, read once."""
    n = src.size
    buf = bytearray(alen + n + extra)
    view = memoryview(buf)[alen:alen + n]
    got = 0
    try:
        while got < n:               # at offsets: a spooled input's position is at its end
            k = os.preadv(src.fd, [view[got:]], src.base + got)
            if not k:
                break
            got += k
    except OSError as e:
        raise CryptoError(e.errno or errno.EIO, f"{src.name}: cannot read: {e.strerror}") from None
    if got != n:
        raise CryptoError(EINVAL, f"{src.name}: ends at byte {got} of {n}: it changed while being read")
    return buf, n


def _run_request(tfm, encrypt: bool, buf: bytearray, alen: int, n: int, iv: bytes) -> None:
    """One in-place request over ``buf`` (src = dst), waiting if it goes asynchronous."""
    view = memoryview(buf)
    outlen = n + tfm.authsize if encrypt else n - tfm.authsize
    req = capi.aead_request_alloc(tfm)
    wait = capi.crypto_init_wait()
    capi.aead_request_set_callback(req, capi.CRYPTO_TFM_REQ_MAY_BACKLOG, capi.crypto_req_done, wait)
    capi.aead_request_set_crypt(req, [capi.Scatterlist(view, 0, alen + n)],
                                [capi.Scatterlist(view, 0, alen + outlen)], n, bytearray(iv))
    capi.aead_request_set_ad(req, alen)
    op = capi.crypto_aead_encrypt if encrypt else capi.crypto_aead_decrypt
    err = capi.crypto_wait_req(op(req), wait)
    if err:
        code = -err if err < 0 else err
        raise CryptoError(code, f"{tfm.driver_name}: {'en' if encrypt else 'de'}cryption failed")


def crypt_aead(tfm, encrypt: bool, iv: Optional[bytes], aad: bytes, src: InputSource,
               outfile: Optional[str]) -> None:
    """Encrypt or verify-and-decrypt the whole input; write only an authentic result."""
    if not src.seekable:
        with spool(src) as spooled:
            return crypt_aead(tfm, encrypt, iv, aad, spooled, outfile)
    name, t, alen = tfm.alg.cra_name, tfm.authsize, len(aad)
    if not encrypt and src.size < t:
        raise CryptoError(EINVAL, f"{name}: the input is {src.size} bytes, shorter than the "
                                  f"{t}-byte tag it must end with")
    buf, n = _message_buffer(src, alen, t if encrypt else 0)
    try:
        buf[:alen] = aad
        with open_output(outfile, src.stat) as out:      # nothing written yet
            try:
                _run_request(tfm, encrypt, buf, alen, n, iv or b"")
            except CryptoError as e:
                if e.errno == EBADMSG:
                    raise CryptoError(EBADMSG, f"{name}: authentication failed (wrong tag, key, "
                                                    "IV or associated data): nothing written") from None
                raise
            outlen = n + t if encrypt else n - t
            out.write(memoryview(buf)[alen:alen + outlen])
            out.commit()
    finally:
        _wipe(buf)                     # the plaintext, authentic or not, does not linger


def run_aead(args, tfm) -> int:
    """``enc``/``dec`` for an allocated AEAD ``tfm`` (see the module doc)."""
    _key(args, tfm)
    if args.taglen is not None:
        tfm.setauthsize(args.taglen)
    iv = parse_iv(args.iv, tfm)
    aad = _read_aad(args)
    with open_input(args.infile) as src:
        crypt_aead(tfm, args.encrypt, iv, aad, src, args.outfile)
    return 0


"""``enc``/``dec`` with an AEAD, as libkcapi's kcapi-enc takes one.

    crypto-api enc -c 'rfc7539(chacha20,poly1305)' --key-file key --iv HEX --aad-file hdr -i in -o out
    crypto-api dec -c 'rfc7539(chacha20,poly1305)' --key-file key --iv HEX --aad HEX < out > in

The associated data comes from ``--aad-file PATH`` or ``--aad HEX`` (none
by default) and is not part of the output; the tag (``--taglen``, default
16, set with ``setauthsize``) is appended to the ciphertext, and on
decryption it is the input's last ``taglen`` bytes.

ChaCha20-Poly1305 (``rfc7539`` / ``rfc7539esp``, the template instance or
a one-pass driver of those names) streams in constant memory
(tools/aead_stream.py: the AEAD's own ChaCha20 and Poly1305 children, chunk
by chunk, the same bytes as one request):

* encryption: one pass, the tag written after the ciphertext;
* decryption into a regular file that is replaced (an anonymous
  ``O_TMPFILE`` beside it, tools/output_target.py): one pass, decrypting
  into the unnamed file while computing the tag; the file gets its name
  only if the tag verifies, else it vanishes and the target is untouched;
* decryption to standard output, a pipe, a device or a file written in
  place: two passes, the tag checked over the whole input before a byte is
  decrypted (a pipe is first spooled to an anonymous temporary file: disk,
  not memory); the second pass checks that each chunk is the one verified.

Any other AEAD (no streaming rule known) is one shot, in memory, in place,
in ONE buffer holding ``AD ‖ text ‖ room for the tag`` (peak memory about
the input's size); ``--verbose`` says which way a run goes.  Either way no
unauthenticated plaintext is written anywhere: a bad tag (EBADMSG) fails
with one line and a non-zero exit, the output never written (a new file is
never created, an existing one keeps its content).
"""

from __future__ import annotations

import errno
import os
import sys
from typing import Optional

import crypto_api as capi
from crypto_api.errors import EBADMSG, EINVAL, CryptoError

from .aead_stream import TAG_SIZE, Rfc7539Stream, rewind, stream_for, wipe_buffer
from .cli_common import parse_iv, read_key, wipe
from .output_target import OutputTarget, open_output
from .stream_crypt import CHUNK, InputSource, open_input, spool

#: Refuse AD files larger than this (the AD is held in memory).
MAX_AAD_FILE = 1 << 30


def add_arguments(p) -> None:
    """The AEAD options of ``enc``/``dec`` (refused for a skcipher)."""
    aad = p.add_mutually_exclusive_group()
    aad.add_argument("--aad-file", metavar="PATH", help="AEADs: read the associated data from this file")
    aad.add_argument("--aad", metavar="HEX", help="AEADs: the associated data in hex")
    p.add_argument("--taglen", type=int, metavar="N",
                   help="AEADs: tag length in bytes, appended to the ciphertext (default 16)")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="AEADs: say on standard error how the message is processed "
                        "(streamed, and through which drivers, or in memory)")


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


def _key(args, tfm, stream: Optional[Rfc7539Stream]) -> None:
    """Key the AEAD (which checks the key) and, when streaming, its children."""
    key = read_key(args, tfm.alg.cra_name)
    try:
        tfm.setkey(key)
        if stream is not None:
            stream.setkey(key)
    finally:
        wipe(key)


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
        wipe_buffer(buf)               # the plaintext, authentic or not, does not linger


def _one_pass_target(out: OutputTarget) -> bool:
    """Whether ``out`` is an unnamed file that is linked only at commit (O_TMPFILE)."""
    return out.replacing and out.temp_path is None


def stream_aead(stream: Rfc7539Stream, encrypt: bool, iv: bytes, aad: bytes, src: InputSource,
                outfile: Optional[str], chunk_size: int = CHUNK) -> str:
    """Encrypt, or decrypt releasing only authentic plaintext, in constant
    memory (see the module doc); returns how it went, for ``--verbose``."""
    if not encrypt and src.seekable and src.size < TAG_SIZE:
        raise CryptoError(EINVAL, f"{stream.aead}: the input is {src.size} bytes, shorter than "
                                  f"the {TAG_SIZE}-byte tag it must end with")
    with open_output(outfile, src.stat) as out:            # nothing written yet
        how = _stream_into(stream, encrypt, iv, aad, src, out, chunk_size)
        out.commit()
    return f"{how}, through {stream.children}"


def _stream_into(stream: Rfc7539Stream, encrypt: bool, iv: bytes, aad: bytes, src: InputSource,
                 out: OutputTarget, chunk_size: int) -> str:
    if encrypt:
        stream.seal(iv, aad, src, out.write, chunk_size)
        return "streamed in one pass"
    if _one_pass_target(out):
        # a bad tag raises before commit(): the unnamed file vanishes with ``out``
        stream.open_one_pass(iv, aad, src, out.write, chunk_size)
        return "decrypted in one pass into an unnamed temporary file, named once the tag verified"
    if not src.seekable:
        with spool(src) as spooled:
            return _stream_into(stream, encrypt, iv, aad, spooled, out, chunk_size)
    pins = None if src.spool is not None else []     # a spool is private: nobody changes it
    rewind(src)                                    # (a spool's position is at its end)
    stream.verify(iv, aad, src, pins, chunk_size)
    rewind(src)
    stream.decrypt_verified(iv, src, out.write, pins, chunk_size)
    return "two passes: the tag verified over the whole input, then decrypted"


def _note(args, text: str) -> None:
    if args.verbose:
        print(f"{'enc' if args.encrypt else 'dec'}: {text}", file=sys.stderr)


def run_aead(args, tfm) -> int:
    """``enc``/``dec`` for an allocated AEAD ``tfm`` (see the module doc)."""
    if args.taglen is not None:
        tfm.setauthsize(args.taglen)
    stream = stream_for(tfm)
    try:
        _key(args, tfm, stream)
        iv = parse_iv(args.iv, tfm)
        aad = _read_aad(args)
        with open_input(args.infile) as src:
            if stream is None:
                _note(args, f"{tfm.driver_name}: no streaming rule for this AEAD: the whole "
                            "message is processed in memory, in one request")
                crypt_aead(tfm, args.encrypt, iv, aad, src, args.outfile)
            else:
                how = stream_aead(stream, args.encrypt, iv or b"", aad, src, args.outfile)
                _note(args, f"{tfm.driver_name}: {how}")
    finally:
        if stream is not None:
            stream.free()
    return 0

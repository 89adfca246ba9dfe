"""``enc`` / ``dec``: file encryption in the style of libkcapi's kcapi-enc.

    crypto-api enc -c 'adiantum(xchacha12,aes)' --key-file key --iv HEX -i in -o out
    crypto-api dec -c xchacha20 --key-fd 3 --iv HEX < in > out 3< key

Any skcipher name the registry can resolve works, templates included; an
AEAD name (``rfc7539(chacha20,poly1305)``) goes to tools/aead_crypt.py, with
``--aad``/``--aad-file`` and ``--taglen``, the tag appended.  The
input (stdin by default) is one message under the given IV: a stream cipher
or a length-preserving cipher such as Adiantum needs no padding and the
output has the input's length; so does ``xts``, which steals ciphertext for
a partial last block, while ``ecb``/``cbc`` take whole blocks only (this
tool never pads).  The key comes from a file (``--key-file``, alias
``--keyfile``) or an inherited descriptor (``--key-fd``, alias ``--keyfd``),
never from the command line (where other users could read it in the process
list).

Memory stays constant for inputs of any size: stream ciphers go chunk by
chunk (tools/stream_crypt.py), so do ``ecb``, ``cbc``, ``ctr`` and ``xts``
(tools/block_stream.py), Adiantum in two passes over the input.  A pipe is
spooled to an anonymous temporary file first where the length must be known
before anything is written (Adiantum; ``ecb``/``cbc``, to refuse a partial
block up front).  Everything is checked (key, IV, the length rules) before
the output is touched, and the output is
written by tools/output_target.py's rule: devices and FIFOs in place, a
regular file replaced atomically where the user could have written it, so a
failure or a kill leaves the old file or the complete new one.
"""

from __future__ import annotations

import contextlib

import crypto_api as capi
from crypto_api.errors import EINVAL, ENOENT, CryptoError

from .aead_crypt import add_arguments as add_aead_arguments
from .aead_crypt import run_aead, uses_aead_options
from .block_stream import block_chain_for, crypt_chained
from .cli_common import add_key_options, check_length, length_rule, parse_iv, read_key, wipe
from .output_target import open_output
from .stream_continuation import continuation_for
from .stream_crypt import (InputSource, crypt_adiantum, crypt_with_continuation, open_input,
                           read_whole, spool)


def register_enc(sub) -> None:
    _register(sub, "enc", "encrypt")


def register_dec(sub) -> None:
    _register(sub, "dec", "decrypt")


def _register(sub, cmd: str, verb: str) -> None:
    p = sub.add_parser(
        cmd, help=f"{verb} a file or stdin with any skcipher or AEAD (kcapi-enc style)",
        description=f"{verb.capitalize()} the whole input as one message with a skcipher "
                    "(no padding: stream ciphers, length-preserving ciphers such as Adiantum, "
                    "xts with ciphertext stealing; ecb and cbc take whole blocks only).")
    p.add_argument("-c", "--cipher", required=True, metavar="NAME",
                   help="skcipher or AEAD name or driver name, templates included, "
                        "e.g. 'adiantum(xchacha12,aes)', xchacha20, 'rfc7539(chacha20,poly1305)'")
    p.add_argument("-i", "--infile", metavar="PATH", help="input file (default: stdin)")
    p.add_argument("-o", "--outfile", metavar="PATH", help="output file (default: stdout)")
    add_key_options(p, key_help="read the raw key from this file", fd=True)
    p.add_argument("--iv", metavar="HEX", help="the IV in hex (required when the cipher has one)")
    add_aead_arguments(p)
    p.set_defaults(func=run, encrypt=(cmd == "enc"))


def _is_adiantum(tfm) -> bool:
    return tfm.alg.cra_name.startswith("adiantum(")


def _crypt(tfm, encrypt: bool, iv, src: InputSource, outfile, chain) -> None:
    """Check the message, open the output, stream the result into it."""
    rule = continuation_for(tfm)
    adiantum = rule is None and chain is None and _is_adiantum(tfm)
    if not src.seekable and (adiantum or (chain is not None and length_rule(tfm)[1] > 1)):
        with spool(src) as spooled:
            return _crypt(tfm, encrypt, iv, spooled, outfile, chain)
    if src.seekable:
        check_length(tfm, src.size, "the input")
    if chain is not None:
        return _crypt_chained(tfm, encrypt, iv, src, outfile, chain)
    if rule is None and not adiantum:
        data = read_whole(src)
        check_length(tfm, len(data), "the input")
        data = tfm.encrypt(data, iv) if encrypt else tfm.decrypt(data, iv)
    with open_output(outfile, src.stat) as out:
        if rule is not None:
            crypt_with_continuation(tfm, encrypt, iv, rule, src, out.write)
        elif adiantum:
            crypt_adiantum(tfm, encrypt, iv, src, out.write)
        else:
            out.write(data)
        out.commit()


def _crypt_chained(tfm, encrypt: bool, iv, src: InputSource, outfile, chain) -> None:
    """A block mode chunk by chunk; the first chunk is read (and a too short
    input refused) before the output is opened."""
    pieces = crypt_chained(tfm, encrypt, iv, chain, src)
    with contextlib.closing(pieces):
        first = next(pieces, None)
        with open_output(outfile, src.stat) as out:
            if first is not None:
                out.write(first)
                for piece in pieces:
                    out.write(piece)
            out.commit()


def _alloc(name: str):
    """(tfm, is_aead): ``name`` as a skcipher, else as an AEAD (a template
    instance of the other type is EINVAL, an unknown name ENOENT); when
    neither type has it, the skcipher's refusal."""
    try:
        return capi.crypto_alloc_skcipher(name), False
    except CryptoError as e:
        if e.errno not in (ENOENT, EINVAL):
            raise
        try:
            return capi.crypto_alloc_aead(name), True
        except CryptoError:
            pass
        raise


def run(args) -> int:
    tfm, aead = _alloc(args.cipher)
    if aead:
        with tfm:
            return run_aead(args, tfm)
    opt = uses_aead_options(args)
    if opt is not None:
        tfm.free()
        raise CryptoError(EINVAL, f"{args.cipher}: {opt} is for AEADs, and this is a skcipher "
                                  f"({tfm.alg.cra_driver_name})")
    with tfm:
        key = None
        if args.key_file is not None or args.key_fd is not None or tfm.max_keysize:
            key = read_key(args, tfm.alg.cra_name)
        try:
            if key is not None:
                tfm.setkey(key)
            chain = block_chain_for(tfm, key)
        finally:
            if key is not None:
                wipe(key)
        try:
            iv = parse_iv(args.iv, tfm)
            with open_input(args.infile) as src:
                _crypt(tfm, args.encrypt, iv, src, args.outfile, chain)
        finally:
            if chain is not None:
                chain.close()
    return 0

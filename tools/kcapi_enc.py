"""``enc`` / ``dec``: file encryption in the style of libkcapi's kcapi-enc.

    crypto-api enc -c 'adiantum(xchacha12,aes)' --keyfile key --iv HEX -i in -o out
    crypto-api dec -c xchacha20 --keyfd 3 --iv HEX < in > out 3< key

Any skcipher name the registry can resolve works, templates included.  The
input is read whole (stdin by default) and processed as one message with the
given IV: a stream cipher or a length-preserving cipher such as Adiantum
needs no padding and the output has the input's length.  The key comes from
a file or an inherited descriptor, never from the command line (where other
users could read it in the process list).  Everything is checked (key
length, IV length, message length against the algorithm) and the message is
processed before the output is opened, so an error never leaves a truncated
or partial output file.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile

import crypto_api as capi
from crypto_api.errors import EINVAL, CryptoError

from .cli_common import check_length, read_key_fd, read_key_file, wipe


def register(sub) -> None:
    for cmd, verb in (("enc", "encrypt"), ("dec", "decrypt")):
        p = sub.add_parser(
            cmd, help=f"{verb} a file or stdin with any skcipher (kcapi-enc style)",
            description=f"{verb.capitalize()} the whole input as one message with a skcipher "
                        "(no padding: stream ciphers and length-preserving ciphers such as Adiantum).")
        p.add_argument("-c", "--cipher", required=True, metavar="NAME",
                       help="skcipher name or driver name, templates included, "
                            "e.g. 'adiantum(xchacha12,aes)', xchacha20, xchacha12-generic")
        p.add_argument("-i", "--infile", metavar="PATH", help="input file (default: stdin)")
        p.add_argument("-o", "--outfile", metavar="PATH", help="output file (default: stdout)")
        key = p.add_mutually_exclusive_group()
        key.add_argument("--keyfile", metavar="PATH", help="read the raw key from this file")
        key.add_argument("--keyfd", type=int, metavar="N",
                         help="read the raw key from inherited file descriptor N (to EOF)")
        p.add_argument("--iv", metavar="HEX", help="the IV in hex (required when the cipher has one)")
        p.set_defaults(func=run, encrypt=(cmd == "enc"))


def _parse_iv(text, tfm) -> bytes:
    name = tfm.alg.cra_name
    if text is None:
        if tfm.ivsize:
            raise CryptoError(EINVAL, f"{name}: needs --iv with {tfm.ivsize} bytes ({2 * tfm.ivsize} hex digits)")
        return None
    try:
        iv = bytes.fromhex(text)
    except ValueError:
        raise CryptoError(EINVAL, f"--iv {text[:40]!r}: not a hex string") from None
    if len(iv) != tfm.ivsize:
        raise CryptoError(EINVAL, f"{name}: --iv gives {len(iv)} byte{'' if len(iv) == 1 else 's'}, "
                                  f"the IV is {tfm.ivsize} bytes")
    return iv


def _read_input(path) -> bytes:
    if path is None:
        return sys.stdin.buffer.read()
    with open(path, "rb") as f:
        return f.read()


def _write_output(path, data: bytes) -> None:
    if path is None:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    # Write a temporary file beside the target and rename it into place, so a
    # failed write (a full disk, say) never leaves a partial output file.
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".crypto-api-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if os.path.exists(path):
            shutil.copymode(path, tmp)
        else:
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def run(args) -> int:
    tfm = capi.crypto_alloc_skcipher(args.cipher)
    try:
        name = tfm.alg.cra_name
        if args.keyfile is None and args.keyfd is None:
            if tfm.max_keysize:
                raise CryptoError(EINVAL, f"{name}: needs a key: give --keyfile PATH or --keyfd N")
        else:
            key = read_key_file(args.keyfile) if args.keyfile is not None else read_key_fd(args.keyfd)
            try:
                tfm.setkey(key)
            finally:
                wipe(key)
        iv = _parse_iv(args.iv, tfm)
        data = _read_input(args.infile)
        check_length(tfm, len(data), "the input")
        out = tfm.encrypt(data, iv) if args.encrypt else tfm.decrypt(data, iv)
    finally:
        tfm.free()
    _write_output(args.outfile, out)
    return 0

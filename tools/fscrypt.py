"""``fscrypt``: fscrypt's on-disk encryption computed offline (crypto_api.fscrypt).

    crypto-api fscrypt key-id --master-key-file KEY
    crypto-api fscrypt encrypt-file --policy v2:1:4:pad32 --master-key-file KEY \\
        --nonce HEX [--ino N --fs-uuid HEX] [--data-unit-size N] -i IN -o OUT
    crypto-api fscrypt decrypt-file ... [--size BYTES] -i IN -o OUT
    crypto-api fscrypt encrypt-name ... [--nokey] NAME
    crypto-api fscrypt decrypt-name ... HEX

No kernel counterpart as a program: the kernel does this inside ext4, f2fs
and ubifs; xfstests' fscrypt-crypt-util does it for the tests.  The policy
is ``VERSION:CONTENTS:FILENAMES[:FLAG,...]`` (crypto_api.fscrypt.policy).
The master key comes from a file, never from the command line.  Contents
go data unit by data unit; the output is written by tools/output_target.py's
rule (a regular file replaced atomically through a temporary file in its
directory), after the input's length was checked where it can be.
"""

from __future__ import annotations

import os
import sys
from typing import Iterator

from crypto_api.errors import EINVAL, CryptoError
from crypto_api.fscrypt import (DEFAULT_DATA_UNIT_SIZE, FscryptInode, Policy, check_data_unit_size,
                                check_size, crypt_units, decrypt_name, encrypt_name,
                                key_identifier, nokey_name)

from .cli_common import read_key_file, wipe
from .output_target import open_output
from .stream_crypt import InputSource, open_input


def register(sub) -> None:
    p = sub.add_parser("fscrypt", help="fscrypt (ext4/f2fs/ubifs) file and name encryption, offline",
                       description="Compute what fscrypt stores: key identifiers, encrypted "
                                   "contents and names, from a policy and the master key.")
    cmds = p.add_subparsers(dest="fscrypt_command", metavar="SUBCOMMAND")
    cmds.required = True
    p.set_defaults(func=run)
    k = cmds.add_parser("key-id", help="print a v2 master key's identifier")
    _key_option(k)
    k.set_defaults(fscrypt_func=run_key_id)
    for verb in ("encrypt", "decrypt"):
        f = cmds.add_parser(f"{verb}-file", help=f"{verb} a file's contents as fscrypt stores them")
        _inode_options(f)
        f.add_argument("-i", "--infile", metavar="PATH", help="input file (default: stdin)")
        f.add_argument("-o", "--outfile", metavar="PATH", help="output file (default: stdout)")
        f.add_argument("--data-unit-size", type=int, default=DEFAULT_DATA_UNIT_SIZE, metavar="N",
                       help="bytes per data unit, a power of two from 512 to 65536 (default 4096)")
        if verb == "decrypt":
            f.add_argument("--size", type=int, metavar="BYTES",
                           help="the file's size (i_size): cut the last data unit to it")
        f.set_defaults(fscrypt_func=run_file, encrypt=(verb == "encrypt"))
    n = cmds.add_parser("encrypt-name", help="print a name's ciphertext (hex) or no-key name")
    _inode_options(n, what="directory")
    n.add_argument("name", metavar="NAME", help="the plaintext name (1 to 255 bytes)")
    n.add_argument("--nokey", action="store_true",
                   help="print the no-key name readdir shows without the key (kernel 5.15+ form)")
    n.add_argument("--dirhash", type=int, default=0, metavar="N", help="hash for --nokey (default 0)")
    n.add_argument("--minor-hash", type=int, default=0, metavar="N",
                   help="minor hash for --nokey (default 0)")
    n.set_defaults(fscrypt_func=run_encrypt_name)
    d = cmds.add_parser("decrypt-name", help="print the name a ciphertext (hex) holds")
    _inode_options(d, what="directory")
    d.add_argument("ciphertext", metavar="HEX", help="the stored name, in hex")
    d.set_defaults(fscrypt_func=run_decrypt_name)


def run(args) -> int:
    """The subcommand's function."""
    return args.fscrypt_func(args)


def _key_option(p) -> None:
    p.add_argument("--master-key-file", required=True, metavar="PATH",
                   help="read the raw master key from this file")


def _inode_options(p, what: str = "file") -> None:
    p.add_argument("--policy", required=True, metavar="SPEC",
                   help="VERSION:CONTENTS:FILENAMES[:FLAG,...], e.g. v2:1:4:pad32, "
                        "v2:9:9:direct_key, v2:1:4:iv_ino_lblk_64")
    _key_option(p)
    p.add_argument("--nonce", required=True, metavar="HEX", help=f"the {what}'s 16-byte nonce")
    p.add_argument("--ino", type=int, metavar="N",
                   help=f"the {what}'s inode number (iv_ino_lblk_64/32 policies)")
    p.add_argument("--fs-uuid", metavar="HEX", help="the filesystem UUID (iv_ino_lblk_64/32)")


def _hex(text: str, what: str, size=None) -> bytes:
    try:
        data = bytes.fromhex(text.replace("-", ""))
    except ValueError:
        raise CryptoError(EINVAL, f"fscrypt: {what} {text!r} is not hex") from None
    if size is not None and len(data) != size:
        raise CryptoError(EINVAL, f"fscrypt: {what} is {len(data)} bytes; it must be {size}")
    return data


def _inode(args) -> FscryptInode:
    policy = Policy.parse(args.policy)
    nonce = _hex(args.nonce, "the nonce", 16)
    uuid = None if args.fs_uuid is None else _hex(args.fs_uuid, "the filesystem UUID", 16)
    key = read_key_file(args.master_key_file)
    try:
        return FscryptInode(policy, key, nonce, args.ino, uuid)
    finally:
        wipe(key)


def run_key_id(args) -> int:
    key = read_key_file(args.master_key_file)
    try:
        print(key_identifier(key).hex())
    finally:
        wipe(key)
    return 0


def _units(src: InputSource, size: int) -> Iterator[bytes]:
    buf = bytearray(size)
    view = memoryview(buf)
    while True:
        n = src.read_full(view)
        if not n:
            return
        yield bytes(view[:n])
        if n < size:
            return


def run_file(args) -> int:
    du = check_data_unit_size(args.data_unit_size)
    size = None if args.encrypt else args.size
    with _inode(args) as inode, open_input(args.infile) as src:
        if not args.encrypt and src.seekable:
            if src.size % du:
                raise CryptoError(EINVAL, f"fscrypt: {src.name}: {src.size} bytes are not "
                                          f"whole {du}-byte data units")
            check_size(size, src.size, du)
        pieces = crypt_units(inode, _units(src, du), args.encrypt, du)
        with open_output(args.outfile, src.stat) as out:
            stored = 0
            for piece in pieces:
                if size is not None:
                    piece = piece[:max(0, size - stored)]
                out.write(piece)
                stored += du
            check_size(size, stored, du)        # a pipe's length is known only now
            out.commit()
    return 0


def run_encrypt_name(args) -> int:
    with _inode(args) as inode:
        ct = encrypt_name(inode, os.fsencode(args.name))
    print(nokey_name(ct, args.dirhash, args.minor_hash) if args.nokey else ct.hex())
    return 0


def run_decrypt_name(args) -> int:
    with _inode(args) as inode:
        name = decrypt_name(inode, _hex(args.ciphertext, "the ciphertext"))
    sys.stdout.buffer.write(name + b"\n")
    sys.stdout.flush()
    return 0

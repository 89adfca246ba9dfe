"""The ``ecb`` template (crypto/ecb.c): ``ecb(<cipher>)`` runs the cipher's
one-block function over every block.  The instance is an skcipher (the
5.2+ type; v5.0 registered a blkcipher), ivsize 0, names, priority and key
sizes of the cipher.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs.modes_common import CIPHER_DELEGATE, dst_ptr, simple_instance, src_ptr, walk_blocks
from crypto_api.algs._modes import lib

MODULE_NAME = "ecb"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("ecb")


def _crypt(req, encrypt: bool) -> None:
    ctx = req.tfm.ctx
    cipher = ctx.cipher
    one = cipher.encrypt_one if encrypt else cipher.decrypt_one
    bs = cipher.alg.cra_blocksize

    def step(src, dst, n):
        run = ctx.run
        if run is not None and run(encrypt, lambda fn, c: lib.modes_ecb(fn, c, dst_ptr(dst), src_ptr(src),
                                                                          n // bs), n):
            return
        for o in range(0, n, bs):
            dst[o:o + bs] = one(bytes(src[o:o + bs]))
    walk_blocks(req, step)


def ecb_encrypt(req) -> None:
    _crypt(req, True)


def ecb_decrypt(req) -> None:
    _crypt(req, False)


def ecb_create(tmpl, tb) -> None:
    simple_instance(tmpl, tb, "ecb", encrypt=ecb_encrypt, decrypt=ecb_decrypt,
                    c_entries=(CIPHER_DELEGATE,))


TEMPLATE = capi.Template(name="ecb", create=ecb_create)


def module_init() -> None:
    capi.crypto_register_template(TEMPLATE)


def module_exit() -> None:
    capi.crypto_unregister_template(TEMPLATE)

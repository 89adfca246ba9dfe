"""Made-up skciphers and a skcipher template written against the public interface, for tests.

``xor_skcipher(name, driver)`` is a skcipher that XORs with a one-byte key
(no test vectors exist for it), over the skcipher walk.
``wrap_template(tname)`` makes the template ``tname(inner)``: its instances
grab ``inner`` as a skcipher spawn and forward every request to a child of
it (crypto/algapi.c's instance and spawn machinery, as a user-written
template drives it).  ``calls`` records each create's attribute list and
``fail_with`` makes the next creates raise the given errors.
"""

import crypto_api as capi
from crypto_api.errors import EINVAL


def xor_skcipher(name, driver, priority=100, flags=0, **extra):
    """A made-up skcipher: XOR with a one-byte key; ``extra`` overrides descriptor fields."""

    def setkey(tfm, key):
        tfm.ctx.k = key[0]

    def crypt(req):
        k = capi.crypto_skcipher_ctx(capi.crypto_skcipher_reqtfm(req)).k
        walk = capi.skcipher_walk_virt(req)
        while walk.nbytes:
            walk.dst[:walk.nbytes] = bytes(b ^ k for b in walk.src[:walk.nbytes])
            capi.skcipher_walk_done(walk, 0)

    fields = dict(cra_name=name, cra_driver_name=driver, cra_priority=priority, cra_flags=flags,
                  cra_blocksize=1, min_keysize=1, max_keysize=1, setkey=setkey,
                  encrypt=crypt, decrypt=crypt)
    fields.update(extra)
    return capi.SkcipherAlg(**fields)


def wrap_template(tname, calls=None, fail_with=None):
    """``tname(inner)``: an instance forwarding every request to a child of ``inner``."""

    def create(tmpl, tb):
        if calls is not None:
            calls.append(list(tb))
        if fail_with:
            raise fail_with.pop(0)
        algt = capi.crypto_get_attr_type(tb)
        if (algt.type ^ capi.CRYPTO_ALG_TYPE_SKCIPHER) & algt.mask & capi.CRYPTO_ALG_TYPE_MASK:
            raise capi.CryptoError(EINVAL, f"{tname}: instances are skciphers")
        spawn = capi.crypto_grab_skcipher(capi.crypto_attr_alg_name(tb, 1, tname))
        a = spawn.alg

        def init(tfm):
            tfm.ctx.child = capi.crypto_spawn_skcipher(spawn)

        def exit_(tfm):
            tfm.ctx.child.free()

        def crypt(req, enc):
            child = req.tfm.ctx.child
            sub = capi.skcipher_request_alloc(child)
            capi.skcipher_request_set_crypt(sub, req.src, req.dst, req.cryptlen, req.iv)
            (capi.crypto_skcipher_encrypt if enc else capi.crypto_skcipher_decrypt)(sub)

        inst = capi.SkcipherAlg(
            cra_name=capi.crypto_inst_name(tname, a.cra_name),
            cra_driver_name=capi.crypto_inst_name(tname, a.cra_driver_name),
            cra_priority=a.cra_priority, cra_blocksize=a.cra_blocksize,
            min_keysize=a.min_keysize, max_keysize=a.max_keysize, ivsize=a.ivsize,
            setkey=lambda tfm, key: tfm.ctx.child.setkey(key),
            encrypt=lambda req: crypt(req, True), decrypt=lambda req: crypt(req, False),
            init=init, exit=exit_)
        capi.skcipher_register_instance(tmpl, inst, [spawn])

    return capi.Template(name=tname, create=create)

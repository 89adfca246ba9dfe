"""The walk's IV handling (crypto/skcipher.c: skcipher_copy_iv and the
copy-back in skcipher_walk_done) and a zero-length walk.

An algorithm with an alignment mask works on an aligned copy of the IV, and
the caller's IV receives the result only when the walk ends; without a mask
the driver works on the caller's IV directly.
"""

import crypto_api as capi


def _counter_alg(name, alignmask, seen):
    """A toy 16-byte-block cipher that bumps the IV's first byte per block."""

    def setkey(tfm, key):
        pass

    def crypt(req):
        walk = capi.skcipher_walk_virt(req)
        while walk.nbytes:
            n = walk.nbytes - walk.nbytes % 16
            for i in range(0, n, 16):
                walk.dst[i:i + 16] = bytes(b ^ walk.iv[0] for b in walk.src[i:i + 16])
                walk.iv[0] = (walk.iv[0] + 1) & 0xFF
            seen.append(bytes(req.iv))          # the caller's IV while the walk runs
            capi.skcipher_walk_done(walk, walk.nbytes - n)

    return capi.SkcipherAlg(cra_name=name, cra_driver_name=name + "-test", cra_priority=1,
                            cra_blocksize=16, cra_alignmask=alignmask, min_keysize=0,
                            max_keysize=0, ivsize=16, setkey=setkey, encrypt=crypt, decrypt=crypt)


def _run(name, alignmask):
    seen = []
    alg = _counter_alg(name, alignmask, seen)
    capi.crypto_register_skcipher(alg)
    try:
        with capi.crypto_alloc_skcipher(name + "-test") as tfm:
            buf = bytearray(8192)
            sgl = capi.sg_init_table(2)
            capi.sg_set_buf(sgl[0], buf, 0, 4096)
            capi.sg_set_buf(sgl[1], buf, 4096, 4096)
            iv = bytearray(16)
            req = capi.skcipher_request_alloc(tfm)
            capi.skcipher_request_set_crypt(req, sgl, sgl, 8192, iv)
            capi.crypto_skcipher_encrypt(req)
            return seen, bytes(iv)
    finally:
        capi.crypto_unregister_skcipher(alg)


def test_iv_copied_back_only_at_the_end_with_an_alignmask():
    seen, final = _run("walkiv-aligned", 3)
    assert len(seen) == 2
    assert seen[0] == bytes(16)                 # untouched while the walk runs
    assert final[0] == 8192 // 16 % 256         # the driver's IV arrives at the end


def test_iv_used_in_place_without_an_alignmask():
    seen, final = _run("walkiv-plain", 0)
    assert seen[0][0] == 4096 // 16 % 256       # updated as the driver goes
    assert final[0] == 8192 // 16 % 256


def test_zero_length_walk_has_its_parameters():
    capi.request_module("crypto-xchacha12")
    with capi.crypto_alloc_skcipher("xchacha12-generic") as tfm:
        tfm.setkey(bytes(32))
        req = capi.skcipher_request_alloc(tfm)
        capi.skcipher_request_set_crypt(req, capi.sg_init_table(0), capi.sg_init_table(0), 0, bytearray(32))
        walk = capi.skcipher_walk_virt(req)
        assert (walk.nbytes, walk.total) == (0, 0)
        assert (walk.stride, walk.blocksize, walk.ivsize) == (64, 1, 32)

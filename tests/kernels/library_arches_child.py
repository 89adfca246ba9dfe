"""Child process of test_chacha_library_arches.py: boot one kernel version on
one emulated machine and report, as JSON, what its ChaCha drivers do.

Run as ``python library_arches_child.py VERSION`` with the machine and CPU
chosen by CRYPTO_API_ARCH and CRYPTO_API_CPU.  For chacha20, xchacha20 and
xchacha12: the driver allocated, the bytes of a request over several
scatterlist entries, its SIMD sections, those of a 64-byte request, and the
same request while SIMD is not usable.  Beside them, the walk steps a
made-up skcipher sees over the same scatterlist with stride 64 and with the
driver's walksize (the skcipher walk is the core's; rounding non-final steps
down to the stride is what every ChaCha glue does), which the parent turns
into the sections each version's rules predict.
"""

import json
import sys

import crypto_api as capi

#: scatterlist entries of one buffer: steps of 64 bytes or less, a page crossing, a partial block
LENGTHS = [64, 1024, 40, 4096, 100, 3652, 64]
KEY = bytes(range(32))


def step_recorder(stride):
    """A made-up skcipher (XOR with a one-byte key) that records its walk steps."""
    steps = []

    def setkey(tfm, key):
        tfm.ctx.k = key[0]

    def crypt(req):
        walk = capi.skcipher_walk_virt(req, atomic=False)
        while walk.nbytes:
            n = walk.nbytes
            if n < walk.total:
                n -= n % walk.stride
            steps.append(n)
            walk.dst[:n] = bytes(b ^ req.tfm.ctx.k for b in walk.src[:n])
            capi.skcipher_walk_done(walk, walk.nbytes - n)

    alg = capi.SkcipherAlg(cra_name=f"toy-steps-{stride}", cra_driver_name=f"toy-steps-{stride}-drv",
                           cra_priority=100, cra_blocksize=1, min_keysize=1, max_keysize=1, chunksize=64,
                           walksize=stride, setkey=setkey, encrypt=crypt, decrypt=crypt)
    return alg, steps


def scattered(tfm, data, iv):
    """Encrypt ``data`` over LENGTHS entries of one buffer (in place)."""
    buf = bytearray(data)
    sgl = capi.sg_init_table(len(LENGTHS))
    pos = 0
    for sg, n in zip(sgl, LENGTHS):
        capi.sg_set_buf(sg, buf, pos, n)
        pos += n
    req = capi.skcipher_request_alloc(tfm)
    capi.skcipher_request_set_crypt(req, sgl, sgl, pos, bytearray(iv))
    capi.crypto_skcipher_encrypt(req)
    return bytes(buf)


def walk_steps(stride, data):
    alg, steps = step_recorder(stride)
    capi.crypto_register_skcipher(alg)
    with capi.crypto_alloc_skcipher(alg.cra_driver_name) as t:
        t.setkey(b"\x01")
        scattered(t, data, b"")
    capi.crypto_unregister_skcipher(alg)
    return steps


def main(version):
    capi.boot(kernel=version)
    data = bytes(i % 251 for i in range(sum(LENGTHS)))
    got = {}
    for name, ivsize in (("chacha20", 16), ("xchacha20", 32), ("xchacha12", 32)):
        t = capi.crypto_alloc_skcipher(name)
        t.setkey(KEY)
        iv = bytes(range(100, 100 + ivsize))
        with capi.fpu_trace() as tr:
            out = scattered(t, data, iv)
        with capi.fpu_trace() as short:
            t.encrypt(data[:64], iv)
        with capi.simd_disabled(), capi.fpu_trace() as nosimd:
            plain = t.encrypt(data, iv)
        got[name] = {"driver": t.driver_name, "priority": t.alg.cra_priority, "module": t.alg.cra_module,
                     "walksize": t.alg.walksize, "sections": tr.nbytes, "units": sorted(set(tr.units)),
                     "short": short.nbytes, "nosimd": nosimd.nbytes, "out": out.hex(),
                     "nosimd_out": bytes(plain).hex(),
                     "steps": walk_steps(t.alg.walksize, data)}
        t.free()
    got["steps64"] = walk_steps(64, data)
    with capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)") as a:
        a.setkey(KEY)
        with capi.fpu_trace() as tr:
            a.encrypt(data[:4096], bytes(32))
        got["adiantum"] = {"driver": a.driver_name, "units": sorted(set(tr.units)), "sections": tr.nbytes}
    print(json.dumps(got))


if __name__ == "__main__":
    main(sys.argv[1])

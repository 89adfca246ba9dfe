"""Child process of test_version_rules_core.py: boot one kernel version and
report, as JSON, what the rules of the core and the glue let a caller see.

Run as ``python rules_child.py VERSION``.  Every answer is the behaviour
itself (bytes out, an errno, a trace's sections); the parent judges it
against an independent model.  The plug-ins registered here (a made-up
AEAD and skcipher) are not in the version table, so the rules, not the
table's rows, decide what happens to them.
"""

import json
import sys

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import boot_cpu_has
from toy_skciphers import wrap_template, xor_skcipher

KEY = bytes(range(32))
TWEAK = bytes(range(16, 32))


def outcome(fn):
    try:
        out = fn()
    except capi.CryptoError as e:
        return ["err", e.errno]
    return ["ok", None if out is None or isinstance(out, int) else bytes(out).hex()]


def xts(name):
    t = capi.crypto_alloc_skcipher(name)
    t.setkey(KEY)
    data = bytes(range(40))
    got = {"driver": t.alg.cra_driver_name}
    for n in (0, 15, 16, 31, 32):
        got[f"enc{n}"] = outcome(lambda: t.encrypt(data[:n], TWEAK))
        got[f"dec{n}"] = outcome(lambda: t.decrypt(data[:n], TWEAK))
    t.free()
    return got


def setauthsize_zero():
    alg = capi.AeadAlg(cra_name="toy-aead", cra_driver_name="toy-aead-rules", cra_priority=100,
                       cra_blocksize=1, ivsize=0, maxauthsize=8, setkey=lambda tfm, key: None,
                       encrypt=lambda req: None, decrypt=lambda req: None)
    capi.crypto_register_aead(alg)
    with capi.crypto_alloc_aead("toy-aead-rules") as tfm:
        r = outcome(lambda: tfm.setauthsize(0))
        return {"setauthsize0": r, "authsize": tfm.authsize}


def duplicate_driver():
    first = xor_skcipher("toy-dup", "toy-dup-driver", priority=100)
    second = xor_skcipher("toy-dup", "toy-dup-driver", priority=50)
    capi.crypto_register_skcipher(first)
    got = {"second": outcome(lambda: capi.crypto_register_skcipher(second))}
    with capi.crypto_alloc_skcipher("toy-dup-driver") as t:
        got["by_driver_priority"] = t.alg.cra_priority
    got["listed"] = sum(1 for a in capi.registry.snapshot()
                        if a.cra_driver_name == "toy-dup-driver" and not a.is_larval)
    return got


def empty_names():
    """Descriptors with an empty driver name (a short and a 120-character cra_name)
    and one with an empty cra_name; then every module of this machine loaded."""
    got = {"short": outcome(lambda: capi.crypto_register_skcipher(xor_skcipher("toy-nodrv", "")))}
    if got["short"][0] == "ok":
        with capi.crypto_alloc_skcipher("toy-nodrv") as t:
            t.setkey(b"\x5a")
            got["short_driver"] = t.alg.cra_driver_name
            got["short_out"] = bytes(t.encrypt(bytes(range(8)), None)).hex()
    else:
        got["short_lookup"] = outcome(lambda: capi.crypto_alloc_skcipher("toy-nodrv"))
    got["long"] = outcome(lambda: capi.crypto_register_skcipher(xor_skcipher("n" * 120, "")))
    got["no_name"] = outcome(lambda: capi.crypto_register_skcipher(xor_skcipher("", "toy-noname-drv")))
    got["load_errors"] = {k: str(v) for k, v in capi.modules.load_all().items() if v}
    return got


def larval_lookups():
    """Lookups that meet a lookup larval or carry CRYPTO_ALG_TESTED in their mask.

    ``relook(x)``'s first instantiation looks its own name up again from inside
    its create, first with the same mask as the outer lookup, then with another
    (CRYPTO_ALG_ASYNC); ``tmask(x)`` is looked up with TESTED in type and mask
    before and after a plain lookup built it."""
    capi.crypto_register_skcipher(xor_skcipher("toy-larval", "toy-larval-drv"))
    wrapped = wrap_template("relook")
    got = {"creates": 0}

    def create(tmpl, tb):
        got["creates"] += 1
        if got["creates"] == 1:
            name = f"relook({capi.crypto_attr_alg_name(tb, 1, 'relook')})"
            for case, mask in (("same_mask", 0), ("other_mask", capi.CRYPTO_ALG_ASYNC)):
                got[case] = outcome(lambda: _driver_of(capi.crypto_alloc_skcipher(name, 0, mask)))
        wrapped.create(tmpl, tb)

    capi.crypto_register_template(capi.Template(name="relook", create=create))
    got["outer"] = outcome(lambda: _driver_of(capi.crypto_alloc_skcipher("relook(toy-larval)")))
    got["larvals_left"] = [a.cra_name for a in capi.registry.snapshot() if a.is_larval]

    capi.crypto_register_template(wrap_template("tmask"))
    tested = capi.CRYPTO_ALG_TESTED
    got["tested_first"] = outcome(lambda: _driver_of(capi.crypto_alloc_skcipher("tmask(toy-larval)", tested,
                                                                                 tested)))
    got["tested_first_listed"] = sorted(a.cra_driver_name for a in capi.registry.snapshot()
                                        if a.cra_name == "tmask(toy-larval)" and not a.is_larval)
    got["plain"] = outcome(lambda: _driver_of(capi.crypto_alloc_skcipher("tmask(toy-larval)")))
    got["tested_then"] = outcome(lambda: _driver_of(capi.crypto_alloc_skcipher("tmask(toy-larval)", tested,
                                                                                tested)))
    return got


def _driver_of(tfm):
    """The driver name of ``tfm``, as the hex of its bytes (what ``outcome`` reports); frees it."""
    with tfm:
        return tfm.alg.cra_driver_name.encode()


def rekey(kind, name, good, bad, use):
    """Key a ``kind`` tfm with ``good``, use it, refuse ``bad``, use it again:
    the driver and both uses' outcomes (the parent compares them with an
    independent computation under the good key)."""
    alloc = {"skcipher": capi.crypto_alloc_skcipher, "aead": capi.crypto_alloc_aead,
             "shash": capi.crypto_alloc_shash, "cipher": capi.crypto_alloc_cipher}[kind]
    with alloc(name) as t:
        t.setkey(good)
        got = {"driver": t.alg.cra_driver_name, "before": outcome(lambda: use(t))}
        got["refused"] = outcome(lambda: t.setkey(bad))
        got["after"] = outcome(lambda: use(t))
        got["after_nosimd"] = outcome(lambda: _nosimd(use, t))
        got["rekeyed"] = outcome(lambda: t.setkey(good))
        got["again"] = outcome(lambda: use(t))
    return got


def _nosimd(use, t):
    with capi.simd_disabled():
        return use(t)


def failed_rekey():
    """A refused re-key of each type that has NEED_KEY, and of the single-block cipher."""
    data = bytes(range(100))
    return {
        "skcipher": rekey("skcipher", "chacha20", KEY, KEY[:31], lambda t: t.encrypt(data, TWEAK)),
        "aead": rekey("aead", "rfc7539(chacha20,poly1305)", KEY, KEY[:31],
                      lambda t: t.encrypt(data, TWEAK[:12], assoc=b"hdr")),
        "shash": rekey("shash", "nhpoly1305", bytes(range(256)) * 4 + KEY * 2, bytes(1087),
                       lambda t: t.digest(data)),
        "cipher": rekey("cipher", "aes", KEY, KEY[:31], lambda t: t.encrypt_one(data[:16])),
    }


def pieces(tfm, ivsize, lengths):
    """``sum(lengths)`` bytes (0, 1, 2, ... mod 251) in one scatterlist entry per length."""
    total = sum(lengths)
    buf = bytearray(i % 251 for i in range(total))
    sgl = capi.sg_init_table(len(lengths))
    off = 0
    for sg, n in zip(sgl, lengths):
        capi.sg_set_buf(sg, buf, off, n)
        off += n
    req = capi.skcipher_request_alloc(tfm)
    capi.skcipher_request_set_crypt(req, sgl, sgl, total, bytearray(ivsize))
    with capi.fpu_trace() as tr:
        capi.crypto_skcipher_encrypt(req)
    return {"nbytes": tr.nbytes, "out": bytes(buf).hex()}


def chacha_sections():
    if not boot_cpu_has("ssse3"):
        return None
    got = {}
    for name, ivsize in (("xchacha12", 32), ("chacha20", 16)):
        t = capi.crypto_alloc_skcipher(name)
        t.setkey(KEY)
        got[name + "_driver"] = t.alg.cra_driver_name
        for n in (64, 65, 8192, 12288):
            with capi.fpu_trace() as tr:
                out = t.encrypt(bytes(n), bytes(ivsize))
            got[f"{name}_{n}"] = {"nbytes": tr.nbytes, "yields": tr.yields, "out": bytes(out).hex()}
        got[f"{name}_sg"] = pieces(t, ivsize, [1024] * 4)
        got[f"{name}_sg_long"] = pieces(t, ivsize, [1024] * 6)
        with capi.simd_disabled(), capi.fpu_trace() as tr:
            out = t.encrypt(bytes(8192), bytes(ivsize))
        got[f"{name}_nosimd"] = {"nbytes": tr.nbytes, "yields": tr.yields, "out": bytes(out).hex()}
        t.free()
    return got


def aes_modes():
    """ECB, CBC and CTR over five scatterlist entries (1024 bytes each, the last
    shorter for CTR): the driver, its FPU sections, the bytes and the output IV."""
    if not boot_cpu_has("aes"):
        return None
    got = {}
    for name, total in (("ecb(aes)", 5120), ("cbc(aes)", 5120), ("ctr(aes)", 5096)):
        t = capi.crypto_alloc_skcipher(name)
        t.setkey(KEY[:16])
        buf = bytearray(i % 251 for i in range(total))
        lengths = [1024] * 4 + [total - 4096]
        sgl = capi.sg_init_table(len(lengths))
        for i, (sg, n) in enumerate(zip(sgl, lengths)):
            capi.sg_set_buf(sg, buf, 1024 * i, n)
        iv = bytearray(TWEAK)
        req = capi.skcipher_request_alloc(t)
        capi.skcipher_request_set_crypt(req, sgl, sgl, total, iv)
        with capi.fpu_trace() as tr:
            capi.crypto_skcipher_encrypt(req)
        got[name] = {"driver": t.alg.cra_driver_name, "nbytes": tr.nbytes, "out": bytes(buf).hex(),
                     "iv": bytes(iv).hex()}
        t.free()
    return got


def main(version):
    capi.boot(kernel=version)
    json.dump({"xts_template": xts("xts(ecb(aes-generic))"), "xts": xts("xts(aes)"),
               "aead": setauthsize_zero(), "dup": duplicate_driver(), "chacha": chacha_sections(),
               "aes_modes": aes_modes(), "rekey": failed_rekey(),
               "names": empty_names(), "larvals": larval_lookups()},
              sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])

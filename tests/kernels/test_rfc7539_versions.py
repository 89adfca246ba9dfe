"""The rfc7539 / rfc7539esp templates' names across kernel versions
(crypto/chacha20poly1305.c; the rule ``rfc7539.instance``): v5.0 echoes the
requested parameters in ``cra_name``; 5.2 builds it from the children's
cra_names, so an instance asked for by driver names is tested; 6.16 hashes
with the Poly1305 library, so the second parameter must be ``poly1305`` or
``poly1305-generic``, the driver name says ``poly1305-generic``, the priority
is the ChaCha child's and, out of place, the AD is copied into dst.  The bytes
are cryptography's ChaCha20Poly1305 in every version.  Each version boots in
a fresh process (x86_64, self-tests on, so the testmgr's verdict is seen)."""

import json
import os
import subprocess
import sys

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from crypto_api.errors import EINVAL

CHILD = r"""
import json, sys
import crypto_api as capi
capi.boot(kernel=sys.argv[1], arch="x86_64")
KEY, SALT, NONCE, AD, PT = bytes(range(32)), b"salt", bytes(range(12)), b"associated data!", bytes(range(77))

def out_of_place(tfm, ad, nonce):
    src = bytearray(ad + PT)
    dst = bytearray(b"\xee" * (len(src) + 16))
    req = capi.aead_request_alloc(tfm)
    capi.aead_request_set_callback(req, 0, None, None)
    capi.aead_request_set_crypt(req, capi.sg_init_one(src), capi.sg_init_one(dst), len(PT), bytearray(nonce))
    capi.aead_request_set_ad(req, len(ad))
    capi.crypto_aead_encrypt(req)
    return dst.hex()

got = {}
for tmpl, generic_chacha in (("rfc7539", None), ("rfc7539esp", None)):
    esp = tmpl == "rfc7539esp"
    nonce = NONCE[4:] if esp else NONCE
    ad = AD + NONCE[4:] if esp else AD              # rfc7539esp: the AD ends with the IV copy
    key = KEY + SALT if esp else KEY
    with capi.crypto_alloc_aead(f"{tmpl}(chacha20,poly1305)", 0, capi.CRYPTO_ALG_NEED_FALLBACK) as tfm:
        tfm.setkey(key)
        got[tmpl] = {"driver": tfm.driver_name, "name": tfm.alg.cra_name, "priority": tfm.alg.cra_priority,
                     "sealed": tfm.encrypt(PT, nonce, assoc=ad).hex(), "out": out_of_place(tfm, ad, nonce)}
chacha = capi.crypto_alloc_skcipher("chacha20")
got["chacha"] = [chacha.driver_name, chacha.alg.cra_priority]
poly = capi.crypto_alloc_shash("poly1305")
got["poly"] = [poly.driver_name, poly.alg.cra_priority]
by_driver = {}
for poly in ("poly1305-generic", "poly1305", "sha256"):
    name = f"rfc7539({chacha.driver_name},{poly})"
    try:
        with capi.crypto_alloc_aead(name) as t:
            by_driver[poly] = [t.alg.cra_name, t.driver_name, t.alg.cra_priority,
                               bool(t.alg.cra_flags & capi.CRYPTO_ALG_TESTED),
                               capi.testmgr.find_test(t.alg.cra_name) is not None]
    except capi.CryptoError as e:
        by_driver[poly] = ["err", e.errno]
got["by_driver"] = by_driver
print(json.dumps(got))
"""

KEY, SALT, NONCE, AD, PT = bytes(range(32)), b"salt", bytes(range(12)), b"associated data!", bytes(range(77))
VERSIONS = ("5.0", "5.4", "6.12", "6.18", "6.19")
_cache = {}


def boot(version):
    if version not in _cache:
        env = {k: v for k, v in os.environ.items()
               if k not in ("CRYPTO_API_KERNEL", "CRYPTO_API_ARCH", "CRYPTO_API_CPU", "CRYPTO_API_SELFTESTS")}
        out = subprocess.run([sys.executable, "-c", CHILD, version], env=env, capture_output=True, text=True,
                             timeout=600)
        assert out.returncode == 0, out.stderr
        _cache[version] = json.loads(out.stdout)
    return _cache[version]


def after(version, boundary):
    return tuple(map(int, version.split("."))) >= tuple(map(int, boundary.split(".")))


@pytest.mark.parametrize("version", VERSIONS)
def test_the_bytes_are_rfc8439s_in_every_version(version):
    got = boot(version)
    sealed = ChaCha20Poly1305(KEY).encrypt(NONCE, PT, AD)
    assert got["rfc7539"]["sealed"] == sealed.hex()
    esp = ChaCha20Poly1305(KEY).encrypt(SALT + NONCE[4:], PT, AD)     # the IV copy is not authenticated
    assert got["rfc7539esp"]["sealed"] == esp.hex()


@pytest.mark.parametrize("version", VERSIONS)
def test_out_of_place_the_ad_reaches_dst_only_from_6_16(version):
    got = boot(version)
    for tmpl, ad in (("rfc7539", AD), ("rfc7539esp", AD + NONCE[4:])):
        dst = bytes.fromhex(got[tmpl]["out"])
        assert dst[len(ad):] == bytes.fromhex(got[tmpl]["sealed"])
        assert dst[:len(ad)] == (ad if after(version, "6.16") else b"\xee" * len(ad))


@pytest.mark.parametrize("version", VERSIONS)
def test_the_template_instance_names_and_priority(version):
    got = boot(version)
    chacha, chacha_prio = got["chacha"]
    for tmpl in ("rfc7539", "rfc7539esp"):
        inst = got[tmpl]
        assert inst["name"] == f"{tmpl}(chacha20,poly1305)"
        if after(version, "6.16"):
            assert inst["driver"] == f"{tmpl}({chacha},poly1305-generic)"
            assert inst["priority"] == chacha_prio
        else:
            poly, poly_prio = got["poly"]
            assert inst["driver"] == f"{tmpl}({chacha},{poly})"
            assert inst["priority"] == (chacha_prio + poly_prio) // 2


@pytest.mark.parametrize("version", VERSIONS)
def test_asking_by_driver_names(version):
    got = boot(version)["by_driver"]
    chacha, chacha_prio = boot(version)["chacha"]
    name, driver, prio, tested, has_test = got["poly1305-generic"]
    assert driver == f"rfc7539({chacha},poly1305-generic)"
    if version == "5.0":        # the echo: no testmgr entry, so no test ran
        assert (name, has_test) == (driver, False)
    else:
        assert (name, has_test) == ("rfc7539(chacha20,poly1305)", True)
    assert tested
    if after(version, "6.16"):
        assert prio == chacha_prio
        assert got["poly1305"][:3] == ["rfc7539(chacha20,poly1305)", driver, chacha_prio]
        assert got["sha256"] == ["err", EINVAL]
    else:
        assert prio == (chacha_prio + 100) // 2
        assert got["sha256"][0] == "err"        # a 32-byte digest: no Poly1305

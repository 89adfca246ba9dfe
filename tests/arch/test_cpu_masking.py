"""Module init on a CPU without a feature registers nothing from that driver.

The feature is masked with CRYPTO_API_CPU_MASK in a fresh interpreter (module
state is per process), as the kernel's boot_cpu_has() would report it.
"""

import json
import logging
import os
import struct
import subprocess
import sys

import pytest

from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has, masked_features
from crypto_api.errors import ENODEV, CryptoError
from chacha_ref import ref_hchacha_words, ref_keystream

pytestmark = pytest.mark.skipif(not IS_X86, reason="x86 only")

PROBE = r"""
import json, crypto_api as capi
from crypto_api.arch.x86 import chacha_glue
res = capi.load_all()
drivers = [a.cra_driver_name for a in capi.registry.snapshot()]
with capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)") as t:
    adiantum = [t.driver_name, t.alg.cra_priority]
print(json.dumps({"errors": {k: (v.errno if v else None) for k, v in res.items()},
                  "drivers": drivers, "chacha_impl": chacha_glue.impl.name, "adiantum": adiantum}))
"""


def probe(mask: str, code: str = PROBE, **env_extra) -> dict:
    env = dict(os.environ, CRYPTO_API_CPU_MASK=mask, CRYPTO_API_SELFTESTS="off", **env_extra)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


LIBRARY_PROBE = r"""
import json, crypto_api as capi
res = capi.load_all()
out = {"errors": {k: (v.errno if v else None) for k, v in res.items()},
       "drivers": {a.cra_driver_name: a.cra_module for a in capi.registry.snapshot()}}
key, iv, msg = bytes(range(32)), bytes(range(100, 132)), bytes(range(256)) * 20
with capi.crypto_alloc_skcipher("xchacha12") as t, capi.fpu_trace() as tr:
    t.setkey(key)
    out["driver"] = t.driver_name
    out["ct"] = t.encrypt(msg, iv).hex()
out["sections"] = len(tr.sections)
print(json.dumps(out))
"""


def xchacha_stream(key: bytes, iv: bytes, nbytes: int, nrounds: int) -> bytes:
    """XChaCha's keystream from chacha_ref (draft-irtf-cfrg-xchacha): HChaCha of
    the key and the IV's first 16 bytes is the subkey; the IV's last 8 bytes
    are the block counter words, bytes 16..23 the nonce words."""
    const = list(struct.unpack("<4I", b"expand 32-byte k"))
    sub = ref_hchacha_words(const + list(struct.unpack("<8I", key)) + list(struct.unpack("<4I", iv[:16])),
                            nrounds)
    state = const + sub + list(struct.unpack("<2I", iv[24:32])) + list(struct.unpack("<2I", iv[16:24]))
    return ref_keystream(state, nbytes, nrounds)


def test_6_18_registers_the_lib_drivers_without_ssse3_over_the_generic_code():
    """crypto/chacha.c's *-lib exist on every CPU from 6.18: without SSSE3 the x86
    library has no code and every call is the generic C, with no FPU section."""
    r = probe("ssse3", LIBRARY_PROBE, CRYPTO_API_KERNEL="6.18")
    assert r["errors"]["chacha_x86_64"] is None
    assert r["driver"] == "xchacha12-lib" and r["drivers"]["xchacha12-lib"] == "chacha_x86_64"
    msg = bytes(range(256)) * 20
    stream = xchacha_stream(bytes(range(32)), bytes(range(100, 132)), len(msg), 12)
    assert bytes.fromhex(r["ct"]) == bytes(a ^ b for a, b in zip(msg, stream))
    assert r["sections"] == 0
    if boot_cpu_has("ssse3"):                 # the contrast: with SSSE3 the library opens sections
        assert probe("", LIBRARY_PROBE, CRYPTO_API_KERNEL="6.18")["sections"] > 0


def test_6_16_without_ssse3_leaves_chacha_to_the_generic_drivers():
    r = probe("ssse3", LIBRARY_PROBE, CRYPTO_API_KERNEL="6.16")
    assert r["errors"]["chacha_x86_64"] == 19            # ENODEV: crypto/chacha.c registers no -x86
    assert r["driver"] == "xchacha12-generic" and "xchacha12-x86" not in r["drivers"]


def test_without_ssse3_no_chacha_simd():
    r = probe("ssse3")
    assert r["errors"]["chacha_x86_64"] == 19            # ENODEV
    assert not any(d.endswith("-simd") for d in r["drivers"] if d != "poly1305-simd")
    assert "poly1305-simd" in r["drivers"]                # v5.0: it needs SSE2 only
    assert "xchacha12-generic" in r["drivers"]


def test_without_avx2_no_nhpoly1305_avx2_and_chacha_uses_ssse3():
    if not boot_cpu_has("ssse3"):
        pytest.skip("CPU lacks SSSE3")
    r = probe("avx2")
    assert r["errors"]["nhpoly1305_avx2"] == 19
    assert "nhpoly1305-avx2" not in r["drivers"]
    assert "nhpoly1305-sse2" in r["drivers"]
    assert r["chacha_impl"] == "ssse3"
    if boot_cpu_has("aes"):                   # crypto/adiantum.c: (4*stream + 2*block + hash) // 7 = (1200 + 400 + 300) // 7
        assert r["adiantum"] == ["adiantum(xchacha12-simd,aes-aesni,nhpoly1305-sse2)", 271]


def test_without_avx512vl_chacha_uses_avx2():
    if not boot_cpu_has("avx2"):
        pytest.skip("CPU lacks AVX2")
    r = probe("avx512vl")
    assert r["chacha_impl"] == "avx2"
    if boot_cpu_has("aes"):                   # the name users ask for gets the full SIMD stack
        assert r["adiantum"] == ["adiantum(xchacha12-simd,aes-aesni,nhpoly1305-avx2)", 300]


def test_with_avx512f_chacha_uses_avx512_else_avx512vl():
    """The 16-block zmm code (beyond v5.0) needs AVX-512F on top of the
    AVX-512VL conditions; with AVX-512F masked the v5.0 8-block code is used."""
    if not all(boot_cpu_has(f) for f in ("avx2", "avx512vl", "avx512bw", "xsave_zmm")):
        pytest.skip("CPU lacks AVX-512VL/BW")
    if boot_cpu_has("avx512f"):
        assert probe("")["chacha_impl"] == "avx512"
    r = probe("avx512f")
    assert r["chacha_impl"] == "avx512vl"
    if boot_cpu_has("aes"):
        assert r["adiantum"] == ["adiantum(xchacha12-simd,aes-aesni,nhpoly1305-avx2)", 300]


def test_without_aesni_no_aes_aesni():
    r = probe("aes")
    assert r["errors"]["aesni_intel"] == 19
    assert "aes-aesni" not in r["drivers"] and "aes-generic" in r["drivers"]


def test_masked_features_context_manager():
    with masked_features("sse2"):
        assert not boot_cpu_has("sse2")
    assert boot_cpu_has("sse2") == IS_X86


@pytest.mark.parametrize("module, feature, words", [
    ("chacha_glue", "ssse3", ["chacha_x86_64: not registered", "SSSE3"]),
    ("nhpoly1305_avx2_glue", "avx2", ["nhpoly1305-avx2: not registered", "AVX2"]),
    ("aesni_glue", "aes", ["aes-aesni: not registered", "AES-NI"]),
])
def test_missing_feature_says_why_at_debug_level(caplog, module, feature, words):
    """module_init refuses (ENODEV) before registering anything, and logs why."""
    import importlib
    mod = importlib.import_module("crypto_api.arch.x86." + module)
    with masked_features(feature), caplog.at_level(logging.DEBUG, logger="crypto_api"):
        with pytest.raises(CryptoError) as e:
            mod.module_init()
    assert e.value.errno == ENODEV
    debug = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG]
    assert any(all(w in m for w in words) for m in debug), debug

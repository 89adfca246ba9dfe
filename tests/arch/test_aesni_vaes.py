"""The VAES XTS/CTR drivers of the later kernels (aesni_vaes.c over
aesni_vaes_body.h): the three widths against `cryptography` at the lengths
where their loops change over (full loops, single vectors, the 128-bit tail,
ciphertext stealing, CTR's 64-bit counter wrap), and the CPU rules that pick
which of them register and at what priority (AVX-512 checks, prefer_ymm).
"""

import json
import os
import subprocess
import sys

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has, forced_features

HAS_VAES = IS_X86 and all(boot_cpu_has(f) for f in ("aes", "vaes", "vpclmulqdq", "pclmulqdq",
                                                    "avx2", "xsave_ymm"))
HAS_AVX10 = HAS_VAES and all(boot_cpu_has(f) for f in ("avx512f", "avx512bw", "avx512vl", "bmi2",
                                                       "xsave_zmm"))
pytestmark = pytest.mark.skipif(not HAS_VAES, reason="CPU lacks VAES/VPCLMULQDQ/AVX2")

WIDTHS = ["vaes-avx2"] + (["vaes-avx10_256", "vaes-avx10_512"] if HAS_AVX10 else [])
# 16, 32: below one loop; 512: one zmm loop; 511/513 stealing beside it; 4096 + 31:
# whole loops, then single vectors, then the 128-bit tail with stealing
XTS_SIZES = [16, 17, 31, 32, 47, 63, 64, 65, 255, 256, 257, 511, 512, 513, 1000, 4096, 4127, 65541]
CTR_SIZES = [0, 1, 255, 256, 511, 512, 513, 1024, 4095, 4096, 4097, 65537]


def openssl(mode, key, iv, data, encrypt=True):
    c = Cipher(algorithms.AES(key), mode(iv))
    return (c.encryptor() if encrypt else c.decryptor()).update(data)


@pytest.mark.parametrize("impl", WIDTHS)
@pytest.mark.parametrize("keylen", [32, 64])
def test_xts_lengths_against_cryptography(impl, keylen):
    key = bytes((7 * i + 3) & 0xff for i in range(keylen))
    with capi.crypto_alloc_skcipher("xts-aes-" + impl) as tfm:
        tfm.setkey(key)
        for n in XTS_SIZES:
            data = os.urandom(n)
            iv = os.urandom(16)
            ct = tfm.encrypt(data, iv)
            assert ct == openssl(modes.XTS, key, iv, data), n
            assert tfm.decrypt(ct, iv) == data, n


@pytest.mark.parametrize("impl", WIDTHS)
def test_ctr_lengths_and_counter_wraps(impl):
    key = bytes(range(32))
    ivs = [os.urandom(16),
           os.urandom(8) + b"\xff" * 7 + b"\xf0",       # the low 64 bits wrap inside a loop
           b"\xff" * 15 + b"\xe1",                      # the whole 128-bit counter wraps
           os.urandom(8) + b"\xff" * 7 + b"\x00"]       # ... a few loops later
    with capi.crypto_alloc_skcipher("ctr-aes-" + impl) as tfm:
        tfm.setkey(key)
        for iv in ivs:
            for n in CTR_SIZES:
                data = os.urandom(n)
                assert tfm.encrypt(data, iv) == openssl(modes.CTR, key, iv, data), (iv.hex(), n)


def test_avx10_drivers_registered_with_kernel_priorities(proc_records):
    if not HAS_AVX10:
        pytest.skip("CPU lacks AVX-512BW/VL")
    wide = 1 if boot_cpu_has("prefer_ymm") else 800
    recs = {r["driver"]: r for r in proc_records()}
    for mode in ("xts", "ctr"):
        for impl, prio in (("vaes-avx2", 600), ("vaes-avx10_256", 700), ("vaes-avx10_512", wide)):
            rec = recs[f"{mode}-aes-{impl}"]
            assert rec["name"] == f"{mode}(aes)" and rec["priority"] == str(prio)
            assert rec["module"] == "aesni_intel" and rec["async"] == "yes"
            assert recs[f"__{mode}-aes-{impl}"]["internal"] == "yes"


def test_prefer_ymm_gives_the_512_bit_drivers_priority_1():
    from crypto_api.arch.x86 import aesni_glue
    from crypto_api.arch.x86 import aesni_modes_glue as m
    if not HAS_AVX10:
        pytest.skip("CPU lacks AVX-512BW/VL")
    with forced_features("prefer_ymm"):
        got = {(x.name, x.impl): x.priority for x in aesni_glue.vaes_modes(m)}
    # the composite registry has the 6.17+ XCTR generations too (no avx10_256 one: the table has none)
    assert got == {("xts", "vaes-avx2"): 600, ("ctr", "vaes-avx2"): 600, ("xctr", "vaes-avx2"): 600,
                   ("xts", "vaes-avx10_256"): 700, ("ctr", "vaes-avx10_256"): 700,
                   ("xts", "vaes-avx10_512"): 1, ("ctr", "vaes-avx10_512"): 1, ("xctr", "vaes-avx10_512"): 1}


def test_zmm_exclusion_list_reads_vendor_family_model(tmp_path):
    from crypto_api.arch.x86 import cpufeature
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 106\n\n"
                    "processor\t: 1\nvendor_id\t: AuthenticAMD\n")
    assert cpufeature.cpu_identity(str(info)) == ("GenuineIntel", 6, 0x6A)    # Ice Lake-X
    assert 0x6A in cpufeature.ZMM_EXCLUSION_MODELS
    assert 0x8F not in cpufeature.ZMM_EXCLUSION_MODELS                       # Sapphire Rapids
    assert cpufeature.cpu_identity(str(tmp_path / "missing")) is None


PROBE = r"""
import json, crypto_api as capi
capi.load_all()
print(json.dumps(sorted(a.cra_driver_name for a in capi.registry.snapshot()
                        if "-aes-vaes-" in a.cra_driver_name)))
"""


@pytest.mark.parametrize("mask, want", [
    ("avx512bw", ["ctr-aes-vaes-avx2", "xctr-aes-vaes-avx2", "xts-aes-vaes-avx2"]),
    ("vpclmulqdq", []),
    ("avx", []),                # the glue registers no AVX or VAES driver without AVX
])
def test_cpu_without_a_feature_gets_fewer_drivers(mask, want):
    env = dict(os.environ, CRYPTO_API_CPU_MASK=mask, CRYPTO_API_SELFTESTS="off")
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True,
                         check=True)
    got = [d for d in json.loads(out.stdout.strip().splitlines()[-1]) if not d.startswith("__")]
    assert got == want

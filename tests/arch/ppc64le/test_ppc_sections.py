"""The VSX sections the ppc64le drivers open (reference §3.1-3.3), and the
32-bit counter: p8_aes one section per block and its fallback cipher when
SIMD is not usable; chacha20-p10 one section per walk step with the
generic remainder inside it; poly1305-p10's pattern, with sections even
when SIMD is not usable (no fallback)."""

import json

import pytest
from ppc64le_emulation import ppc_python

pytestmark = pytest.mark.emulation

_TRACE = r"""
import json
import crypto_api as capi
from crypto_api.fpu import fpu_trace, simd_disabled
out = {}
aes = capi.crypto_alloc_cipher("aes")
aes.setkey(bytes(16))
with fpu_trace() as t:
    aes.encrypt_one(bytes(16)); aes.decrypt_one(bytes(16))
out["aes"] = [t.units, t.nbytes]
with simd_disabled(), fpu_trace() as t:
    c1 = aes.encrypt_one(bytes(16))
out["aes_nosimd"] = [t.units, t.nbytes, c1.hex()]
ch = capi.crypto_alloc_skcipher("chacha20")
ch.setkey(bytes(32))
with fpu_trace() as t:
    ch.encrypt(bytes(300), bytes(16))
out["chacha"] = [ch.driver_name, t.units, t.nbytes]
with simd_disabled(), fpu_trace() as t:
    ch.encrypt(bytes(300), bytes(16))
out["chacha_nosimd"] = t.nbytes
p = capi.crypto_alloc_shash("poly1305")
for name, ctx in (("poly", None), ("poly_nosimd", simd_disabled)):
    with fpu_trace() as t:
        if ctx:
            with ctx():
                d = p.digest(bytes(range(32)) + bytes(100))
        else:
            d = p.digest(bytes(range(32)) + bytes(100))
    out[name] = [t.units, t.nbytes, d.hex()]
print(json.dumps(out))
"""


def test_sections_on_power10():
    out = json.loads(ppc_python(_TRACE, "power10").stdout)
    assert out["aes"] == [["vsx", "vsx"], [16, 16]]
    units, nbytes, c1 = out["aes_nosimd"]
    assert (units, nbytes) == ([], []) and c1 == "66e94bd4ef8a2c3b884cfa59ca342b2e"   # the fallback's AES
    assert out["chacha"] == ["chacha20-p10", ["vsx"], [300]]     # 256 by the core + 44 generic, one section
    assert out["chacha_nosimd"] == []
    units, nbytes, d = out["poly"]
    assert nbytes == [64, 16, 16, 4] and set(units) == {"vsx"}    # 4blocks, two single blocks, final
    units_n, nbytes_n, d_n = out["poly_nosimd"]
    assert nbytes_n == [16] * 6 + [4] and d_n == d                # no fallback: one section per block


_WRAP = r"""
import crypto_api as capi
key = bytes(range(32))
iv = (0xFFFFFFFE).to_bytes(4, "little") + bytes(range(12))     # word 12 wraps after two blocks
msg = bytes(range(256)) * 3 + bytes(5)
res = {}
for drv in ("chacha20-generic",) + tuple(__import__("sys").argv[1:]):
    t = capi.crypto_alloc_skcipher(drv)
    t.setkey(key)
    res[drv] = t.encrypt(msg, iv)
ref = res.pop("chacha20-generic")
assert all(v == ref for v in res.values()), [k for k, v in res.items() if v != ref]
print(len(res))
"""


def test_counter_wraps_in_32_bits_like_the_generic_driver():
    import subprocess
    import sys
    from ppc64le_emulation import ppc_env
    r = subprocess.run([sys.executable, "-c", _WRAP, "chacha20-p10", "chacha20-vsx-4way"],
                       env=ppc_env("power10"), capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "2"


@pytest.mark.parametrize("rounding, verdict", [("0", "unknown"), ("1", "passed")])
def test_self_tests_catch_a_vsx_glue_that_skips_the_stride(rounding, verdict):
    import os
    from arm64_emulation import planted_selftest
    from ppc64le_emulation import ppc_env
    module = os.path.join(os.path.dirname(__file__), "data", "planted_vsx_stride.py")
    env = dict(ppc_env("power9"), PLANTED_ROUND=rounding)
    assert planted_selftest(env, module, "xchacha12-planted-vsx") == verdict

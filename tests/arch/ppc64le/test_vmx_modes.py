"""vmx_crypto's block modes and GHASH on the emulated POWER8/9 (arch/ppc64le/vmx.py):
p8_aes_cbc, p8_aes_ctr, p8_aes_xts and p8_ghash.  The official vectors
(IEEE 1619 / CAVP XTS of aes-xts.json, testmgr's cbc/ctr/ghash) through the
registry, the generic templates on random lengths (XTS tails, CTR partial
blocks, GHASH in random pieces), what each kernel version resolves
``xts(aes)`` and ``ghash`` to, the fallback doing the work without SIMD,
the VSX sections, the version rules (XTS tail, v5.0's GHASH fallback
descriptor) and errors that name the driver.  The cores themselves are
checked against `cryptography` (an independent implementation)."""

import json
import os
import subprocess
import sys

import pytest
from arm64_emulation import list_records
from ppc64le_emulation import ppc_cli, ppc_env

pytestmark = pytest.mark.emulation

MODES = ("p8_aes_cbc", "p8_aes_ctr", "p8_aes_xts")
DRIVERS = MODES + ("p8_ghash",)


def run(code: str, cpu: str = "power8", kernel: str = "6.18", *args: str):
    """The JSON of the last line ``code`` prints, run as ``cpu`` under ``kernel``."""
    env = dict(ppc_env(cpu), CRYPTO_API_KERNEL=kernel)
    r = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True)
    assert r.returncode == 0, f"rc {r.returncode}\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}"
    return json.loads(r.stdout.strip().splitlines()[-1])


_CORES = r"""
import json, os
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from crypto_api.machine import backend
aes = backend.load("ppc64le", "aes_p8")
cbc = backend.load("ppc64le", "aes_p8_cbc")
ctr = backend.load("ppc64le", "aes_p8_ctr")
xts = backend.load("ppc64le", "aes_p8_xts")
def ref(mode, key, data, enc=True):
    c = Cipher(algorithms.AES(key), mode)
    return (c.encryptor() if enc else c.decryptor()).update(data)
n = 0
for kl in (16, 24, 32):
    for nblocks in (1, 7, 8, 9, 33):
        key, iv, data = os.urandom(kl), os.urandom(16), os.urandom(16 * nblocks)
        rk = bytearray(240)
        nr = aes.aes_p8_expandkey(key, kl, rk)
        out, chain = bytearray(len(data)), bytearray(iv)
        cbc.aes_p8_cbc_crypt(rk, nr, out, data, len(data), chain, 1)
        want = ref(modes.CBC(iv), key, data)
        assert bytes(out) == want and bytes(chain) == want[-16:], ("cbc", kl, nblocks)
        back, chain = bytearray(len(data)), bytearray(iv)
        cbc.aes_p8_cbc_crypt(rk, nr, back, want, len(want), chain, 0)
        assert bytes(back) == data and bytes(chain) == want[-16:], ("cbc dec", kl, nblocks)
        for ctr_iv in (iv, b"\xff" * 14 + b"\xff\xfd", bytes(8) + b"\xff" * 8):   # carries past 32 and 64 bits
            out = bytearray(len(data))
            ctr.aes_p8_ctr_blocks(rk, nr, out, data, nblocks, ctr_iv)
            assert bytes(out) == ref(modes.CTR(ctr_iv), key, data), ("ctr", kl, nblocks, ctr_iv.hex())
        if kl != 24:
            k2 = os.urandom(kl)
            rk2 = bytearray(240)
            aes.aes_p8_expandkey(k2, kl, rk2)
            tweak = bytearray(16)
            aes.aes_p8_encrypt(rk2, nr, tweak, iv)
            out, t = bytearray(len(data)), bytearray(tweak)
            xts.aes_p8_xts_crypt(rk, nr, out, data, len(data), t, 1)
            want = ref(modes.XTS(iv), key + k2, data)
            assert bytes(out) == want, ("xts", kl, nblocks)
            back, t = bytearray(len(data)), bytearray(tweak)
            xts.aes_p8_xts_crypt(rk, nr, back, want, len(want), t, 0)
            assert bytes(back) == data, ("xts dec", kl, nblocks)
        n += 1
print(json.dumps(n))
"""


def test_cores_against_cryptography():
    assert run(_CORES) == 15


_VECTORS = r"""
import json
import crypto_api as capi
from crypto_api.testmgr.vectors import load_json, suite
n = {}
for drv, alg in (("p8_aes_cbc", "cbc(aes)"), ("p8_aes_ctr", "ctr(aes)"), ("p8_aes_xts", "xts(aes)")):
    t = capi.crypto_alloc_skcipher(drv)
    assert t.driver_name == drv
    for v in suite(alg):
        t.setkey(v.key)
        assert t.encrypt(v.ptext, v.iv) == v.ctext and t.decrypt(v.ctext, v.iv) == v.ptext, v.id
        n[drv] = n.get(drv, 0) + 1
t = capi.crypto_alloc_skcipher("p8_aes_xts")
for v in load_json("aes-xts.json")["vectors"]:          # IEEE 1619 (stealing included) and CAVP
    t.setkey(bytes.fromhex(v["key"]))
    iv, p, c = (bytes.fromhex(v[k]) for k in ("kernel_iv", "plaintext", "ciphertext"))
    assert t.encrypt(p, iv) == c and t.decrypt(c, iv) == p, v["id"]
    n["ieee+cavp"] = n.get("ieee+cavp", 0) + 1
h = capi.crypto_alloc_shash("p8_ghash")
for v in suite("ghash"):
    if v.setkey_error:
        continue
    h.setkey(v.key)
    assert h.digest(v.plaintext) == v.digest, v.id
    n["p8_ghash"] = n.get("p8_ghash", 0) + 1
print(json.dumps(n))
"""


def test_official_vectors():
    n = run(_VECTORS, "power9")
    assert n["ieee+cavp"] == 1418
    assert all(n[d] >= 1 for d in DRIVERS), n


_RANDOM = r"""
import json, random, sys
import crypto_api as capi
rnd = random.Random(int(sys.argv[1]))
def rb(k):
    return bytes(rnd.getrandbits(8) for _ in range(k))
pairs = (("p8_aes_cbc", "cbc(aes-generic)", 16, (16, 24, 32)),
         ("p8_aes_ctr", "ctr(aes-generic)", 1, (16, 24, 32)),
         ("p8_aes_xts", "xts(ecb(aes-generic))", 1, (32, 48, 64)))
counts = {}
for drv, gen, unit, keys in pairs:
    t, g = capi.crypto_alloc_skcipher(drv), capi.crypto_alloc_skcipher(gen)
    for _ in range(25):
        n = rnd.randrange(16 if drv == "p8_aes_xts" else 1, 700)
        n -= n % unit
        key, iv, m = rb(rnd.choice(keys)), rb(16), rb(n)
        t.setkey(key); g.setkey(key)
        c = t.encrypt(m, iv)
        assert c == g.encrypt(m, iv) and t.decrypt(c, iv) == m, (drv, n)
        counts[drv] = counts.get(drv, 0) + (n % 16 != 0)
h, hg = capi.crypto_alloc_shash("p8_ghash"), capi.crypto_alloc_shash("ghash-generic")
for _ in range(25):
    key, m = rb(16), rb(rnd.randrange(0, 300))
    h.setkey(key); hg.setkey(key)
    d, pos = h.desc().init(), 0
    while pos < len(m):
        step = rnd.randrange(1, 60)
        d.update(m[pos:pos + step]); pos += step
    assert d.final() == hg.digest(m)
print(json.dumps(counts))
"""


@pytest.mark.parametrize("seed", [1, 2])
def test_same_answers_as_the_generic_templates_on_random_lengths(seed):
    partial = run(_RANDOM, "power8", "6.18", str(seed))
    assert partial["p8_aes_ctr"] > 0 and partial["p8_aes_xts"] > 0     # CTR partial blocks, XTS tails met


_RESOLVE = r"""
import json
import crypto_api as capi
out = {}
for name in ("cbc(aes)", "ctr(aes)", "xts(aes)"):
    t = capi.crypto_alloc_skcipher(name)
    out[name] = [t.driver_name, t.alg.cra_priority, t.alg.cra_flags & 0x100, t.alg.cra_blocksize,
                 t.alg.chunksize, t.min_keysize, t.max_keysize, t.ivsize]
g = capi.crypto_alloc_shash("ghash")
out["ghash"] = [g.driver_name, g.alg.cra_priority, g.alg.cra_flags & 0x100]
print(json.dumps(out))
"""


@pytest.mark.parametrize("kernel", ["5.0", "5.10", "6.1", "6.18"])
def test_what_each_version_resolves_to(kernel):
    out = run(_RESOLVE, "power8", kernel)
    assert out["cbc(aes)"] == ["p8_aes_cbc", 2000, 0x100, 16, 16, 16, 32, 16]
    assert out["ctr(aes)"] == ["p8_aes_ctr", 2000, 0x100, 1, 16, 16, 32, 16]
    assert out["xts(aes)"] == ["p8_aes_xts", 2000, 0x100, 16, 16, 32, 64, 16]
    # NEED_FALLBACK only while the driver kept a fallback shash (5.0-5.1)
    assert out["ghash"] == ["p8_ghash", 1000, 0x100 if kernel == "5.0" else 0]


def test_proc_records():
    r = ppc_cli("power9", "list")
    assert r.returncode == 0, r.stderr
    recs = list_records(r.stdout)
    for d, prio, kind in (("p8_aes_cbc", "2000", "skcipher"), ("p8_aes_ctr", "2000", "skcipher"),
                          ("p8_aes_xts", "2000", "skcipher"), ("p8_ghash", "1000", "shash")):
        assert (recs[d]["module"], recs[d]["priority"], recs[d]["type"], recs[d]["selftest"]) == \
            ("vmx_crypto", prio, kind, "passed"), d
    assert recs["p8_aes_ctr"]["blocksize"] == "1" and recs["p8_aes_ctr"]["chunksize"] == "16"


_FALLBACK = r"""
import json
import crypto_api as capi
from crypto_api.fpu import fpu_trace, simd_disabled
out = {}
key, other, iv, m = bytes(range(32)), bytes(range(100, 132)), bytes(16), bytes(range(200))
for drv, klen, n in (("p8_aes_cbc", 32, 192), ("p8_aes_ctr", 32, 200), ("p8_aes_xts", 64, 192)):
    t = capi.crypto_alloc_skcipher(drv)
    k, o = (key * 2)[:klen], (other * 2)[:klen]
    t.setkey(k)
    t.ctx.fallback.setkey(o)               # only the fallback now holds the other key
    ref = capi.crypto_alloc_skcipher(t.alg.cra_name.replace("aes", "aes-generic"))
    ref.setkey(o)
    want_fb = ref.encrypt(m[:n], iv)
    ref.setkey(k)
    want = ref.encrypt(m[:n], iv)
    with simd_disabled(), fpu_trace() as tr:
        got_fb = t.encrypt(m[:n], iv)
    with fpu_trace() as tr2:
        got = t.encrypt(m[:n], iv)
    out[drv] = [t.ctx.fallback.driver_name, got_fb == want_fb, tr.nbytes, got == want, tr2.units[:1]]
print(json.dumps(out))
"""


@pytest.mark.parametrize("kernel", ["5.0", "6.18"])
def test_fallback_does_the_work_without_simd(kernel):
    out = run(_FALLBACK, "power8", kernel)
    for drv, fallback in (("p8_aes_cbc", "cbc(p8_aes)"), ("p8_aes_ctr", "ctr(p8_aes)"),
                          ("p8_aes_xts", "xts(ecb(p8_aes))")):
        fb_name, fb_answer, fb_sections, own_answer, units = out[drv]
        assert fb_name == fallback            # cbc(aes) etc. with mask NEED_FALLBACK: the template
        assert fb_answer and fb_sections == []   # the fallback's key answered, no VSX section
        assert own_answer and units == ["vsx"]    # with SIMD the driver's own key and sections


_SECTIONS = r"""
import json
import crypto_api as capi
from crypto_api.fpu import fpu_trace
out = {}
for drv, klen, n in (("p8_aes_cbc", 16, 160), ("p8_aes_ctr", 16, 100), ("p8_aes_xts", 32, 100),
                     ("p8_aes_xts", 32, 96)):
    t = capi.crypto_alloc_skcipher(drv)
    with fpu_trace() as tr:
        t.setkey(bytes(range(klen)))
    setkey = tr.nbytes
    with fpu_trace() as tr:
        t.encrypt(bytes(n), bytes(16))
    out[f"{drv}/{n}"] = [setkey, tr.nbytes, tr.units[:1]]
h = capi.crypto_alloc_shash("p8_ghash")
with fpu_trace() as tr:
    h.setkey(bytes(range(16)))
out["ghash_setkey"] = tr.nbytes
m = bytes(range(100))
with fpu_trace() as tr:
    d = h.desc().init()
    for a, b in ((0, 5), (5, 50), (50, 100)):
        d.update(m[a:b])
    d.final()
out["ghash"] = tr.nbytes
with fpu_trace() as tr:
    h.digest(bytes(32))
out["ghash_whole"] = tr.nbytes
print(json.dumps(out))
"""


def test_vsx_sections():
    out = run(_SECTIONS, "power9", "6.18")
    # setkey: the driver's key expansion, then the fallback template's own p8_aes expansions
    # (cbc(p8_aes), ctr(p8_aes): one; xts(ecb(p8_aes)): data and tweak cipher)
    assert out["p8_aes_cbc/160"] == [[0, 0], [160], ["vsx"]]    # one section per walk step
    assert out["p8_aes_ctr/100"] == [[0, 0], [96, 4], ["vsx"]]  # whole blocks, then the partial block's own
    assert out["p8_aes_xts/96"] == [[0, 0, 0], [16, 96], ["vsx"]]   # the tweak, then the step
    # 100 bytes under 6.18: the tail goes to the fallback xts(ecb(p8_aes)): p8_aes's one section
    # per block, for the tweak and the 7 blocks (6 whole, the stolen one)
    assert out["p8_aes_xts/100"][1] == [16] * 8
    assert out["ghash_setkey"] == [0]
    # 5 buffered; 11 complete a block (one section), 32 whole (one), 2 buffered; 14 complete a
    # block, 32 whole, 4 buffered; final: the padded partial block
    assert out["ghash"] == [16, 32, 16, 32, 16]
    assert out["ghash_whole"] == [32]


_RULES = r"""
import json
import crypto_api as capi
from crypto_api.errors import CryptoError
from crypto_api.fpu import simd_disabled
out = {}
x = capi.crypto_alloc_skcipher("p8_aes_xts")
g = capi.crypto_alloc_skcipher("xts(ecb(aes-generic))")
key = bytes(range(32))
x.setkey(key); g.setkey(key)
for n in (0, 15, 17, 40):
    try:
        out[f"xts{n}"] = ["ok", x.encrypt(bytes(n), bytes(16)) == g.encrypt(bytes(n), bytes(16))]
    except CryptoError as e:
        out[f"xts{n}"] = [e.errno, str(e)]
h = capi.crypto_alloc_shash("p8_ghash")
ref = capi.crypto_alloc_shash("ghash-generic")
h.setkey(bytes(range(16))); ref.setkey(bytes(range(16)))
d = h.desc().init()
d.update(bytes(range(48)))                  # with SIMD
with simd_disabled():
    d.update(bytes(range(48, 64)))          # in "interrupt context"
    mixed = d.final()
out["ghash_mixed_ok"] = mixed == ref.digest(bytes(range(64)))
out["ghash_fallback"] = getattr(h.ctx, "fallback", None) and h.ctx.fallback.driver_name
print(json.dumps(out))
"""


def test_version_rules_xts_tail_and_ghash_fallback():
    new, old = run(_RULES, "power8", "6.18"), run(_RULES, "power8", "5.0")
    # 5.4+: under 16 bytes EINVAL naming the driver; a tail goes to the fallback (stealing)
    for n in (0, 15):
        assert new[f"xts{n}"][0] == 22 and "p8_aes_xts" in new[f"xts{n}"][1], new[f"xts{n}"]
    assert new["xts17"] == ["ok", True] and new["xts40"] == ["ok", True]
    # v5.0: whole blocks only, refused by the driver (0 bytes do nothing)
    assert old["xts0"][0] == "ok"
    for n in (15, 17, 40):
        assert old[f"xts{n}"][0] == 22 and "p8_aes_xts" in old[f"xts{n}"][1], old[f"xts{n}"]
    # 5.2+: the same descriptor goes on in software; v5.0: a second descriptor in the fallback
    # ghash-generic takes the no-SIMD calls, so a hash whose context changes comes out wrong
    assert new["ghash_mixed_ok"] is True and new["ghash_fallback"] is None
    assert old["ghash_mixed_ok"] is False and old["ghash_fallback"] == "ghash-generic"


_ERRORS = r"""
import json
import crypto_api as capi
from crypto_api.errors import CryptoError
out = []
def attempt(f):
    try:
        f()
        out.append("accepted")
    except CryptoError as e:
        out.append([e.errno, str(e)])
cbc = capi.crypto_alloc_skcipher("p8_aes_cbc")
attempt(lambda: cbc.setkey(bytes(20)))
cbc.setkey(bytes(16))
attempt(lambda: cbc.encrypt(bytes(20), bytes(16)))
ctr = capi.crypto_alloc_skcipher("p8_aes_ctr")
attempt(lambda: ctr.setkey(bytes(17)))
xts = capi.crypto_alloc_skcipher("p8_aes_xts")
attempt(lambda: xts.setkey(bytes(40)))           # two 20-byte halves
attempt(lambda: xts.setkey(bytes(33)))           # odd
gh = capi.crypto_alloc_shash("p8_ghash")
attempt(lambda: gh.setkey(bytes(15)))
print(json.dumps(out))
"""


def test_errors_name_the_driver():
    out = run(_ERRORS, "power8", "6.18")
    names = ("p8_aes_cbc", "p8_aes_cbc", "p8_aes_ctr", "p8_aes_xts", "p8_aes_xts", "p8_ghash")
    assert len(out) == len(names)
    for got, name in zip(out, names):
        assert got != "accepted" and got[0] == 22 and name in got[1], (name, got)


def selftest(kernel: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, CRYPTO_API_KERNEL=kernel)
    return subprocess.run([sys.executable, "-m", "crypto_api", "--arch", "ppc64le", "--cpu", "power8",
                           "selftest", *args], env=env, capture_output=True, text=True)


@pytest.mark.parametrize("kernel", ["5.0", "6.18"])
def test_self_tests_with_fuzzing_per_version(kernel):
    """testmgr's vectors, random configurations (nosimd included) and fuzzing against the
    generic drivers, under each version's rules (the registration's self-test allocates the
    fallback while the module's init is still running, which must not load it again).
    v5.0's p8_ghash is left out here: see the next test."""
    drivers = DRIVERS if kernel != "5.0" else MODES
    r = selftest(kernel, "--full", "--iterations", "30", *drivers)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"{len(drivers)} drivers: {len(drivers)} passed, 0 failed" in r.stdout


def test_v50_ghash_passes_registration_tests_and_fails_the_nosimd_ones():
    """v5.0's testmgr had no no-SIMD configurations, and its p8_ghash passed; the
    configurations that 5.2 added (and this testmgr runs for every version) catch the
    descriptor split that 5.2 fixed."""
    fast = selftest("5.0", "p8_ghash")
    assert fast.returncode == 0 and "1 drivers: 1 passed" in fast.stdout, fast.stdout + fast.stderr
    full = selftest("5.0", "--full", "--iterations", "30", "--seed", "1", "p8_ghash")
    assert full.returncode == 1
    assert "p8_ghash test failed (wrong result)" in full.stdout + full.stderr
    assert "nosimd" in full.stdout + full.stderr

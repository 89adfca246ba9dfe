"""ghash-ce and gcm-aes-ce (arch/arm64/ghash_ce_glue.py, gcm_aes_ce.py) on an
emulated arm64 machine, each probe a fresh interpreter booted as arm64.

Checked: module ghash_ce's registration, /proc/crypto and what ``ghash`` and
``gcm(aes)`` resolve to (on a CPU without the Crypto Extensions: no CE
driver, ghash-neon and the gcm_base template over it); the NEON sections each path opens and
none when SIMD is unusable; agreement with ghash-generic and with
``cryptography``'s AESGCM over random keys, lengths, tag sizes and
scatterlist layouts, both ways; tampered tag, text or AD refused with
EBADMSG (the plaintext left in dst, as the kernel's decrypt-then-compare);
the key and authsize refusals; the self-test manager at level full.
"""

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from arm64_emulation import run_cases, run_cli, run_json
from drawn_bytes import exactly
from sglayout import layouts

pytestmark = pytest.mark.emulation

CPU_MODELS = ("max", "cortex-a53")
NO_AES_CPU = "cortex-a53,neon=off,vfp=off"      # HWCAP: fp asimd crc32 cpuid, no aes/pmull
KEY, NONCE, AD, PT = bytes(range(32)), bytes(range(12)), bytes(range(20)), bytes(range(256)) + bytes(44)

PROBE = r'''
import json
import crypto_api as capi
from emulated_cases import tampered_decrypt, trace

out = {"load": getattr(capi.load_all().get("ghash_ce"), "errno", 0)}
recs = {}
for block in capi.proc_crypto().strip().split("\n\n"):
    rec = dict((k.strip(), v.strip()) for k, v in (l.split(":", 1) for l in block.splitlines()))
    recs[rec["driver"]] = rec
out["proc"] = {d: recs.get(d) for d in ("ghash-ce", "gcm-aes-ce")}
out["ghash"] = capi.crypto_alloc_shash("ghash").driver_name
out["gcm"] = capi.crypto_alloc_aead("gcm(aes)").driver_name


if out["proc"]["gcm-aes-ce"] is not None:     # the CE drivers are there (a CPU with PMULL)
    KEY, NONCE, AD, PT = bytes(range(32)), bytes(range(12)), bytes(range(20)), bytes(range(256)) + bytes(44)
    g = capi.crypto_alloc_shash("ghash-ce")
    g.setkey(KEY[:16])
    d = g.desc()
    d.init()
    out["gh_5"] = trace(lambda: d.update(bytes(5)))[1]          # no block completed: no section
    out["gh_40"] = trace(lambda: d.update(bytes(40)))[1]        # 45 bytes: two blocks, one section
    out["gh_final"] = trace(lambda: d.final().hex())            # 13 pending bytes: a section
    d.init()
    d.update(bytes(32))
    out["gh_final_whole"] = trace(lambda: d.final().hex())[1]   # nothing pending: none
    with capi.simd_disabled():
        out["gh_nosimd"] = trace(lambda: g.digest(bytes(100)).hex())

    t = capi.crypto_alloc_aead("gcm-aes-ce")
    out["setkey"] = trace(lambda: t.setkey(KEY))[1]
    sealed, out["enc"] = trace(lambda: t.encrypt(PT, NONCE, AD))
    out["sealed"] = sealed.hex()
    out["dec"] = trace(lambda: t.decrypt(sealed, NONCE, AD) == PT)
    with capi.simd_disabled():
        out["nosimd"] = trace(lambda: [t.encrypt(PT, NONCE, AD) == sealed, t.decrypt(sealed, NONCE, AD) == PT])
    with capi.interrupt_context():
        out["irq"] = trace(lambda: t.encrypt(PT, NONCE, AD) == sealed)

    out["tamper"] = {part: tampered_decrypt(t, sealed, AD, NONCE, part, pos)
                     for part, pos in (("tag", -1), ("text", 100), ("assoc", 3))}

    ref = {}
    for size in (0, 15, 17, 20, 31, 33):
        try:
            t.setkey(bytes(size))
            ref[f"key {size}"] = 0
        except capi.CryptoError as err:
            ref[f"key {size}"] = [err.errno, "gcm-aes-ce" in err.message]
    t.setkey(KEY)
    for size in range(0, 17):
        try:
            t.setauthsize(size)
            ref[f"authsize {size}"] = t.encrypt(PT, NONCE, AD).hex()
        except capi.CryptoError as err:
            ref[f"authsize {size}"] = [err.errno, "gcm-aes-ce" in err.message]
    for size in (15, 17):
        try:
            g.setkey(bytes(size))
            ref[f"ghash key {size}"] = 0
        except capi.CryptoError as err:
            ref[f"ghash key {size}"] = [err.errno, "ghash-ce" in err.message]
    out["refusals"] = ref
print(json.dumps(out))
'''


def _probe(cpu):
    from arm64_emulation import require_emulation
    require_emulation()
    return run_json(PROBE, cpu)


@pytest.fixture(scope="module", params=CPU_MODELS)
def probe(request):
    return _probe(request.param)


def test_registration_and_resolution(probe):
    out = probe
    assert out["load"] == 0
    gh, gcm = out["proc"]["ghash-ce"], out["proc"]["gcm-aes-ce"]
    assert (gh["name"], gh["module"], gh["priority"], gh["type"], gh["blocksize"], gh["digestsize"],
            gh["selftest"]) == ("ghash", "ghash_ce", "200", "shash", "16", "16", "passed")
    assert (gcm["name"], gcm["module"], gcm["priority"], gcm["type"], gcm["async"], gcm["blocksize"],
            gcm["ivsize"], gcm["maxauthsize"], gcm["selftest"]) == \
        ("gcm(aes)", "ghash_ce", "300", "aead", "no", "1", "12", "16", "passed")
    assert (out["ghash"], out["gcm"]) == ("ghash-ce", "gcm-aes-ce")


def test_without_pmull_no_ce_drivers_and_the_template_answers():
    """The module registers ghash-neon alone there (tests/arch/arm64/test_ghash_neon.py); the
    template's ctr(aes) is aes-neon-blk's ctr-aes-neon, which the lookup loads by its alias
    before any template instance is made (a kernel built without aes-neonbs)."""
    out = _probe(NO_AES_CPU)
    assert out["load"] == 0
    assert out["proc"] == {"ghash-ce": None, "gcm-aes-ce": None}
    assert out["ghash"] == "ghash-neon"
    assert out["gcm"] == "gcm_base(ctr-aes-neon,ghash-neon)"


def test_ghash_neon_sections(probe):
    out = probe
    g = capi.crypto_alloc_shash("ghash-generic")
    g.setkey(KEY[:16])
    assert out["gh_5"] == [] and out["gh_40"] == [["neon", 40]]
    assert out["gh_final"] == [g.digest(bytes(45)).hex(), [["neon", 16]]]
    assert out["gh_final_whole"] == []
    assert out["gh_nosimd"] == [g.digest(bytes(100)).hex(), []]


def test_gcm_one_neon_section_per_request(probe):
    out = probe
    want = AESGCM(KEY).encrypt(NONCE, PT, AD)
    assert out["sealed"] == want.hex()
    assert out["setkey"] == [["neon", 0]]
    assert out["enc"] == [["neon", len(AD) + len(PT)]]
    assert out["dec"] == [True, [["neon", len(AD) + len(PT)]]]
    # no usable SIMD: the gcm_base instance computes the same bytes, no section
    assert out["nosimd"] == [[True, True], []]
    assert out["irq"] == [True, []]


@pytest.mark.parametrize("part", ["tag", "text", "assoc"])
def test_tampering_is_ebadmsg(probe, part):
    """EBADMSG naming the driver; dst's AD untouched and its text the
    decryption of what came in (the kernel's decrypt, then compare)."""
    out = probe
    errno, message, ad_untouched, text = out["tamper"][part]
    assert (errno, ad_untouched) == (74, True) and "gcm-aes-ce" in message
    want = bytearray(PT)
    if part == "text":
        want[100] ^= 0x10
    assert text == want.hex()


def test_refusals(probe):
    out = probe
    ref = out["refusals"]
    for size in (0, 15, 17, 20, 31, 33):
        assert ref[f"key {size}"] == [22, True], size
    full = AESGCM(KEY).encrypt(NONCE, PT, AD)
    for size in range(0, 17):
        if size in (4, 8) or size >= 12:
            assert ref[f"authsize {size}"] == full[:len(PT) + size].hex(), size
        else:
            assert ref[f"authsize {size}"] == [22, True], size
    assert ref["ghash key 15"] == [22, True] and ref["ghash key 17"] == [22, True]


CASES = r'''
import json, sys
import crypto_api as capi
from emulated_cases import aead_case, split_digest

t = capi.crypto_alloc_aead("gcm-aes-ce")
g = capi.crypto_alloc_shash("ghash-ce")
print(json.dumps([split_digest(g, c) if c["kind"] == "ghash" else aead_case(t, c)
                  for c in json.loads(sys.stdin.read())]))
'''

TEXT_LENGTHS = st.one_of(st.integers(0, 64), st.integers(250, 600))


@st.composite
def gcm_cases(draw):
    key = draw(st.sampled_from((16, 24, 32)).flatmap(exactly))
    nonce, ad = draw(exactly(12)), draw(st.binary(max_size=70))
    pt = draw(TEXT_LENGTHS.flatmap(exactly))
    authsize = draw(st.sampled_from((4, 8, 12, 13, 14, 15, 16)))
    ct = AESGCM(key).encrypt(nonce, pt, ad)[:len(pt) + authsize]
    out = []
    for encrypt, inp, res in ((True, pt, ct), (False, ct, pt)):
        out.append({"kind": "gcm", "key": key.hex(), "nonce": nonce.hex(), "ad": ad.hex(), "inp": inp.hex(),
                    "encrypt": encrypt, "authsize": authsize, "want": res.hex(),
                    "src": draw(layouts(len(ad) + len(inp))), "dst": draw(layouts(len(ad) + len(res)))})
    return out


@st.composite
def ghash_cases(draw):
    key, data = draw(exactly(16)), draw(TEXT_LENGTHS.flatmap(exactly))
    cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=4)))
    g = capi.crypto_alloc_shash("ghash-generic")         # the host's generic driver
    g.setkey(key)
    return [{"kind": "ghash", "key": key.hex(), "nonce": "", "ad": "", "inp": data.hex(), "cuts": cuts,
             "want": g.digest(data).hex()}]


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.lists(st.one_of(gcm_cases(), ghash_cases()), min_size=6, max_size=10))
def test_matches_cryptography_and_ghash_generic(batch):
    """Random keys, lengths (partial blocks, several 16-block strides), tag
    sizes and scatterlist layouts: AESGCM's bytes both ways, nothing outside
    dst's entries written, src untouched; ghash-ce over random update splits
    equals the host's ghash-generic."""
    from arm64_emulation import require_emulation
    require_emulation()
    flat = [c for group in batch for c in group]
    for c, got in zip(flat, run_cases(CASES, flat)):
        if c["kind"] == "ghash":
            assert got == c["want"]
        else:
            assert got == [0, c["want"], True, True, True]


@pytest.mark.parametrize("cpu", CPU_MODELS)
def test_full_self_tests(cpu):
    """Vectors both ways (nosimd configurations included), random
    configurations and fuzzing against the generic drivers."""
    r = run_cli("--arch", "arm64", "--cpu", cpu, "selftest", "--full", "--iterations", "20",
                "ghash-ce", "gcm-aes-ce")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "alg: self-tests for ghash-ce (ghash) passed" in r.stdout
    assert "alg: self-tests for gcm-aes-ce (gcm(aes)) passed" in r.stdout
    assert "2 drivers: 2 passed, 0 failed" in r.stdout

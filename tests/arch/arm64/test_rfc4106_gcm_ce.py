"""rfc4106-gcm-aes-ce (arch/arm64/gcm_aes_ce.py's ESP form, module ghash_ce)
on an emulated arm64 machine, each probe a fresh interpreter booted as arm64.

Checked: registration beside gcm-aes-ce, /proc/crypto and what
``rfc4106(gcm(aes))`` resolves to (the template's instance on a CPU without
PMULL); the ESP vector of aes-gcm-rfc4106.json; one NEON section per request
over the hashed AD (the IV copy left out) and the text, none without usable
SIMD (the rfc4106 instance over the scalar GCM, the same bytes); the IV copy
in the AD region is neither authenticated nor used (req->iv is); the
refusals algs/gcm.py's rfc4106 makes (assoclen 16/20, tags 8/12/16, a key
shorter than its salt) with this driver's name; agreement with
``cryptography``'s AESGCM (nonce salt ‖ IV) over random keys, lengths, tag
sizes, SPI lengths and scatterlist layouts, both ways, and with the host's
generic rfc4106 instance; the self-test manager at level full, which fuzzes
against rfc4106(gcm_base(ctr(aes-generic),ghash-generic)).
"""

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api.testmgr.vectors import load_json
from arm64_emulation import list_records, run_cases, run_cli, run_json
from drawn_bytes import exactly
from sglayout import layouts

pytestmark = pytest.mark.emulation

NO_PMULL_CPU = "cortex-a53,neon=off,vfp=off"      # HWCAP: fp asimd crc32 cpuid, no aes/pmull
KEY, SALT, IV, SPI = bytes(range(16, 48)), b"\x01\x02\x03\x04", bytes(range(8)), bytes(range(8))
PT = bytes(range(256)) + bytes(44)
ESP = "rfc4106-gcm-aes-ce"

PROBE = r'''
import json
import crypto_api as capi
from emulated_cases import trace

out = {"load": getattr(capi.load_all().get("ghash_ce"), "errno", 0), "proc": capi.proc_crypto()}
out["resolves"] = capi.crypto_alloc_aead("rfc4106(gcm(aes))").driver_name


def errno_of(fn):
    try:
        fn()
        return 0
    except capi.CryptoError as err:
        return [err.errno, "rfc4106-gcm-aes-ce" in err.message]


if "rfc4106-gcm-aes-ce" in out["proc"]:      # a CPU with PMULL
    KEY, SALT, IV, SPI = bytes(range(16, 48)), b"\x01\x02\x03\x04", bytes(range(8)), bytes(range(8))
    PT = bytes(range(256)) + bytes(44)
    t = capi.crypto_alloc_aead("rfc4106-gcm-aes-ce")
    t.setkey(KEY + SALT)
    sealed, out["enc"] = trace(lambda: t.encrypt(PT, IV, SPI + IV))
    out["sealed"] = sealed.hex()
    out["dec"] = trace(lambda: t.decrypt(sealed, IV, SPI + IV) == PT)
    # the IV copy is not what counts: req->iv is
    out["other_copy"] = t.decrypt(sealed, IV, SPI + bytes(8)) == PT
    with capi.simd_disabled():
        out["nosimd"] = trace(lambda: [t.encrypt(PT, IV, SPI + IV) == sealed,
                                       t.decrypt(sealed, IV, SPI + IV) == PT])
    bad = bytearray(sealed)
    bad[-1] ^= 1
    out["tamper"] = errno_of(lambda: t.decrypt(bytes(bad), IV, SPI + IV))

    ref = {}
    for size in (0, 3, 4, 16, 19, 20, 21, 28, 36, 40):
        ref[f"key {size}"] = errno_of(lambda: t.setkey(bytes(size)))
    t.setkey(KEY + SALT)
    for size in range(0, 17):
        ref[f"authsize {size}"] = errno_of(lambda: t.setauthsize(size))
    t.setauthsize(16)
    for alen in (0, 8, 12, 15, 17, 24, 28):
        for name in ("enc", "dec"):
            src = bytearray(alen + 48)
            req = capi.aead_request_alloc(t)
            capi.aead_request_set_crypt(req, capi.sg_init_one(src), capi.sg_init_one(src), 32, bytearray(8))
            capi.aead_request_set_ad(req, alen)
            fn = capi.crypto_aead_encrypt if name == "enc" else capi.crypto_aead_decrypt
            ref[f"assoclen {alen} {name}"] = errno_of(lambda: fn(req))
    out["refusals"] = ref
print(json.dumps(out))
'''


def _probe(cpu):
    from arm64_emulation import require_emulation
    require_emulation()
    return run_json(PROBE, cpu)


@pytest.fixture(scope="module")
def probe():
    return _probe("max")


def test_registration_and_resolution(probe):
    out = probe
    assert out["load"] == 0
    rec = list_records(out["proc"])[ESP]
    assert (rec["name"], rec["module"], rec["priority"], rec["type"], rec["async"], rec["blocksize"],
            rec["ivsize"], rec["maxauthsize"], rec["selftest"]) == \
        ("rfc4106(gcm(aes))", "ghash_ce", "300", "aead", "no", "1", "8", "16", "passed")
    assert out["resolves"] == ESP


def test_without_pmull_the_template_answers():
    out = _probe(NO_PMULL_CPU)
    assert ESP not in list_records(out["proc"])
    assert out["resolves"].startswith("rfc4106(gcm_base(")


def test_one_neon_section_per_request_and_the_scalar_fallback(probe):
    out = probe
    want = AESGCM(KEY).encrypt(SALT + IV, PT, SPI)
    assert out["sealed"] == want.hex()
    # the section covers the hashed AD (SPI and sequence number, not the IV copy) and the text
    assert out["enc"] == [["neon", len(SPI) + len(PT)]]
    assert out["dec"] == [True, [["neon", len(SPI) + len(PT)]]]
    assert out["other_copy"] is True
    assert out["nosimd"] == [[True, True], []]
    assert out["tamper"] == [74, True]


def test_refusals_are_the_templates(probe):
    ref = probe["refusals"]
    for size in (20, 28, 36):
        assert ref[f"key {size}"] == 0, size
    for size in (0, 3, 4, 16, 19, 21, 40):
        assert ref[f"key {size}"] == [22, True], size
    for size in range(0, 17):
        assert ref[f"authsize {size}"] == (0 if size in (8, 12, 16) else [22, True]), size
    for alen in (0, 8, 12, 15, 17, 24, 28):
        assert ref[f"assoclen {alen} enc"] == [22, True], alen
        assert ref[f"assoclen {alen} dec"] == [22, True], alen


VECTOR = r'''
import json, sys
import crypto_api as capi
from crypto_api.testmgr.vectors import load_json
(v,) = load_json("aes-gcm-rfc4106.json")["vectors"]
b = {k: bytes.fromhex(v[k]) for k in ("kernel_key", "kernel_iv", "kernel_assoc", "plaintext", "kernel_ctext")}
t = capi.crypto_alloc_aead("rfc4106-gcm-aes-ce")
t.setkey(b["kernel_key"])
print(json.dumps([t.encrypt(b["plaintext"], b["kernel_iv"], b["kernel_assoc"]).hex(),
                  t.decrypt(b["kernel_ctext"], b["kernel_iv"], b["kernel_assoc"]).hex()]))
'''


def test_the_esp_vector():
    from arm64_emulation import require_emulation
    require_emulation()
    (v,) = load_json("aes-gcm-rfc4106.json")["vectors"]
    assert run_json(VECTOR) == [v["kernel_ctext"], v["plaintext"]]


CASES = r'''
import json, sys
import crypto_api as capi
from emulated_cases import aead_case

t = capi.crypto_alloc_aead("rfc4106-gcm-aes-ce")
print(json.dumps([aead_case(t, c) for c in json.loads(sys.stdin.read())]))
'''

TEXT_LENGTHS = st.one_of(st.integers(0, 64), st.integers(250, 600))
GENERIC_RFC4106 = "rfc4106(gcm_base(ctr(aes-generic),ghash-generic))"


@st.composite
def esp_cases(draw):
    key = draw(st.sampled_from((16, 24, 32)).flatmap(exactly))
    salt, iv = draw(exactly(4)), draw(exactly(8))
    spi = draw(st.sampled_from((8, 12)).flatmap(exactly))
    pt = draw(TEXT_LENGTHS.flatmap(exactly))
    authsize = draw(st.sampled_from((8, 12, 16)))
    ct = AESGCM(key).encrypt(salt + iv, pt, spi)[:len(pt) + authsize]
    with capi.crypto_alloc_aead(GENERIC_RFC4106) as g:  # freed here: no reference outlives the case
        g.setkey(key + salt)
        g.setauthsize(authsize)
        assert g.encrypt(pt, iv, spi + iv) == ct             # the two references agree
    out = []
    for encrypt, inp, res in ((True, pt, ct), (False, ct, pt)):
        ad = spi + iv
        out.append({"key": (key + salt).hex(), "nonce": iv.hex(), "ad": ad.hex(), "inp": inp.hex(),
                    "encrypt": encrypt, "authsize": authsize, "want": res.hex(),
                    "src": draw(layouts(len(ad) + len(inp))), "dst": draw(layouts(len(ad) + len(res)))})
    return out


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.lists(esp_cases(), min_size=4, max_size=8))
def test_matches_cryptography_and_the_generic_rfc4106(batch):
    """Both ways over random scatterlists: AESGCM's bytes (and the generic
    instance's), nothing outside dst's entries written, src untouched."""
    from arm64_emulation import require_emulation
    require_emulation()
    flat = [c for group in batch for c in group]
    for c, got in zip(flat, run_cases(CASES, flat)):
        assert got == [0, c["want"], True, True, True]


def test_full_self_tests():
    r = run_cli("--arch", "arm64", "--cpu", "max", "selftest", "--full", "--iterations", "20", ESP)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"alg: self-tests for {ESP} (rfc4106(gcm(aes))) passed" in r.stdout
    assert "1 drivers: 1 passed, 0 failed" in r.stdout

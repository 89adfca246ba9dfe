"""The one-pass NEON ChaCha20-Poly1305 AEADs (arch/arm64/chacha20poly1305_glue.py)
on an emulated arm64 machine: ``rfc7539-chacha20poly1305-neon`` and
``rfc7539esp-chacha20poly1305-neon``, beyond the kernel (which has no such
driver).  Each probe boots a fresh interpreter as arm64 (two CPU models).

Checked: registration and /proc/crypto, resolution above the template
instance and the fallback's name; the official vectors both ways;
``cryptography``'s ChaCha20Poly1305 over random lengths and scatterlist
layouts (nothing outside dst's text and tag written, src untouched); every
EBADMSG path (zeros, not plaintext, in dst); the refusals; one NEON section
per request, none when SIMD is unusable (the template instance answers
then); module init without HWCAP asimd; the self-test manager at level full,
and a planted bug that only its fuzzing against the generic instance sees.
"""

import hashlib
import json

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from hypothesis import HealthCheck, given, settings, strategies as st

from arm64_emulation import arm64_env, run_cases, run_cli, run_json, run_python
from drawn_bytes import exactly
from sglayout import layouts

pytestmark = pytest.mark.emulation

CPU_MODELS = ("max", "cortex-a53")
RFC = "rfc7539(chacha20,poly1305)"
ESP = "rfc7539esp(chacha20,poly1305)"
DRIVERS = {RFC: "rfc7539-chacha20poly1305-neon", ESP: "rfc7539esp-chacha20poly1305-neon"}
TEXT_LEN = 256 * 35 + 40           # the probe's text

PROBE = r'''
import json, os
import crypto_api as capi
from crypto_api.testmgr.vectors import load_json
from emulated_cases import tampered_decrypt

RFC, ESP = "rfc7539(chacha20,poly1305)", "rfc7539esp(chacha20,poly1305)"
out = {"load": {k: getattr(v, "errno", 0) for k, v in capi.load_all().items()
                if k.startswith("chacha20poly1305")}}
recs = {}
for block in capi.proc_crypto().strip().split("\n\n"):
    rec = dict((k.strip(), v.strip()) for k, v in (l.split(":", 1) for l in block.splitlines()))
    recs[rec["driver"]] = rec
out["proc"] = {d: recs.get(d) for d in ("rfc7539-chacha20poly1305-neon", "rfc7539esp-chacha20poly1305-neon")}
tfms = {name: capi.crypto_alloc_aead(name) for name in (RFC, ESP)}
out["resolve"] = {}
for name, t in tfms.items():
    with capi.crypto_alloc_aead(name, 0, capi.CRYPTO_ALG_NEED_FALLBACK) as f:
        out["resolve"][name] = [t.driver_name, t.alg.cra_priority, t.ivsize, t.maxauthsize,
                                f.driver_name, f.alg.cra_priority]

# the official vectors, both ways, through the request path
bad, n = [], 0
for v in load_json("rfc7539-chacha20poly1305.json")["vectors"]:
    b = {k: bytes.fromhex(v[k]) for k in ("kernel_key", "kernel_iv", "kernel_assoc", "plaintext",
                                           "kernel_ctext")}
    t = tfms[v["kernel_alg"]]
    t.setkey(b["kernel_key"])
    try:
        if v["valid"]:
            ok = (t.encrypt(b["plaintext"], b["kernel_iv"], b["kernel_assoc"]) == b["kernel_ctext"]
                  and t.decrypt(b["kernel_ctext"], b["kernel_iv"], b["kernel_assoc"]) == b["plaintext"])
        else:
            try:
                t.decrypt(b["kernel_ctext"], b["kernel_iv"], b["kernel_assoc"])
                ok = False
            except capi.CryptoError as e:
                ok = e.errno == 74
    except capi.CryptoError as e:
        ok = False
    n += 1
    if not ok:
        bad.append(v["id"])
out["vectors"] = [n, bad]

def trace(fn):
    with capi.fpu_trace() as tr:
        res = fn()
    return res, [[s.unit, s.nbytes] for s in tr.sections]

key, nonce, ad, pt = bytes(range(32)), bytes(range(12)), bytes(20), bytes(range(256)) * 35 + bytes(40)
t = tfms[RFC]
t.setkey(key)
sealed, out["trace_enc"] = trace(lambda: t.encrypt(pt, nonce, ad))
opened, out["trace_dec"] = trace(lambda: t.decrypt(sealed, nonce, ad))
out["sealed"] = [sealed.hex(), opened == pt]

def nested(fn):
    capi.kernel_neon_begin()
    try:
        return fn()
    finally:
        capi.kernel_neon_end()

for label, ctx in (("nosimd", capi.simd_disabled), ("irq", capi.interrupt_context)):
    with ctx():
        out[label] = trace(lambda: [t.encrypt(pt, nonce, ad) == sealed, t.decrypt(sealed, nonce, ad) == pt])
out["nested"] = trace(lambda: nested(lambda: [t.encrypt(pt, nonce, ad) == sealed,
                                               t.decrypt(sealed, nonce, ad) == pt]))
e = tfms[ESP]
e.setkey(key + b"salt")
esp_ad = bytes(20) + bytes(range(8))
out["trace_esp"] = trace(lambda: e.encrypt(pt[:1000], bytes(range(8)), esp_ad).hex())

# EBADMSG: a flipped bit in the tag, the text or the AD; dst's text zeros, its AD never written
out["tamper"] = {}
for part, pos in (("tag", -1), ("text", 700), ("assoc", 3)):
    res = tampered_decrypt(t, sealed, ad, nonce, part, pos)
    ct, a = bytearray(sealed), bytearray(ad)
    (ct if part != "assoc" else a)[pos] ^= 0x10
    try:
        t.decrypt(bytes(ct), nonce, bytes(a))
        res.append(0)
    except capi.CryptoError as err:
        res.append(err.errno)
    out["tamper"][part] = res

# refusals
ref = {}
for name, good in ((RFC, 32), (ESP, 36)):
    x = tfms[name]
    for size in (0, 16, 31, 33, 35, 37):
        if size != good:
            try:
                x.setkey(bytes(size))
                ref[f"{name} key {size}"] = 0
            except capi.CryptoError as err:
                ref[f"{name} key {size}"] = [err.errno, x.driver_name in err.message]
    x.setkey(bytes(good))
    for size in (0, 4, 8, 12, 15):
        try:
            x.setauthsize(size)
            ref[f"{name} authsize {size}"] = 0
        except capi.CryptoError as err:
            ref[f"{name} authsize {size}"] = [err.errno]
    x.setauthsize(16)
for label, ctx in (("plain", None), ("nosimd", capi.simd_disabled)):
    src, dst = bytearray(7 + 20), bytearray(b"\xee" * (7 + 36))
    req = capi.aead_request_alloc(e)
    capi.aead_request_set_crypt(req, capi.sg_init_one(src), capi.sg_init_one(dst), 20, bytearray(8))
    capi.aead_request_set_ad(req, 7)
    try:
        if ctx:
            with ctx():
                capi.crypto_aead_encrypt(req)
        else:
            capi.crypto_aead_encrypt(req)
        ref[f"esp assoclen 7 {label}"] = 0
    except capi.CryptoError as err:
        ref[f"esp assoclen 7 {label}"] = [err.errno, "assoclen 7" in err.message, dst == b"\xee" * 43]
out["refusals"] = ref
print(json.dumps(out))
'''


@pytest.fixture(scope="module", params=CPU_MODELS)
def probe(request):
    from arm64_emulation import require_emulation
    require_emulation()
    return request.param, run_json(PROBE, cpu=request.param)


def test_registered_above_the_template_instance(probe):
    _, out = probe
    assert out["load"]["chacha20poly1305_neon"] == 0
    for name, driver in DRIVERS.items():
        rec = out["proc"][driver]
        assert (rec["name"], rec["module"], rec["priority"], rec["type"], rec["async"], rec["blocksize"],
                rec["ivsize"], rec["maxauthsize"], rec["selftest"]) == \
            (name, "chacha20poly1305_neon", "400", "aead", "no", "1", "12" if name == RFC else "8", "16",
             "passed")
        tmpl = name.split("(")[0]
        # the fallback: the template instance over the NEON children, (300 + 200) // 2
        assert out["resolve"][name] == [driver, 400, 12 if name == RFC else 8, 16,
                                        f"{tmpl}(chacha20-neon,poly1305-neon)", 250]


def test_official_vectors_both_ways(probe):
    _, out = probe
    count, failed = out["vectors"]
    assert count >= 70 and failed == []


def test_one_neon_section_per_request(probe):
    _, out = probe
    key, nonce, ad, pt = bytes(range(32)), bytes(range(12)), bytes(20), bytes(range(256)) * 35 + bytes(40)
    assert out["sealed"] == [ChaCha20Poly1305(key).encrypt(nonce, pt, ad).hex(), True]
    assert out["trace_enc"] == [["neon", 20 + len(pt)]]
    assert out["trace_dec"] == [["neon", 20 + len(pt)]]
    # rfc7539esp: the section covers the AD without its 8-byte IV copy
    sealed, sections = out["trace_esp"]
    assert sections == [["neon", 20 + 1000]]
    assert sealed == ChaCha20Poly1305(key).encrypt(b"salt" + bytes(range(8)), pt[:1000], bytes(20)).hex()


def test_without_usable_simd_the_template_instance_answers(probe):
    """Interrupt context or the self-test manager's nosimd: no NEON section at
    all (the template's NEON children take their generic paths too); a
    nested NEON user: only the caller's own section."""
    _, out = probe
    assert out["nosimd"] == [[True, True], []]
    assert out["irq"] == [[True, True], []]
    assert out["nested"] == [[True, True], [["neon", 0]]]


@pytest.mark.parametrize("part", ["tag", "text", "assoc"])
def test_tampering_is_ebadmsg_and_leaves_no_plaintext(probe, part):
    _, out = probe
    errno, message, ad_untouched, text, direct_errno = out["tamper"][part]
    assert (errno, ad_untouched, direct_errno) == (74, True, 74)
    assert set(bytes.fromhex(text)) == {0} and len(text) == 2 * TEXT_LEN   # zeros, not plaintext
    assert DRIVERS[RFC] in message


def test_refusals(probe):
    _, out = probe
    ref = out["refusals"]
    for key, value in ref.items():
        if " key " in key:
            assert value == [22, True], key
        elif "authsize" in key:
            assert value == [22], key
        else:       # refused before anything is written, with or without SIMD
            assert value == [22, True, True], key
    assert len(ref) == 2 * 6 + 2 * 5 + 2


CASES = r'''
import json, sys
import crypto_api as capi
from emulated_cases import aead_case

t = capi.crypto_alloc_aead("rfc7539(chacha20,poly1305)")
assert t.driver_name == "rfc7539-chacha20poly1305-neon", t.driver_name
print(json.dumps([aead_case(t, c) for c in json.loads(sys.stdin.read())]))
'''


@st.composite
def cases(draw):
    key, nonce = draw(exactly(32)), draw(exactly(12))
    ad = draw(st.binary(max_size=300))
    # lengths around the 256-byte groups and past a page; the bytes a SHAKE
    # expansion of a drawn seed (a batch of drawn texts would exceed hypothesis's budget)
    n = draw(st.one_of(st.integers(0, 1100), st.integers(4000, 4400)))
    pt = draw(st.binary(min_size=32, max_size=32).map(lambda seed: hashlib.shake_256(seed).digest(n)))
    ref = ChaCha20Poly1305(key).encrypt(nonce, pt, ad)
    out = []
    for encrypt, inp, res in ((True, pt, ref), (False, ref, pt)):
        out.append({"key": key.hex(), "nonce": nonce.hex(), "ad": ad.hex(), "inp": inp.hex(),
                    "encrypt": encrypt, "want": res.hex(), "authsize": 16,
                    "src": draw(layouts(len(ad) + len(inp))), "dst": draw(layouts(len(ad) + len(res)))})
    return out


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.lists(cases(), min_size=4, max_size=8))
def test_matches_cryptography_over_random_lengths_and_layouts(batch):
    from arm64_emulation import require_emulation
    require_emulation()
    flat = [c for pair in batch for c in pair]
    for c, got in zip(flat, run_cases(CASES, flat)):
        assert got == [0, c["want"], True, True, True]      # dst's AD region never written


@pytest.mark.parametrize("cpu", CPU_MODELS)
def test_full_self_tests(cpu):
    """Vectors both ways under the 5.1+ configurations (nosimd ones included),
    random configurations, fuzzing against the generic instance, inauthentic inputs."""
    r = run_cli("--arch", "arm64", "--cpu", cpu, "selftest", "--full", "--iterations", "25", *DRIVERS.values())
    assert r.returncode == 0, r.stdout + r.stderr
    for driver in DRIVERS.values():
        assert f"alg: self-tests for {driver} ({'rfc7539' if 'esp' not in driver else 'rfc7539esp'}" \
               f"(chacha20,poly1305)) passed" in r.stdout
    assert "2 drivers: 2 passed, 0 failed" in r.stdout


PLANTED = r'''
import json
import crypto_api as capi
from crypto_api import testmgr
from crypto_api.arch.arm64 import chacha20poly1305_glue as glue, neon_glue
from crypto_api.arch.chacha20poly1305_onepass import make_onepass_aead

capi.load_all()
lib = neon_glue.load_core(glue.CORE)

def seal(key, nonce, ad, alen, src, n, out):
    lib.chacha20poly1305_seal_neon(key, nonce, ad, alen, src, n, out)
    if n >= 3 * 256:         # three groups or more: longer than any vector
        out[n] ^= 1

core = glue.make_core(lib)
core = type(core)(suffix="neon-planted", seal=seal, open=core.open, begin=core.begin, end=core.end,
                  priority=500)
alg = make_onepass_aead("rfc7539", 12, core)
out = {}
testmgr.set_level("fast")
capi.crypto_register_aead(alg)               # the registration runs the fast self-tests
out["fast"] = [b for b in capi.proc_crypto().split("\n\n") if "neon-planted" in b][0]
testmgr.set_level("full")
testmgr.set_fuzz_iterations(10)
testmgr.set_fuzz_seed(7)
try:
    out["full"] = testmgr.alg_test(alg.cra_driver_name, alg.cra_name)
except capi.CryptoError as err:
    out["full"] = str(err)
print(json.dumps(out))
'''


def test_a_planted_bug_past_the_vectors_is_caught_by_fuzzing():
    """A tag wrong only for texts of three 256-byte groups or more (the
    longest vector has 576 bytes): the vectors pass it, fuzzing against the
    generic instance at level full refuses it, so the manager does check
    this driver's long-text path."""
    r = run_python(PLANTED, env=arm64_env("max", {"CRYPTO_API_SELFTESTS": "fast"}))
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert "selftest     : passed" in out["fast"]
    assert "neon-planted encryption test failed (wrong result) on test vector random" in out["full"]


NO_ASIMD = r'''
import json
import crypto_api as capi
from crypto_api.machine import current_machine

m = current_machine()
m._features = tuple(f for f in m.features if f != "asimd")     # a CPU model without Advanced SIMD
res = capi.load_all()
with capi.crypto_alloc_aead("rfc7539(chacha20,poly1305)") as t:
    got = [t.driver_name, t.alg.cra_priority]
err = res.get("chacha20poly1305_neon")
print(json.dumps({"errno": getattr(err, "errno", None), "message": str(err), "rfc7539": got,
                  "listed": "chacha20poly1305-neon" in capi.proc_crypto()}))
'''


def test_without_asimd_nothing_registers_and_the_template_answers():
    r = run_python(NO_ASIMD, env=arm64_env("max", {"CRYPTO_API_SELFTESTS": "off"}))
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["errno"] == 19 and "ASIMD" in out["message"]          # ENODEV
    assert out["listed"] is False
    assert out["rfc7539"] == ["rfc7539(chacha20-generic,poly1305-generic)", 100]

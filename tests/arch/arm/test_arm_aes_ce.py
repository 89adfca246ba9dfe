"""The arm (AArch32) aes-ce mode drivers (arch/arm/aes_ce_glue.py, module
aes_arm_ce, the kernel's arch/arm/crypto/aes-ce-glue.c) on the emulated arm
machine with qemu-arm's ``max`` CPU (HWCAP2 aes), per kernel version.

Each probe boots a fresh interpreter as one kernel version.  Checked: the
drivers each version registers and their /proc/crypto shape (internal
``__`` algorithms under async SIMD wrappers up to 6.15, ``ctr-aes-ce-sync``
5.4-6.15, ``cts-cbc-aes-ce`` 5.4+, direct sync registration 6.16+), what
``crypto_alloc_skcipher("xts(aes)")`` returns in 5.0, 5.10, 6.1 and 6.18,
coldplug by CPU feature and ENODEV on a Cortex-A7; the self-test manager at
level full (the kernel's vectors, then random lengths against the generic
templates); random keys, lengths (XTS tails, CTR partial blocks, CTS) and
scatterlist layouts against the generic templates in the same process and
an independent reference (tests/modes_ref.py over ``cryptography``); the
refusals (EINVAL naming the driver); and the NEON sections of the two glue
generations.
"""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from arm64_emulation import require_emulation, run_json
from drawn_bytes import exactly
from modes_ref import aes, cts_cbc, xts as ref_xts
from sglayout import layouts
from cryptography.hazmat.primitives.ciphers import modes

pytestmark = pytest.mark.emulation

CPU = "max"
MODES = ("ecb", "cbc", "cts-cbc", "ctr", "xts")
NAMES = {"ecb": "ecb(aes)", "cbc": "cbc(aes)", "cts-cbc": "cts(cbc(aes))", "ctr": "ctr(aes)", "xts": "xts(aes)"}
GENERIC = {"ecb": "ecb(aes-generic)", "cbc": "cbc(aes-generic)", "cts-cbc": "cts(cbc(aes-generic))",
           "ctr": "ctr(aes-generic)", "xts": "xts(ecb(aes-generic))"}


def run(code, version, cpu=CPU, stdin=None):
    return run_json(code, cpu, {"CRYPTO_API_ARCH": "arm", "CRYPTO_API_KERNEL": version}, stdin)


PROBE = r'''
import json
import crypto_api as capi

out = {}
got = {}
for name in ("ecb(aes)", "cbc(aes)", "ctr(aes)", "xts(aes)", "cts(cbc(aes))"):
    with capi.crypto_alloc_skcipher(name) as t:
        got[name] = [t.driver_name, t.alg.cra_priority]
out["alloc"] = got
out["boot_after"] = "aes_arm_ce" in capi.loaded_modules()
recs = {}
for block in capi.proc_crypto().strip().split("\n\n"):
    rec = dict((k.strip(), v.strip()) for k, v in (l.split(":", 1) for l in block.splitlines()))
    if rec["module"] == "aes_arm_ce":
        recs[rec["driver"]] = rec
out["proc"] = recs
print(json.dumps(out))
'''

FIELDS = ("name", "priority", "async", "internal", "blocksize", "ivsize", "chunksize", "walksize",
          "min keysize", "max keysize", "selftest")


def shape(mode, internal, asynch, walksize):
    bs, iv = ("1", "16") if mode == "ctr" else ("16", "0" if mode == "ecb" else "16")
    keys = ("32", "64") if mode == "xts" else ("16", "32")
    name = NAMES[mode]
    return ("__" + name if internal else name, "300", asynch, internal and "yes" or "no", bs, iv, "16",
            walksize, *keys, "passed")


def expected_records(version):
    """The drivers of module aes_arm_ce in ``version`` and their /proc/crypto fields."""
    v54 = version not in ("5.0",)
    direct = version in ("6.18",)
    modes = [m for m in MODES if m != "cts-cbc" or v54]
    wide = lambda m: "32" if v54 and m in ("xts", "cts-cbc") else "16"
    out = {}
    for m in modes:
        if direct:
            out[f"{m}-aes-ce"] = shape(m, False, "no", wide(m))
        else:
            out[f"__{m}-aes-ce"] = shape(m, True, "no", wide(m))
            out[f"{m}-aes-ce"] = shape(m, False, "yes", "16")     # the wrapper does not copy walksize
    if v54 and not direct:
        out["ctr-aes-ce-sync"] = ("ctr(aes)", "299", "no", "no", "1", "16", "16", "16", "16", "32", "passed")
    return out


@pytest.fixture(scope="module", params=["5.0", "5.10", "6.1", "6.18"])
def probe(request):
    require_emulation("arm")
    return request.param, run(PROBE, request.param)


def test_registered_drivers_and_their_shape_per_version(probe):
    version, out = probe
    got = {d: tuple(r[f] for f in FIELDS) for d, r in out["proc"].items()}
    assert got == expected_records(version)


def test_what_the_mode_names_resolve_to_per_version(probe):
    """xts(aes) and the other names resolve to the aes-ce drivers (300) in
    every version; cts(cbc(aes)) before 5.4 is the cts template over
    cbc-aes-ce.  The module has no crypto- alias: the first lookup's
    coldplug loaded it by its CPU feature."""
    version, out = probe
    assert out["boot_after"] is True
    want = {NAMES[m]: [f"{m}-aes-ce", 300] for m in MODES}
    if version == "5.0":
        want["cts(cbc(aes))"] = ["cts(cbc-aes-ce)", 300]
    assert out["alloc"] == want


NO_CE = r'''
import json
import crypto_api as capi
out = {"loaded": "aes_arm_ce" in capi.loaded_modules()}
try:
    capi.insmod("aes_arm_ce")
except capi.CryptoError as e:
    out["insmod"] = [e.errno, str(e)]
with capi.crypto_alloc_skcipher("xts(aes)") as t:
    out["xts"] = t.driver_name
print(json.dumps(out))
'''


def test_a_cpu_without_the_aes_extension_gets_enodev_and_the_template():
    require_emulation("arm")
    out = run(NO_CE, "6.18", cpu="cortex-a7")
    assert out["loaded"] is False
    assert out["insmod"][0] == 19 and "aes_arm_ce" in out["insmod"][1] and "AES" in out["insmod"][1]
    assert out["xts"] == "xts(ecb(aes-arm))"


SELFTEST = r'''
import json
import crypto_api as capi
from crypto_api import testmgr

capi.load_all()
testmgr.set_level("full")
print(json.dumps({drv: testmgr.alg_test(drv, name) for drv, name in DRIVERS}))
'''


@pytest.mark.parametrize("version", ["5.0", "6.1", "6.18"])
def test_full_selftests(version):
    """The self-test manager at level full (the kernel's vectors under random
    configurations, nosimd included, then random inputs against the generic
    templates) passes for each driver the version has."""
    require_emulation("arm")
    drivers = [(f"{m}-aes-ce", NAMES[m]) for m in MODES if m != "cts-cbc" or version != "5.0"]
    if version == "6.1":
        drivers.append(("ctr-aes-ce-sync", "ctr(aes)"))
    got = run(SELFTEST.replace("DRIVERS", repr(drivers)), version)
    assert got == {d: 0 for d, _ in drivers}


VECTORS = r'''
import json
import crypto_api as capi
from crypto_api.testmgr.vectors import load_json

bad = {}
def check(driver, key, iv, p, c, vid):
    t = capi.crypto_alloc_skcipher(driver)
    t.setkey(key)
    if t.encrypt(p, iv) != c or t.decrypt(c, iv) != p:
        bad.setdefault(driver, []).append(vid)

n = 0
for v in load_json("aes.json")["vectors"]:
    if len(v["plaintext"]) % 32 == 0:
        check("ecb-aes-ce", *(bytes.fromhex(v[f]) for f in ("key",)), b"",
              bytes.fromhex(v["plaintext"]), bytes.fromhex(v["ciphertext"]), v["id"]); n += 1
for v in load_json("aes-modes.json")["vectors"]:
    if v["kernel_alg"] in ("cbc(aes)", "ctr(aes)"):
        check(v["kernel_alg"][:3] + "-aes-ce", *(bytes.fromhex(v[f]) for f in ("key", "iv", "plaintext",
              "ciphertext")), v["id"]); n += 1
for v in load_json("cts-aes-cbc.json")["vectors"]:
    check("cts-cbc-aes-ce", *(bytes.fromhex(v[f]) for f in ("key", "iv", "plaintext", "ciphertext")), v["id"])
    n += 1
for v in load_json("aes-xts.json")["vectors"][::7]:
    check("xts-aes-ce", *(bytes.fromhex(v[f]) for f in ("key", "kernel_iv", "plaintext", "ciphertext")), v["id"])
    n += 1
print(json.dumps({"bad": bad, "n": n}))
'''


def test_official_vectors_through_the_registry():
    """FIPS-197/SP 800-38A ECB, CBC and CTR, RFC 3962's CTS and every 7th
    IEEE 1619 / NIST XTS vector (ciphertext-stealing ones included), each
    through the registered driver by name (6.18)."""
    require_emulation("arm")
    out = run(VECTORS, "6.18")
    assert out["bad"] == {} and out["n"] > 200


CASES = r'''
import json, sys
import crypto_api as capi
from sglayout import gather, outside, scatter

capi.load_all()
res = []
for c in json.loads(sys.stdin.read()):
    key, iv, data = (bytes.fromhex(c[k]) for k in ("key", "iv", "data"))
    row = []
    for name in (c["driver"], c["generic"]):
        t = capi.crypto_alloc_skcipher(name)
        t.setkey(key)
        src, sbufs = scatter(data, c["src"], b"\x5a")
        dst, dbufs = scatter(bytes(len(data)), c["dst"], b"\xa5")
        around = outside(dbufs, c["dst"])
        ivbuf = bytearray(iv)
        req = capi.skcipher_request_alloc(t)
        capi.skcipher_request_set_crypt(req, src, dst, len(data), ivbuf)
        try:
            rc = (capi.crypto_skcipher_encrypt if c["encrypt"] else capi.crypto_skcipher_decrypt)(req)
            if rc == -115:          # the SIMD wrapper queued it to cryptd: wait
                capi.crypto_wait_req(req)
                rc = 0
        except capi.CryptoError as e:
            rc = -e.errno
        row.append([rc, gather(dbufs, c["dst"]).hex(), outside(dbufs, c["dst"]) == around,
                    gather(sbufs, c["src"]) == data, ivbuf.hex()])
    res.append(row)
print(json.dumps(res))
'''


def _reference(mode, key, iv, data, encrypt):
    if mode == "ecb":
        return aes(key, modes.ECB(), data, encrypt)
    if mode == "cbc":
        return aes(key, modes.CBC(iv), data, encrypt)
    if mode == "ctr":
        return aes(key, modes.CTR(iv), data, True)
    if mode == "xts":
        return ref_xts(key, iv, data, encrypt)
    return cts_cbc(key, iv, data, encrypt)


@st.composite
def cases(draw, stealing):
    mode = draw(st.sampled_from(MODES if stealing else ("ecb", "cbc", "ctr", "xts")))
    klen = draw(st.sampled_from([32, 48, 64] if mode == "xts" else [16, 24, 32]))
    key = draw(exactly(klen))
    if mode == "xts" and klen and key[:klen // 2] == key[klen // 2:]:
        key = bytes([key[0] ^ 1]) + key[1:]
    if mode == "ctr" or (stealing and mode in ("xts", "cts-cbc")):
        lo = 0 if mode == "ctr" else 16
        n = draw(st.one_of(st.integers(lo, 200), st.integers(4000, 4300)))
    else:
        n = 16 * draw(st.one_of(st.integers(0 if mode != "xts" else 1, 12), st.integers(250, 270)))
    data, iv = draw(exactly(n)), draw(exactly(16))
    encrypt = draw(st.booleans())
    return {"mode": mode, "driver": f"{mode}-aes-ce", "generic": GENERIC[mode], "key": key.hex(),
            "iv": iv.hex(), "data": data.hex(), "encrypt": encrypt,
            "want": _reference(mode, key, iv, data, encrypt).hex(),
            "src": draw(layouts(n)), "dst": draw(layouts(n))}


def _check_batch(batch, version):
    for c, (ours, generic) in zip(batch, run(CASES, version, stdin=batch)):
        rc, result, around_ok, src_ok, iv_out = ours
        assert (rc, result, around_ok, src_ok) == (0, c["want"], True, True), c["mode"]
        assert generic[:4] == [0, c["want"], True, True]
        if c["mode"] in ("cbc", "ctr") or (c["mode"] == "cts-cbc" and not c["encrypt"]):
            assert iv_out == generic[4], c["mode"]          # the next IV, as the templates leave it
        elif c["mode"] == "cts-cbc":
            # the stealing routine reads the IV only: the last CBC block's ciphertext stays
            n = len(c["data"]) // 2
            blocks = 1 if n == 16 else -(-n // 16) - 2
            want = c["want"][32 * (blocks - 1):32 * blocks] if blocks > 0 else c["iv"]
            assert iv_out == want


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.lists(cases(stealing=True), min_size=6, max_size=10))
def test_random_inputs_match_the_templates_and_the_reference_618(batch):
    """6.18's direct drivers: the independent reference's bytes, which the
    generic templates give too in the same emulated process; nothing outside
    dst's entries written, src untouched, CBC/CTR's next IV as the
    templates'."""
    require_emulation("arm")
    _check_batch(batch, "6.18")


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.lists(cases(stealing=False), min_size=5, max_size=8))
def test_random_whole_block_inputs_through_the_v50_wrappers(batch):
    """v5.0's SIMD wrappers over the internal drivers (XTS whole blocks only)."""
    require_emulation("arm")
    _check_batch(batch, "5.0")


ERRORS = r'''
import json
import crypto_api as capi

out = {}
def err(fn):
    try:
        fn()
        return None
    except capi.CryptoError as e:
        return [e.errno, str(e)]

cbc, xts = capi.crypto_alloc_skcipher("cbc-aes-ce"), capi.crypto_alloc_skcipher("xts-aes-ce")
out["cbc_key"] = err(lambda: cbc.setkey(bytes(20)))
out["xts_key"] = err(lambda: xts.setkey(bytes(range(40))))
cbc.setkey(bytes(16))
xts.setkey(bytes(range(32)))
out["cbc_len"] = err(lambda: cbc.encrypt(bytes(20), bytes(16)))
out["xts_short"] = err(lambda: xts.encrypt(bytes(15), bytes(16)))
out["xts_tail"] = err(lambda: xts.encrypt(bytes(20), bytes(16)))
print(json.dumps(out))
'''


@pytest.mark.parametrize("version", ["5.0", "6.18"])
def test_refusals_name_the_driver(version):
    """EINVAL naming the driver: a bad key length (XTS: not 32/48/64), a CBC
    length that is not whole blocks, XTS under 16 bytes, and before 5.4 an
    XTS length that is not whole blocks (no ciphertext stealing)."""
    require_emulation("arm")
    out = run(ERRORS, version)
    internal = "__" if version == "5.0" else ""
    assert out["cbc_key"] == [22, f"[Errno 22] EINVAL: {internal}cbc-aes-ce: AES key is 20 bytes, "
                                   "expected 16, 24 or 32"]
    assert out["xts_key"][0] == 22 and "xts-aes-ce" in out["xts_key"][1] and "40" in out["xts_key"][1]
    assert out["cbc_len"][0] == 22 and f"{internal}cbc-aes-ce: cryptlen 20" in out["cbc_len"][1]
    assert out["xts_short"][0] == 22 and "xts-aes-ce: cryptlen 15" in out["xts_short"][1]
    if version == "5.0":
        assert out["xts_tail"][0] == 22 and "no ciphertext stealing before 5.4" in out["xts_tail"][1]
    else:
        assert out["xts_tail"] is None


SECTIONS = r'''
import json
import crypto_api as capi
from emulated_cases import skcipher_sections, trace

out = {}
for mode in ("cbc", "ctr", "xts"):
    t = capi.crypto_alloc_skcipher(mode + "-aes-ce")
    t.setkey(bytes(range(32 if mode == "xts" else 16)))
    try:
        out[mode] = skcipher_sections(t, [(0, 100), (0, 28)] if mode != "xts" else [(0, 100), (0, 37)])
    except capi.CryptoError as e:
        out[mode] = e.errno
t = capi.crypto_alloc_skcipher("ctr-aes-ce")
out["setkey"] = trace(lambda: t.setkey(bytes(16)))[1]
out["ctr_tail"] = skcipher_sections(t, [(0, 4200)])
print(json.dumps(out))
'''


def test_neon_sections_of_the_two_glue_generations():
    """v5.0: one kernel_neon_begin/end over the whole request.  6.18: one per
    walk step (whole blocks; the bounced block where an entry ends inside
    one), CTR's partial last block in one of its own, and XTS with a tail
    whose first step does not cover the request restarted over all but the
    last 16 + tail bytes, those in a section of their own.  setkey expands in
    one section in both."""
    require_emulation("arm")
    old, new = run(SECTIONS, "5.0"), run(SECTIONS, "6.18")
    assert old["cbc"] == [["neon", 128]] and old["ctr"] == [["neon", 128]]
    assert old["ctr_tail"] == [["neon", 4200]]
    assert old["xts"] == 22                 # 137 bytes: no stealing before 5.4
    assert old["setkey"] == [["neon", 0]] == new["setkey"]
    assert new["cbc"] == [["neon", 96], ["neon", 16], ["neon", 16]]
    assert new["ctr"] == new["cbc"]
    # 137 bytes: 112 first (96 + a bounced 16), then the last 16 + 9 together
    assert new["xts"] == [["neon", 96], ["neon", 16], ["neon", 25]]
    assert new["ctr_tail"] == [["neon", 4096], ["neon", 96], ["neon", 8]]


SYNC = r'''
import json
import crypto_api as capi
from emulated_cases import trace

t, g = capi.crypto_alloc_skcipher("ctr-aes-ce-sync"), capi.crypto_alloc_skcipher("ctr(aes-generic)")
key, iv, data = bytes(range(1, 17)), bytes(range(16)), bytes(range(256)) * 2 + b"xyz"
t.setkey(key)
g.setkey(key)
want = g.encrypt(data, iv)
with capi.simd_disabled():
    nosimd, nosimd_sections = trace(lambda: t.encrypt(data, iv))
simd, simd_sections = trace(lambda: t.encrypt(data, iv))
print(json.dumps({"async": bool(t.alg.cra_flags & capi.CRYPTO_ALG_ASYNC), "same": [nosimd == want, simd == want],
                  "sections": [nosimd_sections, simd_sections]}))
'''


def test_ctr_sync_falls_back_to_scalar_code_without_simd():
    """5.4-6.15's ctr-aes-ce-sync is synchronous; where SIMD is not usable it
    runs the AES library per block (no NEON section), else the NEON code
    (the whole blocks of the step, then the partial block in a section of
    its own); both give ctr(aes-generic)'s bytes."""
    require_emulation("arm")
    out = run(SYNC, "6.1")
    assert out == {"async": False, "same": [True, True], "sections": [[], [["neon", 512], ["neon", 3]]]}

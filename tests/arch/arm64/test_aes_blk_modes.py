"""The block modes of arch/arm64/crypto/aes-glue.c on the emulated arm64 machine
(arch/arm64/aes_blk_modes.py over the aes_ce_blk and aes_neon_blk cores).

Each probe boots a fresh arm64 interpreter, on ``max`` (AES-CE: the
``-ce`` drivers, 300) and on a CPU without the crypto extensions (the
``-neon`` drivers, 200), and allocates every mode by its driver name:

* official vectors through the registry: ECB (FIPS-197 / AESAVS), CBC and
  CTR (SP 800-38A, with the IV each leaves behind), XTS (IEEE 1619 and CAVP,
  stealing tails included), CTS-CBC (RFC 3962), ESSIV-CBC (testmgr's);
* random keys, lengths (XTS stealing tails, CTR partial blocks) and
  scatterlist layouts against the generic templates over aes-generic in the
  same process, both directions, output IV included for CBC/CTR/CTS/ESSIV;
* the refusals, each EINVAL naming the driver;
* the NEON sections of the walk (one per step, CTS/XTS tails in one more);
* the self-test manager at level full (5.10 wrapped, 6.18 direct);
* per kernel version (5.0, 5.10, 6.1, 6.18): what ``xts(aes)`` and the other
  names resolve to, with the internal algorithm and the async SIMD wrapper
  up to 5.13 and the direct registration after, v5.0's XTS without stealing
  and no ESSIV driver before 5.4 (expectations from the version table's
  sources).
"""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from arm64_emulation import require_emulation, run_json
from drawn_bytes import exactly
from sglayout import layouts

pytestmark = pytest.mark.emulation

NO_CE_CPU = "cortex-a53,neon=off,vfp=off"      # HWCAP: fp asimd crc32 cpuid (no aes, no pmull)
IMPL = {"max": "ce", NO_CE_CPU: "neon"}
#: mode -> (driver stem, generic template over aes-generic, key lengths)
MODES = {"ecb": ("ecb-aes", "ecb(aes-generic)", (16, 24, 32)),
         "cbc": ("cbc-aes", "cbc(aes-generic)", (16, 24, 32)),
         "ctr": ("ctr-aes", "ctr(aes-generic)", (16, 24, 32)),
         "xts": ("xts-aes", "xts(ecb(aes-generic))", (32, 48, 64)),
         "cts": ("cts-cbc-aes", "cts(cbc(aes-generic))", (16, 24, 32)),
         "essiv": ("essiv-cbc-aes-sha256", "essiv(cbc(aes-generic),sha256)", (16, 24, 32))}

VECTORS = r'''
import json, sys
import crypto_api as capi
from crypto_api.testmgr.vectors import load_json

impl = sys.argv[1]
capi.load_all()


def check(driver, file, iv_field, pick=lambda v: True, iv_out=False):
    t = capi.crypto_alloc_skcipher(driver)
    bad, n = [], 0
    for v in load_json(file)["vectors"]:
        if not pick(v):
            continue
        n += 1
        k, p, c = (bytes.fromhex(v[f]) for f in ("key", "plaintext", "ciphertext"))
        iv = bytes.fromhex(v[iv_field]) if iv_field else None
        t.setkey(k)
        ok = t.encrypt(p, iv) == c and t.decrypt(c, iv) == p
        if iv_out:      # through a request: the IV it leaves behind
            ivb, buf = bytearray(iv), bytearray(p)
            req = capi.skcipher_request_alloc(t)
            capi.skcipher_request_set_crypt(req, capi.sg_init_one(buf), capi.sg_init_one(buf), len(p), ivb)
            capi.crypto_skcipher_encrypt(req)
            ok = ok and bytes(buf) == c and bytes(ivb) == bytes.fromhex(v["iv_out"])
        if not ok:
            bad.append(v["id"])
    return [n, bad]


out = {"ecb": check(f"ecb-aes-{impl}", "aes.json", None),
       "cbc": check(f"cbc-aes-{impl}", "aes-modes.json", "iv", lambda v: v["kernel_alg"] == "cbc(aes)", True),
       "ctr": check(f"ctr-aes-{impl}", "aes-modes.json", "iv", lambda v: v["kernel_alg"] == "ctr(aes)", True),
       "xts": check(f"xts-aes-{impl}", "aes-xts.json", "kernel_iv"),
       "cts": check(f"cts-cbc-aes-{impl}", "cts-aes-cbc.json", "iv"),
       "essiv": check(f"essiv-cbc-aes-sha256-{impl}", "essiv-aes-cbc.json", "iv")}
print(json.dumps(out))
'''


@pytest.mark.parametrize("cpu", list(IMPL))
def test_official_vectors(cpu):
    """Every vector of each file encrypts and decrypts right through the
    registry (CBC/CTR: the IV left behind too); none is skipped."""
    require_emulation()
    got = run_json(VECTORS.replace("sys.argv[1]", repr(IMPL[cpu])), cpu, {"CRYPTO_API_SELFTESTS": "off"})
    counts = {m: n for m, (n, bad) in got.items()}
    assert {m: bad for m, (n, bad) in got.items()} == {m: [] for m in MODES}
    assert counts["xts"] == 1418 and counts["cts"] == 6 and counts["essiv"] == 5
    assert counts["ecb"] > 1000 and counts["cbc"] == counts["ctr"] == 1


CASES = r'''
import json, sys
import crypto_api as capi
from emulated_cases import scattered_request

capi.load_all()
tfms = {}


def tfm(name):
    if name not in tfms:
        tfms[name] = capi.crypto_alloc_skcipher(name)
    return tfms[name]


res = []
for c in json.loads(sys.stdin.read()):
    key, iv, data = (bytes.fromhex(c[k]) for k in ("key", "iv", "data"))
    t, g = tfm(c["driver"]), tfm(c["generic"])
    t.setkey(key)
    g.setkey(key)
    # the template through a linear request: its output and the IV it leaves
    _, want, _, _, giv = scattered_request(g, dict(c, src=[(0, len(data))], dst=[(0, len(data))]), data, iv)
    rc, out, around_ok, src_ok, ivbuf = scattered_request(t, c, data, iv)
    res.append([rc, out == want, around_ok, src_ok, bytes(ivbuf).hex(), bytes(giv).hex(), out.hex(),
                t.driver_name])
print(json.dumps(res))
'''


@st.composite
def cases(draw, cpu):
    mode = draw(st.sampled_from(sorted(MODES)))
    stem, generic, keys = MODES[mode]
    key = draw(st.sampled_from(keys).flatmap(exactly))
    if mode == "xts":
        key = key[:len(key) // 2] + bytes(b ^ 0x55 for b in key[len(key) // 2:])   # halves differ
    blocks = draw(st.integers(1, 40))
    if mode in ("ecb", "cbc", "essiv"):
        n = 16 * blocks
    else:       # XTS and CTS: 16 or more, any tail; CTR: any length, partial blocks
        n = draw(st.one_of(st.integers(16 if mode != "ctr" else 0, 100), st.integers(16, 700),
                           st.integers(4090, 4200)))
    data, iv = draw(exactly(n)), draw(exactly(16))
    return {"driver": f"{stem}-{IMPL[cpu]}", "generic": generic, "key": key.hex(),
            "iv": iv.hex() if mode != "ecb" else "", "data": data.hex(), "encrypt": draw(st.booleans()),
            "src": draw(layouts(n)), "dst": draw(layouts(n))}


def _iv_left(c, out, template_iv):
    """The IV the driver leaves: CBC, CTR and ESSIV the template's; XTS the
    caller's; CTS-CBC the chaining value of its CBC part (the ciphertext block
    before the last 17..32 bytes, or the caller's IV where there is none: the
    kernel's stealing routine takes the IV read-only), where the cts template
    leaves the block placed second to last."""
    if c["driver"].startswith("xts"):
        return c["iv"]
    if not c["driver"].startswith("cts"):
        return template_iv
    n = len(c["data"]) // 2
    head = 16 if n == 16 else (-(-n // 16) - 2) * 16
    ct = bytes.fromhex(out if c["encrypt"] else c["data"])
    return ct[head - 16:head].hex() if head else c["iv"]


def _check_batch(cpu, batch):
    require_emulation()
    got = run_json(CASES, cpu, {"CRYPTO_API_SELFTESTS": "off"}, batch)
    for c, (rc, same, around_ok, src_ok, iv, template_iv, out, driver) in zip(batch, got):
        assert (rc, same, around_ok, src_ok, driver) == (0, True, True, True, c["driver"]), c["driver"]
        assert iv == _iv_left(c, out, template_iv), c["driver"]


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.lists(cases("max"), min_size=10, max_size=16))
def test_random_requests_match_the_templates_with_the_crypto_extensions(batch):
    _check_batch("max", batch)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.lists(cases(NO_CE_CPU), min_size=10, max_size=16))
def test_random_requests_match_the_templates_on_plain_neon(batch):
    _check_batch(NO_CE_CPU, batch)


REFUSALS = r'''
import json, sys
import crypto_api as capi

impl = sys.argv[1]
capi.load_all()


def err(driver, key, n, iv=bytes(16)):
    t = capi.crypto_alloc_skcipher(driver)
    try:
        t.setkey(key)
        t.encrypt(bytes(n), bytearray(iv) if t.alg.ivsize else None)
        return 0
    except capi.CryptoError as e:
        return [e.errno, str(e)]


print(json.dumps({
    "ecb_key": err(f"ecb-aes-{impl}", bytes(20), 16),
    "essiv_key": err(f"essiv-cbc-aes-sha256-{impl}", bytes(20), 16),
    "xts_key": err(f"xts-aes-{impl}", bytes(40), 16),
    "xts_odd_key": err(f"xts-aes-{impl}", bytes(33), 16),
    "xts_short": err(f"xts-aes-{impl}", bytes(range(32)), 15),
    "xts_empty": err(f"xts-aes-{impl}", bytes(range(32)), 0),
    "cbc_partial": err(f"cbc-aes-{impl}", bytes(16), 20),
    "ecb_partial": err(f"ecb-aes-{impl}", bytes(16), 1),
    "cts_short": err(f"cts-cbc-aes-{impl}", bytes(16), 15),
    "ctr_partial": err(f"ctr-aes-{impl}", bytes(16), 5),
}))
'''


@pytest.mark.parametrize("cpu", list(IMPL))
def test_refusals_name_the_driver(cpu):
    require_emulation()
    impl = IMPL[cpu]
    got = run_json(REFUSALS.replace("sys.argv[1]", repr(impl)), cpu, {"CRYPTO_API_SELFTESTS": "off"})
    key_msg = "key is {} bytes, expected 16, 24 or 32"
    assert got == {
        "ecb_key": [22, f"[Errno 22] EINVAL: ecb-aes-{impl}: " + key_msg.format(20)],
        "essiv_key": [22, f"[Errno 22] EINVAL: essiv-cbc-aes-sha256-{impl}: " + key_msg.format(20)],
        "xts_key": [22, f"[Errno 22] EINVAL: xts-aes-{impl}: " + key_msg.format(20)],
        "xts_odd_key": [22, f"[Errno 22] EINVAL: xts-aes-{impl}: key is 33 bytes, an odd length cannot be "
                            "split into two keys"],
        "xts_short": [22, f"[Errno 22] EINVAL: xts-aes-{impl}: cryptlen 15: XTS needs at least 16 bytes"],
        "xts_empty": [22, f"[Errno 22] EINVAL: xts-aes-{impl}: cryptlen 0: XTS needs at least 16 bytes"],
        "cbc_partial": [22, f"[Errno 22] EINVAL: cbc-aes-{impl}: cryptlen 20: not a multiple of the 16-byte "
                            "block size"],
        "ecb_partial": [22, f"[Errno 22] EINVAL: ecb-aes-{impl}: cryptlen 1: not a multiple of the 16-byte "
                            "block size"],
        "cts_short": [22, f"[Errno 22] EINVAL: cts-cbc-aes-{impl}: cryptlen 15: CTS needs at least 16 bytes"],
        "ctr_partial": 0}


VERSION = r'''
import json
import crypto_api as capi

capi.load_all()
got = {}
for name in ("ecb(aes)", "cbc(aes)", "ctr(aes)", "xts(aes)", "cts(cbc(aes))", "essiv(cbc(aes),sha256)"):
    try:
        t = capi.crypto_alloc_skcipher(name)
    except capi.CryptoError as e:
        got[name] = -e.errno
        continue
    a = t.alg
    got[name] = [t.driver_name, a.cra_priority, bool(a.cra_flags & capi.CRYPTO_ALG_ASYNC), a.walksize]
internal = {}
for a in capi.registry.snapshot():
    if a.cra_driver_name.startswith("__") and ("aes-ce" in a.cra_driver_name or "aes-neon" in a.cra_driver_name
                                               or "sha256-ce" in a.cra_driver_name
                                               or "sha256-neon" in a.cra_driver_name):
        internal[a.cra_driver_name] = [a.cra_name, a.cra_priority, bool(a.cra_flags & capi.CRYPTO_ALG_INTERNAL)]
got["internal"] = internal
x = capi.crypto_alloc_skcipher("xts(aes)")
x.setkey(bytes(range(32)))
try:
    x.encrypt(bytes(17), bytearray(16))
    got["xts17"] = 0
except capi.CryptoError as e:
    got["xts17"] = [e.errno, str(e)]
print(json.dumps(got))
'''


def _expected(version, impl):
    """The kernel's answers, from the version table's sources: the build's
    drivers at 300 (CE) or 200 (NEON), ESSIV one above from 5.4; wrapped up
    to 5.13 (async; the wrapper's walksize is the default, its chunk size
    16), direct after (the descriptors' walksizes: CTS 32, XTS 32 where it
    steals).  load_all() loads aes_neon_blk on both CPUs, aes_ce_blk only
    where the CPU has AES."""
    prio = {"ce": 300, "neon": 200}
    wrapped = version in ("5.0", "5.10")
    steals = version != "5.0"
    got = {}
    for name, stem, walk in (("ecb(aes)", "ecb-aes", 16), ("cbc(aes)", "cbc-aes", 16), ("ctr(aes)", "ctr-aes", 16),
                             ("xts(aes)", "xts-aes", 32 if steals else 16), ("cts(cbc(aes))", "cts-cbc-aes", 32)):
        got[name] = [f"{stem}-{impl}", prio[impl], wrapped, 16 if wrapped else walk]
    if version == "5.0":
        got["essiv(cbc(aes),sha256)"] = -2      # no ESSIV driver, and no essiv template before 5.4
    else:
        got["essiv(cbc(aes),sha256)"] = [f"essiv-cbc-aes-sha256-{impl}", prio[impl] + 1, wrapped, 16]
    internal = {}
    for build in (("ce", "neon") if impl == "ce" else ("neon",)):
        if not wrapped:
            break
        for name, stem in (("ecb(aes)", "ecb-aes"), ("cbc(aes)", "cbc-aes"), ("ctr(aes)", "ctr-aes"),
                           ("xts(aes)", "xts-aes"), ("cts(cbc(aes))", "cts-cbc-aes")):
            internal[f"__{stem}-{build}"] = ["__" + name, prio[build], True]
        if version != "5.0":
            internal[f"__essiv-cbc-aes-sha256-{build}"] = ["__essiv(cbc(aes),sha256)", prio[build] + 1, True]
    got["internal"] = internal
    # the refusal names the algorithm that refused: the internal one under the wrapper
    got["xts17"] = 0 if steals else [22, f"[Errno 22] EINVAL: __xts-aes-{impl}: cryptlen 17: not a multiple of "
                                         "16 bytes (no ciphertext stealing before 5.4)"]
    return got


@pytest.mark.parametrize("cpu", list(IMPL))
def test_per_kernel_version(cpu):
    """What each name resolves to in 5.0, 5.10, 6.1 and 6.18 (one process per
    version): ``xts(aes)`` is ``xts-aes-ce`` (300) with the crypto
    extensions and ``xts-aes-neon`` (200) without, in every version; up to
    5.13 it is the async SIMD wrapper over ``__xts-aes-*``."""
    require_emulation()
    impl = IMPL[cpu]
    for version in ("5.0", "5.10", "6.1", "6.18"):
        got = run_json(VERSION, cpu, {"CRYPTO_API_KERNEL": version, "CRYPTO_API_SELFTESTS": "off"})
        assert got == _expected(version, impl), version


SECTIONS = r'''
import json
import crypto_api as capi
from emulated_cases import skcipher_sections

capi.load_all()
out = {}
for drv, layout in (("ecb-aes-ce", [(0, 10), (5, 54)]), ("ctr-aes-ce", [(0, 10), (5, 30)]),
                    ("xts-aes-ce", [(0, 5000), (3, 3)]), ("cts-cbc-aes-ce", [(0, 5000), (3, 3)]),
                    ("cts-cbc-aes-ce", [(0, 20)]), ("xts-aes-ce", [(0, 4096)])):
    t = capi.crypto_alloc_skcipher(drv)
    t.setkey(bytes(range(t.alg.max_keysize)))
    out[f"{drv} {layout}"] = [skcipher_sections(t, layout), skcipher_sections(t, layout, encrypt=False)]
with capi.simd_disabled():
    out["nosimd"] = skcipher_sections(t, [(0, 100)])
print(json.dumps(out))
'''


def test_neon_sections_per_walk_step():
    """6.18's direct drivers: one NEON section per walk step (whole blocks but
    on the last step, a short first entry bounced as one block); CTS and a
    stealing XTS walk the part before their last 17..32 bytes and run those
    in one more section; no SIMD fallback (the glue never asks)."""
    require_emulation()
    got = run_json(SECTIONS, "max", {"CRYPTO_API_SELFTESTS": "off"})
    two_pages = [["neon", 4096], ["neon", 880], ["neon", 27]]
    assert got == {
        "ecb-aes-ce [(0, 10), (5, 54)]": [[["neon", 16], ["neon", 48]]] * 2,
        "ctr-aes-ce [(0, 10), (5, 30)]": [[["neon", 16], ["neon", 24]]] * 2,
        "xts-aes-ce [(0, 5000), (3, 3)]": [two_pages] * 2,
        "cts-cbc-aes-ce [(0, 5000), (3, 3)]": [two_pages] * 2,
        "cts-cbc-aes-ce [(0, 20)]": [[["neon", 20]]] * 2,
        "xts-aes-ce [(0, 4096)]": [[["neon", 4096]]] * 2,
        "nosimd": [["neon", 80], ["neon", 20]]}     # xts-aes-ce: 100 bytes steal over the last 20


SELFTEST = r'''
import json, sys
import crypto_api as capi
from crypto_api import testmgr

impl = sys.argv[1]
capi.load_all()
testmgr.set_level("full")
print(json.dumps({drv: testmgr.alg_test(drv, name) for drv, name in (
    (f"ecb-aes-{impl}", "ecb(aes)"), (f"cbc-aes-{impl}", "cbc(aes)"), (f"ctr-aes-{impl}", "ctr(aes)"),
    (f"xts-aes-{impl}", "xts(aes)"), (f"cts-cbc-aes-{impl}", "cts(cbc(aes))"),
    (f"essiv-cbc-aes-sha256-{impl}", "essiv(cbc(aes),sha256)"))}))
'''


@pytest.mark.parametrize("cpu,version", [("max", "5.10"), (NO_CE_CPU, "6.18")])
def test_full_selftests(cpu, version):
    """The self-test manager at level full (vectors under random
    configurations, nosimd included, and fuzzing against the generic
    drivers) passes for every mode: 5.10's SIMD-wrapped CE drivers (cryptd
    where SIMD is unusable), 6.18's direct NEON ones."""
    require_emulation()
    impl = IMPL[cpu]
    got = run_json(SELFTEST.replace("sys.argv[1]", repr(impl)), cpu, {"CRYPTO_API_KERNEL": version})
    assert got == {f"{stem}-{impl}": 0 for stem, _, _ in MODES.values()}

"""Fuzzing with hypothesis: the template-name parser, name lookups and the skcipher walk.

* ``parse_template_name`` on arbitrary text returns or raises ValueError,
  nothing else; on generated well-formed names it returns exactly the
  parameters the name was built from;
* ``crypto_alloc_skcipher`` on arbitrary names allocates or refuses with a
  CryptoError/TypeError, and leaves no larval behind;
* the walk, driven by a test driver that consumes a random number of bytes
  per step over random scatterlists (random splits, offsets, alignment, in
  place or not), produces exactly a position-dependent reference transform;
  a driver that raises at a random step leaves dst and the IV untouched and
  its errno reaches the caller.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import crypto_api as capi
from crypto_api import CryptoError, registry
from crypto_api.errors import EBADMSG
from crypto_api.template import CryptoAttrAlg, CryptoAttrU32

FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ------------------------------------------------------------------ the parser

NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-_(),"
ODD_CHARS = NAME_CHARS + " \0\n\t.+=:@é/\\)(,,"


@FUZZ
@given(st.text(alphabet=ODD_CHARS, max_size=200))
def test_parser_never_crashes(text):
    try:
        tname, params = capi.parse_template_name(text)
    except ValueError:
        return
    assert tname and text.startswith(tname + "(")
    assert 1 <= len(params) <= 32


def strtol0(digits: str) -> int:
    """C's strtol(s, NULL, 0) on a string of decimal digits: "0..." is octal and
    stops at the first 8 or 9."""
    if digits[0] != "0":
        return int(digits)
    value = 0
    for c in digits[1:]:
        if c in "89":
            break
        value = value * 8 + "01234567".index(c)
    return value


def test_numeric_parameters_follow_strtol():
    got = capi.parse_template_name("t(12,012,0129,09,0,00)")[1]
    assert [a.num for a in got] == [12, 10, 10, 0, 0, 0]


token = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1, max_size=8)


def _names(leaf):
    return st.recursive(
        leaf,
        lambda inner: st.tuples(token.filter(lambda t: not t.isdigit()),
                                st.lists(inner, min_size=1, max_size=4)).map(
            lambda tp: f"{tp[0]}({','.join(tp[1])})"),
        max_leaves=12)


@FUZZ
@given(token.filter(lambda t: not t.isdigit()), st.lists(_names(token), min_size=1, max_size=32))
def test_parser_returns_the_parameters_a_name_was_built_from(tname, params):
    tn, got = capi.parse_template_name(f"{tname}({','.join(params)})")
    assert tn == tname
    assert len(got) == len(params)
    for p, a in zip(params, got):
        if p.isdigit():
            assert isinstance(a, CryptoAttrU32)
            assert a.num == strtol0(p)
        else:
            assert a == CryptoAttrAlg(p)


def test_parser_deep_nesting_is_iterative():
    name = "t(" * 20000 + "x" + ")" * 20000
    tname, params = capi.parse_template_name(name)
    assert tname == "t" and params == [CryptoAttrAlg(name[2:-1])]


LOOKUP_ALPHABET = NAME_CHARS + "\0 é"
KNOWN = st.sampled_from(["adiantum", "xchacha12", "xchacha20", "aes", "nhpoly1305", "chacha20",
                         "-generic", "-simd", "(", ")", ","])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(KNOWN, st.text(alphabet=LOOKUP_ALPHABET, max_size=6)), max_size=12).map("".join))
def test_alloc_random_names(name):
    try:
        tfm = capi.crypto_alloc_skcipher(name)
    except (CryptoError, TypeError) as e:
        assert str(e)
    else:
        tfm.free()
    assert not [a for a in registry.snapshot() if a.is_larval]


# -------------------------------------------------------------------- the walk

KS = bytes(random.Random(7).getrandbits(8) for _ in range(1 << 15))


def reference(data: bytes) -> bytes:
    n = len(data)
    return (int.from_bytes(data, "little") ^ int.from_bytes(KS[:n], "little")).to_bytes(n, "little")


class WalkDriver:
    """A skcipher whose output byte i is input byte i XOR KS[i]; each step it
    processes a random number of whole strides (all of a final short step)."""

    def __init__(self, blocksize, walksize, alignmask):
        self.alg = capi.SkcipherAlg(
            cra_name="walkfuzz", cra_driver_name=f"walkfuzz-b{blocksize}-w{walksize}-a{alignmask}",
            cra_priority=1, cra_blocksize=blocksize, cra_alignmask=alignmask,
            min_keysize=0, max_keysize=0, ivsize=16, chunksize=walksize,
            setkey=lambda t, k: None, encrypt=self.crypt, decrypt=self.crypt)
        self.rng = random.Random(0)
        self.fail_at = None
        self.steps = []

    def crypt(self, req):
        walk = capi.skcipher_walk_virt(req)
        pos, step = 0, 0
        while walk.nbytes:
            n, total, stride = walk.nbytes, walk.total, walk.stride
            assert 0 < n <= total and len(walk.src) == len(walk.dst) == n
            assert n >= min(stride, total)
            if n >= stride and (n < total or self.rng.random() < 0.5):
                k = stride * self.rng.randint(1, n // stride)
            else:
                k = n
            if step == self.fail_at:
                walk.dst[:n] = b"\xee" * n            # scribble, then fail
                req.iv[:] = b"\xee" * len(req.iv)
                raise CryptoError(EBADMSG, f"{self.alg.cra_driver_name}: planted failure at step {step}")
            chunk = bytes(walk.src[:k])
            walk.dst[:k] = (int.from_bytes(chunk, "little")
                            ^ int.from_bytes(KS[pos:pos + k], "little")).to_bytes(k, "little")
            req.iv[0] = (req.iv[0] + 1) & 0xFF        # drivers may update the IV
            pos += k
            step += 1
            capi.skcipher_walk_done(walk, n - k)
        self.steps.append(step)


WALK_FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CONFIGS = [(1, 1, 0), (1, 64, 0), (1, 64, 3), (16, 16, 0), (16, 64, 15)]


@pytest.fixture(scope="module", params=CONFIGS, ids=[f"bs{b}-ws{w}-am{a}" for b, w, a in CONFIGS])
def walk_tfm(request):
    drv = WalkDriver(*request.param)
    capi.crypto_register_skcipher(drv.alg)
    tfm = capi.crypto_alloc_skcipher(drv.alg.cra_driver_name)
    yield drv, tfm
    tfm.free()
    capi.crypto_unregister_skcipher(drv.alg)


@st.composite
def sg_layout(draw, total):
    """Split ``total`` bytes into entries, each at a random offset of its own
    buffer (some buffers shared), possibly with empty entries in between."""
    cuts = sorted(draw(st.lists(st.integers(0, total), max_size=6)))
    sizes = [b - a for a, b in zip([0] + cuts, cuts + [total])]
    entries = []
    for size in sizes:
        offset = draw(st.sampled_from([0, 1, 3, 15, 16, 4000, 4095, 4096 - size % 4096 if size else 0,
                                       draw(st.integers(0, 8191))]))
        entries.append((offset, size))
        if draw(st.booleans()) and len(entries) < 9:
            entries.append((draw(st.integers(0, 64)), 0))
    return entries


def build(layout, data):
    """Scatterlist (and its buffers) holding ``data`` in the given layout."""
    sgl, bufs, pos = [], [], 0
    for offset, size in layout:
        buf = bytearray(random.Random(offset * 31 + size).randbytes(offset + size + 7))
        buf[offset:offset + size] = data[pos:pos + size]
        sgl.append(capi.sg_init_one(buf, offset, size)[0])
        bufs.append(buf)
        pos += size
    return sgl, bufs


def gather(sgl, n):
    return capi.scatterlist.sg_copy_to_bytes(sgl, n)


@WALK_FUZZ
@given(data=st.data())
def test_walk_random_scatterlists_and_steps(walk_tfm, data):
    drv, tfm = walk_tfm
    bs = drv.alg.cra_blocksize
    total = data.draw(st.integers(1, 6000 // bs)) * bs
    msg = data.draw(st.binary(min_size=total, max_size=total))
    drv.rng.seed(data.draw(st.integers(0, 2**32)))
    drv.fail_at = None
    src, _ = build(data.draw(sg_layout(total)), msg)
    in_place = data.draw(st.booleans())
    if in_place:
        dst = src
        dst_before = None
    else:
        dst, dbufs = build(data.draw(sg_layout(total)), bytes(total))
        dst_before = [bytes(b) for b in dbufs]
    iv = bytearray(16)
    req = capi.skcipher_request_alloc(tfm)
    capi.skcipher_request_set_crypt(req, src, dst, total, iv)
    capi.crypto_skcipher_encrypt(req)
    assert gather(dst, total) == reference(msg)
    if not in_place:
        assert gather(src, total) == msg                      # out of place: src unchanged
    # bytes of the buffers outside the entries are never touched
    if dst_before is not None:
        for sg, before in zip(dst, dst_before):
            raw = bytes(sg.buf)
            assert raw[:sg.offset] == before[:sg.offset]
            assert raw[sg.offset + sg.length:] == before[sg.offset + sg.length:]


@WALK_FUZZ
@given(data=st.data())
def test_walk_driver_failure_leaves_request_untouched(walk_tfm, data):
    drv, tfm = walk_tfm
    bs = drv.alg.cra_blocksize
    total = data.draw(st.integers(1, 4000 // bs)) * bs
    msg = data.draw(st.binary(min_size=total, max_size=total))
    seed = data.draw(st.integers(0, 2**32))
    drv.rng.seed(seed)
    drv.fail_at = None
    layout_s = data.draw(sg_layout(total))
    layout_d = data.draw(sg_layout(total))
    in_place = data.draw(st.booleans())
    # a clean run counts the steps this seed takes, then fail at one of them
    src, _ = build(layout_s, msg)
    dst = src if in_place else build(layout_d, bytes(total))[0]
    req = capi.skcipher_request_alloc(tfm)
    capi.skcipher_request_set_crypt(req, src, dst, total, bytearray(16))
    capi.crypto_skcipher_encrypt(req)
    steps = drv.steps[-1]
    drv.rng.seed(seed)
    drv.fail_at = data.draw(st.integers(0, steps - 1))
    src, sbufs = build(layout_s, msg)
    dst, dbufs = (src, sbufs) if in_place else build(layout_d, bytes(total))
    before = [bytes(b) for b in sbufs + dbufs]
    iv = bytearray(range(16))
    req = capi.skcipher_request_alloc(tfm)
    capi.skcipher_request_set_crypt(req, src, dst, total, iv)
    with pytest.raises(CryptoError) as e:
        (capi.crypto_skcipher_encrypt if data.draw(st.booleans()) else capi.crypto_skcipher_decrypt)(req)
    assert e.value.errno == EBADMSG and "planted failure" in e.value.message
    assert [bytes(b) for b in sbufs + dbufs] == before
    assert iv == bytearray(range(16))
    drv.fail_at = None

"""Scatterlists and the skcipher walk (include/linux/scatterlist.h, crypto/skcipher.c).

A recording driver, written against the public driver interface, shows the
steps the walk hands out (v5.0's crypto/skcipher.c): cut at scatterlist-entry and page
boundaries of either side, never shorter than a stride unless the data ends
(else one stride is bounced), bounced steps consumed whole, the "unprocessed
bytes" argument of skcipher_walk_done, in-place and out-of-place views, and
the EINVAL cases.
"""

import errno as _errno

import attrs
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api.errors import EINVAL

PAGE = 4096


@attrs.define
class Step:
    nbytes: int
    total: int
    bounced: bool       # the step's views are not the caller's buffers
    aliased: bool       # src and dst views share one buffer


class Walker:
    """A driver that XORs with 0xff, step by step, recording each step.

    ``policy(walk) -> n`` decides how many bytes of a step it processes.
    """

    def __init__(self, blocksize, walksize):
        self.steps = []
        self.buffers = []           # the caller's buffers, to tell bounces apart
        self.policy = lambda walk: walk.nbytes
        self.done_results = []
        self.alg = capi.SkcipherAlg(
            cra_name="walktest", cra_driver_name=f"walktest-bs{blocksize}-ws{walksize}",
            cra_blocksize=blocksize, walksize=walksize, chunksize=walksize,
            setkey=lambda tfm, key: None,
            encrypt=lambda req: self.crypt(req), decrypt=lambda req: self.crypt(req))

    def crypt(self, req):
        walk = capi.skcipher_walk_virt(req)
        while walk.nbytes:
            src, dst = walk.src, walk.dst
            self.steps.append(Step(walk.nbytes, walk.total,
                                   not any(src.obj is b for b in self.buffers),
                                   src.obj is dst.obj))
            n = self.policy(walk)
            dst[:n] = bytes(b ^ 0xFF for b in src[:n])
            self.done_results.append(capi.skcipher_walk_done(walk, walk.nbytes - n))

    def sizes(self):
        return [(s.nbytes, s.total, s.bounced) for s in self.steps]


@pytest.fixture
def walker(register):
    made = {}

    def make(blocksize=1, walksize=1):
        """One walker per geometry for the test; hypothesis examples reuse it."""
        w = made.get((blocksize, walksize))
        if w is None:
            w = made[blocksize, walksize] = Walker(blocksize, walksize)
            register(w.alg)
            w.tfm = capi.crypto_alloc_skcipher(w.alg.cra_driver_name)
        w.buffers.clear()
        return w

    yield make
    for w in made.values():
        w.tfm.free()


def scatter(w, data, layout, fill=b"\x77"):
    """One page-aligned buffer per (offset, length) entry, ``fill`` around it."""
    sgl, bufs, pos = capi.sg_init_table(len(layout)), [], 0
    for sg, (off, n) in zip(sgl, layout):
        buf = bytearray(fill * (off + n + 16))
        buf[off:off + n] = data[pos:pos + n]
        capi.sg_set_buf(sg, buf, off, n)
        bufs.append(buf)
        w.buffers.append(buf)
        pos += n
    return sgl, bufs


def gather(bufs, layout):
    return b"".join(bytes(b[o:o + n]) for b, (o, n) in zip(bufs, layout))


def run(w, data, src_layout, dst_layout=None, cryptlen=None):
    """Encrypt through a request; returns (dst bytes, dst buffers, src buffers)."""
    w.steps.clear()
    src, sbufs = scatter(w, data, src_layout)
    if dst_layout is None:
        dst, dbufs, dst_layout = src, sbufs, src_layout
    else:
        dst, dbufs = scatter(w, bytes(len(data)), dst_layout, b"\x88")
    req = capi.skcipher_request_alloc(w.tfm)
    capi.skcipher_request_set_crypt(req, src, dst, len(data) if cryptlen is None else cryptlen, None)
    assert capi.crypto_skcipher_encrypt(req) == 0
    return gather(dbufs, dst_layout), dbufs, sbufs


def xor(data):
    return bytes(b ^ 0xFF for b in data)


DATA = bytes(range(256)) * 48


# ---------------------------------------------------------------- where steps are cut

def test_steps_are_cut_at_entry_boundaries(walker):
    w = walker()
    out, _, _ = run(w, DATA[:350], [(0, 100), (0, 50), (0, 200)], [(0, 350)])
    assert out == xor(DATA[:350])
    assert w.sizes() == [(100, 350, False), (50, 250, False), (200, 200, False)]


@pytest.mark.parametrize("src, dst, steps", [
    ((4000, 300), (0, 300), [96, 204]),
    ((0, 300), (4050, 300), [46, 254]),
    ((4000, 300), (4050, 300), [46, 50, 204]),
    ((0, 10000), None, [4096, 4096, 1808]),
    ((100, 8192), None, [3996, 4096, 100]),
    ((PAGE, 300), None, [300]),
])
def test_steps_are_cut_at_page_boundaries_of_either_side(walker, src, dst, steps):
    w = walker()
    n = src[1]
    out, _, _ = run(w, DATA[:n], [src], None if dst is None else [dst])
    assert out == xor(DATA[:n])
    assert [s.nbytes for s in w.steps] == steps
    assert not any(s.bounced for s in w.steps)


def test_fewer_contiguous_bytes_than_a_stride_are_bounced(walker):
    w = walker(blocksize=1, walksize=64)
    w.policy = lambda walk: walk.nbytes if walk.nbytes == walk.total else walk.nbytes // 64 * 64
    data = DATA[:164]
    out, bufs, _ = run(w, data, [(0, 30), (0, 100), (0, 34)])
    assert out == xor(data)
    # 30 + 34 gathered; then 66 in place (64 used, 2 offered again); then 2 + 34 gathered
    assert w.sizes() == [(64, 164, True), (66, 100, False), (36, 36, True)]
    assert [bytes(b[n:]) for b, n in zip(bufs, (30, 100, 34))] == [b"\x77" * 16] * 3


def test_a_block_split_across_entries_is_bounced(walker):
    w = walker(blocksize=16, walksize=16)
    w.policy = lambda walk: walk.nbytes // 16 * 16
    data = DATA[:48]
    out, _, _ = run(w, data, [(0, 20), (0, 28)], [(0, 48)])
    assert out == xor(data)
    assert w.sizes() == [(20, 48, False), (16, 32, True), (16, 16, False)]


def test_a_request_shorter_than_a_stride_is_one_step(walker):
    w = walker(blocksize=1, walksize=64)
    out, _, _ = run(w, DATA[:40], [(0, 10), (4090, 30)])
    assert out == xor(DATA[:40])
    assert w.sizes() == [(40, 40, True)]


# ---------------------------------------------------------------- skcipher_walk_done

def test_unprocessed_bytes_are_offered_again(walker):
    w = walker()
    w.policy = lambda walk: min(10, walk.nbytes)
    out, _, _ = run(w, DATA[:35], [(0, 35)])
    assert out == xor(DATA[:35])
    assert [(s.nbytes, s.total) for s in w.steps] == [(35, 35), (25, 25), (15, 15), (5, 5)]
    assert w.done_results == [0, 0, 0, 0]


def test_a_bounced_step_not_consumed_whole_is_einval(walker):
    w = walker(blocksize=1, walksize=64)
    w.policy = lambda walk: walk.nbytes - 1
    data = DATA[:100]
    src, sbufs = scatter(w, data, [(0, 30), (0, 70)])
    dst, dbufs = scatter(w, bytes(100), [(0, 100)], b"\x88")
    req = capi.skcipher_request_alloc(w.tfm)
    capi.skcipher_request_set_crypt(req, src, dst, 100, None)
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_skcipher_encrypt(req)
    assert e.value.errno == EINVAL
    assert w.alg.cra_driver_name in str(e.value) and "bounced" in str(e.value)
    assert dbufs[0] == bytes(100) + b"\x88" * 16          # the destination is untouched
    assert gather(sbufs, [(0, 30), (0, 70)]) == data


def test_more_unprocessed_bytes_than_the_step_is_einval(walker):
    w = walker()

    def crypt(req):
        walk = capi.skcipher_walk_virt(req)
        capi.skcipher_walk_done(walk, walk.nbytes + 1)

    w.crypt = crypt
    dst = bytearray(b"\x55" * 40)
    req = capi.skcipher_request_alloc(w.tfm)
    capi.skcipher_request_set_crypt(req, capi.sg_init_one(bytes(40)), capi.sg_init_one(dst), 40, None)
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_skcipher_encrypt(req)
    assert e.value.errno == EINVAL and "41" in str(e.value)
    assert dst == b"\x55" * 40


def test_a_negative_result_aborts_the_walk(walker):
    w = walker()
    seen = []

    def crypt(req):
        walk = capi.skcipher_walk_virt(req)
        seen.append(capi.skcipher_walk_done(walk, -_errno.EIO))
        seen.append((walk.nbytes, walk.total))

    w.crypt = crypt
    req = capi.skcipher_request_alloc(w.tfm)
    capi.skcipher_request_set_crypt(req, capi.sg_init_one(bytes(40)), capi.sg_init_one(bytearray(40)), 40, None)
    capi.crypto_skcipher_encrypt(req)
    assert seen == [-_errno.EIO, (0, 0)]


# ---------------------------------------------------------------- EINVAL and empty requests

def test_a_request_shorter_than_the_block_size_is_einval(walker):
    w = walker(blocksize=16, walksize=16)
    dst = bytearray(b"\x99" * 10)
    req = capi.skcipher_request_alloc(w.tfm)
    capi.skcipher_request_set_crypt(req, capi.sg_init_one(bytes(10)), capi.sg_init_one(dst), 10, None)
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_skcipher_encrypt(req)
    assert e.value.errno == EINVAL and w.alg.cra_driver_name in str(e.value)
    assert "10 bytes" in str(e.value) and "16" in str(e.value)
    assert dst == b"\x99" * 10 and w.steps == []


def test_a_trailing_partial_block_is_einval_and_leaves_dst_untouched(walker):
    w = walker(blocksize=16, walksize=16)
    w.policy = lambda walk: walk.nbytes // 16 * 16
    dst = bytearray(b"\x99" * 20)
    req = capi.skcipher_request_alloc(w.tfm)
    capi.skcipher_request_set_crypt(req, capi.sg_init_one(bytes(20)), capi.sg_init_one(dst), 20, None)
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_skcipher_encrypt(req)
    assert e.value.errno == EINVAL and "4 bytes" in str(e.value)
    assert dst == b"\x99" * 20


@pytest.mark.parametrize("blocksize", [1, 16])
def test_a_zero_length_request_walks_nothing(walker, blocksize):
    w = walker(blocksize=blocksize, walksize=blocksize)
    out, _, _ = run(w, b"", [])
    assert out == b"" and w.steps == []
    out, _, _ = run(w, DATA[:64], [(0, 64)], cryptlen=0)
    assert w.steps == []


def test_cryptlen_shorter_than_the_scatterlist_stops_there(walker):
    w = walker()
    src, sbufs = scatter(w, DATA[:100], [(0, 60), (0, 40)])
    req = capi.skcipher_request_alloc(w.tfm)
    capi.skcipher_request_set_crypt(req, src, src, 70, None)
    capi.crypto_skcipher_encrypt(req)
    assert gather(sbufs, [(0, 60), (0, 40)]) == xor(DATA[:70]) + DATA[70:100]
    assert [s.nbytes for s in w.steps] == [60, 10]


# ---------------------------------------------------------------- in place and out of place

def test_in_place_steps_alias_the_callers_buffer(walker):
    w = walker()
    run(w, DATA[:300], [(0, 100), (7, 200)])
    assert all(s.aliased and not s.bounced for s in w.steps)
    run(w, DATA[:300], [(0, 100), (7, 200)], [(0, 300)])
    assert all(not s.aliased and not s.bounced for s in w.steps)


def test_entries_may_share_one_buffer(walker):
    w = walker()
    buf = bytearray(DATA[:600])
    sgl = capi.sg_init_table(4)                   # the unused slot is skipped
    capi.sg_set_buf(sgl[0], buf, 0, 100)
    capi.sg_set_buf(sgl[2], buf, 300, 200)
    out = bytearray(300)
    req = capi.skcipher_request_alloc(w.tfm)
    capi.skcipher_request_set_crypt(req, sgl, capi.sg_init_one(out), 300, None)
    capi.crypto_skcipher_encrypt(req)
    assert out == xor(DATA[:100] + DATA[300:500])
    capi.skcipher_request_set_crypt(req, sgl, sgl, 300, None)
    capi.crypto_skcipher_encrypt(req)
    assert buf == xor(DATA[:100]) + DATA[100:300] + xor(DATA[300:500]) + DATA[500:600]


# ---------------------------------------------------------------- any layout

@st.composite
def cases(draw):
    blocksize, walksize = draw(st.sampled_from([(1, 1), (1, 64), (16, 16), (16, 64), (8, 32)]))
    nblocks = draw(st.integers(0, 600 // blocksize))
    n = nblocks * blocksize
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=6)))
    lengths = [b - a for a, b in zip([0] + cuts, cuts + [n])]
    offset = st.one_of(st.integers(0, 40), st.integers(PAGE - 70, PAGE + 2))
    src = [(draw(offset), m) for m in lengths]
    dst = None if draw(st.booleans()) else [(draw(offset), n)]
    greedy = draw(st.booleans())
    return blocksize, walksize, n, src, dst, greedy


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=cases())
def test_any_layout_gives_the_contiguous_result(walker, case):
    blocksize, walksize, n, src, dst, greedy = case
    w = walker(blocksize, walksize)
    stride = walksize
    w.policy = (lambda walk: walk.nbytes // blocksize * blocksize) if greedy else \
        (lambda walk: walk.nbytes if walk.nbytes == walk.total else walk.nbytes // stride * stride)
    data = DATA[:n]
    out, dbufs, _ = run(w, data, src, dst)
    assert out == xor(data)
    layout = src if dst is None else dst
    assert all(bytes(b[:o]) + bytes(b[o + m:]) == (b"\x77" if dst is None else b"\x88") * (o + 16)
               for b, (o, m) in zip(dbufs, layout))
    for s in w.steps:
        assert s.nbytes <= s.total
        assert s.nbytes >= min(stride, max(s.total, blocksize))
        assert not s.bounced or s.nbytes == min(stride, max(s.total, blocksize))


# ---------------------------------------------------------------- the scatterlist API

def test_scatterlist_entries():
    buf = bytearray(range(200))
    sgl = capi.sg_init_table(3)
    assert len(sgl) == 3 and capi.sg_nbytes(sgl) == 0
    capi.sg_set_buf(sgl[0], buf, offset=100, length=50)
    assert bytes(sgl[0].view()) == bytes(range(100, 150))
    capi.sg_set_buf(sgl[1], buf, offset=190)
    assert sgl[1].length == 10
    assert capi.sg_nbytes(sgl) == 60
    one = capi.sg_init_one(b"abc")
    assert len(one) == 1 and bytes(one[0].view()) == b"abc"


def test_scatterlist_refusals():
    sg = capi.sg_init_table(1)[0]
    for offset, length in ((0, 201), (150, 51), (-1, 10), (0, -1)):
        with pytest.raises(capi.CryptoError) as e:
            capi.sg_set_buf(sg, bytearray(200), offset, length)
        assert e.value.errno == EINVAL and "200" in str(e.value)
    for bad in ("text", 42, None):
        with pytest.raises(TypeError):
            capi.sg_set_buf(sg, bad)
    with pytest.raises(TypeError):
        capi.sg_set_buf(sg, bytearray(10), True)
    with pytest.raises(TypeError):
        capi.sg_set_buf(bytearray(10), bytearray(10))
    with pytest.raises((TypeError, capi.CryptoError)):
        capi.sg_init_table(-1)

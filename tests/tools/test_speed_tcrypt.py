"""``speed --tcrypt``: the kernel's tcrypt lines, scatterlist layout and flow.

The regular expressions are the kernel's printk formats (crypto/tcrypt.c,
v5.0) with each conversion replaced by what it prints.
"""

import re

import pytest

import crypto_api as capi
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.tools import speed_tcrypt as T

HEADER = re.compile(r"^testing speed of async (\S+) \((\S+)\) (encryption|decryption)$")
CYCLES = re.compile(r"^tcrypt: test (\d+) \((\d+) bit key, (\d+) byte blocks\): "
                    r"1 operation in (\d+) cycles \((\d+) bytes\)$")
SECS = re.compile(r"^tcrypt: test (\d+) \((\d+) bit key, (\d+) byte blocks\): "
                  r"(\d+) operations in (\d+) seconds \((\d+) bytes\)$")


def _run(mode=219, secs=0, mhz=1000.0):
    out, err = [], []
    rc = T.run_mode(mode, secs, mhz, out.append, err.append)
    return rc, out, err


def _passes(lines, line_re):
    """[(alg, driver, direction, [match, ...])] from the output lines."""
    passes = []
    for i, line in enumerate(lines):
        m = HEADER.match(line)
        if m:
            assert lines[i - 1] == "tcrypt:"          # pr_info("\ntesting ...") under pr_fmt
            passes.append((m.group(1), m.group(2), m.group(3), []))
        elif line != "tcrypt:":
            m = line_re.match(line)
            assert m, line
            passes[-1][3].append(m)
    return passes


def test_mode_219_cycles_lines():
    rc, out, err = _run()
    assert rc == 0
    passes = _passes(out, CYCLES)
    assert [(p[0], p[2]) for p in passes] == [
        ("adiantum(xchacha12,aes)", "encryption"), ("adiantum(xchacha12,aes)", "decryption"),
        ("adiantum(xchacha20,aes)", "encryption"), ("adiantum(xchacha20,aes)", "decryption")]
    for alg, driver, _direction, tests in passes:
        with capi.crypto_alloc_skcipher(alg) as tfm:
            assert driver == tfm.driver_name
        assert [int(m.group(1)) for m in tests] == [0, 1, 2, 3, 4, 5]
        assert {int(m.group(2)) for m in tests} == {256}
        assert [int(m.group(3)) for m in tests] == [16, 64, 256, 1024, 1472, 8192]
        assert all(m.group(3) == m.group(5) for m in tests)
        assert all(int(m.group(4)) > 0 for m in tests)
    assert err == ["modprobe: ERROR: could not insert 'tcrypt': Resource temporarily unavailable"]


def test_sec_mode_lines(monkeypatch):
    monkeypatch.setattr(T, "SECOND_NS", 200_000)          # 0.2 ms "seconds" keep the test short
    monkeypatch.setitem(T.MODES, 219, T.MODES[219][:1])
    rc, out, _err = _run(secs=1, mhz=None)
    passes = _passes(out, SECS)
    assert len(passes) == 1
    for m in passes[0][3]:
        count, secs, nbytes = int(m.group(4)), int(m.group(5)), int(m.group(6))
        assert secs == 1 and count >= 1
        assert nbytes == count * int(m.group(3))


def test_scatterlist_layout_follows_tcrypt():
    tvmem = [bytearray(T.PAGE_SIZE) for _ in range(T.TVMEMSIZE)]
    sgl = T.tcrypt_sgl(tvmem, 32, 8192)
    assert [(sg.offset, sg.length) for sg in sgl] == [(32, 4064), (0, 4096), (0, 32)]
    assert all(sg.buf.obj is page for sg, page in zip(sgl, tvmem))
    sgl = T.tcrypt_sgl(tvmem, 32, 1472)
    assert [(sg.offset, sg.length) for sg in sgl] == [(32, 1472)]
    sgl = T.tcrypt_sgl(tvmem, 32, 4064)                    # keysize + blen == PAGE_SIZE: one entry
    assert [(sg.offset, sg.length) for sg in sgl] == [(32, 4064)]


@pytest.mark.parametrize("bs", [16, 1472, 8192])
def test_in_place_request_equals_one_buffer_encryption(bs):
    tvmem = [bytearray(T.PAGE_SIZE) for _ in range(T.TVMEMSIZE)]
    with capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)") as tfm:
        tvmem[0][:] = b"\xff" * T.PAGE_SIZE
        tfm.setkey(bytes(tvmem[0][:32]))
        sgl = T.tcrypt_sgl(tvmem, 32, bs)
        req = capi.skcipher_request_alloc(tfm)
        capi.skcipher_request_set_crypt(req, sgl, sgl, bs, bytearray(b"\xff" * 32))
        capi.crypto_skcipher_encrypt(req)
        got = b"".join(bytes(sg.view()) for sg in sgl)
        assert got == tfm.encrypt(b"\xff" * bs, b"\xff" * 32)
        assert tvmem[0][:32] == b"\xff" * 32              # the key bytes before the data stay


def test_missing_algorithm_prints_the_kernel_error(monkeypatch):
    monkeypatch.setitem(T.MODES, 219, [("adiantum(nosuch,aes)", T.ENCRYPT, (32,))])
    _rc, out, err = _run()
    assert out == ["tcrypt: failed to load transform for adiantum(nosuch,aes): -2"]
    assert len(err) == 1


def test_unknown_mode_and_missing_clock_are_refused():
    with pytest.raises(CryptoError) as e:
        _run(mode=5)
    assert e.value.errno == EINVAL and "219" in e.value.message
    with pytest.raises(CryptoError) as e:
        _run(mhz=None)
    assert e.value.errno == EINVAL and "--cpu-mhz" in e.value.message

"""Streaming ``enc``/``dec`` (tools/stream_crypt.py, tools/stream_continuation.py,
tools/block_stream.py, algs/adiantum.py ``adiantum_crypt_stream``).

Chunked output must be byte-identical to the library's one-message result,
for every driver of each stream cipher name, across chunk boundaries and the
32-bit counter wrap (hypothesis, with chunks of a few blocks), and to the
official Adiantum vectors; likewise for every driver of ``ecb``, ``cbc``,
``ctr`` (across its 128-bit counter's wrap) and ``xts`` (with ciphertext
stealing at the end), whose AES results are also
the independent references' (tests/modes_ref.py), and the XTS IV of a later chunk is the one whose tweak is
the first tweak doubled once per block before it.  A real subprocess shows memory stays constant:
its own peak RSS (wait4) for a 64 MiB input stays within 16 MiB of its peak
for a 1 KiB input (the old code read the whole input: + 128 MiB).
"""

import io
import os
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import crypto_api as capi
from cryptography.hazmat.primitives.ciphers import modes
from crypto_api.algs.adiantum import adiantum_crypt_stream
from crypto_api.registry import snapshot
from crypto_api.tools.block_stream import block_chain_for, crypt_chained
from crypto_api.tools.stream_continuation import STREAM_CONTINUATIONS
from crypto_api.tools.stream_crypt import InputSource, crypt_with_continuation, spool
from crypto_api.testmgr.vectors import load_json
from modes_ref import _mul_x, aes, xts

ENV = dict(os.environ, CRYPTO_API_SELFTESTS="off")
ADIANTUMS = ("adiantum(xchacha12,aes)", "adiantum(xchacha20,aes)")
FUNCTION_FIXTURE = [HealthCheck.function_scoped_fixture]


def drivers_of(name):
    """Every registered skcipher driver of ``name`` (loading its modules first)."""
    capi.crypto_alloc_skcipher(name).free()
    found = sorted({a.cra_driver_name for a in snapshot()
                    if a.cra_name == name and a.kind == "skcipher" and not a.is_larval})
    assert found
    return found


STREAM_DRIVERS = [d for name in sorted(STREAM_CONTINUATIONS) for d in drivers_of(name)]


def memory_input(data: bytes) -> InputSource:
    return InputSource("test input", stream=io.BytesIO(data))


def streamed(tfm, encrypt, iv, data, chunk):
    out = bytearray()
    rule = STREAM_CONTINUATIONS[tfm.alg.cra_name]
    crypt_with_continuation(tfm, encrypt, iv, rule, memory_input(data), out.extend, chunk)
    return bytes(out)


def test_every_stream_name_has_more_than_its_generic_driver_checked():
    assert any(not d.endswith("-generic") for d in STREAM_DRIVERS), STREAM_DRIVERS


@pytest.mark.parametrize("driver", STREAM_DRIVERS)
@settings(max_examples=25, deadline=None, suppress_health_check=FUNCTION_FIXTURE)
@given(data=st.binary(min_size=0, max_size=900), key=st.binary(min_size=32, max_size=32),
       iv=st.binary(min_size=32, max_size=32), blocks=st.integers(1, 4),
       near_wrap=st.booleans(), encrypt=st.booleans())
def test_chunks_continue_one_message(driver, data, key, iv, blocks, near_wrap, encrypt):
    with capi.crypto_alloc_skcipher(driver) as tfm:
        tfm.setkey(key)
        iv = iv[:tfm.ivsize]
        rule = STREAM_CONTINUATIONS[tfm.alg.cra_name]
        if near_wrap:                   # the block counter wraps inside the message
            iv = iv[:rule.offset] + (2 ** 32 - 3).to_bytes(4, "little") + iv[rule.offset + 4:]
        whole = tfm.encrypt(data, iv) if encrypt else tfm.decrypt(data, iv)
        assert streamed(tfm, encrypt, iv, data, 64 * blocks) == whole


BLOCK_MODES = ("ecb(aes)", "cbc(aes)", "ctr(aes)", "xts(aes)", "ecb(aria)", "cbc(aria)", "ctr(aria)", "xts(aria)")
#: the template instances over the generic ciphers, beside whatever drivers the CPU gives
GENERIC_BLOCK_DRIVERS = ("ecb(aes-generic)", "cbc(aes-generic)", "ctr(aes-generic)", "xts(ecb(aes-generic))",
                         "xts(ecb(aria-generic))", "ctr(aria-generic)")
BLOCK_DRIVERS = sorted({*GENERIC_BLOCK_DRIVERS, *(d for name in BLOCK_MODES for d in drivers_of(name))})


def block_streamed(tfm, encrypt, iv, data, chunk, key):
    chain = block_chain_for(tfm, key)
    try:
        pieces = crypt_chained(tfm, encrypt, iv, chain, memory_input(data), chunk)
        return b"".join(bytes(p) for p in pieces)
    finally:
        chain.close()


def aes_reference(name, key, iv, data, encrypt):
    """cryptography's ECB/CBC/CTR; for XTS modes_ref's P1619 (cryptography refuses equal key halves)."""
    if name.startswith("xts("):
        return xts(key, iv, data, encrypt)
    mode = {"ecb": lambda: modes.ECB(), "cbc": lambda: modes.CBC(iv), "ctr": lambda: modes.CTR(iv)}
    return aes(key, mode[name[:3]](), data, encrypt)


def test_every_block_mode_has_more_than_its_template_instances_checked():
    assert any("(" not in d for d in BLOCK_DRIVERS), BLOCK_DRIVERS


@pytest.mark.parametrize("driver", BLOCK_DRIVERS)
@settings(max_examples=25, deadline=None, suppress_health_check=FUNCTION_FIXTURE)
@given(data=st.binary(min_size=0, max_size=700), key=st.binary(min_size=32, max_size=32),
       iv=st.binary(min_size=16, max_size=16), near_wrap=st.booleans(), blocks=st.integers(1, 4),
       encrypt=st.booleans())
def test_block_mode_chunks_continue_one_message(driver, data, key, iv, near_wrap, blocks, encrypt):
    """Chunks of 1-4 blocks, the last request carrying the partial tail (XTS,
    CTR); CTR's 128-bit counter also wraps inside the message."""
    with capi.crypto_alloc_skcipher(driver) as tfm:
        tfm.setkey(key)
        name = tfm.alg.cra_name
        if name.startswith(("ecb(", "cbc(")):
            data = data[:len(data) - len(data) % 16]
        if not name.startswith("ctr(") and len(data) < 16:
            data = bytes(16) + data
        if near_wrap and name.startswith("ctr("):
            iv = (2 ** 128 - 3).to_bytes(16, "big")
        iv = iv if tfm.ivsize else None
        whole = tfm.encrypt(data, iv) if encrypt else tfm.decrypt(data, iv)
        assert block_streamed(tfm, encrypt, iv, data, 16 * blocks, key) == whole
        if tfm.alg.cra_name.endswith("(aes)"):
            assert whole == aes_reference(tfm.alg.cra_name, key, iv, data, encrypt)


@settings(max_examples=40, deadline=None)
@given(key=st.sampled_from([32, 64]).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
       iv=st.binary(min_size=16, max_size=16),
       blocks=st.integers(0, 300) | st.sampled_from([65536, 65537, (1 << 20) - 1]))
def test_xts_iv_at_gives_the_tweak_doubled_per_block(key, iv, blocks):
    """E_K2(iv_at(iv, j)) = E_K2(iv)·x^j: the tweak of block j of the message."""
    with capi.crypto_alloc_skcipher("xts(aes)") as tfm:
        tfm.setkey(key)
        chain = block_chain_for(tfm, key)
    try:
        k2 = key[len(key) // 2:]
        want = aes(k2, modes.ECB(), iv)
        for _ in range(blocks):
            want = _mul_x(want)
        assert aes(k2, modes.ECB(), chain.iv_at(iv, blocks)) == want
    finally:
        chain.close()


def test_block_streams_refuse_what_one_request_refuses():
    """A message under one block, or a partial block for cbc: EINVAL naming
    the algorithm, before any piece comes out."""
    for name, n in (("xts(aes)", 15), ("xts(aes)", 0), ("cbc(aes)", 33), ("ecb(aes)", 17)):
        with capi.crypto_alloc_skcipher(name) as tfm:
            tfm.setkey(bytes(range(32)))
            chain = block_chain_for(tfm, bytes(range(32)))
            pieces = crypt_chained(tfm, True, bytes(16) if tfm.ivsize else None, chain,
                                   memory_input(bytes(n)), 32)
            with pytest.raises(capi.CryptoError, match=rf"{re.escape(name)}: the input is {n} bytes"):
                next(pieces)
            chain.close()


def test_modes_without_a_continuation_get_none():
    with capi.crypto_alloc_skcipher("essiv(cbc(aes),sha256)") as tfm:
        tfm.setkey(bytes(32))
        assert block_chain_for(tfm, bytes(32)) is None
    with capi.crypto_alloc_skcipher("rfc3686(ctr(aes))") as tfm:
        tfm.setkey(bytes(20))
        assert block_chain_for(tfm, bytes(20)) is None
    with capi.crypto_alloc_skcipher("xchacha12") as tfm:
        assert block_chain_for(tfm, bytes(32)) is None


def test_counter_wraps_mod_2_32_without_carry():
    """xchacha: counter bytes 24..27, the next 4 untouched; chacha20: bytes 0..3."""
    x = STREAM_CONTINUATIONS["xchacha12"]
    iv = bytes(24) + (2 ** 32 - 1).to_bytes(4, "little") + b"\x07\x00\x00\x00"
    assert x.iv_at(iv, 2) == bytes(24) + (1).to_bytes(4, "little") + b"\x07\x00\x00\x00"
    c = STREAM_CONTINUATIONS["chacha20"]
    assert c.iv_at(b"\xff\xff\xff\xff" + bytes(12), 1) == bytes(16)


@pytest.mark.parametrize("name", ADIANTUMS)
@settings(max_examples=30, deadline=None, suppress_health_check=FUNCTION_FIXTURE)
@given(data=st.binary(min_size=16, max_size=700), key=st.binary(min_size=32, max_size=32),
       iv=st.binary(min_size=32, max_size=32), blocks=st.integers(1, 3), encrypt=st.booleans())
def test_adiantum_stream_equals_one_message(name, data, key, iv, blocks, encrypt):
    with capi.crypto_alloc_skcipher(name) as tfm:
        tfm.setkey(key)
        out = bytearray()
        adiantum_crypt_stream(tfm, encrypt, iv, lambda off, n: data[off:off + n], len(data),
                              out.extend, 64 * blocks)
        assert bytes(out) == (tfm.encrypt(data, iv) if encrypt else tfm.decrypt(data, iv))


@pytest.mark.parametrize("file, name", [("adiantum-xchacha12-aes.json", ADIANTUMS[0]),
                                        ("adiantum-xchacha20-aes.json", ADIANTUMS[1])])
def test_adiantum_stream_official_vectors(file, name):
    vecs = load_json(file)["vectors"]
    with capi.crypto_alloc_skcipher(name) as tfm:
        for v in vecs:
            tfm.setkey(bytes.fromhex(v["key"]))
            pt, ct, tweak = (bytes.fromhex(v[k]) for k in ("plaintext", "ciphertext", "tweak"))
            for encrypt, src, want in ((True, pt, ct), (False, ct, pt)):
                out = bytearray()
                adiantum_crypt_stream(tfm, encrypt, tweak, lambda off, n: src[off:off + n], len(src),
                                      out.extend, 128)
                assert bytes(out) == want, v["id"]


def test_adiantum_stream_refuses_short_message_and_bad_chunk():
    with capi.crypto_alloc_skcipher(ADIANTUMS[0]) as tfm:
        tfm.setkey(bytes(32))
        with pytest.raises(capi.CryptoError, match="15 bytes, at least 16"):
            adiantum_crypt_stream(tfm, True, bytes(32), lambda o, n: bytes(n), 15, print)
        with pytest.raises(ValueError):
            adiantum_crypt_stream(tfm, True, bytes(32), lambda o, n: bytes(n), 100, print, 100)


def test_spool_is_anonymous(tmp_path):
    """The spooled copy of a pipe has no name: the directory stays empty."""
    with spool(memory_input(b"x" * 5000), str(tmp_path), chunk_size=64) as s:
        assert s.size == 5000 and s.read_at(4990, 10) == b"x" * 10
        assert list(tmp_path.iterdir()) == []
    assert list(tmp_path.iterdir()) == []


def test_adiantum_from_a_pipe_is_spooled_without_leaving_files(tmp_path):
    key, iv, data = os.urandom(32), os.urandom(32), os.urandom(300_000)
    (tmp_path / "key").write_bytes(key)
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    p = subprocess.run([sys.executable, "-m", "crypto_api", "enc", "-c", ADIANTUMS[0], "--keyfile",
                        str(tmp_path / "key"), "--iv", iv.hex()], input=data, capture_output=True,
                       env=dict(ENV, TMPDIR=str(tmpdir)), timeout=300)
    assert p.returncode == 0, p.stderr
    with capi.crypto_alloc_skcipher(ADIANTUMS[0]) as tfm:
        tfm.setkey(key)
        assert p.stdout == tfm.encrypt(data, iv)
    assert list(tmpdir.iterdir()) == []


def peak_rss_kib(args):
    """The peak RSS of one child process alone (wait4's rusage, not RUSAGE_CHILDREN's maximum)."""
    p = subprocess.Popen([sys.executable, "-m", "crypto_api", *args], env=ENV,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    err = p.stderr.read()
    p.stderr.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    assert p.returncode == 0, err
    return usage.ru_maxrss


@pytest.mark.parametrize("cipher", ["xchacha12", ADIANTUMS[0]])
def test_memory_stays_constant(tmp_path, cipher):
    (tmp_path / "key").write_bytes(os.urandom(32))
    (tmp_path / "small").write_bytes(os.urandom(1024))
    with open(tmp_path / "big", "wb") as f:
        for _ in range(64):
            f.write(os.urandom(1 << 20))
    common = ["-c", cipher, "--keyfile", str(tmp_path / "key"), "--iv", "00" * 32]
    base = peak_rss_kib(["enc", *common, "-i", str(tmp_path / "small"), "-o", str(tmp_path / "small.enc")])
    for verb, src, dst in (("enc", "big", "big.enc"), ("dec", "big.enc", "big.dec")):
        peak = peak_rss_kib([verb, *common, "-i", str(tmp_path / src), "-o", str(tmp_path / dst)])
        assert peak < base + 16 * 1024, (verb, base, peak)
    assert (tmp_path / "big.dec").read_bytes() == (tmp_path / "big").read_bytes()

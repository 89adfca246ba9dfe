"""The batch path of VolumeCipher (crypto_api.dmcrypt.sector_batch, algs/sector_batch.c).

A run of sectors in one C call must give exactly the bytes of one request
per sector (``VolumeCipher.encrypt_sector``, i.e. ``tfm.encrypt`` with the
dm-crypt IV), run the entry point of the driver the registry picked, leave
the per-sector path to the FPU model's other answers, and spread over
``jobs`` threads in disjoint shares.  The AES specs are also checked against
``cryptography`` in tests/tools/test_disk_modes.py.
"""

import errno
import hashlib
import hmac
import os
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import crypto_api as capi
from crypto_api import CryptoError
from crypto_api.arch.x86 import _cpufeatures
from crypto_api.cinterface import Kind, entries
from crypto_api.errors import EINVAL
from crypto_api.dmcrypt.sector import VolumeCipher
from crypto_api.dmcrypt.sector_batch import SectorBatchPlan
from kernel_names import driver, ours, specs

pytestmark = pytest.mark.skipif(not _cpufeatures.lib.cpu_has(b"aes"), reason="CPU lacks AES-NI")

HAS_VAES = all(_cpufeatures.lib.cpu_has(f) for f in (b"vaes", b"avx2", b"xsave_ymm"))
HAS_AVX10 = HAS_VAES and all(_cpufeatures.lib.cpu_has(f) for f in (b"avx512f", b"avx512vl", b"avx512bw"))
VAES_XTS = [d[5:-8] for d in specs(["capi:%s-plain64" % d for d in (
    (["xts-aes-vaes-avx2"] if HAS_VAES else [])
    + (["xts-aes-vaes-avx10_256", "xts-aes-vaes-avx10_512"] if HAS_AVX10 else []))])]
XTS = "capi:xts-aes-aesni-plain64"
# Drivers named (the registry's pick for a plain name depends on what other tests left loaded):
# every kind of batch path, with each IV mode; by this project's names, as the
# followed kernel has them (kernel_names.specs: those it lacks are left out).
SPECS = [("capi:adiantum(xchacha12-generic,aes-aesni)-plain64", 32),
         ("capi:adiantum(xchacha20-generic,aes-generic)-plain", 32),
         (XTS, 64), ("capi:xts-aes-aesni-plain", 32), ("capi:essiv(cbc-aes-aesni,sha256)-essiv", 32)]
SPECS += [("capi:%s-plain64" % d, 64) for d in VAES_XTS]
# Adiantum over the SIMD XChaCha: eight sectors at a time share an HChaCha
# pass and (512-byte sectors) make their streams together (the lanes code).
SPECS += [("capi:adiantum(xchacha12-simd,aes-aesni)-plain64", 32),
          ("capi:adiantum(xchacha20-simd,aes-aesni,nhpoly1305-sse2)-plain", 32)]
SPECS = specs(SPECS)


def one_by_one(vc, first, data, encrypt=True):
    ss = vc.sector_size
    fn = vc.encrypt_sector if encrypt else vc.decrypt_sector
    return b"".join(fn(first + k, data[k * ss:(k + 1) * ss]) for k in range(len(data) // ss))


@pytest.mark.parametrize("spec, keylen", SPECS)
@pytest.mark.parametrize("ss", [512, 1024, 4096])
@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_a_batch_is_one_request_per_sector(spec, keylen, ss, jobs):
    key = os.urandom(keylen)
    data = os.urandom(ss * 19)
    first = 1000 + jobs
    with VolumeCipher(spec, key, sector_size=ss, iv_offset=24 * (ss // 512), jobs=jobs) as vc:
        assert vc.batch_driver is not None, vc.driver_name
        buf = bytearray(data)
        vc.encrypt_sectors(first, buf)
        assert bytes(buf) == one_by_one(vc, first, data)
        vc.decrypt_sectors(first, buf)
        assert bytes(buf) == data


@pytest.mark.parametrize("spec, keylen", SPECS + specs([("capi:xts(aes-generic)-plain64", 64)]))
@pytest.mark.parametrize("path", ["batch", "nosimd", "traced"])
@pytest.mark.parametrize("jobs", [1, 3])
def test_out_of_place_gives_the_in_place_bytes_and_leaves_the_source(spec, keylen, path, jobs):
    """crypt_sectors(src=...): the batch plan, the per-sector loop (SIMD off)
    and one request per sector (traced) all write one_by_one's bytes into
    the buffer and never touch the source (read-only bytes here)."""
    data = os.urandom(1024 * 7)
    with VolumeCipher(spec, os.urandom(keylen), sector_size=1024, iv_offset=6, jobs=jobs) as vc:
        want = one_by_one(vc, 11, data)
        out = bytearray(len(data))
        if path == "batch":
            vc.encrypt_sectors(0, bytearray(1024))      # a plan where the driver has one
            vc.crypt_sectors(11, out, True, src=data)
        elif path == "nosimd":
            with capi.simd_disabled():
                vc.crypt_sectors(11, out, True, src=data)
        else:
            with capi.fpu_trace():
                vc.crypt_sectors(11, out, True, src=data)
        assert bytes(out) == want
        back = bytearray(len(data))
        vc.crypt_sectors(11, back, False, src=memoryview(out))
        assert bytes(back) == data


def test_out_of_place_refuses_a_partly_overlapping_or_short_source():
    with VolumeCipher(XTS, os.urandom(64)) as vc:
        buf = bytearray(512 * 4)
        mv = memoryview(buf)
        with pytest.raises(CryptoError) as e:
            vc.crypt_sectors(0, mv[:1024], True, src=mv[512:1536])
        assert e.value.errno == EINVAL and "overlap" in e.value.message
        with pytest.raises(CryptoError) as e:
            vc.crypt_sectors(0, mv[:1024], True, src=bytes(512))
        assert e.value.errno == EINVAL
        vc.crypt_sectors(0, mv[:1024], True, src=mv[:1024])            # the same bytes: in place
        assert bytes(buf[:1024]) == one_by_one(vc, 0, bytes(1024))


@pytest.mark.parametrize("spec", ["aes-xts-plain64", "capi:xts(aes)-plain64", XTS]
                         + ["capi:%s-plain64" % d for d in VAES_XTS])
def test_the_xts_batch_runs_the_driver_the_registry_picked(spec):
    with VolumeCipher(spec, os.urandom(64)) as vc:
        picked = vc.driver_name
        if picked in ["xts-aes-aesni"] + VAES_XTS:
            with capi.crypto_alloc_skcipher(picked) as t:
                wrapped = bool(t.alg.cra_flags & capi.CRYPTO_ALG_ASYNC)
            # up to 6.15 the SIMD wrapper's internal algorithm, under the followed kernel's
            # name of it; 6.16+ registers the driver directly (sync): the driver itself
            assert vc.batch_driver == (driver("__" + ours(picked)) if wrapped else picked)
        else:                                          # e.g. xts(ecb(aes-generic)): no batch path
            assert vc.batch_driver is None
    if spec.startswith("capi:xts-aes-"):
        assert picked == spec[5:-8]


@pytest.mark.parametrize("spec", specs(["xchacha12,aes-adiantum-plain64",
                                        "capi:adiantum(xchacha12-generic,aes-generic)-plain64",
                                        "capi:adiantum(xchacha20-simd,aes-aesni,nhpoly1305-sse2)-plain64"]))
def test_the_adiantum_batch_runs_the_instance_the_registry_picked(spec):
    data = os.urandom(512 * 9)
    with VolumeCipher(spec, bytes(range(32))) as vc:
        assert vc.batch_driver == vc.driver_name
        buf = bytearray(data)
        vc.encrypt_sectors(7, buf)
        assert bytes(buf) == one_by_one(vc, 7, data)


def test_a_driver_without_a_batch_path_gets_one_request_per_sector():
    data = os.urandom(512 * 6)
    key = os.urandom(64)
    with VolumeCipher("capi:xts(aes-generic)-plain64", key) as generic, \
            VolumeCipher(XTS, key) as fast:
        assert generic.batch_driver is None and fast.batch_driver is not None
        a, b = bytearray(data), bytearray(data)
        generic.encrypt_sectors(3, a)
        fast.encrypt_sectors(3, b)
        assert a == b == one_by_one(fast, 3, data)


def test_without_the_module_there_is_no_batch_and_a_request_loads_it_again():
    data = os.urandom(4096 * 3)
    with VolumeCipher(XTS, os.urandom(64), sector_size=4096) as vc:
        vc.batch_driver                                  # loads the module
        capi.rmmod("sector_batch")
        try:
            from crypto_api.dmcrypt import sector_batch
            assert sector_batch._planners == []
            buf = bytearray(data)
            vc._per_sector(0, memoryview(buf), memoryview(buf), 3, True)
            ref = bytes(buf)
        finally:
            assert vc.batch_driver is not None          # requested again
        buf = bytearray(data)
        vc.encrypt_sectors(0, buf)
        assert bytes(buf) == ref


@pytest.mark.parametrize("spec, keylen", SPECS)
def test_where_simd_is_unusable_or_traced_the_per_sector_path_runs(spec, keylen):
    data = os.urandom(512 * 5)
    with VolumeCipher(spec, os.urandom(keylen)) as vc:
        want = bytearray(data)
        vc.encrypt_sectors(11, want)
        with capi.simd_disabled():
            assert vc.batch_driver is None
            buf = bytearray(data)
            vc.encrypt_sectors(11, buf)
        assert buf == want
        with capi.fpu_trace() as trace:
            assert vc.batch_driver is None
            buf = bytearray(data)
            vc.encrypt_sectors(11, buf)
        assert buf == want
        with capi.fpu_trace() as requests:
            one_by_one(vc, 11, data)
        assert trace.nbytes == requests.nbytes          # the requests' own sections, as they make them
        if "aesni" in vc.driver_name:
            assert len(trace.sections) >= 5


def _recording(monkeypatch):
    """Record (thread, first byte, count) of every batch call."""
    calls = []
    real = SectorBatchPlan.crypt

    def crypt(self, buf, offset, sector_size, count, *rest):
        calls.append((threading.current_thread().name, offset // sector_size, count))
        return real(self, buf, offset, sector_size, count, *rest)
    monkeypatch.setattr(SectorBatchPlan, "crypt", crypt)
    return calls


@pytest.mark.parametrize("jobs, count, shares", [(1, 10, [10]), (2, 10, [5, 5]), (3, 10, [4, 3, 3]),
                                                 (4, 3, [1, 1, 1])])
def test_jobs_split_a_run_into_contiguous_shares_on_as_many_threads(monkeypatch, jobs, count, shares):
    calls = _recording(monkeypatch)
    data = os.urandom(512 * count)
    with VolumeCipher(XTS, os.urandom(64), jobs=jobs) as vc:
        buf = bytearray(data)
        vc.encrypt_sectors(50, buf)
        assert bytes(buf) == one_by_one(vc, 50, data)
    assert sorted((at, n) for _, at, n in calls) == [(sum(shares[:i]), n) for i, n in enumerate(shares)]
    threads = {name for name, _, _ in calls}
    assert len(threads) == len(shares)
    assert threading.current_thread().name in threads                # the caller does a share too


def test_the_buffer_is_exported_for_the_whole_call(monkeypatch):
    real = SectorBatchPlan.crypt
    seen = []

    def crypt(self, *args):
        try:
            buf.extend(b"x")                 # resizing an exported bytearray is refused
        except BufferError:
            seen.append("exported")
        return real(self, *args)
    monkeypatch.setattr(SectorBatchPlan, "crypt", crypt)
    buf = bytearray(os.urandom(512 * 4))
    with VolumeCipher(SPECS[0][0], bytes(32), jobs=2) as vc:
        vc.encrypt_sectors(0, buf)
    assert seen == ["exported", "exported"] and len(buf) == 2048


def test_iv_numbers_wrap_for_plain_and_stop_at_2_64_for_plain64():
    data = os.urandom(512 * 6)
    with VolumeCipher("capi:xts-aes-aesni-plain", os.urandom(64), jobs=2) as vc:
        buf = bytearray(data)
        vc.encrypt_sectors((1 << 32) - 3, buf)                          # crosses 2^32: wraps
        assert bytes(buf) == one_by_one(vc, (1 << 32) - 3, data)
        assert bytes(buf[3 * 512:4 * 512]) == vc.encrypt_sector(0, data[3 * 512:4 * 512])
    top = (1 << 64) - 6
    with VolumeCipher(XTS, os.urandom(64), jobs=2) as vc:
        buf = bytearray(data)
        vc.encrypt_sectors(top, buf)                                     # the last is 2^64 - 1
        assert bytes(buf) == one_by_one(vc, top, data)
        buf = bytearray(data)
        with pytest.raises(CryptoError) as e:
            vc.encrypt_sectors(top + 1, buf)
        assert e.value.errno == EINVAL and bytes(buf) == data


@pytest.mark.parametrize("jobs", [0, 65, True, 1.5])
def test_bad_jobs_are_einval(jobs):
    with pytest.raises(CryptoError) as e:
        VolumeCipher("aes-xts-plain64", bytes(64), jobs=jobs)
    assert e.value.errno == EINVAL and "jobs" in e.value.message


def test_bad_buffers_are_einval_and_untouched():
    with VolumeCipher("aes-xts-plain64", os.urandom(64), jobs=2) as vc:
        data = os.urandom(512 * 2)
        with pytest.raises(CryptoError) as e:
            vc.encrypt_sectors(0, data)
        assert e.value.errno == EINVAL and "read-only" in e.value.message
        buf = bytearray(data + b"x")
        with pytest.raises(CryptoError) as e:
            vc.encrypt_sectors(0, buf)
        assert e.value.errno == EINVAL and "not whole 512-byte sectors" in e.value.message
        assert buf == data + b"x"


@settings(max_examples=30, deadline=None)
@given(ss=st.sampled_from([512, 1024, 4096]), count=st.integers(0, 5), digest_len=st.integers(1, 32),
       nosimd=st.booleans(), data=st.data())
def test_sector_digests_are_hashlibs_sha256_sector_by_sector(ss, count, digest_len, nosimd, data):
    from crypto_api.dmcrypt import sha256_sector_digests      # the sector_batch module's C loop
    buf = data.draw(st.binary(min_size=ss * count, max_size=ss * count))
    want = b"".join(hashlib.sha256(buf[k * ss:(k + 1) * ss]).digest()[:digest_len] for k in range(count))
    if nosimd:
        with capi.simd_disabled():
            assert sha256_sector_digests(buf, ss, digest_len) == want
    else:
        assert sha256_sector_digests(buf, ss, digest_len) == want
    with pytest.raises(CryptoError):
        sha256_sector_digests(buf + b"x", ss, digest_len)


@settings(max_examples=40, deadline=None)
@given(ss=st.sampled_from([16, 64, 512, 4096]), count=st.integers(0, 9), nosimd=st.booleans(), data=st.data())
def test_keyed_sector_digests_are_nhpoly1305_sector_by_sector(ss, count, nosimd, data):
    """The C loop over the driver's own entries gives each sector's tfm.digest."""
    from crypto_api.dmcrypt import keyed_sector_digests
    buf = data.draw(st.binary(min_size=ss * count, max_size=ss * count))
    key = data.draw(st.binary(min_size=1088, max_size=1088))
    with capi.crypto_alloc_shash("nhpoly1305") as tfm:
        tfm.setkey(key)
        want = b"".join(tfm.digest(buf[k * ss:(k + 1) * ss]) for k in range(count))
        if nosimd:
            with capi.simd_disabled(), capi.fpu_trace() as tr:
                assert keyed_sector_digests(tfm, buf, ss) == want
            assert tr.sections == []
        else:
            assert keyed_sector_digests(tfm, bytearray(buf), ss) == want
        with pytest.raises(CryptoError) as e:
            keyed_sector_digests(tfm, buf + b"x", ss)
        assert e.value.errno == errno.EINVAL and tfm.driver_name in str(e.value)


def test_keyed_sector_digests_take_one_section_for_the_batch_where_simd_code_exists():
    from crypto_api.dmcrypt import keyed_sector_digests
    with capi.crypto_alloc_shash("nhpoly1305") as tfm:
        tfm.setkey(bytes(range(256)) * 4 + bytes(64))
        simd = entries(tfm, Kind.NHPOLY1305, True) is not None
        with capi.fpu_trace() as tr:
            keyed_sector_digests(tfm, bytes(4096 * 3), 4096)
    assert [s.nbytes for s in tr.sections] == ([4096 * 3] if simd else [])


def test_a_keyed_hash_without_c_entries_is_digested_sector_by_sector():
    """hmac(sha256) offers no NHPOLY1305 entries: the per-sector loop, checked with hmac."""
    from crypto_api.dmcrypt import keyed_sector_digests
    key, buf = bytes(range(32)), os.urandom(512 * 5)
    with capi.crypto_alloc_shash("hmac(sha256)") as tfm:
        tfm.setkey(key)
        got = keyed_sector_digests(tfm, buf, 512)
    assert got == b"".join(hmac.new(key, buf[k * 512:(k + 1) * 512], "sha256").digest() for k in range(5))


def test_sector_digests_come_from_the_module_and_load_it_again(monkeypatch):
    from crypto_api.algs import sector_batch as module
    from crypto_api.dmcrypt import sector_digests
    data = os.urandom(512 * 3)
    want = b"".join(hashlib.sha256(data[k * 512:(k + 1) * 512]).digest()[:16] for k in range(3))
    assert sector_digests.sha256_sector_digests(data, 512, 16) == want
    assert "sector_batch" in capi.loaded_modules()
    assert sector_digests._registered[sector_digests.SHA256] is module.sha256_sector_digests
    assert sector_digests._registered[sector_digests.KEYED] is module.nhpoly1305_sector_digests
    capi.rmmod("sector_batch")
    assert sector_digests._registered == {}                  # module_exit took them back
    assert sector_digests.sha256_sector_digests(data, 512, 16) == want   # requested again
    assert "sector_batch" in capi.loaded_modules()
    capi.rmmod("sector_batch")
    monkeypatch.setattr(sector_digests, "crypto_request_module", lambda alias: 0)   # nothing answers
    with pytest.raises(CryptoError) as e:
        sector_digests.sha256_sector_digests(data, 512, 16)
    assert e.value.errno == errno.ENOENT and "crypto-sector-batch" in str(e.value)
    monkeypatch.undo()
    assert sector_digests.sha256_sector_digests(data, 512, 16) == want


def test_a_forked_child_starts_its_own_workers():
    data = os.urandom(512 * 8)
    with VolumeCipher(XTS, os.urandom(64), jobs=2) as vc:
        want = bytearray(data)
        vc.encrypt_sectors(9, want)                  # the parent's workers exist now
        assert vc._workers.alive
        pid = os.fork()
        if pid == 0:                                 # the child has none of those threads
            rc = 1
            try:
                if not vc._workers.alive:
                    buf = bytearray(data)
                    vc.encrypt_sectors(9, buf)
                    rc = 0 if buf == want and vc._workers.alive else 2
            finally:
                os._exit(rc)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert vc._workers.alive

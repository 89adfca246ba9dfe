"""VolumeCipher's runs of sectors through the batch entry point (crypto_api/batch.py):
a driver with a C direct path but no sector batch plan (HCTR2 here) transforms a
run with ``tfm.encrypt_batch`` on ``jobs`` native workers; the bytes must be those
of one request per sector, and a traced run still makes each request's sections."""

import os

import pytest
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api.dmcrypt import VolumeCipher

SPEC = "aes-hctr2-plain64"


def _volume(key, jobs, sector_size=4096):
    try:
        return VolumeCipher(SPEC, key, sector_size=sector_size, jobs=jobs)
    except capi.CryptoError as e:        # a build without the HCTR2 drivers
        pytest.skip(f"{SPEC}: {e}")


@settings(max_examples=15, deadline=None)
@given(key=st.binary(min_size=32, max_size=32), first=st.integers(0, 1 << 40), count=st.integers(0, 9),
       jobs=st.integers(1, 4), sector_size=st.sampled_from([512, 4096]), data=st.data())
def test_runs_match_one_request_per_sector(key, first, count, jobs, sector_size, data):
    plain = data.draw(st.binary(min_size=count * sector_size, max_size=count * sector_size))
    with _volume(key, jobs, sector_size) as vc:
        assert vc.batch_driver is None and vc.tfm._direct_enc is not None
        want = b"".join(vc.encrypt_sector(first + k, plain[k * sector_size:(k + 1) * sector_size])
                        for k in range(count))
        buf = bytearray(plain)
        vc.encrypt_sectors(first, buf)
        assert bytes(buf) == want
        vc.decrypt_sectors(first, buf)
        assert bytes(buf) == plain


def test_a_traced_run_makes_each_requests_sections():
    with _volume(os.urandom(32), 2) as vc:
        data = os.urandom(3 * 4096)
        with capi.fpu_trace() as trace:
            buf = bytearray(data)
            vc.encrypt_sectors(5, buf)
        with capi.fpu_trace() as one:
            for k in range(3):
                vc.encrypt_sector(5 + k, data[k * 4096:(k + 1) * 4096])
        assert trace.nbytes == one.nbytes
        assert all(s.worker is None for s in trace.sections)

"""``enc``/``dec``'s stream chunks as pieces through ``tfm.encrypt_batch``
(tools/stream_crypt.py, PIECE): with the piece size made small, chunks of
many pieces (the last one short, the block counter wrapping inside) give the
bytes of the whole input as one message, for every driver of every stream
cipher with a continuation (the SIMD ones through the C batch, the generic
ones through its loop)."""

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import crypto_api as capi
from crypto_api.registry import snapshot
from crypto_api.tools import stream_crypt
from crypto_api.tools.stream_continuation import STREAM_CONTINUATIONS


def _drivers():
    out = []
    for name in sorted(STREAM_CONTINUATIONS):
        capi.crypto_alloc_skcipher(name).free()
        out += sorted({a.cra_driver_name for a in snapshot()
                       if a.cra_name == name and a.kind == "skcipher" and not a.is_larval})
    return out


@pytest.mark.parametrize("driver", _drivers())
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(min_size=0, max_size=2000), key=st.binary(min_size=32, max_size=32),
       iv=st.binary(min_size=32, max_size=32), piece_blocks=st.integers(1, 3), chunk_pieces=st.integers(2, 5),
       near_wrap=st.booleans(), encrypt=st.booleans())
def test_pieces_continue_one_message(monkeypatch, driver, data, key, iv, piece_blocks, chunk_pieces,
                                     near_wrap, encrypt):
    with capi.crypto_alloc_skcipher(driver) as tfm:
        tfm.setkey(key)
        iv = iv[:tfm.ivsize]
        rule = STREAM_CONTINUATIONS[tfm.alg.cra_name]
        if near_wrap:
            iv = iv[:rule.offset] + (2 ** 32 - 5).to_bytes(4, "little") + iv[rule.offset + 4:]
        whole = tfm.encrypt(data, iv) if encrypt else tfm.decrypt(data, iv)
        piece = 64 * piece_blocks
        monkeypatch.setattr(stream_crypt, "PIECE", piece)
        out = bytearray()
        src = stream_crypt.InputSource("test input", stream=io.BytesIO(data))
        stream_crypt.crypt_with_continuation(tfm, encrypt, iv, rule, src, out.extend, piece * chunk_pieces)
        assert bytes(out) == whole

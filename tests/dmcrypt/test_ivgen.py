"""IV conventions (crypto_api.dmcrypt.ivgen) against the dm-crypt and fscrypt documentation.

Expectations are written out byte by byte from the documented layouts
(dm-crypt.rst: plain = 32-bit little-endian sector, plain64 = 64-bit
little-endian sector, zero padded; iv_large_sectors example; fscrypt.rst:
DIRECT_KEY IV = 64-bit little-endian data unit index, then the 16-byte file
nonce), not computed with the code under test.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crypto_api import CryptoError
from crypto_api.dmcrypt import ivgen

ZERO24 = "00" * 24


def test_plain64_adiantum_layout():
    # sector 0x0102030405060708: least significant byte first, then 24 zero bytes
    iv = ivgen.plain64_iv(0x0102030405060708)
    assert iv.hex() == "0807060504030201" + ZERO24
    assert ivgen.plain64_iv(0).hex() == "00" * 32
    assert ivgen.plain64_iv(1).hex() == "01" + "00" * 31
    assert ivgen.plain64_iv(0xFFFFFFFFFFFFFFFF).hex() == "ff" * 8 + ZERO24


def test_plain64_other_ivsizes():
    assert ivgen.plain64_iv(0x1234, 16).hex() == "3412" + "00" * 14
    assert ivgen.plain64_iv(0x1234, 8).hex() == "3412" + "00" * 6


def test_plain_truncates_to_32_bits():
    assert ivgen.plain_iv(0x0A0B0C0D).hex() == "0d0c0b0a" + "00" * 28
    # 2^32 + 5: plain keeps the low 32 bits only (why plain64 exists)
    assert ivgen.plain_iv((1 << 32) + 5).hex() == "05000000" + "00" * 28
    assert ivgen.plain_iv(0xDEADBEEF, 16).hex() == "efbeadde" + "00" * 12


@settings(max_examples=200, deadline=None)
@given(st.integers(0, (1 << 64) - 1), st.sampled_from([8, 16, 32]))
def test_plain64_and_plain_properties(sector, ivsize):
    iv64 = ivgen.plain64_iv(sector, ivsize)
    assert len(iv64) == ivsize
    assert sum(b << (8 * i) for i, b in enumerate(iv64[:8])) == sector
    assert not any(iv64[8:])
    iv32 = ivgen.plain_iv(sector, ivsize)
    assert sum(b << (8 * i) for i, b in enumerate(iv32[:4])) == sector % (1 << 32)
    assert not any(iv32[4:])
    assert ivgen.dm_crypt_iv("plain64", sector, ivsize) == iv64
    assert ivgen.dm_crypt_iv("plain", sector, ivsize) == iv32


def test_iv_large_sectors_documented_example():
    # dm-crypt.rst: with 4096-byte sectors the second sector's plain64 IV is 8
    # without iv_large_sectors and 1 with it.
    assert ivgen.dm_crypt_iv_sector(1, 4096) == 8
    assert ivgen.dm_crypt_iv_sector(1, 4096, iv_large_sectors=True) == 1
    assert ivgen.dm_crypt_iv_sector(5, 512) == 5
    assert ivgen.dm_crypt_iv_sector(5, 512, iv_large_sectors=True) == 5


def test_iv_offset_units():
    # iv_offset is in 512-byte units and added before the IV is built
    assert ivgen.dm_crypt_iv_sector(3, 4096, iv_offset=16) == 3 * 8 + 16
    assert ivgen.dm_crypt_iv_sector(3, 4096, iv_offset=16, iv_large_sectors=True) == 3 + 2
    assert ivgen.dm_crypt_iv_sector(3, 512, iv_offset=7) == 10
    with pytest.raises(CryptoError) as e:
        ivgen.dm_crypt_iv_sector(0, 4096, iv_offset=4, iv_large_sectors=True)
    assert e.value.errno == 22 and "iv_offset" in e.value.message


def test_fscrypt_direct_key_layout():
    nonce = bytes(range(16))
    iv = ivgen.fscrypt_direct_key_iv(0x0123456789ABCDEF, nonce)
    assert iv.hex() == "efcdab8967452301" + "000102030405060708090a0b0c0d0e0f" + "00" * 8
    assert len(iv) == 32
    assert ivgen.fscrypt_direct_key_iv(2, bytearray(b"\xff" * 16)).hex() == \
        "0200000000000000" + "ff" * 16 + "00" * 8


@pytest.mark.parametrize("call, exc", [
    (lambda: ivgen.plain64_iv(-1), CryptoError),
    (lambda: ivgen.plain64_iv(1 << 64), CryptoError),
    (lambda: ivgen.plain64_iv("1"), TypeError),
    (lambda: ivgen.plain64_iv(True), TypeError),
    (lambda: ivgen.plain64_iv(1.0), TypeError),
    (lambda: ivgen.plain64_iv(1, 4), CryptoError),
    (lambda: ivgen.plain_iv(1, 2), CryptoError),
    (lambda: ivgen.plain_iv(-5), CryptoError),
    (lambda: ivgen.plain64_iv(1, 1 << 40), CryptoError),
    (lambda: ivgen.dm_crypt_iv("benbi", 1), CryptoError),
    (lambda: ivgen.dm_crypt_iv_sector(0, 1000), CryptoError),
    (lambda: ivgen.dm_crypt_iv_sector(-1, 512), CryptoError),
    (lambda: ivgen.fscrypt_direct_key_iv(0, bytes(15)), CryptoError),
    (lambda: ivgen.fscrypt_direct_key_iv(0, bytes(17)), CryptoError),
    (lambda: ivgen.fscrypt_direct_key_iv(0, "0" * 16), TypeError),
    (lambda: ivgen.fscrypt_direct_key_iv(0, None), TypeError),
    (lambda: ivgen.fscrypt_direct_key_iv(-1, bytes(16)), CryptoError),
])
def test_refusals(call, exc):
    with pytest.raises(exc) as e:
        call()
    if exc is CryptoError:
        assert e.value.errno == 22


def test_tweak_drives_adiantum_like_the_kernel_would():
    """The helper's tweak is what tfm.encrypt takes: sector 7 via plain64 equals
    the tweak written out by hand (le64(7) || 24 zero bytes)."""
    import crypto_api as capi
    with capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)") as tfm:
        tfm.setkey(bytes(range(32)))
        sector = bytes(range(256)) * 16
        hand = bytes([7, 0, 0, 0, 0, 0, 0, 0]) + bytes(24)
        assert tfm.encrypt(sector, ivgen.plain64_iv(7)) == tfm.encrypt(sector, hand)
        assert tfm.encrypt(sector, ivgen.plain64_iv(7)) != tfm.encrypt(sector, ivgen.plain64_iv(8))


def test_essiv_hands_the_template_the_plain64_number():
    """dm-crypt 5.4+: the essiv IV generator writes le64(sector); the essiv
    template encrypts it."""
    assert ivgen.dm_crypt_iv("essiv", 0x0102, 16) == bytes([2, 1]) + bytes(14)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, (1 << 64) - 1), st.sampled_from(["plain", "plain64", "essiv"]), st.sampled_from([8, 16, 32]))
def test_packer_equals_checked_helpers(sector, mode, ivsize):
    assert ivgen.dm_crypt_iv_packer(mode, ivsize)(sector) == ivgen.dm_crypt_iv(mode, sector, ivsize)


def test_packer_refuses_unknown_modes_and_small_ivs():
    with pytest.raises(CryptoError):
        ivgen.dm_crypt_iv_packer("lmk")
    with pytest.raises(CryptoError):
        ivgen.dm_crypt_iv_packer("plain64", 4)

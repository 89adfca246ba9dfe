"""Frontend safety nets: partly overlapping buffers are refused, a driver that
dies inside an FPU section does not leave the thread's FPU state broken, and
the AES-NI cipher follows the FPU model."""

import logging

import pytest

import crypto_api as capi
from crypto_api.errors import EINVAL


def test_partly_overlapping_out_is_refused_and_in_place_allowed():
    capi.request_module("crypto-xchacha12")
    with capi.crypto_alloc_skcipher("xchacha12-generic") as tfm:
        tfm.setkey(bytes(32))
        buf = bytearray(700)
        mv = memoryview(buf)
        with pytest.raises(capi.CryptoError) as e:
            tfm.encrypt(mv[0:640], bytes(32), out=mv[1:641])
        assert e.value.errno == EINVAL and "overlaps" in str(e.value)
        assert bytes(buf) == bytes(700)
        expect = tfm.encrypt(bytes(640), bytes(32))
        tfm.encrypt(mv[0:640], bytes(32), out=mv[0:640])      # in place
        assert bytes(buf[:640]) == expect
        other = bytearray(640)
        tfm.encrypt(mv[0:640], bytes(32), out=other)           # disjoint
        assert tfm.decrypt(other, bytes(32)) == bytes(buf[:640])


def test_driver_dying_inside_an_fpu_section_is_cleaned_up(caplog):
    def setkey(tfm, key):
        pass

    def crypt(req):
        capi.kernel_fpu_begin()
        raise capi.CryptoError(EINVAL, "fpu-leak-test: planted failure")

    alg = capi.SkcipherAlg(cra_name="fpuleak", cra_driver_name="fpuleak-test", cra_priority=1,
                           min_keysize=0, max_keysize=0, setkey=setkey, encrypt=crypt, decrypt=crypt)
    capi.crypto_register_skcipher(alg)
    try:
        with capi.crypto_alloc_skcipher("fpuleak-test") as tfm, caplog.at_level(logging.WARNING):
            for call in (lambda: tfm.encrypt(bytes(32)),
                         lambda: capi.crypto_skcipher_encrypt(_req(tfm))):
                with pytest.raises(capi.CryptoError):
                    call()
                assert not capi.in_kernel_fpu()
                assert capi.crypto_simd_usable()
        assert "without kernel_fpu_end" in caplog.text
    finally:
        capi.crypto_unregister_skcipher(alg)


def _req(tfm):
    buf = bytearray(32)
    req = capi.skcipher_request_alloc(tfm)
    capi.skcipher_request_set_crypt(req, capi.sg_init_one(buf), capi.sg_init_one(buf), 32, None)
    return req


def test_aesni_block_in_its_own_fpu_section_and_generic_without_simd():
    from crypto_api.arch.x86.cpufeature import boot_cpu_has
    if not boot_cpu_has("aes"):
        pytest.skip("CPU lacks AES-NI")
    capi.request_module("crypto-aes")
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    key = bytes(range(32))
    ref = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    block = bytes(range(16))
    expect = ref.update(block)
    with capi.crypto_alloc_cipher("aes-aesni") as tfm:
        tfm.setkey(key)
        with capi.fpu_trace() as tr:
            assert tfm.encrypt_one(block) == expect
        assert tr.nbytes == [16]
        with capi.simd_disabled(), capi.fpu_trace() as tr:
            assert tfm.encrypt_one(block) == expect
            assert tfm.decrypt_one(expect) == block
        assert tr.sections == []


def test_adiantum_split_request_matches_one_buffer():
    capi.request_module("crypto-xchacha12")
    with capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)") as tfm:
        tfm.setkey(bytes(range(32)))
        data = bytes((7 * i) & 0xFF for i in range(8192))
        iv = bytes(range(32))
        expect = tfm.encrypt(data, iv)
        buf = bytearray(12288)
        sgl = capi.sg_init_table(3)
        capi.sg_set_buf(sgl[0], buf, 32, 4064)
        capi.sg_set_buf(sgl[1], buf, 4096, 4096)
        capi.sg_set_buf(sgl[2], buf, 8192, 32)
        for sg, a, b in ((sgl[0], 0, 4064), (sgl[1], 4064, 8160), (sgl[2], 8160, 8192)):
            buf[sg.offset:sg.offset + sg.length] = data[a:b]
        req = capi.skcipher_request_alloc(tfm)
        capi.skcipher_request_set_crypt(req, sgl, sgl, 8192, bytearray(iv))
        capi.crypto_skcipher_encrypt(req)                     # gathered one-call path
        got = bytes(buf[32:4096]) + bytes(buf[4096:8192]) + bytes(buf[8192:8224])
        assert got == expect
        with capi.fpu_trace():                                # composed path
            capi.crypto_skcipher_decrypt(req)
        assert bytes(buf[32:4096]) + bytes(buf[4096:8224]) == data

"""Run an XCTR C entry (crypto_api.cinterface.XctrEntries) on bytes, inside
an FPU section, for the tests of the drivers that offer one."""

import cffi

import crypto_api as capi

_ffi = cffi.FFI()
_FN = "void (*)(const void *, uint8_t *, const uint8_t *, size_t, const uint8_t *)"


def run_xctr_entry(rec, data: bytes, iv: bytes) -> bytes:
    """XCTR of ``data`` under ``iv`` through the entry; the IV must stay as it was."""
    out = bytearray(len(data))
    ivbuf = bytearray(iv)
    capi.kernel_fpu_begin()
    try:
        _ffi.cast(_FN, rec.crypt)(_ffi.cast("void *", rec.key), _ffi.from_buffer(out), data, len(data),
                                  _ffi.from_buffer(ivbuf))
    finally:
        capi.kernel_fpu_end()
    assert ivbuf == iv
    return bytes(out)

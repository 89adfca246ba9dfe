"""Optional C entry points that a driver publishes on its tfm context.

A template whose inner algorithms all publish C entry points can run a
request over one contiguous buffer in a single C call (for Adiantum:
algs/adiantum_core.c) instead of composing them through the Python API; the
results are identical, and the composed path remains the reference and the
fallback for any driver that publishes nothing (a plug-in, say).  The
protocol, per kind of inner algorithm:

* stream skcipher (XChaCha): ``ctx.c_stream(simd) -> (crypt, hchacha)``
  function pointers with the signatures of chacha_crypt_generic / hchacha_block_generic,
  plus ``ctx.key`` (32 bytes) and ``ctx.nrounds``;
* block cipher: ``ctx.c_block(simd) -> (encrypt, decrypt, ctx)`` pointers, the
  functions taking ``(const void *ctx, uint8_t *out, const uint8_t *in)``;
* nhpoly1305 shash: ``ctx.c_nhpoly1305(simd) -> (nh_bulk, nh_small, poly_ops, key)``.

``simd`` says whether the caller may use SIMD (crypto_simd_usable()).  All
values are cffi pointers (``ffi.addressof(lib, name)``, the context cdata):
a function pointer type is the same in every extension, and the struct types
(``poly1305_core_ops``, ``struct nhpoly1305_key``) are declared once, in
``crypto_api.algs._poly1305``, and included by the others (``ffi.include``;
the ``includes`` of algs/cores.py and arch/x86/cores.py), so a pointer from one extension is passed to
another's functions as it is, never as an integer.
"""

/*
 * The poly1305-simd shash descriptor (v5.0 arch/x86/crypto/poly1305_glue.c):
 * the generic descriptor (algs/poly1305_desc.h) plus the powers of r the
 * vectorised block functions need, computed the first time they are needed.
 */
#ifndef CRYPTO_API_POLY1305_SIMD_DESC_H
#define CRYPTO_API_POLY1305_SIMD_DESC_H

#include "poly1305_desc.h"
#include "poly1305_simd.h"

/* Which block code the SIMD update may use. */
/* cdef: begin */
#define POLY1305_SIMD_SSE2 1
#define POLY1305_SIMD_AVX2 2
/* AVX2 plus, for runs of 16 blocks, the radix-2^44 AVX-512 IFMA code
 * (poly1305_ifma.h; beyond the kernel, which has no IFMA Poly1305). */
#define POLY1305_SIMD_IFMA 3

struct poly1305_simd_desc {
	struct poly1305_desc base;
	struct poly1305_simd_powers pw;
};

void poly1305_simd_init(struct poly1305_simd_desc *d);
/* The generic update (v5.0: short updates and no usable SIMD). */
void poly1305_simd_update_generic(struct poly1305_simd_desc *d, const uint8_t *src, size_t len);
/* The vectorised update: the caller holds the FPU.  isa: POLY1305_SIMD_*. */
void poly1305_simd_update(struct poly1305_simd_desc *d, const uint8_t *src, size_t len, int isa);
/* 0, or -ENOKEY unless the 32-byte key r || s was hashed; wipes d. */
int poly1305_simd_final(struct poly1305_simd_desc *d, uint8_t digest[16]);
/* init + update (vectorised if isa != 0, else generic) + final. */
int poly1305_simd_digest(const uint8_t *src, size_t len, uint8_t digest[16], int isa);
/* poly1305_simd_digest as the routine of the C entry point
 * (crypto_api/digest_call.h): the handle points to the isa. */
int poly1305_simd_digest_call(const void *handle, char *digest, const char *src, size_t len);
/* The block functions alone, for the tests: Poly1305 of nblocks whole
 * blocks under clamp(raw_r), no "+ s"; isa 0 = the scalar 26-bit code;
 * for POLY1305_SIMD_IFMA the whole 16-block steps go to the IFMA code. */
void poly1305_simd_hash(const uint8_t raw_r[16], const uint8_t *src, size_t nblocks,
			int isa, uint8_t out[16]);
/* cdef: end */

#endif

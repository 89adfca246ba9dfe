/*
 * AES-GCM with AES-NI/VAES and PCLMULQDQ/VPCLMULQDQ (aesni_gcm.c): the
 * core of the generic-gcm-aesni and rfc4106-gcm-aesni drivers, the role of
 * the kernel's arch/x86/crypto/aesni-intel_asm.S GCM routines (6.11+:
 * aes-gcm-aesni-x86_64.S, aes-gcm-avx10-x86_64.S, 6.19: aes-gcm-vaes-avx2.S,
 * aes-gcm-vaes-avx512.S).  Call inside an FPU section, only where the CPU has
 * what ``isa`` names (the glue checks).
 */
#ifndef CRYPTO_API_AESNI_GCM_H
#define CRYPTO_API_AESNI_GCM_H

#include "aesni.h"

/* cdef: begin */
#define AESNI_GCM_ISA_AESNI 0		/* AES-NI CTR, PCLMULQDQ GHASH, 8 blocks per reduction */
#define AESNI_GCM_ISA_VAES_AVX2 1	/* VAES 256-bit CTR, VPCLMULQDQ 256-bit GHASH, 16 blocks */
#define AESNI_GCM_ISA_AVX512 2		/* VAES 512-bit CTR, VPCLMULQDQ 512-bit GHASH, 32 blocks */
#define AESNI_GCM_ISA_AVX10_256 3	/* VAES 256-bit CTR with AVX-512VL, VPCLMULQDQ 256-bit GHASH */
#define AESNI_GCM_POWERS 32
#define AESNI_GCM_EBADMSG 74

/*
 * The AES schedule, the hash key's powers H^32..H^1 (reflected: each
 * byte-reversed, hpow[i] = H^(32-i)), the tag length and the code to run.
 */
struct aesni_gcm_ctx {
	struct aesni_ctx aes;
	uint8_t hpow[AESNI_GCM_POWERS][16];
	uint32_t authsize;
	uint32_t isa;
};

/* 0, or -EINVAL (-22) unless len is 16, 24 or 32; authsize is set to 16. */
int aesni_gcm_setkey(struct aesni_gcm_ctx *ctx, const uint8_t *key, size_t len, uint32_t isa);
/* key: a struct aesni_gcm_ctx (typed as bytes for aead_call.h's core
 * signature).  dst[0:len] = ciphertext, dst[len:len+authsize] = tag.  dst may equal src. */
void aesni_gcm_seal(const uint8_t *key, const uint8_t nonce[12],
		    const uint8_t *ad, size_t adlen, const uint8_t *src, size_t len, uint8_t *dst);
/* src: len bytes of ciphertext; tag: authsize bytes.  0 and dst[0:len] =
 * plaintext, or -EBADMSG with dst[0:len] zeroed (compared in constant
 * time).  dst may equal src. */
int aesni_gcm_open(const uint8_t *key, const uint8_t nonce[12],
		   const uint8_t *ad, size_t adlen, const uint8_t *src, size_t len,
		   const uint8_t *tag, uint8_t *dst);
/* The same, leaving the plaintext in dst on a wrong tag (the kernel's
 * request rule: decrypt, then verify). */
int aesni_gcm_decrypt(const uint8_t *key, const uint8_t nonce[12],
		      const uint8_t *ad, size_t adlen, const uint8_t *src, size_t len,
		      const uint8_t *tag, uint8_t *dst);
/* cdef: end */

#endif

/*
 * ARIA (RFC 5794) block cipher: the userspace counterpart of the kernel's
 * include/crypto/aria.h and crypto/aria_generic.c entry points.  The context
 * keeps the kernel's layout (round keys as big-endian 32-bit words), which
 * the x86 SIMD cores (arch/x86/aria_simd.h) read as well.
 */
#ifndef CRYPTO_API_ARIA_GENERIC_H
#define CRYPTO_API_ARIA_GENERIC_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
#define ARIA_BLOCK_SIZE 16
#define ARIA_MIN_KEY_SIZE 16
#define ARIA_MAX_KEY_SIZE 32
#define ARIA_MAX_RD_KEYS 17

struct aria_ctx {
	uint32_t enc_key[ARIA_MAX_RD_KEYS][4];	/* ek1..ek(R+1), BE words */
	uint32_t dec_key[ARIA_MAX_RD_KEYS][4];	/* dk1..dk(R+1) */
	int rounds;				/* 12, 14 or 16 */
	int key_length;				/* 16, 24 or 32 */
};
/* cdef: end */

/* The four S-boxes (SB1 = the AES S-box, SB2, and their inverses). */
extern const uint8_t aria_sb1[256], aria_sb2[256], aria_x1[256], aria_x2[256];
/* Diffusion layer A (RFC 5794 2.4.3): output byte i is the XOR of input bytes
 * rows[i][0..6]. */
extern const uint8_t aria_diffusion_rows[16][7];

/* The key-schedule constants C1, C2, C3 (RFC 5794 2.2) as big-endian words. */
#define ARIA_C1 {0x517cc1b7, 0x27220a94, 0xfe13abe8, 0xfa9a6ee0}
#define ARIA_C2 {0x6db14acc, 0x9e21c820, 0xff28b1d5, 0xef5de2b0}
#define ARIA_C3 {0xdb92371d, 0x2126e970, 0x03249775, 0x04e8c90e}

/* cdef: begin */
/* 0, or -EINVAL (-22) unless key_len is 16, 24 or 32 (ctx is then untouched). */
int aria_set_key(struct aria_ctx *ctx, const uint8_t *in_key, size_t key_len);
/* One block; out may equal in. */
void aria_encrypt(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in);
void aria_decrypt(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in);
/* nblocks independent blocks; out may equal in. */
void aria_ecb_generic(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
		      size_t nblocks, int encrypt);
/* CTR over nbytes (the last block may be partial); iv is a 128-bit
 * big-endian counter, left at iv + ceil(nbytes / 16). */
void aria_ctr_generic(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
		      size_t nbytes, uint8_t iv[ARIA_BLOCK_SIZE]);
/* iv += n as a 128-bit big-endian integer (wrapping at 2^128). */
void aria_ctr_add(uint8_t iv[ARIA_BLOCK_SIZE], uint64_t n);
/* The routines of the C entry point (crypto_api/digest_call.h): the handle
 * is the struct aria_ctx; n is the block's 16; return 0. */
int aria_encrypt_call(const void *handle, char *out, const char *in, size_t n);
int aria_decrypt_call(const void *handle, char *out, const char *in, size_t n);
/* cdef: end */

/* One block with explicit round keys (R+1 rows): encryption or decryption. */
void aria_crypt_block(const uint32_t rk[][4], int rounds, uint8_t *out, const uint8_t *in);

#endif

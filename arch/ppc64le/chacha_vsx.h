/*
 * ChaCha on POWER VSX, four blocks per vector set: each vector holds one
 * state word of four consecutive blocks (lane i = block i), the design of
 * the CRYPTOGAMS-style ppc64le cores (Go's chaCha20_ctr32_vsx, the kernel's
 * chacha_p10le_8x).  The 16- and 8-bit rotates are one VPERMXOR each (the
 * XOR and the byte rotate in one instruction); 12 and 7 are VRLW.
 * Counters are 32-bit lane adds on word 12 (no carry into word 13); the
 * caller's state is never written (the glue advances word 12).
 */
#ifndef CAPI_CHACHA_VSX_H
#define CAPI_CHACHA_VSX_H

#include <altivec.h>
#include <stddef.h>
#include <stdint.h>

typedef vector unsigned int vu32;
typedef vector unsigned char vu8;
typedef vector unsigned long long vu64;

/*
 * vpermxor index vectors rotating each 32-bit word left by 16 / 8.  Written in
 * little-endian element order; each index names a source byte in the
 * instruction's big-endian register numbering (element e is byte 15 - e),
 * the same byte in both nibbles (result byte = a[i] ^ b[i]).
 */
#define CAPI_ROT16 ((vu8){ 0xdd, 0xcc, 0xff, 0xee, 0x99, 0x88, 0xbb, 0xaa, \
                           0x55, 0x44, 0x77, 0x66, 0x11, 0x00, 0x33, 0x22 })
#define CAPI_ROT8  ((vu8){ 0xcc, 0xff, 0xee, 0xdd, 0x88, 0xbb, 0xaa, 0x99, \
                           0x44, 0x77, 0x66, 0x55, 0x00, 0x33, 0x22, 0x11 })

static inline vu32 capi_xor_rot(vu32 a, vu32 b, vu8 idx)
{
	return (vu32)__builtin_crypto_vpermxor((vu8)a, (vu8)b, idx);
}

#define CAPI_QR(a, b, c, d) do {                                              \
	a += b; d = capi_xor_rot(d, a, CAPI_ROT16);                            \
	c += d; b = vec_rl(b ^ c, (vu32){ 12, 12, 12, 12 });                   \
	a += b; d = capi_xor_rot(d, a, CAPI_ROT8);                             \
	c += d; b = vec_rl(b ^ c, (vu32){ 7, 7, 7, 7 });                       \
} while (0)

/* x[0..15]: the rounds of four blocks whose word-12 lanes are ctr+0..3 */
static inline void capi_chacha_vsx_rounds(vu32 x[16], int nrounds)
{
	for (int i = 0; i < nrounds; i += 2) {
		CAPI_QR(x[0], x[4], x[8], x[12]);
		CAPI_QR(x[1], x[5], x[9], x[13]);
		CAPI_QR(x[2], x[6], x[10], x[14]);
		CAPI_QR(x[3], x[7], x[11], x[15]);
		CAPI_QR(x[0], x[5], x[10], x[15]);
		CAPI_QR(x[1], x[6], x[11], x[12]);
		CAPI_QR(x[2], x[7], x[8], x[13]);
		CAPI_QR(x[3], x[4], x[9], x[14]);
	}
}

static inline void capi_chacha_vsx_load(vu32 x[16], const uint32_t *state, uint32_t ctr)
{
	for (int i = 0; i < 16; i++)
		x[i] = vec_splats(state[i]);
	x[12] = (vu32){ ctr, ctr + 1, ctr + 2, ctr + 3 };
}

/* feed-forward, transpose word-sliced vectors to blocks, XOR 256 bytes */
static inline void capi_chacha_vsx_out(vu32 x[16], const uint32_t *state, uint32_t ctr,
				       uint8_t *dst, const uint8_t *src)
{
	vu32 in[16];

	capi_chacha_vsx_load(in, state, ctr);
	for (int i = 0; i < 16; i++)
		x[i] += in[i];
	for (int g = 0; g < 4; g++) {
		vu32 a = x[4 * g], b = x[4 * g + 1], c = x[4 * g + 2], d = x[4 * g + 3];
		vu64 t0 = (vu64)vec_mergeh(a, b), t1 = (vu64)vec_mergeh(c, d);
		vu64 t2 = (vu64)vec_mergel(a, b), t3 = (vu64)vec_mergel(c, d);
		vu32 r[4] = { (vu32)vec_mergeh(t0, t1), (vu32)vec_mergel(t0, t1),
			      (vu32)vec_mergeh(t2, t3), (vu32)vec_mergel(t2, t3) };
		for (int blk = 0; blk < 4; blk++) {
			size_t off = 64 * blk + 16 * g;
			vu32 m = vec_xl(0, (const unsigned int *)(src + off));
			vec_xst(m ^ r[blk], 0, (unsigned int *)(dst + off));
		}
	}
}

static inline void capi_chacha_vsx_4block(const uint32_t *state, uint32_t ctr, uint8_t *dst,
					  const uint8_t *src, int nrounds)
{
	vu32 x[16];

	capi_chacha_vsx_load(x, state, ctr);
	capi_chacha_vsx_rounds(x, nrounds);
	capi_chacha_vsx_out(x, state, ctr, dst, src);
}

/* The entry point of each ChaCha core on this header (the glue adds the blocks used to the counter). */
/* cdef: begin chacha_vsx4 */
void chacha_vsx4_xor(const uint32_t *state, uint8_t *dst, const uint8_t *src, size_t len,
		     int nrounds);
/* cdef: end */
/* cdef: begin chacha_p10 */
void chacha_p10le_8x(const uint32_t *state, uint8_t *dst, const uint8_t *src, size_t len,
		     int nrounds);
/* cdef: end */

#endif

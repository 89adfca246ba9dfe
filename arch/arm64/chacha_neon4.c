/*
 * ChaCha with four blocks interleaved in AArch64 Advanced SIMD registers:
 * the design of libgcrypt's cipher/chacha20-aarch64.S (the 2020 "higher SIMD
 * interleaving" version: QUARTERROUND4), rewritten here in C intrinsics and
 * adapted to the kernel's conventions.
 *
 * Design: sixteen vectors X0..X15, vector i holding state word i of four
 * consecutive blocks (one block per 32-bit lane; the counter vector gets
 * +0..+3).  A double round is two QUARTERROUND4 steps, the four column
 * quarter-rounds and then the four diagonal ones, each step issuing every
 * operation for all four quarter-rounds back to back (four independent
 * dependency chains per instruction group).  Rotations: 16 by rev32 on
 * halfwords, 8 by a byte table lookup (tbl), 12 and 7 by shl + sri.  After
 * the rounds the input is added back and each group of four vectors is
 * transposed so that every block's words are contiguous for the XOR.
 *
 * Kernel conventions instead of libgcrypt's: the round count is a parameter
 * (12 for XChaCha12, 20); the block counter is the 32-bit word 12 alone,
 * incremented by 32-bit lane adds that wrap without carrying into word 13
 * (libgcrypt carries into word 13); the state is read-only (libgcrypt writes
 * the advanced counter back; here the glue advances it).  As in the seed,
 * only whole groups of four blocks are processed; the glue handles the rest.
 */
#include "chacha_neon4.h"
#include "chacha_neon4_rounds.h"

void chacha_neon4_xor(const uint32_t *state, uint8_t *dst, const uint8_t *src,
		      size_t bytes, unsigned int nrounds)
{
	const uint8x16_t rot8 = chacha4_rot8();
	uint32x4_t ctr = chacha4_counters(state);
	uint32x4_t x[16], t[4];
	unsigned int r;

	/*
	 * Only the sixteen working vectors, the four temporaries, the rotation
	 * table and the counters stay in registers; the input words are
	 * broadcast again from the state for the feed-forward, so nothing
	 * spills inside the rounds.
	 */
	for (; bytes >= CHACHA4_GROUP; bytes -= CHACHA4_GROUP, src += CHACHA4_GROUP, dst += CHACHA4_GROUP) {
		chacha4_load(x, state, ctr);
		for (r = 0; r < nrounds; r += 2) {
			CHACHA4_COLUMNS();
			CHACHA4_DIAGONALS();
		}
		chacha4_finish_xor(x, state, ctr, dst, src);
		ctr = chacha4_next(ctr);
	}
}

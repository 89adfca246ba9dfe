/*
 * The SHA-512 compression function on the ARMv8.2 SHA-512 instructions
 * (see sha512_ce.h).  The eight state words live in four vectors of two,
 * (a,b) (c,d) (e,f) (g,h); each step below is two rounds: SHA512H gives
 * the new (e,f)-side sums from the h-side vector plus W+K, SHA512H2 the new
 * (a,b), and the vectors' roles rotate through five registers (a fifth
 * receives d+T1), so after every five steps the roles return; 40 steps
 * make 80 rounds and end where they began.  The message schedule is eight
 * vectors of two words, extended in place by SHA512SU0/SU1 during the
 * first 32 steps.  Buffering and padding are the generic C's
 * (sha512_update_blocks / sha512_final_blocks).
 */
#include <arm_neon.h>

#include "memzero.h"
#include "sha512_ce.h"
#include "sha512_generic.h"

/* Which of the five state registers plays ab, cd, ef, gh and the spare in
 * each step of a five-step cycle. */
static const unsigned char ROLES[5][5] = {
	{ 0, 1, 2, 3, 4 }, { 3, 0, 4, 2, 1 }, { 2, 3, 1, 4, 0 }, { 4, 2, 0, 1, 3 }, { 1, 4, 3, 0, 2 },
};

static void sha512_blocks_ce(void *vstate, const uint8_t *data, size_t nblocks)
{
	uint64_t *state = vstate;
	uint64x2_t s[5], w[8], start[4];
	int i, j;

	for (i = 0; i < 4; i++)
		s[i] = vld1q_u64(state + 2 * i);
	s[4] = vdupq_n_u64(0);
	for (; nblocks; nblocks--, data += SHA512_BLOCK_SIZE) {
		for (i = 0; i < 8; i++)
			w[i] = vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(data + 16 * i)));
		for (i = 0; i < 4; i++)
			start[i] = s[i];
		for (j = 0; j < 40; j++) {
			const unsigned char *r = ROLES[j % 5];
			uint64x2_t *ab = &s[r[0]], *cd = &s[r[1]], *ef = &s[r[2]], *gh = &s[r[3]];
			uint64x2_t *spare = &s[r[4]];
			uint64x2_t wk = vaddq_u64(w[j % 8], vld1q_u64(SHA512_K + 2 * j));
			uint64x2_t fg = vextq_u64(*ef, *gh, 1), de = vextq_u64(*cd, *ef, 1);

			*gh = vaddq_u64(*gh, vextq_u64(wk, wk, 1));
			if (j < 32)
				w[j % 8] = vsha512su1q_u64(vsha512su0q_u64(w[j % 8], w[(j + 1) % 8]),
							   w[(j + 7) % 8],
							   vextq_u64(w[(j + 4) % 8], w[(j + 5) % 8], 1));
			*gh = vsha512hq_u64(*gh, fg, de);
			*spare = vaddq_u64(*cd, *gh);
			*gh = vsha512h2q_u64(*gh, *cd, *ab);
		}
		for (i = 0; i < 4; i++)
			s[i] = vaddq_u64(s[i], start[i]);
	}
	for (i = 0; i < 4; i++)
		vst1q_u64(state + 2 * i, s[i]);
	memzero_explicit(w, sizeof(w));
}

void sha512_ce_update(void *desc, const uint8_t *src, size_t len)
{
	sha512_update_blocks(desc, src, len, sha512_blocks_ce);
}

void sha512_ce_final(void *desc, uint8_t *out, size_t digest_size)
{
	sha512_final_blocks(desc, out, digest_size, sha512_blocks_ce);
}

size_t sha512_ce_desc_size(void)
{
	return sizeof(struct sha512_state);
}

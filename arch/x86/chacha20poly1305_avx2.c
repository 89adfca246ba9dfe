/*
 * One-pass ChaCha20-Poly1305 with AVX2 (beyond the kernel, which composes
 * the rfc7539 template from the chacha20-simd skcipher and the poly1305-simd
 * shash in separate passes).
 *
 * The text is swept once in 512-byte chunks: each chunk's eight ChaCha20
 * blocks come from the 8-block AVX2 code (chacha_avx2.c) and the same
 * chunk's ciphertext, still in L1, is absorbed right after (sealing) or
 * right before (opening, so that in-place works) by the four-lane AVX2
 * Poly1305 step (poly1305_lanes_avx2.h), whose per-lane sums stay in
 * vector form from the first chunk to the last.  The associated data, the
 * tail of fewer than 64 bytes and the length block go through the scalar
 * 26-bit Poly1305 core on the same accumulator.
 *
 * Construction (RFC 8439 section 2.8): one-time key = the first 32 bytes of
 * ChaCha20 block 0; the text uses counters 1, 2, ...; the MAC covers
 * AD || pad16 || C || pad16 || le64(|AD|) || le64(|C|).
 */
#include "chacha20poly1305_avx2.h"
#include "chacha_x86.h"
#include "poly1305_simd.h"
#include "poly1305_desc.h"
#include "byteorder.h"
#include "memzero.h"
#include "aead_tag.h"

#if defined(__x86_64__)

#include "poly1305_lanes_avx2.h"

#define CHUNK (8 * CHACHA_BLOCK_SIZE)

struct cp_mac {
	poly1305_core_key r;
	poly1305_core_state h;
	struct poly1305_simd_powers pw;
	uint8_t s[16];
};

static void cp_init(uint32_t state[16], struct cp_mac *mac, const uint8_t key[32],
		    const uint8_t nonce[12])
{
	static const uint8_t zero[CHACHA_BLOCK_SIZE];
	uint8_t block0[CHACHA_BLOCK_SIZE];
	int i;

	state[0] = 0x61707865; state[1] = 0x3320646e;
	state[2] = 0x79622d32; state[3] = 0x6b206574;
	for (i = 0; i < 8; i++)
		state[4 + i] = get_le32(key + 4 * i);
	state[12] = 0;
	for (i = 0; i < 3; i++)
		state[13 + i] = get_le32(nonce + 4 * i);

	chacha_dosimd_avx2(state, block0, zero, CHACHA_BLOCK_SIZE, 20);	/* counter -> 1 */
	poly1305_generic_setkey(&mac->r, block0);
	memcpy(mac->s, block0 + 16, 16);
	poly1305_generic_init(&mac->h);
	memset(&mac->pw, 0, sizeof(mac->pw));
	poly1305_simd_powers_fill(&mac->pw, &mac->r, 4);
	memzero_explicit(block0, sizeof(block0));
}

/* Absorb len bytes, the last partial block zero-padded (RFC 8439 pad16). */
static void cp_absorb_padded(struct cp_mac *mac, const uint8_t *p, size_t len)
{
	uint8_t last[16] = { 0 };
	size_t whole = len / 16;

	poly1305_generic_blocks(&mac->h, &mac->r, p, whole, 1);
	if (len % 16) {
		memcpy(last, p + 16 * whole, len % 16);
		poly1305_generic_blocks(&mac->h, &mac->r, last, 1, 1);
	}
}

/* The associated data: four-block steps, then the padded rest. */
__attribute__((target("avx2")))
static void cp_absorb_ad(struct cp_mac *mac, const uint8_t *ad, size_t adlen)
{
	size_t steps = adlen / 64;

	pl_blocks_avx2(&mac->h, &mac->pw, ad, steps, 1);
	cp_absorb_padded(mac, ad + 64 * steps, adlen - 64 * steps);
}

/* The length block and h + s. */
static void cp_tag(struct cp_mac *mac, size_t adlen, size_t len, uint8_t tag[16])
{
	uint8_t lens[16], h[16];
	unsigned int carry = 0;
	int i;

	put_le64(lens, (uint64_t)adlen);
	put_le64(lens + 8, (uint64_t)len);
	poly1305_generic_blocks(&mac->h, &mac->r, lens, 1, 1);
	poly1305_generic_emit(&mac->h, h);
	for (i = 0; i < 16; i++) {
		carry += (unsigned int)h[i] + mac->s[i];
		tag[i] = (uint8_t)carry;
		carry >>= 8;
	}
	memzero_explicit(h, sizeof(h));
}

/*
 * The sweep over the text: ChaCha20 from `state` (counter 1 on entry),
 * Poly1305 over the ciphertext, which is dst when sealing and src when
 * opening.  The ChaCha worker leaves keystream and spills on the stack
 * below this frame: wiped once, after the last chunk, not after each.
 */
__attribute__((target("avx2")))
static void cp_sweep(uint32_t state[16], struct cp_mac *mac, const uint8_t *src, uint8_t *dst,
		     size_t len, int sealing)
{
	struct pl_ctx_avx2 lanes;
	struct p26_state st;
	size_t done = 0, tail;

	memcpy(&st, &mac->h, sizeof(st));
	pl_start_avx2(&lanes, &mac->pw, st.h, 1);
	for (; len - done >= CHUNK; done += CHUNK) {
		if (!sealing)
			pl_absorb_avx2(&lanes, src + done, CHUNK / 64);
		chacha_avx2_blocks(state, dst + done, src + done, CHUNK, 20);
		if (sealing)
			pl_absorb_avx2(&lanes, dst + done, CHUNK / 64);
	}
	tail = len - done;
	if (tail) {
		const uint8_t *ct = sealing ? dst + done : src + done;
		size_t steps = tail / 64;

		if (!sealing) {
			pl_absorb_avx2(&lanes, ct, steps);
			pl_finish_avx2(&lanes, st.h);
			memcpy(&mac->h, &st, sizeof(st));
			cp_absorb_padded(mac, ct + 64 * steps, tail - 64 * steps);
		}
		chacha_avx2_blocks(state, dst + done, src + done, tail, 20);
		if (sealing) {
			pl_absorb_avx2(&lanes, ct, steps);
			pl_finish_avx2(&lanes, st.h);
			memcpy(&mac->h, &st, sizeof(st));
			cp_absorb_padded(mac, ct + 64 * steps, tail - 64 * steps);
		}
	} else {
		pl_finish_avx2(&lanes, st.h);
		memcpy(&mac->h, &st, sizeof(st));
	}
	crypto_memzero(&lanes, sizeof(lanes));
	crypto_memzero(&st, sizeof(st));
	memzero_stack(CHACHA_AVX2_STACK_USE);
}

void chacha20poly1305_seal_avx2(const uint8_t key[32], const uint8_t nonce[12],
				const uint8_t *ad, size_t adlen,
				const uint8_t *src, size_t len, uint8_t *dst)
{
	uint32_t state[16];
	struct cp_mac mac;

	cp_init(state, &mac, key, nonce);
	cp_absorb_ad(&mac, ad, adlen);
	cp_sweep(state, &mac, src, dst, len, 1);
	cp_tag(&mac, adlen, len, dst + len);
	memzero_explicit(state, sizeof(state));
	memzero_explicit(&mac, sizeof(mac));
}

int chacha20poly1305_open_avx2(const uint8_t key[32], const uint8_t nonce[12],
			       const uint8_t *ad, size_t adlen,
			       const uint8_t *src, size_t len, const uint8_t tag[16],
			       uint8_t *dst)
{
	uint32_t state[16];
	struct cp_mac mac;
	uint8_t want[16], given[16];

	memcpy(given, tag, 16);		/* tag may lie in dst (in place) */
	cp_init(state, &mac, key, nonce);
	cp_absorb_ad(&mac, ad, adlen);
	cp_sweep(state, &mac, src, dst, len, 0);
	cp_tag(&mac, adlen, len, want);
	memzero_explicit(state, sizeof(state));
	memzero_explicit(&mac, sizeof(mac));
	return aead_tag_mismatch(want, given, dst, len) ? -CHACHAPOLY_EBADMSG : 0;
}

#else /* not x86_64: never called there (the driver needs AVX2) */

#include <stdlib.h>

void chacha20poly1305_seal_avx2(const uint8_t key[32], const uint8_t nonce[12],
				const uint8_t *ad, size_t adlen,
				const uint8_t *src, size_t len, uint8_t *dst)
{
	(void)key; (void)nonce; (void)ad; (void)adlen; (void)src; (void)len; (void)dst;
	abort();
}

int chacha20poly1305_open_avx2(const uint8_t key[32], const uint8_t nonce[12],
			       const uint8_t *ad, size_t adlen,
			       const uint8_t *src, size_t len, const uint8_t tag[16],
			       uint8_t *dst)
{
	(void)key; (void)nonce; (void)ad; (void)adlen; (void)src; (void)len; (void)tag; (void)dst;
	abort();
}

#endif

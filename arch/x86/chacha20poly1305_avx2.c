/*
 * One-pass ChaCha20-Poly1305 with AVX2 (beyond the kernel, which composes
 * the rfc7539 template from the chacha20-simd skcipher and the poly1305-simd
 * shash in separate passes).
 *
 * The text is swept once in 512-byte chunks, ChaCha20 and Poly1305 at the
 * same time: the 8-block AVX2 rounds (chacha_avx2.c) carry a Poly1305 block
 * in general-purpose registers (radix 2^64, the poly1305-x86_64 core's
 * arithmetic) after each pair of quarter-rounds, so the integer units hash
 * while the vector units make keystream.  When opening, a chunk's rounds
 * hash that chunk's ciphertext before it is decrypted (in place works);
 * when sealing, the previous chunk's, and the last chunk is hashed after
 * the sweep.  The associated data, a tail of fewer than 512 bytes and the
 * length block go through the same core (poly1305_x86_64.c) on the same
 * accumulator.  Where the CPU has AVX512_IFMA, texts of CHACHAPOLY_IFMA_MIN
 * bytes or more take the radix-2^44 IFMA Poly1305 shared with poly1305-simd
 * (poly1305_ifma.h, a project addition) in L1-sized chunks after or before
 * the AVX-512 ChaCha code, not stitched (cp_sweep_ifma).
 *
 * Construction (RFC 8439 section 2.8): one-time key = the first 32 bytes of
 * ChaCha20 block 0; the text uses counters 1, 2, ...; the MAC covers
 * AD || pad16 || C || pad16 || le64(|AD|) || le64(|C|).
 */
#include "chacha20poly1305_avx2.h"
#include "chacha_x86.h"
#include "poly1305_x86_64.h"
#include "poly1305_ifma.h"
#include "byteorder.h"
#include "memzero.h"
#include "aead_tag.h"

#if defined(__x86_64__)

struct cp_mac {
	poly1305_core_key r;		/* w[0..2] = r0, r1, s1 */
	poly1305_core_state h;		/* w[0..2] = h0, h1, h2 */
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
	poly1305_x86_64_setkey(&mac->r, block0);
	memcpy(mac->s, block0 + 16, 16);
	poly1305_x86_64_init(&mac->h);
	memzero_explicit(block0, sizeof(block0));
}

/* Absorb len bytes, the last partial block zero-padded (RFC 8439 pad16). */
static void cp_absorb_padded(struct cp_mac *mac, const uint8_t *p, size_t len)
{
	uint8_t last[16] = { 0 };
	size_t whole = len / 16;

	poly1305_x86_64_blocks(&mac->h, &mac->r, p, whole, 1);
	if (len % 16) {
		memcpy(last, p + 16 * whole, len % 16);
		poly1305_x86_64_blocks(&mac->h, &mac->r, last, 1, 1);
		memzero_explicit(last, sizeof(last));
	}
}

/* The length block and h + s. */
static void cp_tag(struct cp_mac *mac, size_t adlen, size_t len, uint8_t tag[16])
{
	uint8_t lens[16], h[16];
	unsigned int carry = 0;
	int i;

	put_le64(lens, (uint64_t)adlen);
	put_le64(lens + 8, (uint64_t)len);
	poly1305_x86_64_blocks(&mac->h, &mac->r, lens, 1, 1);
	poly1305_x86_64_emit(&mac->h, h);
	for (i = 0; i < 16; i++) {
		carry += (unsigned int)h[i] + mac->s[i];
		tag[i] = (uint8_t)carry;
		carry >>= 8;
	}
	memzero_explicit(h, sizeof(h));
}

/* What differs between the AVX2 and the AVX-512 forms: the chunk and its
 * stitched sweep, and the ChaCha worker for the tail; ifma: long texts take
 * cp_sweep_ifma. */
struct cp_impl {
	int ifma;
	size_t chunk;
	void (*stitched)(uint32_t state[16], uint8_t *dst, const uint8_t *src, size_t nchunks,
			 uint64_t h[3], const uint64_t rk[4], int sealing);
	void (*tail)(uint32_t state[16], uint8_t *dst, const uint8_t *src, size_t bytes,
		     int nrounds);
	size_t stack_use;		/* what the ChaCha code leaves on the stack */
};

static const struct cp_impl cp_avx2 = {
	0, 8 * CHACHA_BLOCK_SIZE, chacha_poly_8block_avx2, chacha_avx2_blocks,
	CHACHA_AVX2_STACK_USE,
};
static const struct cp_impl cp_avx512 = {
	0, 16 * CHACHA_BLOCK_SIZE, chacha_poly_16block_avx512, chacha_avx512_blocks,
	CHACHA_AVX512_STACK_USE,
};
static const struct cp_impl cp_avx512ifma = {
	1, 16 * CHACHA_BLOCK_SIZE, chacha_poly_16block_avx512, chacha_avx512_blocks,
	CHACHA_AVX512_STACK_USE,
};

/*
 * The sweep over the text: ChaCha20 from `state` (counter 1 on entry),
 * Poly1305 over the ciphertext, which is dst when sealing and src when
 * opening: whole chunks stitched, then the tail.  The ChaCha code leaves
 * keystream and spills on the stack below this frame: wiped once, at the
 * end.
 */
static void cp_sweep(const struct cp_impl *impl, uint32_t state[16], struct cp_mac *mac,
		     const uint8_t *src, uint8_t *dst, size_t len, int sealing)
{
	uint64_t rk[4] = { mac->r.w[0], mac->r.w[1], mac->r.w[2], 5 * mac->r.w[0] };
	size_t chunks = len / impl->chunk, done = chunks * impl->chunk, tail = len - done;
	const uint8_t *ct = sealing ? dst : src;

	if (chunks) {
		impl->stitched(state, dst, src, chunks, mac->h.w, rk, sealing);
		if (sealing)		/* the last chunk's ciphertext */
			poly1305_x86_64_blocks(&mac->h, &mac->r, dst + done - impl->chunk,
					       impl->chunk / 16, 1);
	}
	if (tail) {
		if (!sealing)
			cp_absorb_padded(mac, ct + done, tail);
		impl->tail(state, dst + done, src + done, tail, 20);
		if (sealing)
			cp_absorb_padded(mac, ct + done, tail);
	}
	memzero_explicit(rk, sizeof(rk));
	memzero_stack(impl->stack_use);
}

/*
 * The sweep with the IFMA Poly1305 (texts of CHACHAPOLY_IFMA_MIN bytes or
 * more): not stitched, as both would run on the vector units; instead each
 * CP_IFMA_CHUNK bytes are made by the AVX-512 ChaCha code and hashed by
 * poly1305_ifma_blocks while they are in L1 (the ciphertext: before
 * decrypting, after encrypting).  The accumulator goes to radix 2^44 for
 * the whole chunks and back; what is left takes cp_sweep.  Measured here
 * (Xeon with AVX-512 IFMA, 1 MiB): 1.08-1.12x the stitched scalar sweep,
 * about the same from 2 to 16 KiB chunks; splitting the MAC between the
 * stitched scalar code and the IFMA code was slower than IFMA alone (the
 * scalar code takes ports the zmm rounds need).
 */
#ifndef CP_IFMA_CHUNK
#define CP_IFMA_CHUNK 4096
#endif

static void cp_sweep_ifma(const struct cp_impl *impl, uint32_t state[16], struct cp_mac *mac,
			  const uint8_t *src, uint8_t *dst, size_t len, int sealing)
{
	const size_t steps = CP_IFMA_CHUNK / (16 * POLY1305_IFMA_STEP_BLOCKS);
	struct poly1305_ifma_key key;
	uint64_t g[3] = { mac->r.w[0], mac->r.w[1], 0 };
	size_t done;

	poly1305_ifma_from_64(g, g);
	poly1305_ifma_setkey(&key, g);
	poly1305_ifma_from_64(g, mac->h.w);
	for (done = 0; len - done >= CP_IFMA_CHUNK; done += CP_IFMA_CHUNK) {
		if (!sealing)
			poly1305_ifma_blocks(g, &key, src + done, steps, 1);
		impl->tail(state, dst + done, src + done, CP_IFMA_CHUNK, 20);
		if (sealing)
			poly1305_ifma_blocks(g, &key, dst + done, steps, 1);
	}
	poly1305_ifma_to_64(mac->h.w, g);
	memzero_explicit(&key, sizeof(key));
	memzero_explicit(g, sizeof(g));
	cp_sweep(impl, state, mac, src + done, dst + done, len - done, sealing);
}

/* The text's sweep for this form and length. */
static void cp_text(const struct cp_impl *impl, uint32_t state[16], struct cp_mac *mac,
		    const uint8_t *src, uint8_t *dst, size_t len, int sealing)
{
	if (impl->ifma && len >= CHACHAPOLY_IFMA_MIN)
		cp_sweep_ifma(impl, state, mac, src, dst, len, sealing);
	else
		cp_sweep(impl, state, mac, src, dst, len, sealing);
}

static void cp_seal(const struct cp_impl *impl, const uint8_t key[32], const uint8_t nonce[12],
		    const uint8_t *ad, size_t adlen, const uint8_t *src, size_t len, uint8_t *dst)
{
	uint32_t state[16];
	struct cp_mac mac;

	cp_init(state, &mac, key, nonce);
	cp_absorb_padded(&mac, ad, adlen);
	cp_text(impl, state, &mac, src, dst, len, 1);
	cp_tag(&mac, adlen, len, dst + len);
	memzero_explicit(state, sizeof(state));
	memzero_explicit(&mac, sizeof(mac));
}

static int cp_open(const struct cp_impl *impl, const uint8_t key[32], const uint8_t nonce[12],
		   const uint8_t *ad, size_t adlen, const uint8_t *src, size_t len,
		   const uint8_t tag[16], uint8_t *dst)
{
	uint32_t state[16];
	struct cp_mac mac;
	uint8_t want[16], given[16];

	memcpy(given, tag, 16);		/* tag may lie in dst (in place) */
	cp_init(state, &mac, key, nonce);
	cp_absorb_padded(&mac, ad, adlen);
	cp_text(impl, state, &mac, src, dst, len, 0);
	cp_tag(&mac, adlen, len, want);
	memzero_explicit(state, sizeof(state));
	memzero_explicit(&mac, sizeof(mac));
	return aead_tag_mismatch(want, given, dst, len) ? -CHACHAPOLY_EBADMSG : 0;
}

void chacha20poly1305_seal_avx2(const uint8_t key[32], const uint8_t nonce[12],
				const uint8_t *ad, size_t adlen,
				const uint8_t *src, size_t len, uint8_t *dst)
{
	cp_seal(&cp_avx2, key, nonce, ad, adlen, src, len, dst);
}

int chacha20poly1305_open_avx2(const uint8_t key[32], const uint8_t nonce[12],
			       const uint8_t *ad, size_t adlen,
			       const uint8_t *src, size_t len, const uint8_t tag[16],
			       uint8_t *dst)
{
	return cp_open(&cp_avx2, key, nonce, ad, adlen, src, len, tag, dst);
}

void chacha20poly1305_seal_avx512(const uint8_t key[32], const uint8_t nonce[12],
				  const uint8_t *ad, size_t adlen,
				  const uint8_t *src, size_t len, uint8_t *dst)
{
	cp_seal(&cp_avx512, key, nonce, ad, adlen, src, len, dst);
}

int chacha20poly1305_open_avx512(const uint8_t key[32], const uint8_t nonce[12],
				 const uint8_t *ad, size_t adlen,
				 const uint8_t *src, size_t len, const uint8_t tag[16],
				 uint8_t *dst)
{
	return cp_open(&cp_avx512, key, nonce, ad, adlen, src, len, tag, dst);
}

void chacha20poly1305_seal_avx512ifma(const uint8_t key[32], const uint8_t nonce[12],
				      const uint8_t *ad, size_t adlen,
				      const uint8_t *src, size_t len, uint8_t *dst)
{
	cp_seal(&cp_avx512ifma, key, nonce, ad, adlen, src, len, dst);
}

int chacha20poly1305_open_avx512ifma(const uint8_t key[32], const uint8_t nonce[12],
				     const uint8_t *ad, size_t adlen,
				     const uint8_t *src, size_t len, const uint8_t tag[16],
				     uint8_t *dst)
{
	return cp_open(&cp_avx512ifma, key, nonce, ad, adlen, src, len, tag, dst);
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

void chacha20poly1305_seal_avx512(const uint8_t key[32], const uint8_t nonce[12],
				  const uint8_t *ad, size_t adlen,
				  const uint8_t *src, size_t len, uint8_t *dst)
{
	chacha20poly1305_seal_avx2(key, nonce, ad, adlen, src, len, dst);
}

int chacha20poly1305_open_avx512(const uint8_t key[32], const uint8_t nonce[12],
				 const uint8_t *ad, size_t adlen,
				 const uint8_t *src, size_t len, const uint8_t tag[16],
				 uint8_t *dst)
{
	return chacha20poly1305_open_avx2(key, nonce, ad, adlen, src, len, tag, dst);
}

void chacha20poly1305_seal_avx512ifma(const uint8_t key[32], const uint8_t nonce[12],
				      const uint8_t *ad, size_t adlen,
				      const uint8_t *src, size_t len, uint8_t *dst)
{
	chacha20poly1305_seal_avx2(key, nonce, ad, adlen, src, len, dst);
}

int chacha20poly1305_open_avx512ifma(const uint8_t key[32], const uint8_t nonce[12],
				     const uint8_t *ad, size_t adlen,
				     const uint8_t *src, size_t len, const uint8_t tag[16],
				     uint8_t *dst)
{
	return chacha20poly1305_open_avx2(key, nonce, ad, adlen, src, len, tag, dst);
}

#endif

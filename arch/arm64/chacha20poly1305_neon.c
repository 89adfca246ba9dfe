/*
 * One-pass ChaCha20-Poly1305 for AArch64 with Advanced SIMD, beyond the
 * kernel (whose rfc7539 template runs a chacha20 skcipher pass and then a
 * poly1305 shash pass over the data).
 *
 * Design: the seed's stitched loop (libgcrypt's
 * _gcry_chacha20_poly1305_aarch64_blocks4).  The text is swept in groups of
 * four ChaCha20 blocks (256 bytes) computed in NEON registers, one block per
 * 32-bit lane (chacha_neon4_rounds.h, the same QUARTERROUND4 code as
 * chacha_neon4.c), and while those vector rounds run, the Poly1305 of 256
 * bytes of ciphertext runs in general-purpose registers (radix 2^64:
 * mul/umulh and add-with-carry), its sixteen block steps issued between the
 * half rounds of the same loop body: two per double round in the first six
 * double rounds, one in each of the last four.  The two kinds of work use
 * different execution units and have no data dependence, so an out-of-order
 * core overlaps them.
 *
 * Which ciphertext a group's rounds absorb: when opening, the group's own
 * input (read before the XOR writes dst, so in place works); when sealing,
 * the previous group's output, already written (the MAC trails the
 * keystream by one group, as in the seed's encryption), and the last
 * group's after the loop.  A tail of fewer than 256 bytes takes one more
 * group of keystream and scalar Poly1305 steps.
 *
 * Construction (RFC 8439 section 2.8): the one-time Poly1305 key is the
 * first 32 bytes of ChaCha20 block 0; the text uses counters 1, 2, ...; the
 * MAC covers AD || pad16 || C || pad16 || le64(|AD|) || le64(|C|).
 */
#include <arm_neon.h>
#include <string.h>

#include "chacha20poly1305_neon.h"
#include "chacha_neon4_rounds.h"
#include "byteorder.h"
#include "memzero.h"
#include "aead_tag.h"

__extension__ typedef unsigned __int128 u128;

/*
 * Poly1305 in radix 2^64: h = h0 + h1 2^64 + h2 2^128 (h2 a few bits), the
 * clamped r = r0 + r1 2^64, and s1 = r1 + (r1 >> 2) = 5 (r1 >> 2), the
 * factor of the products that reach 2^128 (clamping clears r1's low two
 * bits, and 2^130 = 5 mod 2^130 - 5).
 */
struct cp_mac {
	uint64_t h0, h1, h2;
	uint64_t r0, r1, s1;
	uint8_t s[16];
};

static void cp_mac_init(struct cp_mac *m, const uint8_t otk[32])
{
	m->h0 = m->h1 = m->h2 = 0;
	m->r0 = get_le64(otk) & 0x0ffffffc0fffffffULL;
	m->r1 = get_le64(otk + 8) & 0x0ffffffc0ffffffcULL;
	m->s1 = m->r1 + (m->r1 >> 2);
	memcpy(m->s, otk + 16, 16);
}

/*
 * One 16-byte block with the 2^128 bit: h = (h + m + 2^128) * r, partly
 * reduced (h2 <= 4 on return, so h2 <= 6 inside and every column sum
 * stays below 2^127).
 */
static inline __attribute__((always_inline)) void cp_block(struct cp_mac *m, const uint8_t *p)
{
	u128 t, d0, d1;
	uint64_t h0, h1, h2, d2, c;

	t = (u128)m->h0 + get_le64(p);
	h0 = (uint64_t)t;
	t = (u128)m->h1 + get_le64(p + 8) + (uint64_t)(t >> 64);
	h1 = (uint64_t)t;
	h2 = m->h2 + 1 + (uint64_t)(t >> 64);

	d0 = (u128)h0 * m->r0 + (u128)h1 * m->s1;
	d1 = (u128)h0 * m->r1 + (u128)h1 * m->r0 + (u128)(h2 * m->s1);
	d2 = h2 * m->r0;
	d1 += (uint64_t)(d0 >> 64);
	d2 += (uint64_t)(d1 >> 64);

	/* fold the bits from 2^130 up: times 5 into the low end */
	c = (d2 >> 2) * 5;
	t = (u128)(uint64_t)d0 + c;
	m->h0 = (uint64_t)t;
	t = (u128)(uint64_t)d1 + (uint64_t)(t >> 64);
	m->h1 = (uint64_t)t;
	m->h2 = (d2 & 3) + (uint64_t)(t >> 64);
}

/* len bytes, the last partial block zero-padded (the construction's pad16). */
static void cp_absorb_padded(struct cp_mac *m, const uint8_t *p, size_t len)
{
	uint8_t last[16] = { 0 };

	for (; len >= 16; len -= 16, p += 16)
		cp_block(m, p);
	if (len) {
		memcpy(last, p, len);
		cp_block(m, last);
		memzero_explicit(last, sizeof(last));
	}
}

/* The length block, then tag = (h mod 2^130 - 5) + s mod 2^128. */
static void cp_tag(struct cp_mac *m, size_t adlen, size_t len, uint8_t tag[16])
{
	uint8_t lens[16];
	uint64_t h0, h1, h2, g0, g1, g2, c, mask;
	u128 t;

	put_le64(lens, (uint64_t)adlen);
	put_le64(lens + 8, (uint64_t)len);
	cp_block(m, lens);

	/* h2 <= 4: one more fold leaves h < 2^130 + 2^64, below 2p */
	c = (m->h2 >> 2) * 5;
	t = (u128)m->h0 + c;
	h0 = (uint64_t)t;
	t = (u128)m->h1 + (uint64_t)(t >> 64);
	h1 = (uint64_t)t;
	h2 = (m->h2 & 3) + (uint64_t)(t >> 64);
	/* g = h + 5 reaches 2^130 exactly when h >= p: then h - p is g's low bits */
	t = (u128)h0 + 5;
	g0 = (uint64_t)t;
	t = (u128)h1 + (uint64_t)(t >> 64);
	g1 = (uint64_t)t;
	g2 = h2 + (uint64_t)(t >> 64);
	mask = 0 - (g2 >> 2);
	h0 = (h0 & ~mask) | (g0 & mask);
	h1 = (h1 & ~mask) | (g1 & mask);

	t = (u128)h0 + get_le64(m->s);
	put_le64(tag, (uint64_t)t);
	put_le64(tag + 8, h1 + get_le64(m->s + 8) + (uint64_t)(t >> 64));
}

/* The ChaCha20 state for key and nonce, counter 0. */
static void cp_state(uint32_t state[16], const uint8_t *key, const uint8_t *nonce)
{
	int i;

	state[0] = 0x61707865; state[1] = 0x3320646e;
	state[2] = 0x79622d32; state[3] = 0x6b206574;
	for (i = 0; i < 8; i++)
		state[4 + i] = get_le32(key + 4 * i);
	state[12] = 0;
	for (i = 0; i < 3; i++)
		state[13 + i] = get_le32(nonce + 4 * i);
}

/* ks = the four keystream blocks from state[12] on (no Poly1305 work). */
static void cp_keystream_group(const uint32_t *state, uint8_t ks[CHACHA4_GROUP])
{
	const uint8x16_t rot8 = chacha4_rot8();
	const uint32x4_t ctr = chacha4_counters(state);
	uint32x4_t x[16], t[4];
	int r;

	memset(ks, 0, CHACHA4_GROUP);
	chacha4_load(x, state, ctr);
	for (r = 0; r < 10; r++) {
		CHACHA4_COLUMNS();
		CHACHA4_DIAGONALS();
	}
	chacha4_finish_xor(x, state, ctr, ks, ks);
}

/*
 * One group: dst[0..256) = src ^ keystream of the four blocks at ctr, and,
 * when mp is not NULL, the sixteen Poly1305 blocks at mp absorbed during the
 * rounds.
 */
static inline __attribute__((always_inline))
void cp_group(const uint32_t *state, uint32x4_t ctr, uint8x16_t rot8, struct cp_mac *mac,
	      const uint8_t *mp, uint8_t *dst, const uint8_t *src)
{
	uint32x4_t x[16], t[4];
	int r;

	chacha4_load(x, state, ctr);
	if (mp) {
		for (r = 0; r < 6; r++, mp += 32) {	/* six double rounds, two MAC blocks each */
			CHACHA4_COLUMNS();
			cp_block(mac, mp);
			CHACHA4_DIAGONALS();
			cp_block(mac, mp + 16);
		}
		for (r = 0; r < 4; r++, mp += 16) {	/* four double rounds, one MAC block each */
			CHACHA4_COLUMNS();
			cp_block(mac, mp);
			CHACHA4_DIAGONALS();
		}
	} else {
		for (r = 0; r < 10; r++) {
			CHACHA4_COLUMNS();
			CHACHA4_DIAGONALS();
		}
	}
	chacha4_finish_xor(x, state, ctr, dst, src);
}

/*
 * The sweep over the text: keystream from state (counter 1 on entry), MAC
 * over the ciphertext (dst when sealing, src when opening).
 */
static void cp_sweep(const uint32_t *state, struct cp_mac *macp, const uint8_t *src, uint8_t *dst,
		     size_t len, int sealing)
{
	const uint8x16_t rot8 = chacha4_rot8();
	uint32x4_t ctr = chacha4_counters(state);
	const uint8_t *trail = NULL;	/* sealing: the previous group's ciphertext */
	uint8_t ks[CHACHA4_GROUP];
	uint32_t tail_state[16];
	struct cp_mac mac = *macp;	/* a copy whose address never escapes: kept in registers */
	size_t i;

	for (; len >= CHACHA4_GROUP; len -= CHACHA4_GROUP, src += CHACHA4_GROUP, dst += CHACHA4_GROUP) {
		cp_group(state, ctr, rot8, &mac, sealing ? trail : src, dst, src);
		trail = dst;
		ctr = chacha4_next(ctr);
	}
	*macp = mac;
	memzero_explicit(&mac, sizeof(mac));
	if (sealing && trail)
		cp_absorb_padded(macp, trail, CHACHA4_GROUP);
	if (len) {
		memcpy(tail_state, state, sizeof(tail_state));
		tail_state[12] = vgetq_lane_u32(ctr, 0);
		cp_keystream_group(tail_state, ks);
		if (!sealing)
			cp_absorb_padded(macp, src, len);
		for (i = 0; i < len; i++)
			dst[i] = src[i] ^ ks[i];
		if (sealing)
			cp_absorb_padded(macp, dst, len);
		memzero_explicit(ks, sizeof(ks));
		memzero_explicit(tail_state, sizeof(tail_state));
	}
}

/* state (counter 1 on return) and the MAC keyed by block 0, the AD absorbed. */
static void cp_start(uint32_t state[16], struct cp_mac *mac, const uint8_t *key, const uint8_t *nonce,
		     const uint8_t *ad, size_t adlen)
{
	uint8_t block0[CHACHA4_GROUP];

	cp_state(state, key, nonce);
	cp_keystream_group(state, block0);
	cp_mac_init(mac, block0);
	memzero_explicit(block0, sizeof(block0));
	state[12] = 1;
	cp_absorb_padded(mac, ad, adlen);
}

void chacha20poly1305_seal_neon(const uint8_t *key, const uint8_t *nonce,
				const uint8_t *ad, size_t adlen,
				const uint8_t *src, size_t len, uint8_t *dst)
{
	uint32_t state[16];
	struct cp_mac mac;

	cp_start(state, &mac, key, nonce, ad, adlen);
	cp_sweep(state, &mac, src, dst, len, 1);
	cp_tag(&mac, adlen, len, dst + len);
	memzero_explicit(state, sizeof(state));
	memzero_explicit(&mac, sizeof(mac));
}

int chacha20poly1305_open_neon(const uint8_t *key, const uint8_t *nonce,
			       const uint8_t *ad, size_t adlen,
			       const uint8_t *src, size_t len, const uint8_t *tag,
			       uint8_t *dst)
{
	uint32_t state[16];
	struct cp_mac mac;
	uint8_t want[16], given[16];

	memcpy(given, tag, 16);		/* tag may lie in dst (in place) */
	cp_start(state, &mac, key, nonce, ad, adlen);
	cp_sweep(state, &mac, src, dst, len, 0);
	cp_tag(&mac, adlen, len, want);
	memzero_explicit(state, sizeof(state));
	memzero_explicit(&mac, sizeof(mac));
	return aead_tag_mismatch(want, given, dst, len) ? -CP_NEON_EBADMSG : 0;
}

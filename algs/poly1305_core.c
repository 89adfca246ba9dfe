/*
 * Portable Poly1305 core with five 26-bit limbs (32x32->64 multiplies only).
 *
 * Userspace counterpart of the v5.0 kernel's poly1305_core_setkey / _blocks /
 * _emit in crypto/poly1305_generic.c (lib/crypto/poly1305-donna32.c in later
 * kernels).  Written from RFC 8439 section 2.5: h = (h + block + hibit*2^128)
 * * r mod 2^130-5.  Exposed both as plain functions and through the
 * poly1305_generic_ops table of poly1305_core.h.
 *
 * The opaque poly1305_core_key / poly1305_core_state storage is copied to and
 * from the private structures below with memcpy, so neither alignment nor the
 * C effective-type rules depend on how a caller declared that storage.
 */
#include <string.h>

#include "poly1305_core.h"
#include "poly1305_p26.h"
#include "poly1305_desc.h"
#include "memzero.h"
#include "byteorder.h"

#define MASK26 0x3ffffffu

void poly1305_generic_setkey(poly1305_core_key *key, const uint8_t raw_r[16])
{
	struct p26_key k;
	int i;

	/*
	 * Clamp r &= 0x0ffffffc0ffffffc0ffffffc0fffffff while splitting it
	 * into 26-bit limbs starting at bits 0, 26, 52, 78 and 104.
	 */
	k.r[0] = get_le32(raw_r + 0) & 0x3ffffffu;
	k.r[1] = (get_le32(raw_r + 3) >> 2) & 0x3ffff03u;
	k.r[2] = (get_le32(raw_r + 6) >> 4) & 0x3ffc0ffu;
	k.r[3] = (get_le32(raw_r + 9) >> 6) & 0x3f03fffu;
	k.r[4] = (get_le32(raw_r + 12) >> 8) & 0x00fffffu;
	for (i = 0; i < 4; i++)
		k.r5[i] = k.r[i + 1] * 5;

	memset(key, 0, sizeof(*key));
	memcpy(key, &k, sizeof(k));
	memzero_explicit(&k, sizeof(k));
}

void poly1305_generic_init(poly1305_core_state *state)
{
	memset(state, 0, sizeof(*state));
}

void poly1305_generic_blocks(poly1305_core_state *state, const poly1305_core_key *key,
			     const uint8_t *src, size_t nblocks, uint32_t hibit)
{
	struct p26_key k;
	struct p26_state st;
	const uint32_t top = hibit ? (1u << 24) : 0;	/* 2^128 in limb 4 */
	uint32_t r0, r1, r2, r3, r4, s1, s2, s3, s4;
	uint32_t h0, h1, h2, h3, h4;

	if (nblocks == 0)
		return;

	memcpy(&k, key, sizeof(k));
	memcpy(&st, state, sizeof(st));

	r0 = k.r[0]; r1 = k.r[1]; r2 = k.r[2]; r3 = k.r[3]; r4 = k.r[4];
	s1 = k.r5[0]; s2 = k.r5[1]; s3 = k.r5[2]; s4 = k.r5[3];
	h0 = st.h[0]; h1 = st.h[1]; h2 = st.h[2]; h3 = st.h[3]; h4 = st.h[4];

	while (nblocks--) {
		uint64_t d0, d1, d2, d3, d4;
		uint32_t c;

		/* h += m (+ 2^128) */
		h0 += get_le32(src + 0) & MASK26;
		h1 += (get_le32(src + 3) >> 2) & MASK26;
		h2 += (get_le32(src + 6) >> 4) & MASK26;
		h3 += (get_le32(src + 9) >> 6) & MASK26;
		h4 += (get_le32(src + 12) >> 8) | top;

		/*
		 * h *= r.  A product limb i+j >= 5 stands for 2^130 * 2^(26(i+j-5)),
		 * and 2^130 == 5 (mod p), hence the 5*r terms.
		 */
		d0 = (uint64_t)h0 * r0 + (uint64_t)h1 * s4 + (uint64_t)h2 * s3 +
		     (uint64_t)h3 * s2 + (uint64_t)h4 * s1;
		d1 = (uint64_t)h0 * r1 + (uint64_t)h1 * r0 + (uint64_t)h2 * s4 +
		     (uint64_t)h3 * s3 + (uint64_t)h4 * s2;
		d2 = (uint64_t)h0 * r2 + (uint64_t)h1 * r1 + (uint64_t)h2 * r0 +
		     (uint64_t)h3 * s4 + (uint64_t)h4 * s3;
		d3 = (uint64_t)h0 * r3 + (uint64_t)h1 * r2 + (uint64_t)h2 * r1 +
		     (uint64_t)h3 * r0 + (uint64_t)h4 * s4;
		d4 = (uint64_t)h0 * r4 + (uint64_t)h1 * r3 + (uint64_t)h2 * r2 +
		     (uint64_t)h3 * r1 + (uint64_t)h4 * r0;

		/* Partial carry propagation back to ~26-bit limbs. */
		c = (uint32_t)(d0 >> 26); h0 = (uint32_t)d0 & MASK26;
		d1 += c; c = (uint32_t)(d1 >> 26); h1 = (uint32_t)d1 & MASK26;
		d2 += c; c = (uint32_t)(d2 >> 26); h2 = (uint32_t)d2 & MASK26;
		d3 += c; c = (uint32_t)(d3 >> 26); h3 = (uint32_t)d3 & MASK26;
		d4 += c; c = (uint32_t)(d4 >> 26); h4 = (uint32_t)d4 & MASK26;
		h0 += c * 5; c = h0 >> 26; h0 &= MASK26;
		h1 += c;

		src += POLY1305_BLOCK_SIZE;
	}

	st.h[0] = h0; st.h[1] = h1; st.h[2] = h2; st.h[3] = h3; st.h[4] = h4;
	memcpy(state, &st, sizeof(st));
	memzero_explicit(&k, sizeof(k));
}

void poly1305_generic_emit(const poly1305_core_state *state, uint8_t out[16])
{
	struct p26_state st;
	uint32_t h0, h1, h2, h3, h4, g0, g1, g2, g3, g4, c, mask;
	uint64_t f;

	memcpy(&st, state, sizeof(st));
	h0 = st.h[0]; h1 = st.h[1]; h2 = st.h[2]; h3 = st.h[3]; h4 = st.h[4];

	/* Full carry: every limb back under 2^26, h < 2^130 + small. */
	c = h1 >> 26; h1 &= MASK26;
	h2 += c; c = h2 >> 26; h2 &= MASK26;
	h3 += c; c = h3 >> 26; h3 &= MASK26;
	h4 += c; c = h4 >> 26; h4 &= MASK26;
	h0 += c * 5; c = h0 >> 26; h0 &= MASK26;
	h1 += c;

	/* g = h + 5 - 2^130; if it does not borrow, h >= p and g is h - p. */
	g0 = h0 + 5; c = g0 >> 26; g0 &= MASK26;
	g1 = h1 + c; c = g1 >> 26; g1 &= MASK26;
	g2 = h2 + c; c = g2 >> 26; g2 &= MASK26;
	g3 = h3 + c; c = g3 >> 26; g3 &= MASK26;
	g4 = h4 + c - (1u << 26);

	/* Constant-time select: mask is all ones when g4 did not borrow. */
	mask = (g4 >> 31) - 1;
	h0 = (h0 & ~mask) | (g0 & mask);
	h1 = (h1 & ~mask) | (g1 & mask);
	h2 = (h2 & ~mask) | (g2 & mask);
	h3 = (h3 & ~mask) | (g3 & mask);
	h4 = (h4 & ~mask) | (g4 & mask);

	/*
	 * Pack the low 128 bits as little-endian words.  Adding (not OR-ing)
	 * through a 64-bit carry keeps this exact even if h1 is 2^26 after the
	 * final carry above.
	 */
	f = (uint64_t)h0 + ((uint64_t)h1 << 26);
	put_le32(out + 0, (uint32_t)f);
	f = (f >> 32) + ((uint64_t)h2 << 20);
	put_le32(out + 4, (uint32_t)f);
	f = (f >> 32) + ((uint64_t)h3 << 14);
	put_le32(out + 8, (uint32_t)f);
	f = (f >> 32) + ((uint64_t)h4 << 8);
	put_le32(out + 12, (uint32_t)f);

	memzero_explicit(&st, sizeof(st));
}

const poly1305_core_ops poly1305_generic_ops = {
	.name = "generic",
	.setkey = poly1305_generic_setkey,
	.init = poly1305_generic_init,
	.blocks = poly1305_generic_blocks,
	.emit = poly1305_generic_emit,
};

void poly1305_core_hash(const poly1305_core_ops *ops, const uint8_t raw_r[16],
			const uint8_t *src, size_t nblocks, uint8_t out[16])
{
	poly1305_core_key key;
	poly1305_core_state state;

	ops->setkey(&key, raw_r);
	ops->init(&state);
	ops->blocks(&state, &key, src, nblocks, 1);
	ops->emit(&state, out);
	memzero_explicit(&key, sizeof(key));
	memzero_explicit(&state, sizeof(state));
}

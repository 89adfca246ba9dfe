/*
 * The radix-2^44 AVX-512 IFMA Poly1305 block function and its key powers
 * (poly1305_ifma.h): a project addition, no kernel file has it.
 *
 * Horner's rule split sixteen ways: lane j of group A holds the sum of the
 * blocks 16k + j, lane j of group B the blocks 16k + 8 + j.  Between steps
 * every lane is multiplied by r^16; after the last one, lane j of A by
 * r^(16 - j) and of B by r^(8 - j), and the sixteen lanes are added.  The
 * incoming accumulator rides in lane 0 of A, added to the first block.
 *
 * A product of two limbs is taken as its low 52 bits (vpmadd52luq) and its
 * bits 52..103 (vpmadd52huq).  With 2^132 = 20 (mod 2^130 - 5), the
 * wrapped terms use s1 = 20 r1 and s2 = 20 r2:
 *
 *   column 0: h0 r0 + h1 s2 + h2 s1      column 1: h0 r1 + h1 r0 + h2 s2
 *   column 2: h0 r2 + h1 r1 + h2 r0
 *
 * Column c's high halves weigh 2^(44c + 52) = 2^8 * 2^(44(c+1)), so they
 * are added, shifted left by 8, to column c + 1; column 2's weigh 2^140 =
 * 5 * 2^10 (mod p) and are added to column 0 times 5120.  Bounds: limbs
 * enter below 2^46 (a partly carried sum plus a block), powers below 2^44 +
 * 2^11, so every factor fits the 52 bits IFMA reads (20 r below 2^49), the
 * high halves stay below 2^43 and every column below 2^56.
 */
#include "x86_common.h"
#include "poly1305_ifma.h"

#if defined(__x86_64__) && defined(__SIZEOF_INT128__)

#include <immintrin.h>

__extension__ typedef unsigned __int128 ifma_u128;

#define M44 POLY1305_IFMA_M44
#define M42 POLY1305_IFMA_M42

/* Carry three columns into limbs below 2^44, 2^44, 2^42 (limb 0 a little
 * more: the fold of limb 2's overflow). */
#define CARRY3(d0, d1, d2, c)				\
	do {						\
		(c) = (d0) >> 44; (d0) &= M44; (d1) += (c);	\
		(c) = (d1) >> 44; (d1) &= M44; (d2) += (c);	\
		(c) = (d2) >> 42; (d2) &= M42; (d0) += (c) * 5;	\
	} while (0)

/* o = a * b mod 2^130 - 5, carried (o1 may pass 2^44 by a few units). */
static void mul44(uint64_t o[3], const uint64_t a[3], const uint64_t b[3])
{
	uint64_t s1 = 20 * b[1], s2 = 20 * b[2];
	ifma_u128 d0 = (ifma_u128)a[0] * b[0] + (ifma_u128)a[1] * s2 + (ifma_u128)a[2] * s1;
	ifma_u128 d1 = (ifma_u128)a[0] * b[1] + (ifma_u128)a[1] * b[0] + (ifma_u128)a[2] * s2;
	ifma_u128 d2 = (ifma_u128)a[0] * b[2] + (ifma_u128)a[1] * b[1] + (ifma_u128)a[2] * b[0];
	ifma_u128 c;

	CARRY3(d0, d1, d2, c);
	d1 += d0 >> 44;
	d0 &= M44;
	o[0] = (uint64_t)d0;
	o[1] = (uint64_t)d1;
	o[2] = (uint64_t)d2;
}

/* r^1..r^16 as a shallow tree (r^2, r^3 and r^4, then r^5..r^8 = r^4 r^k,
 * then r^9..r^16 = r^8 r^k) so that the products of one level overlap: it
 * runs once per update. */
void poly1305_ifma_setkey(struct poly1305_ifma_key *key, const uint64_t r[3])
{
	uint64_t p[POLY1305_IFMA_STEP_BLOCKS + 1][3];
	int k, l;

	for (l = 0; l < 3; l++)
		p[1][l] = r[l];
	mul44(p[2], p[1], p[1]);
	mul44(p[3], p[2], p[1]);
	mul44(p[4], p[2], p[2]);
	for (k = 5; k <= 8; k++)
		mul44(p[k], p[4], p[k - 4]);
	for (k = 9; k <= POLY1305_IFMA_STEP_BLOCKS; k++)
		mul44(p[k], p[8], p[k - 8]);
	for (k = 1; k <= POLY1305_IFMA_STEP_BLOCKS; k++)
		for (l = 0; l < 3; l++)
			key->pw[l][POLY1305_IFMA_STEP_BLOCKS - k] = p[k][l];
	crypto_memzero(p, sizeof(p));
}

#define IFMA_TARGET X86_TARGET("avx512f,avx512ifma")

typedef __m512i V;

/* A multiplier per lane: r0, r1, r2 and s1 = 20 r1, s2 = 20 r2. */
struct ifma_mult {
	V r0, r1, r2, s1, s2;
};

static inline IFMA_TARGET V times20(V x)
{
	return _mm512_add_epi64(_mm512_slli_epi64(x, 4), _mm512_slli_epi64(x, 2));
}

static inline IFMA_TARGET void mult_set(struct ifma_mult *m, V r0, V r1, V r2)
{
	m->r0 = r0;
	m->r1 = r1;
	m->r2 = r2;
	m->s1 = times20(r1);
	m->s2 = times20(r2);
}

#define LO(acc, a, b) _mm512_madd52lo_epu64((acc), (a), (b))
#define HI(acc, a, b) _mm512_madd52hi_epu64((acc), (a), (b))

/* h = h * m per lane, partly carried (limbs below 2^44 + 2^24, 2^44, 2^42). */
static inline IFMA_TARGET void mul_lanes(V h[3], const struct ifma_mult *m)
{
	const V z = _mm512_setzero_si512(), m44 = _mm512_set1_epi64((long long)M44);
	const V m42 = _mm512_set1_epi64((long long)M42), k5120 = _mm512_set1_epi64(5120);
	V l0, l1, l2, u0, u1, u2, c;

	l0 = LO(LO(LO(z, h[0], m->r0), h[1], m->s2), h[2], m->s1);
	u0 = HI(HI(HI(z, h[0], m->r0), h[1], m->s2), h[2], m->s1);
	l1 = LO(LO(LO(z, h[0], m->r1), h[1], m->r0), h[2], m->s2);
	u1 = HI(HI(HI(z, h[0], m->r1), h[1], m->r0), h[2], m->s2);
	l2 = LO(LO(LO(z, h[0], m->r2), h[1], m->r1), h[2], m->r0);
	u2 = HI(HI(HI(z, h[0], m->r2), h[1], m->r1), h[2], m->r0);

	l0 = LO(l0, u2, k5120);
	l1 = _mm512_add_epi64(l1, _mm512_slli_epi64(u0, 8));
	l2 = _mm512_add_epi64(l2, _mm512_slli_epi64(u1, 8));

	c = _mm512_srli_epi64(l0, 44); l0 = _mm512_and_si512(l0, m44); l1 = _mm512_add_epi64(l1, c);
	c = _mm512_srli_epi64(l1, 44); l1 = _mm512_and_si512(l1, m44); l2 = _mm512_add_epi64(l2, c);
	c = _mm512_srli_epi64(l2, 42); l2 = _mm512_and_si512(l2, m42);
	h[0] = _mm512_add_epi64(l0, _mm512_add_epi64(c, _mm512_slli_epi64(c, 2)));
	h[1] = l1;
	h[2] = l2;
}

/* h += eight blocks at src, block j to lane j, each plus hb (2^128). */
static inline IFMA_TARGET void add_blocks(V h[3], const uint8_t *src, V hb)
{
	const V m44 = _mm512_set1_epi64((long long)M44);
	const V even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
	const V odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
	V x = _mm512_loadu_si512((const void *)src), y = _mm512_loadu_si512((const void *)(src + 64));
	V lo = _mm512_permutex2var_epi64(x, even, y), hi = _mm512_permutex2var_epi64(x, odd, y);

	h[0] = _mm512_add_epi64(h[0], _mm512_and_si512(lo, m44));
	h[1] = _mm512_add_epi64(h[1], _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(lo, 44),
									 _mm512_slli_epi64(hi, 20)), m44));
	h[2] = _mm512_add_epi64(h[2], _mm512_or_si512(_mm512_srli_epi64(hi, 24), hb));
}

IFMA_TARGET
void poly1305_ifma_blocks(uint64_t h[3], const struct poly1305_ifma_key *key,
			  const uint8_t *src, size_t steps, uint32_t hibit)
{
	struct ifma_mult step, last;
	V a[3], b[3], hb = _mm512_set1_epi64(hibit ? (1LL << 40) : 0);
	uint64_t g0, g1, g2, c;
	int l;

	if (!steps)
		return;
	for (l = 0; l < 3; l++) {
		a[l] = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, (long long)h[l]);
		b[l] = _mm512_setzero_si512();
	}
	mult_set(&step, _mm512_set1_epi64((long long)key->pw[0][0]),
		 _mm512_set1_epi64((long long)key->pw[1][0]), _mm512_set1_epi64((long long)key->pw[2][0]));
	add_blocks(a, src, hb);
	add_blocks(b, src + 128, hb);
	for (steps--, src += 256; steps; steps--, src += 256) {
		mul_lanes(a, &step);
		mul_lanes(b, &step);
		add_blocks(a, src, hb);
		add_blocks(b, src + 128, hb);
	}
	mult_set(&last, _mm512_loadu_si512((const void *)&key->pw[0][0]),
		 _mm512_loadu_si512((const void *)&key->pw[1][0]),
		 _mm512_loadu_si512((const void *)&key->pw[2][0]));
	mul_lanes(a, &last);
	mult_set(&last, _mm512_loadu_si512((const void *)&key->pw[0][8]),
		 _mm512_loadu_si512((const void *)&key->pw[1][8]),
		 _mm512_loadu_si512((const void *)&key->pw[2][8]));
	mul_lanes(b, &last);
	g0 = (uint64_t)_mm512_reduce_add_epi64(_mm512_add_epi64(a[0], b[0]));
	g1 = (uint64_t)_mm512_reduce_add_epi64(_mm512_add_epi64(a[1], b[1]));
	g2 = (uint64_t)_mm512_reduce_add_epi64(_mm512_add_epi64(a[2], b[2]));
	CARRY3(g0, g1, g2, c);
	c = g0 >> 44; g0 &= M44; g1 += c;
	c = g1 >> 44; g1 &= M44; g2 += c;
	h[0] = g0;
	h[1] = g1;
	h[2] = g2;
	crypto_memzero(&step, sizeof(step));
	crypto_memzero(&last, sizeof(last));
	crypto_memzero(a, sizeof(a));
	crypto_memzero(b, sizeof(b));
}

#else /* not x86_64: never called there (the drivers check the CPU) */

#include <stdlib.h>

void poly1305_ifma_setkey(struct poly1305_ifma_key *key, const uint64_t r[3])
{
	(void)key; (void)r;
	abort();
}

void poly1305_ifma_blocks(uint64_t h[3], const struct poly1305_ifma_key *key,
			  const uint8_t *src, size_t steps, uint32_t hibit)
{
	(void)h; (void)key; (void)src; (void)steps; (void)hibit;
	abort();
}

#endif

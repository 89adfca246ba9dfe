/*
 * The multi-lane Poly1305 step, written once for any vector width.
 *
 * Not a normal header: the includer first defines
 *   PL_LANES            blocks per step (2 for SSE2, 4 for AVX2)
 *   PL_V                the vector type (64-bit lanes)
 *   PL_FN(name)         the name of a function for this width
 *   PL_ATTR             attributes of those functions (target ISA)
 *   PL_add, PL_mul (low 32 bits of each lane times low 32 bits, 64-bit
 *   result), PL_and, PL_or, PL_srl, PL_sll (64-bit lane shifts), PL_set1
 *   (one 64-bit value in every lane), PL_from(const uint64_t v[PL_LANES]),
 *   PL_hsum (the sum of the lanes), PL_load(src, lo, hi) (lane j gets the
 *   low and high 8 bytes of block PL_BLOCK_OF_LANE(j) of the step, so
 *   PL_BLOCK_OF_LANE too: which block of a step each lane holds)
 * and then includes this file, which defines static functions for a
 * poly1305_simd.h block function or for a stitched loop to use directly.
 *
 * Bounds: limbs stay below 2^27 + 2^11 between steps, multipliers below
 * 2^26 + 2^11 (their 5x below 2^29), so every product fits 2^56, each
 * limb's five-term sum 2^59 and the lane sum at the end 2^61.
 */

/* A multiplier: one power of r per lane, with 5x for the wrapped terms. */
struct PL_FN(pl_mult) {
	PL_V r[5], s[5];
};

struct PL_FN(pl_ctx) {
	struct PL_FN(pl_mult) step;	/* r^LANES in every lane */
	struct PL_FN(pl_mult) last;	/* lane j: r^(LANES - block j holds) */
	PL_V h[5];			/* the per-lane sums */
	PL_V hibit;
	int started;
};

static inline PL_ATTR void PL_FN(pl_mult_set)(struct PL_FN(pl_mult) *m, const uint32_t *pows[PL_LANES])
{
	uint64_t v[PL_LANES];
	int i, j;

	for (i = 0; i < 5; i++) {
		for (j = 0; j < PL_LANES; j++)
			v[j] = pows[j][i];
		m->r[i] = PL_from(v);
		m->s[i] = PL_add(m->r[i], PL_sll(m->r[i], 2));
	}
}

/* Start over h (26-bit limbs): lane 0 holds h, the other lanes 0. */
static inline PL_ATTR void PL_FN(pl_start)(struct PL_FN(pl_ctx) *c, const struct poly1305_simd_powers *pw,
					   const uint32_t h[5], uint32_t hibit)
{
	const uint32_t *pows[PL_LANES];
	uint64_t v[PL_LANES] = { 0 };
	int i;

	for (i = 0; i < PL_LANES; i++)
		pows[i] = pw->r[PL_LANES - 1];
	PL_FN(pl_mult_set)(&c->step, pows);
	for (i = 0; i < PL_LANES; i++)
		pows[i] = pw->r[PL_LANES - 1 - PL_BLOCK_OF_LANE(i)];
	PL_FN(pl_mult_set)(&c->last, pows);
	for (i = 0; i < 5; i++) {
		v[0] = h[i];
		c->h[i] = PL_from(v);
	}
	c->hibit = PL_set1(hibit ? (1u << 24) : 0);
	c->started = 0;
}

/* d = h * m, per lane, not yet carried. */
static inline PL_ATTR void PL_FN(pl_mul)(PL_V d[5], const PL_V h[5], const struct PL_FN(pl_mult) *m)
{
	d[0] = PL_add(PL_add(PL_add(PL_mul(h[0], m->r[0]), PL_mul(h[1], m->s[4])),
			     PL_add(PL_mul(h[2], m->s[3]), PL_mul(h[3], m->s[2]))),
		      PL_mul(h[4], m->s[1]));
	d[1] = PL_add(PL_add(PL_add(PL_mul(h[0], m->r[1]), PL_mul(h[1], m->r[0])),
			     PL_add(PL_mul(h[2], m->s[4]), PL_mul(h[3], m->s[3]))),
		      PL_mul(h[4], m->s[2]));
	d[2] = PL_add(PL_add(PL_add(PL_mul(h[0], m->r[2]), PL_mul(h[1], m->r[1])),
			     PL_add(PL_mul(h[2], m->r[0]), PL_mul(h[3], m->s[4]))),
		      PL_mul(h[4], m->s[3]));
	d[3] = PL_add(PL_add(PL_add(PL_mul(h[0], m->r[3]), PL_mul(h[1], m->r[2])),
			     PL_add(PL_mul(h[2], m->r[1]), PL_mul(h[3], m->r[0]))),
		      PL_mul(h[4], m->s[4]));
	d[4] = PL_add(PL_add(PL_add(PL_mul(h[0], m->r[4]), PL_mul(h[1], m->r[3])),
			     PL_add(PL_mul(h[2], m->r[2]), PL_mul(h[3], m->r[1]))),
		      PL_mul(h[4], m->r[0]));
}

/*
 * Absorb `steps` steps of PL_LANES blocks: before each step but the first
 * the lane sums are multiplied by r^LANES (and carried), then the step's
 * blocks are added, each to its lane (PL_BLOCK_OF_LANE).
 */
static inline PL_ATTR void PL_FN(pl_absorb)(struct PL_FN(pl_ctx) *c, const uint8_t *src, size_t steps)
{
	const PL_V mask = PL_set1(POLY1305_P26_MASK);
	PL_V h0 = c->h[0], h1 = c->h[1], h2 = c->h[2], h3 = c->h[3], h4 = c->h[4];

	for (; steps; steps--, src += 16 * PL_LANES) {
		PL_V lo, hi;

		if (c->started) {
			PL_V h[5] = { h0, h1, h2, h3, h4 }, d[5], t;

			PL_FN(pl_mul)(d, h, &c->step);
			/* two carry chains side by side: 0->1->2->3, 3->4->0->1 */
			t = PL_srl(d[0], 26); d[0] = PL_and(d[0], mask); d[1] = PL_add(d[1], t);
			t = PL_srl(d[3], 26); d[3] = PL_and(d[3], mask); d[4] = PL_add(d[4], t);
			t = PL_srl(d[1], 26); d[1] = PL_and(d[1], mask); d[2] = PL_add(d[2], t);
			t = PL_srl(d[4], 26); d[4] = PL_and(d[4], mask);
			d[0] = PL_add(d[0], PL_add(t, PL_sll(t, 2)));
			t = PL_srl(d[2], 26); d[2] = PL_and(d[2], mask); d[3] = PL_add(d[3], t);
			t = PL_srl(d[0], 26); d[0] = PL_and(d[0], mask); d[1] = PL_add(d[1], t);
			t = PL_srl(d[3], 26); d[3] = PL_and(d[3], mask); d[4] = PL_add(d[4], t);
			h0 = d[0]; h1 = d[1]; h2 = d[2]; h3 = d[3]; h4 = d[4];
		}
		c->started = 1;
		PL_load(src, lo, hi);
		h0 = PL_add(h0, PL_and(lo, mask));
		h1 = PL_add(h1, PL_and(PL_srl(lo, 26), mask));
		h2 = PL_add(h2, PL_and(PL_or(PL_srl(lo, 52), PL_sll(hi, 12)), mask));
		h3 = PL_add(h3, PL_and(PL_srl(hi, 14), mask));
		h4 = PL_add(h4, PL_or(PL_srl(hi, 40), c->hibit));
	}
	c->h[0] = h0; c->h[1] = h1; c->h[2] = h2; c->h[3] = h3; c->h[4] = h4;
}

/* Finish: each lane times r^(LANES - its block), lanes summed, carried into h. */
static inline PL_ATTR void PL_FN(pl_finish)(struct PL_FN(pl_ctx) *c, uint32_t h[5])
{
	const uint64_t M = POLY1305_P26_MASK;
	PL_V d[5];
	uint64_t e[5], t;
	int i;

	if (!c->started)
		return;
	PL_FN(pl_mul)(d, c->h, &c->last);
	for (i = 0; i < 5; i++)
		e[i] = PL_hsum(d[i]);
	for (i = 0; i < 4; i++) {
		e[i + 1] += e[i] >> 26;
		e[i] &= M;
	}
	t = e[4] >> 26;
	e[4] &= M;
	e[0] += t * 5;
	e[1] += e[0] >> 26;
	e[0] &= M;
	for (i = 0; i < 5; i++)
		h[i] = (uint32_t)e[i];
	c->started = 0;
}

/* The poly1305_simd.h block function for this width. */
static inline PL_ATTR void PL_FN(pl_blocks)(poly1305_core_state *state,
					    const struct poly1305_simd_powers *pw,
					    const uint8_t *src, size_t steps, uint32_t hibit)
{
	struct PL_FN(pl_ctx) c;
	struct p26_state st;

	if (!steps)
		return;
	memcpy(&st, state, sizeof(st));
	PL_FN(pl_start)(&c, pw, st.h, hibit);
	PL_FN(pl_absorb)(&c, src, steps);
	PL_FN(pl_finish)(&c, st.h);
	memcpy(state, &st, sizeof(st));
	crypto_memzero(&c, sizeof(c));
	crypto_memzero(&st, sizeof(st));
}

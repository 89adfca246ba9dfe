/*
 * NHPoly1305 streaming hash: the state machine of the kernel's
 * crypto/nhpoly1305.c (crypto_nhpoly1305_setkey / _init / _update_helper /
 * _final_helper), parametrised by an NH function and a Poly1305 core.
 *
 * The message is zero-padded to a multiple of 16 bytes and cut into NH
 * messages of 1024 bytes (the last may be shorter).  Each NH value (32 bytes)
 * is absorbed by Poly1305 as two blocks with the 2^128 bit set.  The digest
 * is the fully reduced accumulator mod 2^128 with no "+ s"; an empty message
 * hashes to zero.
 *
 * An NH message may stay open across update calls: nh_remaining counts the
 * bytes it still needs, the next piece is hashed with the key window at its
 * position and its sums are added to the stored ones.  So the digest does not
 * depend on how the input is split.  nh_hash holds the running sums as
 * 4 x le64 bytes (the layout NH functions write).
 */
#include <string.h>

#include "nhpoly1305.h"
#include "memzero.h"
#include "byteorder.h"

/* Push the finished NH value through Poly1305 (two blocks, hibit 1). */
static void absorb_nh_value(struct nhpoly1305_state *state,
			    const struct nhpoly1305_key *key,
			    const poly1305_core_ops *poly)
{
	poly->blocks(&state->poly_state, &key->poly_key,
		     (const uint8_t *)state->nh_hash,
		     NH_HASH_BYTES / POLY1305_BLOCK_SIZE, 1);
}

/* Feed whole 16-byte units (len is a non-zero multiple of 16). */
static void feed_units(struct nhpoly1305_state *state,
		       const struct nhpoly1305_key *key,
		       const uint8_t *src, size_t len, nh_fn_t nh,
		       const poly1305_core_ops *poly)
{
	uint8_t *acc = (uint8_t *)state->nh_hash;

	do {
		size_t n;

		if (state->nh_remaining == 0) {
			/* Open a new NH message at key offset 0. */
			n = min_size(len, NH_MESSAGE_BYTES);
			nh(key->nh_key, src, n, acc);
			state->nh_remaining = (uint32_t)(NH_MESSAGE_BYTES - n);
		} else {
			/* Continue the open one at its current key offset. */
			uint8_t part[NH_HASH_BYTES];
			size_t pos = NH_MESSAGE_BYTES - state->nh_remaining;
			int i;

			n = min_size(len, state->nh_remaining);
			nh(&key->nh_key[pos / sizeof(uint32_t)], src, n, part);
			for (i = 0; i < NH_HASH_BYTES; i += 8)
				put_le64(acc + i, get_le64(acc + i) + get_le64(part + i));
			state->nh_remaining -= (uint32_t)n;
		}
		if (state->nh_remaining == 0)
			absorb_nh_value(state, key, poly);
		src += n;
		len -= n;
	} while (len);
}

void nhpoly1305_setkey(struct nhpoly1305_key *key, const uint8_t *raw,
		       const poly1305_core_ops *poly)
{
	int i;

	poly->setkey(&key->poly_key, raw);
	raw += POLY1305_BLOCK_SIZE;
	for (i = 0; i < NH_KEY_WORDS; i++)
		key->nh_key[i] = get_le32(raw + 4 * i);
}

void nhpoly1305_init(struct nhpoly1305_state *state, const poly1305_core_ops *poly)
{
	memset(state, 0, sizeof(*state));
	poly->init(&state->poly_state);
}

void nhpoly1305_update(struct nhpoly1305_state *state, const struct nhpoly1305_key *key,
		       const uint8_t *src, size_t len, nh_fn_t nh,
		       const poly1305_core_ops *poly)
{
	size_t n;

	if (len == 0)
		return;	/* also keeps a NULL src away from memcpy */

	/* Top up a pending partial unit first. */
	if (state->buflen) {
		n = min_size(len, NH_MESSAGE_UNIT - state->buflen);
		memcpy(state->buffer + state->buflen, src, n);
		state->buflen += (uint32_t)n;
		src += n;
		len -= n;
		if (state->buflen < NH_MESSAGE_UNIT)
			return;
		feed_units(state, key, state->buffer, NH_MESSAGE_UNIT, nh, poly);
		state->buflen = 0;
	}

	/* All whole units of the input. */
	if (len >= NH_MESSAGE_UNIT) {
		n = len - len % NH_MESSAGE_UNIT;
		feed_units(state, key, src, n, nh, poly);
		src += n;
		len -= n;
	}

	/* Keep the tail. */
	if (len) {
		memcpy(state->buffer, src, len);
		state->buflen = (uint32_t)len;
	}
}

void nhpoly1305_final(struct nhpoly1305_state *state, const struct nhpoly1305_key *key,
		      uint8_t digest[NHPOLY1305_DIGEST_SIZE], nh_fn_t nh,
		      const poly1305_core_ops *poly)
{
	if (state->buflen) {
		memset(state->buffer + state->buflen, 0, NH_MESSAGE_UNIT - state->buflen);
		feed_units(state, key, state->buffer, NH_MESSAGE_UNIT, nh, poly);
		state->buflen = 0;
	}
	if (state->nh_remaining) {
		absorb_nh_value(state, key, poly);
		state->nh_remaining = 0;
	}
	poly->emit(&state->poly_state, digest);
}

void nhpoly1305_digest(const struct nhpoly1305_key *key, const uint8_t *src, size_t len,
		       uint8_t digest[NHPOLY1305_DIGEST_SIZE], nh_fn_t nh_bulk, nh_fn_t nh_small,
		       const poly1305_core_ops *poly)
{
	struct nhpoly1305_state state;

	nhpoly1305_init(&state, poly);
	if (len)
		nhpoly1305_update(&state, key, src, len, nh_bulk, poly);
	nhpoly1305_final(&state, key, digest, nh_small, poly);
	memzero_explicit(&state, sizeof(state));
}

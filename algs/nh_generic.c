/*
 * Portable NH hash (the nh_generic() of the kernel's crypto/nhpoly1305.c),
 * written from the Adiantum paper (eprint 2018/720, NH with stride 2 and four
 * Toeplitz passes).
 *
 * Each 16-byte message unit is four little-endian words m0..m3.  Pass p uses
 * the key words k[4u + 4p .. 4u + 4p + 3] for unit u (the key slides by four
 * words per pass) and adds
 *     (m0 + k0) * (m2 + k2) + (m1 + k1) * (m3 + k3)
 * to its 64-bit sum, the additions taken mod 2^32 and the products 32x32->64.
 * Sums wrap mod 2^64; the hash is the four sums as le64.
 *
 * The caller picks the key window: for a piece of a longer NH message it
 * passes &key[byte_offset / 4], since NH is additive over units.
 */
#include "nhpoly1305.h"
#include "byteorder.h"

/* One pass's contribution of a unit, with key window k (4 words). */
#define NH_TERM(k)                                                         \
	((uint64_t)(uint32_t)(m0 + (k)[0]) * (uint32_t)(m2 + (k)[2]) +      \
	 (uint64_t)(uint32_t)(m1 + (k)[1]) * (uint32_t)(m3 + (k)[3]))

void nh_generic(const uint32_t *key, const uint8_t *message, size_t message_len,
		uint8_t hash[NH_HASH_BYTES])
{
	uint64_t sum0 = 0, sum1 = 0, sum2 = 0, sum3 = 0;

	while (message_len >= NH_MESSAGE_UNIT) {
		const uint32_t m0 = get_le32(message + 0);
		const uint32_t m1 = get_le32(message + 4);
		const uint32_t m2 = get_le32(message + 8);
		const uint32_t m3 = get_le32(message + 12);

		sum0 += NH_TERM(key + 0);
		sum1 += NH_TERM(key + 4);
		sum2 += NH_TERM(key + 8);
		sum3 += NH_TERM(key + 12);

		key += NH_MESSAGE_UNIT / sizeof(uint32_t);
		message += NH_MESSAGE_UNIT;
		message_len -= NH_MESSAGE_UNIT;
	}

	put_le64(hash + 0, sum0);
	put_le64(hash + 8, sum1);
	put_le64(hash + 16, sum2);
	put_le64(hash + 24, sum3);
}

void nhpoly1305_digest_nh(const struct nhpoly1305_key *key, const uint8_t *src, size_t len,
			  uint8_t digest[NHPOLY1305_DIGEST_SIZE], nh_fn_t nh_bulk,
			  const poly1305_core_ops *poly)
{
	nhpoly1305_digest(key, src, len, digest, nh_bulk, nh_generic, poly);
}

int nhpoly1305_digest_call(const void *handle, char *digest, const char *src, size_t len)
{
	const struct nhpoly1305_call *c = handle;

	nhpoly1305_digest_nh(c->key, (const uint8_t *)src, len, (uint8_t *)digest, c->nh_bulk, c->poly);
	return 0;
}

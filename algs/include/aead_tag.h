/*
 * The last step of an AEAD open in C (the role of crypto_memneq() plus the
 * kernel drivers' "wipe on -EBADMSG"): compare the computed tag with the
 * given one in constant time, wipe the computed tag, and on a mismatch wipe
 * the text already written to dst, so no unauthenticated plaintext is left.
 * Shared by the one-pass ChaCha20-Poly1305 cores (x86 AVX2, arm64 NEON).
 */
#ifndef CRYPTO_API_AEAD_TAG_H
#define CRYPTO_API_AEAD_TAG_H

#include <stddef.h>
#include <stdint.h>

#include "memzero.h"

/* 0 when the tags match, 1 (and dst[0..len) zeroed) when they do not. */
static inline int aead_tag_mismatch(uint8_t want[16], const uint8_t given[16],
				    uint8_t *dst, size_t len)
{
	unsigned int diff = 0;
	int i;

	for (i = 0; i < 16; i++)
		diff |= (unsigned int)(want[i] ^ given[i]);
	memzero_explicit(want, 16);
	if (diff) {
		memzero_explicit(dst, len);
		return 1;
	}
	return 0;
}

#endif

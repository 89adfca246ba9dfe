/*
 * The buffering and padding of the Merkle-Damgard hashes (SHA-1, SHA-384,
 * SHA-512): whole blocks go to the block function, a partial block waits in
 * the descriptor's buffer, and the final block carries 0x80, zeros and the
 * big-endian bit length (8 bytes for 64-byte blocks, 16 for 128-byte ones,
 * FIPS 180-4 section 5.1).  The role of the kernel's
 * include/crypto/sha1_base.h and sha512_base.h helpers; no state layout of
 * its own: each core passes its state, buffer and block function.
 */
#ifndef CRYPTO_API_MD_BUFFER_H
#define CRYPTO_API_MD_BUFFER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "memzero.h"

/* nblocks whole blocks of data into the state. */
typedef void (*md_blocks_fn)(void *state, const uint8_t *data, size_t nblocks);

/*
 * Feed len bytes.  ``partial`` is the number of bytes already waiting in buf
 * (the byte count before this call modulo the block size).
 */
static inline void md_update(void *state, uint8_t *buf, size_t block_size, size_t partial,
			     const uint8_t *data, size_t len, md_blocks_fn blocks)
{
	if (partial) {
		size_t take = block_size - partial;

		if (len < take) {
			memcpy(buf + partial, data, len);
			return;
		}
		memcpy(buf + partial, data, take);
		blocks(state, buf, 1);
		data += take;
		len -= take;
	}
	if (len >= block_size) {
		size_t whole = len / block_size;

		blocks(state, data, whole);
		data += whole * block_size;
		len -= whole * block_size;
	}
	memcpy(buf, data, len);
}

/*
 * Pad and hash the last block(s).  ``bits_hi``:``bits_lo`` is the message
 * length in bits; a 64-byte block stores bits_lo alone, a 128-byte block
 * both.  The buffer is wiped afterwards.
 */
static inline void md_pad(void *state, uint8_t *buf, size_t block_size, size_t partial,
			  uint64_t bits_hi, uint64_t bits_lo, md_blocks_fn blocks)
{
	size_t len_field = block_size == 128 ? 16 : 8;

	buf[partial++] = 0x80;
	if (partial > block_size - len_field) {
		memset(buf + partial, 0, block_size - partial);
		blocks(state, buf, 1);
		partial = 0;
	}
	memset(buf + partial, 0, block_size - partial);
	for (size_t i = 0; i < 8; i++) {
		buf[block_size - 1 - i] = (uint8_t)(bits_lo >> (8 * i));
		if (len_field == 16)
			buf[block_size - 9 - i] = (uint8_t)(bits_hi >> (8 * i));
	}
	blocks(state, buf, 1);
	memzero_explicit(buf, block_size);
}

#endif

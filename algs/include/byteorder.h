/*
 * Little- and big-endian loads and stores from unaligned byte pointers, and
 * min_size (the roles of the kernel's get_unaligned_le32()/_be32() family and
 * min()).  Shared
 * by every C core in the tree.
 */
#ifndef CRYPTO_API_BYTEORDER_H
#define CRYPTO_API_BYTEORDER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * On a little-endian host the little-endian forms are plain unaligned loads
 * and stores (memcpy, which compilers turn into one mov): byte by byte, some
 * of them were left as byte loads, shifts and byte stores, and a later wide
 * load of bytes just stored one at a time stalls on store forwarding.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CRYPTO_API_LE_HOST 1
#else
#define CRYPTO_API_LE_HOST 0
#endif

static inline uint32_t get_le32(const uint8_t *p)
{
#if CRYPTO_API_LE_HOST
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
#else
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
	       ((uint32_t)p[3] << 24);
#endif
}

static inline void put_le32(uint8_t *p, uint32_t v)
{
#if CRYPTO_API_LE_HOST
	memcpy(p, &v, sizeof(v));
#else
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
#endif
}

static inline uint64_t get_le64(const uint8_t *p)
{
#if CRYPTO_API_LE_HOST
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
#else
	return (uint64_t)get_le32(p) | ((uint64_t)get_le32(p + 4) << 32);
#endif
}

static inline void put_le64(uint8_t *p, uint64_t v)
{
#if CRYPTO_API_LE_HOST
	memcpy(p, &v, sizeof(v));
#else
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
#endif
}

static inline uint32_t get_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static inline void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

#endif

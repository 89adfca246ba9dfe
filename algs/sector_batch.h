/*
 * Many sectors of a dm-crypt volume in one call: the IV of each sector is
 * generated here from its number (dm-crypt's plain, plain64 and, through an
 * IV cipher, essiv) and the sector is handed to the per-sector C entry point
 * of the driver the registry picked (Adiantum, an XTS or a CBC loop).  The
 * role of dm-crypt's crypt_convert() loop (drivers/md/dm-crypt.c) over
 * crypt_convert_block_skcipher(), without a request per sector.
 */
#ifndef CRYPTO_API_SECTOR_BATCH_H
#define CRYPTO_API_SECTOR_BATCH_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
/* How a sector is transformed (the signature of the entry point). */
#define SECTOR_WIDE 0	/* a wide-block cipher: adiantum_crypt() */
#define SECTOR_XTS 1	/* an XTS loop: aesni_xts_crypt() and the VAES one */
#define SECTOR_CBC 2	/* a CBC loop pair: aesni_cbc_encrypt()/decrypt() */

/* The IV number as dm-crypt writes it into the IV. */
#define SECTOR_IV_PLAIN 0	/* le32(number mod 2^32), then zeros */
#define SECTOR_IV_PLAIN64 1	/* le64(number), then zeros (also essiv's input) */

#define SECTOR_MAX_IV 32

typedef int (*sector_wide_fn)(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nbytes,
			      const uint8_t *iv, size_t iv_len, int enc);
typedef int (*sector_xts_fn)(const void *ctx, const void *tweak_ctx, uint8_t *dst,
			     const uint8_t *src, size_t nbytes, const uint8_t *iv, int dec);
typedef void (*sector_cbc_fn)(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks,
			      uint8_t *iv);
typedef void (*sector_block_fn)(const void *ctx, uint8_t *out, const uint8_t *in);
/* A wide-block cipher over count sectors at once, sector k's IV at ivs + k * iv_stride
 * (adiantum_crypt_many()). */
typedef int (*sector_wide_many_fn)(const void *ctx, uint8_t *dst, const uint8_t *src,
				   size_t nbytes, const uint8_t *ivs, size_t iv_stride,
				   size_t iv_len, size_t count, int enc);

/* Sectors handed to wide_many at a time. */
#define SECTOR_MANY 8

struct sector_batch {
	int kind;		/* SECTOR_WIDE, SECTOR_XTS or SECTOR_CBC */
	int ivmode;		/* SECTOR_IV_PLAIN or SECTOR_IV_PLAIN64 */
	size_t ivsize;		/* bytes of IV the entry point reads (<= SECTOR_MAX_IV) */
	sector_wide_fn wide;
	sector_wide_many_fn wide_many;	/* SECTOR_WIDE: the same, SECTOR_MANY at once, or NULL */
	sector_xts_fn xts;
	sector_cbc_fn cbc_encrypt;
	sector_cbc_fn cbc_decrypt;
	const void *ctx;	/* the entry point's context */
	const void *ctx2;	/* XTS: the tweak key's context */
	sector_block_fn iv_encrypt;	/* essiv: E_salt over the plain64 IV, else NULL */
	const void *iv_ctx;
};

/*
 * Transform count sectors of sector_size bytes from src to dst (dst may equal
 * src); sector k gets the IV number iv_first + k * iv_step (mod 2^64).
 * 0, -EINVAL (-22) for an unusable description, or the entry point's error
 * (the sectors before the failing one are done, the rest untouched).
 */
int sector_batch_crypt(const struct sector_batch *b, uint8_t *dst, const uint8_t *src,
		       size_t sector_size, size_t count, uint64_t iv_first, uint64_t iv_step,
		       int enc);

/*
 * The first digest_len (<= 32) bytes of SHA-256 of each of count sectors of
 * sector_size bytes, one after another in out, with the block function
 * blocks (sha256_blocks_fn of sha256_generic.h: generic or SHA-NI); the
 * per-sector digests of the disk tool's resilience "checksum" records.
 * 0, or -EINVAL (-22) for digest_len > 32.
 */
int sector_sha256_digests(void (*blocks)(uint32_t *state, const uint8_t *data, size_t nblocks),
			  uint8_t *out, size_t digest_len, const uint8_t *src, size_t sector_size,
			  size_t count);

/*
 * A keyed NH-Poly1305 as its driver offers it: the struct nhpoly1305_key,
 * the NH routine for 64 bytes or more and the one for the rest (nh_fn_t of
 * nhpoly1305.h), and its Poly1305 code (a poly1305_core_ops).
 */
struct sector_nh_hash {
	const void *key;
	void (*nh_bulk)(const uint32_t *key, const uint8_t *message, size_t message_len, uint8_t *hash);
	void (*nh_small)(const uint32_t *key, const uint8_t *message, size_t message_len, uint8_t *hash);
	const void *poly;
};

/*
 * NH-Poly1305 (h) of each of count sectors of sector_size bytes, the 16-byte
 * digests one after another in out: the per-sector check values of the disk
 * tool's journal format 2.
 */
void sector_nhpoly1305_digests(const struct sector_nh_hash *h, uint8_t *out, const uint8_t *src,
			       size_t sector_size, size_t count);
/* cdef: end */

#endif

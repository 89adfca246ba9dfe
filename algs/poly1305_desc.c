/*
 * The "poly1305" shash descriptor logic of Linux v5.0 (crypto/poly1305_generic.c:
 * crypto_poly1305_init / _update / _final), over any Poly1305 core ops table.
 *
 * The v5.0 shash has no setkey.  The first 16 bytes pushed through update are
 * r (clamped by the core), the next 16 are s; only the bytes after those are
 * message.  final pads a partial last block with 0x01 then zeros and absorbs
 * it without the 2^128 bit, then returns (h + s) mod 2^128.  final without a
 * complete key fails with -ENOKEY.
 */
#include <string.h>

#include "poly1305_desc.h"
#include "memzero.h"
#include "byteorder.h"

/*
 * Consume whole 16-byte blocks of src: the key blocks first (while the key is
 * incomplete), then message blocks with hibit 1.  Returns len % 16, the tail
 * the caller must buffer.
 */
static size_t desc_blocks(struct poly1305_desc *d, const uint8_t *src, size_t len,
			  const poly1305_core_ops *ops)
{
	if (!d->sset) {
		if (!d->rset && len >= POLY1305_BLOCK_SIZE) {
			ops->setkey(&d->r, src);
			d->rset = 1;
			src += POLY1305_BLOCK_SIZE;
			len -= POLY1305_BLOCK_SIZE;
		}
		if (len >= POLY1305_BLOCK_SIZE) {
			memcpy(d->s, src, POLY1305_BLOCK_SIZE);
			d->sset = 1;
			src += POLY1305_BLOCK_SIZE;
			len -= POLY1305_BLOCK_SIZE;
		}
	}
	if (len >= POLY1305_BLOCK_SIZE)
		ops->blocks(&d->h, &d->r, src, len / POLY1305_BLOCK_SIZE, 1);
	return len % POLY1305_BLOCK_SIZE;
}

void poly1305_desc_init(struct poly1305_desc *d)
{
	/*
	 * No ops argument here: this relies on every core representing h = 0
	 * as all-zero storage (true of the 26-bit and 64-bit limb cores).
	 * Doing so keeps this file free of any dependency on a specific core.
	 */
	memset(d, 0, sizeof(*d));
}

void poly1305_desc_update(struct poly1305_desc *d, const uint8_t *src, size_t len,
			  const poly1305_core_ops *ops)
{
	size_t n;

	if (len == 0)
		return;	/* also keeps a NULL src away from memcpy */

	if (d->buflen) {
		n = min_size(len, POLY1305_BLOCK_SIZE - d->buflen);
		memcpy(d->buf + d->buflen, src, n);
		d->buflen += (uint32_t)n;
		src += n;
		len -= n;
		if (d->buflen < POLY1305_BLOCK_SIZE)
			return;
		desc_blocks(d, d->buf, POLY1305_BLOCK_SIZE, ops);
		d->buflen = 0;
	}

	if (len >= POLY1305_BLOCK_SIZE) {
		size_t rest = desc_blocks(d, src, len, ops);

		src += len - rest;
		len = rest;
	}

	if (len) {
		memcpy(d->buf, src, len);
		d->buflen = (uint32_t)len;
	}
}

int poly1305_desc_final(struct poly1305_desc *d, uint8_t digest[16],
			const poly1305_core_ops *ops)
{
	uint8_t h[POLY1305_DIGEST_SIZE];
	unsigned int carry = 0;
	int i;

	if (!d->sset)
		return -POLY1305_ENOKEY;

	if (d->buflen) {
		d->buf[d->buflen++] = 1;
		memset(d->buf + d->buflen, 0, POLY1305_BLOCK_SIZE - d->buflen);
		ops->blocks(&d->h, &d->r, d->buf, 1, 0);
		d->buflen = 0;
	}

	ops->emit(&d->h, h);

	/* digest = (h + s) mod 2^128, little-endian bytewise add */
	for (i = 0; i < POLY1305_DIGEST_SIZE; i++) {
		carry += (unsigned int)h[i] + d->s[i];
		digest[i] = (uint8_t)carry;
		carry >>= 8;
	}
	memzero_explicit(h, sizeof(h));
	return 0;
}

int poly1305_desc_digest(const uint8_t *src, size_t len, uint8_t digest[16],
			 const poly1305_core_ops *ops)
{
	struct poly1305_desc d;
	int rc;

	poly1305_desc_init(&d);
	poly1305_desc_update(&d, src, len, ops);
	rc = poly1305_desc_final(&d, digest, ops);
	memzero_explicit(&d, sizeof(d));
	return rc;
}

int poly1305_digest_call(const void *handle, char *digest, const char *src, size_t len)
{
	return poly1305_desc_digest((const uint8_t *)src, len, (uint8_t *)digest, handle);
}

/*
 * The one-call entry of the AES-NI mode drivers (aesni_modes_glue.py):
 * ``crypt(handle, dst, src, n, iv)`` in the shape that crypto_api's
 * skcipher direct path (crypto_api/direct.py skcipher_direct, and its C
 * entry point crypto_api/direct_call.c) calls, over one of the ECB, CBC,
 * CTR, XCTR or XTS routines of aesni.c, aesni_modes.c and aesni_vaes.c.
 *
 * No kernel counterpart (the kernel's drivers take scatterlist requests).
 * The caller's IV is never written: CBC and CTR advance a copy of it.
 * Lengths are the caller's to check (ECB/CBC a multiple of 16, XTS at
 * least 16); it returns the routine's status (XTS: -EINVAL below 16).
 * No ISA code here: it only dispatches, so it builds on every machine.
 */
#include <string.h>

#include "aesni_modes.h"

typedef void (*ecb_fn)(const struct aesni_ctx *, uint8_t *, const uint8_t *, size_t);
typedef void (*iv_fn)(const struct aesni_ctx *, uint8_t *, const uint8_t *, size_t, uint8_t *);
typedef void (*xctr_fn)(const struct aesni_ctx *, uint8_t *, const uint8_t *, size_t,
			const uint8_t *);
typedef int (*xts_fn)(const struct aesni_ctx *, const struct aesni_ctx *, uint8_t *,
		      const uint8_t *, size_t, const uint8_t *, int);

int aesni_mode_direct(const struct aesni_direct *h, char *dst, const char *src, size_t n,
		      const char *iv)
{
	uint8_t *out = (uint8_t *)dst;
	const uint8_t *in = (const uint8_t *)src;
	uint8_t ivcopy[16];
	int err = 0;

	switch (h->mode) {
	case AESNI_DIRECT_ECB:
		((ecb_fn)h->fn)(h->ctx, out, in, n / 16);
		return 0;
	case AESNI_DIRECT_CBC:		/* nblocks */
	case AESNI_DIRECT_CTR:		/* nbytes */
		memcpy(ivcopy, iv, 16);
		((iv_fn)h->fn)(h->ctx, out, in, h->mode == AESNI_DIRECT_CBC ? n / 16 : n, ivcopy);
		break;
	case AESNI_DIRECT_XCTR:	/* nbytes; the IV is only read */
		((xctr_fn)h->fn)(h->ctx, out, in, n, (const uint8_t *)iv);
		return 0;
	case AESNI_DIRECT_XTS:
		memcpy(ivcopy, iv, 16);
		err = ((xts_fn)h->fn)(h->ctx, h->ctx + 1, out, in, n, ivcopy, h->dec);
		break;
	default:
		return -22;
	}
	crypto_memzero(ivcopy, sizeof(ivcopy));
	return err;
}

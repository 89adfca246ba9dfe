/*
 * Standalone test program of the stitched ChaCha20-Poly1305 core, in place
 * (dst == src, the case a native arm64 host reaches and the qemu backend,
 * which copies every buffer, does not):
 *   "seal KEY NONCE AD PT"      -> ciphertext || tag
 *   "open KEY NONCE AD CT TAG"  -> one status byte (0 or 1 = EBADMSG) || buffer
 */
#include "harness.h"
#include "chacha20poly1305_neon.h"

static void handle(const char *op, struct arg *a, int nargs)
{
	uint8_t *buf;
	size_t n;
	int rc;

	if (!strcmp(op, "seal") && nargs == 4 && a[0].n == 32 && a[1].n == 12) {
		n = a[3].n;
		buf = calloc(n + 17, 1);
		memcpy(buf, a[3].p, n);
		chacha20poly1305_seal_neon(a[0].p, a[1].p, a[2].p, a[2].n, buf, n, buf);
		put_hex(buf, n + 16);
	} else if (!strcmp(op, "open") && nargs == 5 && a[0].n == 32 && a[1].n == 12 && a[4].n == 16) {
		n = a[3].n;
		buf = calloc(n + 2, 1);
		memcpy(buf + 1, a[3].p, n);
		rc = chacha20poly1305_open_neon(a[0].p, a[1].p, a[2].p, a[2].n, buf + 1, n, a[4].p, buf + 1);
		buf[0] = rc == 0 ? 0 : rc == -CP_NEON_EBADMSG ? 1 : 2;
		put_hex(buf, n + 1);
	} else {
		put_err("usage: seal KEY NONCE AD PT | open KEY NONCE AD CT TAG");
		return;
	}
	free(buf);
}

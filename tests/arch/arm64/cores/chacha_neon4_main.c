/* Standalone test program of chacha_neon4_xor: "xor STATE(64) SRC ROUNDS(u32)". */
#include "harness.h"
#include "chacha_neon4.h"

static void handle(const char *op, struct arg *a, int nargs)
{
	uint32_t state[16], before[16];
	uint8_t *dst;

	if (strcmp(op, "xor") || nargs != 3 || a[0].n != 64 || a[1].n % 256) {
		put_err("usage: xor STATE SRC ROUNDS");
		return;
	}
	memcpy(state, a[0].p, 64);
	memcpy(before, state, 64);
	dst = calloc(a[1].n + 1, 1);
	chacha_neon4_xor(state, dst, a[1].p, a[1].n, arg_u32(&a[2]));
	if (memcmp(state, before, 64))
		put_err("state changed");
	else
		put_hex(dst, a[1].n);
	free(dst);
}

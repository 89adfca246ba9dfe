/* Standalone test program of nh_neon (tests/arch/arm64/test_nh_neon_core.py). */
#include "harness.h"
#include "nh_neon.h"

/* "nh KEY(1072) MSG" -> the 32-byte NH value */
static void handle(const char *op, struct arg *a, int nargs)
{
	uint32_t key[268];
	uint8_t hash[32];

	if (strcmp(op, "nh") || nargs != 2 || a[0].n != sizeof(key)) {
		put_err("usage: nh KEY MSG");
		return;
	}
	memcpy(key, a[0].p, sizeof(key));
	nh_neon(key, a[1].p, a[1].n, hash);
	put_hex(hash, sizeof(hash));
}

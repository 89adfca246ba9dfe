/*
 * Standalone test program of poly1305_neon (the v5.0 "poly1305" descriptor:
 * the first 32 bytes are r then s).
 *
 *   "digest DATA"        the whole DATA in one update with the NEON core
 *   "mixed DATA PIECE"   updates of PIECE bytes (u32), alternately with the
 *                        NEON and the generic core, on one descriptor
 */
#include "harness.h"
#include "poly1305_desc.h"
#include "poly1305_neon.h"

static void handle(const char *op, struct arg *a, int nargs)
{
	struct poly1305_desc d;
	uint8_t out[16];

	if (nargs < 1 || poly1305_neon_desc_size() != sizeof(d)) {
		put_err("usage");
		return;
	}
	poly1305_desc_init(&d);
	if (!strcmp(op, "digest")) {
		poly1305_neon_update(&d, a[0].p, a[0].n);
	} else if (!strcmp(op, "mixed") && nargs == 2) {
		size_t piece = arg_u32(&a[1]), pos = 0;
		int neon = 1;

		while (pos < a[0].n) {
			size_t n = a[0].n - pos < piece ? a[0].n - pos : piece;

			if (neon)
				poly1305_neon_update(&d, a[0].p + pos, n);
			else
				poly1305_desc_update(&d, a[0].p + pos, n, &poly1305_generic_ops);
			neon = !neon;
			pos += n;
		}
	} else {
		put_err("usage");
		return;
	}
	if (poly1305_desc_final(&d, out, &poly1305_generic_ops)) {
		put_err("nokey");
		return;
	}
	put_hex(out, sizeof(out));
}

/*
 * Standalone test program of nhpoly1305_neon_update: "digest KEY(1088) MSG
 * PIECE(u32)": init, updates of PIECE bytes alternately with the NEON and the
 * generic NH, final (generic, as the glue does).
 */
#include "harness.h"
#include "nhpoly1305.h"
#include "nhpoly1305_neon.h"

static void handle(const char *op, struct arg *a, int nargs)
{
	struct nhpoly1305_key key;
	struct nhpoly1305_state st;
	size_t piece, pos = 0;
	uint8_t out[16];
	int neon = 1;

	if (strcmp(op, "digest") || nargs != 3 || a[0].n != NHPOLY1305_KEY_SIZE ||
	    nhpoly1305_neon_state_size() != sizeof(st) || nhpoly1305_neon_key_size() != sizeof(key)) {
		put_err("usage: digest KEY MSG PIECE");
		return;
	}
	piece = arg_u32(&a[2]);
	nhpoly1305_setkey(&key, a[0].p, &poly1305_generic_ops);
	nhpoly1305_init(&st, &poly1305_generic_ops);
	while (pos < a[1].n) {
		size_t n = a[1].n - pos < piece ? a[1].n - pos : piece;

		if (neon)
			nhpoly1305_neon_update(&st, &key, a[1].p + pos, n);
		else
			nhpoly1305_update(&st, &key, a[1].p + pos, n, nh_generic, &poly1305_generic_ops);
		neon = !neon;
		pos += n;
	}
	nhpoly1305_final(&st, &key, out, nh_generic, &poly1305_generic_ops);
	put_hex(out, sizeof(out));
}

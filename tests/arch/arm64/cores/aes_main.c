/*
 * Standalone test program of the arm64 AES cores (aes_arm64.c, aes_ce.c
 * when built with AES_CE, aes_neon_xctr.c when built with AES_NEON).  Keys
 * are expanded by the generic code (algs/aes_generic.c), as the aes-arm64
 * and aes-neon-blk glue do, or by aes_ce_expandkey.
 *
 *   "enc KEY BLOCK" / "dec KEY BLOCK"         scalar core, generic schedule
 *   "neonenc KEY BLOCK"                       NEON table core, generic schedule
 *   "ceenc KEY BLOCK" / "cedec KEY BLOCK"     CE core, CE schedule
 *   "cekeys KEY"                              CE schedule: key_enc || key_dec
 *                                             (4*(rounds+1) words each)
 */
#include "harness.h"
#include "aes_arm64.h"
#include "aes_generic.h"
#ifdef AES_NEON
#include "aes_neon_xctr.h"
#endif

static void handle(const char *op, struct arg *a, int nargs)
{
	struct crypto_aes_ctx ctx;
	unsigned int rounds;
	uint8_t out[16];

	if (nargs < 1) {
		put_err("usage");
		return;
	}
	rounds = 6 + (unsigned int)a[0].n / 4;
	if (op[0] != 'c' && aes_expandkey_generic(&ctx, a[0].p, a[0].n)) {
		put_err("bad key");
		return;
	}
	if (!strcmp(op, "enc") && nargs == 2)
		aes_arm64_encrypt(ctx.key_enc, out, a[1].p, rounds);
	else if (!strcmp(op, "dec") && nargs == 2)
		aes_arm64_decrypt(ctx.key_dec, out, a[1].p, rounds);
#ifdef AES_NEON
	else if (!strcmp(op, "neonenc") && nargs == 2)
		aes_neon_encrypt(ctx.key_enc, out, a[1].p, rounds);
#endif
#ifdef AES_CE
	else if (!strcmp(op, "cekeys") || !strcmp(op, "ceenc") || !strcmp(op, "cedec")) {
		uint32_t enc[60], dec[60];

		memset(enc, 0, sizeof(enc));
		memset(dec, 0, sizeof(dec));
		if (aes_ce_expandkey(enc, dec, a[0].p, (unsigned int)a[0].n)) {
			put_err("ce bad key");
			return;
		}
		if (op[2] == 'k') {
			uint8_t both[480];
			unsigned int n = 16 * (rounds + 1);

			memcpy(both, enc, n);
			memcpy(both + n, dec, n);
			put_hex(both, 2 * n);
			return;
		}
		if (nargs != 2) {
			put_err("usage");
			return;
		}
		if (op[2] == 'e')
			aes_ce_encrypt(enc, out, a[1].p, rounds);
		else
			aes_ce_decrypt(dec, out, a[1].p, rounds);
	}
#endif
	else {
		put_err("usage");
		return;
	}
	put_hex(out, sizeof(out));
}

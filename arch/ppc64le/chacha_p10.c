/*
 * chacha_p10le_8x (arch/powerpc/crypto/chacha-p10le-8x.S, 6.5): eight
 * blocks (two interleaved four-block sets) per iteration while 512 bytes
 * remain, then four blocks per iteration; len must be a multiple of 256;
 * nrounds 12 or 20; 32-bit counter lanes +0..+7; the state is not written
 * back.  Built -mcpu=power10 as an object of its own: the helper holding it
 * still starts on POWER9, and the glue calls it only when HWCAP2 reports
 * arch_3_1.
 */
#include "chacha_vsx.h"

static void chacha_p10_8block(const uint32_t *state, uint32_t ctr, uint8_t *dst,
			      const uint8_t *src, int nrounds)
{
	vu32 x[16], y[16];

	capi_chacha_vsx_load(x, state, ctr);
	capi_chacha_vsx_load(y, state, ctr + 4);
	for (int i = 0; i < nrounds; i += 2) {
		CAPI_QR(x[0], x[4], x[8], x[12]);   CAPI_QR(y[0], y[4], y[8], y[12]);
		CAPI_QR(x[1], x[5], x[9], x[13]);   CAPI_QR(y[1], y[5], y[9], y[13]);
		CAPI_QR(x[2], x[6], x[10], x[14]);  CAPI_QR(y[2], y[6], y[10], y[14]);
		CAPI_QR(x[3], x[7], x[11], x[15]);  CAPI_QR(y[3], y[7], y[11], y[15]);
		CAPI_QR(x[0], x[5], x[10], x[15]);  CAPI_QR(y[0], y[5], y[10], y[15]);
		CAPI_QR(x[1], x[6], x[11], x[12]);  CAPI_QR(y[1], y[6], y[11], y[12]);
		CAPI_QR(x[2], x[7], x[8], x[13]);   CAPI_QR(y[2], y[7], y[8], y[13]);
		CAPI_QR(x[3], x[4], x[9], x[14]);   CAPI_QR(y[3], y[4], y[9], y[14]);
	}
	capi_chacha_vsx_out(x, state, ctr, dst, src);
	capi_chacha_vsx_out(y, state, ctr + 4, dst + 256, src + 256);
}

void chacha_p10le_8x(const uint32_t *state, uint8_t *dst, const uint8_t *src, size_t len,
		     int nrounds)
{
	uint32_t ctr = state[12];
	size_t off = 0;

	for (; off + 512 <= len; off += 512, ctr += 8)
		chacha_p10_8block(state, ctr, dst + off, src + off, nrounds);
	for (; off + 256 <= len; off += 256, ctr += 4)
		capi_chacha_vsx_4block(state, ctr, dst + off, src + off, nrounds);
}

/* One AESE+AESMC round with the ARMv8 crypto extensions: SIGILL on a CPU without them. */
#include <arm_neon.h>
#include <stdint.h>

#include "backend_probe.h"

void probe_aese(uint8_t *block, const uint8_t *roundkey)
{
	uint8x16_t b = vld1q_u8(block);

	b = vaesmcq_u8(vaeseq_u8(b, vld1q_u8(roundkey)));
	vst1q_u8(block, b);
}

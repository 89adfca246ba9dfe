/*
 * The v5.0 x86 ChaCha glue loop (arch/x86/crypto/chacha_glue.c) for a request
 * whose source and destination are each one contiguous buffer.
 *
 * The skcipher walk over such a request cuts a step at every page boundary of
 * either buffer; a non-final step is rounded down to the 64-byte ChaCha block,
 * and a step that would be shorter than one block (at a page boundary) is
 * bounced through a block-sized buffer -- over contiguous memory that is the
 * same as processing the 64 bytes in place.  Each non-final step uses up part
 * of a 4096-byte budget; when it is gone the glue releases and retakes the
 * FPU.  This loop walks exactly those steps, and records the bytes processed
 * in each FPU section so that the Python side can replay them into the FPU
 * trace; the SIMD routine runs once per section (once per request when no
 * sections are recorded), as the steps of a section are contiguous whole
 * blocks.  The SIMD routine is passed in as a function pointer: one of the
 * workers of chacha_x86.h, which leave their stack to this loop to wipe, once
 * per request rather than once per step.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "chacha_glue_walk.h"
#include "byteorder.h"
#include "chacha_x86.h"
#include "memzero.h"

#define WALK_PAGE_SIZE 4096u
#define CHACHA_BLOCK 64u
#define FPU_YIELD_BYTES 4096

size_t chacha_glue_walk_contiguous(chacha_crypt_fn crypt, uint32_t state[16], uint8_t *dst,
				   const uint8_t *src, size_t total, size_t src_off,
				   size_t dst_off, int nrounds, uint32_t *sections,
				   size_t max_sections)
{
	long budget = FPU_YIELD_BYTES;
	size_t nsec = 0, pending = 0;
	uint32_t cur = 0;

	while (total) {
		size_t n = min_size(total, WALK_PAGE_SIZE - src_off % WALK_PAGE_SIZE);
		size_t bsize = min_size(CHACHA_BLOCK, total);
		size_t step;

		n = min_size(n, WALK_PAGE_SIZE - dst_off % WALK_PAGE_SIZE);
		step = n < bsize ? bsize : n;	/* a bounced step covers one block */
		if (step < total) {
			step -= step % CHACHA_BLOCK;
			budget -= (long)step;
		}
		pending += step;
		cur += (uint32_t)step;
		if (budget <= 0) {
			if (sections) {
				/* a recorded section ends here: its bytes in one call */
				crypt(state, dst, src, pending, nrounds);
				src += pending;
				dst += pending;
				pending = 0;
				if (nsec < max_sections)
					sections[nsec] = cur;
			}
			nsec++;
			cur = 0;
			budget = FPU_YIELD_BYTES;
		}
		src_off += step;
		dst_off += step;
		total -= step;
	}
	if (sections && nsec < max_sections)
		sections[nsec] = cur;
	/*
	 * The steps are contiguous and every step but the last is a whole
	 * number of blocks, so the steps of one section (or, when nothing
	 * records sections, of the whole request, which the caller then counts
	 * as one section) in one call give the same bytes and counter.
	 */
	if (pending)
		crypt(state, dst, src, pending, nrounds);
	/* crypt is a worker that leaves its stack unwiped (chacha_x86.h): once here */
	memzero_stack(CHACHA_X86_STACK_USE);
	return nsec + 1;
}

size_t chacha_glue_crypt_contiguous(chacha_crypt_fn crypt, hchacha_fn hchacha,
				    const uint8_t key[32], const uint8_t *iv, uint8_t *dst,
				    const uint8_t *src, size_t total, size_t src_off,
				    size_t dst_off, int nrounds, uint32_t *sections,
				    size_t max_sections)
{
	static const uint32_t sigma[4] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 };
	uint32_t state[16], subkey[8];
	size_t nsec;
	int i;

	memcpy(state, sigma, sizeof(sigma));
	for (i = 0; i < 8; i++)
		state[4 + i] = get_le32(key + 4 * i);
	for (i = 0; i < 4; i++)
		state[12 + i] = get_le32(iv + 4 * i);
	if (hchacha) {
		/* XChaCha: subkey from HChaCha over the first 16 nonce bytes, then
		 * words 12-15 = stream position (iv[24:32]) || nonce tail (iv[16:24]) */
		hchacha(state, subkey, nrounds);
		memcpy(state + 4, subkey, sizeof(subkey));
		state[12] = get_le32(iv + 24);
		state[13] = get_le32(iv + 28);
		state[14] = get_le32(iv + 16);
		state[15] = get_le32(iv + 20);
	}
	nsec = chacha_glue_walk_contiguous(crypt, state, dst, src, total, src_off, dst_off,
					   nrounds, sections, max_sections);
	/* the key schedule must not outlive the request */
	memzero_explicit(state, sizeof(state));
	memzero_explicit(subkey, sizeof(subkey));
	return nsec;
}

/*
 * Test harness for tests/arch/test_build_isa.py: runs one x86 ChaCha entry
 * (chacha_dosimd_<isa> or hchacha_block_ssse3) over zeros, so that its
 * output is the keystream (or the HChaCha output), then reads the stack
 * below main's frame, where the entry's frames were, and prints how many
 * 16-byte pieces of that output it finds there.  "glue-<isa>" runs XChaCha20
 * through the C glue loop (chacha_glue_walk.c) over the worker of <isa>,
 * which leaves the wipe to the loop.  "aead" and "aead512" seal zeros with
 * the one-pass ChaCha20-Poly1305 (chacha20poly1305_avx2.c, its AVX2 and
 * AVX-512 forms), whose sweep runs chunk by chunk and wipes once.  "leak" is the positive control: a
 * function that leaves keystream on its stack unwiped.
 *
 * Usage: stack_residue <ssse3|avx2|avx512vl|avx512|hchacha|lanes|aead|aead512|leak|glue-<isa>> <bytes>
 * Exit 77: the CPU lacks the instruction set.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chacha20poly1305_avx2.h"
#include "chacha_glue_walk.h"
#include "chacha_x86.h"
#include "residue_scan.h"

typedef void (*crypt_fn)(uint32_t *, uint8_t *, const uint8_t *, size_t, int);

static uint8_t out[8192 + 16];		/* (room for an AEAD tag) */

static void set_state(uint32_t state[16], uint32_t seed)
{
	int i;

	for (i = 0; i < 16; i++)
		state[i] = 0x01010101u * (uint32_t)(i + 1) + seed;
}

static __attribute__((noinline)) void run(crypt_fn f, size_t len, uint32_t seed)
{
	uint32_t state[16];

	set_state(state, seed);
	memset(out, 0, sizeof(out));
	f(state, out, out, len, 20);
	memzero_explicit(state, sizeof(state));
}

/* The eight-lane entries (AVX2): eight streams of len / 8 bytes side by side
 * over out, then the eight HChaCha subkeys after them (256 bytes). */
static __attribute__((noinline)) void run_lanes(size_t len, uint32_t seed)
{
	uint32_t states[8][16];
	int i;

	for (i = 0; i < 8; i++)
		set_state(states[i], seed + 0x100u * (uint32_t)i);
	memset(out, 0, sizeof(out));
	chacha_lanes_xor_avx2(&states[0][0], out, out, len / 8, len / 8, 8, 20);
	hchacha_lanes_avx2(&states[0][0], (uint32_t *)(out + len), 8, 20);
	memzero_explicit(states, sizeof(states));
}

static __attribute__((noinline)) void run_hchacha(uint32_t seed)
{
	uint32_t state[16];

	set_state(state, seed);
	hchacha_block_ssse3(state, (uint32_t *)out, 20);
	memzero_explicit(state, sizeof(state));
}

static __attribute__((noinline)) void run_glue(crypt_fn worker, size_t len, uint32_t seed)
{
	uint8_t key[32], iv[32];

	memset(key, (int)seed, sizeof(key));
	memset(iv, (int)seed + 1, sizeof(iv));
	memset(out, 0, sizeof(out));
	chacha_glue_crypt_contiguous(worker, hchacha_block_ssse3, key, iv, out, out, len,
				 (size_t)seed * 64, (size_t)seed * 128, 20, NULL, 0);
	memzero_explicit(key, sizeof(key));
}

static __attribute__((noinline)) void run_aead(size_t len, uint32_t seed, int avx512)
{
	uint8_t key[32], nonce[12];

	memset(key, (int)seed, sizeof(key));
	memset(nonce, (int)seed + 1, sizeof(nonce));
	memset(out, 0, sizeof(out));
	(avx512 ? chacha20poly1305_seal_avx512 : chacha20poly1305_seal_avx2)(key, nonce, out, 13,
									      out, len, out);
	memzero_explicit(key, sizeof(key));
}

/* Positive control: keystream left in a stack buffer, unwiped. */
static __attribute__((noinline)) void leak(crypt_fn f, size_t len, uint32_t seed)
{
	volatile uint8_t local[1024];
	size_t i;

	run(f, len, seed);
	for (i = 0; i < len && i < sizeof(local); i++)
		local[i] = out[i];
}

int main(int argc, char **argv)
{
	const char *isa;
	size_t len;
	crypt_fn f = chacha_dosimd_ssse3, worker = chacha_ssse3_blocks;

	if (argc != 3)
		return 2;
	isa = argv[1];
	len = strtoul(argv[2], NULL, 0);
	if (len > sizeof(out) - 16)
		return 2;
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("ssse3"))
		return 77;
	if (!strncmp(isa, "glue-", 5))
		isa += 5;
	if (!strcmp(isa, "avx2") || !strcmp(isa, "aead")) {
		if (!__builtin_cpu_supports("avx2"))
			return 77;
		f = chacha_dosimd_avx2;
		worker = chacha_avx2_blocks;
	} else if (!strcmp(isa, "avx512vl") || !strcmp(isa, "avx512") || !strcmp(isa, "aead512")) {
		if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("avx512f") ||
		    !__builtin_cpu_supports("avx512vl") || !__builtin_cpu_supports("avx512bw"))
			return 77;
		f = !strcmp(isa, "avx512") ? chacha_dosimd_avx512 : chacha_dosimd_avx512vl;
		worker = !strcmp(isa, "avx512") ? chacha_avx512_blocks : chacha_avx512vl_blocks;
	}
	/* a first call with another state resolves the lazy PLT entries (the
	 * dynamic linker's resolver saves the vector registers on the stack,
	 * which is outside this code's reach) */
	if (!strncmp(argv[1], "glue-", 5)) {
		run_glue(worker, len, 7);
		run_glue(worker, len, 1);
	} else if (!strcmp(isa, "aead") || !strcmp(isa, "aead512")) {
		run_aead(len, 7, !strcmp(isa, "aead512"));
		run_aead(len, 1, !strcmp(isa, "aead512"));
	} else if (!strcmp(isa, "lanes")) {
		if (!__builtin_cpu_supports("avx2") || len % 8 || len + 256 > sizeof(out))
			return !__builtin_cpu_supports("avx2") ? 77 : 2;
		run_lanes(len, 7);
		run_lanes(len, 1);
		len += 256;
	} else if (!strcmp(isa, "hchacha")) {
		run_hchacha(7);
		run_hchacha(1);
		len = 32;
	} else if (!strcmp(isa, "leak")) {
		run(f, len, 7);
		leak(f, len, 1);
	} else {
		run(f, len, 7);
		run(f, len, 1);
	}
	printf("%zu\n", scan_stack(out, len / 16));
	return 0;
}

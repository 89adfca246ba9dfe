/*
 * Test harness for tests/algs/test_wipes.py: runs one routine of the
 * portable C code on known input, then reads the stack below main's frame,
 * where the routine's frames were, and prints how many of the 16-byte
 * secrets it made are still there.
 *
 *   ctr      modes_ctr over zeros: the output is the keystream;
 *   xctr     modes_xctr over zeros: the same for XCTR's keystream (and the
 *            counter blocks it encrypted are not secret: the IV is public);
 *   cbc      modes_cbc_decrypt: the secrets are the decrypted blocks before
 *            the chaining XOR (D(c), computed here beforehand);
 *   xts      modes_xts_crypt with a partial last block (ciphertext
 *            stealing): the secrets are the tweaks of every block;
 *   sha256   sha256_digest_bytes: the secrets are the message as the
 *            schedule holds it (big-endian words in host order) and as the
 *            state's buffer holds it (the chaining value is not one: after
 *            the last block it is the digest);
 *   sha1, sha512
 *            init, update and final on a state on the stack: the secrets
 *            are the message as the schedule holds it (32- or 64-bit
 *            big-endian words in host order) and as the buffer holds it;
 *   leak     positive control: keystream copied to an unwiped stack buffer.
 *
 * Usage: generic_residue <ctr|xctr|cbc|xts|sha256|sha1|sha512|leak> <bytes>
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aes_generic.h"
#include "memzero.h"
#include "modes_core.h"
#include "residue_scan.h"
#include "sha1_generic.h"
#include "sha256_generic.h"
#include "sha512_generic.h"

#define MAX_LEN 4096

static uint8_t buf[MAX_LEN], secrets[2 * MAX_LEN + 64];
static size_t nsecrets;			/* 16-byte pieces in secrets[] */
static struct crypto_aes_ctx ctx;

static void aes_enc(const void *c, uint8_t *out, const uint8_t *in)
{
	aes_encrypt_generic(c, out, in);
}

static void aes_dec(const void *c, uint8_t *out, const uint8_t *in)
{
	aes_decrypt_generic(c, out, in);
}

/* Bytes no other seed (or shift of them) gives: an xorshift stream. */
static void fill(uint8_t *p, size_t len, uint8_t seed)
{
	uint32_t x = 0x9e3779b9u * (seed + 1u);
	size_t i;

	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (uint8_t)(x >> 24);
	}
}

static void setup(uint8_t seed)
{
	uint8_t key[32];

	memset(key, seed, sizeof(key));
	aes_expandkey_generic(&ctx, key, sizeof(key));
	memzero_explicit(key, sizeof(key));
	nsecrets = 0;
}

static __attribute__((noinline)) void run_ctr(size_t len, uint8_t seed)
{
	uint8_t ctr[16];

	setup(seed);
	memset(ctr, seed, sizeof(ctr));
	memset(buf, 0, len);
	modes_ctr(aes_enc, &ctx, buf, buf, len, ctr);
	memcpy(secrets, buf, len);
	nsecrets = len / 16;
}

static __attribute__((noinline)) void run_xctr(size_t len, uint8_t seed)
{
	uint8_t iv[16];

	setup(seed);
	memset(iv, seed, sizeof(iv));
	memset(buf, 0, len);
	modes_xctr(aes_enc, &ctx, buf, buf, len, iv, 1);
	memcpy(secrets, buf, len);
	nsecrets = len / 16;
}

static __attribute__((noinline)) void run_cbc(size_t len, uint8_t seed)
{
	uint8_t iv[16];
	size_t i;

	setup(seed);
	fill(buf, len, seed);
	for (i = 0; i + 16 <= len; i += 16)
		aes_decrypt_generic(&ctx, secrets + i, buf + i);
	nsecrets = len / 16;
	memset(iv, seed, sizeof(iv));
	modes_cbc_decrypt(aes_dec, &ctx, buf, buf, len / 16, iv);
}

static __attribute__((noinline)) void run_xts(size_t len, uint8_t seed)
{
	uint8_t iv[16], t[16];
	size_t i, blocks = (len + 15) / 16;

	setup(seed);
	memset(iv, seed + 1, sizeof(iv));
	aes_encrypt_generic(&ctx, t, iv);
	for (i = 0; i <= blocks; i++) {
		memcpy(secrets + 16 * i, t, 16);
		modes_gf128mul_x_ble(t);
	}
	nsecrets = blocks + 1;
	memzero_explicit(t, sizeof(t));
	fill(buf, len, seed);
	modes_xts_crypt(aes_enc, &ctx, aes_enc, &ctx, iv, buf, buf, len, 1);
}

static __attribute__((noinline)) void run_sha256(size_t len, uint8_t seed)
{
	uint8_t digest[32];
	size_t i, w;

	fill(buf, len, seed);
	for (i = 0; i < len; i += 4)			/* the schedule's W[0..15] */
		for (w = 0; w < 4; w++)
			secrets[i + w] = buf[i + 3 - w];
	memcpy(secrets + len, buf, len);		/* the buffered message */
	nsecrets = 2 * len / 16;
	sha256_digest_bytes(buf, len, digest, 32, sha256_blocks_generic);
}

/* The message as a schedule of ``word``-byte big-endian words holds it in
 * host (little-endian) order, then as the buffer holds it. */
static void message_secrets(size_t len, uint8_t seed, size_t word)
{
	size_t i, w;

	fill(buf, len, seed);
	for (i = 0; i < len; i += word)
		for (w = 0; w < word; w++)
			secrets[i + w] = buf[i + word - 1 - w];
	memcpy(secrets + len, buf, len);
	nsecrets = 2 * len / 16;
}

static __attribute__((noinline)) void run_sha1(size_t len, uint8_t seed)
{
	struct sha1_state s;
	uint8_t digest[SHA1_DIGEST_SIZE];

	message_secrets(len, seed, 4);
	sha1_init(&s);
	sha1_update(&s, buf, len);
	sha1_final(&s, digest);
}

static __attribute__((noinline)) void run_sha512(size_t len, uint8_t seed)
{
	struct sha512_state s;
	uint8_t digest[SHA512_DIGEST_SIZE];

	message_secrets(len, seed, 8);
	sha512_init(&s);
	sha512_update(&s, buf, len);
	sha512_final(&s, digest, SHA512_DIGEST_SIZE);
}

/* Positive control: keystream left in a stack buffer, unwiped. */
static __attribute__((noinline)) void leak(size_t len, uint8_t seed)
{
	volatile uint8_t local[MAX_LEN];
	size_t i;

	run_ctr(len, seed);
	for (i = 0; i < len; i++)
		local[i] = buf[i];
	(void)local[0];
}

int main(int argc, char **argv)
{
	void (*run)(size_t, uint8_t);
	size_t len;

	if (argc != 3)
		return 2;
	len = strtoul(argv[2], NULL, 0);
	if (len < 16 || len > MAX_LEN)
		return 2;
	if (!strcmp(argv[1], "ctr"))
		run = run_ctr;
	else if (!strcmp(argv[1], "xctr"))
		run = run_xctr;
	else if (!strcmp(argv[1], "cbc"))
		run = run_cbc;
	else if (!strcmp(argv[1], "xts"))
		run = run_xts;
	else if (!strcmp(argv[1], "sha256"))
		run = run_sha256;
	else if (!strcmp(argv[1], "sha1"))
		run = run_sha1;
	else if (!strcmp(argv[1], "sha512"))
		run = run_sha512;
	else if (!strcmp(argv[1], "leak"))
		run = run_ctr;
	else
		return 2;
	/* a first run with another key resolves the lazy PLT entries */
	run(len, 7);
	if (!strcmp(argv[1], "leak"))
		leak(len, 1);
	else
		run(len, 1);
	printf("%zu\n", scan_stack(secrets, nsecrets));
	return 0;
}

/*
 * NHPoly1305 update with nh_neon: what arch/arm64/crypto/nhpoly1305-neon-glue.c
 * runs inside each NEON section, i.e. the generic streaming code
 * (algs/nhpoly1305.c, the kernel's crypto_nhpoly1305_update_helper) with the
 * NEON NH passed in and the generic 26-bit Poly1305 core (NEON accelerates
 * NH only).  The state and key are the caller's struct nhpoly1305_state /
 * struct nhpoly1305_key bytes, laid out as on the host (LP64,
 * little-endian); the glue compares the sizes below with its own.
 */
#include "nhpoly1305.h"
#include "nh_neon.h"
#include "nhpoly1305_neon.h"

void nhpoly1305_neon_update(void *state, const void *key, const uint8_t *src, size_t len)
{
	nhpoly1305_update(state, key, src, len, nh_neon, &poly1305_generic_ops);
}

size_t nhpoly1305_neon_state_size(void)
{
	return sizeof(struct nhpoly1305_state);
}

size_t nhpoly1305_neon_key_size(void)
{
	return sizeof(struct nhpoly1305_key);
}

/*
 * One Poly1305 block in general-purpose registers, radix 2^64, as asm text
 * for the ChaCha rounds that carry it (the stitched one-pass AEAD: the
 * 8-block AVX2 rounds in chacha_avx2.c, the 16-block AVX-512 rounds in
 * chacha_avx512f.c), so that the integer units hash while the vector units
 * make keystream.
 *
 * h += m + 2^128, then h *= r with the folded reduction of
 * poly1305_x86_64.c (h2 kept below 6 * 2^60 between blocks), m advanced by
 * 16.  Operands, by name: [h0] [h1] [h2] [m] read and written; [t0]..[t3]
 * scratch (early-clobbered outputs); [r0] [r1] [s1] [s0] the key as memory
 * operands (s1 = r1 + r1/4, s0 = 5 r0).  It uses rdx (mulx's implicit
 * factor) and the flags, and reads 16 bytes at m.
 */
#ifndef CRYPTO_API_POLY1305_X86_64_ASM_H
#define CRYPTO_API_POLY1305_X86_64_ASM_H

#define POLY1305_X86_64_BLOCK_ASM                                                \
	"add (%[m]), %[h0]\n\t"                                                   \
	"adc 8(%[m]), %[h1]\n\t"                                                  \
	"adc $1, %[h2]\n\t"                                                       \
	"mov %[h1], %%rdx\n\t"                                                    \
	"mulx %[s1], %[t0], %[t1]\n\t"		/* h1 s1 */                        \
	"mulx %[r0], %[t2], %[t3]\n\t"		/* h1 r0 */                        \
	"mov %[h0], %%rdx\n\t"                                                    \
	"mulx %[r0], %[h0], %[h1]\n\t"		/* h0 r0 */                        \
	"add %[t0], %[h0]\n\t"                                                    \
	"adc %[t1], %[h1]\n\t"                                                    \
	"mulx %[r1], %[t0], %[t1]\n\t"		/* h0 r1 */                        \
	"add %[t2], %[t0]\n\t"                                                    \
	"adc %[t3], %[t1]\n\t"                                                    \
	"mov %[h2], %%rdx\n\t"                                                    \
	"mulx %[s1], %[t2], %[t3]\n\t"		/* h2 s1 */                        \
	"add %[t2], %[t0]\n\t"                                                    \
	"adc %[t3], %[t1]\n\t"                                                    \
	"shr $2, %%rdx\n\t"                                                       \
	"mulx %[s0], %[t2], %[t3]\n\t"		/* (h2 >> 2) s0 */                 \
	"add %[t2], %[h0]\n\t"                                                    \
	"adc %[t3], %[h1]\n\t"			/* d0 in h1:h0 */                  \
	"and $3, %[h2]\n\t"                                                       \
	"imul %[r0], %[h2]\n\t"			/* (h2 & 3) r0 */                  \
	"add %[h1], %[t0]\n\t"                                                    \
	"adc $0, %[t1]\n\t"			/* d1 += d0 >> 64 */               \
	"mov %[t0], %[h1]\n\t"                                                    \
	"add %[t1], %[h2]\n\t"                                                    \
	"add $16, %[m]\n\t"

/* The operands it names, for an asm statement over locals h0, h1, h2, m,
 * t0..t3 and a key array rk[4] = r0, r1, s1, s0. */
#define POLY1305_X86_64_BLOCK_OUTPUTS                                            \
	[h0] "+r"(h0), [h1] "+r"(h1), [h2] "+r"(h2), [m] "+r"(m),                 \
	[t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3)
#define POLY1305_X86_64_BLOCK_INPUTS                                             \
	[r0] "m"(rk[0]), [r1] "m"(rk[1]), [s1] "m"(rk[2]), [s0] "m"(rk[3])

#endif

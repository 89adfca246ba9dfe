/*
 * AES-XTS, AES-CTR and AES-XCTR bulk code with VAES, the counterpart of the later
 * kernels' xts-/ctr-/xctr-aes-vaes-avx2, -vaes-avx10_256 and -vaes-avx10_512
 * (arch/x86/crypto/aes-xts-avx-x86_64.S, aes-ctr-avx-x86_64.S): one body,
 * aesni_vaes_body.h, built three times:
 *
 *   vaes_avx2       256-bit registers, VEX encoding (16 registers);
 *   vaes_avx10_256  256-bit registers, EVEX encoding (32 registers, VPTERNLOG);
 *   vaes_avx10_512  512-bit registers (four blocks each).
 *
 * Call each only when the CPU has what its target names (the glue checks).
 */
#include "aesni_modes.h"

#if defined(__x86_64__) || defined(__i386__)

/* ---- 256-bit, shared by vaes_avx2 and vaes_avx10_256 ---- */
#define VEC __m256i
#define VEC_BLOCKS 2
#define V_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define V_STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define V_XOR(a, b) _mm256_xor_si256((a), (b))
#define V_BCAST(x) _mm256_broadcastsi128_si256(x)
#define V_ENC(v, k) _mm256_aesenc_epi128((v), (k))
#define V_ENCLAST(v, k) _mm256_aesenclast_epi128((v), (k))
#define V_DEC(v, k) _mm256_aesdec_epi128((v), (k))
#define V_DECLAST(v, k) _mm256_aesdeclast_epi128((v), (k))
#define V_SLLQ(v, n) _mm256_slli_epi64((v), (n))
#define V_SRLQ(v, n) _mm256_srli_epi64((v), (n))
#define V_BSLLI8(v) _mm256_bslli_epi128((v), 8)
#define V_CLMUL_HI_LO(a, b) _mm256_clmulepi64_epi128((a), (b), 0x01)
#define V_ADDQ(a, b) _mm256_add_epi64((a), (b))
#define V_SHUFB(v, m) _mm256_shuffle_epi8((v), (m))
#define V_LANE0(v) _mm256_castsi256_si128(v)

#define VAES_TARGET X86_TARGET("vaes,vpclmulqdq,avx2,aes,pclmul,sse4.1")
#define VAES_NAME(x) aes_vaes_avx2_##x
#define V_XOR3(a, b, c) V_XOR(V_XOR((a), (b)), (c))
#include "aesni_vaes_body.h"
#undef VAES_TARGET
#undef VAES_NAME
#undef V_XOR3

#define VAES_TARGET X86_TARGET("vaes,vpclmulqdq,avx512f,avx512vl,avx512bw,avx2,aes,pclmul,sse4.1")
#define VAES_NAME(x) aes_vaes_avx10_256_##x
#define V_XOR3(a, b, c) _mm256_ternarylogic_epi32((a), (b), (c), 0x96)
#include "aesni_vaes_body.h"
#undef V_XOR3

#undef VEC
#undef VEC_BLOCKS
#undef V_LOAD
#undef V_STORE
#undef V_XOR
#undef V_BCAST
#undef V_ENC
#undef V_ENCLAST
#undef V_DEC
#undef V_DECLAST
#undef V_SLLQ
#undef V_SRLQ
#undef V_BSLLI8
#undef V_CLMUL_HI_LO
#undef V_ADDQ
#undef V_SHUFB
#undef V_LANE0
#undef VAES_NAME

/* ---- 512-bit: vaes_avx10_512 (same target as vaes_avx10_256) ---- */
#define VEC __m512i
#define VEC_BLOCKS 4
#define V_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define V_STORE(p, v) _mm512_storeu_si512((void *)(p), (v))
#define V_XOR(a, b) _mm512_xor_si512((a), (b))
#define V_XOR3(a, b, c) _mm512_ternarylogic_epi32((a), (b), (c), 0x96)
#define V_BCAST(x) _mm512_broadcast_i32x4(x)
#define V_ENC(v, k) _mm512_aesenc_epi128((v), (k))
#define V_ENCLAST(v, k) _mm512_aesenclast_epi128((v), (k))
#define V_DEC(v, k) _mm512_aesdec_epi128((v), (k))
#define V_DECLAST(v, k) _mm512_aesdeclast_epi128((v), (k))
#define V_SLLQ(v, n) _mm512_slli_epi64((v), (n))
#define V_SRLQ(v, n) _mm512_srli_epi64((v), (n))
#define V_BSLLI8(v) _mm512_bslli_epi128((v), 8)
#define V_CLMUL_HI_LO(a, b) _mm512_clmulepi64_epi128((a), (b), 0x01)
#define V_ADDQ(a, b) _mm512_add_epi64((a), (b))
#define V_SHUFB(v, m) _mm512_shuffle_epi8((v), (m))
#define V_LANE0(v) _mm512_castsi512_si128(v)
#define VAES_NAME(x) aes_vaes_avx10_512_##x
#include "aesni_vaes_body.h"

#else /* not x86: the glue never gets here, but keep the symbols */

#include <stdlib.h>

#define VAES_STUBS(name)								\
int name##_xts_crypt(const struct aesni_ctx *ctx, const struct aesni_ctx *tweak_ctx,	\
		     uint8_t *out, const uint8_t *in, size_t nbytes, const uint8_t *iv,	\
		     int dec)								\
{											\
	(void)ctx; (void)tweak_ctx; (void)out; (void)in; (void)nbytes; (void)iv;	\
	(void)dec;									\
	abort();									\
}											\
void name##_ctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,	\
		      size_t nbytes, uint8_t *iv)					\
{											\
	(void)ctx; (void)out; (void)in; (void)nbytes; (void)iv;				\
	abort();									\
}											\
void name##_xctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,	\
		       size_t nbytes, const uint8_t *iv)				\
{											\
	(void)ctx; (void)out; (void)in; (void)nbytes; (void)iv;				\
	abort();									\
}

VAES_STUBS(aes_vaes_avx2)
VAES_STUBS(aes_vaes_avx10_256)
VAES_STUBS(aes_vaes_avx10_512)

#endif

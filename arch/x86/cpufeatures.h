/*
 * x86 CPU feature probe (cpufeatures.c).  Names are lower case: sse2, sse3,
 * ssse3, sse4_1, sse4_2, pclmul (pclmulqdq), aes (aesni), xsave, osxsave,
 * avx, fma, avx2, bmi1, bmi2, adx, sha, avx512f, avx512dq, avx512cd,
 * avx512ifma, avx512bw, avx512vl, vaes, vpclmulqdq, and the OS state checks
 * xsave_ymm (os_ymm) and xsave_zmm (os_zmm).
 */
#ifndef CRYPTO_API_CPUFEATURES_H
#define CRYPTO_API_CPUFEATURES_H

#include <stdint.h>

/* 1 if the feature is present and usable (OS state enabled), else 0. */
/* cdef: begin */
int cpu_has(const char *name);
/* 1 if CPUID reports the feature bit, regardless of OS state. */
int cpu_cpuid_has(const char *name);
/* 1 if name is one of the names above (0 on a non-x86 build). */
int cpu_feature_known(const char *name);
/* XCR0 (0 without OSXSAVE or on non-x86). */
uint64_t cpu_xcr0(void);
/* cdef: end */

#endif

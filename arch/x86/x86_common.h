/*
 * Small helpers shared by the x86 SIMD cores of crypto_api (the C files in arch/x86).
 *
 * Every extension built from this directory exposes crypto_memzero(), the
 * one wiping routine of algs/include/memzero.h.
 */
#ifndef CRYPTO_API_X86_COMMON_H
#define CRYPTO_API_X86_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "memzero.h"

/* Internal symbols shared between the C files of one extension only. */
#define X86_INTERNAL __attribute__((visibility("hidden")))

#ifndef ENODEV
#define ENODEV 19
#endif
#ifndef EINVAL
#define EINVAL 22
#endif

/*
 * Per-function instruction sets.  No file is compiled with -m flags (cffi's
 * wrapper code, which runs on any CPU at import, is in the same extension):
 * each function of a SIMD file carries the target it needs, and the glue
 * checks the CPU (cpufeatures.c) before it calls any of them.
 */
#if defined(__x86_64__) || defined(__i386__)
#define X86_TARGET(isa) __attribute__((target(isa)))
#define X86_TARGET_SSE2 X86_TARGET("sse2")
#define X86_TARGET_SSSE3 X86_TARGET("ssse3")
#define X86_TARGET_AVX2 X86_TARGET("avx2")
#define X86_TARGET_AVX512 X86_TARGET("avx2,avx512f,avx512vl,avx512bw")
#define X86_TARGET_AESNI X86_TARGET("aes,sse4.1")
#endif

#endif

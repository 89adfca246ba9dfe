/*
 * Small helpers shared by the x86 SIMD cores of crypto_api (the C files in arch/x86).
 *
 * Every extension built from this directory exposes crypto_memzero(); it is
 * defined here as a static inline so that each shared object carries its own
 * copy and nothing is exported beyond what the cffi cdef names.
 */
#ifndef CRYPTO_API_X86_COMMON_H
#define CRYPTO_API_X86_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Internal symbols shared between the C files of one extension only. */
#define X86_INTERNAL __attribute__((visibility("hidden")))

#ifndef ENODEV
#define ENODEV 19
#endif
#ifndef EINVAL
#define EINVAL 22
#endif

/*
 * Clear n bytes at p in a way the optimiser may not drop: after the memset
 * the buffer's address escapes into an empty asm statement that claims to
 * read all of memory, so the stores are observable and must be kept.
 */
static inline void crypto_memzero(void *p, size_t n)
{
	memset(p, 0, n);
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

#endif

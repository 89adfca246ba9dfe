/*
 * memzero_explicit(): clear memory in a way the optimizer may not drop, for
 * wiping key material (the role of the kernel's memzero_explicit() from
 * include/linux/string.h).
 *
 * This is the only wiping routine of the C code (algs/ and arch/x86/).
 * With GCC or Clang the memset is an ordinary one (a wipe of a known small
 * size becomes a few stores in place, not a call), followed by an empty asm
 * statement that takes the pointer and clobbers memory: the compiler must
 * assume the asm reads the zeroed bytes, so it cannot drop the stores as
 * dead.  Elsewhere (portable C) memset is called through a volatile
 * function pointer, which the compiler cannot see through either.
 */
#ifndef CRYPTO_API_MEMZERO_H
#define CRYPTO_API_MEMZERO_H

#include <stddef.h>
#include <string.h>

static inline void memzero_explicit(void *p, size_t n)
{
#if defined(__GNUC__) || defined(__clang__)
	if (p != NULL && n != 0) {
		memset(p, 0, n);
		__asm__ __volatile__("" : : "r"(p) : "memory");
	}
#else
	static void *(*const volatile memset_fn)(void *, int, size_t) = memset;

	if (p != NULL && n != 0)
		memset_fn(p, 0, n);
#endif
}

/*
 * The name under which every cffi extension exports memzero_explicit() to
 * Python (lib.crypto_memzero) and the x86 cores call it: the same routine,
 * not a second implementation.
 */
static inline void crypto_memzero(void *p, size_t n)
{
	memzero_explicit(p, n);
}
/* cdef: begin */
/* cffi: void crypto_memzero(void *p, size_t n); */
/* cdef: end */

/*
 * memzero_stack(): clear the top `depth` bytes (at most MEMZERO_STACK_MAX)
 * of this function's own frame, which is the stack just below its caller's
 * frame.  Called right after a noinline worker returns, it wipes what the
 * worker's frames left there: keystream buffers, spilled registers holding
 * key-derived state.  `depth` is the worker's stack use with what it calls
 * (gcc -fstack-usage), rounded up; tests/arch/test_build_isa.py scans the
 * stack after each x86 ChaCha entry.
 */
#define MEMZERO_STACK_MAX 4096

static __attribute__((noinline, unused)) void memzero_stack(size_t depth)
{
	unsigned char area[MEMZERO_STACK_MAX];

	if (depth > sizeof(area))
		depth = sizeof(area);
	memzero_explicit(area + sizeof(area) - depth, depth);
}

#endif

/*
 * residue_scan.h: the stack scan of the tests' stack-residue harnesses
 * (tests/arch/data/stack_residue.c, tests/algs/data/generic_residue.c).
 *
 * Called from main right after the code under test has returned, it reads
 * SCAN_BYTES of its own uninitialised frame, which lies where that code's
 * frames were, and counts how many of the 16-byte pieces it is given are
 * still there (each found once at most, at any 4-byte-aligned offset).
 */
#ifndef TESTS_RESIDUE_SCAN_H
#define TESTS_RESIDUE_SCAN_H

#include <stddef.h>
#include <stdint.h>

#define SCAN_BYTES 65536

#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
static __attribute__((noinline, optimize("O0"))) size_t scan_stack(const uint8_t *pieces,
								   size_t npieces)
{
	volatile uint8_t probe[SCAN_BYTES];	/* left uninitialised: what was there */
	size_t found = 0, c, off, k;

	for (c = 0; c < npieces; c++) {
		for (off = 0; off + 16 <= SCAN_BYTES; off += 4) {
			for (k = 0; k < 16 && probe[off + k] == pieces[16 * c + k]; k++)
				;
			if (k == 16) {
				found++;
				break;
			}
		}
	}
	return found;
}

#endif

/*
 * The backend probes (backend_probe.c, aes_ce_probe.c): what the tests of
 * crypto_api.machine.backend call; no driver uses them.
 */
#ifndef CRYPTO_API_ARM64_BACKEND_PROBE_H
#define CRYPTO_API_ARM64_BACKEND_PROBE_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin backend_probe */
/* An empty call, a sum of a buffer and a write to every byte of one. */
void probe_nop(void);
uint64_t probe_sum(const uint8_t *buf, size_t len);
void probe_touch(uint8_t *buf, size_t len);
/* cdef: end */

/* cdef: begin aes_ce_probe */
/* One AESE round of block under roundkey (needs HWCAP aes). */
void probe_aese(uint8_t *block, const uint8_t *roundkey);
/* cdef: end */

#endif

/* Backend probes: call overhead and buffer round trips (crypto_api.machine). */
#include <stddef.h>
#include <stdint.h>

#include "backend_probe.h"

void probe_nop(void)
{
}

uint64_t probe_sum(const uint8_t *buf, size_t len)
{
	uint64_t s = 0;

	for (size_t i = 0; i < len; i++)
		s += buf[i];
	return s;
}

/* Adds one to every byte: shows that a non-const buffer travels in and out. */
void probe_touch(uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(buf[i] + 1);
}

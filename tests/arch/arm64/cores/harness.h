/*
 * Line protocol of the standalone arm64 core test programs (tests only).
 *
 * Each stdin line is "OP ARG ARG ...", every ARG hex ("-" for empty).  The
 * program answers each line with one line of hex (or "ERR <why>").  A test
 * main defines handle(); main() here reads, decodes and dispatches.
 */
#ifndef ARM64_TEST_HARNESS_H
#define ARM64_TEST_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 8

struct arg {
	uint8_t *p;
	size_t n;
};

/* Answer one request: print hex with put_hex(), or ERR via put_err(). */
static void handle(const char *op, struct arg *a, int nargs);

static void put_hex(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		printf("%02x", p[i]);
	putchar('\n');
}

static __attribute__((unused)) void put_err(const char *why)
{
	printf("ERR %s\n", why);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static __attribute__((unused)) uint32_t arg_u32(const struct arg *a)
{
	uint32_t v = 0;
	size_t i;

	for (i = 0; i < a->n && i < 4; i++)
		v |= (uint32_t)a->p[i] << (8 * i);
	return v;
}

int main(void)
{
	static char line[1 << 22];

	while (fgets(line, sizeof(line), stdin)) {
		struct arg a[MAX_ARGS];
		char *save = NULL, *op = strtok_r(line, " \n", &save), *tok;
		int n = 0, i;

		if (!op)
			continue;
		while ((tok = strtok_r(NULL, " \n", &save)) && n < MAX_ARGS) {
			size_t len = strcmp(tok, "-") ? strlen(tok) / 2 : 0;

			/* +64: room for cores that may read a little past a tail */
			a[n].p = calloc(len + 64, 1);
			a[n].n = len;
			for (i = 0; (size_t)i < len; i++)
				a[n].p[i] = (uint8_t)(hexval(tok[2 * i]) << 4 | hexval(tok[2 * i + 1]));
			n++;
		}
		handle(op, a, n);
		fflush(stdout);
		for (i = 0; i < n; i++)
			free(a[i].p);
	}
	return 0;
}

#endif

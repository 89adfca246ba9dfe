/*
 * CPU feature probe for the x86 glue (the role of the kernel's
 * boot_cpu_has() / cpu_has_xfeatures() checks in the arch/x86/crypto glue
 * modules, e.g. chacha_glue.c and nhpoly1305-avx2-glue.c).
 *
 * cpu_cpuid_has(name) reports the raw CPUID bit.  cpu_has(name) reports
 * whether the feature is usable: for AVX-class features the OS must also
 * have enabled the matching register state in XCR0 (read with XGETBV, only
 * when CPUID says OSXSAVE):
 *     "xsave_ymm" (alias "os_ymm"): XCR0 has SSE and YMM state (bits 1, 2);
 *     "xsave_zmm" (alias "os_zmm"): additionally opmask, ZMM_Hi256 and
 *                                   Hi16_ZMM state (bits 5, 6, 7).
 * avx/avx2/fma need xsave_ymm; avx512* need xsave_zmm too.
 * Unknown names report 0; cpu_feature_known() tells them apart.
 */
#include "x86_common.h"
#include "cpufeatures.h"

#if defined(__x86_64__) || defined(__i386__)

#include <cpuid.h>

enum reg { EAX, EBX, ECX, EDX };

struct feature {
	const char *name;
	unsigned int leaf;	/* 1 or 7 (subleaf 0) */
	enum reg reg;
	unsigned int bit;
	int state;		/* 0: none, 1: needs YMM state, 2: needs ZMM state */
};

static const struct feature features[] = {
	{ "sse2", 1, EDX, 26, 0 },
	{ "sse3", 1, ECX, 0, 0 },
	{ "pclmul", 1, ECX, 1, 0 },
	{ "pclmulqdq", 1, ECX, 1, 0 },
	{ "ssse3", 1, ECX, 9, 0 },
	{ "fma", 1, ECX, 12, 1 },
	{ "sse4_1", 1, ECX, 19, 0 },
	{ "sse4_2", 1, ECX, 20, 0 },
	{ "aes", 1, ECX, 25, 0 },
	{ "aesni", 1, ECX, 25, 0 },
	{ "xsave", 1, ECX, 26, 0 },
	{ "osxsave", 1, ECX, 27, 0 },
	{ "avx", 1, ECX, 28, 1 },
	{ "bmi1", 7, EBX, 3, 0 },
	{ "avx2", 7, EBX, 5, 1 },
	{ "bmi2", 7, EBX, 8, 0 },
	{ "avx512f", 7, EBX, 16, 2 },
	{ "avx512dq", 7, EBX, 17, 2 },
	{ "adx", 7, EBX, 19, 0 },
	{ "avx512ifma", 7, EBX, 21, 2 },
	{ "avx512cd", 7, EBX, 28, 2 },
	{ "sha", 7, EBX, 29, 0 },
	{ "avx512bw", 7, EBX, 30, 2 },
	{ "avx512vl", 7, EBX, 31, 2 },
	{ "vaes", 7, ECX, 9, 1 },
	{ "vpclmulqdq", 7, ECX, 10, 1 },
	{ "gfni", 7, ECX, 8, 0 },
};

#define XCR0_SSE (1u << 1)
#define XCR0_YMM (1u << 2)
#define XCR0_ZMM ((1u << 5) | (1u << 6) | (1u << 7))

static int cpuid_regs(unsigned int leaf, unsigned int r[4])
{
	unsigned int max = __get_cpuid_max(0, NULL);

	r[0] = r[1] = r[2] = r[3] = 0;
	if (leaf > max)
		return 0;
	__cpuid_count(leaf, 0, r[0], r[1], r[2], r[3]);
	return 1;
}

static int osxsave(void)
{
	unsigned int r[4];

	return cpuid_regs(1, r) && ((r[ECX] >> 27) & 1);
}

uint64_t cpu_xcr0(void)
{
	uint32_t lo, hi;

	if (!osxsave())
		return 0;
	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

static int os_ymm(void)
{
	return (cpu_xcr0() & (XCR0_SSE | XCR0_YMM)) == (XCR0_SSE | XCR0_YMM);
}

static int os_zmm(void)
{
	const uint64_t need = XCR0_SSE | XCR0_YMM | XCR0_ZMM;

	return (cpu_xcr0() & need) == need;
}

static const struct feature *lookup(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(features) / sizeof(features[0]); i++)
		if (strcmp(features[i].name, name) == 0)
			return &features[i];
	return NULL;
}

static int is_state_name(const char *name)
{
	return !strcmp(name, "xsave_ymm") || !strcmp(name, "os_ymm") ||
	       !strcmp(name, "xsave_zmm") || !strcmp(name, "os_zmm");
}

int cpu_cpuid_has(const char *name)
{
	const struct feature *f = lookup(name);
	unsigned int r[4];

	if (!f || !cpuid_regs(f->leaf, r))
		return 0;
	return (int)((r[f->reg] >> f->bit) & 1);
}

int cpu_has(const char *name)
{
	const struct feature *f;

	if (!strcmp(name, "xsave_ymm") || !strcmp(name, "os_ymm"))
		return os_ymm();
	if (!strcmp(name, "xsave_zmm") || !strcmp(name, "os_zmm"))
		return os_zmm();
	f = lookup(name);
	if (!f || !cpu_cpuid_has(name))
		return 0;
	if (f->state == 1)
		return os_ymm();
	if (f->state == 2)
		return os_zmm();
	return 1;
}

int cpu_feature_known(const char *name)
{
	return lookup(name) != NULL || is_state_name(name);
}

#else /* not x86: nothing is there */

int cpu_has(const char *name)
{
	(void)name;
	return 0;
}

int cpu_cpuid_has(const char *name)
{
	(void)name;
	return 0;
}

int cpu_feature_known(const char *name)
{
	(void)name;
	return 0;
}

uint64_t cpu_xcr0(void)
{
	return 0;
}

#endif

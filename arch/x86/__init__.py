"""x86 SIMD drivers (arch/x86/crypto): C with intrinsics through cffi.  No
file is compiled with -m flags: each SIMD function carries a target attribute
for its instruction set (x86_common.h), so the cffi wrapper code stays
baseline x86-64 and imports on any CPU (some cores are built once per ISA,
ChaCha for SSSE3, AVX2, AVX-512VL and AVX-512F).  Which code a driver calls,
and which drivers register, is chosen at module init from the CPU's
features."""

"""x86 SIMD drivers (arch/x86/crypto): C with intrinsics through cffi, each
ISA compiled with its own -m flags, chosen at module init from CPU features."""

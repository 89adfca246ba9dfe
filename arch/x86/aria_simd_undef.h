/*
 * aria_simd_undef.h: forget every parameter of one aria_simd.h instance
 * (width and S-box macros alike), before arch/x86/aria_x86.c defines the
 * next width.  Between the two S-box variants of one width only the name,
 * the target and the S-box macros change, and aria_x86.c undefines those.
 */
#undef ARIA_SUFFIX
#undef ARIA_TARGET
#undef ARIA_LANES
#undef vec_t
#undef V_LOAD
#undef V_STORE
#undef V_XOR
#undef V_XOR3
#undef V_AND
#undef V_BCAST8
#undef V_BCAST32
#undef V_UNPLO8
#undef V_UNPHI8
#undef V_ADD8
#undef V_SUB8
#undef V_EQ8
#undef V_LTU8
#undef V_NONE
#undef V_SLLI64
#undef V_SRLI64
#undef V_SWAP64
#undef V_S1
#undef V_S2
#undef V_X1
#undef V_X2

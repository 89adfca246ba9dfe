"""The arm64 ChaCha NEON core (arch/arm64/crypto/chacha-neon-core.S, v5.0 entry points)."""

from crypto_api.machine.core import Core

CORES = [
    Core(name="chacha_neon",
         sources=("chacha_neon.c",),
         cdef="""
             void chacha_block_xor_neon(const uint32_t *state, uint8_t *dst, const uint8_t *src,
                                        int nrounds);
             void chacha_4block_xor_neon(const uint32_t *state, uint8_t *dst, const uint8_t *src,
                                         int nrounds, int bytes);
             void hchacha_block_neon(const uint32_t *state, uint32_t *out, int nrounds);
             void chacha_doneon(uint32_t *state, uint8_t *dst, const uint8_t *src,
                                unsigned int bytes, int nrounds);
         """,
         cflags=("-march=armv8-a",),
         feature="asimd"),
]

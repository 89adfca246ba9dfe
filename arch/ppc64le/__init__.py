"""The ppc64le (POWER8/9/10) machine's drivers: vmx-crypto's p8_aes, the POWER10 ChaCha and Poly1305, a seed-design VSX ChaCha."""

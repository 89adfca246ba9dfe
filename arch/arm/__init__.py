"""arm (32-bit ARMv7) drivers: their C cores run on the emulated arm machine (crypto_api.machine)."""

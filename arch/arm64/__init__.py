"""arm64 drivers (arch/arm64/crypto): glue modules, their C cores and the core list."""

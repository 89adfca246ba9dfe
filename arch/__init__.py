"""Architecture-specific drivers (the kernel's arch/*/crypto)."""

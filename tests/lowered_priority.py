"""Whether the emulated machine's glue registers the version table's lowered
priorities (Row.lowered) on this host: the x86 512-bit drivers at 1 on a CPU
that discourages 512-bit vectors (prefer_ymm).  Shared by the per-version
snapshot and first-answer tests (tests/kernels)."""


def lowered(arch, cpu):
    from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has
    return arch == "x86_64" and cpu is None and IS_X86 and boot_cpu_has("prefer_ymm")

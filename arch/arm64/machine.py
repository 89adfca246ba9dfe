"""The arm64 machine: AArch64 code, emulated under qemu-aarch64 on other hosts.

HWCAP bit names as /proc/cpuinfo prints them (v5.0
arch/arm64/include/uapi/asm/hwcap.h, bit 0 first; no AT_HWCAP2 bit is
named in v5.0).  The helper is built for ARMv8-A; a core needing more
(``+crypto``) adds it in its own flags.  The default CPU model ``max`` has
every feature qemu emulates.  Kernel-mode NEON is
arch/arm64/kernel/fpsimd.c's kernel_neon_begin/end.
"""

from crypto_api.machine.spec import MachineSpec, SimdUnit, Toolchain

HWCAP = ("fp", "asimd", "evtstrm", "aes", "pmull", "sha1", "sha2", "crc32", "atomics",
         "fphp", "asimdhp", "cpuid", "asimdrdm", "jscvt", "fcma", "lrcpc", "dcpop", "sha3",
         "sm3", "sm4", "asimddp", "sha512", "sve", "asimdfhm", "dit", "uscat", "ilrcpc",
         "flagm", "ssbs", "sb", "paca", "pacg")

NEON = SimdUnit(
    name="neon", begin="kernel_neon_begin", end="kernel_neon_end",
    about="arm64 (v5.0): the begin is a BUG unless may_use_simd() and sets this CPU's busy "
          "flag; the end WARNs when the flag was not set.")

MACHINE = MachineSpec(
    name="arm64",
    package=__package__,
    aliases=("aarch64",),
    hwcap=HWCAP,
    default_cpu="max",
    cpu_models=("max", "cortex-a53"),
    toolchain=Toolchain(cc="aarch64-linux-gnu-gcc",
                        packages="gcc-aarch64-linux-gnu libc6-dev-arm64-cross",
                        cflags=("-O3", "-Wall", "-Wextra", "-march=armv8-a"),
                        qemu="qemu-aarch64"),
    simd_units=(NEON,),
)

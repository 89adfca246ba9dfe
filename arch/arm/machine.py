"""The arm machine: 32-bit ARMv7 (hard float), emulated under qemu-arm on other hosts.

HWCAP/HWCAP2 bit names of arch/arm/include/uapi/asm/hwcap.h.  The helper's
base flags are VFP only, so a CPU model without NEON still runs it (and the
scalar cores): NEON cores add ``-mfpu=neon`` in their own flags.  The
default CPU model is the Cortex-A7 Adiantum was designed for; qemu's ``max``
(ARMv8 in AArch32) adds the crypto extensions (HWCAP2 aes, pmull, sha1, sha2,
crc32), which the aes-ce mode drivers need.  Kernel-mode
NEON (arch/arm/vfp, v5.0) is ``!in_interrupt()``: not in a softirq either.
"""

from crypto_api.machine.spec import MachineSpec, SimdUnit, Toolchain

HWCAP = ("swp", "half", "thumb", "26bit", "fastmult", "fpa", "vfp", "edsp", "java", "iwmmxt",
         "crunch", "thumbee", "neon", "vfpv3", "vfpv3d16", "tls", "vfpv4", "idiva", "idivt",
         "vfpd32", "lpae", "evtstrm")
HWCAP2 = ("aes", "pmull", "sha1", "sha2", "crc32")

NEON = SimdUnit(
    name="neon", begin="kernel_neon_begin", end="kernel_neon_end",
    about="arm (v5.0): usable only outside any interrupt, softirqs included (!in_interrupt()); "
          "a begin in a softirq is a bug.")

MACHINE = MachineSpec(
    name="arm",
    package=__package__,
    aliases=("armv7l", "armv7hl", "armhf", "arm32"),
    hwcap=HWCAP,
    hwcap2=HWCAP2,
    default_cpu="cortex-a7",
    cpu_models=("cortex-a7", "max"),
    toolchain=Toolchain(cc="arm-linux-gnueabihf-gcc",
                        packages="gcc-arm-linux-gnueabihf libc6-dev-armhf-cross",
                        cflags=("-O3", "-Wall", "-Wextra", "-march=armv7-a", "-mfloat-abi=hard",
                                "-mfpu=vfpv3-d16"),
                        qemu="qemu-arm"),
    simd_units=(NEON,),
    simd_in_softirq=False,
)

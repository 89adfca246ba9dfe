"""The ppc64le machine: little-endian POWER, emulated under qemu-ppc64le on other hosts.

AT_HWCAP/AT_HWCAP2 bit names of arch/powerpc/include/uapi/asm/cputable.h
(PPC_FEATURE_* and PPC_FEATURE2_*, bit 0 first; "" where unnamed): POWER8
reports ``vcrypto``, POWER9 ``arch_3_00``, POWER10 ``arch_3_1``.  The
helper's baseline is POWER8 (p8_aes runs there); POWER9/POWER10 cores add
their ``-mcpu`` per object.  The VSX unit is taken with preemption off:
arch/powerpc/kernel/process.c's enable_kernel_vsx/disable_kernel_vsx.
"""

from crypto_api.machine.spec import MachineSpec, SimdUnit, Toolchain

HWCAP = ("ppcle", "true_le", "", "", "", "", "archpmu", "vsx", "arch_2_06", "power6x",
         "dfp", "pa6t", "arch_2_05", "ic_snoop", "smt", "booke", "cellbe", "power5+",
         "power5", "power4", "notb", "efpdouble", "efpsingle", "spe", "ucache", "4xxmac",
         "mmu", "fpu", "altivec", "ppc601", "ppc64", "ppc32")
HWCAP2 = ("",) * 17 + ("mma", "arch_3_1", "htm-no-suspend", "scv", "darn", "ieee128",
                       "arch_3_00", "htm-nosc", "vcrypto", "tar", "isel", "ebb", "dscr",
                       "htm", "arch_2_07")

VSX = SimdUnit(
    name="vsx", begin="enable_kernel_vsx", end="disable_kernel_vsx",
    about="powerpc: preempt_disable() then enable_kernel_vsx() takes the VSX unit, "
          "disable_kernel_vsx() then preempt_enable() releases it (the kernel WARNs when "
          "preemptible; here a nested or interrupt-context begin raises, as "
          "may_use_simd() = !in_interrupt() forbids it).")

MACHINE = MachineSpec(
    name="ppc64le",
    package=__package__,
    aliases=("ppc64el", "powerpc64le"),
    hwcap=HWCAP,
    hwcap2=HWCAP2,
    default_cpu="power9",
    cpu_models=("power9",),
    toolchain=Toolchain(cc="powerpc64le-linux-gnu-gcc",
                        packages="gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross",
                        cflags=("-O3", "-Wall", "-Wextra", "-mcpu=power8"),
                        qemu="qemu-ppc64le"),
    simd_units=(VSX,),
)

"""The x86_64 machine: the host here, never emulated (no toolchain).

Its CPU features are CPUID's, read by arch/x86/cpufeature.py, not HWCAP
words; its SIMD sections are the FPU model's own kernel_fpu_begin/end (unit
"fpu", crypto_api.fpu), so it declares no unit of its own.  A CPU model
cannot be chosen for it: CRYPTO_API_CPU_MASK masks its features instead.
"""

from crypto_api.machine.spec import MachineSpec

MACHINE = MachineSpec(
    name="x86_64",
    package=__package__,
    aliases=("amd64",),
    cpu_note="CRYPTO_API_CPU_MASK masks x86 features",
)

"""Backend probes: an empty call and a buffer round trip (call overhead), and
one AES-CE instruction (a core whose feature a CPU model may lack: the
SIGILL path of crypto_api.machine.qemu).  No driver uses them."""

from crypto_api.machine.core import Core

CORES = [
    Core(name="backend_probe",
         sources=("backend_probe.c",),
         cdef="""
             void probe_nop(void);
             uint64_t probe_sum(const uint8_t *buf, size_t len);
             void probe_touch(uint8_t *buf, size_t len);
         """,
         feature="fp"),
    Core(name="aes_ce_probe",
         sources=("aes_ce_probe.c",),
         cdef="void probe_aese(uint8_t *block, const uint8_t *roundkey);",
         cflags=("-march=armv8-a+crypto",),
         feature="aes"),
]

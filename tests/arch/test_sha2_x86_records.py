"""The /proc/crypto records of the x86 SHA-2 modules' -ssse3/-avx/-avx2
drivers (arch/x86/sha256_ssse3_glue.py, sha512_ssse3_glue.py): the kernel's
names, priorities, module, block and digest sizes, for each driver this CPU
gets (arch/x86/sha_variants.py's checks)."""

import pytest

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has
from crypto_api.arch.x86.sha_variants import SSSE3_AVX_AVX2

pytestmark = pytest.mark.skipif(not IS_X86 or not boot_cpu_has("ssse3"), reason="x86 with SSSE3 only")

#: module -> block size, (cra_name, digest size) of its two hashes
MODULES = {"sha256_ssse3": (64, (("sha256", 32), ("sha224", 28))),
           "sha512_ssse3": (128, (("sha512", 64), ("sha384", 48)))}
CASES = [(module, suffix, prio, ok) for module in MODULES for suffix, prio, ok in SSSE3_AVX_AVX2]


@pytest.mark.parametrize("module,suffix,prio,usable", CASES, ids=[f"{m}-{s}" for m, s, _, _ in CASES])
def test_names_priorities_module(proc_records, module, suffix, prio, usable):
    if not usable():
        pytest.skip(f"the CPU fails the {suffix} check")
    blocksize, hashes = MODULES[module]
    with capi.crypto_alloc_shash(f"{hashes[0][0]}-{suffix}"):        # loads the module by its alias
        recs = {r["driver"]: r for r in proc_records()}
    for name, digestsize in hashes:
        rec = recs[f"{name}-{suffix}"]
        assert (rec["name"], rec["priority"], rec["module"], rec["type"]) == (name, str(prio), module, "shash")
        assert (rec["blocksize"], rec["digestsize"]) == (str(blocksize), str(digestsize))

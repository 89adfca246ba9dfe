"""Userspace tools on crypto_api: boot, listing, self-test, speed, kcapi-enc style
file encryption and a dm-crypt compatible disk-image tool.  Each command is a
function ``register(subparsers)`` of its module, one row of the entry-point
group ``crypto_api.commands`` (pyproject.toml) that ``crypto_api.__main__`` reads.

The tools are users of the API.  They import ``crypto_api``'s public names
(``crypto_api.__all__``, and the ``__all__`` of its public module ``testmgr``)
and, beyond those, only the internal interfaces of :data:`INTERNAL_INTERFACES`,
each named with why a tool needs it; tests/tools/test_public_imports.py reads
every ``import`` and every ``capi.<name>`` of tools/*.py and checks it against
this table, and that each entry is still used.
"""

from typing import Dict, Tuple

#: module -> (why the tools use it, the names they may take from it); ``"*"``
#: is the module's ``__all__`` (its names without a leading underscore where
#: it has none).
INTERNAL_INTERFACES: Dict[str, Tuple[str, Tuple[str, ...]]] = {
    "crypto_api.errors": (
        "the kernel errno constants a CryptoError carries", ("*",)),
    "crypto_api.dmcrypt": (
        "the dm-crypt package: VolumeCipher, its geometry, the journal's sector digests", ("*",)),
    "crypto_api.fscrypt": (
        "the fscrypt package: policies, key derivation, contents and names (the fscrypt command)", ("*",)),
    "crypto_api.modules": (
        "the module loader's lsmod/modprobe side: what can load, what did, load all or generic only",
        ("available_modules", "emulated_drivers", "generic_only", "is_loaded", "load_all")),
    "crypto_api.registry": (
        "the registered algorithms as /proc/crypto lists them", ("CryptoAlg", "snapshot")),
    "crypto_api.kernels": (
        "the chosen kernel version, named in the listing's first line; the releases and their caveats "
        "(the kernels command)",
        ("COMPOSITE", "DEFAULT", "KNOWN", "RELEASES", "caveat", "check", "describe", "selected")),
    "crypto_api.kernels.query": (
        "the facts a release between two read versions cannot be sure of (the kernels command)",
        ("unsettled",)),
    "crypto_api.proc": (
        "one /proc/crypto record, built and formatted", ("alg_record", "format_record")),
    "crypto_api.machine": (
        "the booted machine, for boot's report", ("current_machine",)),
    "crypto_api.__main__": (
        "the command line itself (speed --disk runs the disk command in-process)", ("main",)),
    "crypto_api.algs.adiantum": (
        "Adiantum's two-pass constant-memory stream (enc/dec of a large file); no kernel API has one",
        ("adiantum_crypt_stream",)),
    "crypto_api.arch.x86.cpufeature": (
        "x86 CPU features (asm/cpufeature.h): speed --goals picks its CPU mask, --cpu-mask masks them",
        ("IS_X86", "boot_cpu_has", "masked_features")),
    "crypto_api.arch.x86.aria_glue": (
        "speed's ARIA S-box pins (ctr-aria-avx@gfni): one driver's one-call path with the other S-box code",
        ("AriaImpl", "_direct")),
}

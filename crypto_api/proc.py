"""The /proc/crypto text (crypto/proc.c, v5.0 format).

One record per list entry, most recently registered first; each line is the
label padded to 13 columns, ``": "`` and the value; an empty line ends a
record.  Larvals show as ``type : larval`` with their flags; the type lines
come from the show hook each frontend registers (:mod:`.crypto_type`).
"""

from __future__ import annotations

from typing import List, Tuple

from . import alg as A
from . import registry
from .crypto_type import crypto_type_of


def _type_lines(a) -> List[Tuple[str, object]]:
    if a.is_larval:
        return [("type", "larval"), ("flags", f"0x{a.cra_flags:x}")]
    ctype = crypto_type_of(a.desc.KIND)
    if ctype is None:
        return [("type", "unknown")]
    return ctype.show(a)


def alg_record(a) -> List[Tuple[str, object]]:
    """The (label, value) lines of one /proc/crypto record."""
    lines = [
        ("name", a.cra_name),
        ("driver", a.cra_driver_name),
        ("module", a.cra_module or "kernel"),
        ("priority", a.cra_priority),
        ("refcnt", a.cra_refcnt),
        ("selftest", "passed" if a.cra_flags & A.CRYPTO_ALG_TESTED else "unknown"),
        ("internal", "yes" if a.cra_flags & A.CRYPTO_ALG_INTERNAL else "no"),
    ]
    return lines + _type_lines(a)


def format_record(lines) -> str:
    return "".join(f"{label:<13}: {value}\n" for label, value in lines) + "\n"


def proc_crypto() -> str:
    """The whole /proc/crypto text; its first line ``# kernel: Linux <version>``
    says which kernel version the registry follows (crypto_api.kernels; the
    default 6.18 too), none for the ``composite`` registry."""
    from .kernels import describe, selected
    head = f"# kernel: {describe()}\n" if selected() else ""
    return head + "".join(format_record(alg_record(a)) for a in registry.snapshot())

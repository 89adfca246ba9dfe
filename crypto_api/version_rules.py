"""The per-version rules of the core and the glue, as the code applying them asks.

No kernel counterpart (a kernel has one rule where this emulator has one per
version).  Each rule is a named fact of the kernel-version table
(crypto_api.kernels: ``RULES`` beside the driver rows) whose value changed
between kernels: XTS ciphertext stealing, ``setauthsize(0)``, duplicate
driver names, the SIMD glue's sections.  The code that applies a rule (the
xts template, the AEAD frontend, the registry, a driver's glue) asks
:func:`rule` with the value it has always followed (the composite
registry's, used while ``composite`` is chosen); crypto_api.kernels installs
the answer for the followed version (6.18 unless another is chosen) (:func:`set_rule_source`), so this leaf
module imports nothing of the core and the core imports no table.
"""

from __future__ import annotations

from typing import Callable, Optional

#: name -> the chosen version's value on the current machine, or None (no version chosen)
_source: Callable[[str], Optional[str]] = lambda name: None


def set_rule_source(source: Callable[[str], Optional[str]]) -> Callable[[str], Optional[str]]:
    """Install the function answering :func:`rule`; returns the previous one."""
    global _source
    old, _source = _source, source
    return old


def rule(name: str, composite: str) -> str:
    """The value of rule ``name`` in the followed kernel version on this machine,
    or ``composite`` (the project's own behaviour) under the composite registry."""
    value = _source(name)
    return composite if value is None else value

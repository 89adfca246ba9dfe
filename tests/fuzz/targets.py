"""The fuzz targets by name, and where each keeps its corpus.

No kernel counterpart.  Each target is a module ``target_<name>.py`` beside
this one with a ``check(data: bytes)`` that raises AssertionError on a
finding (a result that differs from the reference, a wrong refusal) and lets
any other exception through (a bug too); a sanitizer report ends the process.
"""

from __future__ import annotations

import importlib
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
NAMES = ("skcipher", "aead", "hash", "cipher", "sector", "template_name", "cipher_spec")


def check_function(name: str):
    """The ``check`` of target ``name``."""
    if name not in NAMES:
        raise ValueError(f"no fuzz target {name!r} (targets: {', '.join(NAMES)})")
    return importlib.import_module(f"target_{name}").check


def corpus_dir(name: str) -> str:
    return os.path.join(CORPUS, name)


def corpus_files(name: str) -> list:
    """The kept inputs of target ``name``, sorted."""
    d = corpus_dir(name)
    return sorted(os.path.join(d, f) for f in os.listdir(d)) if os.path.isdir(d) else []

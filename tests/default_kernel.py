"""The environment of a child process that runs the true default kernel.

tests/conftest.py pins the suite to ``composite`` in ``CRYPTO_API_KERNEL``
(its ``SUITE_KERNEL``); a test about what a user sees by default (the
README's commands, ``make run``, the docs' blocks, the listing's kernel line)
starts its child with this environment instead, where the variable is unset
as in a reader's shell.
"""

import os

PIN = "CRYPTO_API_KERNEL"


def default_env(base=None, **extra):
    """A copy of ``base`` (default: os.environ) without the suite's pin, plus ``extra``."""
    env = {k: v for k, v in (os.environ if base is None else base).items() if k != PIN}
    env.update(extra)
    return env

"""dm-crypt on the crypto API: sector *n* of a volume, its IVs and cipher specs.

The kernel's dm-crypt target (drivers/md/dm-crypt.c) is a user of the crypto
API, not part of it; so is this package, installed as ``crypto_api.dmcrypt``
(the top-level dmcrypt/ folder, pyproject.toml's package-dir).  It uses the
core's public API and a few of its internals (the FPU model, cryptd's queue
state); the core never imports it, ``import crypto_api`` does not load it.

* :mod:`.sector`: :class:`VolumeCipher`, sectors by number, the cipher checks;
* :mod:`.ivgen`: the IVs dm-crypt and fscrypt build (plain, plain64, essiv);
* :mod:`.cipher_spec`: cryptsetup / dm-crypt ``--cipher`` strings;
* :mod:`.sector_batch`: many sectors in one C call, through the planners the
  ``sector_batch`` module (crypto_api.algs.sector_batch) registers;
* :mod:`.sector_digests`: per-sector SHA-256 or keyed digests in one C call;
* :mod:`.sector_workers`: the threads of ``VolumeCipher(jobs=N)``.

``crypto_api.VolumeCipher`` and ``from crypto_api import ivgen`` are served
from here at first use (crypto_api's module ``__getattr__``).
"""

from . import cipher_spec, ivgen
from .cipher_spec import CipherSpec, parse_cipher_spec
from .ivgen import SECTOR_SIZE
from .sector import (MAX_JOBS, SECTOR_BLOCK_MODES, SECTOR_SIZES, WIDE_BLOCK_TEMPLATES, VolumeCipher,
                     check_sector_cipher, sector_cipher_problem)
from .sector_digests import keyed_sector_digests, sha256_sector_digests

__all__ = ["CipherSpec", "MAX_JOBS", "SECTOR_BLOCK_MODES", "SECTOR_SIZE", "SECTOR_SIZES",
           "VolumeCipher", "WIDE_BLOCK_TEMPLATES", "check_sector_cipher", "cipher_spec", "ivgen",
           "keyed_sector_digests", "parse_cipher_spec", "sector_cipher_problem", "sha256_sector_digests"]

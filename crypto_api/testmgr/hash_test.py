"""Hash self-tests (test_hash / test_hash_vec_cfg in crypto/testmgr.c).

Every vector under every hash configuration: digest, init+update+final or
init+finup, pieces merged or flushed, with export/import at "reimport"
points; the digest is compared and the source must be left untouched.
"""

from __future__ import annotations

import contextlib

from ..errors import CryptoError
from ..fpu import simd_disabled
from .buffers import TestSgl
from .configs import TestvecConfig
from .failure import fail, outcome
from .skcipher_test import check_config


def _hash(tfm, cfg: TestvecConfig, pieces, where: str) -> bytes:
    """Hash the pieces as ``cfg`` says: digest, or init, updates (flushed or merged,
    with export/import at "reimport" points) and final or finup."""
    if cfg.finalization == "digest":
        return tfm.digest(b"".join(bytes(p) for _, p in pieces))
    desc = tfm.desc().init()
    pending = []
    for i, (d, piece) in enumerate(pieces):
        last = i == len(pieces) - 1
        if last and cfg.finalization == "finup":
            for p in pending:
                desc.update(p)
            pending = [piece]
            break
        pending.append(piece)
        if d.flush != "none":
            with simd_disabled() if d.nosimd else contextlib.nullcontext():
                for p in pending:
                    desc.update(p)
            pending = []
            if d.flush == "reimport":
                state = desc.export()
                if len(state) != tfm.statesize:
                    fail(f"alg: hash: {tfm.alg.cra_driver_name} export() returned {len(state)} bytes, "
                         f"statesize is {tfm.statesize} {where}")
                desc = tfm.desc()
                desc.import_(state)
    if cfg.finalization == "finup":
        for p in pending[:-1]:
            desc.update(p)
        return desc.finup(pending[-1] if pending else b"")
    for p in pending:
        desc.update(p)
    return desc.final()


def test_hash_vec_cfg(tfm, vec, vec_name, cfg: TestvecConfig) -> None:
    driver = tfm.alg.cra_driver_name
    where = f'on test vector {vec_name}, cfg="{cfg.name}"'
    if vec.key or tfm.alg.setkey is not None and vec.setkey_error:
        try:
            tfm.setkey(vec.key)
        except CryptoError as e:
            if e.errno == vec.setkey_error:
                return
            fail(f"alg: hash: {driver} setkey failed on test vector {vec_name}; "
                 f"expected_error={vec.setkey_error}, actual_error={e.errno}", e.errno)
        if vec.setkey_error:
            fail(f"alg: hash: {driver} setkey unexpectedly succeeded on test vector {vec_name}; "
                 f"expected_error={vec.setkey_error}")
    src = TestSgl(len(vec.plaintext), cfg.src_divs, tfm.alg.cra_alignmask, vec.plaintext)
    pieces = [(d, sg.view()) for (_, _, _, d), sg in zip(src.pieces, src.sgl)]
    with simd_disabled() if cfg.nosimd else contextlib.nullcontext():
        done, result = outcome(lambda: _hash(tfm, cfg, pieces, where), vec.digest_error,
                               f"alg: hash: {driver}", where)
    if not done:
        return
    if vec.digest_error:
        fail(f"alg: hash: {driver} unexpectedly succeeded {where}; expected_error={vec.digest_error}")
    if not src.poison_intact() or src.contents() != vec.plaintext:
        fail(f"alg: hash: {driver} modified its source buffer {where}")
    if len(result) != tfm.digestsize:
        fail(f"alg: hash: {driver} returned a {len(result)}-byte digest, digestsize is {tfm.digestsize} {where}")
    if result != vec.digest:
        fail(f"alg: hash: {driver} test failed (wrong result) {where}")


def test_hash(tfm, vecs, configs) -> None:
    for cfg in configs:
        check_config("hash", tfm.alg.cra_driver_name, cfg)
        for i, vec in enumerate(vecs):
            test_hash_vec_cfg(tfm, vec, i, cfg)

"""Child process of test_sha_library.py: boot one kernel version and report,
as JSON, what sha224/256/384/512 do: the driver, the digests of messages fed
in pieces (the parent checks them against hashlib), and the FPU sections of
a traced update/final sequence, normally, in an interrupt and with the
self-test manager's SIMD switch off.

Run as ``python sha_library_child.py VERSION`` (``composite`` allowed).
"""

import json
import sys

import crypto_api as capi


def feed(h, pieces):
    d = h.desc().init()
    for p in pieces:
        d.update(p)
    return d.final().hex()


def traced(h, pieces):
    with capi.fpu_trace() as tr:
        digest = feed(h, pieces)
    return digest, [s.nbytes for s in tr.sections]


def main(version: str) -> None:
    capi.boot(kernel=version)
    msg = bytes((i * 7 + 3) % 256 for i in range(3000))
    cuts = [msg[:10], msg[10:210], msg[210:211], msg[211:2000], msg[2000:]]
    out = {}
    for name in ("sha224", "sha256", "sha384", "sha512"):
        with capi.crypto_alloc_shash(name) as h:
            digest, sections = traced(h, cuts)
            with capi.interrupt_context():
                irq = feed(h, cuts)
            with capi.fpu_trace() as tr, capi.simd_disabled():
                nosimd = feed(h, cuts)
            out[name] = {"driver": h.driver_name, "blocksize": h.alg.cra_blocksize,
                         "pieces": [len(p) for p in cuts], "digest": digest, "sections": sections,
                         "irq": irq, "nosimd": nosimd, "nosimd_sections": [s.nbytes for s in tr.sections],
                         "whole": h.digest(msg).hex(), "message": msg.hex()}
    from crypto_api.algs import sha_library
    out["library"] = {size: (lib.name if lib else None)
                      for size in ("sha256", "sha512") for lib in [sha_library.arch_library(size)]}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])

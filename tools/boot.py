"""``boot``: bring the emulated crypto subsystem up, as a kernel boot does.

Loads every crypto module (modprobe of each ``crypto_api.modules`` entry
point; a driver whose CPU features are missing registers nothing), lets each
registration run its self-tests (printing the kernel's ``alg:`` lines),
prints /proc/crypto and demonstrates XChaCha12, Adiantum and ChaCha20-Poly1305
(rfc7539) on a 4096-byte sector with the drivers the registry chose.  This is what ``make run`` runs.
"""

from __future__ import annotations

import logging
import sys

import crypto_api as capi
from crypto_api import kernels, modules


def register(sub) -> None:
    p = sub.add_parser("boot", help="load all modules, self-test, list /proc/crypto and run a short demo")
    p.add_argument("--quiet-proc", action="store_true", help="do not print the full /proc/crypto text")
    p.set_defaults(func=run)


def _demo() -> None:
    key = bytes(range(32))
    sector = bytes(i & 0xFF for i in range(4096))
    print("== demo: xchacha12")
    with capi.crypto_alloc_skcipher("xchacha12") as tfm:
        tfm.setkey(key)
        iv = bytes(32)
        ct = tfm.encrypt(b"The quick brown fox jumps over the lazy dog", iv)
        print(f"driver    : {tfm.driver_name}")
        print(f"ciphertext: {ct.hex()}")
        print(f"round trip: {tfm.decrypt(ct, iv) == b'The quick brown fox jumps over the lazy dog'}")
    print("== demo: adiantum(xchacha12,aes), one 4096-byte sector, plain64 tweak for sector 7")
    with capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)") as tfm:
        tfm.setkey(key)
        tweak = (7).to_bytes(8, "little") + bytes(24)
        ct = tfm.encrypt(sector, tweak)
        print(f"driver    : {tfm.driver_name}")
        print(f"priority  : {tfm.alg.cra_priority}")
        print(f"first 32 ciphertext bytes: {ct[:32].hex()}")
        print(f"round trip: {tfm.decrypt(ct, tweak) == sector}")
    print("== demo: rfc7539(chacha20,poly1305), 4096 bytes with a 12-byte header as associated data")
    with capi.crypto_alloc_aead("rfc7539(chacha20,poly1305)") as aead:
        aead.setkey(key)
        nonce, header = bytes(range(12)), b"sector 7 hdr"
        sealed = aead.encrypt(sector, nonce, assoc=header)
        print(f"driver    : {aead.driver_name}")
        print(f"priority  : {aead.alg.cra_priority}")
        print(f"tag       : {sealed[-aead.authsize:].hex()}")
        print(f"round trip: {aead.decrypt(sealed, nonce, assoc=header) == sector}")
        try:
            aead.decrypt(sealed, nonce, assoc=b"sector 8 hdr")
            print("tampered header: accepted (WRONG)")
        except capi.CryptoError as e:
            print(f"tampered header: refused with {e.errname}")


def run(args) -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stdout)
    from crypto_api.machine import current_machine
    print(f"crypto_api {capi.__version__}: booting the crypto subsystem of {kernels.describe()} "
          f"on {current_machine().describe()} "
          f"(self-tests: {capi.testmgr.get_level()})")
    note = kernels.caveat()
    if note:
        print(note)
    for name in sorted(modules.available_modules()):
        err = modules.load_all(only=[name])[name]
        if err is None:
            print(f"modprobe {name}: ok")
        else:
            print(f"modprobe {name}: not loaded ({err.message})")
    # Instantiate the Adiantum and ChaCha20-Poly1305 templates so they show in /proc/crypto too.
    for name in ("adiantum(xchacha12,aes)", "adiantum(xchacha20,aes)"):
        with capi.crypto_alloc_skcipher(name):
            pass
    for name in ("rfc7539(chacha20,poly1305)", "rfc7539esp(chacha20,poly1305)"):
        with capi.crypto_alloc_aead(name):
            pass
    text = capi.proc_crypto()
    untested = text.count("selftest     : unknown")
    if not args.quiet_proc:
        print("== /proc/crypto")
        sys.stdout.write(text)
    _demo()
    if untested:
        print(f"WARNING: {untested} algorithm(s) did not pass their self-tests")
        return 1
    return 0

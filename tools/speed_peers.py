"""Peers measured beside crypto_api: the ``cryptography``, ``pycryptodome``
and ``pynacl`` (libsodium) packages, the standard library's ``hashlib``, and
optionally the native ``openssl speed -evp chacha20``.

Each peer does per call what a user of that library does per message: a
fresh encryptor with a new nonce or tweak for every message (ChaCha20,
XChaCha20, AES-256-XTS), a one-shot Poly1305 tag, or one block through an
ECB object keyed once (the single-block ``aes`` cipher), one AEAD call on an
object keyed once (``cryptography``'s ChaCha20Poly1305 and AESGCM) or on the key
(libsodium's IETF ChaCha20-Poly1305 through ``nacl.bindings``), with the
same associated data as the crypto_api AEAD targets.  A peer is shown
beside the crypto_api algorithms it relates to: the same algorithm, or a
*reference* (AES-256-XTS for Adiantum — the disk-encryption alternative the
issue's goals compare with — and 20-round XChaCha20 beside XChaCha12).
One peer is crypto_api itself: ``adiantum(xchacha12,aes)`` beside
``hctr2(aes)`` (:class:`ApiPeer`).
openssl keeps one context for all its calls: a native upper bound.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from typing import Callable, Dict, List, Optional, Tuple

from .speed_machine import dist_version
from .speed_targets import AEAD_ASSOC_LEN, Skip, pattern

#: The crypto_api AEAD an RFC 8439 ChaCha20-Poly1305 peer measures the same thing as.
RFC7539 = {"rfc7539(chacha20,poly1305)": "same"}
#: The crypto_api AEAD an AES-256-GCM peer measures the same thing as (its key probe tries 32 bytes first).
GCM_AES = {"gcm(aes)": "same"}
#: The IV of the AEAD targets (speed_targets.Target.iv for a 12-byte IV).
AEAD_NONCE = pattern(12, seed=7)


class Peer:
    """One peer implementation (``kind`` "peer")."""

    kind = "peer"
    block_only = False

    def __init__(self, key: str, label: str, library: str, note: str, ops: Tuple[str, ...],
                 relates: Dict[str, str], factory: Callable[[str, int], Callable[[], object]],
                 block_size: int = 0) -> None:
        self.key = key
        self.label = label
        self.library = library
        self.note = note
        self.ops = ops
        self.relates = relates          # crypto_api cra_name -> "same" | "reference"
        self._factory = factory
        self.block_size = block_size
        self.block_only = bool(block_size)

    @property
    def id(self) -> str:
        return "peer:" + self.key

    @property
    def name(self) -> str:
        return self.label

    def describe(self) -> dict:
        return {"id": self.id, "kind": self.kind, "name": self.label, "library": self.library,
                "note": self.note, "ops": list(self.ops), "relates": dict(self.relates)}

    def sizes(self, sizes: List[int]) -> List[int]:
        return [self.block_size] if self.block_only else list(sizes)

    def op(self, opname: str, size: int, tfm=None) -> Callable[[], object]:
        try:
            fn = self._factory(opname, size)
            fn()
        except (ValueError, TypeError) as e:
            raise Skip(f"{self.label}: {e}") from None
        return fn

    def free(self) -> None:
        pass


def _cryptography_peers(into: bool = False) -> List[Peer]:
    try:
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
        from cryptography.hazmat.primitives.poly1305 import Poly1305
    except ImportError:
        return []
    lib = f"cryptography {dist_version('cryptography')}"
    key32 = pattern(32, seed=1)
    key64 = pattern(64, seed=2)          # AES-256-XTS: two different 256-bit keys
    nonce16 = pattern(16, seed=3)

    def chacha20(opname, size):
        data = pattern(size, seed=size)
        buf = bytearray(size + 15)          # update_into wants room for a block more

        def one():
            ctx = Cipher(algorithms.ChaCha20(key32, nonce16), None).encryptor()
            if into:
                ctx.update_into(data, buf)
                ctx.finalize()
                return buf
            return ctx.update(data) + ctx.finalize()
        return one

    def xts(opname, size):
        data = pattern(size, seed=size)
        decrypt = opname == "decrypt"
        buf = bytearray(size + 15)

        def one():
            c = Cipher(algorithms.AES(key64), modes.XTS(nonce16))
            ctx = c.decryptor() if decrypt else c.encryptor()
            if into:
                ctx.update_into(data, buf)
                ctx.finalize()
                return buf
            return ctx.update(data) + ctx.finalize()
        return one

    def poly1305(opname, size):
        if size < 32:
            raise ValueError(f"{size} bytes: fewer than the 32-byte one-time key that crypto_api's "
                             "v5.0 poly1305 takes from the data")
        data = pattern(size, seed=size)
        k, m = data[:32], data[32:]
        return lambda: Poly1305.generate_tag(k, m)

    def aes_block(opname, size):
        c = Cipher(algorithms.AES(key32), modes.ECB())
        ctx = c.decryptor() if opname == "decrypt" else c.encryptor()
        return lambda blk=pattern(16, seed=16): ctx.update(blk)

    how = "update_into one preallocated buffer" if into else "update"
    return [
        Peer("cryptography-chacha20", "cryptography ChaCha20", lib,
             f"fresh encryptor per message (new 16-byte nonce), {how}", ("encrypt", "decrypt"),
             {"chacha20": "same", "xchacha20": "reference", "xchacha12": "reference"}, chacha20),
        Peer("cryptography-aes-256-xts", "cryptography AES-256-XTS", lib,
             f"fresh encryptor per message (new tweak), {how}", ("encrypt", "decrypt"),
             {"adiantum(xchacha12,aes)": "reference", "adiantum(xchacha20,aes)": "reference",
              "xts(aes)": "same"}, xts),
        Peer("cryptography-poly1305", "cryptography Poly1305", lib,
             "one-shot generate_tag(key = first 32 bytes, rest)", ("digest",),
             {"poly1305": "same"}, poly1305),
        Peer("cryptography-aes-block", "cryptography AES-256 block", lib,
             "ECB context keyed once, one 16-byte block per call", ("encrypt", "decrypt"),
             {"aes": "same"}, aes_block, block_size=16),
    ]


def _aead_factory(seal: Callable[[bytes, bytes], bytes], open_: Callable[[bytes, bytes], bytes]):
    """A peer factory: ``encrypt`` seals ``size`` bytes; ``decrypt`` opens what sealing gave."""
    assoc = pattern(AEAD_ASSOC_LEN, seed=5)

    def factory(opname, size):
        data = pattern(size, seed=size)
        if opname == "decrypt":
            ct = seal(data, assoc)
            return lambda: open_(ct, assoc)
        return lambda: seal(data, assoc)
    return factory


def _cryptography_aead_peers() -> List[Peer]:
    try:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305
    except ImportError:
        return []
    aead = ChaCha20Poly1305(pattern(32, seed=1))
    gcm = AESGCM(pattern(32, seed=1))
    return [Peer("cryptography-aes-256-gcm", "cryptography AES-256-GCM",
                 f"cryptography {dist_version('cryptography')}",
                 "AESGCM keyed once (32-byte key), encrypt/decrypt(nonce, data, aad) per message",
                 ("encrypt", "decrypt"), dict(GCM_AES),
                 _aead_factory(lambda d, a: gcm.encrypt(AEAD_NONCE, d, a),
                               lambda c, a: gcm.decrypt(AEAD_NONCE, c, a))),
            Peer("cryptography-chacha20poly1305", "cryptography ChaCha20Poly1305",
                 f"cryptography {dist_version('cryptography')}",
                 "ChaCha20Poly1305 keyed once, encrypt/decrypt(nonce, data, aad) per message",
                 ("encrypt", "decrypt"), dict(RFC7539),
                 _aead_factory(lambda d, a: aead.encrypt(AEAD_NONCE, d, a),
                               lambda c, a: aead.decrypt(AEAD_NONCE, c, a)))]


def _pynacl_peers() -> List[Peer]:
    try:
        from nacl.bindings import (crypto_aead_chacha20poly1305_ietf_decrypt,
                                   crypto_aead_chacha20poly1305_ietf_encrypt)
    except ImportError:
        return []
    key = pattern(32, seed=1)
    return [Peer("pynacl-chacha20poly1305-ietf", "PyNaCl (libsodium) ChaCha20-Poly1305-IETF",
                 f"pynacl {dist_version('pynacl') or dist_version('PyNaCl')}",
                 "nacl.bindings.crypto_aead_chacha20poly1305_ietf_encrypt/decrypt per message",
                 ("encrypt", "decrypt"), dict(RFC7539),
                 _aead_factory(lambda d, a: crypto_aead_chacha20poly1305_ietf_encrypt(d, a, AEAD_NONCE, key),
                               lambda c, a: crypto_aead_chacha20poly1305_ietf_decrypt(c, a, AEAD_NONCE, key)))]


def _pycryptodome_peers(into: bool = False) -> List[Peer]:
    try:
        from Crypto.Cipher import AES, ChaCha20
    except ImportError:
        return []
    lib = f"pycryptodome {dist_version('pycryptodome') or dist_version('pycryptodomex')}"
    key32 = pattern(32, seed=1)

    def chacha(nonce_len):
        nonce = pattern(nonce_len, seed=3)

        def factory(opname, size):
            data = pattern(size, seed=size)
            out = bytearray(size) if into else None

            def one():
                c = ChaCha20.new(key=key32, nonce=nonce)
                res = (c.decrypt if opname == "decrypt" else c.encrypt)(data, output=out)
                return out if into else res
            return one
        return factory

    def aes_block(opname, size):
        ecb = AES.new(key32, AES.MODE_ECB)
        fn = ecb.decrypt if opname == "decrypt" else ecb.encrypt
        blk = pattern(16, seed=16)
        return lambda: fn(blk)

    how = ", output= one preallocated buffer" if into else ""
    return [
        Peer("pycryptodome-chacha20", "pycryptodome ChaCha20", lib,
             f"new cipher object per message (12-byte nonce){how}", ("encrypt", "decrypt"),
             {"chacha20": "same"}, chacha(12)),
        Peer("pycryptodome-xchacha20", "pycryptodome XChaCha20", lib,
             f"new cipher object per message (24-byte nonce); 20 rounds{how}", ("encrypt", "decrypt"),
             {"xchacha20": "same", "xchacha12": "reference"}, chacha(24)),
        Peer("pycryptodome-aes-block", "pycryptodome AES-256 block", lib,
             "ECB object keyed once, one 16-byte block per call", ("encrypt", "decrypt"),
             {"aes": "same"}, aes_block, block_size=16),
    ]


def _hashlib_peers() -> List[Peer]:
    """hashlib's SHA-256, SHA-224, SHA-512 and SHA-384 (OpenSSL's, in CPython's usual builds)."""
    import hashlib
    import ssl
    lib = f"hashlib ({ssl.OPENSSL_VERSION})"

    def digest(name):
        def factory(opname, size):
            data = pattern(size, seed=size)
            new = getattr(hashlib, name)
            return lambda: new(data).digest()
        return factory

    return [Peer(f"hashlib-{name}", f"hashlib {name.upper()[:3]}-{name[3:]}", lib,
                 f"hashlib.{name}(data).digest() per message", ("digest",), {name: "same"},
                 digest(name))
            for name in ("sha256", "sha224", "sha512", "sha384")]


class ApiPeer(Peer):
    """A crypto_api algorithm measured as a peer of another (``hctr2(aes)``
    beside ``adiantum(xchacha12,aes)``, the wide-block mode it follows, in
    the same run): one keyed transform, ``tfm.encrypt`` /
    ``decrypt(data, tweak)`` per message, freed with the peer."""

    def __init__(self, key: str, alg: str, relates: Dict[str, str], into: bool) -> None:
        self.alg, self.into, self.tfm = alg, into, None
        how = "into one preallocated buffer" if into else "new bytes"
        super().__init__(key, f"crypto_api {alg}", "crypto_api (this build)",
                         f"one keyed transform, tfm.encrypt/decrypt(data, 32-byte tweak) per message, {how}",
                         ("encrypt", "decrypt"), relates, self._factory_op)

    def _factory_op(self, opname: str, size: int) -> Callable[[], object]:
        import crypto_api as capi
        if self.tfm is None:
            self.tfm = capi.crypto_alloc_skcipher(self.alg)
            self.tfm.setkey(pattern(32, seed=1))
        data, tweak = pattern(size, seed=size), pattern(32, seed=3)
        fn = self.tfm.decrypt if opname == "decrypt" else self.tfm.encrypt
        if self.into:
            out = bytearray(size)
            return lambda: fn(data, tweak, out=out)
        return lambda: fn(data, tweak)

    def op(self, opname: str, size: int, tfm=None) -> Callable[[], object]:
        import crypto_api as capi
        try:
            return super().op(opname, size, tfm)
        except capi.CryptoError as e:
            raise Skip(f"{self.label}: {e}") from None

    def free(self) -> None:
        if self.tfm is not None:
            self.tfm.free()
            self.tfm = None


def _crypto_api_peers(into: bool = False) -> List[Peer]:
    return [ApiPeer("crypto_api-adiantum-xchacha12-aes", "adiantum(xchacha12,aes)",
                    {"hctr2(aes)": "reference"}, into)]


def available_peers(into: bool = False) -> List[Peer]:
    """Every peer whose library imports (``into``: ciphers write into a
    preallocated buffer where the library can, as with ``speed --into``)."""
    return (_cryptography_peers(into) + _pycryptodome_peers(into) + _cryptography_aead_peers()
            + _pynacl_peers() + _hashlib_peers() + _crypto_api_peers(into))


def peers_for(cra_names: List[str], into: bool = False) -> List[Peer]:
    """The peers related to any of ``cra_names``, in a fixed order."""
    wanted = set(cra_names)
    return [p for p in available_peers(into) if wanted & set(p.relates)]


# ---------------------------------------------------------------------------
# openssl speed

#: The crypto_api algorithms ``openssl speed -evp chacha20`` is a reference for.
OPENSSL_RELATES = {"chacha20": "same", "xchacha20": "reference", "xchacha12": "reference"}


def parse_openssl_mr(text: str) -> Dict[int, float]:
    """Bytes per second by block size from ``openssl speed -mr`` output.

    Uses the ``+H:<size>:...`` header and the ``+F:<n>:<alg>:<rate>:...``
    line (rates in bytes per second, one per size).
    """
    sizes: List[int] = []
    rates: List[float] = []
    for line in text.splitlines():
        if line.startswith("+H:"):
            sizes = [int(x) for x in line[3:].split(":") if x.strip()]
        elif line.startswith("+F:"):
            parts = line.split(":")
            rates = [float(x) for x in parts[3:] if x.strip()]
    if not sizes or len(sizes) != len(rates):
        raise ValueError("openssl speed -mr output without matching +H and +F lines")
    return dict(zip(sizes, rates))


class OpensslSpeed:
    """``openssl speed -mr -evp <evp> -bytes N -seconds S`` at each size, one
    round (every size once) per :meth:`round` call, so that a speed run can
    spread its rounds among its own (``relates``: the crypto_api algorithms
    it is shown beside)."""

    def __init__(self, sizes: List[int], seconds: int = 1, binary: Optional[str] = None,
                 evp: str = "chacha20", relates: Optional[Dict[str, str]] = None) -> None:
        self.sizes, self.seconds, self.evp = list(sizes), seconds, evp
        self.rates: Dict[int, List[float]] = {size: [] for size in self.sizes}
        self.errors: Dict[int, str] = {}
        self.rounds = 0
        self.exe = binary or shutil.which("openssl")
        if not self.exe:
            self.unavailable = "no openssl binary on PATH"
            return
        try:
            version = subprocess.run([self.exe, "version"], capture_output=True, text=True,
                                     timeout=10).stdout.strip().split(" (Library:")[0]
        except (OSError, subprocess.SubprocessError) as e:
            self.unavailable = f"{self.exe}: {e}"
            return
        self.unavailable = None
        self.head = {"available": True, "binary": self.exe, "version": version, "evp": evp,
                     "seconds": seconds,
                     "relates": dict(OPENSSL_RELATES if relates is None else relates),
                     "note": "native, one EVP context reused for every call"}

    def round(self) -> None:
        """Every size once (a size that failed before is not run again)."""
        if self.unavailable:
            return
        self.rounds += 1
        for size in self.sizes:
            if size in self.errors:
                continue
            cmd = [self.exe, "speed", "-mr", "-evp", self.evp, "-bytes", str(size),
                   "-seconds", str(self.seconds)]
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True,
                                      timeout=60 + 4 * self.seconds,
                                      env=dict(os.environ, LC_ALL="C"))
                rate = parse_openssl_mr(proc.stdout).get(size)
            except (OSError, subprocess.SubprocessError, ValueError) as e:
                self.errors[size] = str(e)
                continue
            if rate is None:
                self.errors[size] = "size not in the output"
            else:
                self.rates[size].append(rate)

    def report(self) -> dict:
        """The best rate of each size (``bytes_per_s``) and, after more than one
        round, every round's (``rounds_bytes_per_s``)."""
        if self.unavailable:
            return {"available": False, "reason": self.unavailable}
        out = dict(self.head, results=[])
        for size in self.sizes:
            if size in self.errors or not self.rates[size]:
                out["results"].append({"size": size, "error": self.errors.get(size, "not run")})
                continue
            r = {"size": size, "bytes_per_s": max(self.rates[size])}
            if self.rounds > 1:
                r["rounds_bytes_per_s"] = self.rates[size]
            out["results"].append(r)
        if self.rounds > 1:
            out["rounds"] = self.rounds
        out["command"] = "openssl speed -mr -evp %s -bytes N -seconds %d" % (self.evp, self.seconds)
        return out


def openssl_speed(sizes: List[int], seconds: int = 1, binary: Optional[str] = None,
                  evp: str = "chacha20", relates: Optional[Dict[str, str]] = None,
                  rounds: int = 1) -> dict:
    """:class:`OpensslSpeed` run ``rounds`` times in a row; its report."""
    o = OpensslSpeed(sizes, seconds, binary, evp, relates)
    for _ in range(rounds):
        o.round()
    return o.report()


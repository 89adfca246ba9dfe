"""The transforms a fuzz target compares: each driver with its reference.

No kernel counterpart (testmgr.c's fuzz tests compare each driver with the
generic one the same way).  A pair is (reference name, driver name); the
reference is the generic driver or a template instance over generic drivers.
:func:`pick` allocates both sides once per process; a pair this machine
lacks is skipped (an x86 driver needs its CPU features; the ARIA SIMD drivers
load through their module aliases, which a plain allocation by driver name
does not request: :data:`MODULES` are requested first).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api import CryptoError

#: modules whose drivers are reached by driver name only after a request
MODULES = ("crypto-aria-aesni-avx", "crypto-aria-aesni-avx2", "crypto-aria-gfni-avx512")

_AES_MODES = [(f"{m}(aes-generic)", f"{m}-aes-{impl}")
              for m, impls in (("ecb", ["aesni"]), ("cbc", ["aesni"]),
                               ("ctr", ["aesni", "aesni-avx", "vaes-avx2", "vaes-avx10_256", "vaes-avx10_512"]),
                               ("xts", ["aesni", "aesni-avx", "vaes-avx2", "vaes-avx10_256", "vaes-avx10_512"]))
              for impl in impls]
_ARIA_MODES = [(f"{m}(aria-generic)", f"{m}-aria-{isa}")
               for m in ("ecb", "ctr") for isa in ("avx", "avx2", "avx512")]
_ADIANTUM = [(f"adiantum({c}-generic,aes-generic,nhpoly1305-generic)",
              f"adiantum({c}-simd,aes-aesni,nhpoly1305-{nh})")
             for c in ("xchacha12", "xchacha20") for nh in ("sse2", "avx2")]

SKCIPHERS = ([(f"{c}-generic", f"{c}-simd") for c in ("chacha20", "xchacha12", "xchacha20")]
             + _AES_MODES + _ARIA_MODES + _ADIANTUM
             + [("essiv(cbc(aes-generic),sha256-generic)", "essiv(cbc-aes-aesni,sha256-ni)"),
                ("essiv(cbc(aes-generic),sha256-generic)", "essiv(cbc-aes-aesni,sha256-avx2)")]
             + [("xctr(aes-generic)", "xctr-aes-aesni"), ("cts(cbc(aes-generic))", "cts(cbc-aes-aesni)"),
                ("hctr2_base(xctr(aes-generic),polyval-generic)", "hctr2_base(xctr-aes-aesni,polyval-clmulni)")]
             # this project's XTS ARIA (no kernel counterpart) against the template over the generic cipher
             + [("xts(ecb(aria-generic))", "xts-aria-avx512")])
AEADS = [("rfc7539(chacha20-generic,poly1305-generic)", d) for d in
          ("rfc7539(chacha20-simd,poly1305-simd)", "rfc7539-chacha20poly1305-avx2")] + \
        [("rfc7539esp(chacha20-generic,poly1305-generic)", d) for d in
         ("rfc7539esp(chacha20-simd,poly1305-simd)", "rfc7539esp-chacha20poly1305-avx2")] + \
        [("gcm_base(ctr(aes-generic),ghash-generic)", d) for d in
         ("gcm_base(ctr-aes-aesni,ghash-clmulni)", "generic-gcm-aesni")] + \
        [("rfc4106(gcm_base(ctr(aes-generic),ghash-generic))", "rfc4106-gcm-aesni")] + \
        [(ref, f"{p}-{g}") for p, ref in (("generic-gcm", "gcm_base(ctr(aes-generic),ghash-generic)"),
                                          ("rfc4106-gcm", "rfc4106(gcm_base(ctr(aes-generic),ghash-generic))"))
         for g in ("aesni-avx", "vaes-avx2", "vaes-avx10_256", "vaes-avx10_512")] + \
        [("rfc4543(gcm_base(ctr(aes-generic),ghash-generic))", f"rfc4543({g})")
         for g in ("gcm_base(ctr-aes-aesni,ghash-clmulni)", "generic-gcm-aesni", "generic-gcm-aesni-avx",
                   "generic-gcm-vaes-avx2", "generic-gcm-vaes-avx10_256", "generic-gcm-vaes-avx10_512")] + \
        [(f"{t}(hmac({h}-generic),cbc(aes-generic))", f"{t}(hmac({h}-{isa}),cbc-aes-aesni)")
         for t in ("authenc", "authencesn") for h, isa in (("sha256", "ni"), ("sha256", "avx2"), ("sha512", "avx2"))]
HASHES = ([("poly1305-generic", d) for d in ("poly1305-simd", "poly1305-x86_64")]
          + [("nhpoly1305-generic", d) for d in ("nhpoly1305-sse2", "nhpoly1305-avx2")]
          + [(f"{h}-generic", f"{h}-{isa}") for h in ("sha256", "sha224")
             for isa in ("ssse3", "avx", "avx2", "ni")]
          + [("ghash-generic", "ghash-clmulni"), ("polyval-generic", "polyval-clmulni")]
          + [(f"{h}-generic", f"{h}-{isa}") for h in ("sha512", "sha384") for isa in ("ssse3", "avx", "avx2")])
CIPHERS = [("aes-generic", "aes-aesni")]

_tfms: dict = {}
_requested: list = []


def pick(fi, pairs: list, alloc):
    """The pair of ``pairs`` the input chooses, as (reference name, driver
    name, reference tfm, driver tfm), or None where this machine lacks a
    side (an input means the same pair on every machine).  Each tfm is
    allocated once per process: the fuzzers call this at every input."""
    ref_name, drv_name = fi.choice(pairs)
    if not _requested:
        for m in MODULES:
            try:
                capi.request_module(m)
            except CryptoError:
                pass                    # the CPU lacks its features: its pairs are skipped
        _requested.append(True)
    got = [cached(name, alloc) for name in (ref_name, drv_name)]
    if None in got:
        return None
    return ref_name, drv_name, got[0], got[1]


def cached(name: str, alloc):
    """``alloc(name)``, once per process (None where it is refused)."""
    if (name, alloc) not in _tfms:
        try:
            _tfms[name, alloc] = alloc(name)
        except CryptoError:
            _tfms[name, alloc] = None
    return _tfms[name, alloc]


def same_outcome(what: str, ref, drv):
    """Run two thunks; both must return equal values or raise CryptoErrors
    of one errno.  Returns the reference's value (None when both refused)."""
    rv, re = outcome(ref)
    dv, de = outcome(drv)
    if (re is None) != (de is None):
        raise AssertionError(f"{what}: reference {'refused: ' + re[1] if re else 'accepted'}, "
                             f"driver {'refused: ' + de[1] if de else 'accepted'}")
    if re is not None:
        if re[0] != de[0]:
            raise AssertionError(f"{what}: errno {re[0]} from the reference, {de[0]} from the driver "
                                 f"({re[1]}; {de[1]})")
        return None
    if rv != dv:
        raise AssertionError(f"{what}: results differ\n  reference {bytes(rv).hex()}\n  driver    {bytes(dv).hex()}")
    return rv


def outcome(thunk):
    """(value, None), or (None, (errno, message)) for a CryptoError.  The
    exception itself is not kept: held in a local of a caller of the frames
    its traceback holds, it would make a reference cycle through them, and
    CPython's collector cannot clear a memoryview that a cffi buffer still
    exports (docs/sanitizers.md, "What the fuzzers found")."""
    try:
        return thunk(), None
    except CryptoError as e:
        return None, (e.errno, str(e))


def raise_status(tfm, err: int) -> None:
    """A request's final status as the one-call path reports it (a CryptoError)."""
    if err:
        raise CryptoError(-err if err < 0 else err, f"{tfm.driver_name}: request failed ({err})")

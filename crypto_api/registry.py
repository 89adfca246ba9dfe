"""Algorithm registration and lookup (crypto/api.c, crypto/algapi.c).

One list of entries, newest first, holds algorithms and larvals; a single
re-entrant lock guards it and the template list.  Registration lists the
algorithm behind a test larval and announces CRYPTO_MSG_ALG_REGISTER on the
notifier chain; the crypto manager (algboss) answers it by running the
self-test synchronously (v5.0 blocks until the test is done) and reporting
through :func:`crypto_alg_tested`.  An algorithm that passes gets TESTED, kills
the template instances built on weaker implementations of its name, and is
announced with CRYPTO_MSG_ALG_LOADED.  Lookup follows the kernel: an exact
driver-name match wins, else the highest priority ``cra_name`` match, ties
going to the most recently registered entry; untested algorithms are seen only
by a second pass, which reports ELIBBAD (how lookups meet larvals and
TESTED masks follows the kernel version: ``lookup.*`` in the version table).
A miss loads modules through ``crypto-<name>`` aliases (the loader installs
itself with :func:`set_module_loader`) and then announces
CRYPTO_MSG_ALG_REQUEST, which the crypto manager answers by building a
template instance.

This module imports neither the loader, nor the templates, nor the test
manager: they sit above it and reach it through these hooks.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable, List, Optional

import attrs

from . import alg as A
from .errors import (EAGAIN, EBUSY, EEXIST, EINVAL, ELIBBAD, ENAMETOOLONG,
                     ENOENT, ETIMEDOUT, CryptoError)
from .notifier import (CRYPTO_MSG_ALG_LOADED, CRYPTO_MSG_ALG_REGISTER, CRYPTO_MSG_ALG_REQUEST,
                       NOTIFY_DONE, crypto_notify, crypto_probing_notify)
from .version_rules import rule

log = logging.getLogger("crypto_api")

lock = threading.RLock()
alg_list: List["CryptoAlg"] = []          # index 0 is the list head (newest)


class CryptoAlg:
    """The registry's live record of an algorithm or larval (``struct crypto_alg``).

    Descriptor fields (``min_keysize``, ``encrypt``, ...) are copied from the
    prepared descriptor ``desc`` (a frozen attrs object, so the copy cannot go
    stale) for fast attribute access; ``cra_flags`` and ``cra_refcnt`` are live.
    """

    def __init__(self, desc: Optional[A.AlgDescriptor], origin: Any, flags: int, module: str) -> None:
        if desc is not None:
            self.__dict__.update({f.name: getattr(desc, f.name) for f in attrs.fields(type(desc))})
        self.desc = desc
        self.origin = origin
        self.cra_name = desc.cra_name if desc is not None else ""
        self.cra_driver_name = desc.cra_driver_name if desc is not None else ""
        self.cra_priority = desc.cra_priority if desc is not None else -1
        self.cra_flags = flags
        self.cra_refcnt = 1
        self.cra_module = module
        self.cra_users: list = []
        self.larval_mask = 0
        self.adult: Optional[CryptoAlg] = None
        self.instance = None            # template.InstanceInfo for template instances
        self.what = "algorithm"         # lookup larvals: the type asked for, for messages
        self.probed: Optional[CryptoAlg] = None   # lookup larvals: what the template probe built

    def __getattr__(self, name):
        desc = object.__getattribute__(self, "desc")
        if desc is None:
            raise AttributeError(name)
        return getattr(desc, name)

    @property
    def kind(self) -> str:
        return "larval" if self.is_larval else self.desc.KIND

    @property
    def is_larval(self) -> bool:
        return bool(self.cra_flags & A.CRYPTO_ALG_LARVAL)

    @property
    def is_test_larval(self) -> bool:
        return self.is_larval and bool(self.cra_driver_name)

    @property
    def is_moribund(self) -> bool:
        return bool(self.cra_flags & (A.CRYPTO_ALG_DEAD | A.CRYPTO_ALG_DYING))

    @property
    def tested(self) -> bool:
        return bool(self.cra_flags & A.CRYPTO_ALG_TESTED)

    def __repr__(self) -> str:
        return (f"<CryptoAlg {self.kind} {self.cra_name!r} driver={self.cra_driver_name!r} "
                f"prio={self.cra_priority} flags={self.cra_flags:#x} refcnt={self.cra_refcnt}>")


def crypto_mod_get(alg: CryptoAlg) -> CryptoAlg:
    with lock:
        alg.cra_refcnt += 1
    return alg


def crypto_mod_put(alg: CryptoAlg) -> None:
    with lock:
        alg.cra_refcnt -= 1


# --------------------------------------------------------------------------
# The module loader (kmod's request_module and THIS_MODULE), installed by modules.py

@attrs.frozen
class ModuleLoader:
    """What the registry asks of the module loader.

    ``request_module(alias)`` loads the modules declaring an alias (returns
    how many); ``current_module()`` names the module whose init is running on
    this thread (the owner of what it registers), or None.
    """

    request_module: Callable[[str], int]
    current_module: Callable[[], Optional[str]]


NO_MODULE_LOADER = ModuleLoader(request_module=lambda alias: 0, current_module=lambda: None)
_loader: ModuleLoader = NO_MODULE_LOADER


def set_module_loader(loader: ModuleLoader) -> ModuleLoader:
    """Install the module loader; returns the previous one."""
    global _loader
    if not isinstance(loader, ModuleLoader):
        raise TypeError(f"expected a ModuleLoader, not {type(loader).__name__}")
    old, _loader = _loader, loader
    return old


def crypto_request_module(alias: str) -> int:
    """request_module through the installed loader (none installed: loads nothing)."""
    return _loader.request_module(alias)


def owning_module() -> Optional[str]:
    """The module whose init is running on this thread (THIS_MODULE), if any."""
    return _loader.current_module()


# --------------------------------------------------------------------------
# The kernel version's rule (crypto_api.kernels installs it)

@attrs.frozen
class VersionRule:
    """What the emulated kernel version decides at registration.

    ``driver(desc)`` returns the descriptor to register (renamed or
    re-prioritised as that kernel had it) or None where that kernel has no
    such driver; ``template(name)`` says whether the template exists.
    Template instances are not asked: their names follow their children.
    """

    driver: Callable[[Any], Any]
    template: Callable[[str], bool]


NO_VERSION_RULE = VersionRule(driver=lambda desc: desc, template=lambda name: True)
_rule: VersionRule = NO_VERSION_RULE
_refused: dict = {}                 # id(desc) -> desc the rule left out (their unregister is a no-op)


def set_version_rule(rule: VersionRule) -> VersionRule:
    """Install the kernel version's rule; returns the previous one."""
    global _rule
    if not isinstance(rule, VersionRule):
        raise TypeError(f"expected a VersionRule, not {type(rule).__name__}")
    old, _rule = _rule, rule
    return old


def version_rule() -> VersionRule:
    return _rule


def refused(desc) -> bool:
    """True if the kernel version's rule left ``desc`` (a descriptor or template) out."""
    return id(desc) in _refused and _refused[id(desc)] is desc


def forget_refused(desc) -> bool:
    """Forget a left-out ``desc`` at its unregistration; True if it was one."""
    with lock:
        if refused(desc):
            del _refused[id(desc)]
            return True
        return False


def note_refused(desc) -> None:
    with lock:
        _refused[id(desc)] = desc


# --------------------------------------------------------------------------
# Names

_NAME_OK = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-(),.+=:@")


def check_name(name, what: str = "algorithm name") -> str:
    """Refuse names that are not str, empty, too long or have odd characters."""
    if not isinstance(name, str):
        raise TypeError(f"{what} must be str, not {type(name).__name__}")
    if not name:
        raise CryptoError(ENOENT, f"empty {what}")
    if len(name) >= A.CRYPTO_MAX_ALG_NAME:
        raise CryptoError(
            ENAMETOOLONG,
            f"{what} {name[:40]!r}... is {len(name)} characters, at most {A.CRYPTO_MAX_ALG_NAME - 1} allowed",
        )
    bad = [c for c in name if c not in _NAME_OK]
    if bad:
        raise CryptoError(EINVAL, f"{what} {name!r} contains the character {bad[0]!r}")
    return name


# --------------------------------------------------------------------------
# Registration

def _check_alg(desc) -> None:
    """crypto_check_alg plus the per-type preparation checks."""
    if not isinstance(desc, A.ALG_KINDS):
        raise TypeError(f"expected a CipherAlg, SkcipherAlg, ShashAlg or AeadAlg, not {type(desc).__name__}")
    name = desc.cra_name
    if name == "":
        raise CryptoError(EINVAL, f"cannot register an algorithm with an empty cra_name "
                                  f"(driver {desc.cra_driver_name or 'unnamed'})")
    check_name(name, "cra_name")
    if desc.cra_driver_name:
        check_name(desc.cra_driver_name, "cra_driver_name")
    elif not _driver_name_filled():
        raise CryptoError(EINVAL, f"{name}: cra_driver_name is empty (kernels from 5.3 require one; "
                                  f"older ones registered it as {name}-generic)")
    elif len(name + "-generic") >= A.CRYPTO_MAX_ALG_NAME:
        raise CryptoError(ENAMETOOLONG, f"{name}: no driver name given and {name}-generic is too long")

    def bad(msg):
        raise CryptoError(EINVAL, f"{desc.cra_driver_name or name}: {msg}")

    for field in ("cra_priority", "cra_blocksize", "cra_alignmask", "cra_flags", "cra_ctxsize"):
        v = getattr(desc, field)
        if not isinstance(v, int) or isinstance(v, bool):
            bad(f"{field} must be an int, got {v!r}")
    am = desc.cra_alignmask
    if am < 0 or am & (am + 1):
        bad(f"cra_alignmask {am:#x} is not 2^k-1")
    if am > A.MAX_ALGAPI_ALIGNMASK:
        bad(f"cra_alignmask {am} exceeds {A.MAX_ALGAPI_ALIGNMASK}")
    if desc.cra_blocksize < 0 or desc.cra_blocksize > A.MAX_ALGAPI_BLOCKSIZE:
        bad(f"cra_blocksize {desc.cra_blocksize} outside 0..{A.MAX_ALGAPI_BLOCKSIZE}")
    if desc.cra_priority < 0:
        bad(f"cra_priority {desc.cra_priority} is negative")
    if isinstance(desc, A.CipherAlg):
        if am > A.MAX_CIPHER_ALIGNMASK or not 1 <= desc.cra_blocksize <= A.MAX_CIPHER_BLOCKSIZE:
            bad("a cipher needs 1 <= blocksize <= 16 and alignmask <= 15")
        _need(desc, bad, "setkey", "encrypt", "decrypt")
        _keysizes(desc, bad)
    elif isinstance(desc, A.SkcipherAlg):
        _need(desc, bad, "setkey", "encrypt", "decrypt")
        _keysizes(desc, bad)
        for field in ("ivsize", "chunksize", "walksize"):
            v = getattr(desc, field)
            if not isinstance(v, int) or not 0 <= v <= A.PAGE_SIZE // 8:
                bad(f"{field} {v!r} outside 0..{A.PAGE_SIZE // 8}")
    elif isinstance(desc, A.AeadAlg):
        _need(desc, bad, "setkey", "encrypt", "decrypt")
        for field in ("ivsize", "maxauthsize", "chunksize"):      # aead_prepare_alg
            v = getattr(desc, field)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= A.PAGE_SIZE // 8:
                bad(f"{field} {v!r} outside 0..{A.PAGE_SIZE // 8}")
    else:
        _need(desc, bad, "init", "update", "final")
        if not 0 <= desc.digestsize <= A.HASH_MAX_DIGESTSIZE:
            bad(f"digestsize {desc.digestsize} outside 0..{A.HASH_MAX_DIGESTSIZE}")
        if not 0 <= desc.descsize <= A.HASH_MAX_DESCSIZE:
            bad(f"descsize {desc.descsize} outside 0..{A.HASH_MAX_DESCSIZE}")
        if not 0 <= desc.statesize <= A.HASH_MAX_STATESIZE:
            bad(f"statesize {desc.statesize} outside 0..{A.HASH_MAX_STATESIZE}")
        if (desc.export is None) != (desc.import_ is None):
            bad("export and import_ must be given together")


def _need(desc, bad, *names) -> None:
    for n in names:
        if not callable(getattr(desc, n)):
            bad(f"{n} callback missing")


def _keysizes(desc, bad) -> None:
    lo, hi = desc.min_keysize, desc.max_keysize
    if not all(isinstance(v, int) and v >= 0 for v in (lo, hi)) or lo > hi:
        bad(f"key sizes min {lo!r} max {hi!r} are not 0 <= min <= max")


def _prepare(desc):
    """Apply the defaults the kernel fills in at registration."""
    changes = {}
    if not desc.cra_driver_name:
        changes["cra_driver_name"] = desc.cra_name + "-generic"
    flags = desc.cra_flags & ~(A.CRYPTO_ALG_TYPE_MASK | A.CRYPTO_ALG_TESTED | A.CRYPTO_ALG_LARVAL
                               | A.CRYPTO_ALG_DEAD | A.CRYPTO_ALG_DYING)
    changes["cra_flags"] = flags | desc.TYPE
    if isinstance(desc, A.SkcipherAlg):
        chunk = desc.chunksize or desc.cra_blocksize
        changes["chunksize"] = chunk
        changes["walksize"] = desc.walksize or chunk
    elif isinstance(desc, A.AeadAlg):
        changes["chunksize"] = desc.chunksize or desc.cra_blocksize
    elif isinstance(desc, A.ShashAlg):
        if desc.export is None:
            changes["statesize"] = desc.descsize
    return attrs.evolve(desc, **changes)


def _driver_name_filled() -> bool:
    """Up to 5.2 an empty driver name registers as ``cra_name + "-generic"``;
    from 5.3 it is EINVAL (``register.empty_driver_name`` in the kernel-version
    table; the composite fills it in)."""
    return rule("register.empty_driver_name", "filled") == "filled"


def _duplicates_refused() -> bool:
    """6.10+ refuses a second algorithm with a registered driver name; earlier
    kernels let both stand (``register.duplicate_driver`` in the kernel-version
    table, asked through crypto_api.version_rules; the composite refuses)."""
    return rule("register.duplicate_driver", "refused") == "refused"


def _conflict(new: CryptoAlg):
    """(reason, conflicting entry) for an EEXIST, or (None, None)."""
    for q in alg_list:
        if q.is_moribund:
            continue
        if q.origin is not None and q.origin is new.origin:
            return "this descriptor is already registered", q
        if q.is_larval:
            if q.cra_driver_name and q.cra_driver_name == new.cra_driver_name:
                return f"driver {q.cra_driver_name} is being tested right now", q
            continue
        if q.cra_driver_name == new.cra_name:
            return f"its cra_name {new.cra_name!r} is the driver name of a registered algorithm", q
        if q.cra_name == new.cra_driver_name:
            return f"its driver name {new.cra_driver_name!r} is the cra_name of a registered algorithm", q
        if q.cra_driver_name == new.cra_driver_name and _duplicates_refused():
            return f"driver name {new.cra_driver_name!r} is already registered", q
    return None, None


def register(desc, module: Optional[str] = None, extra_flags: int = 0,
             instance=None) -> Optional[CryptoAlg]:
    """Register a descriptor: checks, conflicts, self-test, finish-registration.

    Outside template instances, the kernel version's rule decides first: None
    is returned (and nothing registered) for a driver that kernel lacks."""
    _check_alg(desc)
    ruled = desc if instance is not None else _rule.driver(desc)
    if ruled is None:
        note_refused(desc)
        return None
    if ruled is not desc:
        _check_alg(ruled)
    prepared = _prepare(ruled)
    if module is None:
        module = desc.cra_module or owning_module() or "kernel"
    with lock:
        alg = CryptoAlg(prepared, desc, prepared.cra_flags | extra_flags, module)
        alg.instance = instance
        why, other = _conflict(alg)
        if why:
            err = CryptoError(EEXIST, f"{alg.cra_driver_name}: cannot register: {why}")
            err.existing = other
            raise err
        alg_list.insert(0, alg)
        if instance is not None:
            instance.attach(alg)
        _wait_for_test(alg)
        return alg


def _test_larval(alg: CryptoAlg) -> CryptoAlg:
    larval = CryptoAlg(None, None, alg.cra_flags | A.CRYPTO_ALG_TESTED | A.CRYPTO_ALG_LARVAL, alg.cra_module)
    larval.cra_name = alg.cra_name
    larval.cra_driver_name = alg.cra_driver_name
    larval.cra_priority = alg.cra_priority
    larval.adult = crypto_mod_get(alg)
    return larval


def _kill_larval(larval: CryptoAlg) -> None:
    """crypto_larval_kill: take a larval off the list and drop its adult."""
    larval.cra_flags |= A.CRYPTO_ALG_DEAD
    if larval in alg_list:
        alg_list.remove(larval)
    if larval.adult is not None and larval.is_test_larval:
        crypto_mod_put(larval.adult)
    larval.adult = None


def _wait_for_test(alg: CryptoAlg) -> None:
    """crypto_wait_for_test: announce the registration and wait for the verdict.

    The crypto manager answers CRYPTO_MSG_ALG_REGISTER synchronously, calling
    :func:`crypto_alg_tested` before it returns.  Nobody answering (no manager
    subscribed) counts as a pass, as in the kernel without cryptomgr.  A
    subscriber that raises (a bad self-test setting) refuses the registration:
    nothing stays listed.
    """
    larval = _test_larval(alg)
    alg_list.insert(0, larval)
    try:
        answer = crypto_probing_notify(CRYPTO_MSG_ALG_REGISTER, alg)
        if answer == NOTIFY_DONE:
            crypto_alg_tested(alg.cra_driver_name, 0)
    except BaseException:
        _kill_larval(larval)
        alg.cra_flags |= A.CRYPTO_ALG_DEAD
        _unlink(alg)
        raise
    _kill_larval(larval)
    if alg.tested and not alg.is_moribund:
        crypto_notify(CRYPTO_MSG_ALG_LOADED, alg)


def crypto_alg_tested(name: str, err: int) -> None:
    """The self-test verdict for the driver ``name`` (0: passed, else an errno).

    A pass marks the algorithm TESTED and finishes its registration; a failure
    leaves it listed but untested (found only by the ELIBBAD pass).
    """
    with lock:
        larval = next((q for q in alg_list if q.is_test_larval and not q.is_moribund
                       and q.cra_driver_name == name), None)
        if larval is None:
            log.warning("alg: unexpected test result for %s: %d", name, err)
            return
        larval.cra_flags |= A.CRYPTO_ALG_DEAD
        alg = larval.adult
        if err or alg is None or alg.is_moribund or alg not in alg_list:
            return
        alg.cra_flags |= A.CRYPTO_ALG_TESTED
        _finish_registration(alg)


def _finish_registration(alg: CryptoAlg) -> None:
    """Fulfil lookup larvals; kill instances built on weaker same-name algs.

    A lookup larval is not fulfilled while a better implementation of the same
    cra_name is still under test (the 5.5+ "best" rule): e.g. the generic
    reference instance that a full self-test builds must not answer the lookup
    that is instantiating the better one; the caller looks up again instead.
    """
    better_under_test = any(t.is_test_larval and not t.is_moribund and t.cra_name == alg.cra_name
                            and t.cra_priority > alg.cra_priority for t in alg_list)
    for q in list(alg_list):
        if q is alg or q.is_moribund:
            continue
        if q.is_larval:
            if (not q.is_test_larval and q.adult is None and not better_under_test
                    and q.cra_name in (alg.cra_name, alg.cra_driver_name)
                    and not (q.cra_flags ^ alg.cra_flags) & q.larval_mask):
                q.adult = alg
            continue
        if q.cra_name != alg.cra_name:
            continue
        if q.cra_driver_name != alg.cra_driver_name and q.cra_priority > alg.cra_priority:
            continue
        remove_spawns(q, alg)


def remove_spawns(alg: CryptoAlg, nalg: Optional[CryptoAlg]) -> List[CryptoAlg]:
    """Kill every instance (recursively) using ``alg`` that ``nalg`` could serve."""
    victims: List[CryptoAlg] = []
    stack = [sp for sp in alg.cra_users
             if nalg is None or not (sp.alg.cra_flags ^ nalg.cra_flags) & sp.mask]
    while stack:
        sp = stack.pop()
        inst = sp.inst
        if inst is None or inst is nalg or inst.is_moribund:
            continue
        inst.cra_flags |= A.CRYPTO_ALG_DEAD
        victims.append(inst)
        stack.extend(inst.cra_users)
    for inst in victims:
        _unlink(inst)
    return victims


def _unlink(alg: CryptoAlg) -> None:
    if alg in alg_list:
        alg_list.remove(alg)
    if alg.instance is not None:
        alg.instance.detach(alg)


def find_registered(desc) -> Optional[CryptoAlg]:
    for q in alg_list:
        if q.origin is desc and not q.is_larval:
            return q
    return None


def unregister(desc) -> None:
    with lock:
        alg = find_registered(desc)
        if alg is None and forget_refused(desc):
            return
        if alg is None:
            name = getattr(desc, "cra_driver_name", "") or getattr(desc, "cra_name", repr(desc))
            raise CryptoError(ENOENT, f"{name}: not registered")
        kill_alg(alg)


def kill_alg(alg: CryptoAlg) -> None:
    """crypto_unregister_alg for a live record: refuse while in use, then remove."""
    if alg.cra_refcnt != 1:
        raise CryptoError(
            EBUSY, f"{alg.cra_driver_name}: in use ({alg.cra_refcnt - 1} reference(s) held by live transforms)")
    alg.cra_flags |= A.CRYPTO_ALG_DEAD
    _unlink(alg)
    remove_spawns(alg, None)
    if alg.desc.cra_destroy is not None:
        alg.desc.cra_destroy(alg)


# --------------------------------------------------------------------------
# Lookup

def _larvals_of_other_masks_skipped() -> bool:
    """Up to 6.11 a lookup passes over a lookup larval that another lookup made
    with a different mask; from 6.12 it takes it (and, once the larval is done,
    looks up again with its own type and mask) (``lookup.larval_mask`` in the
    kernel-version table; the composite skips)."""
    return rule("lookup.larval_mask", "skipped") == "skipped"


def _lookup_core(name: str, type: int, mask: int) -> Optional[CryptoAlg]:
    best = -2
    found = None
    skip_other_masks = _larvals_of_other_masks_skipped()
    for q in alg_list:
        if q.cra_flags & (A.CRYPTO_ALG_DEAD | A.CRYPTO_ALG_DYING):
            continue
        if (q.cra_flags ^ type) & mask:
            continue
        if q.is_larval and not q.is_test_larval and q.larval_mask != mask and skip_other_masks:
            continue
        exact = q.cra_driver_name == name
        if not exact and not (q.cra_name == name and q.cra_priority > best):
            continue
        found = q
        best = q.cra_priority
        if exact:
            break
    return found


def crypto_alg_lookup(name: str, type: int, mask: int) -> Optional[CryptoAlg]:
    """Two-pass lookup: tested algorithms first, then ELIBBAD for failed ones."""
    if (type | mask) & A.CRYPTO_ALG_TESTED:
        return _lookup_core(name, type, mask)
    alg = _lookup_core(name, type | A.CRYPTO_ALG_TESTED, mask | A.CRYPTO_ALG_TESTED)
    if alg is not None:
        return alg
    alg = _lookup_core(name, type, mask)
    if alg is not None and not alg.is_larval:
        raise CryptoError(ELIBBAD, f"{alg.cra_driver_name}: registered but failed its self-test")
    return alg


def _tested_mask_instantiates() -> bool:
    """Up to 6.11 a lookup that finds nothing makes a lookup larval whatever its
    mask, so a template is instantiated; from 6.12 a lookup whose mask holds
    TESTED (a self-test's) gets ENOENT instead (``lookup.tested_mask`` in the
    kernel-version table; the composite instantiates)."""
    return rule("lookup.tested_mask", "instantiates") == "instantiates"


_probe_depth = threading.local()
MAX_TEMPLATE_DEPTH = 16


def crypto_alg_mod_lookup(name: str, type: int, mask: int, what: str = "algorithm") -> CryptoAlg:
    """Find (loading modules or building an instance if needed) and get a reference.

    A miss asks the module loader for ``crypto-<name>``, then announces
    CRYPTO_MSG_ALG_REQUEST with a lookup larval; the crypto manager's template
    probe fulfils it (``larval.adult``) or refuses with the template's error.
    """
    check_name(name)
    if not (type | mask) & A.CRYPTO_ALG_INTERNAL:
        mask |= A.CRYPTO_ALG_INTERNAL
    type &= ~(A.CRYPTO_ALG_LARVAL | A.CRYPTO_ALG_DEAD)
    mask &= ~(A.CRYPTO_ALG_LARVAL | A.CRYPTO_ALG_DEAD)
    with lock:
        alg = crypto_alg_lookup(name, type, mask)
        if alg is None and not mask & A.CRYPTO_ALG_NOLOAD:
            crypto_request_module("crypto-" + name)
            if not (mask & A.CRYPTO_ALG_NEED_FALLBACK and not type & A.CRYPTO_ALG_NEED_FALLBACK):
                crypto_request_module("crypto-" + name + "-all")
            alg = crypto_alg_lookup(name, type, mask)
        if alg is not None:
            if alg.is_test_larval:
                raise CryptoError(EAGAIN, f"{name}: {alg.cra_driver_name} is still being tested")
            if alg.is_larval:
                # Only this thread can meet a lookup larval (the lock is held while the
                # instance is built), and only this thread would complete it: the
                # kernel waits its 60 s for it and gives up.
                raise CryptoError(ETIMEDOUT, f"{name}: the lookup waits on a request for the same name "
                                             f"that only it could complete (a lookup nested in that "
                                             f"request's instantiation)")
            return crypto_mod_get(alg)
        if mask & A.CRYPTO_ALG_TESTED and not _tested_mask_instantiates():
            raise CryptoError(ENOENT, f"{name}: no {what} of that name registered; a lookup whose mask "
                                      f"holds CRYPTO_ALG_TESTED (a self-test's) builds no template "
                                      f"instance from 6.12")
        depth = getattr(_probe_depth, "n", 0)
        if depth >= MAX_TEMPLATE_DEPTH:
            raise CryptoError(EINVAL, f"{name}: templates nested deeper than {MAX_TEMPLATE_DEPTH} levels")
        larval = CryptoAlg(None, None, A.CRYPTO_ALG_LARVAL | type, "kernel")
        larval.cra_name = name
        larval.larval_mask = mask
        larval.what = what
        alg_list.insert(0, larval)
        _probe_depth.n = depth + 1
        try:
            crypto_probing_notify(CRYPTO_MSG_ALG_REQUEST, larval)
        finally:
            _probe_depth.n = depth
            larval.cra_flags |= A.CRYPTO_ALG_DEAD
            alg_list.remove(larval)
        if larval.adult is not None and not larval.adult.is_moribund:
            return crypto_mod_get(larval.adult)
        alg = crypto_alg_lookup(name, type, mask)
        if alg is not None and not alg.is_larval:
            return crypto_mod_get(alg)
        # The template built (or already had) an instance whose names differ
        # from the request, e.g. adiantum(xchacha12-generic,aes-generic):
        # hand out that instance rather than a confusing ENOENT.
        made = larval.probed
        if (made is not None and made.tested and not made.is_moribund
                and not (made.cra_flags ^ type) & mask & ~A.CRYPTO_ALG_TESTED):
            return crypto_mod_get(made)
        raise CryptoError(ENOENT, f"{name}: no {what} of that name")


def crypto_has_alg(name: str, type: int = 0, mask: int = 0) -> bool:
    try:
        alg = crypto_alg_mod_lookup(name, type, mask)
    except CryptoError:
        return False
    crypto_mod_put(alg)
    return True


def snapshot() -> List[CryptoAlg]:
    with lock:
        return list(alg_list)

"""The crypto manager (crypto/algboss.c): self-tests and template probes.

Subscribed to the crypto notifier chain when crypto_api is imported (the
kernel's cryptomgr is built in and registers at arch_initcall):

* ``CRYPTO_MSG_ALG_REGISTER``: run the self-test manager's ``alg_test`` on
  the new algorithm and report the verdict with ``crypto_alg_tested``
  (cryptomgr_schedule_test / cryptomgr_test).  Internal algorithms, and every
  algorithm at level ``off``, pass without a test.  It runs synchronously, on
  the registering thread: v5.0 blocks the registration behind its test larval
  until the verdict is in.
* ``CRYPTO_MSG_ALG_REQUEST``: a lookup missed; if the name is a template
  instance name, find or load the template and let it build the instance
  (cryptomgr_schedule_probe / cryptomgr_probe).  The template's own refusal
  reaches the caller (the rule of later kernels, which this project follows).

A bad self-test setting (``CRYPTO_API_SELFTESTS``) refuses both: no algorithm
is registered untested and a lookup says why instead of a bare ENOENT.
"""

from __future__ import annotations

import logging
from typing import Any, List, Optional

from . import alg as A
from . import registry
from .errors import EAGAIN, EEXIST, EINVAL, ENOENT, CryptoError
from .notifier import (CRYPTO_MSG_ALG_REGISTER, CRYPTO_MSG_ALG_REQUEST, NOTIFY_DONE, NOTIFY_OK,
                       NOTIFY_STOP, NotifierBlock, crypto_register_notifier,
                       crypto_unregister_notifier)
from .template import (Attr, CryptoAttrType, crypto_lookup_template, recording_instances,
                       split_template_name)
from .testmgr import alg_test, get_level

log = logging.getLogger("crypto_api")

MAX_EAGAIN_RETRIES = 16


# --------------------------------------------------------------------------
# CRYPTO_MSG_ALG_REGISTER: the self-test

def _test_verdict(driver: str, name: str, alg_type: int) -> int:
    """alg_test's verdict as an errno (0: passed); failures are logged, not raised."""
    try:
        alg_test(driver, name, alg_type, A.CRYPTO_ALG_TESTED)
    except CryptoError as e:
        log.warning("alg: self-tests for %s (%s) failed (rc=%d)", driver, name, -e.errno)
        return e.errno
    except Exception as e:  # a driver bug: the driver failed its test
        log.warning("alg: self-tests for %s (%s) failed: %s: %s", driver, name, type(e).__name__, e)
        return EINVAL
    return 0


def cryptomgr_schedule_test(alg: registry.CryptoAlg) -> int:
    """Test a new algorithm and report the verdict (NOTIFY_STOP: answered)."""
    level = get_level()             # a bad CRYPTO_API_SELFTESTS refuses the registration
    type = alg.cra_flags
    if type & A.CRYPTO_ALG_INTERNAL:
        type |= A.CRYPTO_ALG_TESTED  # internal algorithms are tested through their users
    err = 0
    if level != "off" and not type & A.CRYPTO_ALG_TESTED:
        err = _test_verdict(alg.cra_driver_name, alg.cra_name, type & ~A.CRYPTO_ALG_TESTED)
    registry.crypto_alg_tested(alg.cra_driver_name, err)
    return NOTIFY_STOP


# --------------------------------------------------------------------------
# CRYPTO_MSG_ALG_REQUEST: the template probe

def _parse_request(name: str, what: str):
    """(template name, parameters) of a lookup name, or None if it names no instance.

    The kernel's parser stops at the parenthesis that closes the parameter
    list and never looks further, so a name with text after it builds the
    instance without that text, whose names then never match the request:
    such a lookup can only fail (ENOENT).  It is refused here, before any
    instance is built, naming the junk.
    """
    try:
        tname, params, rest = split_template_name(name)
    except ValueError as e:
        if "(" not in name:
            return None     # a plain name: the caller reports a plain ENOENT
        raise CryptoError(ENOENT, f"{name}: no {what} of that name, and not a valid "
                                  f"template instance name: {e}") from None
    if rest:
        head = name[:len(name) - len(rest)]
        raise CryptoError(ENOENT, f"{name}: no {what} of that name, and not a valid template "
                                  f"instance name: {rest!r} follows the closing parenthesis "
                                  f"of {head!r}")
    return tname, params


def cryptomgr_probe(larval: registry.CryptoAlg) -> Optional[registry.CryptoAlg]:
    """Let the template named by the lookup larval build its instance.

    Returns the instance the template registered (or the live instance of
    the same template it collided with), or None when the name is no
    template instance name or no such template exists.  The template's
    errors propagate; EAGAIN is retried.
    """
    parsed = _parse_request(larval.cra_name, larval.what)
    if parsed is None:
        return None
    tname, params = parsed
    rec = crypto_lookup_template(tname)
    if rec is None:
        return None
    type, mask = larval.cra_flags & ~A.CRYPTO_ALG_LARVAL, larval.larval_mask
    tb: List[Attr] = [CryptoAttrType(type & ~A.CRYPTO_ALG_TESTED, mask & ~A.CRYPTO_ALG_TESTED)]
    tb += params
    with recording_instances() as made:
        for _ in range(MAX_EAGAIN_RETRIES):
            made.made = None
            try:
                rec.tmpl.create(rec.tmpl, tb)
                return made.made
            except CryptoError as e:
                existing = getattr(e, "existing", None)
                if (e.errno == EEXIST and existing is not None and existing.instance is not None
                        and existing.instance.record is rec):
                    return existing
                if e.errno != EAGAIN:
                    raise
    raise CryptoError(EAGAIN, f"{larval.cra_name}: template {tname} kept failing with EAGAIN")


def cryptomgr_schedule_probe(larval: registry.CryptoAlg) -> int:
    """Answer a lookup miss: the instance built goes to ``larval.probed``."""
    get_level()                     # a bad CRYPTO_API_SELFTESTS: say so, not a bare ENOENT
    larval.probed = cryptomgr_probe(larval)
    return NOTIFY_STOP if larval.probed is not None else NOTIFY_OK


# --------------------------------------------------------------------------
# The subscription

def cryptomgr_notify(nb: NotifierBlock, msg: int, data: Any) -> int:
    if msg == CRYPTO_MSG_ALG_REQUEST:
        return cryptomgr_schedule_probe(data)
    if msg == CRYPTO_MSG_ALG_REGISTER:
        return cryptomgr_schedule_test(data)
    return NOTIFY_DONE


CRYPTOMGR_NOTIFIER = NotifierBlock(cryptomgr_notify, name="cryptomgr")


def cryptomgr_init() -> None:
    crypto_register_notifier(CRYPTOMGR_NOTIFIER)


def cryptomgr_exit() -> None:
    crypto_unregister_notifier(CRYPTOMGR_NOTIFIER)


cryptomgr_init()

"""Templates, instances and spawns (crypto/algapi.c; the name parser of crypto/algboss.c).

A template builds an algorithm instance from a parameterised name such as
``adiantum(xchacha12,aes)``.  On a lookup miss the crypto manager
(:mod:`crypto_api.algboss`) parses the name (:func:`split_template_name`,
cryptomgr's rules), finds or loads the template through its
``crypto-<template>`` alias (:func:`crypto_lookup_template`) and calls its
``create``.  An instance refers to its inner algorithms through spawns
(:func:`crypto_grab_spawn`; each frontend's ``crypto_grab_<type>`` wraps it);
spawns are linked into the inner algorithm's users so that unregistering it,
or registering a better implementation of its name, kills the instance (the
registry does that).  Live transforms keep working; the next allocation
builds a new instance.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any, Callable, Iterable, Iterator, List, Optional, Tuple, Union

import attrs

from . import alg as A
from . import registry
from .errors import EAGAIN, EBUSY, EEXIST, EINVAL, ENAMETOOLONG, ENOENT, CryptoError

CRYPTO_MAX_ATTRS = 32
_TOKEN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


@attrs.frozen
class CryptoAttrType:
    """tb[0]: the type and mask of the lookup that asked for the instance."""

    type: int
    mask: int


@attrs.frozen
class CryptoAttrAlg:
    """An algorithm-name parameter."""

    name: str


@attrs.frozen
class CryptoAttrU32:
    """A numeric parameter (all digits, no parentheses)."""

    num: int


Attr = Union[CryptoAttrType, CryptoAttrAlg, CryptoAttrU32]


def _number(text: str) -> int:
    # strtol(text, NULL, 0) on an all-digit string: a leading 0 means octal,
    # and the conversion stops at the first digit that is not octal ("0129" -> 012).
    if len(text) > 1 and text[0] == "0":
        end = 1
        while end < len(text) and text[end] in "01234567":
            end += 1
        return int(text[:end], 8)
    return int(text, 10)


def parse_template_name(name: str) -> Tuple[str, List[Attr]]:
    """Split ``tmpl(p1,p2,...)`` the way cryptomgr does; ValueError if malformed.

    Nested parentheses form one parameter; all-digit parameters become
    numbers; text after the closing parenthesis is not looked at (as in the
    kernel's parser: :func:`split_template_name` returns it).
    """
    tname, params, _rest = split_template_name(name)
    return tname, params


def split_template_name(name: str) -> Tuple[str, List[Attr], str]:
    """:func:`parse_template_name` plus the text after the closing parenthesis."""
    if not isinstance(name, str):
        raise TypeError(f"template name must be str, not {type(name).__name__}")
    n = len(name)
    i = 0
    while i < n and name[i] in _TOKEN:
        i += 1
    if i == 0 or i >= n or name[i] != "(":
        raise ValueError(f"{name!r} is not of the form template(parameters)")
    tname = name[:i]
    params: List[Attr] = []
    i += 1
    while True:
        start = i
        while i < n and name[i] in _TOKEN:
            i += 1
        nested = False
        if i < n and name[i] == "(":
            nested = True
            depth = 0
            while i < n:
                if name[i] == "(":
                    depth += 1
                elif name[i] == ")":
                    depth -= 1
                    if depth == 0:
                        break
                i += 1
            if i >= n:
                raise ValueError(f"{name!r}: unbalanced parentheses")
            i += 1
        text = name[start:i]
        if not text:
            raise ValueError(f"{name!r}: empty parameter")
        if len(params) >= CRYPTO_MAX_ATTRS:
            raise ValueError(f"{name!r}: more than {CRYPTO_MAX_ATTRS} parameters")
        if not nested and text.isdigit():
            params.append(CryptoAttrU32(_number(text)))
        else:
            params.append(CryptoAttrAlg(text))
        if i >= n:
            raise ValueError(f"{name!r}: missing ')'")
        if name[i] == ",":
            i += 1
            continue
        if name[i] == ")":
            return tname, params, name[i + 1:]
        raise ValueError(f"{name!r}: unexpected {name[i]!r} at position {i}")


# --------------------------------------------------------------------------
# Parameter helpers

def crypto_get_attr_type(tb: List[Attr]) -> CryptoAttrType:
    if not tb:
        raise CryptoError(ENOENT, "template: type attribute missing")
    if not isinstance(tb[0], CryptoAttrType):
        raise CryptoError(EINVAL, "template: first attribute is not a type")
    return tb[0]


def crypto_check_attr_type(tb: List[Attr], type: int, tname: str = "template") -> CryptoAttrType:
    algt = crypto_get_attr_type(tb)
    if (algt.type ^ type) & algt.mask:
        raise CryptoError(EINVAL, f"{tname}: instances are of type {A.type_name(type)}, "
                                  f"not the type {A.type_name(algt.type)} that was asked for")
    return algt


def _attr(tb: List[Attr], i: int, kind, what: str, tname: str):
    if i >= len(tb):
        raise CryptoError(ENOENT, f"{tname}: parameter {i} missing")
    a = tb[i]
    if not isinstance(a, kind):
        raise CryptoError(EINVAL, f"{tname}: parameter {i} must be {what}, got {a!r}")
    return a


def crypto_attr_alg_name(tb: List[Attr], i: int, tname: str = "template") -> str:
    return _attr(tb, i, CryptoAttrAlg, "an algorithm name", tname).name


def crypto_attr_u32(tb: List[Attr], i: int, tname: str = "template") -> int:
    return _attr(tb, i, CryptoAttrU32, "a number", tname).num


def crypto_requires_sync(type: int, mask: int) -> int:
    return (type ^ A.CRYPTO_ALG_ASYNC) & mask & A.CRYPTO_ALG_ASYNC


def crypto_inst_name(tname: str, *inner: str) -> str:
    """``tname(inner1,inner2,...)``; ENAMETOOLONG at CRYPTO_MAX_ALG_NAME."""
    name = f"{tname}({','.join(inner)})"
    if len(name) >= A.CRYPTO_MAX_ALG_NAME:
        raise CryptoError(ENAMETOOLONG, f"{tname}: instance name {name[:48]}... is {len(name)} "
                                        f"characters, at most {A.CRYPTO_MAX_ALG_NAME - 1} allowed")
    return name


# --------------------------------------------------------------------------
# Templates

@attrs.frozen(eq=False)
class Template:
    """``struct crypto_template``: ``create(tmpl, tb)`` registers an instance."""

    name: str
    create: Callable[["Template", List[Attr]], Any]
    module: Optional[str] = None


class TemplateRecord:
    """A registered template and its live instances."""

    __slots__ = ("tmpl", "module", "instances")

    def __init__(self, tmpl: Template, module: str) -> None:
        self.tmpl = tmpl
        self.module = module
        self.instances: List[registry.CryptoAlg] = []


_templates: List[TemplateRecord] = []


def _record_of(tmpl: Template) -> Optional[TemplateRecord]:
    return next((r for r in _templates if r.tmpl is tmpl), None)


def _find_template(name: str) -> Optional[TemplateRecord]:
    return next((r for r in _templates if r.tmpl.name == name), None)


def crypto_register_template(tmpl: Template) -> None:
    if not isinstance(tmpl, Template):
        raise TypeError(f"expected a Template, not {type(tmpl).__name__}")
    registry.check_name(tmpl.name, "template name")
    with registry.lock:
        if not registry.version_rule().template(tmpl.name):
            registry.note_refused(tmpl)     # the emulated kernel has no such template
            return
        if _record_of(tmpl) is not None:
            raise CryptoError(EEXIST, f"template {tmpl.name}: already registered")
        module = tmpl.module or registry.owning_module() or "kernel"
        _templates.insert(0, TemplateRecord(tmpl, module))


def crypto_register_templates(tmpls: Iterable[Template]) -> None:
    """Register every template of ``tmpls``, or none: a failure unregisters
    those already registered and raises (crypto_register_templates())."""
    done = []
    try:
        for t in tmpls:
            crypto_register_template(t)
            done.append(t)
    except BaseException:
        crypto_unregister_templates(done)
        raise


def crypto_unregister_templates(tmpls: Iterable[Template]) -> None:
    """Unregister ``tmpls`` in the reverse order (crypto_unregister_templates())."""
    for t in reversed(tuple(tmpls)):
        crypto_unregister_template(t)


def crypto_unregister_template(tmpl: Template) -> None:
    with registry.lock:
        rec = _record_of(tmpl)
        if rec is None and registry.forget_refused(tmpl):
            return
        if rec is None:
            raise CryptoError(ENOENT, f"template {getattr(tmpl, 'name', tmpl)!r}: not registered")
        busy = [i for i in rec.instances if i.cra_refcnt != 1]
        if busy:
            raise CryptoError(EBUSY, f"template {tmpl.name}: instance {busy[0].cra_driver_name} is in use")
        for inst in list(rec.instances):
            inst.cra_flags |= A.CRYPTO_ALG_DEAD
            registry.remove_spawns(inst, None)
            registry._unlink(inst)
        _templates.remove(rec)


def crypto_lookup_template(name: str) -> Optional[TemplateRecord]:
    """The registered template ``name``, loading its ``crypto-<name>`` module if needed."""
    with registry.lock:
        rec = _find_template(name)
        if rec is None:
            registry.crypto_request_module("crypto-" + name)
            rec = _find_template(name)
        return rec


def registered_templates() -> List[str]:
    with registry.lock:
        return [r.tmpl.name for r in _templates]


# --------------------------------------------------------------------------
# Spawns and instances

class CryptoSpawn:
    """A reference from an instance to an inner algorithm."""

    __slots__ = ("alg", "mask", "frontend", "inst")

    def __init__(self, alg: registry.CryptoAlg, mask: int, frontend: Any) -> None:
        self.alg = alg
        self.mask = mask
        self.frontend = frontend
        self.inst: Optional[registry.CryptoAlg] = None

    def __repr__(self) -> str:
        return f"<CryptoSpawn {self.alg.cra_driver_name} -> {self.inst and self.inst.cra_driver_name}>"


class InstanceInfo:
    """What makes a registered algorithm an instance: its template and spawns."""

    __slots__ = ("record", "spawns")

    def __init__(self, record: TemplateRecord, spawns: List[CryptoSpawn]) -> None:
        self.record = record
        self.spawns = spawns

    def attach(self, alg: registry.CryptoAlg) -> None:
        for sp in self.spawns:
            sp.inst = alg
            sp.alg.cra_users.append(sp)
        self.record.instances.append(alg)

    def detach(self, alg: registry.CryptoAlg) -> None:
        for sp in self.spawns:
            if sp in sp.alg.cra_users:
                sp.alg.cra_users.remove(sp)
        if alg in self.record.instances:
            self.record.instances.remove(alg)


def crypto_grab_spawn(frontend: Any, name: str, type: int = 0, mask: int = 0) -> CryptoSpawn:
    """Find ``name`` as an inner algorithm of the type ``frontend`` allocates
    (crypto_grab_spawn); the frontends' ``crypto_grab_<type>`` call this."""
    if isinstance(name, CryptoError):
        raise name
    type = (type & ~A.CRYPTO_ALG_TYPE_MASK) | frontend.TYPE
    mask = mask | frontend.MASKSET
    alg = registry.crypto_alg_mod_lookup(name, type, mask, frontend.WHAT)
    registry.crypto_mod_put(alg)          # the spawn links as a user instead
    return CryptoSpawn(alg, mask, frontend)


def crypto_spawn_tfm(spawn: CryptoSpawn) -> Any:
    """A new child transform of the spawn's algorithm (EAGAIN if it died)."""
    alg = spawn.alg
    if alg.is_moribund:
        raise CryptoError(EAGAIN, f"{alg.cra_driver_name}: inner algorithm is gone")
    registry.crypto_mod_get(alg)
    try:
        return spawn.frontend.create_tfm(alg)
    except BaseException:
        registry.crypto_mod_put(alg)
        raise


crypto_spawn_skcipher = crypto_spawn_tfm
crypto_spawn_cipher = crypto_spawn_tfm
crypto_spawn_shash = crypto_spawn_tfm


def crypto_register_instance(tmpl: Template, desc: A.AlgDescriptor,
                             spawns: List[CryptoSpawn]) -> registry.CryptoAlg:
    """Register an instance descriptor built by ``tmpl.create``."""
    with registry.lock:
        rec = _record_of(tmpl)
        if rec is None:
            raise CryptoError(ENOENT, f"template {tmpl.name}: not registered")
        alg = registry.register(desc, module=rec.module, extra_flags=A.CRYPTO_ALG_INSTANCE,
                                instance=InstanceInfo(rec, list(spawns)))
        recorder = getattr(_recording, "current", None)
        if recorder is not None:
            recorder.made = alg
        return alg


skcipher_register_instance = crypto_register_instance
shash_register_instance = crypto_register_instance


class InstanceRecorder:
    """What one ``create`` call registered (see :func:`recording_instances`)."""

    __slots__ = ("made",)

    def __init__(self) -> None:
        self.made: Optional[registry.CryptoAlg] = None


_recording = threading.local()


@contextlib.contextmanager
def recording_instances() -> Iterator[InstanceRecorder]:
    """Record the instance the templates register on this thread inside the block.

    Nested blocks (a probe for an inner name during ``create``) record
    separately; the outer recorder sees only its own template's instance.
    """
    outer = getattr(_recording, "current", None)
    rec = _recording.current = InstanceRecorder()
    try:
        yield rec
    finally:
        _recording.current = outer

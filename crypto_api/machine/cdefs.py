"""The restricted C prototype grammar of the cores of the emulated machines.

A core's ``cdef`` holds prototypes using only ``void``, ``int``, ``unsigned
int``, ``size_t``, ``uint32_t``, ``uint64_t``, ``int64_t`` scalars and
pointers to ``uint8_t``, ``uint32_t``, ``uint64_t`` or ``void`` (``const``:
input only; otherwise copied in and out), at most 8 parameters, returning
``void`` or an integer.  The qemu backend generates its dispatcher from
them; anything outside the grammar is refused when the helper is built.

Standard library only (no attrs): setup.py's prebuild of the helpers runs
this module in pip's isolated build environment, which has the build
requirements but none of the run-time dependencies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import List, Tuple

from ..errors import EINVAL, CryptoError

SCALARS = ("int", "unsigned int", "size_t", "uint32_t", "uint64_t", "int64_t")
POINTEES = ("uint8_t", "uint32_t", "uint64_t", "void")
MAX_PARAMS = 8

_PROTO = re.compile(r"^(?P<ret>[\w ]+?)\s*\b(?P<name>[A-Za-z_]\w*)\s*\((?P<params>[^()]*)\)$")
_PARAM = re.compile(r"^(?P<const>const\s+)?(?P<type>unsigned\s+int|\w+)\s*(?P<ptr>\*)?\s*(?P<name>[A-Za-z_]\w*)?$")


@dataclass(frozen=True)
class Param:
    name: str
    ctype: str            # the scalar type, or the pointee type of a pointer
    pointer: bool
    const: bool

    def c_decl(self) -> str:
        if self.pointer:
            return f"{'const ' if self.const else ''}{self.ctype} *"
        return self.ctype


@dataclass(frozen=True)
class Function:
    name: str
    ret: str              # "void" or one of SCALARS
    params: Tuple[Param, ...]

    @property
    def signed_ret(self) -> bool:
        return self.ret in ("int", "int64_t")

    @property
    def ret_bits(self) -> int:
        return 64 if self.ret in ("size_t", "uint64_t", "int64_t") else 32


def _norm(s: str) -> str:
    return " ".join(s.split())


def parse_cdef(cdef: str, where: str = "cdef") -> List[Function]:
    """The functions a cdef declares; CryptoError(EINVAL) naming the
    prototype for anything outside the grammar."""
    text = re.sub(r"/\*.*?\*/", " ", cdef, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    out: List[Function] = []
    for raw in text.split(";"):
        proto = _norm(raw)
        if not proto:
            continue
        m = _PROTO.match(proto)
        if not m:
            raise CryptoError(EINVAL, f"{where}: not a prototype of the core grammar: {proto!r}")
        ret = _norm(m["ret"])
        if ret != "void" and ret not in SCALARS:
            raise CryptoError(EINVAL, f"{where}: {m['name']}: return type {ret!r} is not void or an integer")
        params: List[Param] = []
        plist = _norm(m["params"])
        if plist not in ("", "void"):
            for i, p in enumerate(plist.split(",")):
                pm = _PARAM.match(_norm(p))
                if not pm:
                    raise CryptoError(EINVAL, f"{where}: {m['name']}: parameter {p.strip()!r} is not allowed")
                ctype = _norm(pm["type"])
                ptr = bool(pm["ptr"])
                if ptr and ctype not in POINTEES:
                    raise CryptoError(EINVAL, f"{where}: {m['name']}: pointer to {ctype!r} is not allowed")
                if not ptr and (ctype not in SCALARS or pm["const"]):
                    raise CryptoError(EINVAL, f"{where}: {m['name']}: parameter type {p.strip()!r} is not allowed")
                params.append(Param(pm["name"] or f"a{i}", ctype, ptr, bool(pm["const"])))
        if len(params) > MAX_PARAMS:
            raise CryptoError(EINVAL, f"{where}: {m['name']}: {len(params)} parameters (at most {MAX_PARAMS})")
        out.append(Function(m["name"], ret, tuple(params)))
    return out

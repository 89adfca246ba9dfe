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

from ..errors import EINVAL, ENOENT, CryptoError

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


# --------------------------------------------------------------------------
# Declarations read from a C header, and the bytes-taking adapters made from them

CDEF_BEGIN = "/* cdef: begin"
CDEF_END = "/* cdef: end */"
#: Inside a region, ``/* cffi: TEXT */`` is TEXT for cffi alone: a declaration the
#: C compiler must not see in that form (a const table cffi would copy by value).
_CFFI_ONLY = re.compile(r"/\*\s*cffi:(.*?)\*/", re.S)
#: A declaration's leading attribute macro (an upper-case word such as
#: X86_INTERNAL, hidden visibility), which the compiler expands and cffi drops.
_ATTRIBUTE_MACRO = re.compile(r"^[ \t]*[A-Z][A-Z0-9_]*[ \t]+(?=[a-z_])", re.M)


def header_regions(text: str, where: str, tag: str = "") -> str:
    """The declarations a C header shares with cffi: each region from a
    ``/* cdef: begin */`` line to the next ``/* cdef: end */`` line, in order,
    plus the regions ``/* cdef: begin TAG */`` of ``tag`` (a core's name; a
    region for one core of several that share the header).  A region holds
    only what cffi's cdef parses (integer #defines, typedefs, structs,
    prototypes); ``/* cffi: ... */`` comments there are uncommented, and a
    declaration's leading upper-case attribute macro is dropped.
    CryptoError(EINVAL) for unmatched markers or a header without a region."""
    regions = []
    parts = text.split(CDEF_BEGIN)
    if CDEF_END in parts[0]:
        raise CryptoError(EINVAL, f"{where}: {CDEF_END} before any {CDEF_BEGIN} */")
    for part in parts[1:]:
        head, sep, rest = part.partition("*/")
        if not sep or CDEF_END not in rest:
            raise CryptoError(EINVAL, f"{where}: {CDEF_BEGIN} */ without a {CDEF_END} after it")
        body, _, after = rest.partition(CDEF_END)
        if CDEF_END in after:
            raise CryptoError(EINVAL, f"{where}: a second {CDEF_END} after one region")
        if head.strip() in ("", tag):
            regions.append(_ATTRIBUTE_MACRO.sub("", _CFFI_ONLY.sub(lambda m: m.group(1), body)))
    if len(parts) == 1:
        raise CryptoError(EINVAL, f"{where}: expected matching {CDEF_BEGIN} */ / {CDEF_END} lines")
    return "\n".join(regions)


_ANY_PROTO = re.compile(r"(?:^|[;}/\n])\s*(?P<ret>(?:const\s+)?\w+(?:\s*\*)?)\s+\**\s*(?P<name>\w+)\s*"
                        r"\((?P<params>[^()]*)\)\s*;")
_BYTES_PARAM = re.compile(r"^(?P<const>const\s+)?uint8_t\s*(?:\*\s*(?P<pname>\w+)|(?P<aname>\w+)\s*\[[^\]]*\])$")


def prototype(text: str, name: str, where: str) -> Tuple[str, List[str]]:
    """The return type and parameter declarations of the prototype of ``name``
    in ``text`` (a header, comments removed here); CryptoError(ENOENT) when
    the header declares no such function."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    for m in _ANY_PROTO.finditer(text):
        if m["name"] == name:
            params = _norm(m["params"])
            return _norm(m["ret"]), [] if params in ("", "void") else [_norm(p) for p in params.split(",")]
    raise CryptoError(ENOENT, f"{where}: no prototype of {name}")


def _param_name(decl: str, i: int) -> str:
    m = re.search(r"(\w+)\s*(\[[^\]]*\])?$", decl)
    return m.group(1) if m and not re.fullmatch(r"(const\s+)?\w+(\s*\*)?", decl) else f"a{i}"


def bytes_adapter(header_text: str, name: str, target: str, where: str) -> Tuple[str, str]:
    """A function ``name`` that calls ``target`` (declared in the header) with
    each ``uint8_t *`` parameter taken as ``char *`` instead, so that cffi
    passes Python bytes to it as they are: ``(cdef prototype, C definition)``.
    CryptoError(EINVAL) when ``target`` has no byte pointer to adapt."""
    ret, params = prototype(header_text, target, where)
    decls, args, changed = [], [], False
    for i, p in enumerate(params):
        m = _BYTES_PARAM.match(p)
        if m:
            pname = m["pname"] or m["aname"]
            const = "const " if m["const"] else ""
            decls.append(f"{const}char *{pname}")
            args.append(f"({const}uint8_t *){pname}")
            changed = True
        else:
            pname = _param_name(p, i)
            decls.append(p)
            args.append(pname)
    if not changed:
        raise CryptoError(EINVAL, f"{where}: {target} takes no uint8_t pointer: no bytes adapter {name}")
    proto = f"{ret} {name}({', '.join(decls) or 'void'})"
    call = f"{target}({', '.join(args)})"
    body = f"\t{call};" if ret == "void" else f"\treturn {call};"
    return proto + ";", f"static {proto}\n{{\n{body}\n}}\n"

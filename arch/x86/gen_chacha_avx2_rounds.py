"""Generate chacha_avx2_rounds10.h: one ChaCha double round over ten blocks
in AVX2 asm, in an instruction order chosen by a small list scheduler.

No kernel counterpart (arch/x86/crypto/chacha-avx2-x86_64.S does eight
blocks; like OpenSSL's AVX2 code it keeps two "c" words on the stack).
Measured on a Zen 4 core with AVX-512 masked, the eight-block round is
bounded by how many of its dependent operations the core overlaps (about
2.6 per cycle, of four vector pipes), not by the pipes.  Ten blocks give it
more independent work in the same sixteen registers:

* eight blocks word-sliced (register w holds word w of blocks 0..7) with
  their four "a" words (0..3) in memory, at 32*w(x): each half quarter-round
  adds b to a from memory into ymm0, XORs it into d and stores it back;
* two more blocks in the row layout (one state row of both blocks per
  register, diagonals by vpshufd), rows b, c, d in ymm1..ymm3 and row a in
  memory at (xr);
* ymm0 is the one temporary: the "a" value while it is used, and the left
  shift of each rotation by 12 or 7 (rotations by 16 and 8 are vpshufb with
  the masks as memory operands).

The scheduler issues the dependency graph of a double round on a model of
four vector pipes (two of which do the shifts and shuffles; vpshufb has a
latency of two cycles, the rest one), the longest remaining path first,
then writes it out in that order, keeping each use of ymm0 (load-add-XOR-
store, or shift-shift-or) together, since the temporary is one register.
Two checks run on every generation: the program order computes ChaCha
double rounds for all ten blocks (a model of the lanes against a plain
ChaCha in Python), and the scheduled order computes the same as the
program order.

Usage: python arch/x86/gen_chacha_avx2_rounds.py [OUT.h]  (default: print)
"""

from __future__ import annotations

import random
import re
import sys
from typing import Dict, List, Optional, Sequence, Tuple

COLUMNS = ((0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15))
DIAGONALS = ((0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14))
#: the row set's registers for rows b, c, d
ROW_REGS = (1, 2, 3)
LATENCY = {"add": 1, "xor": 1, "or": 1, "shufb": 2, "shl": 1, "shr": 1, "pshufd": 1, "store": 0}
SHIFT_PIPE_KINDS = {"shufb", "shl", "shr", "pshufd"}
M32 = 0xFFFFFFFF


class Op:
    """One instruction: its text, the values it reads and writes, and the
    ymm0 group it belongs to (ops of one group are written out together)."""

    def __init__(self, kind: str, text: str, reads: Sequence[str], writes: Sequence[str],
                 group: Optional[int]) -> None:
        self.kind, self.text, self.group = kind, text, group
        self.reads, self.writes = list(reads), list(writes)
        self.deps: List["Op"] = []      # producers of what it reads
        self.after: List["Op"] = []     # readers of what it overwrites
        self.users: List["Op"] = []
        self.priority = 0
        self.done: Optional[int] = None


class Program:
    """The ops of the double round in program order, with their dependencies."""

    def __init__(self) -> None:
        self.ops: List[Op] = []
        self._writer: Dict[str, Op] = {}
        self._readers: Dict[str, List[Op]] = {}
        self._groups = 0

    def new_group(self) -> int:
        self._groups += 1
        return self._groups

    def add(self, kind: str, text: str, reads: Sequence[str], writes: Sequence[str],
            group: Optional[int] = None) -> None:
        op = Op(kind, text, reads, writes, group)
        for r in reads:
            if r in self._writer:
                op.deps.append(self._writer[r])
            self._readers.setdefault(r, []).append(op)
        for w in writes:
            op.after += [p for p in self._readers.get(w, []) if p is not op]
            self._readers[w] = []
            self._writer[w] = op
        self.ops.append(op)


def _ymm(n: int) -> str:
    return "%ymm" + str(n)


def _half(p: Program, regs: Tuple[int, int, int], names: Tuple[str, str, str, str],
          a_mem: str, rot: str, shl: int) -> None:
    """a += b; d ^= a; d <<<= 16 or 8; c += d; b ^= c; b <<<= 12 or 7, with a in memory."""
    b, c, d = regs
    na, nb, nc, nd = names
    g = p.new_group()
    p.add("add", f"vpaddd {a_mem}, {_ymm(b)}, %ymm0", [na, nb], [na], g)
    p.add("xor", f"vpxor %ymm0, {_ymm(d)}, {_ymm(d)}", [nd, na], [nd], g)
    p.add("store", f"vmovdqa %ymm0, {a_mem}", [na], [na + "@mem"], g)
    p.add("shufb", f"vpshufb %[{rot}], {_ymm(d)}, {_ymm(d)}", [nd], [nd])
    p.add("add", f"vpaddd {_ymm(d)}, {_ymm(c)}, {_ymm(c)}", [nc, nd], [nc])
    p.add("xor", f"vpxor {_ymm(c)}, {_ymm(b)}, {_ymm(b)}", [nb, nc], [nb])
    g = p.new_group()
    tmp = "tmp%d" % g
    p.add("shl", f"vpslld ${shl}, {_ymm(b)}, %ymm0", [nb], [tmp], g)
    p.add("shr", f"vpsrld ${32 - shl}, {_ymm(b)}, {_ymm(b)}", [nb], [nb], g)
    p.add("or", f"vpor %ymm0, {_ymm(b)}, {_ymm(b)}", [nb, tmp], [nb], g)


def program() -> Program:
    """One double round, in program order: the eight word-sliced blocks'
    quarter-rounds, each round followed by the row set's."""
    p = Program()
    halves = (("r16", 12), ("r8", 7))
    for rnd, shuf in ((COLUMNS, ("0x39", "0x4e", "0x93")), (DIAGONALS, ("0x93", "0x4e", "0x39"))):
        for a, b, c, d in rnd:
            for rot, shl in halves:
                _half(p, (b, c, d), ("w%d" % a, "w%d" % b, "w%d" % c, "w%d" % d),
                      "0x%03x(%%[x])" % (32 * a), rot, shl)
        for rot, shl in halves:
            _half(p, ROW_REGS, ("ra", "rb", "rc", "rd"), "(%[xr])", rot, shl)
        for reg, name, imm in zip(ROW_REGS, ("rb", "rc", "rd"), shuf):
            p.add("pshufd", f"vpshufd ${imm}, {_ymm(reg)}, {_ymm(reg)}", [name], [name])
    return p


def schedule(ops: List[Op], width: int = 4, shift_pipes: int = 2) -> List[Op]:
    """List-schedule ops (longest path first), then write them out in issue
    order with each ymm0 group as one unit, placed once all it needs is out."""
    for op in ops:
        for d in op.deps:
            d.users.append(op)
    for op in reversed(ops):
        op.priority = LATENCY[op.kind] + max((u.priority for u in op.users), default=0)
    index = {id(op): i for i, op in enumerate(ops)}
    remaining, issued_order, cycle = list(ops), [], 0
    while remaining:
        issued = shifts = 0
        ready = [op for op in remaining
                 if all(d.done is not None and d.done <= cycle for d in op.deps)
                 and all(r.done is not None for r in op.after)]
        ready.sort(key=lambda op: (-op.priority, index[id(op)]))
        for op in ready:
            if issued >= width:
                break
            if op.kind in SHIFT_PIPE_KINDS and shifts >= shift_pipes:
                continue
            op.done = cycle + LATENCY[op.kind]
            remaining.remove(op)
            issued_order.append(op)
            issued += op.kind != "store"
            shifts += op.kind in SHIFT_PIPE_KINDS
        cycle += 1
    last = {op.group: i for i, op in enumerate(issued_order) if op.group is not None}
    units = [[op] if op.group is None else [q for q in ops if q.group == op.group]
             for i, op in enumerate(issued_order) if op.group is None or last[op.group] == i]
    out: List[Op] = []
    written: set = set()
    while units:
        for k, unit in enumerate(units):
            members = {id(q) for q in unit}
            if all(id(d) in written or id(d) in members for q in unit for d in q.deps + q.after):
                out += unit
                written |= members
                del units[k]
                break
        else:
            raise RuntimeError("no unit can be written out")
    return out


# ----------------------------------------------------------------- checks

def _rotl(v: int, n: int) -> int:
    return ((v << n) | (v >> (32 - n))) & M32


def simulate(ops: Sequence[Op], regs: Dict[int, List[int]], mem: Dict[str, List[int]]):
    """Run ops on eight 32-bit lanes per register; mem is keyed by operand text."""
    regs = {k: list(v) for k, v in regs.items()}
    mem = {k: list(v) for k, v in mem.items()}
    for op in ops:
        name, rest = op.text.split(" ", 1)
        args = [a.strip() for a in rest.split(", ")]

        def val(a: str) -> List[int]:
            return regs[int(a[4:])] if a.startswith("%ymm") else mem[a]
        if name == "vmovdqa":
            mem[args[1]] = list(val(args[0]))
            continue
        if name == "vpshufb":
            n = 16 if args[0] == "%[r16]" else 8
            r = [_rotl(v, n) for v in val(args[1])]
        elif name in ("vpslld", "vpsrld"):
            n = int(args[0][1:])
            r = [(v << n) & M32 if name == "vpslld" else v >> n for v in val(args[1])]
        elif name == "vpshufd":
            imm, v = int(args[0][1:], 16), val(args[1])
            r = [v[lane * 4 + ((imm >> (2 * i)) & 3)] for lane in (0, 1) for i in range(4)]
        else:
            x, y = val(args[0]), val(args[1])
            fn = {"vpaddd": lambda p, q: (p + q) & M32, "vpxor": lambda p, q: p ^ q,
                  "vpor": lambda p, q: p | q}[name]
            r = [fn(p, q) for p, q in zip(x, y)]
        regs[int(args[-1][4:])] = r
    return regs, mem


def _double_round(x: List[int]) -> None:
    for rnd in (COLUMNS, DIAGONALS):
        for a, b, c, d in rnd:
            for r1, r2 in ((16, 12), (8, 7)):
                x[a] = (x[a] + x[b]) & M32
                x[d] = _rotl(x[d] ^ x[a], r1)
                x[c] = (x[c] + x[d]) & M32
                x[b] = _rotl(x[b] ^ x[c], r2)


def _random_machine(rng: random.Random):
    regs = {i: [rng.getrandbits(32) for _ in range(8)] for i in range(16)}
    mem = {"0x%03x(%%[x])" % (32 * w): [rng.getrandbits(32) for _ in range(8)] for w in range(4)}
    mem["(%[xr])"] = [rng.getrandbits(32) for _ in range(8)]
    return regs, mem


def check_program(ops: Sequence[Op], rng: random.Random) -> None:
    """The program order is a ChaCha double round for all ten blocks."""
    regs, mem = _random_machine(rng)
    r, m = simulate(ops, regs, mem)

    def word_sliced(rg, mm, lane):
        return [mm["0x%03x(%%[x])" % (32 * w)][lane] if w < 4 else rg[w][lane] for w in range(16)]

    def row_block(rg, mm, half):
        rows = [mm["(%[xr])"], rg[1], rg[2], rg[3]]
        return [rows[i // 4][half * 4 + i % 4] for i in range(16)]
    for lane in range(8):
        x = word_sliced(regs, mem, lane)
        _double_round(x)
        assert word_sliced(r, m, lane) == x, "word-sliced block %d" % lane
    for half in (0, 1):
        x = row_block(regs, mem, half)
        _double_round(x)
        assert row_block(r, m, half) == x, "row block %d" % half


def check_order(ops: Sequence[Op], order: Sequence[Op], rng: random.Random) -> None:
    """The scheduled order computes what the program order does (ymm0 aside)."""
    assert sorted(map(id, ops)) == sorted(map(id, order))
    for _ in range(8):
        regs, mem = _random_machine(rng)
        r1, m1 = simulate(ops, regs, mem)
        r2, m2 = simulate(order, regs, mem)
        assert all(r1[i] == r2[i] for i in range(1, 16)) and m1 == m2


HEADER = """/*
 * Generated by arch/x86/gen_chacha_avx2_rounds.py: do not edit.
 *
 * One ChaCha double round over ten blocks (eight word-sliced, two in the
 * row layout) as AVX2 asm lines for chacha_avx2.c; see the generator for
 * the register plan and how the order was chosen.
 */
#ifndef CHACHA_AVX2_ROUNDS10_H
#define CHACHA_AVX2_ROUNDS10_H

#define CHACHA_AVX2_10BLOCK_DOUBLE_ROUND \\
"""


def generate() -> str:
    rng = random.Random(2026)
    p = program()
    check_program(p.ops, rng)
    order = schedule(p.ops)
    check_order(p.ops, order, rng)
    lines = ['\t"%s\\n\\t" \\' % re.sub(r"%ymm", "%%ymm", op.text) for op in order]
    return HEADER + "\n".join(lines) + "\n\t/* end */\n\n#endif /* CHACHA_AVX2_ROUNDS10_H */\n"


def main(argv: Sequence[str]) -> int:
    text = generate()
    if len(argv) > 1:
        with open(argv[1], "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

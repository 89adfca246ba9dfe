"""``crypto-api speed disk``: throughput of the ``disk`` command itself.

Times ``crypto-api disk encrypt IMAGE`` in place (journal, syncs and all,
through the command's own entry point in this process) on a scratch image
of random bytes, for every combination of cipher spec, sector size,
``--jobs`` and ``--resilience`` asked for.  The runs are interleaved (round
after round over all combinations, so a change of machine load hits every
combination alike); each combination reports its best, median and spread
(min..max) in MB/s (10^6 bytes), and each cipher/jobs/resilience the ratio of
its smallest to its largest sector size (512 against 4096 by default), of
each ``--jobs`` to the smallest, and of each combination to the same cipher
through ``tfm.encrypt`` in 4 MiB calls, timed in the same rounds
(:mod:`.speed_disk_peer`).
No kernel counterpart: cryptsetup benchmark times the cipher only.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from typing import Dict, List, Optional, Sequence, Tuple

from .speed_disk_peer import PEER_LABEL, EncryptPeer
from .speed_machine import loadavg, machine_info, machine_line
from .speed_stats import median

DEFAULT_CIPHERS = ("xchacha12,aes-adiantum-plain64", "aes-xts-plain64")
KEY_BYTES = {"adiantum": 32, "xts": 64}
Combo = Tuple[str, int, int, str]


def _size_arg(text: str) -> int:
    t = text.strip().upper().removesuffix("IB").removesuffix("B")
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(t[-1:], 1)
    num = t[:-1] if t[-1:] in "KMG" else t
    if not num.isdigit() or int(num) == 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive size (digits, optional K/M/G)")
    return int(num) * mult


def _ints(text: str) -> List[int]:
    try:
        vals = [int(x) for x in text.split(",") if x]
    except ValueError:
        vals = []
    if not vals or min(vals) <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of positive integers")
    return vals


def register(sub) -> None:
    d = sub.add_parser("disk", help="throughput of the disk command (in place, journalled)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    d.add_argument("--cipher", action="append", metavar="SPEC",
                   help=f"cipher spec; repeatable (default: {', '.join(DEFAULT_CIPHERS)})")
    d.add_argument("--image-size", type=_size_arg, default=256 << 20, metavar="BYTES",
                   help="scratch image size (default 256M)")
    d.add_argument("--dir", default="/dev/shm" if os.path.isdir("/dev/shm") else None,
                   help="where the scratch image lives (default /dev/shm; removed afterwards)")
    d.add_argument("--sector-sizes", type=_ints, default=[512, 4096], metavar="LIST",
                   help="sector sizes (default 512,4096)")
    d.add_argument("--jobs", type=_ints, default=[1, 2], metavar="LIST", help="--jobs values (default 1,2)")
    d.add_argument("--resilience", action="append", choices=("journal", "checksum"),
                   help="repeatable (default: journal and checksum)")
    d.add_argument("--repeat", type=int, default=3, metavar="N", help="rounds (default 3)")
    d.set_defaults(func=main_disk)


def _key_file(directory: str, spec: str) -> str:
    n = KEY_BYTES["adiantum"] if "adiantum" in spec else KEY_BYTES["xts"] if "xts" in spec else 32
    path = os.path.join(directory, f"key{n}")
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(os.urandom(n))
    return path


def _fill(path: str, size: int) -> None:
    with open(path, "wb") as f:
        left = size
        while left:
            chunk = min(left, 1 << 24)
            f.write(os.urandom(chunk))
            left -= chunk


def _run_once(image: str, combo: Combo, key: str) -> float:
    """Seconds for one in-place encryption of the whole image (a fresh job)."""
    from crypto_api.__main__ import main
    spec, ss, jobs, resilience = combo
    journal = image + ".crypto-api-journal"
    if os.path.exists(journal):
        os.unlink(journal)
    argv = ["disk", "encrypt", image, "--cipher", spec, "--key-file", key, "--sector-size", str(ss),
            "--jobs", str(jobs), "--resilience", resilience, "--no-progress"]
    t0 = time.perf_counter()
    rc = main(argv)
    dt = time.perf_counter() - t0
    if rc != 0:
        raise SystemExit(f"crypto-api speed disk: {' '.join(argv)} failed ({rc})")
    return dt


def measure(image: str, size: int, combos: Sequence[Combo], keys: Dict[str, str],
            repeat: int) -> Tuple[Dict[Combo, List[float]], Dict[str, List[float]]]:
    """MB/s samples per combination, ``repeat`` interleaved rounds after one warm-up
    each; and per cipher spec, those of its :class:`EncryptPeer`, timed in every round."""
    peers = {spec: EncryptPeer(spec, key) for spec, key in keys.items()}
    try:
        for combo in combos:
            _run_once(image, combo, keys[combo[0]])        # modules, self-tests, page cache
        for peer in peers.values():
            peer.mbps(size)
        out: Dict[Combo, List[float]] = {c: [] for c in combos}
        peer_out: Dict[str, List[float]] = {spec: [] for spec in peers}
        for _ in range(repeat):
            for combo in combos:
                out[combo].append(size / _run_once(image, combo, keys[combo[0]]) / 1e6)
            for spec, peer in peers.items():
                peer_out[spec].append(peer.mbps(size))
    finally:
        for peer in peers.values():
            peer.close()
    return out, peer_out


def _ratio_line(label: str, xs: List[float], ys: List[float]) -> str:
    """``label: best/best (min..max of the rounds' pairs)``."""
    pairs = [a / b for a, b in zip(xs, ys)]
    return f"  {label}: {max(xs) / max(ys):.2f}x ({min(pairs):.2f}..{max(pairs):.2f})"


def render(results: Dict[Combo, List[float]], size: int, where: str, repeat: int,
           loads: Tuple, peers: Optional[Dict[str, List[float]]] = None) -> str:
    lines = [f"crypto-api speed disk: in-place encrypt of a {size >> 20} MiB image in {where}, "
             f"{repeat} interleaved rounds, MB/s (10^6 B/s)",
             machine_line(machine_info()),
             f"load average before/after: {loads[0]} / {loads[1]}",
             f"{'cipher':34} {'sector':>6} {'jobs':>4} {'resilience':>10} {'best':>8} {'median':>8} "
             f"{'spread (min..max)':>18}"]
    for (spec, ss, jobs, res), xs in results.items():
        lines.append(f"{spec:34} {ss:>6} {jobs:>4} {res:>10} {max(xs):8.1f} {median(xs):8.1f} "
                     f"{min(xs):8.1f}..{max(xs):<8.1f}")
    sizes = sorted({c[1] for c in results})
    if len(sizes) > 1:
        lo, hi = sizes[0], sizes[-1]
        lines.append(f"ratio {lo}-byte / {hi}-byte sectors (best; min..max over the rounds' pairs):")
        for (spec, ss, jobs, res), xs in results.items():
            if ss != lo or (spec, hi, jobs, res) not in results:
                continue
            lines.append(_ratio_line(f"{spec:34} jobs {jobs} {res:>10}", xs, results[(spec, hi, jobs, res)]))
    all_jobs = sorted({c[2] for c in results})
    if len(all_jobs) > 1:
        one = all_jobs[0]
        lines.append(f"ratio jobs N / jobs {one} (best; min..max over the rounds' pairs):")
        for (spec, ss, jobs, res), xs in results.items():
            if jobs != one and (spec, ss, one, res) in results:
                lines.append(_ratio_line(f"{spec:34} {ss:>6} {res:>10} jobs {jobs}", xs,
                                         results[(spec, ss, one, res)]))
    if peers:
        lines.append(f"peer: the same cipher through {PEER_LABEL}, in the same rounds:")
        for spec, ys in peers.items():
            lines.append(f"{spec:34} {'peer':>6} {'-':>4} {'-':>10} {max(ys):8.1f} {median(ys):8.1f} "
                         f"{min(ys):8.1f}..{max(ys):<8.1f}")
        lines.append("ratio disk / peer (best; min..max over the rounds' pairs):")
        for (spec, ss, jobs, res), xs in results.items():
            if spec in peers:
                lines.append(_ratio_line(f"{spec:34} {ss:>6} {res:>10} jobs {jobs} vs peer", xs, peers[spec]))
    return "\n".join(lines)


def main_disk(args) -> int:
    ciphers = args.cipher or list(DEFAULT_CIPHERS)
    resiliences = args.resilience or ["journal", "checksum"]
    if args.repeat < 1:
        raise SystemExit("crypto-api speed disk: --repeat must be at least 1")
    combos = [(c, ss, j, r) for c in ciphers for ss in args.sector_sizes for j in args.jobs for r in resiliences]
    work = tempfile.mkdtemp(prefix="crypto-api-speed-disk-", dir=args.dir)
    try:
        image = os.path.join(work, "image")
        _fill(image, args.image_size)
        keys = {c: _key_file(work, c) for c in ciphers}
        load0 = loadavg()
        results, peers = measure(image, args.image_size, combos, keys, args.repeat)
        load1 = loadavg()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(render(results, args.image_size, args.dir or tempfile.gettempdir(), args.repeat, (load0, load1),
                 peers))
    sys.stdout.flush()
    return 0

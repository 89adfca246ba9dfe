"""``speed --plot FILE.png``: throughput against message size, as a picture.

One line per measured driver and per peer (and ``openssl speed`` when the
run has it), message size and MB/s (10^6 bytes/s of the best sample, as the
size table) on log axes, with the machine (CPU model, the flags that choose
drivers, Python, kernel) and the method (samples per point, the statistic,
the sample budget) in the caption.  It is drawn from the report only, so a
saved ``--json`` report plots exactly as the live run (``speed show
RUN.json --plot FILE.png``).

matplotlib is an optional extra (``pip install 'crypto_api[plot]'``); it is
imported only here, when a plot is asked for.  No kernel tool draws plots;
the layout follows the throughput-against-size plots of the Adiantum paper.
"""

from __future__ import annotations

import errno
import io
from typing import List, Optional, Tuple

import attrs

from crypto_api.errors import CryptoError

from .output_target import open_output
from .speed_formats import Index, title_of

#: The extra that carries matplotlib (pyproject.toml [project.optional-dependencies]).
EXTRA = "plot"
ENOPKG = getattr(errno, "ENOPKG", 65)
#: The picture: 800 x 600 pixels.
FIGSIZE = (8, 6)
DPI = 100


@attrs.frozen
class Series:
    """One plotted line: ``label`` and its points (bytes per message, MB/s)."""

    label: str
    sizes: Tuple[int, ...]
    mb_per_s: Tuple[float, ...]


def size_label(n: int) -> str:
    """16, 512, 4K, 1M: a message size as the speed tool's --sizes takes it."""
    for shift, unit in ((20, "M"), (10, "K")):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return str(n)


def _op_of(t: dict) -> str:
    """The operation plotted for a target: encryption (or the digest of a hash)."""
    return "encrypt" if "encrypt" in t["ops"] else t["ops"][0]


def series(report: dict) -> List[Series]:
    """The lines of the plot, computed from the report's single-thread results."""
    ix = Index(report)
    out = []
    for t in ix.ours() + ix.peers():
        op = _op_of(t)
        points = [(size, size * 1e3 / ns) for size in ix.sizes_of(t["id"])
                  for ns in [ix.best(t["id"], op, size)] if ns]
        if not points:
            continue
        label = title_of(t) if t["kind"] == "ours" else f"{t['name']} (peer)"
        if op != "encrypt":
            label += f" {op}"
        out.append(Series(label, tuple(p[0] for p in points), tuple(p[1] for p in points)))
    o = report.get("openssl")
    if o and o.get("available"):
        points = [(r["size"], r["bytes_per_s"] / 1e6) for r in o["results"] if "error" not in r]
        if points:
            out.append(Series(f"{o['command']} (native)", tuple(p[0] for p in points),
                              tuple(p[1] for p in points)))
    return out


def caption(report: dict) -> str:
    """Machine, method and when, in three lines under the plot."""
    m = report["machine"]
    s = report["settings"]
    flags = " ".join(m.get("cpu_flags") or []) or "-"
    machine = (f"{m['cpu_model']} ({m.get('cpu_count')} CPUs; {flags}); "
               f"{m.get('python_implementation', 'Python')} {m['python']}; {m.get('os', '')}")
    method = (f"best of {s['repeat']} samples per point, each a batch of calls of ~{s['sample_ms']:g} ms "
              f"(time.perf_counter_ns), one thread; MB/s = 10^6 bytes/s")
    when = f"run {report.get('created', '')}"
    load = (report.get("load") or {}).get("start")
    if load is not None:
        when += f"; load average {load:.2f} at the start (other work on the machine slows samples)"
    return "\n".join((machine, method, when))


def require_matplotlib() -> None:
    """Refuse (ENOPKG, one line naming the extra) when matplotlib is not installed."""
    _matplotlib()


def _matplotlib():
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise CryptoError(ENOPKG, f"--plot needs matplotlib: pip install 'crypto_api[{EXTRA}]'") from None
    return Figure, FigureCanvasAgg


def plot(report: dict, path: str, title: Optional[str] = None) -> None:
    """Draw the report's throughput lines into the PNG ``path`` (replaced atomically)."""
    Figure, FigureCanvasAgg = _matplotlib()
    lines = series(report)
    if not lines:
        raise CryptoError(errno.EINVAL, "--plot: the report has no single-thread results to plot "
                                        "(--format slope/csv measure no sizes)")
    fig = Figure(figsize=FIGSIZE, dpi=DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.09, 0.38, 0.88, 0.55))
    sizes = set()
    for i, s in enumerate(lines):
        ours = "(peer)" not in s.label and "(native)" not in s.label
        ax.plot(s.sizes, s.mb_per_s, marker="os^vD<>ph"[i % 9], markersize=4, linewidth=1.4,
                linestyle="-" if ours else "--", label=s.label)
        sizes.update(s.sizes)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ticks = sorted(sizes)
    ax.set_xticks(ticks)
    ax.set_xticklabels([size_label(n) for n in ticks], fontsize=8)
    ax.minorticks_off()
    ax.set_xlabel("message size (bytes)", fontsize=9)
    ax.set_ylabel("MB/s (10^6 bytes/s)", fontsize=9)
    ax.grid(True, which="both", linewidth=0.3)
    ax.set_title(title or "crypto_api speed: throughput against message size", fontsize=10)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.11), ncol=2, fontsize=7, frameon=False)
    fig.text(0.01, 0.01, caption(report), fontsize=6.5, va="bottom", ha="left")
    png = io.BytesIO()
    fig.savefig(png, format="png")
    # as enc writes its output (tools/output_target.py): a regular file is
    # replaced atomically, fsynced, keeping its mode and owner
    with open_output(path) as out:
        out.write(png.getbuffer())
        out.commit()

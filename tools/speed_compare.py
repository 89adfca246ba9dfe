"""``speed compare OLD.json NEW.json``: benchstat's comparison of two runs.

For every (target, operation, size, threads) present in both reports: the
median time per call of each side with its 95% confidence interval (order
statistics; "± ∞" under 6 samples, as benchstat prints it), the change of
the median in percent and the two-sided Mann-Whitney U test's p-value over
the per-sample times.  A change whose p is above ``alpha`` (0.05) is shown
as "~": not significant.  A geomean row closes the table.

Targets pair by name; ``--old-target A --new-target B`` pairs two given
names instead, so one report holding ``--driver xchacha12-generic --driver
xchacha12-simd`` compares with itself.
"""

from __future__ import annotations

import json
from typing import Dict, List, Optional, Tuple

from crypto_api.errors import EINVAL, ENOENT, CryptoError

from .speed_formats import fmt_num
from .speed_run import SCHEMA
from .speed_stats import geomean, mann_whitney_u, median, median_ci

NEED_NOTE = "need >= 6 samples for confidence interval at level 0.95"


def load_report(path: str) -> dict:
    """A speed report from a ``--json`` file (EINVAL if it is not one)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except json.JSONDecodeError as e:
        raise CryptoError(EINVAL, f"{path}: not JSON ({e.msg} at line {e.lineno})") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise CryptoError(EINVAL, f"{path}: not a speed report (schema {SCHEMA} expected)")
    return data


def _cells(report: dict, target: Optional[str]) -> Dict[Tuple, dict]:
    """(name, op, size, threads) -> result; with ``target``, that target only, renamed ''."""
    names = {t["id"]: t["name"] for t in report["targets"]}
    out = {}
    for r in report["results"]:
        if "skipped" in r:
            continue
        name = names.get(r["target"], r["target"])
        if target is not None:
            if name != target and r["target"] != target:
                continue
            name = ""
        out[(name, r["op"], r["size"], r["threads"])] = r
    return out


def _ci_text(samples: List[float]) -> Tuple[str, bool]:
    ci = median_ci(samples)
    if ci is None:
        return "± ∞ ¹", True
    m = median(samples)
    half = max(m - ci[0], ci[1] - m)
    return f"± {half / m * 100:.0f}%", False


def compare(old: dict, new: dict, alpha: float = 0.05, old_target: Optional[str] = None,
            new_target: Optional[str] = None) -> dict:
    """The comparison rows (also used by the tests)."""
    if (old_target is None) != (new_target is None):
        raise CryptoError(EINVAL, "compare: give both --old-target and --new-target, or neither")
    a = _cells(old, old_target)
    b = _cells(new, new_target)
    keys = [k for k in a if k in b]
    if not keys:
        what = f" ({old_target} vs {new_target})" if old_target else ""
        raise CryptoError(ENOENT, f"compare: the two reports share no measured point{what}")
    rows = []
    for k in keys:
        xs, ys = a[k]["samples_ns"], b[k]["samples_ns"]
        mx, my = median(xs), median(ys)
        _u, p = mann_whitney_u(xs, ys)
        rows.append({"name": k[0], "op": k[1], "size": k[2], "threads": k[3],
                     "old_median_ns": mx, "new_median_ns": my, "old_n": len(xs), "new_n": len(ys),
                     "old_ci": median_ci(xs), "new_ci": median_ci(ys),
                     "delta": (my - mx) / mx, "p": p, "significant": p <= alpha,
                     "old_samples": xs, "new_samples": ys})
    return {"alpha": alpha, "rows": rows,
            "geomean_old": geomean([r["old_median_ns"] for r in rows]),
            "geomean_new": geomean([r["new_median_ns"] for r in rows])}


def render(result: dict, old_label: str, new_label: str) -> str:
    rows = result["rows"]
    labels = []
    for r in rows:
        parts = [r["name"]] if r["name"] else []
        parts += [r["op"], str(r["size"])]
        if r["threads"] > 1:
            parts.append(f"threads={r['threads']}")
        labels.append("/".join(parts))
    w = max([len(x) for x in labels] + [7])
    lines = [f"old: {old_label}", f"new: {new_label}",
             f"{'':<{w}}   {'old ns/call':>18}   {'new ns/call':>18}   vs old",
             ]
    footnote = False
    for label, r in zip(labels, rows):
        oc, f1 = _ci_text(r["old_samples"])
        nc, f2 = _ci_text(r["new_samples"])
        footnote |= f1 or f2
        n = f"n={r['old_n']}" if r["old_n"] == r["new_n"] else f"n={r['old_n']}+{r['new_n']}"
        if r["significant"]:
            delta = f"{r['delta'] * 100:+.2f}% (p={r['p']:.3f} {n})"
        else:
            delta = f"~ (p={r['p']:.3f} {n})"
        lines.append(f"{label:<{w}}   {fmt_num(r['old_median_ns']):>10} {oc:<7}   "
                     f"{fmt_num(r['new_median_ns']):>10} {nc:<7}   {delta}")
    g_old, g_new = result["geomean_old"], result["geomean_new"]
    lines.append(f"{'geomean':<{w}}   {fmt_num(g_old):>10} {'':<7}   {fmt_num(g_new):>10} {'':<7}   "
                 f"{(g_new - g_old) / g_old * 100:+.2f}%")
    if footnote:
        lines.append("¹ " + NEED_NOTE)
    lines.append(f"~: no significant difference (two-sided Mann-Whitney U test, p > {result['alpha']:g})")
    return "\n".join(lines) + "\n"

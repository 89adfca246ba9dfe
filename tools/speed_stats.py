"""Statistics for the speed tool: the least-squares line of libgcrypt's
bench-slope, benchstat's Mann-Whitney U test and median confidence interval.

Standard library only.  ``linear_fit`` gives bench-slope's slope (ns/byte)
and intercept (per-call overhead); ``mann_whitney_u`` is the two-sided rank
test benchstat runs between two sets of samples (exact permutation
distribution for small samples, ties included; normal approximation with
tie and continuity correction beyond); ``median_ci`` is the order-statistic
confidence interval of the median that benchstat prints as "± x%".
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Dict, List, Optional, Sequence, Tuple

#: Largest pooled sample for which the exact permutation distribution is used.
EXACT_LIMIT = 40


def linear_fit(xs: Sequence[float], ys: Sequence[float]) -> Tuple[float, float, float]:
    """Ordinary least squares ``y = slope*x + intercept``; returns (slope, intercept, r²).

    Needs at least two distinct x values (ValueError otherwise).
    """
    n = len(xs)
    if n != len(ys):
        raise ValueError("linear_fit: xs and ys differ in length")
    if n < 2:
        raise ValueError("linear_fit: needs at least two points")
    mx = math.fsum(xs) / n
    my = math.fsum(ys) / n
    sxx = math.fsum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        raise ValueError("linear_fit: all x values are equal")
    sxy = math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys))
    syy = math.fsum((y - my) ** 2 for y in ys)
    slope = sxy / sxx
    intercept = my - slope * mx
    r2 = 1.0 if syy == 0 else (sxy * sxy) / (sxx * syy)
    return slope, intercept, r2


def ranks(values: Sequence[float]) -> List[float]:
    """1-based ranks, ties sharing the mean of the ranks they span."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        mid = (i + j + 2) / 2
        for k in range(i, j + 1):
            out[order[k]] = mid
        i = j + 1
    return out


@lru_cache(maxsize=256)
def _rank_sum_counts(doubled: Tuple[int, ...], n1: int) -> Dict[int, int]:
    """How many size-``n1`` subsets of the items have each sum of doubled ranks."""
    # counts[j] maps a doubled-rank sum to the number of j-item subsets reaching it
    counts: List[Dict[int, int]] = [dict() for _ in range(n1 + 1)]
    counts[0][0] = 1
    for r in doubled:
        for j in range(n1, 0, -1):
            src = counts[j - 1]
            if not src:
                continue
            dst = counts[j]
            for s, c in src.items():
                dst[s + r] = dst.get(s + r, 0) + c
    return counts[n1]


def mann_whitney_u(a: Sequence[float], b: Sequence[float]) -> Tuple[float, float]:
    """Two-sided Mann-Whitney U test of ``a`` against ``b``: returns (U, p).

    U is the statistic of ``a`` (pairs (x in a, y in b) with x > y, ties
    counting one half).  p is exact — the share of the C(n, n1) ways to split
    the pooled ranks whose U lies at least as far from n1*n2/2 — when the
    pooled sample has at most ``EXACT_LIMIT`` values, and from the normal
    approximation with tie correction and continuity correction beyond.
    """
    n1, n2 = len(a), len(b)
    if n1 == 0 or n2 == 0:
        raise ValueError("mann_whitney_u: both samples need at least one value")
    pooled = list(a) + list(b)
    r = ranks(pooled)
    n = n1 + n2
    w = math.fsum(r[:n1])
    u = w - n1 * (n1 + 1) / 2
    mean_u = n1 * n2 / 2
    if n <= EXACT_LIMIT:
        doubled = tuple(sorted(int(round(2 * x)) for x in r))
        counts = _rank_sum_counts(doubled, n1)
        # work in doubled rank sums to stay in integers: 2W vs its mean n1*(n+1)
        obs = abs(int(round(2 * w)) - n1 * (n + 1))
        extreme = sum(c for s, c in counts.items() if abs(s - n1 * (n + 1)) >= obs)
        return u, min(1.0, extreme / math.comb(n, n1))
    ties = {}
    for x in pooled:
        ties[x] = ties.get(x, 0) + 1
    tie_term = sum(t ** 3 - t for t in ties.values()) / (n * (n - 1))
    var = n1 * n2 / 12 * ((n + 1) - tie_term)
    if var <= 0:
        return u, 1.0
    z = max(0.0, abs(u - mean_u) - 0.5) / math.sqrt(var)
    return u, min(1.0, math.erfc(z / math.sqrt(2)))


def _binom_cdf_half(k: int, n: int) -> float:
    """P(Binomial(n, 1/2) <= k)."""
    if k < 0:
        return 0.0
    return math.fsum(math.comb(n, i) for i in range(0, min(k, n) + 1)) / 2 ** n


def median_ci(samples: Sequence[float], confidence: float = 0.95) -> Optional[Tuple[float, float]]:
    """Distribution-free confidence interval of the median from order statistics.

    The interval [x_(k), x_(n+1-k)] covers the median with probability
    1 - 2*P(Bin(n, 1/2) <= k-1); the narrowest one reaching ``confidence`` is
    returned, or None when even [min, max] does not (fewer than 6 samples at
    0.95, the case benchstat marks "± ∞").
    """
    xs = sorted(samples)
    n = len(xs)
    best = None
    for k in range(1, n // 2 + 1):
        cover = 1 - 2 * _binom_cdf_half(k - 1, n)
        if cover >= confidence:
            best = (xs[k - 1], xs[n - k])
        else:
            break
    return best


def median(samples: Sequence[float]) -> float:
    xs = sorted(samples)
    n = len(xs)
    if not n:
        raise ValueError("median of no samples")
    mid = n // 2
    return xs[mid] if n % 2 else (xs[mid - 1] + xs[mid]) / 2


def summary(samples: Sequence[float]) -> Dict[str, float]:
    """min, median, max, mean and relative standard deviation of the samples."""
    xs = list(samples)
    mean = math.fsum(xs) / len(xs)
    var = math.fsum((x - mean) ** 2 for x in xs) / (len(xs) - 1) if len(xs) > 1 else 0.0
    return {"min": min(xs), "median": median(xs), "max": max(xs), "mean": mean,
            "rel_stdev": math.sqrt(var) / mean if mean else 0.0}


def geomean(values: Sequence[float]) -> float:
    vals = [v for v in values if v > 0]
    if not vals:
        raise ValueError("geomean of no positive values")
    return math.exp(math.fsum(math.log(v) for v in vals) / len(vals))

"""The speed tool's statistics: least squares, Mann-Whitney U, median CI.

Known values are worked out by hand (or are textbook/scipy table values
restated in the comments), and the U test is checked against a brute-force
permutation test that enumerates every split of the pooled sample.
"""

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crypto_api.tools import speed_stats as S


# -- linear regression ---------------------------------------------------------

def test_linear_fit_exact_line():
    xs = [16, 80, 144, 208, 272]
    ys = [0.5 * x + 300 for x in xs]
    slope, intercept, r2 = S.linear_fit(xs, ys)
    assert slope == pytest.approx(0.5)
    assert intercept == pytest.approx(300)
    assert r2 == pytest.approx(1.0)


def test_linear_fit_by_hand():
    # points (0,1) (1,3) (2,2): mean x 1, mean y 2; Sxy = (-1)(-1)+0+(1)(0) = 1, Sxx = 2
    slope, intercept, r2 = S.linear_fit([0, 1, 2], [1, 3, 2])
    assert slope == pytest.approx(0.5)
    assert intercept == pytest.approx(1.5)
    # Syy = 1 + 1 + 0 = 2; r2 = Sxy^2 / (Sxx Syy) = 1/4
    assert r2 == pytest.approx(0.25)


def test_linear_fit_symmetric_noise_cancels():
    xs = [64 * i + 16 for i in range(20)]
    noise = [(-1) ** i * 7.0 for i in range(20)]          # pairs of +7/-7 on neighbouring x
    ys = [2.25 * x + 1000 + e for x, e in zip(xs, noise)]
    slope, intercept, _ = S.linear_fit(xs, ys)
    assert slope == pytest.approx(2.25, rel=1e-2)
    assert intercept == pytest.approx(1000, abs=20)


@pytest.mark.parametrize("xs, ys", [([1], [2]), ([3, 3, 3], [1, 2, 3]), ([1, 2], [1])])
def test_linear_fit_refuses_degenerate_input(xs, ys):
    with pytest.raises(ValueError):
        S.linear_fit(xs, ys)


# -- ranks ---------------------------------------------------------------------------

def test_ranks_average_ties():
    assert S.ranks([10, 20, 20, 5, 30]) == [2, 3.5, 3.5, 1, 5]
    assert S.ranks([1, 1, 1]) == [2, 2, 2]


# -- Mann-Whitney U ------------------------------------------------------------------

def test_mann_whitney_complete_separation_5_5():
    # every a below every b: U = 0; only 2 of the C(10,5) = 252 splits are this extreme
    u, p = S.mann_whitney_u([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
    assert u == 0
    assert p == pytest.approx(2 / 252)        # 0.0079365, scipy's exact two-sided value


def test_mann_whitney_complete_separation_3_3():
    u, p = S.mann_whitney_u([4, 5, 6], [1, 2, 3])
    assert u == 9
    assert p == pytest.approx(2 / 20)


def test_mann_whitney_by_hand_with_a_tie():
    # a = [1, 2, 4], b = [3, 4, 5]: pooled ranks 1, 2, 3, 4.5, 4.5, 6; W_a = 1 + 2 + 4.5 = 7.5,
    # U = 7.5 - 3*4/2 = 1.5.  In doubled ranks {2,4,6,9,9,12} the mean of 2W is 3*7 = 21 and
    # the observed 2W = 15 lies 6 away; of the 20 three-item subsets, those at least 6 away
    # are {2,4,6}=12, {2,4,9}=15 (twice), {6,9,12}=27 (twice), {9,9,12}=30: p = 6/20.
    u, p = S.mann_whitney_u([1, 2, 4], [3, 4, 5])
    assert u == 1.5
    assert p == pytest.approx(6 / 20)


def test_mann_whitney_identical_samples_not_significant():
    u, p = S.mann_whitney_u([5, 5, 5, 5], [5, 5, 5, 5])
    assert u == 8
    assert p == 1.0


def _brute_force(a, b):
    """Two-sided permutation p of the U statistic over every split of the pool."""
    pooled = list(a) + list(b)
    r = S.ranks(pooled)
    n1 = len(a)
    mean = n1 * len(b) / 2

    def u_of(idx):
        return sum(r[i] for i in idx) - n1 * (n1 + 1) / 2

    obs = abs(u_of(range(n1)) - mean)
    splits = list(itertools.combinations(range(len(pooled)), n1))
    hits = sum(1 for idx in splits if abs(u_of(idx) - mean) >= obs - 1e-9)
    return hits / len(splits)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=1, max_size=6),
       st.lists(st.integers(0, 6), min_size=1, max_size=6))
def test_mann_whitney_matches_permutation_test(a, b):
    _u, p = S.mann_whitney_u(a, b)
    assert p == pytest.approx(_brute_force(a, b))


def test_mann_whitney_normal_approximation_close_to_exact(monkeypatch):
    a = [100 + 3 * i + (i % 4) for i in range(12)]
    b = [112 + 3 * i - (i % 3) for i in range(12)]
    _u, exact = S.mann_whitney_u(a, b)
    monkeypatch.setattr(S, "EXACT_LIMIT", 0)
    _u2, approx = S.mann_whitney_u(a, b)
    assert 0 < exact < 0.2
    assert approx == pytest.approx(exact, abs=0.01)


def test_mann_whitney_large_separated_samples_use_the_approximation():
    a = [float(i) for i in range(30)]
    b = [float(i) + 100 for i in range(30)]
    _u, p = S.mann_whitney_u(a, b)
    # z = (450 - 0.5) / sqrt(30*30*61/12) = 6.66: p = erfc(6.66/sqrt 2) ~ 2.7e-11
    z = (450 - 0.5) / math.sqrt(30 * 30 * 61 / 12)
    assert p == pytest.approx(math.erfc(z / math.sqrt(2)))
    assert p < 1e-9


# -- median and its confidence interval ------------------------------------------------

def test_median_ci_needs_six_samples():
    assert S.median_ci([1, 2, 3, 4, 5]) is None           # coverage 1 - 2/32 = 0.9375
    assert S.median_ci([6, 1, 5, 2, 4, 3]) == (1, 6)       # 1 - 2/64 = 0.96875


def test_median_ci_ten_samples_by_hand():
    # k=2: 1 - 2*(1+10)/1024 = 0.9785 >= 0.95; k=3: 1 - 2*56/1024 = 0.89 < 0.95
    xs = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
    assert S.median_ci(xs) == (20, 90)


def test_summary_and_geomean():
    s = S.summary([2, 4, 4, 4, 5, 5, 7, 9])
    assert (s["min"], s["median"], s["max"], s["mean"]) == (2, 4.5, 9, 5)
    # sample stdev: sqrt(32/7)
    assert s["rel_stdev"] == pytest.approx(math.sqrt(32 / 7) / 5)
    assert S.geomean([1, 100]) == pytest.approx(10)

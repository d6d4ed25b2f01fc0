"""Intervals for a :class:`~opsstats.curves.ScoreCurve`: its areas, its operating-point
values and their outperformance scores (METHOD.md 3.2).

Four methods, and a default that picks per quantity and class size:

* ``"delong"``: DeLong, DeLong and Clarke-Pearson's (1988) asymptotic variance of the ROC
  AUC (the Mann-Whitney statistic, ties counted one half), computed by the O(n log n)
  algorithm of Sun and Xu (2014). The curve already holds the data sorted once, as
  cumulative counts per distinct score, so the midranks of Sun and Xu come from those
  counts with no further sort (:func:`~opsstats.uncertainty.curve.delong_roc`). Two
  intervals: ``"normal"``, ``auc -+ z * sqrt(var)`` clipped to [0, 1] as pROC's
  ``ci.auc`` does, and ``"logit-t"``, ``expit(logit(auc) - b -+ t * sqrt(var) / (auc (1 -
  auc)))`` with t on the Welch-Satterthwaite degrees of freedom of the two variance
  components: the Brunner-Munzel (2000) small-sample t approximation (DeLong's variance
  is theirs; the statistic reproduces ``scipy.stats.brunnermunzel``) on the logit
  scale, which keeps the interval inside (0, 1) and follows the skew of the AUC near
  its bounds (Pohar Perme and Manevski 2019); ``b = (2 auc - 1) var / (2 (auc (1 -
  auc))**2)`` removes the second-order (delta-method) bias of ``logit(auc)``, which
  otherwise leaves the interval too high when the AUC is near 1 and a class is small.
* ``"jackknife"``: the stratified (two-sample) jackknife variance of a curve area,
  V = V1 + V0, one component per class, Vc = (m - 1) / m * sum (theta_(i) - mean)**2
  over the m leave-one-row-out values of class c (Arvesen 1969), all computed exactly
  in O(J) from the at most 2J distinct leave-one-out curves (:func:`_jackknife`). For
  the trapezoid ROC AUC, V is DeLong's variance exactly; for the PR AUC (average
  precision) it is the same construction for a statistic with no closed-form
  variance. Intervals ``"normal"`` (clipped to [0, 1] for the ROC and PR areas) and
  ``"logit-t"``, ``expit(logit(est) -+ t * sqrt(V) / (est (1 - est)))`` with
  (k - 1) V**2 / (V1**2 + V0**2) degrees of freedom, k the smaller class's size
  (Welch-Satterthwaite with k - 1 for each component: each class's leave-one-out
  values also depend on the other class's rows, so neither component carries more
  information than the smaller class). Areas only: a value at an operating point is
  quantile-like, and the jackknife variance of a non-smooth statistic is not
  consistent.
* ``"dirichlet"``: the Dirichlet posterior of each class's score distribution: the
  Bayesian bootstrap (Rubin 1981) of each class, Gamma(1) weights on its rows normalized
  within the class (the prevalence fixed), plus four pseudo-rows of weight Gamma(a): a
  positive and a negative tied above the highest score, and another pair tied below the
  lowest (a = 1/2, Jeffreys, by default). The equal-tailed interval of the quantity over
  the draws of the weighted curve. The pseudo-rows are what a small class needs: with
  placements of 0 or 1 the ROC AUC's posterior tends to the Jeffreys Beta posterior of a
  proportion, and a separated test set needs no special rule. A cell's rows share one
  Gamma(rows) weight, over the same merged cells as the bootstrap (:func:`_dirichlet_values`).
  Interval ``"bias-extended"``: the equal-tailed interval with its lower end moved down
  by the jackknife estimate of the estimator's upward small-sample bias, leaving out one
  positive at a time at the test set's prevalence (:func:`_bias_extended`); for average
  precision with few positives, whose bias depends on the scores' upper tails.
* ``"bootstrap"``: resampling the test set's (score, label) rows. The rows of one
  distinct score and one class are exchangeable, so a bootstrap resample is fully
  described by how many rows of each (threshold, class) cell it draws: stratified (the
  default, prevalence fixed) the positives' multiplicities over the thresholds are
  Multinomial(P, positives per threshold / P) and independently the negatives' are
  Multinomial(N, negatives per threshold / N); not stratified, all rows' multiplicities
  are Multinomial(n, cell counts / n). Cumulative sums of the drawn counts give each
  resample's curve over the *same* thresholds, so nothing is sorted per resample and a
  batch of B resampled curves is a (B, J) array of (alpha, beta) that the shared curve
  geometry (:mod:`opsstats.curves._geometry`) evaluates in one call.

Exact reductions keep the batch small (:class:`_Cells`). Thresholds inside a run that
adds negatives only are merged into one cell, as :meth:`ScoreCurve._geometry_points`
does for the observed curve: along such a run every area except the lift area, and
every eq. 9 operating point, depends only on the run's two ends, and the merged cell's
resampled count is Multinomial with the summed probability (the aggregation property
of the multinomial). At prevalence 0.1 with continuous scores that leaves about a fifth
of the thresholds; for the step-rule PR area (average precision), whose negatives-only
points have zero width, only the thresholds that add positives remain. The
multinomial counts are drawn by :class:`_Multinomial`, which costs about one uniform
draw per cell rather than one per row (see its Notes). Percentile and BCa intervals;
the BCa jackknife leaves out one row of each (cell, class) type, at most 2J distinct
curves, evaluated exactly in O(J) (:func:`_jackknife`). Resamples where the quantity
is undefined (a class absent without stratification, or a 0/0 metric) are counted in
``n_undefined`` and left out, never dropped silently. Every method needs whole-number
counts (unweighted rows, or integer frequency weights).

The bootstrap's ``"logit-t"`` interval is ``expit(logit(estimate) -+ t * se)``, se half
the spread of the central 68.27% of the resamples' logits (a standard deviation that
resamples at 0 or 1 cannot make infinite) and t with min(P, N) - 1 degrees of freedom.
At an estimate of exactly 0 or 1, where no logit exists, the logit-t intervals are
one-sided: ``[((1 - level) / 2) ** (1 / k), 1]``, k the smaller class's size.

``method="auto"`` (the default), for the ROC and PR areas: the Dirichlet posterior when
the smaller class has fewer than ``DIRICHLET_BELOW`` (100) rows (equal-tailed for the ROC
areas, bias-extended for the PR areas); from there on DeLong's
logit-t interval for the ROC AUC and the jackknife's for the other areas, deterministic
and milliseconds at millions of rows. The percentile bootstrap for every other quantity.
The coverage studies (``benchmarks/coverage.py --part curve`` and
``benchmarks/coverage_shapes.py``) found the logit-t intervals' coverage with small
classes to depend on the shape of the score distributions (70% to 100% with 1 to 20
rows of a class); below 100 rows the Dirichlet posterior covered the ROC AUC 93.7% to
99.6% across five shapes, and its bias-extended interval the PR AUC 90.0% to 100%
(the equal-tailed one as little as 60%).

For the OPS of a curve quantity at fixed prevalence, OPS is monotone in the quantity,
so the OPS interval is the quantity's interval mapped through OPS (on the bootstrap's
order statistics, as :mod:`opsstats.uncertainty.confusion` does; on the two ends of a
DeLong or jackknife interval). A Monte Carlo reference (the Directed Binary Tree) estimates each
mapped end with its own Monte Carlo error, independent of the test-set sampling: each
end is moved outwards so that its distance from the OPS estimate becomes
``sqrt(h**2 + (z * se)**2)``, where h is the mapped half-width on that side and se the
reference's Monte Carlo standard error at that end (see
:func:`~opsstats.uncertainty.curve.curve_ops_interval`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
from scipy import stats
from scipy.special import ndtri

from ..._validation import (
    check_choice,
    check_confidence_level,
    check_real,
    describe,
)
from ...curves._geometry import CurveArea
from ...ops import _check_reference, curve_ops
from ...reference._streamed import depends_on_prevalence
from ...results import ConfidenceInterval, IntervalResult, OPSResult
from .._draws import bca_levels, check_rng, progress, quantile_positions
from ..confusion import PRIORS
from ._cells import _batches, _cell_mode, _Cells, _fill_curves
from ._options import (
    DEFAULT_RESAMPLES,
    METHODS,
    _Bootstrap,
    _check_logit_t,
    _check_options,
    _check_whole_counts,
    _draw_ends,
    _estimate,
    _logit_t,
    _resolve,
    _unit_area,
)
from .delong import DeLongResult, _check_delong_quantity, _delong_interval, delong_roc
from .jackknife import _at_bound, _jackknife, _jackknife_interval

__all__ = ["METHODS", "DeLongResult", "curve_interval", "curve_ops_interval", "delong_roc"]

_KIND_LABEL = {"percentile": "percentile", "bca": "BCa"}
#: Share of the logit-scale resamples whose spread gives the bootstrap logit-t standard
#: error: their central 68.27% spans +-1 standard deviation of a normal distribution.
_CENTRAL = (float(stats.norm.cdf(-1.0)), float(stats.norm.cdf(1.0)))
#: Logit-scale draws are clipped to [_EPS, 1 - _EPS] (resamples at 0 or 1)
_EPS = 1e-12
#: ``method="auto"`` for a ROC or PR area: the Dirichlet posterior when the smaller class
#: has fewer rows than this, the deterministic logit-t interval (DeLong's variance for
#: the ROC AUC, the jackknife's for the other areas) from this size on, where both cover
#: within 93%-97% in the coverage studies and the logit-t interval costs milliseconds
#: where the posterior's draws cost seconds (n = 1e6)
DIRICHLET_BELOW = 100


# --------------------------------------------------------------------- validation
def _check_prior_use(prior: Any, method: str, name: str = "method") -> Any:
    """``prior`` (None: Jeffreys) applies to the Dirichlet posterior only."""
    if prior is None:
        return "jeffreys"
    if method != "dirichlet":
        raise ValueError(f"`prior` sets the pseudo-rows of `{name}='dirichlet'`; the "
                         f"interval here is `{name}={method!r}`, which has no prior. Leave "
                         "`prior` out, or give the Dirichlet method.")
    _curve_prior(prior)
    return prior


def _auto(quantity: Any, curve: Any) -> tuple[str, str]:
    """The method and interval of ``method="auto"`` for this quantity on this curve: the
    ones the coverage studies found closest to nominal (``benchmarks/results/
    coverage_curve.md`` and ``coverage_shapes.md``)."""
    if _unit_area(quantity):
        if min(curve.n_positive, curve.n_negative) < DIRICHLET_BELOW:
            kind = "bias-extended" if quantity.curve == "pr" else "equal-tailed"
            return "dirichlet", kind
        if quantity.curve == "roc" and quantity.rule == "trapezoid":
            return "delong", "logit-t"
        return "jackknife", "logit-t"
    return "bootstrap", "percentile"


def _check_bias_extended(quantity: Any, kind: str) -> None:
    """The bias extension clips at 0 and was studied on the ROC and PR areas only."""
    if kind == "bias-extended" and not _unit_area(quantity):
        raise ValueError("`interval='bias-extended'` applies to the ROC and PR areas (values "
                         "in [0, 1], where the coverage studies checked it); got "
                         f"{quantity.label}. Use interval='equal-tailed'.")


def _check_dirichlet_rows(curve: Any, method: str, name: str) -> None:
    """The Dirichlet posterior needs 2 rows of each class (as the studies defined it)."""
    if method != "dirichlet" or min(curve.n_positive, curve.n_negative) >= 2:
        return
    raise ValueError(f"the Dirichlet posterior (`{name}='dirichlet'`, the default below 100 "
                     "rows of a class) needs at least 2 positives and 2 negatives (the "
                     "coverage studies' smallest test sets); got "
                     f"{curve.n_positive:g} positive(s) and {curve.n_negative:g} negative(s). "
                     f"Use `{name}='bootstrap'` to resample anyway.")


# ----------------------------------------------------------------- count sampling
class _Multinomial:
    """Batched draws of Multinomial(total, counts / total) over fixed categories.

    Parameters
    ----------
    counts : ndarray of int64, shape (k,)
        Positive counts (rows per category); ``total = counts.sum()``.
    columns : ndarray of int, shape (k,)
        Output column of each category, strictly increasing.
    width : int
        Number of output columns.

    Notes
    -----
    Both samplers are exact; which one is used depends only on the counts (never on
    the machine), so the same ``rng`` gives the same draws.

    * Few rows per category (``total < 3 k``) or in all (``total < 100``): one uniform
      integer per row, counted per resample by ``np.bincount``. Cost O(total) per draw.
    * Otherwise, Poisson conditioning: draw independent X_i ~ Poisson(s * counts_i) with
      s = 1 - 3 / sqrt(total), and T = sum X_i. Given T = t, X is Multinomial(t, counts /
      total) whatever s is, so on the event T <= total (a function of T only; a draw
      with T > total, probability about 0.13%, is drawn again) adding Multinomial(total
      - T, counts / total), drawn row by row, gives exactly Multinomial(total, counts /
      total). The top-up is about 3 sqrt(total) rows. The Poisson variates are drawn by
      inversion of a table of their distribution function (one table per distinct
      count, from scipy's ``poisson.cdf``; the tail left out is below 1e-30), started
      from a guide table (Chen and Asau 1974), so the cost is about one uniform per
      category rather than one per row.

    References
    ----------
    .. [1] H.-C. Chen and Y. Asau, "On generating random variates from an empirical
       distribution", AIIE Transactions 6(2), 163-166 (1974).
       https://doi.org/10.1080/05695557408974949
    """

    #: rows per category, and rows in all, from which Poisson conditioning is used
    MIN_MEAN = 3.0
    MIN_TOTAL = 100
    #: s = 1 - MARGIN / sqrt(total): P(T > total) is about 1 - Phi(MARGIN)
    MARGIN = 3.0

    def __init__(self, counts: np.ndarray, columns: np.ndarray, width: int) -> None:
        self.counts = np.asarray(counts, dtype=np.int64)
        self.columns = np.asarray(columns, dtype=np.intp)
        self.width = int(width)
        self.k = self.counts.size
        self.total = int(self.counts.sum())
        self.poisson = self.total >= max(self.MIN_MEAN * self.k, self.MIN_TOTAL)
        # position in the cumulated compact counts (with a leading 0) of each column:
        # cumulative[:, w] = compact_cumulative[:, #{columns <= w}]
        self.expand = np.searchsorted(self.columns, np.arange(self.width), side="right")
        if self.poisson:
            self._tables()
            # the category of each row, for the top-up draws
            self.row_cat = np.repeat(np.arange(self.k, dtype=np.int32), self.counts)
        else:
            self.row_col = np.repeat(self.columns, self.counts)

    def _tables(self) -> None:
        self.scale = max(0.0, 1.0 - self.MARGIN / np.sqrt(self.total))
        values, inverse = np.unique(self.counts, return_inverse=True)
        lam = values * self.scale
        # Each table covers lam -+ (12 sqrt(lam) + 40): the tails left out have
        # probability below 1e-30. Its last entry is set to 1 exactly, so every u in
        # [0, 1) falls inside it; u below its first entry (probability < 1e-30) gives
        # the first value.
        low = np.maximum(0, np.floor(lam - 12.0 * np.sqrt(lam) - 40.0)).astype(np.int64)
        length = np.ceil(lam + 12.0 * np.sqrt(lam) + 40.0).astype(np.int64) - low + 1
        starts = np.concatenate(([0], np.cumsum(length)[:-1]))
        k = np.arange(int(length.sum())) - np.repeat(starts - low, length)
        cdf = stats.poisson.cdf(k, np.repeat(lam, length))
        cdf[np.cumsum(length) - 1] = 1.0
        guides, guide_start = [], np.empty(values.size, dtype=np.int64)
        size = 2 * length
        position = 0
        for g in range(values.size):
            table = cdf[starts[g]:starts[g] + length[g]]
            # guide[j] = first k with cdf_k > j / M - 1e-12: the inverse of any u in
            # bucket j = floor(u * M) is at least guide[j], even when rounding in u * M
            # (relative error 2**-53) puts u in the next bucket, so the search below
            # only moves up.
            levels = np.arange(size[g]) / size[g] - 1e-12
            guides.append(starts[g] + np.searchsorted(table, levels, side="right"))
            guide_start[g] = position
            position += size[g]
        if position >= 2 ** 31 or cdf.size >= 2 ** 31:
            raise ValueError("too many rows for the count sampler's tables.")
        # int32 indices: numpy converts float64 to int32 and gathers with np.take on
        # int32 indices several times faster than with int64 ones.
        self.cdf = cdf
        self.guide = np.concatenate(guides).astype(np.int32)
        self.base = (starts - low)[inverse].astype(np.int32)   # value = index - base
        self.guide_start = guide_start[inverse].astype(np.int32)
        self.guide_size = size[inverse].astype(np.float64)

    def _poisson(self, b: int, rng: np.random.Generator) -> np.ndarray:
        u = rng.random((b, self.k))
        j = np.multiply(u, self.guide_size).astype(np.int32)    # floor: u >= 0
        j += self.guide_start
        x = np.take(self.guide, j)
        uf, xf = u.ravel(), x.ravel()
        active = np.flatnonzero(uf >= np.take(self.cdf, xf))
        while active.size:
            xf[active] += 1
            active = active[uf[active] >= self.cdf[xf[active]]]
        x -= self.base
        return x

    def _compact(self, b: int, rng: np.random.Generator) -> np.ndarray:
        """(b, k) counts per category, by Poisson conditioning."""
        x = self._poisson(b, rng)
        t = x.sum(axis=1)
        bad = np.flatnonzero(t > self.total)
        while bad.size:                       # rare: T > total, draw those rows again
            x[bad] = self._poisson(bad.size, rng)
            t[bad] = x[bad].sum(axis=1)
            bad = bad[t[bad] > self.total]
        deficit = self.total - t
        extra = rng.integers(0, self.total, size=int(deficit.sum()))
        category = np.take(self.row_cat, extra).astype(np.intp)
        category += np.repeat(np.arange(b, dtype=np.intp) * self.k, deficit)
        x += np.bincount(category, minlength=b * self.k).reshape(b, self.k)
        return x

    def _rows(self, b: int, rng: np.random.Generator) -> np.ndarray:
        """(b, width) counts, one uniform integer per row."""
        rows = rng.integers(0, self.total, size=(b, self.total))
        cols = np.take(self.row_col, rows)
        out = np.empty((b, self.width), dtype=np.int64)
        for i in range(b):
            out[i] = np.bincount(cols[i], minlength=self.width)
        return out

    def draw(self, b: int, rng: np.random.Generator) -> np.ndarray:
        """b draws of the counts, an int64 array of shape (b, width)."""
        if not self.poisson:
            return self._rows(b, rng)
        out = np.zeros((b, self.width), dtype=np.int64)
        out[:, self.columns] = self._compact(b, rng)
        return out

    def draw_cumulative(self, b: int, rng: np.random.Generator) -> np.ndarray:
        """b draws of the cumulative counts over the columns, shape (b, width)."""
        if not self.poisson:
            out = self._rows(b, rng)
            np.cumsum(out, axis=1, out=out)
            return out
        x = self._compact(b, rng)
        padded = np.zeros((b, self.k + 1), dtype=np.int64)
        np.cumsum(x, axis=1, out=padded[:, 1:])
        return np.take(padded, self.expand, axis=1)


# ---------------------------------------------------------------------- bootstrap
def _first_limit_fix(quantity: Any) -> bool:
    """Trapezoid PR and lift areas read y at the first point as its limit along the
    first segment; a resample whose first thresholds drew no rows must have those
    (origin) points moved out of the way first."""
    return (isinstance(quantity, CurveArea) and quantity.rule == "trapezoid"
            and quantity.curve in ("pr", "lift"))


def _drop_leading_empty(ctp: np.ndarray, cfp: np.ndarray, alpha: np.ndarray,
                        beta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Move a resample's leading empty cells (points still at the origin; ``ctp``,
    ``cfp`` are cumulative counts) to the end, as copies of the end point (1, 0):
    zero-width there, and the curve then starts with its first real segment, as the
    resample's own curve would."""
    empty = (ctp[:, 0] == 0) & (cfp[:, 0] == 0)
    if not empty.any():
        return alpha, beta
    rows = np.flatnonzero(empty)
    shift = np.argmax((ctp[rows] + cfp[rows]) > 0, axis=1)   # leading empty cells
    k = ctp.shape[1]
    idx = np.minimum(np.arange(1, k + 1)[None, :] + shift[:, None], k)
    alpha, beta = alpha.copy(), beta.copy()
    alpha[rows, 1:] = np.take_along_axis(alpha[rows], idx, axis=1)
    beta[rows, 1:] = np.take_along_axis(beta[rows], idx, axis=1)
    return alpha, beta


def _prevalence_dependent(quantity: Any) -> bool:
    return depends_on_prevalence(quantity)


def _bootstrap_values(curve: Any, quantity: Any, n: int, rng: np.random.Generator,
                      stratified: bool, show_progress: bool) -> np.ndarray:
    """The quantity on n bootstrap resamples of the curve's rows (NaN where undefined).

    Resamples are drawn in batches of b = max(1, 2**18 // (k + 1)) curves; the batch size
    depends only on the data, so the same ``rng`` gives the same values.
    """
    cells = _Cells(curve, _cell_mode(quantity))
    k = cells.k
    P, N = cells.P, cells.N
    has_pos, has_neg = np.flatnonzero(cells.pos), np.flatnonzero(cells.neg)
    if stratified:
        samplers = (_Multinomial(cells.pos[has_pos], has_pos, k),
                    _Multinomial(cells.neg[has_neg], has_neg, k))
    else:
        joint = _Multinomial(np.concatenate((cells.pos[has_pos], cells.neg[has_neg])),
                             np.concatenate((has_pos, k + has_neg)), 2 * k)
    by_prevalence = not stratified and _prevalence_dependent(quantity)
    fix = _first_limit_fix(quantity)
    batch, alpha_buf, beta_buf, values = _batches(n, k)
    pi = curve.prevalence
    with progress(n, show_progress, "bootstrap") as tick, \
            np.errstate(divide="ignore", invalid="ignore"):
        for start in range(0, n, batch):
            b = min(batch, n - start)
            alpha, beta = alpha_buf[:b], beta_buf[:b]
            out = values[start:start + b]
            if stratified:
                tp = samplers[0].draw_cumulative(b, rng)
                fp = samplers[1].draw_cumulative(b, rng)
                _fill_curves(tp, fp, P, N, alpha, beta)
                if fix:
                    alpha, beta = _drop_leading_empty(tp, fp, alpha, beta)
                out[:] = quantity(pi, alpha, beta)
            else:
                both = joint.draw(b, rng)
                tp, fp = np.cumsum(both[:, :k], axis=1), np.cumsum(both[:, k:], axis=1)
                p_r, n_r = tp[:, -1], fp[:, -1]
                ok = (p_r > 0) & (n_r > 0)              # a class absent: undefined
                out[~ok] = np.nan
                if not ok.any():
                    tick(b)
                    continue
                tp, fp, p_r, n_r = tp[ok], fp[ok], p_r[ok], n_r[ok]
                alpha, beta = alpha[:tp.shape[0]], beta[:tp.shape[0]]
                _fill_curves(tp, fp, p_r[:, None], n_r[:, None], alpha, beta)
                if fix:
                    alpha, beta = _drop_leading_empty(tp, fp, alpha, beta)
                res = np.empty(tp.shape[0])
                if by_prevalence:      # each resample at its own prevalence
                    for p_val in np.unique(p_r):
                        rows = np.flatnonzero(p_r == p_val)
                        pi_r = p_val / (p_val + n_r[rows[0]])
                        res[rows] = quantity(pi_r, alpha[rows], beta[rows])
                else:
                    res[:] = quantity(pi, alpha, beta)
                out[ok] = res
            tick(b)
    return values


# ----------------------------------------------------------------------- intervals
def _run_bootstrap(curve: Any, quantity: Any, kind: str, n: int, level: float,
                   estimate: float, stratified: bool, rng: Any,
                   show_progress: bool) -> _Bootstrap:
    _check_whole_counts(curve, "The curve bootstrap")
    generator = check_rng(rng)
    values = _bootstrap_values(curve, quantity, n, generator, stratified, show_progress)
    defined = np.sort(values[~np.isnan(values)])
    tail = (1 - level) / 2
    levels = (tail, 1 - tail)
    if kind == "bca" and defined.size:
        jack, weights = _jackknife(curve, quantity).pooled()
        if jack.size == 0:    # no defined leave-one-out value: acceleration 0
            jack, weights = np.zeros(1), np.ones(1)
        levels = bca_levels(defined, estimate, jack, weights, level)
    how = (f"{n} stratified bootstrap resamples" if stratified
           else f"{n} bootstrap resamples (not stratified)")
    label = f"{how}, {_KIND_LABEL[kind]}" if kind in _KIND_LABEL else how
    return _Bootstrap(defined, levels, n, label, "fixed" if stratified else "random")


def _bootstrap_logit_t(curve: Any, quantity: Any, boot: _Bootstrap, estimate: float,
                       level: float) -> tuple[float, float, str]:
    """The bootstrap logit-t interval: ``expit(logit(estimate) -+ t * se)``, se half the
    spread of the central 68.27% of the resamples' logits (robust to resamples at 0 or
    1), t with min(P, N) - 1 degrees of freedom."""
    P, N = int(round(curve.n_positive)), int(round(curve.n_negative))
    values = boot.sorted_values
    if values.size == 0:
        return float("nan"), float("nan"), boot.description
    clipped = np.clip(values, _EPS, 1 - _EPS)
    q = np.quantile(np.log(clipped) - np.log1p(-clipped), _CENTRAL)
    se = float(q[1] - q[0]) / 2
    low, high, how = _logit_t(_at_bound(curve, quantity, estimate), se, min(P, N) - 1,
                              level, min(P, N))
    return low, high, f"{boot.description}, logit scale, {how}"


# ---------------------------------------------------------------------- Dirichlet
def _curve_prior(prior: Any) -> tuple[float, str]:
    """The weight of each pseudo-row and its label, from ``"jeffreys"`` (1/2),
    ``"bayes-laplace"`` (1) or a positive number."""
    if isinstance(prior, str):
        key = check_choice("prior", prior.lower(), tuple(PRIORS))
        return PRIORS[key], "Jeffreys" if key == "jeffreys" else "Bayes-Laplace"
    try:
        a = check_real("prior", prior, low=0.0, low_open=True)
    except TypeError:
        raise TypeError("`prior` must be 'jeffreys', 'bayes-laplace' or a positive number "
                        f"(the weight of each pseudo-row); got {describe(prior)}.") from None
    return a, f"{a:g}"


def _class_weights(counts: np.ndarray, b: int, a: float,
                   rng: np.random.Generator) -> np.ndarray:
    """(b, k + 2) cumulative weights of one class: a pseudo-row of weight Gamma(a) above
    the highest score, Gamma(count) for each of the k cells, a pseudo-row Gamma(a) below
    the lowest score (a cell of one row, the usual case, is a standard exponential)."""
    k = counts.size
    w = np.zeros((b, k + 2))
    w[:, 0] = rng.standard_gamma(a, size=b)
    inner = w[:, 1:-1]
    one = np.flatnonzero(counts == 1)
    many = np.flatnonzero(counts > 1)
    inner[:, one] = rng.standard_exponential((b, one.size))
    inner[:, many] = rng.standard_gamma(counts[many].astype(float), size=(b, many.size))
    w[:, -1] = rng.standard_gamma(a, size=b)
    np.cumsum(w, axis=1, out=w)
    return w


def _dirichlet_values(curve: Any, quantity: Any, n: int, a: float,
                      rng: np.random.Generator, show_progress: bool) -> np.ndarray:
    """The quantity on n draws from the Dirichlet posterior of each class's scores.

    Each class's distribution over the curve's cells gets the weights Gamma(rows of the
    cell), plus a pseudo-row of weight Gamma(a) tied with the other class's above the
    highest score and another below the lowest, normalized per class: the Bayesian
    bootstrap (Rubin 1981) of the two classes, independently (prevalence fixed), under
    a Dirichlet process prior whose base measure puts mass a on each end of the score
    scale. A merged cell's weight is Gamma(its rows) by the aggregation property of the
    Dirichlet, so the cells of :class:`_Cells` are exact here too. Batches as in
    :func:`_bootstrap_values`.
    """
    cells = _Cells(curve, _cell_mode(quantity))
    batch, alpha_buf, beta_buf, values = _batches(n, cells.k + 2)
    pi = curve.prevalence
    with progress(n, show_progress, "Dirichlet draws") as tick, \
            np.errstate(divide="ignore", invalid="ignore"):
        for start in range(0, n, batch):
            b = min(batch, n - start)
            tp = _class_weights(cells.pos, b, a, rng)
            fp = _class_weights(cells.neg, b, a, rng)
            alpha, beta = alpha_buf[:b], beta_buf[:b]
            _fill_curves(tp, fp, tp[:, -1:], fp[:, -1:], alpha, beta)
            values[start:start + b] = quantity(pi, alpha, beta)
            tick(b)
    return values


def _run_dirichlet(curve: Any, quantity: Any, n: int, level: float, prior: Any, rng: Any,
                   show_progress: bool) -> _Bootstrap:
    _check_whole_counts(curve, "The curve Dirichlet posterior")
    a, label = _curve_prior(prior)
    generator = check_rng(rng)
    values = _dirichlet_values(curve, quantity, n, a, generator, show_progress)
    defined = np.sort(values[~np.isnan(values)])
    tail = (1 - level) / 2
    how = (f"Dirichlet posterior of each class's scores (Bayesian bootstrap, {label} "
           f"pseudo-rows at both ends), {n} draws, equal-tailed")
    return _Bootstrap(defined, (tail, 1 - tail), n, how, "fixed")


def _bias_extended(curve: Any, quantity: Any, boot: _Bootstrap, estimate: float
                   ) -> tuple[float, float, str, float]:
    """The equal-tailed posterior interval with its lower end moved down by the jackknife
    estimate of the estimator's upward bias over the positives, clipped at 0.

    b = max(0, (P - 1) (mean of the P leave-one-positive-out values - estimate)), each
    leave-one-out curve read at the test set's prevalence (Quenouille's jackknife bias
    estimate, over the class whose small count the bias comes from; a change of
    prevalence is not a bias). The upper end is unchanged, so the interval is never
    narrower than the equal-tailed one. For average precision the jackknife estimate is
    not negative (the tests check every arrangement of 2 to 4 positives among 4 to 10
    rows); for the ROC AUC, a U-statistic, it is 0 up to rounding.

    Why: the average precision of a few positives is biased upwards. Each positive's
    precision counts the positive itself, i / (i + FP_i), a convex function of small
    counts, and by how much depends on the scores' upper tails, which a few positives
    cannot show. Leaving a positive out removes that term, so the jackknife sees it;
    the posterior's mean excess over the estimate (the Bayesian bootstrap's bias
    estimate, the extension used before) overstates it up to 26.5-fold when the positives'
    scores are less spread than the negatives' (``benchmarks/results/
    choose_pr_interval.md``, which compares both on seven score shapes).
    """
    low, high = _draw_ends(boot)
    if boot.sorted_values.size == 0:
        return low, high, boot.description, float("nan")
    jack = _jackknife(curve, quantity, fixed_prevalence=True)
    values, weights = jack.values[0], jack.weights[0]
    ok = ~np.isnan(values)
    if not ok.any():        # a guard: the posterior needs 2 positives, so not reached
        return low, high, (f"{boot.description}, not extended (one positive: no "
                           "jackknife bias estimate)"), float("nan")
    m = float(weights[ok].sum())
    bias = max(0.0, (m - 1.0) * (float(np.dot(values[ok], weights[ok])) / m - estimate))
    text = (f"{boot.description}, lower end extended by the jackknife bias estimate over "
            f"the positives ({bias:.3g})")
    return max(low - bias, 0.0), high, text, bias


def curve_interval(curve: Any, name: Any, *, method: str = "auto",
                   confidence_level: float = 0.95, n_resamples: int = DEFAULT_RESAMPLES,
                   interval: str | None = None, stratified: bool = True, rng: Any = None,
                   progress: bool = False, at: dict[str, float] | None = None,
                   top_k: float | None = None, rule: str | None = None,
                   prior: Any = None, **params: Any) -> IntervalResult:
    """Confidence interval for an area or an operating-point value of a score curve.

    See :meth:`opsstats.curves.ScoreCurve.interval` for the parameters.

    Examples
    --------
    >>> from opsstats import ScoreCurve
    >>> curve = ScoreCurve.from_scores([0, 0, 1, 0, 1, 1, 0, 1], [.1, .3, .35, .4, .8, .9, .2, .6])
    >>> r = curve_interval(curve, "roc_auc", method="delong")
    >>> round(r.estimate, 4), r.method   # 15 of the 16 (positive, negative) pairs ordered
    (0.9375, 'DeLong, Sun-Xu algorithm, clipped to [0, 1]')
    """
    level = check_confidence_level(confidence_level)
    method, kind, n = _check_options(method, interval, n_resamples, stratified, progress)
    check_rng(rng)       # validated whichever method runs
    quantity = _resolve(curve, name, at, top_k, rule, params)
    if method == "auto":
        method, kind = _auto(quantity, curve)
    prior = _check_prior_use(prior, method)
    _check_dirichlet_rows(curve, method, "method")
    _check_bias_extended(quantity, kind)
    if kind == "logit-t":
        _check_logit_t(quantity, curve.n_positive, curve.n_negative)
    if method == "delong":
        # DeLong's AUC is the Mann-Whitney statistic, the trapezoid ROC AUC (equal to
        # curve.auc() up to rounding): the interval is centred on it, as pROC's is.
        _check_delong_quantity(quantity)
        d = delong_roc(curve)
        estimate = d.auc
        low, high, text, d = _delong_interval(curve, quantity, level, estimate, d, kind)
        return IntervalResult(
            estimate=estimate, ci=ConfidenceInterval(low, high), confidence_level=level,
            quantity=quantity.label, method=text, prevalence_mode="fixed",
            details={"variance": d.variance, "standard_error": float(np.sqrt(d.variance)),
                     "s10": d.s10, "s01": d.s01, "auc": d.auc, "interval": kind})
    estimate = _estimate(curve, quantity)
    if method == "jackknife":
        low, high, text, details = _jackknife_interval(curve, quantity, level, estimate,
                                                       kind)
        return IntervalResult(
            estimate=estimate, ci=ConfidenceInterval(low, high), confidence_level=level,
            quantity=quantity.label, method=text, prevalence_mode="fixed", details=details)
    if method == "dirichlet":
        boot = _run_dirichlet(curve, quantity, n, level, prior, rng, progress)
    else:
        boot = _run_bootstrap(curve, quantity, kind, n, level, estimate, stratified, rng,
                              progress)
    values = boot.sorted_values
    description = boot.description
    details: dict[str, Any] = {"levels": boot.levels, "interval": kind}
    if kind == "logit-t":
        low, high, description = _bootstrap_logit_t(curve, quantity, boot, estimate,
                                                    level)
    elif kind == "bias-extended":
        low, high, description, details["bias_extension"] = _bias_extended(
            curve, quantity, boot, estimate)
    else:
        low, high = _draw_ends(boot)
    return IntervalResult(
        estimate=estimate, ci=ConfidenceInterval(low, high), confidence_level=level,
        quantity=quantity.label, method=description, n_resamples=n,
        n_undefined=int(n - values.size), prevalence_mode=boot.prevalence_mode,
        draws=values, details=details)


def _widen(estimate: float, low: float, high: float, se_low: float, se_high: float,
           level: float) -> tuple[float, float]:
    """Each end moved outwards so that its distance h from the estimate becomes
    sqrt(h**2 + (z se)**2): the sampling half-width and the reference's Monte Carlo
    error at that end, independent, combined in quadrature."""
    z = float(ndtri(0.5 + level / 2))
    h_low, h_high = max(estimate - low, 0.0), max(high - estimate, 0.0)
    low -= np.hypot(h_low, z * se_low) - h_low
    high += np.hypot(h_high, z * se_high) - h_high
    return max(float(low), 0.0), min(float(high), 1.0)


def curve_ops_interval(curve: Any, metric: Any, *, at: dict[str, float] | None = None,
                       top_k: float | None = None, reference: Any = None,
                       rule: str | None = None, ties: str = "strict", ci: str | None = None,
                       confidence_level: float = 0.95,
                       n_resamples: int = DEFAULT_RESAMPLES, interval: str | None = None,
                       stratified: bool = True, rng: Any = None, progress: bool = False,
                       prior: Any = None, **params: Any) -> OPSResult:
    """OPS of a curve quantity against a curve reference, with an interval when ``ci``
    is a method.

    See :meth:`opsstats.curves.ScoreCurve.ops` for the parameters.

    Notes
    -----
    The quantity's interval (bootstrap order statistics, or the DeLong ends) is mapped
    through OPS at the curve's prevalence; OPS is monotone in the quantity there, so
    this is the interval of the OPS of every resample (for a lower-is-better quantity
    the ends swap). A Monte Carlo reference estimates OPS at each mapped end with a
    standard error se = sqrt(p (1 - p) / G) that is independent of the test-set
    sampling; each end is moved outwards so that its distance h from the OPS estimate
    becomes sqrt(h**2 + (z se)**2), z the normal quantile of the confidence level,
    and clipped to [0, 1]. ``ci_method`` then ends with "reference Monte Carlo error
    added"; ``details["ci_without_reference_error"]`` keeps the mapped interval.

    Examples
    --------
    >>> from opsstats import DirectedBinaryTree, ScoreCurve
    >>> curve = ScoreCurve.from_scores([0, 0, 1, 0, 1, 1, 0, 1], [.1, .3, .35, .4, .8, .9, .2, .6])
    >>> r = curve_ops_interval(curve, "roc_auc", ci="delong",
    ...                        reference=DirectedBinaryTree(depth=4, n_curves=1000))
    >>> r.ci.low <= r.estimate <= r.ci.high
    True
    """
    if top_k is not None:
        if at is not None:
            raise TypeError("give at most one of `at` and `top_k`; got "
                            f"at={describe(at)}, top_k={describe(top_k)}.")
        at = {"rate": curve._check_top_k(top_k) / curve.n}
        top_k = None
    if ci is not None:
        level = check_confidence_level(confidence_level)
        method, kind, n = _check_options(ci, interval, n_resamples, stratified, progress,
                                         name="ci")
        check_rng(rng)
    result = curve_ops(curve, metric, at=at, reference=reference, rule=rule, ties=ties,
                       **params)
    if ci is None or np.isnan(result.estimate):
        return result
    ref = _check_reference(reference, "curve", "a curve quantity")
    quantity = ref._quantity(metric, at, rule, params)
    pi = curve.prevalence
    estimate = float(result.estimate)
    extra: dict[str, Any] = {"interval": kind}
    if method == "auto":
        method, kind = _auto(quantity, curve)
        extra["interval"] = kind
    prior = _check_prior_use(prior, method, "ci")
    _check_dirichlet_rows(curve, method, "ci")
    _check_bias_extended(quantity, kind)
    if kind == "logit-t":
        _check_logit_t(quantity, curve.n_positive, curve.n_negative)

    def map_ends(low_v: float, high_v: float) -> tuple[float, float, float, float]:
        """OPS and its reference s.e. at the two ends of the quantity's interval."""
        if not (np.isfinite(low_v) and np.isfinite(high_v)):
            return (float("nan"),) * 4
        ends = np.array([low_v, high_v] if quantity.higher_is_better else [high_v, low_v])
        r = ref.ops(quantity, ends, prevalence=pi, ties=ties)
        o = np.asarray(r.estimate, dtype=float)
        e = np.asarray(r.standard_error, dtype=float)
        return float(o[0]), float(o[1]), float(e[0]), float(e[1])

    if method == "delong":
        low_v, high_v, text, d = _delong_interval(curve, quantity, level, result.value,
                                                  kind=kind)
        low, high, se_low, se_high = map_ends(low_v, high_v)
        n_defined, value_ci = None, ConfidenceInterval(low_v, high_v)
        extra.update(variance=d.variance, standard_error_value=float(np.sqrt(d.variance)))
        mode = "fixed"
    elif method == "jackknife":
        low_v, high_v, text, info = _jackknife_interval(curve, quantity, level,
                                                        result.value, kind)
        low, high, se_low, se_high = map_ends(low_v, high_v)
        n_defined, value_ci = None, ConfidenceInterval(low_v, high_v)
        extra.update(variance=info["variance"], standard_error_value=info["standard_error"])
        mode = "fixed"
    elif kind in ("logit-t", "bias-extended"):
        if kind == "logit-t":
            boot = _run_bootstrap(curve, quantity, kind, n, level, result.value,
                                  stratified, rng, progress)
            low_v, high_v, text = _bootstrap_logit_t(curve, quantity, boot, result.value,
                                                     level)
        else:
            boot = _run_dirichlet(curve, quantity, n, level, prior, rng, progress)
            low_v, high_v, text, extra["bias_extension"] = _bias_extended(
                curve, quantity, boot, result.value)
        low, high, se_low, se_high = map_ends(low_v, high_v)
        n_defined, value_ci = boot.sorted_values.size, ConfidenceInterval(low_v, high_v)
        mode = boot.prevalence_mode
    else:
        if not stratified and _prevalence_dependent(quantity):
            raise ValueError(f"`stratified=False` resamples the prevalence, and OPS of "
                             f"{quantity.label} depends on it: every resample would need the "
                             "reference at its own prevalence. Use stratified=True (the "
                             "prevalence fixed, as OPS standardizes against the test set's "
                             "own prevalence).")
        if method == "dirichlet":
            boot = _run_dirichlet(curve, quantity, n, level, prior, rng, progress)
        else:
            boot = _run_bootstrap(curve, quantity, kind, n, level, result.value, stratified,
                                  rng, progress)
        text, mode = boot.description, boot.prevalence_mode
        values = boot.sorted_values
        m = values.size
        n_defined = m
        if m == 0:
            low = high = se_low = se_high = float("nan")
            value_ci = ConfidenceInterval(float("nan"), float("nan"))
        else:
            value_ci = ConfidenceInterval(*_draw_ends(boot))
            levels = boot.levels
            higher = quantity.higher_is_better
            if not higher:   # OPS decreases in the value: its quantile q is the value's 1-q
                levels = (1 - levels[1], 1 - levels[0])
            lo_i, hi_i, w = quantile_positions(m, levels)
            idx = np.unique(np.r_[lo_i, hi_i])
            src = idx if higher else m - 1 - idx
            r = ref.ops(quantity, values[src], prevalence=pi, ties=ties)
            ops_at = dict(zip(idx.tolist(), np.atleast_1d(r.estimate).tolist(), strict=True))
            se_at = dict(zip(idx.tolist(), np.atleast_1d(r.standard_error).tolist(),
                             strict=True))

            def interp(table: dict, e: int) -> float:
                return table[lo_i[e]] + w[e] * (table[hi_i[e]] - table[lo_i[e]])

            low, high = interp(ops_at, 0), interp(ops_at, 1)
            se_low, se_high = interp(se_at, 0), interp(se_at, 1)
    mapped = ConfidenceInterval(float(low), float(high))
    if np.isfinite(low) and (se_low > 0 or se_high > 0):
        low, high = _widen(estimate, low, high, se_low, se_high, level)
        text += "; reference Monte Carlo error added"
    details = {**result.details, "value_ci": value_ci, "ci_without_reference_error": mapped,
               "reference_standard_error_at_ends": (float(se_low), float(se_high)),
               "prevalence_mode": mode, **extra}
    if method in ("bootstrap", "dirichlet"):
        details.update(n_resamples=n, n_undefined=int(n - n_defined))
    return replace(result, ci=ConfidenceInterval(float(low), float(high)),
                   confidence_level=level, ci_method=text, details=details)

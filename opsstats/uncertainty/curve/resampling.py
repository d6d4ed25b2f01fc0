"""``method="bootstrap"``: resampling the test set's rows, and the bootstrap's intervals.

Resampling the test set's (score, label) rows. The rows of one distinct score and one
class are exchangeable, so a bootstrap resample is fully described by how many rows of
each (threshold, class) cell it draws: stratified (the default, prevalence fixed) the
positives' multiplicities over the thresholds are Multinomial(P, positives per threshold
/ P) and independently the negatives' are Multinomial(N, negatives per threshold / N);
not stratified, all rows' multiplicities are Multinomial(n, cell counts / n). Cumulative
sums of the drawn counts give each resample's curve over the *same* thresholds, so
nothing is sorted per resample and a batch of B resampled curves is a (B, J) array of
(alpha, beta) that the shared curve geometry (:mod:`opsstats.curves._geometry`)
evaluates in one call.

Exact reductions keep the batch small (:class:`_Cells`). Thresholds inside a run that
adds negatives only are merged into one cell, as :meth:`ScoreCurve._geometry_points`
does for the observed curve: along such a run every area except the lift area, and every
eq. 9 operating point, depends only on the run's two ends, and the merged cell's
resampled count is Multinomial with the summed probability (the aggregation property of
the multinomial). At prevalence 0.1 with continuous scores that leaves about a fifth of
the thresholds; for the step-rule PR area (average precision), whose negatives-only
points have zero width, only the thresholds that add positives remain. The multinomial
counts are drawn by :class:`_Multinomial`, which costs about one uniform draw per cell
rather than one per row (see its Notes). Percentile and BCa intervals; the BCa jackknife
leaves out one row of each (cell, class) type, at most 2J distinct curves, evaluated
exactly in O(J) (:func:`_jackknife`). Resamples where the quantity is undefined (a class
absent without stratification, or a 0/0 metric) are counted in ``n_undefined`` and left
out, never dropped silently.

The bootstrap's ``"logit-t"`` interval is ``expit(logit(estimate) -+ t * se)``, se half
the spread of the central 68.27% of the resamples' logits (a standard deviation that
resamples at 0 or 1 cannot make infinite) and t with min(P, N) - 1 degrees of freedom.
At an estimate of exactly 0 or 1 it is one-sided, as the other logit-t intervals are
(:func:`~opsstats.uncertainty.curve._options._logit_t`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..._lazy import lazy_module
from ...curves._geometry import CurveArea
from ...reference._streamed import depends_on_prevalence
from .._draws import bca_levels, check_rng, progress
from ._cells import _batches, _cell_mode, _Cells, _evaluate, _fill_curves
from ._options import _Bootstrap, _check_whole_counts, _logit_t
from .jackknife import _at_bound, _jackknife

if TYPE_CHECKING:
    from scipy import special
else:
    special = lazy_module("scipy.special")

__all__: list[str] = []

_KIND_LABEL = {"percentile": "percentile", "bca": "BCa"}

#: Logit-scale draws are clipped to [_EPS, 1 - _EPS] (resamples at 0 or 1)
_EPS = 1e-12


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
        from scipy import stats  # third-party, on first use: scipy.stats is slow to import

        cdf = stats.poisson.cdf(k, np.repeat(lam, length))
        cdf[np.cumsum(length) - 1] = 1.0
        guides, guide_start = [], np.empty(values.size, dtype=np.int64)
        size = 2 * length
        position = 0
        for g in range(values.size):
            table = cdf[starts[g] : starts[g] + length[g]]
            # guide[j] = first k with cdf_k > j / M - 1e-12: the inverse of any u in
            # bucket j = floor(u * M) is at least guide[j], even when rounding in u * M
            # (relative error 2**-53) puts u in the next bucket, so the search below
            # only moves up.
            levels = np.arange(size[g]) / size[g] - 1e-12
            guides.append(starts[g] + np.searchsorted(table, levels, side="right"))
            guide_start[g] = position
            position += size[g]
        if position >= 2**31 or cdf.size >= 2**31:
            raise ValueError("too many rows for the count sampler's tables.")
        # int32 indices: numpy converts float64 to int32 and gathers with np.take on
        # int32 indices several times faster than with int64 ones.
        self.cdf = cdf
        self.guide = np.concatenate(guides).astype(np.int32)
        self.base = (starts - low)[inverse].astype(np.int32)  # value = index - base
        self.guide_start = guide_start[inverse].astype(np.int32)
        self.guide_size = size[inverse].astype(np.float64)

    def _poisson(self, b: int, rng: np.random.Generator) -> np.ndarray:
        u = rng.random((b, self.k))
        j = np.multiply(u, self.guide_size).astype(np.int32)  # floor: u >= 0
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
        while bad.size:  # rare: T > total, draw those rows again
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
    return (
        isinstance(quantity, CurveArea)
        and quantity.rule == "trapezoid"
        and quantity.curve in ("pr", "lift")
    )


def _drop_leading_empty(
    ctp: np.ndarray, cfp: np.ndarray, alpha: np.ndarray, beta: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Move a resample's leading empty cells (points still at the origin; ``ctp``,
    ``cfp`` are cumulative counts) to the end, as copies of the end point (1, 0):
    zero-width there, and the curve then starts with its first real segment, as the
    resample's own curve would."""
    empty = (ctp[:, 0] == 0) & (cfp[:, 0] == 0)
    if not empty.any():
        return alpha, beta
    rows = np.flatnonzero(empty)
    shift = np.argmax((ctp[rows] + cfp[rows]) > 0, axis=1)  # leading empty cells
    k = ctp.shape[1]
    idx = np.minimum(np.arange(1, k + 1)[None, :] + shift[:, None], k)
    alpha, beta = alpha.copy(), beta.copy()
    alpha[rows, 1:] = np.take_along_axis(alpha[rows], idx, axis=1)
    beta[rows, 1:] = np.take_along_axis(beta[rows], idx, axis=1)
    return alpha, beta


def _prevalence_dependent(quantity: Any) -> bool:
    return depends_on_prevalence(quantity)


def _bootstrap_values(
    curve: Any,
    quantities: list[Any],
    n: int,
    rng: np.random.Generator,
    stratified: bool,
    show_progress: bool | None,
    prevalences: list[Any] | None = None,
) -> np.ndarray:
    """The quantities on n bootstrap resamples of the curve's rows (NaN where
    undefined), shape ``(len(quantities), n)``: every quantity on the same resamples.

    ``prevalences`` (stratified only): one entry per quantity, None (the curve's
    prevalence) or an array of n prevalences, resample i's quantity evaluated at the
    i-th (drawn by the caller, e.g. :func:`opsstats.decompose`).

    The quantities share one cell layout (:func:`_cell_mode`; the first one's).
    Resamples are drawn in batches of b = max(1, 2**18 // (k + 1)) curves; the batch size
    depends only on the data, so the same ``rng`` gives the same values.
    """
    if not stratified and getattr(curve, "origin", None) is not None:
        raise ValueError(
            "`stratified=False` resamples the prevalence, and a standardized curve's "
            f"prevalence is the stated {curve.prevalence!r}, not an estimate; its "
            "intervals resample the original rows within each class, the prevalence "
            "fixed (`stratified=True`, the default)."
        )
    cells = _Cells(curve, _cell_mode(quantities[0]))
    k = cells.k
    P, N = cells.P, cells.N
    has_pos, has_neg = np.flatnonzero(cells.pos), np.flatnonzero(cells.neg)
    if stratified:
        samplers = (
            _Multinomial(cells.pos[has_pos], has_pos, k),
            _Multinomial(cells.neg[has_neg], has_neg, k),
        )
    else:
        joint = _Multinomial(
            np.concatenate((cells.pos[has_pos], cells.neg[has_neg])),
            np.concatenate((has_pos, k + has_neg)),
            2 * k,
        )
    if prevalences is not None and not stratified:
        raise ValueError("per-resample prevalences apply to the stratified bootstrap only.")
    at: list[Any] = [None] * len(quantities) if prevalences is None else prevalences
    by_prevalence = [not stratified and _prevalence_dependent(q) for q in quantities]
    fix = [_first_limit_fix(q) for q in quantities]
    batch, alpha_buf, beta_buf, _ = _batches(n, k)
    values = np.empty((len(quantities), n))
    pi = curve.prevalence
    with (
        progress(n, show_progress, "bootstrap") as tick,
        np.errstate(divide="ignore", invalid="ignore"),
    ):
        for start in range(0, n, batch):
            b = min(batch, n - start)
            alpha, beta = alpha_buf[:b], beta_buf[:b]
            out = values[:, start : start + b]
            if stratified:
                tp = samplers[0].draw_cumulative(b, rng)
                fp = samplers[1].draw_cumulative(b, rng)
                _fill_curves(tp, fp, P, N, alpha, beta)
                for i, q in enumerate(quantities):
                    a_q, b_q = _drop_leading_empty(tp, fp, alpha, beta) if fix[i] else (alpha, beta)
                    rows = None if at[i] is None else at[i][start : start + b]
                    out[i] = _evaluate(q, pi, a_q, b_q, rows)
            else:
                both = joint.draw(b, rng)
                tp, fp = np.cumsum(both[:, :k], axis=1), np.cumsum(both[:, k:], axis=1)
                p_r, n_r = tp[:, -1], fp[:, -1]
                ok = (p_r > 0) & (n_r > 0)  # a class absent: undefined
                out[:, ~ok] = np.nan
                if not ok.any():
                    tick(b)
                    continue
                tp, fp, p_r, n_r = tp[ok], fp[ok], p_r[ok], n_r[ok]
                alpha, beta = alpha[: tp.shape[0]], beta[: tp.shape[0]]
                _fill_curves(tp, fp, p_r[:, None], n_r[:, None], alpha, beta)
                for i, q in enumerate(quantities):
                    a_q, b_q = _drop_leading_empty(tp, fp, alpha, beta) if fix[i] else (alpha, beta)
                    res = np.empty(tp.shape[0])
                    if by_prevalence[i]:  # each resample at its own prevalence
                        for p_val in np.unique(p_r):
                            rows = np.flatnonzero(p_r == p_val)
                            pi_r = p_val / (p_val + n_r[rows[0]])
                            res[rows] = q(pi_r, a_q[rows], b_q[rows])
                    else:
                        res[:] = q(pi, a_q, b_q)
                    out[i, ok] = res
            tick(b)
    return values


def _run_bootstrap(
    curve: Any,
    quantity: Any,
    kind: str,
    n: int,
    level: float,
    estimate: float,
    stratified: bool,
    rng: Any,
    show_progress: bool | None,
    values: np.ndarray | None = None,
) -> _Bootstrap:
    """The bootstrap's draws of the quantity (``values`` when they are already drawn,
    on stratified resamples), sorted, with the levels of its interval ``kind``."""
    _check_whole_counts(curve, "The curve bootstrap")
    if values is None:
        generator = check_rng(rng)
        values = _bootstrap_values(curve, [quantity], n, generator, stratified, show_progress)[0]
    defined = np.sort(values[~np.isnan(values)])
    tail = (1 - level) / 2
    levels = (tail, 1 - tail)
    if kind == "bca" and defined.size:
        jack, weights = _jackknife(curve, quantity).pooled()
        if jack.size == 0:  # no defined leave-one-out value: acceleration 0
            jack, weights = np.zeros(1), np.ones(1)
        levels = bca_levels(defined, estimate, jack, weights, level)
    how = (
        f"{n} stratified bootstrap resamples"
        if stratified
        else f"{n} bootstrap resamples (not stratified)"
    )
    label = f"{how}, {_KIND_LABEL[kind]}" if kind in _KIND_LABEL else how
    return _Bootstrap(defined, levels, n, label, "fixed" if stratified else "random")


def _bootstrap_logit_t(
    curve: Any, quantity: Any, boot: _Bootstrap, estimate: float, level: float
) -> tuple[float, float, str]:
    """The bootstrap logit-t interval: ``expit(logit(estimate) -+ t * se)``, se half the
    spread of the central 68.27% of the resamples' logits (robust to resamples at 0 or
    1), t with min(P, N) - 1 degrees of freedom."""
    P, N = round(curve.n_positive), round(curve.n_negative)
    values = boot.sorted_values
    if values.size == 0:
        return float("nan"), float("nan"), boot.description
    clipped = np.clip(values, _EPS, 1 - _EPS)
    # the central 68.27% of the logits spans +-1 standard deviation of a normal
    # distribution: the levels are the normal CDF (scipy.stats.norm.cdf) at -1 and 1
    central = special.ndtr(np.array([-1.0, 1.0]))
    q = np.quantile(np.log(clipped) - np.log1p(-clipped), central)
    se = float(q[1] - q[0]) / 2
    low, high, how = _logit_t(
        _at_bound(curve, quantity, estimate), se, min(P, N) - 1, level, min(P, N)
    )
    return low, high, f"{boot.description}, logit scale, {how}"

"""``method="dirichlet"``: the Dirichlet posterior of each class's scores, and its
intervals.

The Dirichlet posterior of each class's score distribution: the Bayesian bootstrap
(Rubin 1981) of each class, Gamma(1) weights on its rows normalized within the class
(the prevalence fixed), plus four pseudo-rows of weight Gamma(a): a positive and a
negative tied above the highest score, and another pair tied below the lowest (a = 1/2,
Jeffreys, by default). The equal-tailed interval of the quantity over the draws of the
weighted curve. The pseudo-rows are what a small class needs: with placements of 0 or 1
the ROC AUC's posterior tends to the Jeffreys Beta posterior of a proportion, and a
separated test set needs no special rule. A cell's rows share one Gamma(rows) weight,
over the same merged cells as the bootstrap (:func:`_dirichlet_values`). Interval
``"bias-extended"``: the equal-tailed interval with its lower end moved down by the
jackknife estimate of the estimator's upward small-sample bias, leaving out one positive
at a time at the test set's prevalence (:func:`_bias_extended`); for average precision
with few positives, whose bias depends on the scores' upper tails.

The weight ``a`` of the pseudo-rows is the ``prior``: ``"jeffreys"`` (1/2, the default),
``"bayes-laplace"`` (1) or a positive number; no other method takes one. The posterior
needs 2 rows of each class, and the bias extension a ROC or PR area.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._validation import check_choice, check_real, describe
from .._draws import check_rng, progress
from ..confusion import PRIORS
from ._cells import _batches, _cell_mode, _Cells, _evaluate, _fill_curves
from ._options import _Bootstrap, _check_whole_counts, _draw_ends, _unit_area
from .jackknife import _jackknife

__all__: list[str] = []


def _curve_prior(prior: Any) -> tuple[float, str]:
    """The weight of each pseudo-row and its label, from ``"jeffreys"`` (1/2),
    ``"bayes-laplace"`` (1) or a positive number."""
    if isinstance(prior, str):
        key = check_choice("prior", prior.lower(), tuple(PRIORS))
        return PRIORS[key], "Jeffreys" if key == "jeffreys" else "Bayes-Laplace"
    try:
        a = check_real("prior", prior, low=0.0, low_open=True)
    except TypeError:
        raise TypeError(
            "`prior` must be 'jeffreys', 'bayes-laplace' or a positive number "
            f"(the weight of each pseudo-row); got {describe(prior)}."
        ) from None
    return a, f"{a:g}"


def _check_prior_use(prior: Any, method: str, name: str = "method") -> Any:
    """``prior`` (None: Jeffreys) applies to the Dirichlet posterior only."""
    if prior is None:
        return "jeffreys"
    if method != "dirichlet":
        raise ValueError(
            f"`prior` sets the pseudo-rows of `{name}='dirichlet'`; the "
            f"interval here is `{name}={method!r}`, which has no prior. Leave "
            "`prior` out, or give the Dirichlet method."
        )
    _curve_prior(prior)
    return prior


def _check_dirichlet_rows(curve: Any, method: str, name: str) -> None:
    """The Dirichlet posterior needs 2 rows of each class (as the studies defined it)."""
    if method != "dirichlet" or min(curve.n_positive, curve.n_negative) >= 2:
        return
    raise ValueError(
        f"the Dirichlet posterior (`{name}='dirichlet'`, the default below 100 "
        "rows of a class) needs at least 2 positives and 2 negatives (the "
        "coverage studies' smallest test sets); got "
        f"{curve.n_positive:g} positive(s) and {curve.n_negative:g} negative(s). "
        f"Use `{name}='bootstrap'` to resample anyway."
    )


def _check_bias_extended(quantity: Any, kind: str) -> None:
    """The bias extension clips at 0 and was studied on the ROC and PR areas only."""
    if kind == "bias-extended" and not _unit_area(quantity):
        raise ValueError(
            "`interval='bias-extended'` applies to the ROC and PR areas (values "
            "in [0, 1], where the coverage studies checked it); got "
            f"{quantity.label}. Use interval='equal-tailed'."
        )


def _class_weights(counts: np.ndarray, b: int, a: float, rng: np.random.Generator) -> np.ndarray:
    """(b, k + 2) cumulative weights of one class: a pseudo-row of weight Gamma(a) above
    the highest score, Gamma(count) for each of the k cells, a pseudo-row Gamma(a) below
    the lowest score (a cell of one row, the usual case, is a standard exponential)."""
    k = counts.size
    ones = bool(np.all(counts == 1))  # one row per cell (distinct scores): no scatter
    w = np.empty((b, k + 2)) if ones else np.zeros((b, k + 2))
    w[:, 0] = rng.standard_gamma(a, size=b)
    inner = w[:, 1:-1]
    if ones:
        inner[...] = rng.standard_exponential((b, k))
    else:
        one = np.flatnonzero(counts == 1)
        many = np.flatnonzero(counts > 1)
        inner[:, one] = rng.standard_exponential((b, one.size))
        inner[:, many] = rng.standard_gamma(counts[many].astype(float), size=(b, many.size))
    w[:, -1] = rng.standard_gamma(a, size=b)
    np.cumsum(w, axis=1, out=w)
    return w


def _dirichlet_values(
    curve: Any,
    quantities: list[Any],
    n: int,
    a: float,
    rng: np.random.Generator,
    show_progress: bool | None,
    prevalences: list[Any] | None = None,
) -> np.ndarray:
    """The quantities on n draws from the Dirichlet posterior of each class's scores,
    shape ``(len(quantities), n)``: every quantity on the same draws (the quantities
    share one cell layout, the first one's). ``prevalences``: as in
    :func:`~opsstats.uncertainty.curve.resampling._bootstrap_values`.

    Each class's distribution over the curve's cells gets the weights Gamma(rows of the
    cell), plus a pseudo-row of weight Gamma(a) tied with the other class's above the
    highest score and another below the lowest, normalized per class: the Bayesian
    bootstrap (Rubin 1981) of the two classes, independently (prevalence fixed), under
    a Dirichlet process prior whose base measure puts mass a on each end of the score
    scale. A merged cell's weight is Gamma(its rows) by the aggregation property of the
    Dirichlet, so the cells of :class:`_Cells` are exact here too. Batches as in
    :func:`_bootstrap_values`.
    """
    cells = _Cells(curve, _cell_mode(quantities[0]))
    batch, alpha_buf, beta_buf, _ = _batches(n, cells.k + 2)
    values = np.empty((len(quantities), n))
    pi = curve.prevalence
    at: list[Any] = [None] * len(quantities) if prevalences is None else prevalences
    with (
        progress(n, show_progress, "Dirichlet draws") as tick,
        np.errstate(divide="ignore", invalid="ignore"),
    ):
        for start in range(0, n, batch):
            b = min(batch, n - start)
            tp = _class_weights(cells.pos, b, a, rng)
            fp = _class_weights(cells.neg, b, a, rng)
            alpha, beta = alpha_buf[:b], beta_buf[:b]
            _fill_curves(tp, fp, tp[:, -1:], fp[:, -1:], alpha, beta)
            for i, q in enumerate(quantities):
                rows = None if at[i] is None else at[i][start : start + b]
                values[i, start : start + b] = _evaluate(q, pi, alpha, beta, rows)
            tick(b)
    return values


def _run_dirichlet(
    curve: Any,
    quantity: Any,
    n: int,
    level: float,
    prior: Any,
    rng: Any,
    show_progress: bool | None,
    values: np.ndarray | None = None,
) -> _Bootstrap:
    """The posterior draws of the quantity (``values`` when they are already drawn with
    this ``prior``), sorted, with the levels of the equal-tailed interval."""
    _check_whole_counts(curve, "The curve Dirichlet posterior")
    a, label = _curve_prior(prior)
    if values is None:
        generator = check_rng(rng)
        values = _dirichlet_values(curve, [quantity], n, a, generator, show_progress)[0]
    defined = np.sort(values[~np.isnan(values)])
    tail = (1 - level) / 2
    how = (
        f"Dirichlet posterior of each class's scores (Bayesian bootstrap, {label} "
        f"pseudo-rows at both ends), {n} draws, equal-tailed"
    )
    return _Bootstrap(defined, (tail, 1 - tail), n, how, "fixed")


def _bias_extended(
    curve: Any, quantity: Any, boot: _Bootstrap, estimate: float
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
    if not ok.any():  # a guard: the posterior needs 2 positives, so not reached
        return (
            low,
            high,
            (f"{boot.description}, not extended (one positive: no jackknife bias estimate)"),
            float("nan"),
        )
    m = float(weights[ok].sum())
    bias = max(0.0, (m - 1.0) * (float(np.dot(values[ok], weights[ok])) / m - estimate))
    text = (
        f"{boot.description}, lower end extended by the jackknife bias estimate over "
        f"the positives ({bias:.3g})"
    )
    return max(low - bias, 0.0), high, text, bias

"""The change of a metric between two test sets split into the part due to the
prevalence and the part due to the classifier: :func:`decompose` and its result
:class:`Decomposition` (docs/method.md#decomposition).

With f(pi, theta) the metric (or its OPS) of classifier theta at prevalence pi, the
four corners are f(pi_j, theta_k) for j, k in {before, after}, each the object
``theta_k.at_prevalence(pi_j)`` and its metric or OPS: one code path, the one users call.
The split is the symmetric two-factor one: each part is the average of its effect at the
other factor's two values, so that the parts add up to the change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._seam import upcall
from ._summary import Summary, wrap_line
from ._validation import (
    check_choice,
    check_confidence_level,
    check_digits,
    check_real,
    check_resamples,
    describe,
)
from .comparison.quantity import is_confusion_metric
from .confusion import ConfusionMatrix
from .curves import ScoreCurve
from .curves._geometry import resolve_quantity
from .metrics import resolve_metric
from .ops import _check_reference
from .reference._streamed import depends_on_prevalence
from .results import ConfidenceInterval
from .uncertainty._draws import check_rng, equal_tailed
from .uncertainty.confusion import PRIORS, _Draws
from .uncertainty.curve._options import _check_whole_counts, _estimate, sampling_view
from .uncertainty.curve.dirichlet import _dirichlet_values
from .uncertainty.curve.resampling import _bootstrap_values

__all__ = ["Decomposition", "decompose"]

#: The interval methods: each test set drawn independently, its prevalence too.
CI_METHODS = ("dirichlet", "bootstrap")

_PARTS = ("total", "prevalence", "classifier")


def split(g00: Any, g01: Any, g10: Any, g11: Any) -> tuple[Any, Any, Any]:
    """(total, prevalence part, classifier part) from the four corners, gKJ =
    f(pi_J, theta_K): classifier K at prevalence J (0 before, 1 after), the order of
    :attr:`Decomposition.corners`; floats or arrays of draws alike.

    total = g11 - g00; prevalence part = [(g01 - g00) + (g11 - g10)] / 2 (the
    prevalence's effect at each classifier); classifier part = [(g10 - g00) +
    (g11 - g01)] / 2 (the classifier's effect at each prevalence). The parts add up to
    the total up to rounding (a few units in the last place), and the classifier part is
    exactly 0 when f(pi, theta_after) = f(pi, theta_before) at both prevalences
    (x - x = 0).

    Examples
    --------
    >>> [round(x, 4) for x in split(0.2, 0.1, 0.5, 0.3)]
    [0.1, -0.15, 0.25]
    """
    total = g11 - g00
    prevalence = ((g01 - g00) + (g11 - g10)) / 2
    classifier = ((g10 - g00) + (g11 - g01)) / 2
    return total, prevalence, classifier


@dataclass(frozen=True)
class Decomposition:
    """The change of a metric (or of its OPS) between two test sets, split into the
    part due to the prevalence and the part due to the classifier.

    Attributes
    ----------
    metric : str
        What changed, e.g. ``"F1 score"`` or ``"OPS of F1 score"``.
    total, prevalence_part, classifier_part : float
        f(pi1, theta1) - f(pi0, theta0), and its two parts (docs/method.md#decomposition).
    total_ci, prevalence_part_ci, classifier_part_ci : ConfidenceInterval or None
        Percentile intervals from independent draws of the two test sets (None without
        ``ci``).
    before_prevalence, after_prevalence : float
        pi0 and pi1.
    corners : tuple of tuple of float
        ``corners[k][j]`` = f(pi_j, theta_k): classifier k (0 before, 1 after) at
        prevalence j; ``corners[0][0]`` is the before value, ``corners[1][1]`` the after
        value.
    method : str
        How the corners and the intervals were made.
    confidence_level : float or None
    n_resamples : int or None
    n_undefined : int
        Draws in which a corner was undefined (0/0 or a class absent), left out of the
        intervals.

    Examples
    --------
    >>> from opsstats import ConfusionMatrix, decompose
    >>> jan = ConfusionMatrix(tp=50, fp=60, fn=50, tn=840)
    >>> feb = ConfusionMatrix(tp=150, fp=30, fn=150, tn=420)
    >>> d = decompose(jan, feb, metric="f1", ci=None)
    >>> round(d.total, 4), round(d.prevalence_part, 4), round(d.classifier_part, 4)
    (0.1488, 0.1488, 0.0)
    """

    metric: str
    total: float
    prevalence_part: float
    classifier_part: float
    total_ci: ConfidenceInterval | None
    prevalence_part_ci: ConfidenceInterval | None
    classifier_part_ci: ConfidenceInterval | None
    before_prevalence: float
    after_prevalence: float
    corners: tuple[tuple[float, float], tuple[float, float]]
    method: str
    confidence_level: float | None = None
    n_resamples: int | None = None
    n_undefined: int = 0
    details: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def before_value(self) -> float:
        """f(pi0, theta0): the metric of the before set."""
        return self.corners[0][0]

    @property
    def after_value(self) -> float:
        """f(pi1, theta1): the metric of the after set."""
        return self.corners[1][1]

    def _rows(self) -> list[tuple[str, float, ConfidenceInterval | None]]:
        return [
            ("total", self.total, self.total_ci),
            ("prevalence", self.prevalence_part, self.prevalence_part_ci),
            ("classifier", self.classifier_part, self.classifier_part_ci),
        ]

    def to_frame(self) -> Any:
        """One row per part (``total``, ``prevalence``, ``classifier``): ``estimate``,
        ``ci_low``, ``ci_high`` (NaN without intervals), with the metric and the two
        prevalences as columns, for stacking decompositions into one table."""
        import pandas as pd

        nan = float("nan")
        return pd.DataFrame(
            {
                "metric": self.metric,
                "part": [r[0] for r in self._rows()],
                "estimate": [r[1] for r in self._rows()],
                "ci_low": [r[2].low if r[2] is not None else nan for r in self._rows()],
                "ci_high": [r[2].high if r[2] is not None else nan for r in self._rows()],
                "before_prevalence": self.before_prevalence,
                "after_prevalence": self.after_prevalence,
            }
        )

    def to_string(self, digits: int = 4) -> str:
        """One line: the change and its two parts, with their intervals."""
        digits = check_digits(digits)

        def one(value: float, ci: ConfidenceInterval | None) -> str:
            text = f"{value:+.{digits}f}"
            if ci is not None:
                text += f" [{ci.low:+.{digits}f}, {ci.high:+.{digits}f}]"
            return text

        return (
            f"{self.metric}: {self.before_value:.{digits}f} at prevalence "
            f"{self.before_prevalence:.{digits}g} -> {self.after_value:.{digits}f} at "
            f"{self.after_prevalence:.{digits}g}; change {one(self.total, self.total_ci)} "
            f"= prevalence {one(self.prevalence_part, self.prevalence_part_ci)} + classifier "
            f"{one(self.classifier_part, self.classifier_part_ci)}"
        )

    def __str__(self) -> str:
        return wrap_line(self.to_string())

    def summary(self, digits: int = 4) -> Summary:
        """The parts with their intervals and how they were made, as a
        :class:`~opsstats._summary.Summary` (text with ``str()``, HTML in notebooks,
        ``.to_frame()`` for a DataFrame)."""
        digits = check_digits(digits)
        table = self.to_frame().set_index("part")[["estimate", "ci_low", "ci_high"]]
        if self.total_ci is None:
            table = table[["estimate"]]
        c = self.corners
        notes = [
            f"Corners f(prevalence, classifier): before classifier {c[0][0]:.{digits}f} at "
            f"{self.before_prevalence:.{digits}g} and {c[0][1]:.{digits}f} at "
            f"{self.after_prevalence:.{digits}g}; after classifier {c[1][0]:.{digits}f} "
            f"and {c[1][1]:.{digits}f}.",
            "prevalence = [f(pi1, before) - f(pi0, before) + f(pi1, after) - f(pi0, after)]"
            " / 2; classifier = [f(pi0, after) - f(pi0, before) + f(pi1, after) - f(pi1, "
            "before)] / 2 (docs/method.md#decomposition).",
            f"{self.method}.",
        ]
        if self.confidence_level is not None:
            notes.append(
                f"{100 * self.confidence_level:g}% percentile intervals; {self.n_undefined} "
                f"of {self.n_resamples} draws with an undefined corner left out."
            )
        return Summary(
            title=f"Change of {self.metric} from prevalence {self.before_prevalence:.4g} to "
            f"{self.after_prevalence:.4g}: the prevalence's part and the classifier's",
            table=table,
            notes=tuple(notes),
            digits=digits,
        )

    def _repr_html_(self) -> str:
        return self.summary().as_html()

    def plot(self, ax: Any = None, **kwargs: Any) -> Any:
        """A waterfall: the before value, the prevalence part, the classifier part and
        the after value, the parts with their interval whiskers
        (:func:`opsstats.plotting.plot_decomposition`); returns the Axes."""
        return upcall("plot_decomposition")(self, ax=ax, **kwargs)


def read_test_sets(
    before: Any, after: Any, metric: Any, at: Any, rule: Any, threshold: Any, pos_label: Any
) -> tuple[str, Any, Any]:
    """The kind of the metric (``"confusion"`` or ``"curve"``) and the two test sets as
    objects of that kind: a curve quantity for an area, an operating point (``at``) or a
    ``rule``; a confusion-matrix metric otherwise, its pairs' second arrays predicted
    labels, or scores with ``threshold``."""
    if metric is None:  # required here: compare_test_sets would take its default metric
        raise TypeError(
            "`metric` must be a metric name (str) or a curve quantity such as 'roc_auc'; got None."
        )
    if threshold is not None:
        threshold = check_real("threshold", threshold)
    try:
        is_metric = is_confusion_metric(metric)
    except TypeError:
        is_metric = False
    if rule is not None and is_metric and at is None:
        raise ValueError(
            f"`rule` applies to a curve area; {describe(metric)} is a confusion-matrix "
            f"metric (give `at` for its value at an operating point). Got rule={rule!r}."
        )
    curve = at is not None or rule is not None or not is_metric
    kind = "curve" if curve else "confusion"
    if curve and threshold is not None:
        raise ValueError(
            "`threshold` turns scores into labels for a confusion-matrix metric; "
            f"{describe(metric)} is a curve quantity, computed from the scores."
        )
    b0, b1 = _objects(before, after, kind, threshold, pos_label)
    return kind, b0, b1


def _objects(before: Any, after: Any, kind: str, threshold: Any, pos_label: Any) -> tuple[Any, Any]:
    """The two test sets as confusion matrices (``kind="confusion"``) or curves, each
    with both classes."""
    out = []
    want = ScoreCurve if kind == "curve" else ConfusionMatrix
    for name, value in (("before", before), ("after", after)):
        if isinstance(value, ConfusionMatrix | ScoreCurve):
            if pos_label is not None:
                raise ValueError(
                    "`pos_label` names the positive class of (y_true, y) pairs; "
                    f"`{name}` is {describe(value)}, whose classes are set. "
                    f"Got pos_label={pos_label!r}."
                )
            if not isinstance(value, want):
                raise TypeError(
                    f"`{name}` must be a {want.__name__} (or a pair (y_true, y)) for this "
                    f"metric; got {describe(value)}."
                )
            obj = value
        elif isinstance(value, tuple | list) and len(value) == 2:
            try:
                if kind == "curve":
                    obj = ScoreCurve.from_scores(value[0], value[1], pos_label=pos_label)
                elif threshold is not None:
                    curve = ScoreCurve.from_scores(value[0], value[1], pos_label=pos_label)
                    obj = curve.confusion_matrix(threshold=threshold)
                else:
                    obj = ConfusionMatrix.from_predictions(value[0], value[1], pos_label=pos_label)
            except (ValueError, TypeError) as exc:
                raise type(exc)(f"`{name}`: {exc}") from None
        else:
            raise TypeError(
                f"`{name}` must be a ConfusionMatrix, a ScoreCurve or a pair (y_true, y_pred "
                f"or y_score); got {describe(value)}."
            )
        if isinstance(obj, ScoreCurve):
            view = obj._sampling_view()
            pos, neg = view.n_positive, view.n_negative
        else:
            source = obj._sampling_view()[0]
            pos, neg = source.positives, source.negatives
        if not (pos > 0 and neg > 0):
            raise ValueError(
                f"`{name}` must have both classes (alpha and beta, or the ROC curve, are "
                f"undefined otherwise); got {obj!r}."
            )
        out.append(obj)
    return out[0], out[1]


def decompose(
    before: Any,
    after: Any,
    *,
    metric: Any,
    ops: bool = False,
    at: dict[str, float] | None = None,
    reference: Any = None,
    ci: str | None = "dirichlet",
    confidence_level: float = 0.95,
    n_resamples: int = 2000,
    rng: Any = None,
    threshold: float | None = None,
    pos_label: Any = None,
    **params: Any,
) -> Decomposition:
    """Split the change of a metric (or of its OPS) between two test sets into the part
    due to the prevalence and the part due to the classifier.

    With f(pi, theta) the metric of classifier theta (its alpha and beta, or its ROC
    curve) at prevalence pi, ``theta.at_prevalence(pi)`` and its metric, the change
    f(pi1, theta1) - f(pi0, theta0) is the sum of

    - the prevalence part [f(pi1, theta0) - f(pi0, theta0) + f(pi1, theta1) -
      f(pi0, theta1)] / 2, the effect of the prevalence at each classifier, averaged;
    - the classifier part [f(pi0, theta1) - f(pi0, theta0) + f(pi1, theta1) -
      f(pi1, theta0)] / 2, the effect of the classifier at each prevalence, averaged
      (docs/method.md#decomposition).

    Parameters
    ----------
    before, after : ConfusionMatrix, ScoreCurve or (y_true, y)
        The two test sets. A pair holds predicted labels for a confusion-matrix metric,
        scores for a curve quantity; scores with ``threshold`` give the labels
        (positive where ``score >= threshold``). A standardized object
        (``at_prevalence``) keeps its stated prevalence fixed in the draws.
    metric : str
        A registered metric (``"f1"``, ``"mcc"``, ...) or, for curves, what
        :meth:`ScoreCurve.ops` takes (``"pr_auc"``, ``"roc_auc"``, or a metric with
        ``at``).
    ops : bool, default False
        Decompose the change of the metric's OPS (each corner's OPS at its prevalence)
        instead of the metric's.
    at : dict, optional
        The operating point of a metric read off a curve, e.g. ``{"recall": 0.5}``.
    reference : optional
        The reference of the OPS (``ops=True``; default ``Uniform()`` for a matrix, the
        DBT for a curve). With intervals, the OPS of a curve quantity that depends on the
        prevalence (PR or lift AUC, precision at a recall, ...) is ranked at every drawn
        prevalence, which the default DBT reads from its shipped table (a few ms each,
        seconds for the default 2,000 draws); other curve references are refused there,
        as each drawn prevalence would cost a pass over their curves
        (docs/method.md#decomposition).
    ci : {"dirichlet", "bootstrap", None}, default "dirichlet"
        How each test set is drawn, independently of the other, its prevalence too:
        ``"dirichlet"``, its posterior (alpha, beta and pi independent Beta posteriors
        with the Jeffreys prior for a matrix; the Bayesian bootstrap of each class's
        scores with pi ~ Beta(P + 1, N + 1) for a curve); ``"bootstrap"``, its rows
        resampled (the multinomial bootstrap of a matrix's four cells; for a curve, each
        class's rows resampled and the prevalence Binomial(n, P / n) / n). The four
        corners are computed on every draw and the intervals of the three parts are the
        percentile intervals of their draws. None: no intervals.
    confidence_level : float, default 0.95
    n_resamples : int, default 2000
    rng : None, int or numpy.random.Generator
    threshold : float, optional
        Turns the scores of a pair into predicted labels.
    pos_label : label, optional
        The positive class of the pairs' labels.
    **params
        Metric parameters (``beta=2`` for ``"fbeta"``) and, for a curve area, ``rule=``.

    Returns
    -------
    Decomposition
        ``total``, ``prevalence_part``, ``classifier_part`` and their intervals,
        ``corners``, ``method``; ``summary()``, ``to_frame()``, ``plot()``.

    Raises
    ------
    TypeError
        If a test set is not a matrix, a curve or a pair, or does not fit the metric.
    ValueError
        If a test set has a class absent, or the OPS of a prevalence-dependent curve
        quantity is asked with intervals where the default DBT's shipped table does not
        hold it (another reference, a quantity or a drawn prevalence it does not hold).

    Examples
    --------
    The issue's classifier (alpha 0.067, beta 0.5) at prevalences 0.05 and 0.3: the F1
    rises by 0.24, all of it the prevalence's doing; the classifier part is exactly 0,
    and its interval says how far it could be from 0 with 2,000 rows per set.

    >>> from opsstats import ConfusionMatrix, decompose
    >>> before = ConfusionMatrix.from_rates(n=2000, prevalence=0.05, alpha=0.0668, beta=0.5)
    >>> after = ConfusionMatrix.from_rates(n=2000, prevalence=0.3, alpha=0.0668, beta=0.5)
    >>> d = decompose(before, after, metric="f1", rng=0)
    >>> round(d.total, 3), round(d.prevalence_part, 3), d.classifier_part
    (0.243, 0.243, 0.0)
    >>> print(d)
    F1 score: 0.3611 at prevalence 0.05 -> 0.6039 at 0.3; change +0.2428 [+0.1619, +0.3219] = prevalence
        +0.2428 [+0.2040, +0.2819] + classifier +0.0000 [-0.0782, +0.0800]
    """
    if not isinstance(ops, bool):
        raise TypeError(f"`ops` must be True or False; got {describe(ops)}.")
    if ci is not None:
        ci = check_choice("ci", ci, CI_METHODS)
    level = check_confidence_level(confidence_level)
    n = check_resamples(n_resamples)
    rule = params.pop("rule", None)
    kind, b0, b1 = read_test_sets(before, after, metric, at, rule, threshold, pos_label)
    if kind == "curve":
        ref = _check_reference(reference, "curve", "a curve quantity") if ops else None
        quantity: Any = resolve_quantity(metric, at, rule, dict(params))
    else:
        ref = _check_reference(reference, "point", "a confusion-matrix metric") if ops else None
        quantity = resolve_metric(metric, **params)
    if reference is not None and not ops:
        raise ValueError("`reference` ranks an OPS; give `ops=True` with it.")
    label = f"OPS of {quantity.label}" if ops else quantity.label
    pis = (float(b0.prevalence), float(b1.prevalence))
    table = None  # the shipped table the drawn prevalences' OPS are read from
    if ci is not None and kind == "curve" and ref is not None and depends_on_prevalence(quantity):
        table = _shipped_table(ref, quantity, pis)
    if ref is not None and hasattr(ref, "precompute"):  # one pass for both prevalences
        ref.precompute([quantity], list(pis))

    def corner(obj: Any, pi: float) -> float:
        std = obj.at_prevalence(pi)
        if ref is not None:
            return float(std.ops(quantity, reference=ref).estimate)
        if kind == "curve":
            return _estimate(std, quantity)
        return float(std.metric(quantity))

    with np.errstate(divide="ignore", invalid="ignore"):
        corners = tuple(tuple(corner(obj, pi) for pi in pis) for obj in (b0, b1))
    total, prev, clf = split(corners[0][0], corners[0][1], corners[1][0], corners[1][1])
    how = (
        f"each corner f(pi, theta) is {type(b0).__name__}.at_prevalence(pi) of the "
        f"classifier, then its {'OPS against ' + ref.description if ref else 'value'}"
    )
    cis: list[ConfidenceInterval | None] = [None, None, None]
    undefined = 0
    if ci is not None:
        generator = check_rng(rng)
        if kind == "curve":
            draws, drawn, drawn_pis = _curve_draws((b0, b1), quantity, ci, n, generator)
            if table is not None:  # each draw's OPS at its drawn prevalence
                draws = _curve_ops_drawn(ref, table, quantity, draws, drawn_pis)
                drawn += "; each draw's OPS at its drawn prevalence, from the shipped table"
            elif ref is not None:  # a ROC quantity: its OPS is the same at every prevalence
                draws = [_to_ops(ref, quantity, v, pis[0]) for v in draws]
        else:
            draws, drawn = _confusion_draws((b0, b1), quantity, ref, ci, n, generator)
        parts = split(*draws)
        ok = np.all(np.isfinite(np.vstack(draws)), axis=0)
        undefined = int(n - ok.sum())
        for i, values in enumerate(parts):
            if ok.any():
                cis[i] = ConfidenceInterval(*equal_tailed(np.sort(values[ok]), level))
            else:
                cis[i] = ConfidenceInterval(float("nan"), float("nan"))
        how += (
            f"; intervals: the two test sets drawn independently ({drawn}), the four "
            f"corners computed on each draw, percentile"
        )
    return Decomposition(
        metric=label,
        total=float(total),
        prevalence_part=float(prev),
        classifier_part=float(clf),
        total_ci=cis[0],
        prevalence_part_ci=cis[1],
        classifier_part_ci=cis[2],
        before_prevalence=pis[0],
        after_prevalence=pis[1],
        corners=corners,  # type: ignore[arg-type]  # two pairs of floats
        method=how,
        confidence_level=level if ci is not None else None,
        n_resamples=n if ci is not None else None,
        n_undefined=undefined,
        details={"before": b0, "after": b1, "quantity": quantity, "reference": ref},
    )


def _shipped_table(ref: Any, quantity: Any, pis: tuple[float, float]) -> Any:
    """The shipped table of the default DBT (docs/method.md#dbt-table) when it holds
    ``quantity`` at the test sets' prevalences: the reference's values at any drawn
    prevalence are then rebuilt from it in a few milliseconds, where another reference
    would need a pass over its curves (about 0.6 s for the default's 100,000) per drawn
    prevalence, thousands of them. Otherwise a ValueError saying so."""
    finder = getattr(ref, "_table", None)
    table = finder() if finder is not None else None
    if table is not None and all(table.covers(quantity, pi) for pi in pis):
        return table
    why = (
        f"{ref!r} reads no shipped table"
        if table is None
        else "the shipped table of the default DirectedBinaryTree() does not hold it at "
        "these prevalences"
    )
    raise ValueError(
        f"intervals of the decomposition of the OPS of {quantity.label}, which depends on "
        "the prevalence, need the curve reference at every drawn prevalence, and "
        f"{why} (a pass over its curves per drawn prevalence; docs/method.md#decomposition): "
        "give `ci=None`, use the default reference (whose table holds the PR and lift "
        "AUC, and metrics at some recalls), or decompose the quantity itself (`ops=False`)."
    )


def _curve_ops_drawn(
    ref: Any, table: Any, quantity: Any, draws: list[np.ndarray], prevalences: list[np.ndarray]
) -> list[np.ndarray]:
    """The OPS of the four corners' draws (in :func:`split`'s order), each at its drawn
    prevalence: corners 0 and 2 at the before set's, 1 and 3 at the after set's, one
    distinct prevalence at a time, read from the shipped table (:func:`_shipped_table`);
    NaN where a draw is undefined."""
    out = [np.full(d.shape, np.nan) for d in draws]
    for side in (0, 1):
        where = prevalences[side]
        values = np.vstack([draws[side], draws[side + 2]])
        ok = np.isfinite(values) & np.isfinite(where)
        for pi in np.unique(where[ok.any(axis=0)]):
            take = ok & (where == pi)
            if not table.covers(quantity, float(pi)):
                raise ValueError(
                    f"intervals of the decomposition of the OPS of {quantity.label}: a drawn "
                    f"prevalence, {pi:.4g}, lies outside the prevalences of the shipped table "
                    "of the default reference (docs/method.md#dbt-table), where each would "
                    "need a pass over its curves: give `ci=None`, or decompose the quantity "
                    "itself (`ops=False`)."
                )
            both = np.concatenate([values[0][take[0]], values[1][take[1]]])
            ranked = np.atleast_1d(ref.ops(quantity, both, prevalence=float(pi)).estimate)
            first = int(take[0].sum())
            out[side][take[0]] = ranked[:first]
            out[side + 2][take[1]] = ranked[first:]
    return out


def _to_ops(ref: Any, quantity: Any, values: np.ndarray, prevalence: Any) -> np.ndarray:
    """The OPS of each finite value at its prevalence (one, or one per value)."""
    out = np.full(values.shape, np.nan)
    ok = np.isfinite(values)
    if np.ndim(prevalence):
        ok &= np.isfinite(prevalence)
        prevalence = np.asarray(prevalence)[ok]
    if ok.any():
        out[ok] = ref.ops(quantity, values[ok], prevalence=prevalence).estimate
    return out


def _confusion_draws(
    cms: tuple[Any, Any], quantity: Any, ref: Any, ci: str, n: int, rng: np.random.Generator
) -> tuple[list[np.ndarray], str]:
    """The four corners on n independent draws of the two matrices, in the order of
    :func:`split` (each classifier at both prevalences), and what was drawn."""
    draws = []
    for cm in cms:
        fixed = cm.origin is not None  # a stated prevalence is not drawn
        draws.append(
            _Draws(
                cm,
                ci,
                n,
                rng,
                prior="jeffreys",
                prevalence="fixed" if fixed or ci == "bootstrap" else "random",
                stratified=fixed or ci == "dirichlet",
                show_progress=False,
            )
        )
    out = []
    with np.errstate(divide="ignore", invalid="ignore"):
        for theta in draws:
            for where in draws:
                values = np.asarray(quantity(where.pi, theta.a, theta.b), dtype=float)
                values[~((where.pi > 0) & (where.pi < 1))] = np.nan
                out.append(values if ref is None else _to_ops(ref, quantity, values, where.pi))
    drawn = "; ".join(
        f"{side}: {d.description}" for side, d in zip(("before", "after"), draws, strict=True)
    )
    return out, drawn


def _curve_draws(
    curves: tuple[Any, Any], quantity: Any, ci: str, n: int, rng: np.random.Generator
) -> tuple[list[np.ndarray], str, list[np.ndarray]]:
    """The four corners on n independent draws of the two curves, in the order of
    :func:`split`, what was drawn, and the two sets' drawn prevalences: each curve's
    prevalence drawn first, then its classes' scores, each draw of the scores evaluated
    at both sets' drawn prevalences."""
    a = PRIORS["jeffreys"]
    prevalences, texts = [], []
    for curve in curves:
        view = sampling_view(curve)
        _check_whole_counts(view, "The decomposition's draws of a curve")
        P, N = round(view.n_positive), round(view.n_negative)
        if curve.origin is not None:
            prevalences.append(np.full(n, float(curve.prevalence)))
            texts.append("prevalence fixed (standardized)")
        elif ci == "dirichlet":
            prevalences.append(rng.beta(P + 2 * a, N + 2 * a, n))
            texts.append(f"prevalence ~ Beta(P + {2 * a:g}, N + {2 * a:g})")
        else:
            prevalences.append(rng.binomial(P + N, P / (P + N), n) / (P + N))
            texts.append("prevalence ~ Binomial(n, P/n) / n")
    out = []
    for curve in curves:
        view = sampling_view(curve)
        if ci == "dirichlet":
            values = _dirichlet_values(view, [quantity] * 2, n, a, rng, False, prevalences)
        else:
            values = _bootstrap_values(view, [quantity] * 2, n, rng, True, False, prevalences)
        out.extend([values[0], values[1]])
    engine = (
        f"the Dirichlet posterior of each class's scores (Jeffreys pseudo-rows), {n} draws"
        if ci == "dirichlet"
        else f"each class's rows resampled (stratified bootstrap), {n} resamples"
    )
    drawn = f"{engine}; before: {texts[0]}; after: {texts[1]}"
    return out, drawn, prevalences

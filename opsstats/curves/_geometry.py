"""Curve geometry in the (prevalence, alpha, beta) parametrization.

One implementation serves the observed curve of a classifier (one row) and the
reference curves of a distribution such as the Directed Binary Tree (G rows): every
function takes ``alpha`` and ``beta`` of shape ``(J,)`` or ``(G, J)`` whose points are
ordered by decreasing threshold (alpha non-decreasing, beta non-increasing), the
endpoints (0, 1) and (1, 0) included.

Curves (x, y), as in docs/method.md#auc-rules (values at a fixed x:
docs/method.md#operating-points):

========  =====================================  ============================  ===========
curve     x                                      y                             ideal AUC
========  =====================================  ============================  ===========
roc       alpha                                  1 - beta                      1
pr        recall 1 - beta                        precision                     1
lift      rate q = pi (1 - beta) + (1 - pi) a    (1 - beta) / q                1 + ln(1/pi)
gain      q                                      1 - beta                      1 - pi / 2
========  =====================================  ============================  ===========
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import check_choice, check_probability, describe
from ..metrics import BoundMetric, resolve_metric
from ._partial import PARTIAL_NAME, PartialArea, parse_partial

__all__ = [
    "CURVES",
    "RULES",
    "DEFAULT_RULE",
    "X_AXES",
    "CurveArea",
    "OperatingPoint",
    "curve_xy",
    "x_coordinate",
    "axis_value",
    "area",
    "ideal_auc",
    "curve_area",
    "curve_areas",
    "value_at",
    "values_at",
    "parse_area",
    "parse_at",
    "resolve_quantity",
    "Gini",
    "EqualErrorRate",
    "SUMMARIES",
    "CurveQuantity",
]

CURVES = ("roc", "pr", "lift", "gain")
RULES = ("trapezoid", "step")
DEFAULT_RULE = {"roc": "trapezoid", "pr": "step", "lift": "step", "gain": "trapezoid"}
#: x axes an operating point can be fixed on; each increases along a curve.
X_AXES = {
    "recall": "recall",
    "tpr": "recall",
    "sensitivity": "recall",
    "fpr": "fpr",
    "alpha": "fpr",
    "rate": "rate",
    "q": "rate",
    "specificity": "specificity",
    "tnr": "specificity",
}


def x_coordinate(axis: str, prevalence: float, alpha: Any, beta: Any) -> np.ndarray:
    """The x coordinate ``recall``, ``fpr`` or ``rate`` of curve points; for
    ``specificity`` its negative -(1 - alpha), which increases along the curve (compare
    it with :func:`axis_value`): a specificity is matched in its own units, as pROC's
    ``coords(input="specificity")`` does, where 1 - 0.9 would miss the point 0.9."""
    if axis == "recall":
        return 1.0 - beta
    if axis == "fpr":
        return np.asarray(alpha, dtype=float)
    if axis == "specificity":
        return -(1.0 - np.asarray(alpha, dtype=float))
    return prevalence * (1.0 - beta) + (1.0 - prevalence) * alpha


def curve_xy(
    curve: str, prevalence: float, alpha: Any, beta: Any, *, first_limit: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) of the points of a ROC, PR, lift or gain curve.

    Precision and lift are 0/0 at the first point, (alpha, beta) = (0, 1), where
    nothing is predicted positive: y is NaN there. With ``first_limit=True`` (used for
    areas) it is instead its limit along the curve's first segment, the y of the second
    point: that segment is a ray from the ROC origin, along which TPR / FPR, hence
    precision and lift, are constant (the limit of eq. 9's interpolation as x -> 0).
    The step rule never uses this value; the trapezoid rule does.
    """
    alpha = np.asarray(alpha, dtype=float)
    tpr = 1.0 - np.asarray(beta, dtype=float)
    if curve not in CURVES:
        raise ValueError(
            f"`curve` must be one of {', '.join(map(repr, CURVES))}; got {describe(curve)}."
        )
    return _xy(curve, prevalence, alpha, tpr, first_limit)


def _xy(
    curve: str, prevalence: float, alpha: np.ndarray, tpr: np.ndarray, first_limit: bool
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`curve_xy` from alpha and the TPR (which several prevalences share)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if curve == "roc":
            return alpha, tpr
        q = prevalence * tpr + (1.0 - prevalence) * alpha
        if curve == "gain":
            return q, tpr
        y = prevalence * tpr / q if curve == "pr" else tpr / q
        if first_limit and y.shape[-1] > 1:
            first = q[..., 0] == 0
            y[..., 0] = np.where(first, y[..., 1], y[..., 0])
        return (tpr, y) if curve == "pr" else (q, y)


def area(x: np.ndarray, y: np.ndarray, rule: str) -> np.ndarray:
    """Area under (x, y) along the last axis, points ordered by non-decreasing x.

    ``"trapezoid"``: sum (x_k - x_{k-1}) (y_k + y_{k-1}) / 2.
    ``"step"``: the right-endpoint sum, sum y_k (x_k - x_{k-1}); it never uses y at the
    first point, where PR and lift are 0/0 (for PR it is average precision).
    Segments of zero width contribute nothing, whatever y is there.
    """
    return _area(np.diff(x, axis=-1), y, rule)


def _area(dx: np.ndarray, y: np.ndarray, rule: str, wide: np.ndarray | None = None) -> np.ndarray:
    """:func:`area` from the widths ``dx`` of the segments (``wide = dx > 0``, and dx 0
    where it is not), which the PR curves of one set of points share at every
    prevalence. y is 0 on the segments of zero width (it may be 0/0 there); the products
    and their (pairwise) sum are those of ``where(dx > 0, h * dx, 0).sum()``."""
    if wide is None:
        wide = dx > 0
        dx = np.where(wide, dx, 0.0)
    with np.errstate(invalid="ignore"):
        if rule == "step":
            h = y[..., 1:]
        elif rule == "trapezoid":
            h = 0.5 * (y[..., 1:] + y[..., :-1])
        else:
            raise ValueError(
                f"`rule` must be one of {', '.join(map(repr, RULES))}; got {describe(rule)}."
            )
        h = np.where(wide, h, 0.0)
        h *= dx
        return h.sum(axis=-1)


def ideal_auc(curve: str, prevalence: float) -> float:
    """The AUC of the ideal classifier (Zhao et al., Table 3).

    Examples
    --------
    >>> round(ideal_auc("lift", 0.1), 4)   # 1 + ln(1 / 0.1)
    3.3026
    >>> ideal_auc("gain", 0.2)
    0.9
    """
    curve = check_choice("curve", curve, CURVES)
    prevalence = check_probability("prevalence", prevalence)
    if curve in ("roc", "pr"):
        return 1.0
    if curve == "lift":
        return 1.0 + float(np.log(1.0 / prevalence))
    return 1.0 - prevalence / 2.0  # gain


@dataclass(frozen=True, slots=True)
class CurveArea:
    """An area summary of a curve: ``roc_auc``, ``pr_auc``, ... or their NAUC forms.

    Examples
    --------
    >>> import numpy as np
    >>> spec = CurveArea("roc", "trapezoid")
    >>> spec.name, spec.label
    ('roc_auc', 'AUC(ROC, trapezoid)')
    >>> round(float(spec(0.3, np.array([0.0, 0.2, 1.0]), np.array([1.0, 0.4, 0.0]))), 4)
    0.7
    """

    curve: str
    rule: str
    normalized: bool = False

    @property
    def name(self) -> str:
        return f"{'n' if self.normalized else ''}{self.curve}_auc"

    @property
    def label(self) -> str:
        kind = "NAUC" if self.normalized else "AUC"
        return f"{kind}({self.curve.upper() if self.curve != 'lift' else 'lift'}, {self.rule})"

    @property
    def key(self) -> str:
        return f"{self.name}[{self.rule}]"

    @property
    def cache_key(self) -> str:
        """The key of cached reference values (an area involves no registered metric)."""
        return self.key

    direction = "higher"
    higher_is_better = True

    def __call__(self, prevalence: float, alpha: Any, beta: Any) -> np.ndarray:
        return curve_area(self, prevalence, alpha, beta)


@dataclass(frozen=True, slots=True)
class OperatingPoint:
    """A y-metric read off a curve at a fixed x (Zhao et al., eq. 9), e.g. precision
    at recall 0.9: ``OperatingPoint(resolve_metric("precision"), "recall", 0.9)``.

    Examples
    --------
    >>> import numpy as np
    >>> from opsstats.metrics import resolve_metric
    >>> point = OperatingPoint(resolve_metric("precision"), "recall", 0.5)
    >>> point.label
    'Precision (PPV) at recall = 0.5'
    >>> round(float(point(0.1, np.array([0.0, 0.2, 1.0]), np.array([1.0, 0.4, 0.0]))), 4)
    0.25
    """

    metric: BoundMetric
    axis: str
    x: float

    @property
    def name(self) -> str:
        return self.metric.name

    @property
    def label(self) -> str:
        return f"{self.metric.label} at {self.axis} = {self.x:g}"

    @property
    def key(self) -> str:
        return f"{self.metric.key}@{self.axis}={self.x!r}"

    @property
    def cache_key(self) -> tuple[str, Any]:
        """The key of cached reference values: the text key and the metric object, so
        that a metric registered again under the same name is not served old values."""
        return (self.key, self.metric.metric)

    @property
    def direction(self) -> str:
        return self.metric.direction

    @property
    def higher_is_better(self) -> bool:
        return self.metric.higher_is_better

    def __call__(self, prevalence: float, alpha: Any, beta: Any) -> np.ndarray:
        return value_at(self, prevalence, alpha, beta)


def curve_area(spec: CurveArea, prevalence: float, alpha: Any, beta: Any) -> np.ndarray:
    """AUC (or NAUC) of each curve (row)."""
    return curve_areas(spec, [prevalence], alpha, beta)[0]


def curve_areas(spec: CurveArea, prevalences: Any, alpha: Any, beta: Any) -> list[np.ndarray]:
    """AUC (or NAUC) of each curve (row) at each of several prevalences.

    The ROC and PR curves' x (FPR, recall) does not depend on the prevalence, so their
    segment widths are computed once for all prevalences: the reference's prevalence
    grid evaluates every curve's PR area at tens of prevalences in one pass
    (docs/method.md#prevalence-grid).

    Examples
    --------
    >>> import numpy as np
    >>> a, b = np.array([0.0, 0.2, 1.0]), np.array([1.0, 0.4, 0.0])
    >>> # precision 0.06 / 0.24 and 0.1 at pi = 0.1: 0.6 * 0.25 + 0.4 * 0.1
    >>> [round(float(v), 4) for v in curve_areas(CurveArea("pr", "step"), [0.1, 0.5], a, b)]
    [0.19, 0.65]
    """
    alpha = np.asarray(alpha, dtype=float)
    tpr = 1.0 - np.asarray(beta, dtype=float)
    out = []
    shared = None
    if spec.curve in ("roc", "pr"):
        dx = np.diff(alpha if spec.curve == "roc" else tpr, axis=-1)
        wide = dx > 0
        shared = (np.where(wide, dx, 0.0), wide)
    for prevalence in prevalences:
        x, y = _xy(spec.curve, prevalence, alpha, tpr, first_limit=True)
        dx, wide = shared if shared is not None else (np.diff(x, axis=-1), None)
        value = _area(dx, y, spec.rule, wide)
        out.append(value / ideal_auc(spec.curve, prevalence) if spec.normalized else value)
    return out


def axis_value(point: OperatingPoint) -> float:
    """The x of an operating point in the units of :func:`x_coordinate`."""
    return -point.x if point.axis == "specificity" else point.x


def value_at(point: OperatingPoint, prevalence: float, alpha: Any, beta: Any) -> np.ndarray:
    """The y-metric of each curve (row) at x = u (Zhao et al., eq. 9).

    The neighbours x_l <= u <= x_r are found on each curve; alpha and beta are
    interpolated linearly in x between them and the metric is computed from the
    interpolated (alpha, beta). When several points have x exactly equal to u, the
    upper-left-most of them is used, with no interpolation, as pROC's ``coords`` does:
    on the recall and rate axes the first (highest threshold: the fewest false
    positives), on the FPR and specificity axes the last (the most true positives), so that the
    sensitivity at specificity 0 is 1 (docs/method.md#vocabulary). At the start of the
    recall or rate axis (u = 0) the first point, where nothing is predicted positive,
    makes precision and lift 0/0; where it does, the next point is used: another point at
    recall 0 (precision 0), or the end of the curve's first segment, a ray from the
    origin along which every ratio of the predicted positives' counts is constant (its
    limit as u -> 0).
    """
    alpha = np.asarray(alpha, dtype=float)
    beta = np.asarray(beta, dtype=float)
    squeeze = alpha.ndim == 1
    a2 = np.atleast_2d(alpha)
    b2 = np.atleast_2d(beta)
    x = x_coordinate(point.axis, prevalence, a2, b2)
    u = np.array([axis_value(point)])
    below = (x < u[0]).sum(axis=1)[:, None]
    at_most = (x <= u[0]).sum(axis=1)[:, None] if point.axis in ("fpr", "specificity") else None
    out = _interpolated(point.metric, point.axis, prevalence, a2, b2, x, u, below, at_most)[:, 0]
    return out[0] if squeeze else out


def values_at(
    metric: BoundMetric, axis: str, xs: Any, prevalence: float, alpha: Any, beta: Any
) -> np.ndarray:
    """:func:`value_at` of one metric on one axis at several x values at once: shape
    ``(len(xs), rows)``, each row equal, bit for bit, to :func:`value_at` at that x.

    Each curve point is compared with the x values once (a ``searchsorted`` among them)
    instead of once per x, which makes the pointwise band of a reference (tens of x
    values) about as cheap as one curve area.

    Examples
    --------
    >>> import numpy as np
    >>> from opsstats.metrics import resolve_metric
    >>> a, b = np.array([[0.0, 0.2, 1.0]]), np.array([[1.0, 0.4, 0.0]])
    >>> values_at(resolve_metric("precision"), "recall", [0.3, 0.6], 0.1, a, b).round(4)
    array([[0.25],
           [0.25]])
    """
    # row-major: each curve's neighbours of the x values are gathered from one place
    a2 = np.ascontiguousarray(np.atleast_2d(np.asarray(alpha, dtype=float)))
    b2 = np.ascontiguousarray(np.atleast_2d(np.asarray(beta, dtype=float)))
    point_x = np.array([-float(u) if axis == "specificity" else float(u) for u in xs])
    x = x_coordinate(axis, prevalence, a2, b2)
    below = _count_below(x, point_x, strict=True)
    at_most = _count_below(x, point_x, strict=False) if axis in ("fpr", "specificity") else None
    return _interpolated(metric, axis, prevalence, a2, b2, x, point_x, below, at_most).T


def _count_below(x: np.ndarray, u: np.ndarray, *, strict: bool) -> np.ndarray:
    """The number of points of each row of ``x`` below each ``u``: ``(x < u).sum(axis=1)``
    for every u at once (``x <= u`` when not ``strict``), shape ``(rows, len(u))``.

    Each point is placed among the sorted u values (``searchsorted``: comparisons only,
    so the counts are exact, NaN counted below none), and a row's counts are the
    cumulative numbers of its points per place."""
    n_rows = x.shape[0]
    order = np.argsort(u, kind="stable")
    place = np.searchsorted(u[order], x, side="right" if strict else "left")
    # x < u_k (x <= u_k) exactly when place <= k, for the k-th smallest u
    counts = np.bincount(
        (place + (np.arange(n_rows) * (u.size + 1))[:, None]).ravel(),
        minlength=n_rows * (u.size + 1),
    ).reshape(n_rows, u.size + 1)
    below = np.cumsum(counts[:, : u.size], axis=1)
    out = np.empty_like(below)
    out[:, order] = below
    return out


def _interpolated(
    metric: BoundMetric,
    axis: str,
    prevalence: float,
    a2: np.ndarray,
    b2: np.ndarray,
    x: np.ndarray,
    u: np.ndarray,
    below: np.ndarray,
    at_most: np.ndarray | None,
) -> np.ndarray:
    """Eq. 9 at the x values ``u`` (shape (K,)) of each curve (row of ``x``, ``a2``,
    ``b2``), given the number of the row's points with x < u (``below``, shape (rows, K))
    and, on the FPR and specificity axes, with x <= u (``at_most``): shape (rows, K)."""
    rows = np.arange(x.shape[0])[:, None]
    r = np.minimum(below, x.shape[1] - 1)  # first index with x >= u
    left = np.maximum(r - 1, 0)
    xl, xr = x[rows, left], x[rows, r]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(xr > xl, (u - xl) / (xr - xl), 1.0)
    t = np.where(xr == u, 1.0, np.clip(t, 0.0, 1.0))
    if at_most is not None:  # ties: the last (the most true positives)
        r = np.where(xr == u, np.maximum(at_most - 1, 0), r)
    a_hat = a2[rows, left] + t * (a2[rows, r] - a2[rows, left])
    b_hat = b2[rows, left] + t * (b2[rows, r] - b2[rows, left])
    out = np.asarray(metric(prevalence, a_hat, b_hat), dtype=float)
    start = u == 0.0
    if start.any() and axis in ("recall", "rate") and x.shape[1] > 1:  # the start
        undefined = np.isnan(out) & start
        if undefined.any():
            nxt = np.asarray(metric(prevalence, a2[:, 1], b2[:, 1]), dtype=float)[:, None]
            out = np.where(undefined, nxt, out)
    return out


# ------------------------------------------------------------ ROC summaries
# The Gini coefficient and the equal error rate (the evaluation-metrics notes, section
# 2.6): curve quantities like CurveArea, so that references rank them with this code.
# Gini is increasing in the AUC, so its OPS is the AUC's; the equal error rate is
# lower-is-better.

_ROC = CurveArea("roc", "trapezoid")


@dataclass(frozen=True, slots=True)
class Gini:
    """The Gini coefficient 2 AUC - 1 of the trapezoid ROC curve.

    Examples
    --------
    >>> import numpy as np
    >>> float(Gini()(0.3, np.array([0.0, 0.0, 1.0]), np.array([1.0, 0.5, 0.0])))
    0.5
    """

    curve = "roc"
    rule = "trapezoid"
    direction = "higher"
    higher_is_better = True
    name = "gini"
    label = "Gini (2 AUC - 1)"
    key = "gini"
    cache_key = "gini"
    range = (-1.0, 1.0)

    def __call__(self, prevalence: float, alpha: Any, beta: Any) -> np.ndarray:
        return 2.0 * curve_area(_ROC, prevalence, alpha, beta) - 1.0


@dataclass(frozen=True, slots=True)
class EqualErrorRate:
    """The equal error rate: the FPR (= FNR) where the ROC curve, straight between its
    points, crosses TPR = 1 - FPR.

    Examples
    --------
    >>> import numpy as np
    >>> float(EqualErrorRate()(0.3, np.array([0.0, 0.0, 1.0]), np.array([1.0, 0.5, 0.0])))
    0.3333333333333333
    """

    curve = "roc"
    rule = "trapezoid"
    direction = "lower"
    higher_is_better = False
    name = "eer"
    label = "equal error rate"
    key = "eer"
    cache_key = "eer"
    range = (0.0, 1.0)

    def __call__(self, prevalence: float, alpha: Any, beta: Any) -> np.ndarray:
        a = np.atleast_2d(np.asarray(alpha, dtype=float))
        b = np.atleast_2d(np.asarray(beta, dtype=float))
        d = a - b  # FPR - FNR: from -1 at the start to 1 at the end, non-decreasing
        rows = np.arange(d.shape[0])
        k = np.argmax(d >= 0, axis=1)  # first point at or past the crossing
        prev = np.maximum(k - 1, 0)
        d0, d1 = d[rows, prev], d[rows, k]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(d1 > d0, -d0 / (d1 - d0), 1.0)
        t = np.where(d1 == 0, 1.0, t)
        out = a[rows, prev] + t * (a[rows, k] - a[rows, prev])
        return out[0] if np.ndim(alpha) == 1 else out


#: Every kind of curve quantity a reference, an interval or ``ops`` accepts.
CurveQuantity = CurveArea | OperatingPoint | PartialArea | Gini | EqualErrorRate

#: The ROC summaries by name, as ``ops`` and ``interval`` spell them.
SUMMARIES: dict[str, Any] = {"gini": Gini(), "eer": EqualErrorRate()}


def parse_area(name: str, rule: str | None = None) -> CurveArea:
    """``"pr_auc"`` / ``"npr_auc"`` (and ``"roc_auc"``, ``"lift_auc"``, ``"gain_auc"``;
    ``"auc"`` is ``"roc_auc"``, as in pROC) to a :class:`CurveArea`, with the curve's
    default rule unless ``rule`` is given."""
    if not isinstance(name, str):
        raise TypeError(f"`metric` must be a curve quantity name; got {describe(name)}.")
    key = name.strip().lower().replace("-", "_")
    if key == "auc":  # pROC's auc() and ci.auc(), scikit-learn's roc_auc: the ROC area
        key = "roc_auc"
    normalized = key.startswith("n") and key[1:].endswith("_auc") and key[1:-4] in CURVES
    curve = key[1:-4] if normalized else key[:-4] if key.endswith("_auc") else ""
    if curve not in CURVES:
        valid = [f"{p}{c}_auc" for p in ("", "n") for c in CURVES] + [PARTIAL_NAME, *SUMMARIES]
        raise ValueError(
            f"`metric` must be a curve quantity, {', '.join(valid)} (or a registered "
            "metric with `at={'recall': u}`, `{'fpr': u}` or `{'rate': u}`); got the "
            f"unknown curve quantity {describe(name)}."
        )
    rule = DEFAULT_RULE[curve] if rule is None else check_choice("rule", rule, RULES)
    return CurveArea(curve, rule, normalized)


def parse_at(metric: str | BoundMetric, at: Any, **params: Any) -> OperatingPoint:
    """``("precision", {"recall": 0.9})`` to an :class:`OperatingPoint`."""
    if not isinstance(at, dict) or len(at) != 1:
        raise TypeError(
            "`at` must be a one-entry dict such as {'recall': 0.9}, "
            f"{{'fpr': 0.1}}, {{'specificity': 0.9}} or {{'rate': 0.05}}; got {describe(at)}."
        )
    ((axis_name, u),) = at.items()
    axis = X_AXES.get(str(axis_name).lower())
    if axis is None:
        raise ValueError(
            f"the key of `at` must be one of {', '.join(map(repr, X_AXES))}; got "
            f"{describe(axis_name)}."
        )
    u = check_probability(f"at[{axis_name!r}]", u)
    return OperatingPoint(resolve_metric(metric, **params), axis, u)


#: The x axes of an operating point that do not depend on the prevalence.
_PREVALENCE_FREE_AXES = ("recall", "fpr", "specificity")


def ops_prevalence_invariant(
    metric: Any, at: Any = None, *, rule: str | None = None, **params: Any
) -> bool | None:
    """Whether the OPS of a curve quantity at a fixed curve is the same at every
    prevalence, under a curve reference whose curves do not depend on the prevalence
    (the DBT, binormal and empirical curve references): docs/method.md#prevalence-invariance.

    True for the ROC quantities (the ROC areas, the partial ROC area, Gini, the equal
    error rate): they do not depend on the prevalence at all. True for the gain area by
    the trapezoid rule (the default) and its NAUC form: the rate q = pi (1 - beta) +
    (1 - pi) alpha is linear in the curve's points, so the area is pi / 2 + (1 - pi)
    ROC AUC, increasing in the ROC AUC at every prevalence. True for a metric at an
    operating point on the recall, FPR or specificity axis when the registry says the
    metric is prevalence-invariant, or monotone in the error rates (every built-in
    metric): there the point on each curve does not move with the prevalence, and at
    fixed recall (FPR) the metric orders the curves by their FPR (recall) alone, the
    same way at every prevalence. False for the PR and lift areas, the gain area by the
    step rule (and their NAUC forms) and for any metric at a rate (the share predicted
    positive, which moves with the prevalence). None when the registry knows neither
    attribute of the metric.

    Parameters
    ----------
    metric, at, rule, **params
        The curve quantity, as :meth:`ScoreCurve.ops` takes it (or a resolved quantity).

    Returns
    -------
    bool or None

    Examples
    --------
    >>> ops_prevalence_invariant("roc_auc"), ops_prevalence_invariant("pr_auc")
    (True, False)
    >>> ops_prevalence_invariant("gain_auc"), ops_prevalence_invariant("gain_auc", rule="step")
    (True, False)
    >>> ops_prevalence_invariant("f1", {"recall": 0.5}), ops_prevalence_invariant("f1", {"rate": 0.1})
    (True, False)
    """
    quantity = resolve_quantity(metric, at, rule, dict(params))
    if isinstance(quantity, CurveArea) and quantity.curve == "gain":
        return quantity.rule == "trapezoid"
    if not isinstance(quantity, OperatingPoint):
        return quantity.curve == "roc"
    if quantity.axis not in _PREVALENCE_FREE_AXES:
        return False
    bound = quantity.metric
    if bound.prevalence_invariant or bound.monotone:
        return True
    return None


def resolve_quantity(name: Any, at: Any, rule: str | None, params: dict[str, Any]) -> CurveQuantity:
    """The curve quantity ``name`` stands for: an area (``"roc_auc"``, a
    :class:`CurveArea`, with an optional ``rule``), the partial ROC area
    (``"roc_pauc"`` with ``fpr_range`` or ``tpr_range`` and ``correct`` in ``params``),
    or with ``at`` a metric read off the curve at that operating point (eq. 9); an
    :class:`OperatingPoint` or ``PartialArea`` as it is."""
    if isinstance(name, str) and name.strip().lower() == PARTIAL_NAME and at is None:
        return parse_partial(params, rule)
    if isinstance(name, str) and name.strip().lower() in SUMMARIES and at is None:
        if params or rule not in (None, "trapezoid"):
            raise TypeError(
                f"{name!r} takes no metric parameters and the trapezoid rule only; got "
                f"rule={describe(rule)}, parameters {sorted(params)}."
            )
        return SUMMARIES[name.strip().lower()]
    if isinstance(name, OperatingPoint | PartialArea | Gini | EqualErrorRate):
        if at is not None or rule is not None or params:
            raise TypeError(
                f"a {type(name).__name__} is already fixed; do not pass an "
                "operating point (`at`, `top_k`), `rule` or metric parameters "
                "with it."
            )
        return name
    if at is None:
        if isinstance(name, CurveArea):
            return name if rule is None else CurveArea(name.curve, rule, name.normalized)
        if params:
            raise TypeError(f"curve areas take no metric parameters; got {sorted(params)}.")
        return parse_area(name, rule)
    if rule is not None:
        raise ValueError(
            "`rule` applies to curve areas, not to a value at an operating point `at`."
        )
    return parse_at(name, at, **params)

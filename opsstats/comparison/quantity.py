"""What a comparison compares and how: the quantity (a curve quantity or a
confusion-matrix metric, or its OPS), the method that compares it by default and the
checks of a method asked for by name, and the warnings below the class sizes at which the
studies found a method's test or interval off its level (docs/method.md#comparisons).
"""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import Any

import numpy as np

from .._validation import check_choice, check_threshold, describe
from ..curves._geometry import CurveArea, resolve_quantity
from ..curves._partial import PartialArea
from ..exceptions import SmallCountWarning
from ..metrics import resolve_metric
from ..ops import _check_reference
from ._inputs import caller_stacklevel

__all__ = ["METHODS"]

METHODS = (
    "auto",
    "delong",
    "delong-t",
    "jackknife-t",
    "bootstrap",
    "dirichlet",
    "mcnemar",
    "venkatraman",
)


#: A reference without ``ops=True``: what was received is the pair.
_REFERENCE_WITHOUT_OPS = "`reference` ranks an OPS; give `ops=True` with it (got `ops=False`)."


def is_confusion_metric(metric: Any, at: Any = None) -> bool:
    """A registered confusion-matrix metric, compared from predicted labels (else a
    curve quantity: an area, or a metric read ``at`` an operating point of the curve)."""
    if at is not None:
        return False
    if not isinstance(metric, str):
        return not isinstance(metric, CurveArea | PartialArea)
    try:
        resolve_metric(metric)
    except (ValueError, KeyError):
        return False
    return True


def default_metric(labelled: bool) -> str:
    """``"f1"`` when predicted labels are compared (given, or scores with a threshold),
    else ``"roc_auc"``."""
    return "f1" if labelled else "roc_auc"


def needs_labels(metric: Any, scores: str) -> ValueError:
    """The error for a confusion-matrix metric asked of scores without a threshold:
    what to give instead (``scores`` names where the predicted labels would go)."""
    return ValueError(
        f"metric {describe(metric)} needs predicted labels: give `threshold=` (scores >= "
        f"threshold are positive) or {scores}."
    )


def check_threshold_use(threshold: Any, labels_from_scores: bool, metric: Any) -> Any:
    """``threshold`` checked (:func:`opsstats._validation.check_threshold`, the one check
    of every threshold) where it makes predicted labels from scores, and refused where it
    would be ignored (a curve quantity is read from the scores themselves)."""
    if threshold is None:
        return None
    if not labels_from_scores:
        raise ValueError(
            "`threshold` makes predicted labels (scores >= threshold) for a confusion-matrix "
            f"metric; metric {describe(metric)} is a curve quantity, read from the scores "
            "themselves: drop `threshold`."
        )
    return check_threshold(threshold)


class _Spec:
    """What is compared: a curve quantity or a confusion-matrix metric, or its OPS
    (with ``threshold``: predicted labels made from scores, said in the label)."""

    def __init__(
        self,
        metric: Any,
        kind: str,
        ops: bool,
        reference: Any,
        at: Any,
        rule: Any,
        params: Any,
        threshold: Any = None,
    ) -> None:
        if not isinstance(ops, bool):
            raise TypeError(f"`ops` must be True or False; got {describe(ops)}.")
        self.kind, self.ops = kind, ops
        self.metric, self.threshold = metric, threshold
        if kind == "curve":
            self.ref = _check_reference(reference, "curve", "a curve quantity") if ops else None
            self.quantity: Any = resolve_quantity(metric, at, rule, dict(params))
        else:
            if at is not None or rule is not None:
                raise ValueError(
                    "`at` and `rule` apply to curve quantities (with `y_score`); "
                    "predictions (`y_pred`) give a confusion-matrix metric; got "
                    f"`at` {describe(at)} and `rule` {describe(rule)}."
                )
            self.ref = (
                _check_reference(reference, "point", "a confusion-matrix metric") if ops else None
            )
            if reference is not None and not ops:
                raise ValueError(_REFERENCE_WITHOUT_OPS)
            self.quantity = resolve_metric(metric, **params)
        if kind == "curve" and reference is not None and not ops:
            raise ValueError(_REFERENCE_WITHOUT_OPS)
        label = self.quantity.label
        if threshold is not None:
            label = f"{label} at threshold {threshold:g}"
        self.label = f"OPS of {label}" if ops else label

    @property
    def is_roc_auc(self) -> bool:
        q = self.quantity
        return (
            self.kind == "curve"
            and not self.ops
            and isinstance(q, CurveArea)
            and q.curve == "roc"
            and q.rule == "trapezoid"
            and not q.normalized
        )

    @property
    def is_area(self) -> bool:
        """A curve area (a smooth statistic, whose jackknife variance is consistent)."""
        return self.kind == "curve" and isinstance(self.quantity, CurveArea | PartialArea)

    def to_ops(self, values: np.ndarray, prevalence: float) -> np.ndarray:
        """OPS of the values at the prevalence (NaN kept)."""
        if self.ref is None:
            return values
        out = np.full(values.shape, np.nan)
        ok = np.isfinite(values)
        if ok.any():
            out[ok] = self.ref.ops(self.quantity, values[ok], prevalence=prevalence).estimate
        return out


def _method(method: Any, spec: _Spec, paired: bool) -> str:
    method = check_choice("method", method, METHODS)
    if method == "auto":
        if spec.is_roc_auc:
            return "delong-t"
        return "bootstrap" if spec.kind == "curve" else "dirichlet"
    if method in ("delong", "delong-t") and not spec.is_roc_auc:
        raise ValueError(
            f"`method={method!r}` compares ROC AUCs (trapezoid rule, not their OPS); got "
            f"{spec.label}. Use method='bootstrap' or 'dirichlet'."
        )
    if method == "jackknife-t" and not (paired and spec.is_area and not spec.ops):
        raise ValueError(
            "`method='jackknife-t'` compares two curve areas (not their OPS, not a value "
            f"at an operating point) on the same rows; got {spec.label}"
            + ("" if paired else " on independent test sets")
            + "."
        )
    if method == "venkatraman" and not spec.is_roc_auc:
        raise ValueError(
            "`method='venkatraman'` tests that two ROC curves are equal (the ROC AUC, "
            f"trapezoid rule, not its OPS); got {spec.label}."
        )
    if method == "mcnemar" and not (
        paired
        and spec.kind == "confusion"
        and not spec.ops
        and spec.quantity.name in ("accuracy", "error_rate")
    ):
        raise ValueError(
            "`method='mcnemar'` tests paired accuracies (or error rates) of predictions "
            f"on the same rows; got {spec.label}"
            + ("" if paired else " on independent test sets")
            + ". Use method='dirichlet' or 'bootstrap'."
        )
    return method


def _plans(
    flags: tuple[bool, ...],
    metric: Any,
    kind: str,
    references: tuple[Any, ...],
    at: Any,
    rule: Any,
    params: Any,
    method: Any,
    paired: bool,
    threshold: Any = None,
) -> list[tuple[_Spec, str] | Exception]:
    """What is compared and by which method for each entry of ``flags`` (``ops`` False:
    the quantity, True: its OPS, ranked in that flag's reference; ``threshold``: a
    checked threshold that made the predicted labels from scores). A refused one gets
    its ``ValueError`` or ``TypeError`` in its place; with a single flag it is raised."""
    plans: list[tuple[_Spec, str] | Exception] = []
    for flag, reference in zip(flags, references, strict=True):
        try:
            spec = _Spec(metric, kind, flag, reference, at, rule, params, threshold)
            plans.append((spec, _method(method, spec, paired=paired)))
        except (ValueError, TypeError) as exc:
            plans.append(_flag_error(exc, flags))
    return plans


def _flag_error(exc: Exception, flags: tuple[bool, ...]) -> Exception:
    """The error of a flag: raised when it is the call's only flag (as the public
    function raises it), else returned to stand in that flag's place."""
    if len(flags) == 1:
        raise exc
    return exc


#: Below these many rows in the smaller class the size study
#: (benchmarks/results/compare_size.md) found the test rejecting a true null more often
#: than its level: DeLong's test, and the paired draws (bootstrap, Dirichlet) of a curve.
SMALL_DELONG = 10
SMALL_PAIRED_DRAWS = 100
#: Below this many rows in the smaller class the default paired comparison of a curve
#: area is the jackknife-t, not the bootstrap, whose percentile interval covers 73.7% with 2
#: positives, 86.5% expanded to t (benchmarks/results/bootstrap_expansion.md).
SMALL_PAIRED_DRAWS_AUTO = 10


def _warn_small(smaller: int, how: str, kind: str, paired: bool, tail: bool = False) -> None:
    if how == "delong" and smaller < SMALL_DELONG:
        text = (
            f"{smaller} rows in the smaller class: with fewer than {SMALL_DELONG}, "
            "DeLong's test with pROC's reference distribution rejects a true null more "
            "often than its level (at 5%: 18.2% paired and 27.2% unpaired with 2 positives "
            "in the size study, benchmarks/results/compare_size.md); the default "
            "method='auto' refers it to Student's t with the df of the class parts."
        )
    elif (
        how in ("bootstrap", "dirichlet")
        and kind == "curve"
        and paired
        and (smaller < (SMALL_PAIRED_DRAWS_AUTO if tail else SMALL_PAIRED_DRAWS))
    ):
        limit = SMALL_PAIRED_DRAWS_AUTO if tail else SMALL_PAIRED_DRAWS
        text = (
            f"{smaller} rows in the smaller class: with fewer than {limit}, the paired "
            "draws of two curves reject a true null more often than their level, and "
            "their interval covers less than its level (benchmarks/results/"
            "bootstrap_expansion.md: the 95% interval of the paired bootstrap of a PR AUC "
            "difference covers 73.7% with 2 positives, 86.5% expanded to t); "
            + (
                "no small-sample method is known for an OPS or a value at an operating "
                "point (the default uses the jackknife-t for a curve area)."
                if tail
                else "the default method='auto' uses the jackknife-t (DeLong's test on t "
                "for the ROC AUC) below 10 rows of a class and the bootstrap expanded to "
                "t from 10 on."
            )
        )
    else:
        return
    warnings.warn(text, SmallCountWarning, stacklevel=caller_stacklevel())


def _small_default(results: list[Any], smaller: int, limit: int) -> list[Any]:
    """The results with their method saying that the default chose a small-sample
    method, because the smaller class has fewer than ``limit`` rows."""
    note = f"; the default below {limit} rows in the smaller class (here {smaller})"
    return [replace(r, method=r.method + note) for r in results]

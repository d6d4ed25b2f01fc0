"""Cross-validated evaluation: metrics and their OPS per fold and combined, with an
interval for the combined estimate (`docs/method.md#cross-validation`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.base import clone
from sklearn.model_selection import check_cv
from sklearn.utils import _safe_indexing

from opsstats._labels import check_label_kinds, infer_pos_label
from opsstats._summary import Summary
from opsstats._validation import (
    check_1d,
    check_confidence_level,
    check_real,
    check_real_array,
    check_resamples,
    check_threshold,
    describe,
)
from opsstats.grouped import evaluate, parse_metrics
from opsstats.metrics import get_metric

from ._response import scores_of

__all__ = ["CrossValidationResult", "cross_evaluate", "corrected_t_interval"]

_RESPONSES = ("predict_proba", "decision_function")


def corrected_t_interval(
    values: Any, test_to_train: float, confidence_level: float = 0.95
) -> tuple[float, float, float, float]:
    """Mean of per-split values with the corrected resampled t interval of Nadeau and
    Bengio (2003): variance ``(1/J + n_test/n_train) s^2`` on J - 1 degrees of freedom.

    The correction ``n_test/n_train`` accounts for the overlap of the training sets,
    which makes the J values positively correlated; the plain ``s^2 / J`` would be too
    small.

    Returns
    -------
    (mean, low, high, standard error); NaN bounds with fewer than two finite values.

    Examples
    --------
    >>> m, lo, hi, se = corrected_t_interval([0.70, 0.74, 0.72, 0.76, 0.73], 0.25)
    >>> round(m, 3), round(se, 4)
    (0.73, 0.015)
    """
    v = check_real_array("values", values).reshape(-1)  # NaN: an undefined split
    test_to_train = check_real("test_to_train", test_to_train, low=0.0, low_open=True)
    confidence_level = check_confidence_level(confidence_level)
    v = v[np.isfinite(v)]
    j = v.size
    if j == 0:
        return np.nan, np.nan, np.nan, np.nan
    mean = float(v.mean())
    if j < 2:
        return mean, np.nan, np.nan, np.nan
    se = float(np.sqrt((1 / j + test_to_train) * v.var(ddof=1)))
    q = float(stats.t.ppf(0.5 + confidence_level / 2, j - 1))
    return mean, mean - q * se, mean + q * se, se


def _range(spec: Any) -> tuple[float, float]:
    """The values a metric can take (the registry's range; [0, 1] for the ROC, PR and
    gain areas, unbounded above for the lift's)."""
    if spec.kind == "point":
        lo, hi = get_metric(spec.name).range
        return float(lo), float(hi)
    if spec.at is None and not spec.name.startswith(("lift", "nlift")):
        return 0.0, 1.0
    return -np.inf, np.inf


@dataclass(frozen=True)
class CrossValidationResult:
    """What :func:`cross_evaluate` returns.

    Attributes
    ----------
    folds : pandas.DataFrame
        The tidy table of :func:`opsstats.evaluate`, one row per fold (column ``fold``,
        and ``repeat`` for repeated splitters) and metric, with each fold's intervals.
    combined : pandas.DataFrame
        One row per metric and way of combining: ``mean`` (the mean of the folds'
        values and OPS, with the Nadeau-Bengio corrected resampled t interval over the
        folds) and, when every row is tested exactly once, ``pooled`` (the metric and
        OPS of all out-of-fold predictions together, with the interval of
        :func:`opsstats.evaluate`).
    confidence_level : float
    """

    folds: pd.DataFrame
    combined: pd.DataFrame
    confidence_level: float

    def summary(self) -> Summary:
        """The combined table as text, HTML or a DataFrame."""
        c = self.combined
        cols = ["metric", "combine", "n_folds", "value", "value_ci_low", "value_ci_high"]
        cols += ["ops", "ops_ci_low", "ops_ci_high"]
        notes = [
            f"{self.confidence_level:.0%} intervals; how each row was made "
            "(docs/method.md#cross-validation):"
        ]
        for method, rows in c.groupby("method", sort=False)["metric"]:
            notes.append(f"- {', '.join(rows)}: {method}")  # wrapped where printed
        return Summary(title="Cross-validated evaluation", table=c[cols], notes=tuple(notes))

    def __str__(self) -> str:
        return str(self.summary())


def cross_evaluate(
    estimator: Any,
    X: Any,
    y: Any,
    *,
    cv: Any = None,
    groups: Any = None,
    metrics: Any = None,
    threshold: float | None = None,
    pos_label: Any = None,
    response_method: Any = _RESPONSES,
    ci: str | None = "dirichlet",
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    rng: Any = None,
) -> CrossValidationResult:
    """Cross-validate a classifier and evaluate every fold: metrics, OPS and intervals,
    per fold and combined.

    Each fold's OPS is computed at that fold's own prevalence, so folds of different
    class balance are comparable and their OPS can be averaged, where a raw F1 cannot
    (the paper's section 2.6).

    Parameters
    ----------
    estimator : scikit-learn classifier
        Cloned and fitted on each training set.
    X, y : array-like
        Features and binary labels.
    cv : int, splitter or iterable, optional
        As in ``sklearn.model_selection.cross_validate`` (default 5-fold, stratified
        for a classifier). Repeated splitters (``RepeatedStratifiedKFold``) give
        ``repeat`` numbers; group splitters take ``groups``.
    metrics : list, optional
        As in :func:`opsstats.evaluate` (default: F1, MCC, ROC AUC and PR AUC).
    threshold : float, optional
        Predict positive where the score is at least ``threshold``; by default the
        estimator's own ``predict``.
    pos_label : label, optional
        The positive class (default: the last of the estimator's ``classes_``).
    response_method : str or tuple of str
        Where the scores come from, the first method the estimator has.
    ci, confidence_level, n_resamples, rng
        As in :func:`opsstats.evaluate`, for each fold and the pooled rows.

    Returns
    -------
    CrossValidationResult

    Notes
    -----
    The ``mean`` rows estimate the expected performance of the procedure (fitting the
    estimator on a training set of this size) by the mean over the J folds, with the
    corrected resampled t interval of Nadeau and Bengio (2003): the folds' spread
    carries both the finite test folds and the variation of the fitted models, and the
    factor ``n_test/n_train`` corrects for the overlap of the training sets. The
    ``pooled`` rows treat the out-of-fold predictions as one test set: their interval
    reflects the finite number of rows only. Coverage by simulation:
    ``benchmarks/results/cv_coverage.md``.

    References
    ----------
    Nadeau, C. and Bengio, Y. (2003). Inference for the generalization error. *Machine
    Learning* 52, 239-281.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> res = cross_evaluate(LogisticRegression(max_iter=5000), X, y, cv=5,
    ...                      metrics=["mcc"], rng=0)
    >>> res.folds[["fold", "metric", "n"]].head(2).to_string(index=False)
    ' fold metric   n\\n    0    mcc 114\\n    1    mcc 114'
    >>> list(res.combined["combine"])
    ['mean', 'pooled']
    """
    confidence_level = check_confidence_level(confidence_level)
    n_resamples = check_resamples(n_resamples)
    threshold = None if threshold is None else check_threshold(threshold)
    y_arr = check_1d("y", y)
    check_label_kinds([("y", y_arr)])
    if hasattr(X, "__len__") and len(X) != len(y_arr):
        raise ValueError(
            f"`X` and `y` must have one row per instance; got {len(X)} and {len(y_arr)}."
        )
    splitter = check_cv(cv, y_arr, classifier=True)
    splits = list(splitter.split(X, y_arr, groups))
    per_repeat = getattr(splitter, "n_splits", None)
    if hasattr(splitter, "cvargs"):  # repeated splitters: n_splits per repeat
        per_repeat = splitter.cvargs.get("n_splits", per_repeat)
    labels = np.unique(y_arr)
    if labels.size != 2:
        raise ValueError(
            f"`y` must hold two classes; got {labels.size} ({describe(labels.tolist())})."
        )
    pos = labels[-1] if pos_label is None else infer_pos_label(labels.tolist(), pos_label, "`y`")
    if pos not in labels:
        raise ValueError(f"`pos_label` {describe(pos)} is not a class of `y` {labels.tolist()}.")
    specs = parse_metrics(["f1", "mcc", "roc_auc", "pr_auc"] if metrics is None else metrics)
    need_pred = threshold is None and any(sp.kind == "point" for sp in specs)
    parts, ratios = [], []
    for j, (train, test) in enumerate(splits):
        est = clone(estimator).fit(_safe_indexing(X, train), y_arr[train])
        X_test = _safe_indexing(X, test)
        part = {
            "fold": j if per_repeat is None else j % per_repeat,
            "y": (y_arr[test] == pos).astype(int),
            "s": scores_of(est, X_test, pos, response_method),
            "row": test,
        }
        if per_repeat is not None and len(splits) > per_repeat:
            part["repeat"] = j // per_repeat
        if need_pred:
            part["p"] = (np.asarray(est.predict(X_test)) == pos).astype(int)
        parts.append(pd.DataFrame(part))
        ratios.append(len(test) / len(train))
    frame = pd.concat(parts, ignore_index=True)
    by = ["repeat", "fold"] if "repeat" in frame else ["fold"]
    options = {
        "truth": "y",
        "score": "s",
        "pred": "p" if need_pred else None,
        "threshold": threshold,
        "metrics": [sp.label for sp in specs],
        "ci": ci,
        "confidence_level": confidence_level,
        "n_resamples": n_resamples,
        "rng": rng,
    }
    folds = evaluate(frame, by=by, **options)
    rows = []
    for sp in specs:
        f = folds[folds["metric"] == sp.label]
        ratio = float(np.mean(ratios))
        v, vlo, vhi, _ = corrected_t_interval(f["value"], ratio, confidence_level)
        lo, hi = _range(sp)
        vlo, vhi = max(vlo, lo), min(vhi, hi)  # NaN stays NaN
        o, olo, ohi, ose = corrected_t_interval(f["ops"], ratio, confidence_level)
        rows.append(
            {
                "metric": sp.label,
                "combine": "mean",
                "n_folds": int(np.isfinite(f["ops"]).sum()),
                "n": int(frame["row"].nunique()),
                "value": v,
                "value_ci_low": vlo,
                "value_ci_high": vhi,
                "ops": o,
                "ops_se": ose,
                "ops_ci_low": max(olo, 0.0) if np.isfinite(olo) else olo,
                "ops_ci_high": min(ohi, 1.0) if np.isfinite(ohi) else ohi,
                "method": f"mean of {len(f)} folds, Nadeau-Bengio corrected resampled t "
                f"({len(f) - 1} df, n_test/n_train = {ratio:.3g})",
            }
        )
    combined = pd.DataFrame(rows)
    if frame["row"].is_unique and len(frame) == len(y_arr):  # every row tested once
        pooled = evaluate(frame, **options)
        pooled = pooled.assign(combine="pooled", n_folds=len(splits))
        pooled["method"] = "pooled out-of-fold predictions; " + pooled["method"].astype(str)
        combined = pd.concat([combined, pooled[combined.columns]], ignore_index=True)
    order = {sp.label: i for i, sp in enumerate(specs)}
    combined = (
        combined.assign(_order=combined["metric"].map(order))
        .sort_values(["_order", "combine"], kind="stable")
        .drop(columns="_order")
        .reset_index(drop=True)
    )
    return CrossValidationResult(folds, combined, confidence_level)

"""One metric's per-label OPS and their aggregate across labels (``MultiLabel.ops``):
the per-label table, the labels' weights (macro, by support, by prevalence or the
user's), the labels left out with their reasons, the pooled (micro) OPS, and the
intervals of the aggregate and of each label from one set of draws. The private base
class of :class:`~opsstats.multilabel.MultiLabel` that computes them."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._validation import (
    check_choice,
    check_confidence_level,
    check_resamples,
    check_weights,
)
from ..exceptions import UndefinedMetricWarning
from ..grouped import COLUMNS, MetricSpec, parse_metrics
from ..ops import _check_reference, confusion_matrix_ops
from ..results import ConfidenceInterval
from ..uncertainty._containing import contain
from ..uncertainty._draws import check_rng, equal_tailed
from ._draws import _IntervalDraws
from ._per_label import _scalar
from ._result import MultiLabelOPS

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

AVERAGES = (None, "macro", "weighted", "prevalence")


class _Aggregation(_IntervalDraws):
    """Per-label OPS of one metric and their aggregate (a private base class of
    :class:`~opsstats.multilabel.MultiLabel`)."""

    def ops(
        self,
        metric: str,
        *,
        at: dict[str, float] | None = None,
        average: str | None = "macro",
        weights: Any = None,
        reference: Any = None,
        ci: str | None = None,
        confidence_level: float = 0.95,
        n_resamples: int = 1000,
        rng: Any = None,
        progress: bool | None = None,
        **params: Any,
    ) -> MultiLabelOPS:
        """Per-label OPS of one metric, aggregated across labels.

        Parameters
        ----------
        metric : str
            A confusion-matrix metric (needs predicted labels), a curve area such as
            ``"pr_auc"``, or a metric with ``at`` read off each label's curve.
        average : {"macro", "weighted", "prevalence", None}
            ``"macro"``: plain mean; ``"weighted"``: weighted by support (positives);
            ``"prevalence"``: weighted by prevalence (the same as support when all
            labels share the rows, as here); None: the per-label table only.
        weights : array-like of shape (L,), optional
            User weights (non-negative), instead of ``average``.
        reference : optional
            ``Uniform()`` for confusion-matrix metrics, ``DirectedBinaryTree()`` for curve
            quantities by default.
        ci : {None, "bootstrap", "dirichlet"}
            ``"bootstrap"``: resampling rows (instances), which keeps the dependence
            between labels; each label's prevalence is held at its observed value in the
            standardization (the estimand is OPS at the test set's own prevalence).
            ``"dirichlet"``: independent Dirichlet-multinomial draws per label
            (confusion-matrix metrics only); it assumes the labels are independent,
            which understates the aggregate's uncertainty when they are positively
            correlated.
        confidence_level, n_resamples, rng, progress
            As elsewhere; the same ``rng`` gives the same interval; ``progress``: a bar
            of the draws on stderr (True, False, or None: as ``OPSSTATS_PROGRESS`` says).

        Returns
        -------
        MultiLabelOPS
            Labels whose OPS is undefined (a class absent) have NaN and a reason in the
            table and are left out of the aggregate with an ``UndefinedMetricWarning``
            that names them.
        """
        spec = parse_metrics([(metric, at) if at is not None else metric], "metric")[0]
        if params and spec.kind == "curve" and spec.at is None:
            raise TypeError(f"curve areas take no metric parameters; got {sorted(params)}.")
        if average not in AVERAGES:
            check_choice("average", average, ("macro", "weighted", "prevalence"))
        if ci is not None:
            ci = check_choice("ci", ci, ("bootstrap", "dirichlet"))
        cl = check_confidence_level(confidence_level)
        n_resamples = check_resamples(
            n_resamples,
            bytes_each=8.0 * (len(self.labels) + 4),
            what=f" for the draws of {len(self.labels)} label(s)",
        )
        generator = check_rng(rng)
        kind = spec.kind
        ref = _check_reference(
            reference, kind, "a curve quantity" if kind == "curve" else "a confusion-matrix metric"
        )
        units = self._units(kind)
        if kind == "curve" and hasattr(ref, "precompute"):  # every label in one pass
            ref.precompute(
                [(spec.name, spec.at) if spec.at else spec.name],
                [u.prevalence for u in units.values() if 0 < u.prevalence < 1],
            )
        table = self._label_table(spec, units, ref, params)
        w = self._weights(table, average, weights)
        defined = ~table["ops"].isna().to_numpy()
        excluded = (
            tuple(table.loc[~defined & (w > 0), "label"]) if average or weights is not None else ()
        )
        if excluded:
            warnings.warn(
                f"OPS of {spec.label} is undefined for label(s) "
                f"{', '.join(map(str, excluded))} and left out of the aggregate: "
                + "; ".join(table.loc[~defined & (w > 0), "reason"]),
                UndefinedMetricWarning,
                stacklevel=2,
            )
        w = np.where(defined, w, 0.0)
        if w.sum() > 0:
            w = w / w.sum()
        table["weight"] = w
        aggregate = (
            float(np.sum(w * table["ops"].fillna(0).to_numpy()))
            if (average is not None or weights is not None) and w.sum() > 0
            else float("nan")
        )
        se = float(np.sum(w * table["ops_se"].fillna(0).to_numpy()))
        micro = None
        if kind == "point" and self.pred is not None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UndefinedMetricWarning)
                micro = confusion_matrix_ops(self.micro(), spec.name, reference=ref, **params)
        result = MultiLabelOPS(
            metric=spec.label,
            table=table,
            average=average if weights is None else "user weights",
            estimate=aggregate,
            reference=ref.description,
            standard_error=se,
            excluded=excluded,
            micro=micro,
        )
        if ci is None or np.isnan(aggregate):
            return result
        draws, _n_bad, text = self._interval_draws(
            spec, units, ref, table, ci, n_resamples, generator, progress, params
        )
        used = w > 0
        agg = draws[:, used] @ w[used]  # per replicate; NaN if a used label is undefined
        ok = ~np.isnan(agg)
        if not ok.any():
            raise ValueError(
                f"the aggregate OPS is undefined in every one of the "
                f"{n_resamples} replicates (a label's class absent in each); "
                "no interval can be formed."
            )
        # the aggregate's and each label's intervals from the same replicates, each
        # extended to its estimate where it lies outside (docs/method.md#containing-the-estimate)
        lo, hi, note = contain(*equal_tailed(np.sort(agg[ok]), cl), aggregate)
        notes = [""] * len(self.labels)
        for j in range(len(self.labels)):
            col = draws[:, j]
            good = ~np.isnan(col)
            if defined[j] and good.any():
                low_j, high_j, notes[j] = contain(
                    *equal_tailed(np.sort(col[good]), cl), float(table.loc[j, "ops"])
                )
                table.loc[j, ["ops_ci_low", "ops_ci_high"]] = low_j, high_j
        table["method"] = table["method"].astype(str) + "; interval: " + text + notes
        text += note
        return MultiLabelOPS(
            metric=spec.label,
            table=table,
            average=result.average,
            estimate=aggregate,
            reference=ref.description,
            standard_error=se,
            ci=ConfidenceInterval(lo, hi),
            confidence_level=cl,
            ci_method=text,
            excluded=excluded,
            micro=micro,
            details={"n_resamples": n_resamples, "n_undefined": int((~ok).sum()), "draws": agg[ok]},
        )

    def _units(self, kind: str) -> dict[Any, Any]:
        return self.confusion_matrices() if kind == "point" else self.curves()

    def _label_table(
        self, spec: MetricSpec, units: dict[Any, Any], ref: Any, params: dict[str, Any]
    ) -> pd.DataFrame:
        rows = []
        positives, negatives = self._class_totals()
        for j, lab in enumerate(self.labels):
            unit = units.get(lab)
            pos, total = _scalar(positives[j]), _scalar(positives[j] + negatives[j])
            if unit is None or not 0 < unit.prevalence < 1:
                absent = "positives" if pos == 0 else "negatives"
                reason = f"no {absent}: OPS is undefined with one class absent"
                value = np.nan
                if spec.kind == "point" and unit is not None:
                    # the metric's value where the registry defines it (F1 of a label
                    # without negatives is 0 when nothing is predicted positive)
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", UndefinedMetricWarning)
                        value = unit.metric(spec.name, **params)
                rows.append(
                    {
                        "label": lab,
                        **dict.fromkeys(COLUMNS, np.nan),
                        "metric": spec.label,
                        "n": total,
                        "prevalence": pos / total if total > 0 else np.nan,
                        "value": value,
                        "method": "",
                        "reference": "",
                        "reason": reason,
                        "support": float(pos),
                    }
                )
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UndefinedMetricWarning)
                kwargs = {"at": spec.at} if spec.at else {}
                r = unit.ops(spec.name, reference=ref, **kwargs, **params)
            rows.append(
                {
                    "label": lab,
                    **dict.fromkeys(COLUMNS, np.nan),
                    "metric": spec.label,
                    "n": unit.n,
                    "prevalence": unit.prevalence,
                    "value": r.value,
                    "ops": r.estimate,
                    "ops_se": r.standard_error,
                    "method": r.method,
                    "reference": r.reference,
                    "reason": r.details.get("undefined", ""),
                    "support": float(unit.n * unit.prevalence),
                }
            )
        return pd.DataFrame(rows, columns=["label", *COLUMNS, "support"])

    def _weights(self, table: pd.DataFrame, average: str | None, weights: Any) -> np.ndarray:
        L = len(table)
        if weights is not None:
            # only their proportions matter: scaled by the largest, so that weights
            # whose sum would overflow (1e308 twice) keep their proportions
            return check_weights("weights", weights, L, per="label", positive_sum=True, scale=True)
        if average in (None, "macro"):
            return np.ones(L)
        if average == "weighted":
            return table["support"].to_numpy(dtype=float)
        return table["prevalence"].to_numpy(dtype=float)

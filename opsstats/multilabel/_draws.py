"""The interval draws of ``MultiLabel.ops``: (B x L) OPS draws, one column per label,
from independent Dirichlet-multinomial draws per label or from the row bootstrap, which
keeps the dependence between labels as one multinomial over the distinct joint rows
(docs/method.md#multi-label). The private base class of
:class:`~opsstats.multilabel.MultiLabel` that makes them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import numpy as np

from .._lazy import lazy_module
from ..curves._geometry import CurveArea, curve_area, parse_area, parse_at, value_at
from ..grouped import MetricSpec
from ..metrics import resolve_metric
from ..uncertainty._draws import progress
from ..uncertainty.confusion import _Draws
from ._per_label import _PerLabel

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

_CHUNK_ROWS = 2_000_000  # bootstrap chunk size in (replicates x patterns) cells


class _IntervalDraws(_PerLabel):
    """The interval draws of per-label OPS (a private base class of
    :class:`~opsstats.multilabel.MultiLabel`)."""

    def _multiplicities(self) -> tuple[np.ndarray, int]:
        """Each row's multiplicity for the row bootstrap (whole-number weights) and
        their total; refused for fractional weights."""
        if self.sample_weight is None:
            return np.ones(self.truth.shape[0], dtype=np.int64), int(self.truth.shape[0])
        w = self.sample_weight
        if not np.array_equal(w, np.round(w)):
            raise ValueError(
                "the row bootstrap needs whole-number `sample_weight` (frequency weights: a "
                "weight of 3 counts as three rows); got fractional weights. Use "
                "ci='dirichlet' for confusion-matrix metrics."
            )
        return w, round(float(w.sum()))

    def _interval_draws(
        self,
        spec: MetricSpec,
        units: dict[Any, Any],
        ref: Any,
        table: pd.DataFrame,
        ci: str,
        n_resamples: int,
        rng: np.random.Generator,
        show: bool | None,
        params: dict[str, Any],
    ) -> tuple[np.ndarray, int, str]:
        """(B x L) OPS draws (NaN where undefined or excluded), undefined count, text."""
        draws = np.full((n_resamples, len(self.labels)), np.nan)
        defined = ~table["ops"].isna().to_numpy()
        if ci == "dirichlet":
            if spec.kind != "point":
                raise ValueError(
                    "`ci='dirichlet'` applies to confusion-matrix metrics; use "
                    "'bootstrap' for curve quantities."
                )

            metric = resolve_metric(spec.name, **params)
            # independent draws per label, kept in draw order (sorting them would couple
            # the labels comonotonically and overstate the aggregate's spread)
            for j, lab in enumerate(self.labels):
                if defined[j]:
                    d = _Draws(
                        units[lab],
                        "dirichlet",
                        n_resamples,
                        rng,
                        prior="jeffreys",
                        prevalence="fixed",
                        stratified=True,
                        show_progress=False,
                    )
                    with np.errstate(divide="ignore", invalid="ignore"):
                        vals = np.asarray(metric(d.pi, d.a, d.b), dtype=float)
                    ok = ~np.isnan(vals)
                    draws[ok, j] = ref.ops(
                        metric, vals[ok], prevalence=units[lab].prevalence
                    ).estimate
            text = (
                f"Dirichlet-multinomial per label (labels assumed independent), Jeffreys "
                f"prior, {n_resamples} draws, prevalence fixed, equal-tailed"
            )
            return draws, 0, text
        self._multiplicities()  # whole-number weights only
        if spec.kind == "point":
            self._bootstrap_points(spec, ref, table, defined, draws, rng, show, params)
        else:
            self._bootstrap_curves(spec, ref, table, defined, draws, rng, show)
        text = (
            f"bootstrap over rows (keeps the dependence between labels), {n_resamples} "
            "resamples, prevalence fixed at each label's observed value, percentile"
        )
        return draws, 0, text

    def _bootstrap_points(self, spec, ref, table, defined, draws, rng, show, params) -> None:
        # Rows compressed to their joint pattern of (truth, prediction) over labels:
        # a replicate is one multinomial over the K patterns (no per-row work). The
        # patterns are sorted (np.unique), so any order of the rows, or rows already
        # compressed with their counts as weights (MultiLabel.from_frame), gives the
        # same patterns, probabilities and draws.
        pred = cast(np.ndarray, self.pred)  # a bootstrap of predictions has them
        mult, n = self._multiplicities()
        codes = self.truth.astype(np.int8) * 2 + pred.astype(np.int8)  # 3 tp 2 fn 1 fp 0 tn
        patterns, inverse = np.unique(codes, axis=0, return_inverse=True)
        counts = np.bincount(inverse.reshape(-1), weights=mult, minlength=len(patterns))
        patterns, counts = patterns[counts > 0], counts[counts > 0]
        probs = counts / n
        B = draws.shape[0]
        K = patterns.shape[0]
        per = max(1, _CHUNK_ROWS // K)

        metric = resolve_metric(spec.name, **params)
        pis = table["prevalence"].to_numpy(dtype=float)
        with progress(B, show, "bootstrap") as tick:
            for start in range(0, B, per):
                m = min(per, B - start)
                mult = rng.multinomial(n, probs, size=m).astype(float)  # (m, K)
                tp = mult @ (patterns == 3)
                fp = mult @ (patterns == 1)
                fn = mult @ (patterns == 2)
                tn = mult @ (patterns == 0)
                pos, neg = tp + fn, fp + tn
                with np.errstate(divide="ignore", invalid="ignore"):
                    a = np.where(neg > 0, fp / neg, np.nan)
                    b = np.where(pos > 0, fn / pos, np.nan)
                for j in np.flatnonzero(defined):
                    with np.errstate(divide="ignore", invalid="ignore"):
                        vals = np.asarray(metric(pis[j], a[:, j], b[:, j]), dtype=float)
                    ok = ~np.isnan(vals)
                    if ok.any():
                        draws[start : start + m, j][ok] = ref.ops(
                            metric, vals[ok], prevalence=pis[j]
                        ).estimate
                tick(m)

    def _bootstrap_curves(self, spec, ref, table, defined, draws, rng, show) -> None:
        # Rows compressed to their distinct joint rows (truth and score of every label)
        # with multiplicities: a replicate is one multinomial over the K distinct rows,
        # shared by every label (dependence kept), which has the distribution of
        # resampling the n rows; per label the counts are accumulated over its sorted
        # distinct scores.
        from scipy import sparse

        quantity = parse_area(spec.name) if spec.at is None else parse_at(spec.name, spec.at)
        truth, score, counts, n = self._distinct_rows()
        k = counts.size
        B = draws.shape[0]
        pis = table["prevalence"].to_numpy(dtype=float)
        probs = counts / n
        maps = {}
        for j in np.flatnonzero(defined):
            thr, inv = np.unique(score[:, j], return_inverse=True)
            inv = thr.size - 1 - inv  # descending thresholds (no negation: exact for ints)
            cells = inv * 2 + truth[:, j]
            maps[j] = (
                thr.size,
                sparse.csr_matrix((np.ones(k), (np.arange(k), cells)), shape=(k, 2 * thr.size)),
            )
        per = max(1, _CHUNK_ROWS // k)
        with progress(B, show, "bootstrap") as tick:
            for start in range(0, B, per):
                m = min(per, B - start)
                mult = rng.multinomial(n, probs, size=m).astype(float)
                for j, (_, onehot) in maps.items():
                    c = np.asarray((onehot.T @ mult.T).T)  # (m, 2J): negatives, positives
                    tps = np.cumsum(c[:, 1::2], axis=1)
                    fps = np.cumsum(c[:, 0::2], axis=1)
                    pos, neg = tps[:, -1:], fps[:, -1:]
                    with np.errstate(divide="ignore", invalid="ignore"):
                        alpha = np.hstack([np.zeros((m, 1)), fps / neg])
                        beta = np.hstack([np.ones((m, 1)), 1 - tps / pos])
                        if isinstance(quantity, CurveArea):
                            vals = curve_area(quantity, pis[j], alpha, beta)
                        else:
                            vals = value_at(quantity, pis[j], alpha, beta)
                    vals = np.where((pos[:, 0] > 0) & (neg[:, 0] > 0), vals, np.nan)
                    ok = ~np.isnan(vals)
                    if ok.any():
                        draws[start : start + m, j][ok] = ref.ops(
                            quantity, vals[ok], prevalence=pis[j]
                        ).estimate
                tick(m)

    def _distinct_rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """The distinct joint rows (truth and score of every label) in sorted order, with
        their multiplicities and total: the same table whether the rows come one by one
        or already counted (:meth:`from_frame`)."""
        truth, score = self.truth, cast(np.ndarray, self.score)
        mult, n = self._multiplicities()
        keep = mult > 0
        if not keep.all():
            truth, score, mult = truth[keep], score[keep], mult[keep]
        L = truth.shape[1]
        # np.lexsort: the last key sorts first (truth of label 0, ..., score of label L-1)
        keys = [score[:, j] for j in reversed(range(L))] + [truth[:, j] for j in reversed(range(L))]
        order = np.lexsort(keys)
        truth, score, mult = truth[order], score[order], mult[order]
        new = np.ones(len(mult), dtype=bool)
        new[1:] = np.any(truth[1:] != truth[:-1], axis=1) | np.any(score[1:] != score[:-1], axis=1)
        starts = np.flatnonzero(new)
        return truth[starts], score[starts], np.add.reduceat(mult, starts), n

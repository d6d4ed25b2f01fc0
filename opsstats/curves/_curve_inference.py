"""OPS and intervals of a :class:`~opsstats.curves.ScoreCurve`'s quantities.

``ops`` (the outperformance score against a curve reference, optionally with an
interval) and ``interval`` (a confidence interval for an area or an operating-point
value): the methods of the mixin :class:`_CurveInference`, which ``ScoreCurve`` inherits
and which holds no state. The work is done in higher tiers (``opsstats.ops``,
``opsstats.uncertainty.curve``), reached through :func:`opsstats._seam.upcall`
(docs/architecture.md, "The seam"); ``_announce`` adds the scores' direction to the
result's method (docs/method.md#vocabulary). The examples name ``ScoreCurve``, which the
repository's ``conftest.py`` puts in their namespace (this module cannot import the class
that inherits from it).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .._seam import upcall
from ._curve_interface import _CurveInterface

__all__: list[str] = []


class _CurveInference(_CurveInterface):
    """OPS and confidence intervals of the quantities of a ``ScoreCurve`` (a mixin without
    state)."""

    __slots__ = ()

    def ops(
        self,
        metric: Any,
        *,
        at: dict[str, float] | None = None,
        top_k: float | None = None,
        reference: Any = None,
        rule: str | None = None,
        ties: str = "strict",
        ci: str | None = None,
        confidence_level: float = 0.95,
        n_resamples: int = 2000,
        interval: str | None = None,
        stratified: bool = True,
        rng: Any = None,
        progress: bool | None = None,
        prior: Any = None,
        **params: Any,
    ) -> Any:
        """Outperformance score (o-value) of a curve quantity against a curve reference,
        optionally with an interval.

        Parameters
        ----------
        metric : str
            An area (``"roc_auc"``, ``"pr_auc"``, ``"lift_auc"``, ``"gain_auc"`` or their
            ``"n..."`` NAUC forms), the partial ROC area ``"roc_pauc"`` (with
            ``fpr_range=`` or ``tpr_range=`` and ``correct=``, as :meth:`partial_auc`),
            ``"gini"``, ``"eer"`` (equal error rate) or, with ``at``/``top_k``, a
            registered metric read off the curve (eq. 9), e.g. ``"precision"`` with
            ``at={"recall": 0.9}``.
        at, top_k
            The operating point, as in :meth:`value_at`.
        reference : CurveReference, optional
            Default: the paper's Directed Binary Tree (depth 9, 100,000 curves).
        rule : {"trapezoid", "step"}, optional
            AUC rule, applied to this curve and to the reference curves alike.
        ties : {"strict", "mid"}
        ci : {None, "auto", "bootstrap", "delong"}
            Add an interval for the OPS made by this method (see :meth:`interval`;
            ``"auto"`` chooses per quantity as there; ``"delong"`` for the ROC AUC only).
        confidence_level, n_resamples, interval, stratified, rng, progress
            Interval options, as in :meth:`interval`.
        **params
            Metric parameters.

        Returns
        -------
        OPSResult
            See :func:`opsstats.ops.curve_ops`. This is the *curve* (DBT) reference; the
            OPS of a single confusion matrix (:meth:`ConfusionMatrix.ops`) uses the uniform
            reference and differs for the same operating point. With ``ci``, also ``ci``
            and ``ci_method``.

        Notes
        -----
        At the curve's prevalence OPS is monotone in the quantity, so the OPS interval is
        the quantity's interval mapped through OPS. A Monte Carlo reference adds its own
        error at each mapped end: the end moves outwards so that its distance h from the
        OPS estimate becomes sqrt(h**2 + (z se)**2), se the reference's Monte Carlo
        standard error there; ``ci_method`` then ends with "reference Monte Carlo error
        added" (:func:`opsstats.uncertainty.curve.curve_ops_interval`). The non-stratified
        bootstrap resamples the prevalence, so it is refused for quantities whose OPS
        depends on the prevalence (all but ROC quantities).

        Examples
        --------
        >>> from opsstats.reference.dbt import DirectedBinaryTree
        >>> curve = ScoreCurve.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.5])
        >>> ref = DirectedBinaryTree(depth=4, n_curves=2000)
        >>> r = curve.ops("roc_auc", reference=ref)
        >>> 0.5 < r.estimate < 1
        True
        >>> r = curve.ops("roc_auc", reference=ref, ci="delong")
        >>> r.ci_method
        'DeLong, Sun-Xu algorithm, clipped to [0, 1]; reference Monte Carlo error added'
        >>> r.ci.low <= r.estimate <= r.ci.high
        True
        """
        return self._announce(
            upcall("curve_ops")(
                self,
                metric,
                at=at,
                top_k=top_k,
                reference=reference,
                rule=rule,
                ties=ties,
                ci=ci,
                confidence_level=confidence_level,
                n_resamples=n_resamples,
                interval=interval,
                stratified=stratified,
                rng=rng,
                progress=progress,
                prior=prior,
                **params,
            )
        )

    def interval(
        self,
        name: Any,
        *,
        method: str = "auto",
        confidence_level: float = 0.95,
        n_resamples: int = 2000,
        interval: str | None = None,
        stratified: bool = True,
        rng: Any = None,
        progress: bool | None = None,
        at: dict[str, float] | None = None,
        top_k: float | None = None,
        rule: str | None = None,
        prior: Any = None,
        **params: Any,
    ) -> Any:
        """Confidence interval for an area or an operating-point value of the curve.

        Parameters
        ----------
        name : str
            An area (``"roc_auc"``, ``"pr_auc"``, ``"lift_auc"``, ``"gain_auc"``, NAUC
            forms ``"nroc_auc"``, ...), ``"roc_pauc"`` (with ``fpr_range=`` or
            ``tpr_range=`` and ``correct=``), ``"gini"``, ``"eer"`` or, with
            ``at``/``top_k``, a registered metric read off the curve (eq. 9).
        method : {"auto", "bootstrap", "delong", "dirichlet", "jackknife"}
            ``"auto"`` (default): the method the coverage studies found nearest to
            nominal for the quantity (see Notes). For the ROC and PR AUC (and the other
            [0, 1] areas): with fewer than 100 rows in the smaller class, the Dirichlet
            posterior of each class's scores (``"dirichlet"``; for the PR areas with
            ``interval="bias-extended"``); from 100 rows on, the
            logit-scale interval of DeLong's variance for the ROC AUC (``"delong"`` with
            ``interval="logit-t"``) and of the stratified jackknife's for the other areas
            (``"jackknife"`` with ``interval="logit-t"``), which costs milliseconds at
            millions of rows. For everything else the stratified percentile bootstrap.
            The interval ``"auto"`` gives, and every ``"dirichlet"`` interval, contains
            the estimate: where the draws' interval leaves it out (a perfectly separated
            test set) it is extended to it, and the method string says so, and says when
            the default chose the posterior for a small class
            (docs/method.md#containing-the-estimate). ``"bootstrap"``: resampling the
            (score, label) rows, done by resampling counts over the sorted distinct
            scores (no sort per resample).
            ``"delong"``: DeLong's interval for the ROC AUC (trapezoid rule), by the
            O(n log n) algorithm of Sun and Xu (2014). ``"dirichlet"``: the Bayesian
            bootstrap of each class (Dirichlet weights on its rows) with a pseudo-row of
            each class above the highest score and another below the lowest (weight
            ``prior``); the prevalence fixed. ``"jackknife"``: the
            two-sample jackknife variance of a curve area (leave one row out, per class;
            DeLong's variance for the ROC AUC), exact in O(n).
        confidence_level : float, default 0.95
        n_resamples : int, default 2000
            Bootstrap resamples or posterior draws (at least 100; not used by
            ``"delong"`` or ``"jackknife"``).
        interval : str, optional
            For an explicit ``method`` (not with ``"auto"``): ``"percentile"``
            (default), ``"bca"`` or ``"logit-t"`` for the bootstrap; ``"normal"``
            (default, as pROC) or ``"logit-t"`` for DeLong and for the jackknife;
            ``"equal-tailed"`` (default) or ``"bias-extended"`` for the Dirichlet
            posterior: the equal-tailed interval with its lower end moved down by
            b = max(0, (P - 1)(mean of the leave-one-positive-out estimates -
            estimate)), the jackknife estimate of the estimator's upward small-sample
            bias [8]_, each leave-one-out curve read at the test set's prevalence
            (``details["bias_extension"]``). The average precision of a few positives
            is biased upwards, by an amount that depends on the upper tails of the
            scores; below 100 rows the equal-tailed PR AUC interval covered as little
            as 60% in the shapes study (``benchmarks/results/coverage_shapes.md``), the
            extended one at least 90.0%.
        stratified : bool, default True
            Resample within each class (prevalence fixed). Not stratified, resamples
            where a class is absent are undefined and counted in ``n_undefined``.
        rng : None, int or numpy.random.Generator
            The same ``rng`` gives the same interval, bit for bit. The default is
            random below 100 rows of a class (posterior draws): pass ``rng`` to make it
            reproducible.
        progress : bool or None
            A progress bar of the draws on stderr: True from the start, False none,
            None (the default) as the environment variable ``OPSSTATS_PROGRESS`` says
            (by default a bar in a terminal once the draws have run for a second).
        at, top_k
            The operating point, as in :meth:`value_at`.
        rule : {"trapezoid", "step"}, optional
            AUC rule (default per curve, as in :meth:`auc`).
        prior : {"jeffreys", "bayes-laplace"} or float, optional
            The weight of each of the Dirichlet posterior's four pseudo-rows: 1/2
            (Jeffreys, the default), 1 or a positive number. Only with the Dirichlet
            posterior.
        **params
            Metric parameters.

        Returns
        -------
        IntervalResult
            ``estimate`` (this curve's value), ``ci``, ``method`` (how it was made),
            ``n_undefined`` resamples (left out, reported) and the bootstrap's or the
            posterior's ``draws``;
            for DeLong, ``details["variance"]`` (DeLong's variance of the AUC); for the
            jackknife, ``details["variance"]`` and its two components
            ``"variance_positives"``, ``"variance_negatives"`` (and ``"df"``).

        Raises
        ------
        ValueError
            For weighted curves (non-integer counts): no method applies. For
            ``method="delong"`` with anything but the trapezoid ROC AUC, for
            ``method="jackknife"`` with a value at an operating point, or for either
            (and any logit-t interval, and the Dirichlet posterior) with fewer than 2
            rows of a class.

        Notes
        -----
        The DeLong ``"normal"`` interval is ``auc -+ z sqrt(var)``, **clipped to [0,
        1]** as pROC's ``ci.auc`` does (the method then says so); it equals pROC's to
        about 1e-15. When every positive outscores every negative its variance is 0 and
        the interval [1, 1] is misleading (a warning says so).

        ``"logit-t"`` intervals are ``expit(logit(estimate) -+ t * se)`` with se the
        standard error on the logit scale: for DeLong ``sqrt(var) / (auc (1 - auc))``
        and t with the Welch-Satterthwaite degrees of freedom of ``s10 / m + s01 / n``
        (the Brunner-Munzel t approximation, whose statistic this reproduces; the logit
        scale as recommended by Pohar Perme and Manevski), the centre moved by the
        second-order bias of ``logit(auc)``, ``(2 auc - 1) var / (2 (auc (1 - auc))**2)``
        (the method says "bias-corrected"); for the jackknife, ``sqrt(V) / (est (1 -
        est))`` with V = V1 + V0 its two-sample variance and t with (k - 1) V**2 /
        (V1**2 + V0**2) degrees of freedom, k the smaller class's size; for the
        bootstrap, half the spread of the central 68.27% of the resamples' logits and t
        with min(P, N) - 1 degrees of freedom. At an estimate of exactly 1 (every
        positive outscores every negative) or 0 there is no logit, and the interval is
        one-sided, ``[((1 - level) / 2) ** (1 / k), 1]``, k the smaller class's size.
        All need two rows of each class.

        The Dirichlet posterior gives each class's rows the weights of a flat
        Dirichlet (Gamma(1) per row, normalized within the class: the Bayesian bootstrap
        of Rubin 1981), plus a pseudo-positive and a pseudo-negative tied above the
        highest score and another pair tied below the lowest, each of weight ``prior``
        (Gamma(1/2) for Jeffreys): the posterior under a Dirichlet process prior whose
        base measure sits at the two ends of the score scale. Each draw is the
        quantity of the weighted curve at the test set's prevalence. Where every
        positive's placement is 0 or 1 (it outscores every negative or none) the ROC
        AUC's posterior tends, as the negatives grow many, to the Jeffreys Beta
        posterior of a proportion of the positives, so a
        perfectly separated test set gets an interval reaching well below 1 with no
        special rule; with many rows the pseudo-rows weigh nothing and the interval is
        the Bayesian bootstrap's. Rows of one (distinct score, class) cell share one
        Gamma(rows) weight, and a run of negatives-only thresholds is one cell, so a
        draw costs O(cells), at most about 2P + 3 with P positives the smaller class.

        Why these defaults: with few rows in a class the AUCs' sampling distributions
        are skewed, and DeLong's normal interval and the percentile bootstrap
        undercover (in the coverage study, ``benchmarks/results/coverage_curve.md``,
        binormal scores, DeLong's normal interval covered the ROC AUC 76% of the time
        at n = 50, pi = 0.1, shift 2). The logit-t intervals repair much of that for
        binormal scores, but not for others: with 10 positives among 2000 negatives and
        a ROC AUC of 0.92 they covered about 77% when 15% of the positives scored like
        negatives (``benchmarks/results/coverage_shapes.md``). For the ROC AUC the
        Dirichlet posterior covered 93.7% to 99.6% below 100 rows of the smaller class,
        across five shapes and both AUCs: never below the band, above it (conservative)
        mostly with positives less spread than the negatives or heavy tails. For the PR AUC
        the equal-tailed posterior fell to 60% with few positives less spread than the
        negatives, because average precision is then biased upwards by more than the
        posterior's spread; the default below 100 rows, the same posterior with its lower
        end extended by the jackknife's estimate of that bias, covered 90.0% to 100%
        there. From 100 rows of each class on, both are near
        nominal and the logit-t interval is used because it is
        deterministic and fast. The studies report every method's coverage cell by
        cell.

        The bootstrap draws each resample's multiplicities of the rows of every
        (distinct score, class) cell: stratified, Multinomial(P, .) over the positives'
        cells and Multinomial(N, .) over the negatives'; cumulative sums give the
        resampled curves over the same thresholds, evaluated as one (B, J) batch by the
        same geometry as the curve itself. BCa uses the exact jackknife over the at most
        2J distinct leave-one-out curves, computed in O(J).

        References
        ----------
        .. [1] E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, Biometrics 44(3),
           837-845 (1988). https://doi.org/10.2307/2531595
        .. [2] X. Sun and W. Xu, IEEE Signal Processing Letters 21(11), 1389-1393
           (2014). https://doi.org/10.1109/LSP.2014.2337313
        .. [3] B. Efron, Journal of the American Statistical Association 82(397),
           171-185 (1987). https://doi.org/10.1080/01621459.1987.10478410
        .. [4] E. Brunner and U. Munzel, "The nonparametric Behrens-Fisher problem:
           asymptotic theory and a small-sample approximation", Biometrical Journal
           42(1), 17-25 (2000).
        .. [5] M. Pohar Perme and D. Manevski, "Confidence intervals for the
           Mann-Whitney test", Statistical Methods in Medical Research (2019).
           https://doi.org/10.1177/0962280218814556
        .. [6] J. N. Arvesen, "Jackknifing U-statistics", The Annals of Mathematical
           Statistics 40(6), 2076-2100 (1969). https://doi.org/10.1214/aoms/1177697287
        .. [7] D. B. Rubin, "The Bayesian bootstrap", The Annals of Statistics 9(1),
           130-134 (1981). https://doi.org/10.1214/aos/1176345338
        .. [8] M. H. Quenouille, "Notes on bias in estimation", Biometrika 43(3/4),
           353-360 (1956). https://doi.org/10.1093/biomet/43.3-4.353

        Examples
        --------
        >>> curve = ScoreCurve.from_scores([0, 0, 1, 1, 0, 1, 0, 1, 0, 0],
        ...                                [0.1, 0.4, 0.35, 0.8, 0.2, 0.5, 0.3, 0.7, 0.6, 0.15])
        >>> print(curve.interval("roc_auc", method="delong"))
        AUC(ROC, trapezoid) = 0.8750, 95% CI 0.6459-1.0000 (DeLong, Sun-Xu algorithm, clipped to [0, 1])
        >>> r = curve.interval("roc_auc", method="delong")
        >>> round(r.details["variance"], 6)
        0.013657
        >>> print(curve.interval("roc_auc", rng=0))  # the default, 4 positives: Dirichlet
        AUC(ROC, trapezoid) = 0.8750, 95% CI 0.4254-0.9598 (Dirichlet posterior of each class's scores (Bayesian bootstrap, Jeffreys pseudo-rows at both ends), 2000 draws, equal-tailed; the default below 100 rows in the smaller class (here 4 positives))
        >>> print(curve.interval("roc_auc", method="delong", interval="logit-t"))
        AUC(ROC, trapezoid) = 0.8750, 95% CI 0.2766-0.9820 (DeLong, Sun-Xu algorithm, logit scale, bias-corrected, t with 7.726 df)
        >>> print(curve.interval("pr_auc", method="jackknife", interval="logit-t"))
        AUC(PR, step) = 0.8542, 95% CI 0.2309-0.9913 (stratified jackknife (leave one row out), logit scale, t with 5.15 df)
        >>> print(curve.interval("pr_auc", method="bootstrap", rng=0))  # doctest: +ELLIPSIS
        AUC(PR, step) = 0.8542, 95% CI 0.6...-1.0000 (2000 stratified bootstrap resamples, percentile)
        >>> r = curve.interval("precision", at={"recall": 0.5}, rng=0, method="bootstrap",
        ...                    interval="bca")
        >>> r.method
        '2000 stratified bootstrap resamples, BCa'
        """
        return self._announce(
            upcall("curve_interval")(
                self,
                name,
                method=method,
                confidence_level=confidence_level,
                n_resamples=n_resamples,
                interval=interval,
                stratified=stratified,
                rng=rng,
                progress=progress,
                at=at,
                top_k=top_k,
                rule=rule,
                prior=prior,
                **params,
            )
        )

    def _announce(self, result: Any) -> Any:
        """The result of ``ops`` or ``interval``, its method saying the scores' direction
        when it is not the default "<" (docs/method.md#vocabulary)."""
        if self._direction == "<":
            return result
        note = f"; scores' direction {self._direction}"
        return dataclasses.replace(result, method=result.method + note)

"""Intervals for a :class:`~opsstats.curves.ScoreCurve`: its areas, its operating-point
values and their outperformance scores (docs/method.md#intervals).

Four methods, and a default that picks per quantity and class size:

* ``"delong"``: DeLong, DeLong and Clarke-Pearson's (1988) asymptotic variance of the
  ROC AUC, computed by the O(n log n) algorithm of Sun and Xu (2014) from the curve's
  counts; intervals ``"normal"`` and ``"logit-t"``.
* ``"jackknife"``: the stratified (two-sample) jackknife variance of a curve area, from
  the at most 2J distinct leave-one-out curves, computed exactly in O(J); intervals
  ``"normal"`` and ``"logit-t"``.
* ``"dirichlet"``: the Dirichlet posterior of each class's score distribution (the
  Bayesian bootstrap of each class, with pseudo-rows at both ends of the score scale);
  intervals ``"equal-tailed"`` and ``"bias-extended"``.
* ``"bootstrap"``: resampling the test set's (score, label) rows, stratified (the
  default, prevalence fixed) or not, as multinomial counts per cell of the curve;
  intervals ``"percentile"``, ``"bca"`` and ``"logit-t"``.

``method="auto"`` (the default), for the ROC and PR areas: the Dirichlet posterior when
the smaller class has fewer than ``DIRICHLET_BELOW`` (100) rows (equal-tailed for the
ROC areas, bias-extended for the PR areas); from there on DeLong's logit-t interval for
the ROC AUC and the jackknife's for the other areas. The percentile bootstrap for every
other quantity. Every method needs whole-number counts (unweighted rows, or integer
frequency weights).

The OPS of a curve quantity gets the quantity's interval mapped through OPS, each end
moved outwards by a Monte Carlo reference's own error at that end.

Each method is described in its module; each module imports only the modules above it:

==============================  ========================================================
module                          holds
==============================  ========================================================
``_options``                    the names of the methods and of their intervals
                                (``METHODS``), the checks of the options, the logit-t
                                interval, the result of a run of draws, the observed
                                value
``_cells``                      the curve's rows as counts per (cell, class), merged
                                where that is exact, and batches of curves over them
:mod:`.delong`                  DeLong's variance (Sun-Xu) and its intervals
:mod:`.jackknife`               the exact stratified jackknife and its intervals;
                                perfect separation
:mod:`.resampling`              the bootstrap: multinomial counts per cell, batches of
                                resampled curves, percentile, BCa and logit-t intervals
:mod:`.dirichlet`               the Dirichlet posterior of each class's scores and the
                                bias-extended interval
:mod:`.best`                    bootstrap intervals for a fixed threshold and for the
                                best threshold re-selected per resample (pROC's
                                ``ci.thresholds``, ``ci.coords(x="best")``)
:mod:`.auto`                    ``method="auto"``: the method and interval per quantity
                                and class size
:mod:`.intervals`               :func:`~opsstats.uncertainty.curve.curve_interval`, which
                                checks the options and runs the method
:mod:`.ops_interval`            :func:`~opsstats.uncertainty.curve.curve_ops_interval`:
                                the interval mapped through OPS, with the reference's
                                Monte Carlo error;
                                :func:`~opsstats.uncertainty.curve.curve_ops_intervals`
                                for several quantities on shared draws
==============================  ========================================================
"""

from __future__ import annotations

# The public names are those of __all__; DEFAULT_RESAMPLES, SMALL_CLASS and DIRICHLET_BELOW
# stay reachable here, as they were when this package was one module.
from ._options import DEFAULT_RESAMPLES as DEFAULT_RESAMPLES
from ._options import METHODS
from ._options import SMALL_CLASS as SMALL_CLASS
from .auto import DIRICHLET_BELOW as DIRICHLET_BELOW
from .delong import DeLongResult, delong_components, delong_components_from_counts, delong_roc
from .intervals import curve_interval
from .ops_interval import curve_ops_interval, curve_ops_intervals

__all__ = [
    "METHODS",
    "DeLongResult",
    "curve_interval",
    "curve_ops_interval",
    "curve_ops_intervals",
    "delong_components",
    "delong_components_from_counts",
    "delong_roc",
]

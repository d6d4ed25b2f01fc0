"""Plots of outperformance scores: the paper's figures as one-liners.

Every function takes ``ax=None`` (a new figure when None), passes ``**kwargs`` to its
main artist and returns the Axes; none calls ``plt.show()``. matplotlib is imported
only when a function is called, so ``import opsstats`` does not import it.

===============================  ==========================================================
function                         what it draws
===============================  ==========================================================
:func:`plot_ops_function`        OPS against the metric value for several prevalences
                                 (Figures 1c and 3)
:func:`plot_unit_square`         the (alpha, beta) square, the level line and the
                                 outperformed region, its area the OPS (Figures 1a, 1b)
:func:`plot_curve`               ROC, PR, lift or gain curve over a reference band
:func:`plot_standardized_curve`  OPS(precision)-recall (OPRC) and OPS(lift) curves
                                 (Figures 4b-7b)
:func:`plot_forest`              per-group or per-label OPS with intervals
:func:`plot_distribution`        posterior or bootstrap draws behind an interval
:func:`plot_hull`                ROC curves, their convex hull, iso-performance lines and
                                 the operating point of least expected cost
:func:`plot_prevalence_profile`  the OPS and the raw value of one classifier across
                                 prevalences (:func:`opsstats.ops_prevalence_profile`)
:func:`plot_decomposition`       a change between two test sets as a waterfall: its
                                 prevalence and classifier parts (:func:`opsstats.decompose`)
:func:`plot_monitor`             a classifier over periods: raw, standardized and OPS per
                                 metric, flagged periods, the prevalence
                                 (:func:`opsstats.monitor`; ``ax``: one Axes per panel)
===============================  ==========================================================
"""

from .curve import plot_curve
from .decomposition import plot_decomposition
from .distribution import plot_distribution
from .forest import plot_forest
from .hull import plot_hull
from .monitor import plot_monitor
from .ops_function import plot_ops_function
from .prevalence_profile import plot_prevalence_profile
from .standardized_curve import plot_standardized_curve
from .unit_square import plot_unit_square

__all__ = [
    "plot_ops_function",
    "plot_unit_square",
    "plot_curve",
    "plot_standardized_curve",
    "plot_forest",
    "plot_distribution",
    "plot_hull",
    "plot_prevalence_profile",
    "plot_decomposition",
    "plot_monitor",
]

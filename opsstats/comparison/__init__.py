"""Comparing classifiers on the same rows (paired) and one classifier across test sets
(unpaired): differences of any curve quantity, confusion-matrix metric or OPS, with
intervals, tests, multiplicity adjustment, Bayesian read-outs and sample-size planning
(docs/method.md#comparisons).

==============================  ========================================================
module                          holds
==============================  ========================================================
:mod:`.result`                  :class:`ComparisonResult`, :class:`ComparisonTable`,
                                Holm and Bonferroni adjustments
``_inputs``                     the checks of the inputs (one validation path)
:mod:`.delong`                  DeLong's paired (Sun-Xu) and unpaired tests of ROC AUCs
:mod:`.mcnemar`                 McNemar's test of paired accuracies
:mod:`.draws`                   paired and unpaired draws: the joint bootstrap and
                                Dirichlet posterior of two curves, the joint 8-cell
                                table of two classifiers' predictions
:mod:`.api`                     :func:`compare` and :func:`compare_test_sets`
==============================  ========================================================
"""

from .api import METHODS, compare, compare_test_sets
from .delong import delong_covariance, delong_test, delong_unpaired
from .mcnemar import mcnemar_test
from .result import ComparisonResult, ComparisonTable, adjust_p_values

__all__ = [
    "compare",
    "compare_test_sets",
    "ComparisonResult",
    "ComparisonTable",
    "delong_test",
    "delong_unpaired",
    "delong_covariance",
    "mcnemar_test",
    "adjust_p_values",
    "METHODS",
]

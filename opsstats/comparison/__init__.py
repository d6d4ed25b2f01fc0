"""Comparing classifiers on the same rows (paired) and one classifier across test sets
(unpaired): differences of any curve quantity, confusion-matrix metric or OPS, with
intervals, tests, multiplicity adjustment, Bayesian read-outs and sample-size planning
(docs/method.md#comparisons).

==============================  ========================================================
module                          holds
==============================  ========================================================
:mod:`.result`                  :class:`ComparisonResult`, :class:`ComparisonTable`,
                                Holm and Bonferroni adjustments
``_inputs``                     the checks of the inputs and of the options both entry
                                points share (one validation path)
:mod:`.delong`                  DeLong's paired (Sun-Xu) and unpaired tests of ROC AUCs
:mod:`.mcnemar`                 McNemar's test of paired accuracies
:mod:`.venkatraman`             Venkatraman and Begg's permutation test of two paired
                                ROC curves and Venkatraman's of two independent ones
                                (whole-curve equality)
:mod:`.draws`                   paired and unpaired draws: the joint bootstrap and
                                Dirichlet posterior of two curves, the joint 8-cell
                                table of two classifiers' predictions
:mod:`.quantity`                what is compared (a curve quantity, a confusion-matrix
                                metric or its OPS), the default method (``METHODS``)
                                and the small-sample warnings
:mod:`.draw_tests`              the difference's interval and test read from its draws:
                                pROC's D, the posterior tail probability, the percentile
                                interval expanded to t
:mod:`.paired`                  :func:`compare`: classifiers on the same rows
:mod:`.unpaired`                :func:`compare_test_sets`: one quantity on independent
                                test sets
:mod:`.planning`                test-set size for an OPS interval's half-width, power
                                to detect an OPS difference (by simulation)
:mod:`.power`                   sample size and power of ROC AUC tests (pROC's
                                ``power.roc.test``), Obuchowski's variances
==============================  ========================================================
"""

from .delong import delong_covariance, delong_test, delong_unpaired
from .mcnemar import mcnemar_test
from .paired import compare
from .planning import PlanResult, ops_power, ops_sample_size, unpaired_ops_tests
from .power import (
    PowerResult,
    binormal_fit,
    obuchowski_covariance,
    obuchowski_variance,
    power_roc_test,
    power_roc_test_curves,
    power_roc_test_params,
)
from .quantity import METHODS
from .result import ComparisonResult, ComparisonTable, adjust_p_values
from .unpaired import compare_test_sets
from .venkatraman import venkatraman_test, venkatraman_unpaired_test

__all__ = [
    "compare",
    "compare_test_sets",
    "ComparisonResult",
    "ComparisonTable",
    "delong_test",
    "delong_unpaired",
    "delong_covariance",
    "mcnemar_test",
    "venkatraman_test",
    "venkatraman_unpaired_test",
    "adjust_p_values",
    "power_roc_test",
    "power_roc_test_curves",
    "power_roc_test_params",
    "PowerResult",
    "ops_sample_size",
    "ops_power",
    "unpaired_ops_tests",
    "PlanResult",
    "binormal_fit",
    "obuchowski_variance",
    "obuchowski_covariance",
    "METHODS",
]

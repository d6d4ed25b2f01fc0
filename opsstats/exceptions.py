"""Warnings raised by opsstats."""

from __future__ import annotations

__all__ = ["UndefinedMetricWarning", "SmallCountWarning"]


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined (0/0) for the data; the value returned is NaN.

    The message names the metric and gives the counts (or the reason) that make it
    undefined, e.g. ``precision is undefined (0/0: no predicted positives) for
    ConfusionMatrix(tp=0, fp=0, fn=5, tn=20); returning NaN``.

    Examples
    --------
    >>> import warnings
    >>> from opsstats import ConfusionMatrix
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     value = ConfusionMatrix(tp=0, fp=0, fn=5, tn=20).metric("precision")
    >>> value, caught[0].category.__name__
    (nan, 'UndefinedMetricWarning')
    """


class SmallCountWarning(UserWarning):
    """An interval method is known to undercover for counts this small.

    Raised by the bootstrap of a confusion matrix when a cell count is below 5: in the
    coverage study (``benchmarks/results/coverage_cm.md``) the stratified percentile
    bootstrap covers far below its nominal level whenever an expected cell count is 5 or
    less (its resamples collapse when a count is 0), while the Dirichlet-multinomial
    interval stays at or above it. Raised too by the logit-t intervals of a score curve
    (the defaults for the ROC and PR AUC from 100 rows of each class on) when they are
    asked for with fewer than 10 rows in the smaller class, where their coverage in
    ``benchmarks/results/coverage_shapes.md`` leaves the 93%-97% band on either side,
    depending on the shape of the score distributions.

    Examples
    --------
    >>> import warnings
    >>> from opsstats import ConfusionMatrix
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = ConfusionMatrix(tp=3, fp=2, fn=1, tn=30).interval("f1", method="bootstrap",
    ...                                                           rng=0)
    >>> caught[0].category.__name__
    'SmallCountWarning'
    """

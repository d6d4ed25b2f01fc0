"""The uniform reference restricted to classifiers at least as good as chance."""

from __future__ import annotations

from ._exact import ExactPointReference
from ._quadrature import ChanceTriangle

__all__ = ["BetterThanChance"]


class BetterThanChance(ExactPointReference):
    """(alpha, beta) uniform on the better-than-chance triangle {alpha + beta <= 1}.

    A classifier with alpha + beta > 1 is worse than guessing: flipping its labels
    gives a better one. This reference ranks a value only against classifiers that
    are at least as good as random (informedness 1 - alpha - beta >= 0), each equally
    likely. Use it when worse-than-chance classifiers are not credible competitors,
    e.g. to grade models that all beat a random baseline, so that "outperforms half of
    the reference" means "beats half of the sensible classifiers".

    Notes
    -----
    The reference drops the worse half of the uniform square, so every OPS is lower
    than under :class:`~opsstats.reference.uniform.Uniform` (an OPS u under Uniform
    that is at least 1/2 becomes 2u - 1 for metrics whose "worse" region contains the
    whole worse-than-chance triangle, such as MCC and informedness at values >= 0).
    A random classifier, MCC 0 or informedness 0, gets OPS 0 here (it is the worst
    classifier of the reference), against 0.5 under Uniform.

    The OPS is exact (standard error 0): adaptive quadrature to about 1e-10 with A
    weighted by its marginal density 2 (1 - alpha) and B given A = alpha uniform on
    [0, 1 - alpha]. The metric must be monotone in one error rate at fixed other rate
    on the triangle (every built-in metric is; checked).

    References
    ----------
    N. Zhao, T. Bui, J. Y. Yu, K. Dzieciolowski. Outperformance Score: A Universal
    Standardization Method for Confusion-Matrix-Based Classification Performance
    Metrics. Section 3.2 (the uniform reference restricted here) and the conclusion's
    list of future work (other reference distributions).

    Examples
    --------
    >>> from opsstats.reference.better_than_chance import BetterThanChance
    >>> from opsstats.reference.uniform import Uniform
    >>> ref = BetterThanChance()
    >>> float(ref.ops("mcc", 0.0, prevalence=0.1))          # random classifier
    0.0
    >>> float(Uniform().ops("mcc", 0.0, prevalence=0.1))
    0.5
    >>> round(float(ref.ops("mcc", 0.4, prevalence=0.1)), 6)     # 2 * 0.894998 - 1
    0.789996
    >>> round(float(ref.ops("f1", 0.6, prevalence=0.1)), 4)
    0.9153
    """

    _design = ChanceTriangle()

    @property
    def description(self) -> str:
        return "BetterThanChance: (alpha, beta) uniform on {alpha + beta <= 1}"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self).__name__)

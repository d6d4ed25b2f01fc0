"""An informative point reference: independent Beta distributions of the two error rates."""

from __future__ import annotations

from .._validation import check_real
from ._exact import ExactPointReference
from ._quadrature import IndependentBeta

__all__ = ["BetaErrors"]


class BetaErrors(ExactPointReference):
    """Type-I and Type-II errors independent, alpha ~ Beta(a_alpha, b_alpha) and
    beta ~ Beta(a_beta, b_beta).

    An *informative* reference: instead of giving every (alpha, beta) the same weight,
    as :class:`~opsstats.reference.uniform.Uniform` does, it encodes a belief about
    which classifiers are typical. Use it when such a belief is available and worth
    ranking against, e.g. "classifiers published for this task usually have a false
    positive rate around 0.1 and a miss rate around 0.3" (fit the Beta shapes to
    those typical rates and their spread, or to a pool of past results), so that the
    OPS answers "how does this classifier rank among typical ones?" rather than
    "among all conceivable ones". ``BetaErrors(1, 1, 1, 1)`` is the uniform reference.

    Parameters
    ----------
    a_alpha, b_alpha : float
        Shapes (> 0) of the Beta distribution of the Type-I error (false positive
        rate) alpha; mean a_alpha / (a_alpha + b_alpha).
    a_beta, b_beta : float
        Shapes (> 0) of the Beta distribution of the Type-II error (false negative
        rate) beta.

    Raises
    ------
    ValueError
        If a shape is not a finite number > 0.
    TypeError
        If a shape is not a real number.

    Notes
    -----
    The OPS is exact (standard error 0): the same adaptive quadrature as ``Uniform``
    uses for metrics without a closed form, to about 1e-10, with each rate integrated
    in its own coordinate weighted by its density when that density is bounded (both
    shapes >= 1), and in probability coordinates otherwise. A reference that puts
    most of its mass on good classifiers gives lower OPS to the same value than the
    uniform reference does: the more optimistic the belief, the harder it is to
    outperform. The metric must be monotone in one error rate at fixed other rate
    (every built-in metric is; checked).

    References
    ----------
    N. Zhao, T. Bui, J. Y. Yu, K. Dzieciolowski. Outperformance Score: A Universal
    Standardization Method for Confusion-Matrix-Based Classification Performance
    Metrics. Section 3.2 (the uniform reference this generalizes) and the
    conclusion's list of future work (other reference distributions).

    Examples
    --------
    >>> from opsstats.reference.beta import BetaErrors
    >>> from opsstats.reference.uniform import Uniform
    >>> typical = BetaErrors(2, 8, 3, 7)     # alpha around 0.2, beta around 0.3
    >>> typical
    BetaErrors(alpha ~ Beta(2, 8), beta ~ Beta(3, 7))
    >>> round(float(typical.ops("f1", 0.6, prevalence=0.1)), 4)
    0.8565
    >>> round(float(Uniform().ops("f1", 0.6, prevalence=0.1)), 4)  # all classifiers
    0.9577
    >>> round(float(BetaErrors(1, 1, 1, 1).ops("mcc", 0.4, prevalence=0.1)), 6)
    0.894998
    """

    def __init__(self, a_alpha: float, b_alpha: float, a_beta: float, b_beta: float):
        shapes = {}
        for name, val in (
            ("a_alpha", a_alpha),
            ("b_alpha", b_alpha),
            ("a_beta", a_beta),
            ("b_beta", b_beta),
        ):
            shapes[name] = check_real(name, val, low=0.0, low_open=True)
        self.a_alpha, self.b_alpha = shapes["a_alpha"], shapes["b_alpha"]
        self.a_beta, self.b_beta = shapes["a_beta"], shapes["b_beta"]
        self._design = IndependentBeta(self.a_alpha, self.b_alpha, self.a_beta, self.b_beta)

    @property
    def params(self) -> tuple[float, float, float, float]:
        """(a_alpha, b_alpha, a_beta, b_beta)."""
        return (self.a_alpha, self.b_alpha, self.a_beta, self.b_beta)

    @property
    def description(self) -> str:
        return (
            f"BetaErrors(alpha ~ Beta({self.a_alpha:g}, {self.b_alpha:g}), "
            f"beta ~ Beta({self.a_beta:g}, {self.b_beta:g}))"
        )

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, BetaErrors)
            and type(other) is type(self)
            and other.params == self.params
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.params))

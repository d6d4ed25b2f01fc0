"""The uniform reference: alpha and beta independent U[0, 1] (the paper's reference)."""

from __future__ import annotations

import numpy as np

from ..metrics import BoundMetric
from ._exact import ExactPointReference
from ._quadrature import UniformSquare, snap_probability
from ._uniform_closed_forms import closed_form

__all__ = ["Uniform"]


class Uniform(ExactPointReference):
    """Type-I and Type-II errors independent and uniform on [0, 1].

    The paper's reference for confusion-matrix ("labeling") metrics: every
    performance (alpha, beta) is equally likely, so the OPS of a value mu is the area
    of the part of the unit square where the metric is worse than mu,

        OPS_M(mu; pi) = Pr{ M(pi, A, B) < mu },   A, B iid U[0, 1]

    (``>`` for lower-is-better metrics). Use it to standardize a confusion-matrix metric
    against all conceivable classifiers at the test set's prevalence; it needs no data
    and no assumption about which classifiers are typical.

    Notes
    -----
    The OPS is exact, with standard error 0:

    - a closed form for every built-in metric (recall, specificity, fpr, fnr,
      precision, npv, fdr, false omission rate, accuracy, error rate, balanced
      accuracy, informedness, F1 -- the paper's eq. (7) --, F-beta, MCC, Cohen's
      kappa, G-mean, Fowlkes-Mallows, Jaccard, diagnostic odds ratio, LR+, LR-, lift,
      the prevalence threshold and markedness; see
      ``opsstats/reference/_uniform_closed_forms.py``), accurate to float precision at
      any prevalence (markedness checked down to 1e-12);
    - deterministic adaptive quadrature to about 1e-10 for user-registered metrics (the
      metric must be monotone in beta at fixed alpha, or in alpha at fixed beta; this
      is checked, and a metric that is neither, or that the rule cannot resolve, is
      refused with a ``ValueError`` rather than given a wrong number).

    Ties: under this reference Pr{M = mu} is 0 unless the metric is constant on a
    region of positive area (a clipped metric, say); ``ties="mid"`` then adds half of
    that area. OPS is invariant under increasing affine maps of the metric whose
    coefficients may depend on pi: lift (= precision / pi) has the same OPS as
    precision at the same operating point.

    A random classifier (alpha + beta = 1) has MCC 0 and OPS 0.5. The range ends give
    exact answers: e.g. OPS(F1 = 0) = 0 and OPS(F1 = 1) = 1.

    References
    ----------
    N. Zhao, T. Bui, J. Y. Yu, K. Dzieciolowski. Outperformance Score: A Universal
    Standardization Method for Confusion-Matrix-Based Classification Performance
    Metrics. Section 3.2, eqs. (6)-(7) and Example 2.

    Examples
    --------
    >>> from opsstats.reference.uniform import Uniform
    >>> ref = Uniform()
    >>> res = ref.ops("f1", 0.6, prevalence=0.1)       # the paper's Example 2
    >>> round(res.estimate, 6)
    0.957672
    >>> print(res)
    OPS(F1 score = 0.6 at prevalence 0.1) = 0.9577
    [Uniform(alpha, beta) on [0, 1]^2; exact (closed form)]
    >>> round(float(ref.ops("mcc", 0.4, prevalence=0.1)), 6)
    0.894998
    >>> ref.ops("mcc", [-1.0, 0.0, 1.0], prevalence=0.3).estimate   # range ends exact
    array([0. , 0.5, 1. ])
    >>> from opsstats.metrics import register_metric, unregister_metric
    >>> _ = register_metric("half_informedness", lambda p, a, b: (1 - a - b) / 2,
    ...                     direction="higher", range=(-0.5, 0.5))
    >>> res = ref.ops("half_informedness", 0.2, prevalence=0.3)      # quadrature
    >>> res.method, round(float(res), 6)                             # = OPS(informedness 0.4)
    ('exact (adaptive Gauss-Kronrod quadrature, tol 1e-10)', 0.82)
    >>> unregister_metric("half_informedness")
    """

    _design = UniformSquare()
    _closed_forms = True

    @property
    def description(self) -> str:
        return "Uniform(alpha, beta) on [0, 1]^2"

    def _ops_many(
        self, quantity: BoundMetric, values: np.ndarray, prevalences: np.ndarray, ties: str
    ) -> tuple[np.ndarray, np.ndarray]:
        f = closed_form(quantity)
        if f is None or np.unique(prevalences).size == 1:
            return super()._ops_many(quantity, values, prevalences, ties)
        # closed forms broadcast over prevalence: one call for every (value, pi) pair
        est = snap_probability(np.asarray(f(prevalences, values), dtype=float))
        return est, np.zeros(est.shape)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self).__name__)

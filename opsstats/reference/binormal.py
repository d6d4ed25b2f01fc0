"""Binormal ROC curves with random parameters: a smooth alternative curve reference."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._lazy import lazy_module
from .._validation import MAX_CURVE_POINTS, check_pair, check_real, check_size
from ._streamed import CHUNK, StreamedCurveReference, buffer_bytes

if TYPE_CHECKING:
    from scipy import special
else:
    special = lazy_module("scipy.special")

__all__ = ["BinormalCurves"]


class BinormalCurves(StreamedCurveReference):
    """Random binormal ROC curves, TPR = Phi(a + b Phi^{-1}(FPR)).

    Each reference classifier scores negatives N(0, 1) and positives N(a / b, 1 / b^2);
    the separation ``a`` is drawn uniformly from ``separation`` and the slope ``b`` is
    log-normal, ``log b ~ N(0, log_slope_sd^2)``. Every curve is read at the same
    ``n_points - 2`` thresholds, equally spaced on the negatives' scale over
    [-5, 5], plus the endpoints (0, 1) and (1, 0).

    Parameters
    ----------
    n_curves : int, default 100_000
    separation : (float, float), default (-3, 3)
        Range of a. Symmetric ranges make the family symmetric around chance (a = 0),
        so a ROC AUC of 0.5 scores an OPS of about 0.5, as under the DBT.
    log_slope_sd : float, default 0.5
        Standard deviation of log b (b = 1: equal-variance binormal curves).
    n_points : int, default 513
        Points per curve, endpoints included (the DBT default has 513 too); at most
        4,097, as the deepest tree.
    seed : int, default 20232
    cache_size : int, default 256

    Notes
    -----
    When to use it: binormal curves are the classical model of ROC analysis (smooth,
    concave when b = 1). As a reference they ask "how does this curve rank among
    smooth curves of random binormal classifiers?", a family with less mass on jagged
    curves than the DBT. Compare the answers with :class:`DirectedBinaryTree` to see how
    much an OPS depends on the choice of reference (the vignette *Choosing a reference
    distribution* does this). Its ROC AUC is Phi(a / sqrt(1 + b^2)).

    References
    ----------
    D. D. Dorfman and E. Alf (1969). Maximum-likelihood estimation of parameters of
    signal-detection theory and determination of confidence intervals. Journal of
    Mathematical Psychology 6(3), 487-496. doi:10.1016/0022-2496(69)90019-4

    Examples
    --------
    >>> from opsstats.reference.binormal import BinormalCurves
    >>> ref = BinormalCurves(n_curves=20_000)
    >>> round(ref.ops("roc_auc", 0.5, prevalence=0.3).estimate, 1)
    0.5
    """

    def __init__(
        self,
        n_curves: int = 100_000,
        *,
        separation: tuple[float, float] = (-3.0, 3.0),
        log_slope_sd: float = 0.5,
        n_points: int = 513,
        seed: int = 20232,
        cache_size: int = 256,
    ) -> None:
        self.separation = check_pair("separation", separation)
        self.log_slope_sd = check_real("log_slope_sd", log_slope_sd, low=0.0)
        self._n_points = check_size(
            "n_points",
            n_points,
            minimum=3,
            maximum=MAX_CURVE_POINTS,
            bytes_each=buffer_bytes(2, CHUNK) - buffer_bytes(1, CHUNK),
            what=" for a pass over the curves",
        )
        self._thresholds = np.linspace(5.0, -5.0, self._n_points - 2)
        super().__init__(n_curves, seed, cache_size)

    @property
    def n_points(self) -> int:
        return self._n_points

    def _params(self) -> tuple:
        return (self.separation, self.log_slope_sd, self._n_points)

    @property
    def description(self) -> str:
        return (
            f"BinormalCurves(n_curves={self.n_curves}, separation={self.separation}, "
            f"log_slope_sd={self.log_slope_sd:g}, n_points={self._n_points}, "
            f"seed={self.seed})"
        )

    def _draw(
        self,
        m: int,
        rng: np.random.Generator,
        out: tuple[np.ndarray, np.ndarray],
        columns: tuple[int, int] | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        c0, c1 = (0, m) if columns is None else columns
        a = rng.uniform(*self.separation, size=m)[c0:c1]
        b = np.exp(rng.normal(0.0, self.log_slope_sd, size=m))[c0:c1]
        alpha, beta = out[0][:, : c1 - c0], out[1][:, : c1 - c0]
        t = self._thresholds[:, None]
        alpha[0], alpha[-1] = 0.0, 1.0
        beta[0], beta[-1] = 1.0, 0.0
        alpha[1:-1] = special.ndtr(-t)  # FPR = P(N(0,1) >= t)
        beta[1:-1] = special.ndtr(b[None, :] * t - a[None, :])  # FNR = P(N(a/b, 1/b^2) < t)
        return alpha.T, beta.T

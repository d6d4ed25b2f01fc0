"""The base of exact point references: OPS as an area, by closed form or quadrature."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..metrics import BoundMetric
from ._quadrature import DEFAULT_TOL, Design, exact_ops, snap_probability
from ._uniform_closed_forms import closed_form, level_set
from .base import PointReference

__all__ = ["ExactPointReference", "QUADRATURE"]

QUADRATURE = f"adaptive Gauss-Kronrod quadrature, tol {DEFAULT_TOL:.0e}"


def _level_set_for(quantity: BoundMetric, prevalence: float):
    ls = level_set(quantity)
    if ls is None:
        return None
    return lambda alpha, mu: ls(prevalence, alpha, mu)


class ExactPointReference(PointReference):
    """A point reference with independent (or triangle-restricted) A, B whose OPS is an
    exact area: a closed form where the subclass allows one (the uniform square), else
    the adaptive quadrature of :mod:`opsstats.reference._quadrature` over ``_design``,
    helped by a metric's closed-form level set where it has one."""

    exact = True
    _design: Design
    #: Whether the closed forms of ``_uniform_closed_forms`` apply (uniform square only).
    _closed_forms: bool = False

    @property
    def method(self) -> str:
        if self._closed_forms:
            return f"exact (closed form where one exists, otherwise {QUADRATURE})"
        return f"exact ({QUADRATURE})"

    def _method_for(self, quantity: BoundMetric, prevalence: Any = None) -> str:
        # The printed result says which exact method served this metric.
        if self._closed_forms and closed_form(quantity) is not None:
            return "exact (closed form)"
        if level_set(quantity) is not None:
            return f"exact ({QUADRATURE}, closed-form level set)"
        return f"exact ({QUADRATURE})"

    def _ops(
        self, quantity: BoundMetric, values: np.ndarray, prevalence: float, ties: str
    ) -> tuple[np.ndarray, np.ndarray]:
        f = closed_form(quantity) if self._closed_forms else None
        if f is not None:
            # Closed forms are for metrics whose level sets have area 0, where
            # ties="mid" and "strict" agree.
            est = snap_probability(np.asarray(f(prevalence, values), dtype=float))
        else:
            est = exact_ops(
                quantity,
                values,
                prevalence,
                self._design,
                ties=ties,
                level_set=_level_set_for(quantity, prevalence),
            )
        return est, np.zeros(np.shape(est))

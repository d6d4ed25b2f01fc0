"""Interval methods of your own for confusion matrices.

A method here is a rule that draws the two error rates given the class totals: ``draw(cm,
n, rng)`` returns ``n`` draws of alpha (the false positive rate) and ``n`` of beta (the
false negative rate). Everything else is the package's: every metric is evaluated on the
draws through the registry, the interval is equal-tailed (or HPD) over the draws where the
metric is defined, draws where it is 0/0 are counted in ``n_undefined``, and the OPS
interval is the metric's interval mapped through the OPS (the prevalence is fixed at the
test set's, where OPS is monotone in the metric). Once registered, the name works wherever
a built-in method does: ``cm.interval("f1", method=name)``, ``cm.ops("f1", ci=name)``,
``evaluate(..., ci=name)``.

The built-in methods (``"dirichlet"``, ``"bootstrap"`` and the binomial intervals) are
not in this registry and cannot be replaced.

Examples
--------
An informative prior from a pilot study (3 false positives among 200 negatives, 5 false
negatives among 40 positives) added to the test set's counts:

>>> import numpy as np
>>> from opsstats import ConfusionMatrix
>>> from opsstats.uncertainty.methods import register_interval_method, unregister_interval_method
>>> def pilot_prior(cm, n, rng):
...     return rng.beta(cm.fp + 3, cm.tn + 197, n), rng.beta(cm.fn + 5, cm.tp + 35, n)
>>> register_interval_method("pilot", pilot_prior, description="Beta posterior, pilot prior")
>>> r = ConfusionMatrix(tp=45, fp=30, fn=15, tn=210).interval("recall", method="pilot", rng=0)
>>> r.method
'Beta posterior, pilot prior, 10000 draws, prevalence fixed, equal-tailed'
>>> unregister_interval_method("pilot")
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import MAX_RESAMPLES, check_choice, check_instance, check_size, describe
from ..confusion import ConfusionMatrix
from .proportion import BINOMIAL_METHODS

__all__ = [
    "IntervalMethod",
    "register_interval_method",
    "unregister_interval_method",
    "interval_methods",
    "registered_interval_methods",
    "get_interval_method",
]

#: Names the package's own methods use; a registered method cannot take them.
BUILT_IN = ("dirichlet", "bootstrap", *BINOMIAL_METHODS)

DrawFunction = Callable[[Any, int, np.random.Generator], tuple[Any, Any]]


@dataclass(frozen=True)
class IntervalMethod:
    """A registered interval method: its name, the draw function and how it prints.

    Attributes
    ----------
    name : str
    draw : callable
        ``draw(cm, n, rng) -> (alpha_draws, beta_draws)``, two arrays of ``n`` error rates
        in [0, 1], given the class totals of the confusion matrix ``cm``.
    description : str
        How the draws are made, printed in every result (``"..., 10000 draws, prevalence
        fixed, equal-tailed"`` is appended).
    """

    name: str
    draw: DrawFunction
    description: str

    def draws(self, cm: Any, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """The method's draws of (alpha, beta), checked: ``n`` finite rates in [0, 1]."""
        check_instance("cm", cm, ConfusionMatrix)
        n = check_size("n", n, maximum=MAX_RESAMPLES, bytes_each=16)  # the two arrays
        check_instance("rng", rng, np.random.Generator)
        out = self.draw(cm, n, rng)
        if not (isinstance(out, tuple) and len(out) == 2):
            raise TypeError(
                f"interval method {self.name!r} must return a pair (alpha_draws, "
                f"beta_draws); got {describe(out)}."
            )
        checked = []
        for label, values in zip(("alpha", "beta"), out, strict=True):
            arr = np.asarray(values, dtype=float)
            if arr.shape != (n,):
                raise ValueError(
                    f"interval method {self.name!r} must return {n} {label} draws; got an "
                    f"array of shape {arr.shape}."
                )
            if not np.all((arr >= 0) & (arr <= 1)):
                raise ValueError(
                    f"interval method {self.name!r} returned {label} draws outside [0, 1] "
                    "(or NaN); error rates are proportions."
                )
            checked.append(arr)
        return checked[0], checked[1]


_METHODS: dict[str, IntervalMethod] = {}


def register_interval_method(
    name: str, draw: DrawFunction, *, description: str, overwrite: bool = False
) -> None:
    """Register an interval method for confusion matrices (see the module docstring).

    Parameters
    ----------
    name : str
        Lower-case name used as ``method=`` / ``ci=``; not a built-in method's name.
    draw : callable
        ``draw(cm, n, rng) -> (alpha_draws, beta_draws)``; ``rng`` is the
        ``numpy.random.Generator`` of the call, so the same ``rng`` gives the same draws.
    description : str
        How the draws are made, for printed results.
    overwrite : bool, default False
        Replace a method registered earlier under ``name``.

    Raises
    ------
    ValueError
        If ``name`` is a built-in method's or already registered (and not
        ``overwrite``), or empty.
    TypeError
        If ``draw`` is not callable or ``name``/``description`` is not a string.
    """
    if not isinstance(name, str) or not name.strip():
        raise TypeError(f"`name` must be a non-empty string; got {describe(name)}.")
    key = name.strip().lower()
    if key in BUILT_IN:
        raise ValueError(
            f"`name` {key!r} is a built-in interval method; choose another name "
            f"(built-in: {', '.join(BUILT_IN)})."
        )
    if key in _METHODS and not overwrite:
        raise ValueError(
            f"`name` {key!r} is already registered; pass overwrite=True to replace it."
        )
    if not callable(draw):
        raise TypeError(f"`draw` must be callable; got {describe(draw)}.")
    if not isinstance(description, str) or not description.strip():
        raise TypeError(f"`description` must be a non-empty string; got {describe(description)}.")
    _METHODS[key] = IntervalMethod(key, draw, description.strip())


def unregister_interval_method(name: str) -> None:
    """Remove a method registered with :func:`register_interval_method`."""
    if not _METHODS:
        raise ValueError(f"`name` must be a registered interval method; got {name!r} (none is).")
    del _METHODS[check_choice("name", name, registered_interval_methods())]


def registered_interval_methods() -> tuple[str, ...]:
    """The names registered with :func:`register_interval_method`, in order."""
    return tuple(_METHODS)


def interval_methods() -> tuple[str, ...]:
    """Every interval method name a confusion matrix accepts: built-in, then registered."""
    return (*BUILT_IN, *_METHODS)


def get_interval_method(name: str) -> IntervalMethod | None:
    """The registered method ``name``, or None for a built-in (or unknown) name."""
    return _METHODS.get(name)

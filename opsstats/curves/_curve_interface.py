"""What the method groups of :class:`~opsstats.curves.ScoreCurve` read of a curve.

The methods of ``ScoreCurve`` are written in mixin classes, one module per group
(``_curve_coordinates``, ``_curve_areas``, ``_curve_operating_points``,
``_curve_inference``); ``opsstats.curves.score_curve`` holds the class, its stored counts
and their properties. Each mixin derives from :class:`_CurveInterface`, which declares
those counts and properties for the type checker only: at run time it is an empty class
without state (``__slots__ = ()``), and ``ScoreCurve`` defines everything it declares.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

__all__: list[str] = []


class _CurveInterface:
    """The stored counts and the properties of a ``ScoreCurve`` that its mixins use,
    declared for the type checker; defined by ``ScoreCurve``."""

    __slots__ = ()

    if TYPE_CHECKING:  # pragma: no cover
        _direction: str
        _thresholds: np.ndarray
        _tps: np.ndarray
        _fps: np.ndarray
        _standard: float | None

        @classmethod
        def from_scores(
            cls,
            y_true: Any,
            y_score: Any,
            *,
            pos_label: Any = None,
            sample_weight: Any = None,
            direction: str = "<",
        ) -> Any: ...

        @property
        def n_positive(self) -> int | float: ...

        @property
        def n_negative(self) -> int | float: ...

        @property
        def n(self) -> int | float: ...

        @property
        def prevalence(self) -> float: ...

        @property
        def is_integer(self) -> bool: ...

        @property
        def alpha(self) -> np.ndarray: ...

        @property
        def beta(self) -> np.ndarray: ...

        def _geometry_points(self, curve: str | None = None) -> tuple[np.ndarray, np.ndarray]: ...

        def _rate_source(self) -> Any: ...

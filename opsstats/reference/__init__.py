"""Reference distributions of classifier performance, one module per distribution.

Point references (one (alpha, beta); for confusion-matrix metrics):
:class:`Uniform` (the paper's), :class:`BetaErrors`, :class:`BetterThanChance`,
:class:`EmpiricalPoints`. Curve references (monotone (alpha, beta) curves; for AUCs and
operating points): :class:`DirectedBinaryTree` (the paper's), :class:`BinormalCurves`,
:class:`EmpiricalCurves`.
"""

from .base import CurveReference, PointReference, ReferenceDistribution
from .beta import BetaErrors
from .better_than_chance import BetterThanChance
from .binormal import BinormalCurves
from .dbt import DirectedBinaryTree
from .empirical import EmpiricalCurves, EmpiricalPoints
from .uniform import Uniform

__all__ = [
    "ReferenceDistribution",
    "PointReference",
    "CurveReference",
    "Uniform",
    "BetaErrors",
    "BetterThanChance",
    "EmpiricalPoints",
    "DirectedBinaryTree",
    "BinormalCurves",
    "EmpiricalCurves",
]

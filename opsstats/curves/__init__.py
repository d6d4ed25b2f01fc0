"""Curves of a scoring classifier: ROC, precision-recall, lift and gain."""

from ._geometry import CURVES, DEFAULT_RULE, RULES, CurveArea, OperatingPoint, ideal_auc
from .score_curve import TOP_K_TIES, ScoreCurve
from .score_distribution import KERNELS, aupc, aurc, dm, error_ratio, pui, rui, score_measures

__all__ = [
    "CURVES",
    "DEFAULT_RULE",
    "RULES",
    "CurveArea",
    "OperatingPoint",
    "ideal_auc",
    "ScoreCurve",
    "TOP_K_TIES",
    "KERNELS",
    "dm",
    "rui",
    "aurc",
    "pui",
    "aupc",
    "error_ratio",
    "score_measures",
]

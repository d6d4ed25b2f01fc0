"""Curves of a scoring classifier: ROC, precision-recall, lift and gain; the ROC convex
hull, binormal smoothing and multi-class AUCs."""

from ._geometry import (
    CURVES,
    DEFAULT_RULE,
    RULES,
    CurveArea,
    OperatingPoint,
    ideal_auc,
    ops_prevalence_invariant,
)
from .hull import calibrate, calibrated_curve, iso_line, optimal_point, roc_hull, skew_ratio
from .multiclass import multiclass_roc_auc, pairwise_auc
from .score_curve import TOP_K_TIES, ScoreCurve
from .score_distribution import KERNELS, aupc, aurc, dm, error_ratio, pui, rui, score_measures
from .smooth import BinormalSmooth, binormal_smooth

__all__ = [
    "CURVES",
    "DEFAULT_RULE",
    "RULES",
    "CurveArea",
    "OperatingPoint",
    "ideal_auc",
    "ops_prevalence_invariant",
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
    "multiclass_roc_auc",
    "pairwise_auc",
    "roc_hull",
    "optimal_point",
    "iso_line",
    "skew_ratio",
    "calibrate",
    "calibrated_curve",
    "binormal_smooth",
    "BinormalSmooth",
]

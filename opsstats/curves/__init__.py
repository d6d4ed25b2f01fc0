"""Curves of a scoring classifier: ROC, precision-recall, lift and gain."""

from ._geometry import CURVES, DEFAULT_RULE, RULES, CurveArea, OperatingPoint, ideal_auc

__all__ = ["CURVES", "DEFAULT_RULE", "RULES", "CurveArea", "OperatingPoint", "ideal_auc"]

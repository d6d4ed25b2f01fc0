"""Reference distributions of classifier performance, one module per distribution."""

from .base import CurveReference, PointReference, ReferenceDistribution

__all__ = ["ReferenceDistribution", "PointReference", "CurveReference"]

"""Example data sets."""

from ._affairs import load_affairs

__all__ = ["load_affairs"]

"""The extramarital-affairs survey (Fair, 1978), as shipped by statsmodels.

Source: R. C. Fair, "A Theory of Extramarital Affairs", Journal of Political Economy
86(1), 1978, 45-61, doi:10.1086/260646; the 1974 Redbook survey of 6,366 women. It is
distributed with statsmodels (``statsmodels.datasets.fair``; its ``COPYRIGHT`` notice:
"Included with permission of the author."), a runtime dependency of opsstats, so
nothing is downloaded and nothing is copied into this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_module

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__ = ["load_affairs"]


def load_affairs() -> pd.DataFrame:
    """The affairs data with a binary outcome ``had_affair`` (affairs > 0).

    Returns
    -------
    pandas.DataFrame
        6,366 rows: the survey's covariates (``rate_marriage``, ``age``, ``yrs_married``,
        ``children``, ``religious``, ``educ``, ``occupation``, ``occupation_husb``), the
        original ``affairs`` measure and ``had_affair`` (0/1, prevalence about 0.32).

    Examples
    --------
    >>> from opsstats.datasets import load_affairs
    >>> df = load_affairs()
    >>> df.shape
    (6366, 10)
    >>> round(float(df["had_affair"].mean()), 3)
    0.322
    """
    from statsmodels.datasets import fair

    df = fair.load_pandas().data.copy()
    df["had_affair"] = (df["affairs"] > 0).astype(int)
    return df

"""The worked example behind ``opsstats example``: a logistic model of the affairs data,
fitted on half of it and evaluated on held-out test sets with different prevalences, as
the paper evaluates one classifier on its General, Elder and Hospital test sets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ._lazy import lazy_module
from ._validation import check_probability
from .datasets import load_affairs
from .report import report
from .uncertainty._draws import check_rng

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__ = ["AffairsExample", "affairs_example", "FEATURES"]

FEATURES = ["rate_marriage", "age", "yrs_married", "children", "religious", "educ"]


@dataclass(frozen=True)
class AffairsExample:
    """Held-out rows with model scores, and the test sets built from them.

    ``test`` holds the held-out rows (column ``score``); ``test_sets`` stacks three
    overlapping test sets with a ``test_set`` column: ``general`` (all held-out rows),
    ``recent marriages`` (married 5 years or less: fewer affairs) and
    ``unhappy marriages`` (marriage rated 3 or less of 5: more affairs).

    Examples
    --------
    >>> ex = affairs_example()
    >>> sorted(ex.test_sets["test_set"].unique())
    ['general', 'recent marriages', 'unhappy marriages']
    """

    test: pd.DataFrame
    threshold: float

    @property
    def test_sets(self) -> pd.DataFrame:
        t = self.test
        parts = [
            t.assign(test_set="general"),
            t[t["yrs_married"] <= 5].assign(test_set="recent marriages"),
            t[t["rate_marriage"] <= 3].assign(test_set="unhappy marriages"),
        ]
        return pd.concat(parts, ignore_index=True)

    def report(self, *, ci: str | None = "dirichlet", rng: int = 0):
        """The full evaluation report on the three test sets."""
        title = (
            "Affairs data (Fair 1978, via statsmodels): logistic model on "
            f"{', '.join(FEATURES)}, fitted on a random half (seed 0), evaluated on "
            f"held-out test sets at threshold {self.threshold:g}"
        )
        return report(
            self.test_sets,
            truth="had_affair",
            score="score",
            threshold=self.threshold,
            by="test_set",
            ci=ci,
            rng=rng,
            title=title,
        )


def affairs_example(threshold: float = 0.5, *, seed: int = 0) -> AffairsExample:
    """Fit a logistic regression on half of the affairs data and score the other half.

    Examples
    --------
    >>> ex = affairs_example()
    >>> len(ex.test)
    3183
    >>> ex.test_sets.groupby("test_set")["had_affair"].mean().round(2).to_dict()
    {'general': 0.33, 'recent marriages': 0.19, 'unhappy marriages': 0.61}
    """
    import statsmodels.api as sm

    threshold = check_probability("threshold", threshold)
    df = load_affairs()
    rng = check_rng(seed, "seed")
    train = rng.permutation(len(df)) < len(df) // 2
    x = sm.add_constant(df[FEATURES].astype(float))
    model = sm.Logit(df.loc[train, "had_affair"], x[train]).fit(disp=0)
    test = df.loc[~train].copy()
    test["score"] = model.predict(x[~train])
    return AffairsExample(test=test, threshold=threshold)

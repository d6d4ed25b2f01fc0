"""The worked example behind ``opsstats example``: a logistic model of the affairs data,
scored on a held-out set."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._validation import check_probability
from .confusion import ConfusionMatrix

__all__ = ["AffairsExample", "affairs_example"]

_FEATURES = ["rate_marriage", "age", "yrs_married", "children", "religious", "educ"]


@dataclass(frozen=True)
class AffairsExample:
    """A held-out evaluation set: truth, model scores and the chosen threshold."""

    test: pd.DataFrame
    threshold: float

    @property
    def confusion_matrix(self) -> ConfusionMatrix:
        return ConfusionMatrix.from_predictions(
            self.test["had_affair"].to_numpy(),
            (self.test["score"].to_numpy() >= self.threshold).astype(int))

    def report(self) -> str:
        cm = self.confusion_matrix
        head = (f"Affairs data (Fair 1978, via statsmodels): logistic model on "
                f"{', '.join(_FEATURES)}; fitted on a random half (seed 0), evaluated on "
                f"the other {len(self.test)} rows at threshold {self.threshold:g}.")
        return head + "\n\n" + str(cm.summary())


def affairs_example(threshold: float = 0.5, *, seed: int = 0) -> AffairsExample:
    """Fit a logistic regression on half of the affairs data and score the other half.

    Examples
    --------
    >>> ex = affairs_example()
    >>> ex.confusion_matrix.n
    3183
    """
    import statsmodels.api as sm

    from .datasets import load_affairs

    threshold = check_probability("threshold", threshold)
    df = load_affairs()
    rng = np.random.default_rng(seed)
    train = rng.permutation(len(df)) < len(df) // 2
    x = sm.add_constant(df[_FEATURES].astype(float))
    model = sm.Logit(df.loc[train, "had_affair"], x[train]).fit(disp=0)
    test = df.loc[~train].copy()
    test["score"] = model.predict(x[~train])
    return AffairsExample(test=test, threshold=threshold)

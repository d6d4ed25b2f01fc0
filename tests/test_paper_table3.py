"""Appendix A, Table 3 of the AUC-consistency paper, reproduced from its counts.

Source: J. Li, "Area under the ROC Curve has the Most Consistent Evaluation for Binary
Classification", "Appendix A Prediction Results for Crime Recidivism" (Broward County
recidivism, 6 models, a 0.5 cutoff). The table prints the four counts and 18 metric
values rounded to 3 decimals, so a value reproduces when ``|ours - table| <= 0.0005``
(plus 1e-12 for the binary representation of the printed decimal).

Every row whose definition is the usual one reproduces in all six columns. The
two F-beta rows do not follow the usual F-beta definition; see
:func:`test_paper_fbeta_rows_are_not_the_usual_fbeta`.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from opsstats import ConfusionMatrix, UndefinedMetricWarning

MODELS = ("GBM", "GLM", "KNN", "LDA", "Random Forest", "randomguess")

# Table 3, first four rows, copied verbatim (note the paper's row order TP, FN, TN, FP).
TP = (339, 292, 296, 286, 311, 267)
FN = (223, 270, 266, 276, 251, 295)
TN = (517, 537, 521, 543, 543, 386)
FP = (164, 144, 160, 138, 138, 295)

# paper row name -> (our registry name, the six printed values)
TABLE3 = {
    "TPR": ("recall", (0.603, 0.520, 0.527, 0.509, 0.553, 0.475)),
    "TNR": ("specificity", (0.759, 0.789, 0.765, 0.797, 0.797, 0.567)),
    "PPV": ("precision", (0.674, 0.670, 0.649, 0.675, 0.693, 0.475)),
    "NPV": ("npv", (0.699, 0.665, 0.662, 0.663, 0.684, 0.567)),
    "Accuracy": ("accuracy", (0.689, 0.667, 0.657, 0.667, 0.687, 0.525)),
    "BA": ("balanced_accuracy", (0.681, 0.654, 0.646, 0.653, 0.675, 0.521)),
    "BI": ("informedness", (0.362, 0.308, 0.292, 0.306, 0.351, 0.042)),
    "F1_score": ("f1", (0.637, 0.585, 0.582, 0.580, 0.615, 0.475)),
    "MCC": ("mcc", (0.367, 0.321, 0.301, 0.322, 0.363, 0.042)),
    "Gmean": ("g_mean", (0.677, 0.640, 0.635, 0.637, 0.664, 0.519)),
    "Fowlkes_Mallows": ("fowlkes_mallows", (0.638, 0.590, 0.585, 0.586, 0.619, 0.475)),
    "Markedness": ("markedness", (0.373, 0.335, 0.311, 0.338, 0.377, 0.042)),
    "Diag_odds_ratio": ("diagnostic_odds_ratio", (4.792, 4.033, 3.623, 4.077, 4.875, 1.184)),
    "Jaccardindex": ("jaccard", (0.467, 0.414, 0.410, 0.409, 0.444, 0.312)),
    "Cohens_kappa": ("cohen_kappa", (0.366, 0.314, 0.297, 0.313, 0.357, 0.042)),
}
# The F-beta rows, beta = 0.5 and beta = 2, as printed.
PAPER_F05 = (0.352, 0.321, 0.319, 0.317, 0.338, 0.264)
PAPER_F2 = (0.512, 0.450, 0.453, 0.442, 0.477, 0.396)
# The AUC row (0.734, 0.718, 0.694, 0.717, 0.727, 0.524) is computed from scores over
# all thresholds, not from these confusion matrices, so it cannot be checked here.

TOL = 0.0005 + 1e-12  # half a unit in the 3rd decimal: the table's rounding


def _cm(j: int) -> ConfusionMatrix:
    return ConfusionMatrix(tp=TP[j], fp=FP[j], fn=FN[j], tn=TN[j])


def _metric(cm: ConfusionMatrix, name: str, **params) -> float:
    # Every count is positive, so no metric may be undefined: turn the warning into
    # an error so that a NaN cannot slip through as "not within tolerance".
    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedMetricWarning)
        return cm.metric(name, **params)


def test_counts_match_the_paper_text():
    # "The sample size is 6214, with 2775 positive cases ... and 3439 negatives"; the
    # test set is a 20% split, so each model's column sums to the same test set.
    for j in range(len(MODELS)):
        assert TP[j] + FN[j] == 562  # positives in the test set (every column)
        assert TN[j] + FP[j] == 681  # negatives in the test set


@pytest.mark.parametrize("paper_name", list(TABLE3))
@pytest.mark.parametrize("j", range(len(MODELS)), ids=MODELS)
def test_table3_row(paper_name: str, j: int):
    name, values = TABLE3[paper_name]
    ours = _metric(_cm(j), name)
    assert abs(ours - values[j]) <= TOL, (
        f"{paper_name} ({name}) for {MODELS[j]}: ours {ours:.6f}, paper {values[j]:.3f}"
    )


def test_table3_rows_are_not_vacuous():
    # The tolerance is tight enough to tell neighbouring metrics apart: e.g. F1 and
    # Fowlkes-Mallows differ by 0.001-0.005 here and each matches only its own row.
    gbm = _cm(0)
    assert abs(_metric(gbm, "fowlkes_mallows") - TABLE3["F1_score"][1][0]) > TOL
    assert abs(_metric(gbm, "f1") - TABLE3["Fowlkes_Mallows"][1][0]) > TOL
    assert abs(_metric(gbm, "informedness") - TABLE3["MCC"][1][0]) > TOL


def _usual_fbeta(tp: float, fp: float, fn: float, beta: float) -> float:
    """The usual F-beta, (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP) (van Rijsbergen;
    sklearn.metrics.fbeta_score), written out here from the counts."""
    b2 = beta * beta
    return (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp)


def _paper_fbeta(tp: float, fp: float, fn: float, beta: float) -> float:
    """The formula that reproduces the paper's F-beta rows:

        F = (1 + b^2) P R / ((1 + b^2) P + R)
          = (1 + b^2) TP / ((2 + b^2) TP + (1 + b^2) FN + FP)

    i.e. the usual ``(1 + b^2) P R / (b^2 P + R)`` with ``1 + b^2`` in place of
    ``b^2`` in the denominator. Its reciprocal is ``1/R + (1/P) / (1 + b^2)``: not a
    weighted mean of P and R (the weights sum to more than one), so it lies below
    both -- which is why every printed F-beta value is smaller than the model's
    precision and recall.
    """
    p = tp / (tp + fp)
    r = tp / (tp + fn)
    b2 = beta * beta
    return (1 + b2) * p * r / ((1 + b2) * p + r)


@pytest.mark.parametrize(
    "beta, row", [(0.5, PAPER_F05), (2.0, PAPER_F2)], ids=["F_beta_score_0.5", "F_beta_score_2"]
)
def test_paper_fbeta_rows_are_not_the_usual_fbeta(beta: float, row: tuple[float, ...]):
    """The paper's F_beta_score_0.5 and F_beta_score_2 rows are NOT the usual F-beta.

    Found numerically (all 12 printed numbers, to the table's 3 decimals): the rows
    are reproduced by ``(1 + b^2) P R / ((1 + b^2) P + R)`` (see ``_paper_fbeta``),
    and by none of these, which were also tried:

    - the usual ``(1 + b^2) P R / (b^2 P + R)`` (off by up to 0.32 / 0.10);
    - eq. 15 of T. Xie, "Evaluation metrics for classification" (notes, 2022), the
      weighted harmonic mean with weight ``b`` instead of ``b^2``,
      ``(1 + b) P R / (b P + R)`` (off by 0.30 / 0.12);
    - precision and recall swapped in either of the above (off by 0.26 / 0.19 and
      0.27 / 0.17);
    - ``(1 + b^2) P R / ((1 + b^2) R + P)`` (off by 0.01 / 0.09);
    - the usual formula without the ``1 + b^2`` factor (off by 0.19 / 0.39).

    Any weighted mean of P and R equals P = R for the random-guess column, where
    TP = 267 and FP = FN = 295 make P = R = 0.475; the paper prints 0.264 and 0.396
    there, 5/9 and 5/6 of 0.475, which is what the formula above gives at P = R.
    opsstats keeps the usual definition (what sklearn computes); this test records
    the difference so that nobody "fixes" ``fbeta`` to match the paper.
    """
    for j in range(len(MODELS)):
        tp, fp, fn = TP[j], FP[j], FN[j]
        ours = _metric(_cm(j), "fbeta", beta=beta)
        usual = _usual_fbeta(tp, fp, fn, beta)
        paper_formula = _paper_fbeta(tp, fp, fn, beta)
        # 1. opsstats computes the usual F-beta (to rounding error).
        assert ours == pytest.approx(usual, rel=1e-12, abs=1e-12)
        # 2. The usual F-beta is far from the printed row ...
        assert abs(usual - row[j]) > 0.05, (MODELS[j], usual, row[j])
        # 3. ... while the paper's formula reproduces it to the table's rounding.
        assert abs(paper_formula - row[j]) <= TOL, (MODELS[j], paper_formula, row[j])
        # 4. The paper's value lies below both precision and recall; the usual
        #    F-beta, a weighted harmonic mean, lies between them.
        p, r = tp / (tp + fp), tp / (tp + fn)
        assert row[j] < min(p, r)
        assert min(p, r) - 1e-12 <= usual <= max(p, r) + 1e-12


def test_usual_fbeta_reference_values():
    # Independent check of the usual F-beta for the GBM column, by hand:
    # beta = 0.5: 1.25*339 / (1.25*339 + 0.25*223 + 164) = 423.75 / 643.5
    # beta = 2:   5*339 / (5*339 + 4*223 + 164)            = 1695 / 2751
    gbm = _cm(0)
    assert _metric(gbm, "fbeta", beta=0.5) == pytest.approx(423.75 / 643.5, rel=1e-12)
    assert _metric(gbm, "fbeta", beta=2) == pytest.approx(1695 / 2751, rel=1e-12)
    # and F1 = 2*339 / (2*339 + 223 + 164) = 678 / 1065, the paper's 0.637
    assert _metric(gbm, "f1") == pytest.approx(678 / 1065, rel=1e-12)
    assert np.isclose(_metric(gbm, "fbeta", beta=1), _metric(gbm, "f1"), rtol=1e-14)

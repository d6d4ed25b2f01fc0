"""opsstats.sklearn: scorers inside scikit-learn's model selection, checked against the
same OPS computed by hand on each fold's predictions (exact equality), and
cross_evaluate's per-fold and combined rows."""

import subprocess
import sys

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_breast_cancer, load_iris, make_classification
from sklearn.inspection import permutation_importance
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    KFold,
    RepeatedStratifiedKFold,
    StratifiedKFold,
    TunedThresholdClassifierCV,
    cross_validate,
)
from sklearn.tree import DecisionTreeClassifier

from opsstats import ConfusionMatrix, ScoreCurve
from opsstats.sklearn import (
    cross_evaluate,
    make_metric_scorer,
    make_ops_scorer,
    metric_score,
    ops_score,
)
from opsstats.sklearn.cross_validation import corrected_t_interval


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return X[:, :8], y  # a weaker model: OPS away from 1


def _by_hand(est, X, y, cv, fn):
    """fn(fitted, X_test, y_test) on each fold of cv, fitted on its training rows."""
    out = []
    for train, test in cv.split(X, y):
        fitted = (
            LogisticRegression(max_iter=5000).set_params(**est.get_params()).fit(X[train], y[train])
        )
        out.append(fn(fitted, X[test], y[test]))
    return np.array(out)


def test_scorers_in_cross_validate_equal_the_ops_by_hand(cancer):
    X, y = cancer
    cv = KFold(4, shuffle=True, random_state=1)  # folds of different prevalence
    est = LogisticRegression(max_iter=5000)
    scoring = {
        "f1": make_ops_scorer("f1"),
        "pr": make_ops_scorer("pr_auc"),
        "prec": make_ops_scorer("precision@recall=0.9"),
        "mcc_t": make_ops_scorer("mcc", threshold=0.3),
        "npv": make_metric_scorer("npv"),
        "spec": make_metric_scorer("specificity"),
    }
    got = cross_validate(est, X, y, cv=cv, scoring=scoring)

    def f1(m, Xt, yt):
        return ConfusionMatrix.from_predictions(yt, m.predict(Xt)).ops("f1").estimate

    def pr(m, Xt, yt):
        return ScoreCurve.from_scores(yt, m.predict_proba(Xt)[:, 1]).ops("pr_auc").estimate

    def prec(m, Xt, yt):
        curve = ScoreCurve.from_scores(yt, m.predict_proba(Xt)[:, 1])
        return curve.ops("precision", at={"recall": 0.9}).estimate

    def mcc_t(m, Xt, yt):
        pred = m.predict_proba(Xt)[:, 1] >= 0.3
        return ConfusionMatrix.from_predictions(yt == 1, pred).ops("mcc").estimate

    def npv(m, Xt, yt):
        return ConfusionMatrix.from_predictions(yt, m.predict(Xt)).metric("npv")

    def spec(m, Xt, yt):
        return ConfusionMatrix.from_predictions(yt, m.predict(Xt)).metric("specificity")

    for name, fn in [("f1", f1), ("pr", pr), ("prec", prec), ("mcc_t", mcc_t)]:
        np.testing.assert_array_equal(got[f"test_{name}"], _by_hand(est, X, y, cv, fn))
    for name, fn in [("npv", npv), ("spec", spec)]:
        np.testing.assert_array_equal(got[f"test_{name}"], _by_hand(est, X, y, cv, fn))
    assert len({round(np.mean(y[t]), 4) for _, t in cv.split(X, y)}) == 4  # prevalences


def test_grid_search_single_and_multiple_metrics(cancer):
    X, y = cancer
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    grid = {"C": [0.01, 1.0]}
    single = GridSearchCV(
        LogisticRegression(max_iter=5000), grid, cv=cv, scoring=make_ops_scorer("mcc")
    ).fit(X, y)
    for i, C in enumerate(grid["C"]):
        est = LogisticRegression(max_iter=5000, C=C)
        hand = _by_hand(
            est,
            X,
            y,
            cv,
            lambda m, Xt, yt: (
                ConfusionMatrix.from_predictions(yt, m.predict(Xt)).ops("mcc").estimate
            ),
        )
        assert single.cv_results_["mean_test_score"][i] == pytest.approx(hand.mean(), abs=1e-15)
    multi = GridSearchCV(
        LogisticRegression(max_iter=5000),
        grid,
        cv=cv,
        scoring={"ops_f1": make_ops_scorer("f1"), "roc": make_ops_scorer("roc_auc")},
        refit="ops_f1",
    ).fit(X, y)
    best = int(np.argmax(multi.cv_results_["mean_test_ops_f1"]))
    assert multi.best_params_ == multi.cv_results_["params"][best]
    assert np.all(
        (multi.cv_results_["mean_test_roc"] > 0.5) & (multi.cv_results_["mean_test_roc"] <= 1)
    )


def test_tuned_threshold_by_the_ops_of_f1(cancer):
    X, y = cancer
    tuned = TunedThresholdClassifierCV(
        LogisticRegression(max_iter=5000),
        scoring=make_ops_scorer("f1"),
        cv=StratifiedKFold(3, shuffle=True, random_state=0),
        store_cv_results=True,
    ).fit(X, y)
    # the chosen threshold maximizes the mean over folds of the OPS of F1; the OPS is
    # monotone in F1 at a fixed prevalence, so the same threshold maximizes the mean F1
    res = tuned.cv_results_
    i = int(np.argmax(res["scores"]))
    assert tuned.best_threshold_ == res["thresholds"][i]
    assert 0 < tuned.best_threshold_ < 1
    pred = tuned.predict(X)
    assert np.array_equal(pred, tuned.estimator_.predict_proba(X)[:, 1] >= tuned.best_threshold_)


def test_permutation_importance_with_an_ops_scorer(cancer):
    X, y = cancer
    est = LogisticRegression(max_iter=5000).fit(X, y)
    scorer = make_ops_scorer("mcc")
    r = permutation_importance(est, X, y, scoring=scorer, n_repeats=3, random_state=0)
    base = ConfusionMatrix.from_predictions(y, est.predict(X)).ops("mcc").estimate
    assert r.importances.shape == (X.shape[1], 3)
    assert scorer(est, X, y) == base
    # importance = base score - the score with one column permuted: by hand, the score
    # of each permuted data set is an OPS in [0, 1], so importances lie in [base - 1, base]
    assert np.all((r.importances <= base) & (r.importances >= base - 1))
    # by hand, as scikit-learn permutes (one seed drawn from random_state, then one
    # RandomState per column shuffling the row order n_repeats times)
    seed = np.random.RandomState(0).randint(np.iinfo(np.int32).max + 1)
    for j in (0, 3):
        shuffler, idx, Xp = np.random.RandomState(seed), np.arange(len(X)), X.copy()
        for k in range(3):
            shuffler.shuffle(idx)
            Xp[:, j] = Xp[idx, j]  # the permutations compose, as scikit-learn's
            permuted = ConfusionMatrix.from_predictions(y, est.predict(Xp)).ops("mcc").estimate
            assert r.importances[j, k] == base - permuted
    # and with a constant column's permutation nothing changes
    Xc = np.column_stack([X, np.ones(len(X))])
    est_c = LogisticRegression(max_iter=5000).fit(Xc, y)
    rc = permutation_importance(est_c, Xc, y, scoring=scorer, n_repeats=2, random_state=0)
    assert np.all(rc.importances[-1] == 0)


def test_multiclass_macro_and_weighted():
    X, y = load_iris(return_X_y=True)
    est = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    pred = est.predict(X)
    per = [ConfusionMatrix.from_predictions(y == c, pred == c).ops("f1").estimate for c in range(3)]
    assert ops_score(y, pred, metric="f1", average="macro") == pytest.approx(
        np.mean(per), abs=1e-15
    )
    w = np.bincount(y) / len(y)
    assert ops_score(y, pred, metric="f1", average="weighted") == pytest.approx(
        float(np.sum(np.array(per) * w)), abs=1e-15
    )
    scorer = make_ops_scorer("f1", average="macro")
    assert scorer(est, X, y) == ops_score(y, pred, metric="f1", average="macro")


def test_metric_scorer_direction_and_values():
    assert make_metric_scorer("fpr")._sign == -1
    assert make_metric_scorer("npv")._sign == 1
    y, p = [0, 1, 1, 0, 1, 0], [0, 1, 0, 1, 1, 0]
    assert metric_score(y, p, metric="npv") == 2 / 3  # tn / (tn + fn) = 2 / 3
    assert metric_score(y, p, metric="markedness") == pytest.approx(2 / 3 + 2 / 3 - 1)


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"metric": "nope"}, ValueError, "nope"),
        ({"metric": "f1", "average": "micro"}, ValueError, "`average`"),
        ({"metric": "roc_auc", "average": "macro"}, ValueError, "`average`"),
    ],
)
def test_bad_input(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        ops_score([0, 1, 1, 2], [0, 1, 1, 2], **kwargs)


def test_corrected_t_interval_by_hand():
    v = np.array([0.70, 0.74, 0.72, 0.76, 0.73])
    m, lo, hi, se = corrected_t_interval(v, 0.25, 0.9)
    s2 = v.var(ddof=1)
    se_hand = np.sqrt((1 / 5 + 0.25) * s2)  # Nadeau & Bengio (2003), eq. for the corrected t
    q = stats.t.ppf(0.95, 4)
    assert (m, se) == pytest.approx((v.mean(), se_hand), abs=1e-15)
    assert (lo, hi) == pytest.approx((v.mean() - q * se_hand, v.mean() + q * se_hand), abs=1e-15)


def test_cross_evaluate_folds_equal_evaluate_on_each_fold(cancer):
    X, y = cancer
    cv = StratifiedKFold(4, shuffle=True, random_state=2)
    res = cross_evaluate(
        LogisticRegression(max_iter=5000), X, y, cv=cv, metrics=["f1", "pr_auc"], rng=5
    )
    for j, (train, test) in enumerate(cv.split(X, y)):
        m = LogisticRegression(max_iter=5000).fit(X[train], y[train])
        f = res.folds[(res.folds["fold"] == j) & (res.folds["metric"] == "f1")].iloc[0]
        cm = ConfusionMatrix.from_predictions(y[test], m.predict(X[test]))
        assert f["value"] == cm.metric("f1") and f["ops"] == cm.ops("f1").estimate
    mean = res.combined[
        (res.combined["metric"] == "f1") & (res.combined["combine"] == "mean")
    ].iloc[0]
    folds = res.folds[res.folds["metric"] == "f1"]
    ratio = np.mean([len(te) / len(tr) for tr, te in cv.split(X, y)])  # about 1/3
    m, lo, hi, _ = corrected_t_interval(folds["ops"], ratio, 0.95)
    assert (mean["ops"], mean["ops_ci_low"], mean["ops_ci_high"]) == pytest.approx(
        (m, lo, min(hi, 1.0)), abs=1e-15
    )
    pooled = res.combined[(res.combined["metric"] == "f1") & (res.combined["combine"] == "pooled")]
    assert len(pooled) == 1
    assert "folds" in str(res) and all(len(line) <= 100 for line in str(res).splitlines())


def test_cross_evaluate_repeated_and_grouped():
    X, y = make_classification(300, n_features=5, weights=[0.8], random_state=0)
    res = cross_evaluate(
        LogisticRegression(),
        X,
        y,
        cv=RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0),
        metrics=["mcc"],
        rng=0,
    )
    assert sorted(set(zip(res.folds["repeat"], res.folds["fold"], strict=True))) == [
        (r, f) for r in range(2) for f in range(3)
    ]
    assert list(res.combined["combine"]) == ["mean"]  # rows tested twice: no pooled row
    assert "5 df" in res.combined["method"].iloc[0]
    groups = np.arange(300) % 10
    res = cross_evaluate(
        LogisticRegression(), X, y, cv=GroupKFold(5), groups=groups, metrics=["f1"], rng=0
    )
    assert res.folds["fold"].nunique() == 5 and list(res.combined["combine"]) == ["mean", "pooled"]


def test_cross_evaluate_bad_input(cancer):
    X, y = cancer
    with pytest.raises(ValueError, match="`y` must hold two classes"):
        cross_evaluate(LogisticRegression(), *load_iris(return_X_y=True))
    with pytest.raises(ValueError, match="`pos_label`"):
        cross_evaluate(LogisticRegression(), X, y, pos_label=7)


def test_import_opsstats_does_not_import_sklearn():
    code = "import sys, opsstats; print('sklearn' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_without_sklearn_the_error_says_how_to_install():
    code = (
        "import sys; sys.modules['sklearn'] = None\n"
        "try:\n    import opsstats.sklearn\nexcept ImportError as e:\n    print(e)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert 'pip install "opsstats[sklearn]"' in out.stdout


def test_display_from_estimator_and_two_models_on_one_axes(cancer):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from opsstats import DirectedBinaryTree
    from opsstats.sklearn import OPSCurveDisplay

    X, y = cancer
    ref = DirectedBinaryTree(depth=5, n_curves=2000)
    a = LogisticRegression(max_iter=5000).fit(X[::2], y[::2])
    b = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X[::2], y[::2])
    d1 = OPSCurveDisplay.from_estimator(a, X[1::2], y[1::2], kind="roc", reference=ref, rng=0)
    d2 = OPSCurveDisplay.from_estimator(
        b, X[1::2], y[1::2], kind="roc", reference=ref, rng=0, ax=d1.ax_, band=None
    )
    assert d2.ax_ is d1.ax_ and d1.figure_ is d1.ax_.figure
    curve = ScoreCurve.from_scores(y[1::2], a.predict_proba(X[1::2])[:, 1])
    ops = curve.ops("roc_auc", reference=ref, ci="auto", rng=0)
    assert d1.ops.estimate == ops.estimate and d1.ops.ci == ops.ci
    label = d1.line_.get_label()
    assert label.startswith("LogisticRegression: AUC(ROC, trapezoid) = ")
    # an OPS within 0.01 of 1 gets a fourth decimal (the saturation rule, test_saturation)
    assert 0.99 < ops.estimate < 0.999
    assert f"OPS {ops.estimate:.4f} (95% CI {ops.ci.low:.4f}-{ops.ci.high:.4f})" in label
    assert d2.line_.get_label().startswith("DecisionTreeClassifier: ")
    np.testing.assert_allclose(d1.line_.get_xdata()[-1], 1.0)
    legend = [t.get_text() for t in d1.ax_.get_legend().get_texts()]
    assert label in legend and d2.line_.get_label() in legend
    assert len(d1.ax_.collections) == 1  # one band, drawn once
    assert d1.line_.get_color() != d2.line_.get_color()
    assert sum(t.startswith("chance") for t in legend) == 1
    plt.close(d1.figure_)


def test_display_legend_survives_an_ordinary_save(cancer):
    """``display.figure_.savefig(...)`` without ``bbox_inches="tight"`` keeps the legend,
    the only explanation of the OPS, its interval, the band and the chance level, with
    two models' long entries; and the chance level is not hidden under the median."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.image
    import matplotlib.pyplot as plt

    from opsstats import DirectedBinaryTree
    from opsstats.sklearn import OPSCurveDisplay

    X, y = cancer
    ref = DirectedBinaryTree(depth=5, n_curves=2000)
    a = LogisticRegression(max_iter=5000).fit(X[::2], y[::2])
    b = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X[::2], y[::2])
    for kind in ("roc", "pr"):
        d1 = OPSCurveDisplay.from_estimator(a, X[1::2], y[1::2], kind=kind, reference=ref, rng=0)
        OPSCurveDisplay.from_estimator(
            b, X[1::2], y[1::2], kind=kind, reference=ref, rng=0, ax=d1.ax_, band=None
        )
        buf = io.BytesIO()
        d1.figure_.savefig(buf, format="png")
        buf.seek(0)
        height, width = matplotlib.image.imread(buf).shape[:2]
        box = d1.ax_.get_legend().get_window_extent(d1.figure_.canvas.get_renderer())
        assert (width, height) == (round(d1.figure_.bbox.width), round(d1.figure_.bbox.height))
        assert -0.5 <= box.x0 <= box.x1 <= width + 0.5, (box, width)
        assert -0.5 <= box.y0 <= box.y1 <= height + 0.5, (box, height)
        legend = [t.get_text() for t in d1.ax_.get_legend().get_texts()]
        assert len(legend) == 4 and legend[1].startswith("DecisionTreeClassifier: ")
        (chance,) = [t for t in legend if t.startswith("chance")]
        assert chance.endswith(", also the DBT median")
        lines = [ln.get_label() for ln in d1.ax_.get_lines()]
        assert not [t for t in lines if t.startswith("DBT median")]
        plt.close(d1.figure_)


def test_display_standardized_curves():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from opsstats import DirectedBinaryTree
    from opsstats.ops import standardized_curve
    from opsstats.sklearn import OPSCurveDisplay

    rng = np.random.default_rng(0)
    y = rng.random(400) < 0.2
    s = rng.normal(y * 1.2, 1)
    ref = DirectedBinaryTree(depth=5, n_curves=2000)
    d = OPSCurveDisplay.from_predictions(
        y, s, kind="pr", name="m", reference=ref, rng=0, standardized=True
    )
    legend = [t.get_text() for t in d.ax_.get_legend().get_texts()]
    assert legend[0].startswith("m: AUC(PR, step) = ") and ", OPS " in legend[0]
    # the display's label keeps the statement of how wide the Monte Carlo bars are
    assert "\nbars ± 1.96 Monte Carlo s.e., at most ± " in legend[0]
    expected = standardized_curve(ScoreCurve.from_scores(y, s), reference=ref)
    np.testing.assert_allclose(d.line_.get_ydata(), expected["ops"], rtol=0, atol=0)
    assert "OPRC" in d.ax_.get_title()
    plt.close(d.figure_)
    with pytest.raises(ValueError, match="`standardized`"):
        OPSCurveDisplay.from_predictions(y, s, kind="roc", reference=ref, standardized=True)


def test_randomized_search_with_an_ops_scorer(cancer):
    from sklearn.model_selection import RandomizedSearchCV

    X, y = cancer
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    search = RandomizedSearchCV(
        LogisticRegression(max_iter=5000),
        {"C": [0.01, 0.1, 1.0]},
        n_iter=2,
        cv=cv,
        scoring=make_ops_scorer("mcc"),
        random_state=0,
    ).fit(X, y)
    for params, mean in zip(
        search.cv_results_["params"], search.cv_results_["mean_test_score"], strict=True
    ):
        hand = _by_hand(
            LogisticRegression(max_iter=5000, **params),
            X,
            y,
            cv,
            lambda m, Xt, yt: (
                ConfusionMatrix.from_predictions(yt, m.predict(Xt)).ops("mcc").estimate
            ),
        )
        assert mean == pytest.approx(hand.mean(), abs=1e-15)


def test_multilabel_estimator_macro_and_weighted():
    from sklearn.datasets import make_multilabel_classification
    from sklearn.neighbors import KNeighborsClassifier

    X, Y = make_multilabel_classification(300, n_classes=3, random_state=0)
    est = KNeighborsClassifier().fit(X[:200], Y[:200])
    pred = est.predict(X[200:])
    proba = np.column_stack([p[:, 1] for p in est.predict_proba(X[200:])])
    T = Y[200:]
    per = [
        ConfusionMatrix.from_predictions(T[:, j], pred[:, j]).ops("f1").estimate for j in range(3)
    ]
    assert make_ops_scorer("f1", average="macro")(est, X[200:], T) == pytest.approx(
        np.mean(per), abs=1e-15
    )
    w = T.mean(axis=0)
    assert make_ops_scorer("f1", average="weighted")(est, X[200:], T) == pytest.approx(
        float(np.sum(np.array(per) * w) / w.sum()), abs=1e-15
    )
    curves = [
        ScoreCurve.from_scores(T[:, j], proba[:, j]).ops("roc_auc").estimate for j in range(3)
    ]
    assert make_ops_scorer("roc_auc", average="macro")(est, X[200:], T) == pytest.approx(
        np.mean(curves), abs=1e-15
    )

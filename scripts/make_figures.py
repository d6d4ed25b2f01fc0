"""Write a PNG of every plot type of ``opsstats.plotting``, to look at.

Usage::

    python scripts/make_figures.py [OUTDIR] [--fast] [--dpi DPI]

OUTDIR defaults to a new temporary directory; its path is printed with every file.
The figures reproduce the paper's Figures 1 and 3 and draw the curve plots on a real
held-out set (the affairs data, Fair 1978, as shipped by statsmodels: a logistic model
fitted on half of it). ``--fast`` uses a small Directed Binary Tree (depth 7, 10,000
curves) instead of the paper's (depth 9, 100,000 curves). Measured on the project's
2-core machine shared with other jobs (load 15 to 20): the paper's reference took 118 s
of CPU and 13 min 12 s of wall clock, mostly the four curve bands; ``--fast`` 16 s of
CPU. The figures are saved as a user's ``savefig`` saves them (no
``bbox_inches="tight"``), so that a legend or a label outside the image shows. The
images are for looking at, not for the repository: do not commit them.
"""

from __future__ import annotations

import argparse
import inspect
import tempfile
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

from opsstats import ConfusionMatrix, DirectedBinaryTree, ScoreCurve, compare, evaluate
from opsstats.examples import affairs_example
from opsstats.plotting import (
    plot_curve,
    plot_distribution,
    plot_forest,
    plot_ops_function,
    plot_standardized_curve,
    plot_unit_square,
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "outdir",
        nargs="?",
        default=None,
        help="output directory (default: a new temporary directory)",
    )
    parser.add_argument(
        "--fast", action="store_true", help="a small DBT reference instead of the paper's"
    )
    parser.add_argument("--dpi", type=int, default=110)
    args = parser.parse_args(argv)
    out = Path(args.outdir) if args.outdir else Path(tempfile.mkdtemp(prefix="opsstats-figs-"))
    out.mkdir(parents=True, exist_ok=True)
    dbt = DirectedBinaryTree(depth=7, n_curves=10_000) if args.fast else DirectedBinaryTree()

    def save(ax, name: str) -> None:
        path = out / f"{name}.png"
        # an ordinary save, as a user's: what is outside the figure is not in the image
        ax.figure.savefig(path, dpi=args.dpi)
        plt.close(ax.figure)
        print(f"{path}  ({time.perf_counter() - start:.1f} s)")

    start = time.perf_counter()
    # Figure 1: the unit square at pi = 0.1 and 0.5, and the OPS function of F1
    save(plot_unit_square("f1", 0.6, 0.1), "unit_square_f1_pi0.1")
    save(plot_unit_square("f1", 0.6, 0.5), "unit_square_f1_pi0.5")
    save(plot_unit_square("fpr", 0.2, 0.3), "unit_square_fpr_lower_is_better")
    save(plot_ops_function("f1"), "ops_function_f1")
    save(plot_ops_function("diagnostic_odds_ratio"), "ops_function_dor_unbounded")
    # Figure 3: OPS of AUC(PR) and of precision at recall 0.8 under the DBT
    save(plot_ops_function("pr_auc", reference=dbt), "ops_function_pr_auc")
    save(
        plot_ops_function("precision", at={"recall": 0.8}, reference=dbt),
        "ops_function_precision_at_recall_0.8",
    )

    # A real classifier: logistic model of the affairs data, scored on a held-out half
    ex = affairs_example()
    test = ex.test
    curve = ScoreCurve.from_scores(test["had_affair"].to_numpy(), test["score"].to_numpy())
    for kind in ("pr", "roc", "lift", "gain"):  # with the operating point of the threshold
        save(plot_curve(curve, kind, reference=dbt, threshold=ex.threshold), f"curve_{kind}")
    # Figures 4b-7b: OPRC and OPS(lift) curve
    save(plot_standardized_curve(curve, reference=dbt), "standardized_oprc")
    save(
        plot_standardized_curve(curve, "lift", axis="rate", reference=dbt), "standardized_ops_lift"
    )
    if "ci" in inspect.signature(ScoreCurve.ops).parameters:  # curve intervals available
        save(
            plot_standardized_curve(curve, reference=dbt, ci="bootstrap", rng=0),
            "standardized_oprc_bootstrap_band",
        )

    # Forest plot of the tidy per-group table: OPS of F1 and MCC by marriage rating.
    # Rating 1 has no predicted negatives, so its MCC is 0/0: a gap with the reason.
    frame = evaluate(
        test,
        truth="had_affair",
        score="score",
        threshold=ex.threshold,
        metrics=("f1", "mcc"),
        by="rate_marriage",
        n_resamples=2000,
        rng=0,
    )
    save(plot_forest(frame), "forest_by_rate_marriage")
    # Forest plot of comparisons: the model against two single features, every pair
    # (DeLong's test of the ROC AUC, Holm-adjusted), a line at no difference
    y_test = test["had_affair"].to_numpy()
    rivals = {
        "model": test["score"].to_numpy(),
        "marriage rating": -test["rate_marriage"].to_numpy(),  # lower rating, more affairs
        "years married": test["yrs_married"].to_numpy(),
    }
    save(compare(y_test, rivals).plot(), "compare_forest_roc_auc")

    # Distributions: the posterior of an OPS (HPD keeps the OPS draws) and of F1
    cm = ConfusionMatrix.from_predictions(
        test["had_affair"].to_numpy(), (test["score"] >= ex.threshold).astype(int).to_numpy()
    )
    save(
        plot_distribution(cm.ops("f1", ci="dirichlet", interval="hpd", rng=1)),
        "distribution_ops_f1",
    )
    save(
        plot_distribution(cm.interval("f1", method="bootstrap", rng=1)), "distribution_f1_bootstrap"
    )
    # scikit-learn display (optional dependency): two models of the affairs data on one Axes
    try:
        from sklearn.linear_model import LogisticRegression
        from sklearn.tree import DecisionTreeClassifier

        from opsstats.sklearn import OPSCurveDisplay
    except ImportError:
        print("scikit-learn is not installed: the display figure is left out")
    else:
        # the held-out rows split again: fitted on one half, drawn on the other
        features = [c for c in test.columns if c not in ("had_affair", "score", "affairs")]
        X, y = test[features].to_numpy(float), test["had_affair"].to_numpy()
        X_train, y_train, X_test, y_test = X[::2], y[::2], X[1::2], y[1::2]
        models = [
            LogisticRegression(max_iter=5000),
            DecisionTreeClassifier(max_depth=3, random_state=0),
        ]
        ax = None
        for i, model in enumerate(models):
            display = OPSCurveDisplay.from_estimator(
                model.fit(X_train, y_train),
                X_test,
                y_test,
                kind="pr",
                reference=dbt,
                rng=0,
                ax=ax,
                band=(0.05, 0.95) if i == 0 else None,
            )
            ax = display.ax_
        save(ax, "sklearn_display_two_models_pr")
    print(f"wrote the figures to {out}")


if __name__ == "__main__":
    main()

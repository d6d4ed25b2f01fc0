"""Every public entry point of opsstats with one minimal valid call: the table from which
the fuzz suite generates its cases (``tests/test_fuzz_api.py`` runs them,
``benchmarks/fuzz_census.py`` counts their outcomes).

The public entry points (:func:`public_entry_points`) are, walking the package (every
module and package whose name has no leading underscore and which has ``__all__``):

* the functions in each ``__all__`` (one entry per function object, named where the
  walk meets it first: ``evaluate``, ``comparison.adjust_p_values``);
* the constructors of the classes in each ``__all__``, except the frozen dataclasses and
  named tuples (the result records the package builds: their fields are documented, not
  checked), the abstract bases and the warnings;
* the public methods, classmethods and staticmethods of those classes (the result and
  data classes' included), as ``Class.method``, defined in opsstats (not inherited from
  ``tuple`` or ``object``).

The command line's subcommands are entry points too: :func:`cli_subcommands` reads them
from the argparse parser; their cases are the generated ones of
``tests/cli_fuzz_cases.py`` (one minimal valid argv per subcommand there).

How to add the cases of a new entry point
-----------------------------------------
``tests/test_fuzz_api.py::test_every_public_entry_point_has_cases`` fails, naming it.
Add to :data:`ENTRIES` one line: its name and a function returning the callable and
the keyword arguments of one minimal valid call, e.g.::

    E("comparison.my_test", lambda: (my_test, {"y_true": Y(), "y_score": S()})),
    E("ScoreCurve.my_method", lambda: (curve().my_method, {"metric": "f1"})),

(for a method, the bound method of an instance from the fixtures below). Give every
argument whose value matters by keyword, and the options that switch work on (an
interval method with a small ``n_resamples``), so that the generator reaches them;
everything else is generated: each argument whose name or annotation has a kind in
``tests/fuzz_inputs.py`` gets every bad value of its kind, one at a time, and the
generic oracle judges the outcome. A new kind of argument is a line in
``fuzz_inputs.NAMES`` (and, if new, its bad values in ``fuzz_inputs.BAD``).
``free=("name",)`` marks arguments that take any value (a new metric's name);
``kinds=(("threshold", "curve_threshold"),)`` gives an argument a kind other than its
name's (a curve's threshold, where +inf and -inf are its ends). A call
that changes the package's state (a registration) is given as a wrapper that undoes
it, with ``target=`` the function whose signature the generator reads (see the
registries' entries); ``refused=`` marks a method that its class cannot serve (its
minimal call is the clear refusal naming that argument).

The generated cases check that bad input is refused clearly and that nothing else
breaks; they do not check numbers. Write the new entry point's correctness cases by
hand in ``tests/fuzz_cases.py`` (a value confirmed by an independent computation:
scikit-learn, exact Fraction arithmetic, a slow by-hand formula) or in its own test
module.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import pkgutil
import warnings
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, is_dataclass
from typing import Any

import numpy as np
import pandas as pd
from fuzz_inputs import BAD, Bad, Verdict, annotation_text, judge, kind_of, nan_locations

# ------------------------------------------------------------------------- fixtures
N = 60


@functools.cache
def _data() -> dict[str, Any]:
    rng = np.random.default_rng(27)
    y = (rng.random(N) < 0.4).astype(int)
    y[:2], y[2:4] = 1, 0
    s = np.round(rng.normal(y * 1.2, 1.0), 3)
    p = (s > 0.5).astype(int)
    y2 = rng.random((N, 3)) < [0.3, 0.5, 0.4]
    y2[:2], y2[2:4] = True, False
    s2 = np.round(rng.normal(y2 * 1.0, 1.0), 3)
    k = rng.integers(0, 3, N)
    k[:3] = [0, 1, 2]
    sk = rng.dirichlet(np.ones(3), N) + np.eye(3)[k] * 0.5
    sk /= sk.sum(axis=1, keepdims=True)
    s_b = np.round(s * 0.5 + rng.normal(0, 1, N), 3)
    return {
        "y": y,
        "s": s,
        "s_b": s_b,
        "p": p,
        "y2": y2,
        "s2": s2,
        "p2": s2 > 0.5,
        "k": k,
        "sk": sk,
    }


def Y() -> np.ndarray:
    return _data()["y"].copy()


def S() -> np.ndarray:
    return _data()["s"].copy()


def P() -> np.ndarray:
    return _data()["p"].copy()


def S2() -> np.ndarray:
    """A second classifier's scores of the same rows (not a monotone map of ``S``)."""
    return _data()["s_b"].copy()


def frame() -> pd.DataFrame:
    d = _data()
    return pd.DataFrame(
        {
            "y": d["y"],
            "s": d["s"],
            "p": d["p"],
            "g": np.where(np.arange(N) % 2 == 0, "a", "b"),
            "w": np.ones(N),
        }
    )


def long_frame() -> pd.DataFrame:
    """Two classifiers' scores of the same rows (``m``), matched by ``id``."""
    d = _data()
    rows = pd.DataFrame({"id": np.arange(N), "y": d["y"]})
    return pd.concat([rows.assign(m="A", s=d["s"]), rows.assign(m="B", s=d["s_b"])])


@functools.cache
def csv_file() -> str:
    """The frame as a CSV file (for the command line's ``main``)."""
    import tempfile

    path = f"{tempfile.mkdtemp(prefix='opsstats-fuzz-')}/predictions.csv"
    frame().to_csv(path, index=False)
    return path


@functools.cache
def curve() -> Any:
    from opsstats import ScoreCurve

    return ScoreCurve.from_scores(Y(), S())


@functools.cache
def prob_curve() -> Any:
    """A curve of scores in [0, 1] (the score-distribution measures need them)."""
    from opsstats import ScoreCurve

    return ScoreCurve.from_scores(Y(), 1 / (1 + np.exp(-S())))


@functools.cache
def cm() -> Any:
    from opsstats import ConfusionMatrix

    return ConfusionMatrix(tp=30, fp=20, fn=10, tn=40)


@functools.cache
def dbt() -> Any:
    from opsstats import DirectedBinaryTree

    return DirectedBinaryTree(depth=4, n_curves=1000, seed=31)


@functools.cache
def dbt_grid() -> Any:
    """A DBT that interpolates in prevalence (``prevalence_step``)."""
    from opsstats import DirectedBinaryTree

    return DirectedBinaryTree(depth=4, n_curves=1000, seed=31, prevalence_step=0.25)


@functools.cache
def binormal() -> Any:
    from opsstats import BinormalCurves

    return BinormalCurves(n_curves=500, n_points=17, seed=32)


@functools.cache
def empirical_curves() -> Any:
    from opsstats import EmpiricalCurves, ScoreCurve

    rng = np.random.default_rng(33)
    pool = []
    for _ in range(20):
        y = rng.random(40) < 0.4
        y[:2], y[2:4] = True, False
        pool.append(ScoreCurve.from_scores(y, rng.normal(y * 1.0, 1.0)))
    return EmpiricalCurves(pool)


@functools.cache
def empirical_points() -> Any:
    from opsstats import EmpiricalPoints

    rng = np.random.default_rng(34)
    return EmpiricalPoints(rng.uniform(0, 0.6, 200), rng.uniform(0, 0.6, 200))


@functools.cache
def multilabel() -> Any:
    from opsstats import MultiLabel

    d = _data()
    return MultiLabel.from_scores(d["y2"], d["s2"], threshold=0.5)


@functools.cache
def ops_result() -> Any:
    return cm().ops("f1", ci="dirichlet", n_resamples=200, rng=0)


@functools.cache
def ops_draws_result() -> Any:
    """An OPS with its draws kept (for plot_distribution and OPSResult.plot)."""
    return cm().ops("f1", ci="dirichlet", interval="hpd", n_resamples=200, rng=0)


@functools.cache
def interval_result() -> Any:
    return cm().interval("f1", n_resamples=200, rng=0)


@functools.cache
def comparison_result() -> Any:
    from opsstats.comparison import delong_test

    d = _data()
    return delong_test(d["y"], {"A": d["s"], "B": d["s_b"]})


@functools.cache
def comparison_table() -> Any:
    from opsstats import compare

    d = _data()
    return compare(d["y"], {"A": d["s"], "B": d["s_b"], "C": d["s"] + d["s_b"]})


@functools.cache
def multilabel_ops() -> Any:
    return multilabel().ops("f1", ci="dirichlet", n_resamples=200, rng=0)


@functools.cache
def evaluation_report() -> Any:
    from opsstats.report import report

    return report(frame(), truth="y", pred="p", metrics=["f1"], ci=None)


@functools.cache
def evaluation() -> Any:
    """``evaluate``'s table (an :class:`opsstats.grouped.Evaluation`)."""
    from opsstats import evaluate

    return evaluate(
        frame(), truth="y", score="s", threshold=0.5, metrics=["f1"], n_resamples=200, rng=0
    )


@functools.cache
def group_comparison() -> Any:
    """``evaluate(..., compare=COLUMN)``'s table (a :class:`opsstats.grouped.GroupComparison`)."""
    from opsstats import evaluate

    return evaluate(
        frame(), truth="y", score="s", compare="g", metrics=["roc_auc"], n_resamples=200, rng=0
    )


@functools.cache
def power_result() -> Any:
    from opsstats.comparison import power_roc_test

    return power_roc_test(0.7, ncases=50, ncontrols=50)


@functools.cache
def smooth() -> Any:
    from opsstats.curves import binormal_smooth

    return binormal_smooth(curve(), n=64)


@functools.cache
def iso() -> Any:
    from opsstats.curves import iso_line

    return iso_line("accuracy", 0.8, 1.0)


@functools.cache
def affairs() -> Any:
    from opsstats.examples import affairs_example

    return affairs_example()


@functools.cache
def display() -> Any:
    from opsstats.sklearn import OPSCurveDisplay

    return OPSCurveDisplay.from_predictions(Y(), S(), reference=dbt(), plot=False)


@functools.cache
def cv_result() -> Any:
    from opsstats.sklearn import cross_evaluate

    return cross_evaluate(*_estimator(), cv=2, metrics=["f1"], ci=None, rng=0)


@functools.cache
def profile() -> Any:
    """A prevalence profile with intervals (a few prevalences, small draws)."""
    from opsstats import ops_prevalence_profile

    return ops_prevalence_profile(
        cm(), "f1", [0.1, 0.3, 0.5], ci="dirichlet", n_resamples=200, rng=0
    )


@functools.cache
def cm_after() -> Any:
    """A second test set at another prevalence (the 'after' of a decomposition)."""
    from opsstats import ConfusionMatrix

    return ConfusionMatrix(tp=12, fp=30, fn=8, tn=90)


@functools.cache
def decomposition() -> Any:
    """A decomposition of F1 between two test sets (small draws)."""
    from opsstats import decompose

    return decompose(cm(), cm_after(), metric="f1", n_resamples=200, rng=0)


@functools.cache
def error_rates_change() -> Any:
    """The metric-free test of alpha and beta between two test sets."""
    from opsstats import classifier_change_test

    return classifier_change_test(cm(), cm_after(), metric="error_rates")


@functools.cache
def monitored() -> Any:
    """A classifier monitored across the two values of ``g`` (small draws)."""
    from opsstats import monitor

    return monitor(
        frame(), truth="y", score="s", threshold=0.5, time="g", metrics=["f1"],
        n_resamples=200, rng=0,
    )  # fmt: skip


def _estimator() -> tuple[Any, np.ndarray, np.ndarray]:
    from sklearn.linear_model import LogisticRegression

    d = _data()
    X = np.column_stack([d["s"], np.random.default_rng(6).normal(size=N)])
    return LogisticRegression(), X, d["y"]


def _registered(make: Callable[..., Any], unregister: Callable[[str], Any]) -> Callable:
    """``make(**kw)`` (a registration), undone after the call whatever it registered."""

    def call(**kw: Any) -> Any:
        name = kw.get("name")
        try:
            return make(**kw)
        finally:
            with contextlib.suppress(Exception):
                unregister(getattr(name, "name", name))

    return call


def _unregister(register: Callable[[], Any], unregister: Callable[[str], Any]) -> Callable:
    """``unregister(name)`` of a name registered just before (cleaned up if refused)."""

    def call(**kw: Any) -> Any:
        register()
        try:
            return unregister(**kw)
        finally:
            with contextlib.suppress(Exception):
                unregister("fuzz_entry")

    return call


def _recall(p: Any, a: Any, b: Any) -> Any:
    return 1 - b


def _prior_draw(cm: Any, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    return rng.beta(cm.fp + 1, cm.tn + 1, n), rng.beta(cm.fn + 1, cm.tp + 1, n)


# -------------------------------------------------------------------------- entries
@dataclass(frozen=True)
class Entry:
    """One public entry point and its minimal valid call: ``build()`` returns the
    callable and its keyword arguments (built afresh for every case)."""

    key: str
    build: Callable[[], tuple[Callable[..., Any], dict[str, Any]]]
    free: tuple[str, ...] = ()
    target: Callable[[], Callable[..., Any]] | None = None
    refused: str | None = None  # a method its class cannot serve: refused naming this
    kinds: tuple[tuple[str, str], ...] = ()  # (argument, kind): the kind its name has not


E = Entry


def _entries() -> list[Entry]:
    import opsstats.metrics.multiclass as mc
    from opsstats import (
        BetaErrors,
        BetterThanChance,
        BinormalCurves,
        ConfusionMatrix,
        DirectedBinaryTree,
        EmpiricalCurves,
        EmpiricalPoints,
        MultiLabel,
        ScoreCurve,
        Uniform,
        cite,
        classifier_change_test,
        compare,
        compare_groups,
        compare_test_sets,
        decompose,
        evaluate,
        frames,
        metrics,
        monitor,
        ops,
        ops_prevalence_profile,
        plotting,
    )
    from opsstats import comparison as cmp
    from opsstats import curves as cv
    from opsstats import report as report_module
    from opsstats import sklearn as sk
    from opsstats import uncertainty as unc
    from opsstats.cli import main
    from opsstats.comparison.delong import satterthwaite_df
    from opsstats.datasets import load_affairs
    from opsstats.examples import affairs_example
    from opsstats.grouped import Evaluation, GroupComparison, default_metrics
    from opsstats.reference.dbt import dbt_curves
    from opsstats.report import report
    from opsstats.sklearn.cross_validation import corrected_t_interval
    from opsstats.uncertainty import curve as ucurve
    from opsstats.uncertainty import methods
    from opsstats.uncertainty.curve import best

    d = _data
    ref = dbt
    pr = {"metric": "pr_auc", "reference": None}
    return [
        # --------------------------------------------------------- ConfusionMatrix
        E("ConfusionMatrix", lambda: (ConfusionMatrix, {"tp": 30, "fp": 20, "fn": 10, "tn": 40})),
        E("ConfusionMatrix.as_dict", lambda: (cm().as_dict, {})),
        E("ConfusionMatrix.at_prevalence", lambda: (cm().at_prevalence, {"prevalence": 0.3})),
        E(
            "ConfusionMatrix.from_predictions",
            lambda: (ConfusionMatrix.from_predictions, {"y_true": Y(), "y_pred": P()}),
        ),
        E(
            "ConfusionMatrix.from_rates",
            lambda: (
                ConfusionMatrix.from_rates,
                {"n": 100, "prevalence": 0.3, "alpha": 0.1, "beta": 0.2},
            ),
        ),
        E(
            "ConfusionMatrix.interval",
            lambda: (cm().interval, {"name": "f1", "n_resamples": 200, "rng": 0}),
        ),
        E("ConfusionMatrix.metric", lambda: (cm().metric, {"name": "f1"})),
        E("ConfusionMatrix.metrics", lambda: (cm().metrics, {})),
        E(
            "ConfusionMatrix.ops",
            lambda: (
                cm().ops,
                {"metric": "f1", "ci": "dirichlet", "n_resamples": 200, "rng": 0},
            ),
        ),
        E("ConfusionMatrix.plot", lambda: (cm().plot, {"metric": "f1"})),
        E("ConfusionMatrix.rates", lambda: (cm().rates, {})),
        E("ConfusionMatrix.summary", lambda: (cm().summary, {"digits": 4})),
        # -------------------------------------------------------------- ScoreCurve
        E(
            "ScoreCurve",
            lambda: (
                ScoreCurve,
                {
                    "thresholds": curve().thresholds.copy(),
                    "tps": curve().tps.copy(),
                    "fps": curve().fps.copy(),
                },
            ),
        ),
        E("ScoreCurve.at_prevalence", lambda: (curve().at_prevalence, {"prevalence": 0.3})),
        E("ScoreCurve.auc", lambda: (curve().auc, {"kind": "pr"})),
        E("ScoreCurve.aupc", lambda: (prob_curve().aupc, {})),
        E("ScoreCurve.aurc", lambda: (prob_curve().aurc, {})),
        E("ScoreCurve.best_threshold", lambda: (curve().best_threshold, {"method": "youden"})),
        E(
            "ScoreCurve.confusion_matrix",
            lambda: (curve().confusion_matrix, {"threshold": 0.5}),
            kinds=(("threshold", "curve_threshold"),),
        ),
        E("ScoreCurve.curve", lambda: (curve().curve, {"kind": "roc"})),
        E("ScoreCurve.det", lambda: (curve().det, {})),
        E("ScoreCurve.dm", lambda: (prob_curve().dm, {"kernel": 1})),
        E("ScoreCurve.eer", lambda: (curve().eer, {})),
        E("ScoreCurve.error_ratio", lambda: (prob_curve().error_ratio, {})),
        E(
            "ScoreCurve.from_counts",
            lambda: (
                ScoreCurve.from_counts,
                {"thresholds": [0.1, 0.5, 0.9], "positives": [1, 2, 3], "negatives": [3, 2, 1]},
            ),
        ),
        E(
            "ScoreCurve.from_scores",
            lambda: (ScoreCurve.from_scores, {"y_true": Y(), "y_score": S()}),
        ),
        E("ScoreCurve.gain", lambda: (curve().gain, {})),
        E("ScoreCurve.gini", lambda: (curve().gini, {})),
        E(
            "ScoreCurve.interval",
            lambda: (
                curve().interval,
                {"name": "roc_auc", "method": "bootstrap", "n_resamples": 200, "rng": 0},
            ),
        ),
        E("ScoreCurve.lift", lambda: (curve().lift, {})),
        E("ScoreCurve.nauc", lambda: (curve().nauc, {"kind": "pr"})),
        E(
            "ScoreCurve.ops",
            lambda: (
                curve().ops,
                {
                    **pr,
                    "reference": ref(),
                    "ci": "bootstrap",
                    "n_resamples": 200,
                    "rng": 0,
                },
            ),
        ),
        E("ScoreCurve.partial_auc", lambda: (curve().partial_auc, {"fpr_range": (0, 0.2)})),
        E("ScoreCurve.plot", lambda: (curve().plot, {"kind": "roc", "band": None})),
        E("ScoreCurve.pr", lambda: (curve().pr, {})),
        E("ScoreCurve.pui", lambda: (prob_curve().pui, {})),
        E("ScoreCurve.roc", lambda: (curve().roc, {})),
        E(
            "ScoreCurve.roc_points",
            lambda: (ScoreCurve.roc_points, {"y_true": Y(), "y_score": S()}),
        ),
        E("ScoreCurve.rui", lambda: (prob_curve().rui, {})),
        E("ScoreCurve.score_measures", lambda: (prob_curve().score_measures, {})),
        E("ScoreCurve.smooth", lambda: (curve().smooth, {"n": 64})),
        E("ScoreCurve.summary", lambda: (curve().summary, {"digits": 4})),
        E(
            "ScoreCurve.value_at",
            lambda: (curve().value_at, {"metric": "precision", "at": {"recall": 0.5}}),
        ),
        # -------------------------------------------------------------- MultiLabel
        E(
            "MultiLabel",
            lambda: (
                MultiLabel,
                {"labels": ["a", "b", "c"], "truth": d()["y2"].copy(), "pred": d()["p2"].copy()},
            ),
        ),
        E("MultiLabel.confusion_matrices", lambda: (multilabel().confusion_matrices, {})),
        E("MultiLabel.curves", lambda: (multilabel().curves, {})),
        E(
            "MultiLabel.evaluate",
            lambda: (
                multilabel().evaluate,
                {"metrics": ["f1"], "ci": "dirichlet", "n_resamples": 200, "rng": 0},
            ),
        ),
        E(
            "MultiLabel.from_frame",
            lambda: (
                MultiLabel.from_frame,
                {
                    "data": pd.DataFrame(
                        {
                            "a": d()["y2"][:, 0],
                            "b": d()["y2"][:, 1],
                            "sa": d()["s2"][:, 0],
                            "sb": d()["s2"][:, 1],
                        }
                    ),
                    "truth": ["a", "b"],
                    "score": ["sa", "sb"],
                    "threshold": 0.5,
                },
            ),
        ),
        E(
            "MultiLabel.from_multiclass",
            lambda: (
                MultiLabel.from_multiclass,
                {"y_true": d()["k"].copy(), "y_score": d()["sk"].copy()},
            ),
        ),
        E(
            "MultiLabel.from_predictions",
            lambda: (
                MultiLabel.from_predictions,
                {"y_true": d()["y2"].copy(), "y_pred": d()["p2"].copy()},
            ),
        ),
        E(
            "MultiLabel.from_scores",
            lambda: (
                MultiLabel.from_scores,
                {"y_true": d()["y2"].copy(), "y_score": d()["s2"].copy(), "threshold": 0.5},
            ),
        ),
        E("MultiLabel.micro", lambda: (multilabel().micro, {})),
        E(
            "MultiLabel.ops",
            lambda: (
                multilabel().ops,
                {
                    "metric": "f1",
                    "weights": [1.0, 2.0, 1.0],
                    "ci": "dirichlet",
                    "n_resamples": 200,
                    "rng": 0,
                },
            ),
        ),
        # ------------------------------------------------ the package's functions
        E(
            "ops_prevalence_profile",
            lambda: (
                ops_prevalence_profile,
                {
                    "obj": cm(),
                    "metric": "f1",
                    "prevalences": [0.1, 0.3, 0.5],
                    "ci": "dirichlet",
                    "n_resamples": 200,
                    "rng": 0,
                },
            ),
        ),
        E("PrevalenceProfile.plot", lambda: (profile().plot, {})),
        E("PrevalenceProfile.summary", lambda: (profile().summary, {"digits": 4})),
        E("PrevalenceProfile.to_frame", lambda: (profile().to_frame, {})),
        E("PrevalenceProfile.to_string", lambda: (profile().to_string, {"digits": 4})),
        E(
            "monitor",
            lambda: (
                monitor,
                {
                    "data": frame(),
                    "truth": "y",
                    "score": "s",
                    "threshold": 0.5,
                    "time": "g",
                    "metrics": ["f1"],
                    "n_resamples": 200,
                    "rng": 0,
                },
            ),
        ),
        E(
            "decompose",
            lambda: (
                decompose,
                {
                    "before": cm(),
                    "after": cm_after(),
                    "metric": "f1",
                    "ci": "dirichlet",
                    "n_resamples": 200,
                    "rng": 0,
                },
            ),
        ),
        E("Decomposition.plot", lambda: (decomposition().plot, {})),
        E("Decomposition.summary", lambda: (decomposition().summary, {"digits": 4})),
        E("Decomposition.to_frame", lambda: (decomposition().to_frame, {})),
        E("Decomposition.to_string", lambda: (decomposition().to_string, {"digits": 4})),
        E(
            "classifier_change_test",
            lambda: (
                classifier_change_test,
                {
                    "before": cm(),
                    "after": cm_after(),
                    "metric": "f1",
                    "n_resamples": 200,
                    "rng": 0,
                },
            ),
        ),
        E("ErrorRatesChange.summary", lambda: (error_rates_change().summary, {"digits": 4})),
        E("ErrorRatesChange.to_frame", lambda: (error_rates_change().to_frame, {})),
        E("ErrorRatesChange.to_string", lambda: (error_rates_change().to_string, {"digits": 4})),
        E("MonitorResult.flagged", lambda: (monitored().flagged, {})),
        E("MonitorResult.plot", lambda: (monitored().plot, {})),
        E("MonitorResult.summary", lambda: (monitored().summary, {"digits": 4})),
        E("MonitorResult.to_frame", lambda: (monitored().to_frame, {})),
        E("MonitorResult.to_string", lambda: (monitored().to_string, {"digits": 4})),
        E(
            "evaluate",
            lambda: (
                evaluate,
                {
                    "data": frame(),
                    "truth": "y",
                    "score": "s",
                    "threshold": 0.5,
                    "metrics": ["f1"],
                    "by": "g",
                    "n_resamples": 200,
                    "rng": 0,
                },
            ),
        ),
        E(
            "compare",
            lambda: (
                compare,
                {
                    "y_true": Y(),
                    "y_score": {"A": S(), "B": S2()},
                    "method": "bootstrap",
                    "n_resamples": 200,
                    "rng": 0,
                },
            ),
        ),
        E(
            "compare_test_sets",
            lambda: (
                compare_test_sets,
                {
                    "test_sets": {"a": (Y()[:30], P()[:30]), "b": (Y()[30:], P()[30:])},
                    "metric": "f1",
                    "n_resamples": 200,
                    "rng": 0,
                },
            ),
        ),
        E(
            "compare_groups",
            lambda: (
                compare_groups,
                {
                    "data": long_frame(),
                    "truth": "y",
                    "compare_by": "m",
                    "score": "s",
                    "threshold": 0.5,
                    "metrics": ["f1"],
                    "id": "id",
                    "method": "bootstrap",
                    "n_resamples": 200,
                    "rng": 0,
                },
            ),
        ),
        E("ComparisonResult.plot", lambda: (comparison_result().plot, {})),
        E("ComparisonResult.summary", lambda: (comparison_result().summary, {"digits": 4})),
        E("ComparisonResult.to_frame", lambda: (comparison_result().to_frame, {})),
        E("ComparisonResult.to_string", lambda: (comparison_result().to_string, {"digits": 4})),
        E("cite", lambda: (cite, {"format": "text"})),
        # --------------------------------------------------------------- references
        E("Uniform", lambda: (Uniform, {})),
        E(
            "Uniform.ops",
            lambda: (Uniform().ops, {"metric": "f1", "value": 0.6, "prevalence": 0.3}),
        ),
        E(
            "BetaErrors",
            lambda: (BetaErrors, {"a_alpha": 1.0, "b_alpha": 4.0, "a_beta": 1.0, "b_beta": 4.0}),
        ),
        E(
            "BetaErrors.ops",
            lambda: (
                BetaErrors(1.0, 4.0, 1.0, 4.0).ops,
                {"metric": "f1", "value": 0.6, "prevalence": 0.3},
            ),
        ),
        E("BetterThanChance", lambda: (BetterThanChance, {})),
        E(
            "BetterThanChance.ops",
            lambda: (BetterThanChance().ops, {"metric": "f1", "value": 0.6, "prevalence": 0.3}),
        ),
        E(
            "EmpiricalPoints",
            lambda: (EmpiricalPoints, {"alpha": [0.1, 0.2, 0.3], "beta": [0.3, 0.2, 0.1]}),
        ),
        E(
            "EmpiricalPoints.from_confusion_matrices",
            lambda: (EmpiricalPoints.from_confusion_matrices, {"matrices": [cm(), cm()]}),
        ),
        E(
            "EmpiricalPoints.ops",
            lambda: (empirical_points().ops, {"metric": "f1", "value": 0.6, "prevalence": 0.3}),
        ),
        E(
            "EmpiricalPoints.reference_values",
            lambda: (
                empirical_points().reference_values,
                {"metric": metrics.resolve_metric("f1"), "prevalence": 0.3},
            ),
        ),
        E("DirectedBinaryTree", lambda: (DirectedBinaryTree, {"depth": 3, "n_curves": 200})),
        E(
            "DirectedBinaryTree.band",
            lambda: (ref().band, {"curve": "roc", "prevalence": 0.3, "x": [0.2, 0.5]}),
        ),
        E(
            "DirectedBinaryTree.grid_nodes",
            lambda: (dbt_grid().grid_nodes, {"pis": np.array([0.3])}),
        ),
        E(
            "DirectedBinaryTree.interpolated_values",
            lambda: (dbt_grid().interpolated_values, {"quantity": "pr_auc", "prevalence": 0.3}),
        ),
        E("DirectedBinaryTree.iter_curves", lambda: (lambda: next(iter(ref().iter_curves())), {})),
        E(
            "DirectedBinaryTree.ops",
            lambda: (ref().ops, {"metric": "pr_auc", "value": 0.5, "prevalence": 0.3}),
        ),
        E(
            "DirectedBinaryTree.precompute",
            lambda: (ref().precompute, {"quantities": ["pr_auc"], "prevalence": [0.3]}),
        ),
        E(
            "DirectedBinaryTree.reference_values",
            lambda: (
                ref().reference_values,
                {"quantity": ref()._quantity("pr_auc", None, None, {}), "prevalence": 0.3},
            ),
        ),
        E("BinormalCurves", lambda: (BinormalCurves, {"n_curves": 200, "n_points": 9})),
        E(
            "BinormalCurves.band",
            lambda: (binormal().band, {"curve": "roc", "prevalence": 0.3, "x": [0.2, 0.5]}),
        ),
        E(
            "BinormalCurves.grid_nodes",
            lambda: (binormal().grid_nodes, {"pis": np.array([0.3])}),
            refused="prevalence_step",
        ),
        E(
            "BinormalCurves.interpolated_values",
            lambda: (binormal().interpolated_values, {"quantity": "pr_auc", "prevalence": 0.3}),
            refused="prevalence_step",
        ),
        E(
            "BinormalCurves.iter_curves",
            lambda: (lambda: next(iter(binormal().iter_curves())), {}),
        ),
        E(
            "BinormalCurves.ops",
            lambda: (binormal().ops, {"metric": "pr_auc", "value": 0.5, "prevalence": 0.3}),
        ),
        E(
            "BinormalCurves.precompute",
            lambda: (binormal().precompute, {"quantities": ["pr_auc"], "prevalence": [0.3]}),
        ),
        E(
            "BinormalCurves.reference_values",
            lambda: (
                binormal().reference_values,
                {"quantity": binormal()._quantity("pr_auc", None, None, {}), "prevalence": 0.3},
            ),
        ),
        E("EmpiricalCurves", lambda: (EmpiricalCurves, {"curves": [curve(), curve()]})),
        E(
            "EmpiricalCurves.ops",
            lambda: (empirical_curves().ops, {"metric": "pr_auc", "value": 0.5, "prevalence": 0.3}),
        ),
        E(
            "EmpiricalCurves.reference_values",
            lambda: (
                empirical_curves().reference_values,
                {
                    "quantity": empirical_curves()._quantity("pr_auc", None, None, {}),
                    "prevalence": 0.3,
                },
            ),
        ),
        # ------------------------------------------------------------------ results
        E("OPSResult.plot", lambda: (ops_draws_result().plot, {})),
        E("OPSResult.summary", lambda: (ops_result().summary, {"digits": 4})),
        E("OPSResult.to_frame", lambda: (ops_result().to_frame, {})),
        E("OPSResult.to_string", lambda: (ops_result().to_string, {"digits": 4})),
        E("IntervalResult.plot", lambda: (interval_result().plot, {})),
        E("IntervalResult.summary", lambda: (interval_result().summary, {"digits": 4})),
        E("IntervalResult.to_frame", lambda: (interval_result().to_frame, {})),
        E("IntervalResult.to_string", lambda: (interval_result().to_string, {"digits": 4})),
        # -------------------------------------------------------------- command line
        E(
            "cli.main",
            lambda: (
                main,
                {
                    "argv": [
                        "report",
                        csv_file(),
                        "--truth",
                        "y",
                        "--pred",
                        "p",
                        "--metric",
                        "f1",
                        "--ci",
                        "none",
                    ]
                },
            ),
        ),
        # -------------------------------------------------------------- comparison
        E("comparison.ComparisonTable.plot", lambda: (comparison_table().plot, {})),
        E(
            "comparison.ComparisonTable.summary",
            lambda: (comparison_table().summary, {"digits": 4}),
        ),
        E("comparison.ComparisonTable.to_frame", lambda: (comparison_table().to_frame, {})),
        E(
            "comparison.delong_test",
            lambda: (cmp.delong_test, {"y_true": Y(), "y_score": {"A": S(), "B": S2()}}),
        ),
        E(
            "comparison.delong_unpaired",
            lambda: (
                cmp.delong_unpaired,
                {"curve_a": curve(), "curve_b": ScoreCurve.from_scores(Y()[:40], S()[:40])},
            ),
        ),
        E(
            "comparison.delong_covariance",
            lambda: (cmp.delong_covariance, {"y_true": Y(), "y_score": {"A": S(), "B": S2()}}),
        ),
        E(
            "comparison.mcnemar_test",
            lambda: (cmp.mcnemar_test, {"y_true": Y(), "y_pred": {"A": P(), "B": 1 - P()}}),
        ),
        E(
            "comparison.venkatraman_test",
            lambda: (
                cmp.venkatraman_test,
                {"y_true": Y(), "y_score": {"A": S(), "B": S2()}, "n_resamples": 200, "rng": 0},
            ),
        ),
        E(
            "comparison.venkatraman_unpaired_test",
            lambda: (
                cmp.venkatraman_unpaired_test,
                {
                    "test_sets": {"a": (Y()[:30], S()[:30]), "b": (Y()[30:], S2()[30:])},
                    "n_resamples": 200,
                    "rng": 0,
                },
            ),
        ),
        E(
            "comparison.adjust_p_values",
            lambda: (cmp.adjust_p_values, {"p_values": [0.01, 0.04, 0.03], "method": "holm"}),
        ),
        E(
            "comparison.power_roc_test",
            lambda: (cmp.power_roc_test, {"auc": 0.7, "ncases": 50, "ncontrols": 50}),
        ),
        E(
            "comparison.power_roc_test_curves",
            lambda: (cmp.power_roc_test_curves, {"y_true": Y(), "y_score": [S()], "power": 0.9}),
        ),
        E(
            "comparison.power_roc_test_params",
            lambda: (
                cmp.power_roc_test_params,
                {
                    "a1": 1.2,
                    "b1": 1.0,
                    "a2": 0.8,
                    "b2": 1.2,
                    "rn": 0.5,
                    "ra": 0.5,
                    "delta": 0.05,
                    "fpr1": (0, 0.2),
                    "fpr2": (0, 0.2),
                    "power": 0.8,
                },
            ),
        ),
        E("comparison.PowerResult.to_string", lambda: (power_result().to_string, {"digits": 4})),
        E(
            "comparison.ops_sample_size",
            lambda: (
                cmp.ops_sample_size,
                {
                    "metric": "f1",
                    "prevalence": 0.2,
                    "alpha": 0.1,
                    "beta": 0.2,
                    "half_width": 0.1,
                    "n_sims": 20,
                    "n_draws": 200,
                    "rng": 0,
                },
            ),
        ),
        E(
            "comparison.ops_power",
            lambda: (
                cmp.ops_power,
                {
                    "metric": "f1",
                    "n": 200,
                    "prevalence": 0.3,
                    "alpha": 0.1,
                    "beta": 0.2,
                    "prevalence_b": 0.3,
                    "alpha_b": 0.2,
                    "beta_b": 0.3,
                    "n_sims": 20,
                    "n_draws": 200,
                    "rng": 0,
                },
            ),
        ),
        E(
            "comparison.unpaired_ops_tests",
            lambda: (
                cmp.unpaired_ops_tests,
                {
                    "counts_a": ([40, 35], [10, 12], [10, 15], [140, 138]),
                    "counts_b": ([30, 31], [20, 22], [20, 19], [130, 128]),
                    "n_draws": 200,
                    "rng": 0,
                },
            ),
        ),
        E("comparison.binormal_fit", lambda: (cmp.binormal_fit, {"curve": curve()})),
        E(
            "comparison.obuchowski_variance",
            lambda: (cmp.obuchowski_variance, {"a": 1.2, "b": 1.0, "kappa": 1.0, "fpr": (0, 0.2)}),
        ),
        E(
            "comparison.obuchowski_covariance",
            lambda: (
                cmp.obuchowski_covariance,
                {
                    "a1": 1.2,
                    "b1": 1.0,
                    "a2": 0.8,
                    "b2": 1.2,
                    "rn": 0.5,
                    "ra": 0.5,
                    "kappa": 1.0,
                    "fpr1": (0, 0.2),
                    "fpr2": (0, 0.2),
                },
            ),
        ),
        E(
            "comparison.delong.satterthwaite_df",
            lambda: (satterthwaite_df, {"parts": [(0.01, 20), (0.02, 30)]}),
        ),
        # ------------------------------------------------------------------ curves
        E("curves.ideal_auc", lambda: (cv.ideal_auc, {"curve": "pr", "prevalence": 0.3})),
        E(
            "curves.ops_prevalence_invariant",
            lambda: (cv.ops_prevalence_invariant, {"metric": "roc_auc"}),
        ),
        E("curves.dm", lambda: (cv.dm, {"curve": prob_curve(), "kernel": 1})),
        E("curves.rui", lambda: (cv.rui, {"curve": prob_curve()})),
        E("curves.aurc", lambda: (cv.aurc, {"curve": prob_curve()})),
        E("curves.pui", lambda: (cv.pui, {"curve": prob_curve()})),
        E("curves.aupc", lambda: (cv.aupc, {"curve": prob_curve()})),
        E("curves.error_ratio", lambda: (cv.error_ratio, {"curve": prob_curve()})),
        E("curves.score_measures", lambda: (cv.score_measures, {"curve": prob_curve()})),
        E(
            "curves.multiclass_roc_auc",
            lambda: (
                cv.multiclass_roc_auc,
                {"y_true": d()["k"].copy(), "y_score": d()["sk"].copy()},
            ),
        ),
        E(
            "curves.pairwise_auc",
            lambda: (cv.pairwise_auc, {"y_true": d()["k"].copy(), "y_score": d()["sk"].copy()}),
        ),
        E("curves.roc_hull", lambda: (cv.roc_hull, {"curves": curve()})),
        E(
            "curves.optimal_point",
            lambda: (
                cv.optimal_point,
                {"curves": curve(), "prevalence": 0.3, "cost_fp": 1.0, "cost_fn": 2.0},
            ),
        ),
        E(
            "curves.iso_line",
            lambda: (cv.iso_line, {"metric": "accuracy", "value": 0.8, "skew": 1.0}),
        ),
        E(
            "curves.skew_ratio",
            lambda: (cv.skew_ratio, {"prevalence": 0.3, "cost_fp": 1.0, "cost_fn": 2.0}),
        ),
        E("curves.calibrate", lambda: (cv.calibrate, {"curve": curve()})),
        E("curves.calibrated_curve", lambda: (cv.calibrated_curve, {"curve": curve()})),
        E("curves.binormal_smooth", lambda: (cv.binormal_smooth, {"curve": curve(), "n": 64})),
        E("curves.BinormalSmooth.best_point", lambda: (smooth().best_point, {"method": "youden"})),
        E(
            "curves.BinormalSmooth.partial_auc",
            lambda: (smooth().partial_auc, {"fpr_range": (0, 0.2)}),
        ),
        E("curves.BinormalSmooth.to_string", lambda: (smooth().to_string, {"digits": 4})),
        E(
            "curves.BinormalSmooth.value_at",
            lambda: (smooth().value_at, {"metric": "recall", "at": {"fpr": 0.2}}),
        ),
        E("curves.hull.IsoLine.tpr", lambda: (iso().tpr, {"fpr": [0.1, 0.2]})),
        # ------------------------------------------- data, examples, frames, grouped
        E("datasets.load_affairs", lambda: (load_affairs, {})),
        E("examples.affairs_example", lambda: (affairs_example, {"threshold": 0.5, "seed": 0})),
        E("examples.AffairsExample.report", lambda: (affairs().report, {"ci": None})),
        E(
            "frames.count_tables",
            lambda: (
                frames.count_tables,
                {"data": frame(), "truth": "y", "pred": "p", "by": ["g"]},
            ),
        ),
        E(
            "frames.joint_counts",
            lambda: (
                frames.joint_counts,
                {
                    "data": pd.DataFrame({"a": d()["y2"][:, 0], "b": d()["y2"][:, 1]}),
                    "truth": ["a", "b"],
                },
            ),
        ),
        E("frames.is_frame", lambda: (frames.is_frame, {"data": frame()}), free=("data",)),
        E("grouped.default_metrics", lambda: (default_metrics, {"labels": True, "scores": True})),
        # the tables evaluate returns: their constructor is pandas' DataFrame's, which takes
        # any data a DataFrame takes (free: nothing of opsstats checks it)
        E(
            "grouped.Evaluation",
            lambda: (Evaluation, {"data": evaluation().to_frame()}),
            free=("data", "copy"),
        ),
        E("grouped.Evaluation.summary", lambda: (evaluation().summary, {"digits": 4})),
        E("grouped.Evaluation.to_frame", lambda: (evaluation().to_frame, {})),
        E(
            "grouped.GroupComparison",
            lambda: (GroupComparison, {"data": group_comparison().to_frame()}),
            free=("data", "copy"),
        ),
        E("grouped.GroupComparison.summary", lambda: (group_comparison().summary, {"digits": 4})),
        E("grouped.GroupComparison.to_frame", lambda: (group_comparison().to_frame, {})),
        # ------------------------------------------------------------------ metrics
        E(
            "metrics.register_metric",
            lambda: (
                _registered(metrics.register_metric, metrics.unregister_metric),
                {"name": "fuzz_entry", "func": _recall, "direction": "higher", "range": (0, 1)},
            ),
            free=("name",),
            target=lambda: metrics.register_metric,
        ),
        E(
            "metrics.unregister_metric",
            lambda: (
                _unregister(
                    lambda: metrics.register_metric(
                        "fuzz_entry", _recall, direction="higher", range=(0, 1), overwrite=True
                    ),
                    metrics.unregister_metric,
                ),
                {"name": "fuzz_entry"},
            ),
            target=lambda: metrics.unregister_metric,
        ),
        E("metrics.get_metric", lambda: (metrics.get_metric, {"name": "f1"})),
        E(
            "metrics.resolve_metric",
            lambda: (metrics.resolve_metric, {"metric": "fbeta", "beta": 2}),
            free=("beta",),  # F-beta's weight, any positive number (not an error rate)
        ),
        E("metrics.available_metrics", lambda: (metrics.available_metrics, {})),
        E("metrics.metric_table", lambda: (metrics.metric_table, {})),
        E(
            "metrics.Metric.bind",
            lambda: (metrics.get_metric("fbeta").bind, {"beta": 2}),
            free=("beta",),
        ),
        E(
            "metrics.multiclass.class_confusion",
            lambda: (
                mc.class_confusion,
                {"y_true": d()["k"].copy(), "y_pred": d()["k"][::-1].copy()},
            ),
        ),
        E(
            "metrics.multiclass.class_index",
            lambda: (mc.class_index, {"values": d()["k"].copy(), "classes": np.array([0, 1, 2])}),
        ),
        E(
            "metrics.multiclass.cohen_kappa",
            lambda: (mc.cohen_kappa, {"y_true": d()["k"].copy(), "y_pred": d()["k"][::-1].copy()}),
        ),
        E(
            "metrics.multiclass.multiclass_mcc",
            lambda: (
                mc.multiclass_mcc,
                {"y_true": d()["k"].copy(), "y_pred": d()["k"][::-1].copy()},
            ),
        ),
        E("multilabel.MultiLabelOPS.plot", lambda: (multilabel_ops().plot, {})),
        E("multilabel.MultiLabelOPS.summary", lambda: (multilabel_ops().summary, {"digits": 4})),
        E("multilabel.MultiLabelOPS.to_frame", lambda: (multilabel_ops().to_frame, {})),
        E(
            "multilabel.MultiLabelOPS.to_string",
            lambda: (multilabel_ops().to_string, {"digits": 4}),
        ),
        # ---------------------------------------------------------------------- ops
        E(
            "ops.confusion_matrix_ops",
            lambda: (ops.confusion_matrix_ops, {"cm": cm(), "metric": "f1"}),
        ),
        E(
            "ops.curve_ops",
            lambda: (ops.curve_ops, {"curve": curve(), "metric": "pr_auc", "reference": ref()}),
        ),
        E(
            "ops.standardized_curve",
            lambda: (ops.standardized_curve, {"curve": curve(), "points": 3, "reference": ref()}),
        ),
        E("ops.default_reference", lambda: (ops.default_reference, {"kind": "point"})),
        # ----------------------------------------------------------------- plotting
        E(
            "plotting.plot_ops_function",
            lambda: (plotting.plot_ops_function, {"metric": "f1", "prevalences": (0.2, 0.4)}),
        ),
        E("plotting.plot_monitor", lambda: (plotting.plot_monitor, {"result": monitored()})),
        E(
            "plotting.plot_decomposition",
            lambda: (plotting.plot_decomposition, {"decomposition": decomposition()}),
        ),
        E(
            "plotting.plot_prevalence_profile",
            lambda: (plotting.plot_prevalence_profile, {"profile": profile()}),
        ),
        E(
            "plotting.plot_unit_square",
            lambda: (plotting.plot_unit_square, {"metric": "f1", "value": 0.6, "prevalence": 0.3}),
        ),
        E(
            "plotting.plot_curve",
            lambda: (plotting.plot_curve, {"curve": curve(), "reference": ref(), "points": 20}),
        ),
        E(
            "plotting.plot_standardized_curve",
            lambda: (
                plotting.plot_standardized_curve,
                {"curve": curve(), "points": 3, "reference": ref()},
            ),
        ),
        E(
            "plotting.plot_forest",
            lambda: (plotting.plot_forest, {"frame": evaluation_report().table}),
        ),
        E(
            "plotting.plot_distribution",
            lambda: (plotting.plot_distribution, {"result": ops_draws_result(), "bins": 20}),
        ),
        E(
            "plotting.plot_hull",
            lambda: (plotting.plot_hull, {"curves": curve(), "prevalence": 0.3}),
        ),
        # ---------------------------------------------------------------- reference
        E(
            "reference.dbt.dbt_curves",
            lambda: (dbt_curves, {"m": 10, "depth": 3, "rng": np.random.default_rng(0)}),
        ),
        # ------------------------------------------------------------------- report
        E("report.EvaluationReport.plot", lambda: (evaluation_report().plot, {})),
        E(
            "report.EvaluationReport.render",
            lambda: (evaluation_report().render, {"fmt": "csv", "digits": 4}),
        ),
        E("report.EvaluationReport.summary", lambda: (evaluation_report().summary, {"digits": 4})),
        E("report.EvaluationReport.to_csv", lambda: (evaluation_report().to_csv, {})),
        E("report.EvaluationReport.to_frame", lambda: (evaluation_report().to_frame, {})),
        E("report.EvaluationReport.to_json", lambda: (evaluation_report().to_json, {})),
        E("report.json_rows", lambda: (report_module.json_rows, {"table": frame()})),
        E(
            "report.report",
            lambda: (
                report,
                {
                    "data": frame(),
                    "truth": "y",
                    "pred": "p",
                    "metrics": ["f1"],
                    "by": "g",
                    "n_resamples": 200,
                },
            ),
        ),
        # ------------------------------------------------------------------ sklearn
        E(
            "sklearn.OPSCurveDisplay",
            lambda: (
                sk.OPSCurveDisplay,
                {"curve": curve(), "kind": "pr", "ops": display().ops, "reference": ref()},
            ),
        ),
        E(
            "sklearn.OPSCurveDisplay.from_estimator",
            lambda: (
                sk.OPSCurveDisplay.from_estimator,
                {
                    "estimator": _estimator()[0].fit(*_estimator()[1:]),
                    "X": _estimator()[1],
                    "y": _estimator()[2],
                    "reference": ref(),
                },
            ),
        ),
        E(
            "sklearn.OPSCurveDisplay.from_predictions",
            lambda: (
                sk.OPSCurveDisplay.from_predictions,
                {"y_true": Y(), "y_score": S(), "reference": ref(), "plot": False},
            ),
        ),
        E("sklearn.OPSCurveDisplay.plot", lambda: (display().plot, {})),
        E(
            "sklearn.cross_evaluate",
            lambda: (
                sk.cross_evaluate,
                {
                    "estimator": _estimator()[0],
                    "X": _estimator()[1],
                    "y": _estimator()[2],
                    "cv": 2,
                    "metrics": ["f1"],
                    "threshold": 0.5,
                    "n_resamples": 200,
                    "rng": 0,
                },
            ),
        ),
        E(
            "sklearn.make_metric_scorer",
            lambda: (sk.make_metric_scorer, {"metric": "f1", "threshold": 0.5}),
            free=("pos_label",),  # the folds' labels are unknown when the scorer is made
        ),
        E(
            "sklearn.make_ops_scorer",
            lambda: (sk.make_ops_scorer, {"metric": "f1", "threshold": 0.5}),
            free=("pos_label",),
        ),
        E(
            "sklearn.metric_score",
            lambda: (
                sk.metric_score,
                {"y_true": Y(), "y_response": S(), "metric": "f1", "threshold": 0.5},
            ),
        ),
        E(
            "sklearn.ops_score",
            lambda: (
                sk.ops_score,
                {"y_true": Y(), "y_response": S(), "metric": "f1", "threshold": 0.5},
            ),
        ),
        E(
            "sklearn.cross_validation.CrossValidationResult.summary",
            lambda: (cv_result().summary, {}),
        ),
        E(
            "sklearn.cross_validation.corrected_t_interval",
            lambda: (
                corrected_t_interval,
                {"values": [0.7, 0.75, 0.72, 0.8], "test_to_train": 0.25},
            ),
        ),
        # -------------------------------------------------------------- uncertainty
        E(
            "uncertainty.binomial_interval",
            lambda: (unc.binomial_interval, {"successes": 7, "trials": 20}),
        ),
        E(
            "uncertainty.confusion_interval",
            lambda: (
                unc.confusion_interval,
                {"cm": cm(), "name": "f1", "n_resamples": 200, "rng": 0},
            ),
        ),
        E(
            "uncertainty.confusion_ops",
            lambda: (
                unc.confusion_ops,
                {"cm": cm(), "metric": "f1", "ci": "dirichlet", "n_resamples": 200, "rng": 0},
            ),
        ),
        E(
            "uncertainty.curve_interval",
            lambda: (
                unc.curve_interval,
                {
                    "curve": curve(),
                    "name": "roc_auc",
                    "method": "bootstrap",
                    "n_resamples": 200,
                    "rng": 0,
                },
            ),
        ),
        E(
            "uncertainty.curve_ops_interval",
            lambda: (
                unc.curve_ops_interval,
                {
                    "curve": curve(),
                    "metric": "pr_auc",
                    "reference": ref(),
                    "ci": "bootstrap",
                    "n_resamples": 200,
                    "rng": 0,
                },
            ),
        ),
        E("uncertainty.delong_roc", lambda: (unc.delong_roc, {"curve": curve()})),
        E(
            "uncertainty.curve.curve_ops_intervals",
            lambda: (
                ucurve.curve_ops_intervals,
                {
                    "curve": curve(),
                    "quantities": [("pr_auc", "bootstrap")],
                    "reference": ref(),
                    "confidence_level": 0.95,
                    "n_resamples": 200,
                    "rng_for": lambda method, cells: np.random.default_rng(0),
                },
            ),
        ),
        E(
            "uncertainty.curve.delong_components",
            lambda: (ucurve.delong_components, {"curve": curve()}),
        ),
        E(
            "uncertainty.curve.delong_components_from_counts",
            lambda: (
                ucurve.delong_components_from_counts,
                {"tps": curve().tps.copy(), "fps": curve().fps.copy()},
            ),
        ),
        E(
            "uncertainty.curve.best.best_threshold_interval",
            lambda: (
                best.best_threshold_interval,
                {"curve": curve(), "n_resamples": 200, "rng": 0},
            ),
        ),
        E(
            "uncertainty.curve.best.threshold_interval",
            lambda: (
                best.threshold_interval,
                {"curve": curve(), "thresholds": [0.0, 0.5], "n_resamples": 200, "rng": 0},
            ),
        ),
        E(
            "uncertainty.methods.IntervalMethod.draws",
            lambda: (
                methods.IntervalMethod("fuzz_entry", _prior_draw, "a flat prior").draws,
                {"cm": cm(), "n": 100, "rng": np.random.default_rng(0)},
            ),
        ),
        E(
            "uncertainty.methods.register_interval_method",
            lambda: (
                _registered(methods.register_interval_method, methods.unregister_interval_method),
                {"name": "fuzz_entry", "draw": _prior_draw, "description": "a flat prior"},
            ),
            free=("name",),
            target=lambda: methods.register_interval_method,
        ),
        E(
            "uncertainty.methods.unregister_interval_method",
            lambda: (
                _unregister(
                    lambda: methods.register_interval_method(
                        "fuzz_entry", _prior_draw, description="a flat prior", overwrite=True
                    ),
                    methods.unregister_interval_method,
                ),
                {"name": "fuzz_entry"},
            ),
            target=lambda: methods.unregister_interval_method,
        ),
        E("uncertainty.methods.interval_methods", lambda: (methods.interval_methods, {})),
        E(
            "uncertainty.methods.registered_interval_methods",
            lambda: (methods.registered_interval_methods, {}),
        ),
        E(
            "uncertainty.methods.get_interval_method",
            lambda: (methods.get_interval_method, {"name": "dirichlet"}),
        ),
    ]


ENTRIES_BY_KEY: dict[str, Entry] = {}


def entries() -> dict[str, Entry]:
    """The entries, by key (built on first use: the imports are the package's)."""
    if not ENTRIES_BY_KEY:
        ENTRIES_BY_KEY.update((e.key, e) for e in _entries())
    return ENTRIES_BY_KEY


# ---------------------------------------------------------------- the enumeration
def _public_modules(package: Any) -> Iterator[Any]:
    yield package
    for info in sorted(
        pkgutil.walk_packages(package.__path__, package.__name__ + "."), key=lambda m: m.name
    ):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        module = importlib.import_module(info.name)
        if hasattr(module, "__all__"):
            yield module


def _is_record(cls: type) -> bool:
    frozen = is_dataclass(cls) and cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    return bool(frozen) or (issubclass(cls, tuple) and hasattr(cls, "_fields"))


def _methods(cls: type) -> Iterator[str]:
    for name in sorted(dir(cls)):
        if name.startswith("_"):
            continue
        static = inspect.getattr_static(cls, name)
        func = static.__func__ if isinstance(static, staticmethod | classmethod) else static
        if not inspect.isfunction(func):
            continue  # properties, attributes, nested classes
        if not getattr(func, "__module__", "").startswith("opsstats"):
            continue  # inherited from tuple or object
        yield name


def public_entry_points(package: Any = None) -> list[str]:
    """The keys of every public entry point (see the module docstring for the rule)."""
    if package is None:
        import opsstats as package
    seen: dict[int, str] = {}
    keys: list[str] = []
    for module in _public_modules(package):
        prefix = module.__name__[len(package.__name__) + 1 :]
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.ismodule(obj) or not callable(obj) or id(obj) in seen:
                continue
            key = f"{prefix}.{name}" if prefix else name
            seen[id(obj)] = key
            if not inspect.isclass(obj):
                keys.append(key)
                continue
            if issubclass(obj, Warning) or inspect.isabstract(obj):
                continue
            if not _is_record(obj):
                keys.append(key)
            keys.extend(f"{key}.{m}" for m in _methods(obj))
    return keys


def cli_subcommands() -> list[str]:
    """The subcommands of the ``opsstats`` command, from its argparse parser."""
    import argparse

    from opsstats.cli import build_parser

    parser = build_parser()
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return sorted(name for a in subs for name in a.choices)


def missing_entries(keys: list[str] | None = None) -> list[str]:
    """The public entry points without cases (a minimal valid call in :data:`ENTRIES`)."""
    return [k for k in (public_entry_points() if keys is None else keys) if k not in entries()]


# ------------------------------------------------------------------- the generator
@dataclass(frozen=True)
class Generated:
    """One generated case: an entry point, the argument given a bad value (None: the
    minimal valid call itself) and the bad value."""

    key: str
    argument: str | None
    bad: Bad | None

    @property
    def label(self) -> str:
        if self.argument is None or self.bad is None:
            return f"{self.key}: the minimal valid call"
        return f"{self.key}: {self.argument} = {self.bad.name}"

    def run(self) -> Verdict:
        entry = entries()[self.key]
        try:
            func, kwargs = entry.build()
        except Exception as exc:  # the fixture itself: a bug in this table or the package
            return Verdict("other exception", f"building the call: {type(exc).__name__}: {exc}")
        if self.argument is not None and self.bad is not None:
            kwargs = dict(kwargs)
            kwargs[self.argument] = self.bad.make(kwargs.get(self.argument), kwargs)
        argument, bad = self.argument, self.bad
        if entry.refused is not None:  # its minimal call is the clear refusal
            argument, bad = entry.refused, Bad("not served by this class", None, shown=("needs",))
        try:
            return judge(lambda: func(**kwargs), argument, bad, lambda: structure(self.key))
        finally:
            _close_figures()


_STRUCTURE: dict[str, set[str]] = {}


def structure(key: str) -> set[str]:
    """The NaN locations of the entry point's minimal valid call (its result's
    structure: see ``fuzz_inputs``), computed once per process."""
    if key not in _STRUCTURE:
        found: set[str] = set()
        with contextlib.suppress(Exception), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            func, kwargs = entries()[key].build()
            found = nan_locations(func(**kwargs))
        _close_figures()
        _STRUCTURE[key] = found
    return _STRUCTURE[key]


def _close_figures() -> None:
    import matplotlib.pyplot as plt

    plt.close("all")


_ARRAY_KINDS = ("labels", "scores", "weights")


def _parameters(entry: Entry, func: Callable[..., Any]) -> list[inspect.Parameter]:
    target = entry.target() if entry.target is not None else func
    try:
        params = list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        return []
    return [
        p
        for p in params
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.name not in ("self", "cls")
    ]


def generate(entry: Entry) -> list[Generated]:
    """The minimal valid call and, for every argument with a kind, each bad value of
    its kind (relative ones only where the call gives the argument a value)."""
    try:
        func, kwargs = entry.build()
    except Exception:  # reported by running the minimal call (an older checkout, say)
        return [Generated(entry.key, None, None)]
    params = {p.name: p for p in _parameters(entry, func)}
    for name in kwargs:  # arguments through **kwargs (ops_score's threshold)
        params.setdefault(name, inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY))
    given = dict(entry.kinds)
    kinds = {
        name: given.get(name) or kind_of(name, p.annotation)
        for name, p in params.items()
        if name not in entry.free
    }
    arrays = [n for n, k in kinds.items() if k in _ARRAY_KINDS and kwargs.get(n) is not None]
    cases = [Generated(entry.key, None, None)]
    if entry.refused is not None:
        return cases
    for name, kind in kinds.items():
        if kind is None:
            continue
        annotation = annotation_text(params[name].annotation)
        for bad in BAD[kind]:
            if bad.relative and kwargs.get(name) is None:
                continue  # nothing to mutate
            paired = len([a for a in arrays if a != name]) > 0
            default = params[name].default
            bad = bad.resolved(annotation, paired, None if default is None else ...)
            cases.append(Generated(entry.key, name, bad))
    return cases


def all_cases() -> list[Generated]:
    """Every generated case of every entry point (the census runs them all)."""
    return [case for entry in entries().values() for case in generate(entry)]


def sample(cases: list[Generated], per_entry: int) -> list[Generated]:
    """A deterministic sample: every entry point's minimal valid call, then of its
    mutations at most ``per_entry``, chosen by a hash of their labels (the same ones
    every run, different ones for a different table)."""
    chosen: list[Generated] = []
    by_entry: dict[str, list[Generated]] = {}
    for case in cases:
        by_entry.setdefault(case.key, []).append(case)
    for group in by_entry.values():
        chosen.append(group[0])
        rest = sorted(group[1:], key=lambda c: zlib.crc32(c.label.encode()))
        chosen.extend(rest[:per_entry])
    return chosen

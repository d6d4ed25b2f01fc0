"""The fuzz suite: every public entry point fed bad input, and the inputs that broke one.

Three parts:

* the hand-written table ``tests/fuzz_cases.py``: cases with independent expected values
  (scikit-learn, statsmodels, pROC's numbers, exact integer or ``Fraction``
  arithmetic, a 50-digit integral, the single-threaded numbers) or with the exact
  refusal they must get;
* the generated cases of ``tests/fuzz_entry_points.py``: for every public entry point
  (:func:`fuzz_entry_points.public_entry_points`: the functions and classes of each
  public module's ``__all__``, the classes' public methods), one minimal valid call,
  and that call with one argument given each bad value of its kind (NaN, inf, None,
  empty, one class, all ties, huge and tiny numbers, wrong types, ragged and nullable
  arrays, mismatched lengths, out-of-range and resource-sized values;
  ``tests/fuzz_inputs.py``), judged by the generic oracle: a clear error (a
  ``ValueError``/``TypeError`` naming the argument and what was received, one line,
  raised within 64 MiB) or a valid result (no NaN without a warning or a reason);
* hypothesis properties over the same classes of input.

The default run takes a deterministic sample of the generated cases (every minimal
call and :data:`PER_ENTRY` mutations of each, chosen by a hash of their names); the
work-sizing ones run, all of them, in a child process limited to 4 GiB of address
space. ``benchmarks/fuzz_census.py`` runs every case, each in a worker process with a
memory and time limit, and counts the outcomes (``benchmarks/results/fuzz_census.md``).
The thread-stress cases of the table run in ``tests/test_shared_state.py``.

How to add the cases of a new public entry point
------------------------------------------------
:func:`test_every_public_entry_point_has_cases` fails and names it. Then:

1. add its minimal valid call to ``ENTRIES`` in ``tests/fuzz_entry_points.py``: one
   ``E("name", lambda: (callable, {keyword arguments}))`` line, the name as the test
   printed it (``comparison.my_test``, ``ScoreCurve.my_method``), every argument that
   matters given by keyword, the options that switch work on included (an interval
   method, a small ``n_resamples``). The generator does the rest: every argument whose
   name or annotation has a kind gets every bad value of that kind. A new kind of
   argument is a line in ``NAMES`` of ``tests/fuzz_inputs.py`` (its bad values in
   ``BAD``); ``free=`` names arguments that take any value (a new metric's name);
   a call that registers something is a wrapper that undoes it, with ``target=`` the
   function whose signature is read (see the registries' entries).
2. add its correctness cases by hand to ``tests/fuzz_cases.py`` (or its own test
   module): a value confirmed by an independent computation, with the source call
   written beside it.

A new subcommand of the ``opsstats`` command gets its minimal command in
``MINIMAL_ARGV`` of ``tests/cli_fuzz_cases.py`` (``tests/test_cli_fuzz.py`` fails
until it does); its options are mutated from the argparse parser.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_fuzz_cases import MINIMAL_ARGV
from fuzz_cases import CASES, OUTCOMES, classify
from fuzz_entry_points import (
    ENTRIES_BY_KEY,
    all_cases,
    cli_subcommands,
    entries,
    missing_entries,
    public_entry_points,
    sample,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsstats
from opsstats import ConfusionMatrix, ScoreCurve, Uniform
from opsstats.uncertainty.curve import delong_roc

ROOT = Path(__file__).resolve().parents[1]
GOOD = ("clear error", "correct", "valid result")
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

RESOURCE = "resource limits"
IN_PROCESS = [c for c in CASES if not c.heavy and c.group != RESOURCE]
LIMITED = [i for i, c in enumerate(CASES) if c.group == RESOURCE]

#: Mutations per entry point in the default run's sample.
PER_ENTRY = 3
#: Entry points whose minimal call takes seconds (the default curve reference, fitting
#: models): the census runs their cases; the default run leaves them out of the sample.
SLOW = ("examples.AffairsExample.report", "examples.affairs_example", "sklearn.cross_evaluate")
GENERATED = all_cases()
SIZED = [i for i, c in enumerate(GENERATED) if c.bad is not None and c.bad.expect == "sized"]
SAMPLE = [
    c
    for c in sample([c for i, c in enumerate(GENERATED) if i not in set(SIZED)], PER_ENTRY)
    if c.key not in SLOW
]


def test_the_table_covers_every_group_and_outcome_class():
    groups = {c.group for c in CASES}
    assert {"ordinary", "thresholds", "big integers", RESOURCE, "p-values"} <= groups
    assert len(CASES) >= 250 and OUTCOMES[:3] == GOOD
    assert len({c.label for c in CASES}) == len(CASES)  # every case named once


@pytest.mark.parametrize("case", IN_PROCESS, ids=[c.label for c in IN_PROCESS])
def test_case(case):
    outcome, detail = classify(case)
    assert outcome in GOOD[:2], f"{case.label}: {outcome}: {detail}"


def _in_limited_process(code: str) -> list:
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


_LIMIT = (
    "import json, resource, sys\nsys.path.insert(0, 'tests')\n"
    "resource.setrlimit(resource.RLIMIT_AS, (4 * 2**30, 4 * 2**30))\n"
)


def test_size_limit_cases_in_a_process_with_limited_memory():
    """The resource cases of the table in a child process limited to 4 GiB of address
    space: a regression that tries to allocate tens of GB fails there, not on the
    machine. Each must be refused with the estimate and the limit in the message, having
    allocated at most 64 MiB."""
    code = (
        _LIMIT + "from fuzz_cases import CASES, classify\n"
        f"print(json.dumps([classify(CASES[i]) for i in {LIMITED!r}]))\n"
    )
    results = _in_limited_process(code)
    bad = [
        f"{CASES[i].label}: {o}: {d}"
        for i, (o, d) in zip(LIMITED, results, strict=True)
        if o != "clear error"
    ]
    assert not bad, bad
    assert len(results) == 19


def test_generated_work_sizing_cases_in_a_process_with_limited_memory():
    """Every work-sizing argument of every entry point given 1e9 and 1e30 (all of them,
    not a sample), in a child process limited to 4 GiB: refused with the memory
    estimate, or answered within 64 MiB."""
    code = (
        _LIMIT + "import matplotlib\nmatplotlib.use('Agg')\n"
        "from fuzz_entry_points import all_cases\n"
        "cases = all_cases()\n"
        f"print(json.dumps([[cases[i].label, *vars(cases[i].run()).values()] for i in {SIZED!r}]))\n"
    )
    results = _in_limited_process(code)
    bad = [f"{label}: {o}: {d}" for label, o, d in results if o not in GOOD]
    assert not bad, bad
    assert len(results) == len(SIZED) >= 40


@pytest.mark.parametrize("case", SAMPLE, ids=[c.label for c in SAMPLE])
def test_generated_case(case):
    verdict = case.run()
    assert verdict.outcome in GOOD, f"{case.label}: {verdict.outcome}: {verdict.detail}"


def test_every_public_entry_point_has_cases():
    """The table reaches every public entry point (and names none that is gone), the
    command's subcommands included (their cases: ``tests/cli_fuzz_cases.py``)."""
    public = public_entry_points()
    assert missing_entries(public) == [], "add their minimal calls to fuzz_entry_points"
    assert sorted(set(entries()) - set(public)) == [], "entries of no public entry point"
    assert len(public) >= 200
    assert sorted(set(cli_subcommands()) - set(MINIMAL_ARGV)) == [], "add to MINIMAL_ARGV"


def test_the_enumeration_fails_for_a_new_function_or_method(monkeypatch):
    """A public function (or a method of a public class) added without cases is named
    by the check above: a dummy function planted in ``opsstats.comparison``'s
    ``__all__`` and a dummy method on ``ConfusionMatrix``."""

    def dummy_test(y_true, y_score):
        """A new public function without fuzz cases."""

    def dummy_method(self, metric):
        """A new public method without fuzz cases."""

    dummy_method.__module__ = "opsstats.confusion"
    monkeypatch.setattr(opsstats.comparison, "dummy_test", dummy_test, raising=False)
    monkeypatch.setattr(
        opsstats.comparison, "__all__", [*opsstats.comparison.__all__, "dummy_test"]
    )
    monkeypatch.setattr(ConfusionMatrix, "dummy_method", dummy_method, raising=False)
    assert missing_entries() == ["ConfusionMatrix.dummy_method", "comparison.dummy_test"]
    with pytest.raises(AssertionError, match="add their minimal calls"):
        test_every_public_entry_point_has_cases()


def test_the_generated_cases_reach_every_kind_and_outcome():
    """The generator applies every kind's bad values somewhere, and the sample both
    refuses and accepts."""
    kinds_seen = {c.bad.name for c in GENERATED if c.bad is not None}
    assert {"NaN inside", "nullable <NA>", "ragged", "empty", "1e9", "mismatched length"} <= (
        kinds_seen
    )
    assert len(GENERATED) >= 3000 and len(SAMPLE) >= 600
    assert set(ENTRIES_BY_KEY) == set(entries())


# ------------------------------------------------------------------- properties
_COUNT = st.one_of(
    st.integers(min_value=-5, max_value=2**80),
    st.floats(allow_nan=True, allow_infinity=True),
    st.complex_numbers(max_magnitude=10),
    st.booleans(),
    st.text(max_size=3),
    st.none(),
)


@SETTINGS
@given(tp=_COUNT, fn=st.integers(0, 10))
def test_counts_of_any_size_and_type(tp, fn):
    """A count is kept exactly (an int stays that int, up to 2**63 - 1) and its metrics
    are the exact ratios, or it is refused naming `tp` and what was received."""
    try:
        cm = ConfusionMatrix(tp=tp, fp=3, fn=fn, tn=4)
    except (ValueError, TypeError) as exc:  # either outcome is drawn: no pytest.raises
        assert "`tp`" in str(exc) and len(str(exc)) < 600  # noqa: PT017
        return
    if isinstance(tp, int):
        assert cm.tp == tp and isinstance(cm.tp, int)
    else:
        assert cm.tp == tp
    if cm.tp + fn > 0:
        # the metrics are functions of the rates, so a count below about 1e-19 of its
        # class's total is lost to rounding (docs/method.md#inputs-and-limits): the
        # value is right to 1e-16 absolute, and to 1e-15 relative above that
        exact = Fraction(cm.tp) / (Fraction(cm.tp) + fn)
        assert cm.metric("recall") == pytest.approx(float(exact), rel=1e-15, abs=1e-16)


_BIG = st.integers(min_value=-(2**63), max_value=2**63 - 1)


@SETTINGS
@given(
    data=st.lists(st.tuples(st.booleans(), _BIG), min_size=4, max_size=30),
    spread=st.integers(0, 3),
)
def test_auc_of_integer_scores_of_any_size(data, spread):
    """Integer scores are sorted and tied as integers: the ROC AUC (and DeLong's, the
    same statistic) equals the exact share of ordered (positive, negative) pairs."""
    labels = [y for y, _ in data]
    if all(labels) or not any(labels):
        labels[0], labels[1] = True, False
    # crowd the scores near one big value (2**62 + a few): float would tie them
    scores = [s if spread == 0 else 2**62 + (s % (10**spread)) for _, s in data]
    curve = ScoreCurve.from_scores(labels, np.array(scores, dtype=np.int64))
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]
    wins = sum(2 * (p > n) + (p == n) for p in pos for n in neg)
    exact = Fraction(wins, 2 * len(pos) * len(neg))
    assert curve.auc() == pytest.approx(float(exact), rel=1e-15, abs=1e-15)
    if min(len(pos), len(neg)) >= 2:
        assert delong_roc(curve).auc == pytest.approx(float(exact), rel=1e-15, abs=1e-15)


_SCORES = np.array([2**53 + 3, 2**53 + 1, 2**53 + 2, 2**53, 2**53 + 1, -5, 2**62], dtype=np.int64)
_LABELS = [1, 0, 1, 0, 1, 0, 1]
_CURVE = ScoreCurve.from_scores(_LABELS, _SCORES)


@SETTINGS
@given(
    t=st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.sampled_from([2**53 + k for k in range(-1, 5)] + [float(2**53 + 4), 2.0**62]),
    )
)
def test_thresholds_of_any_value(t):
    """A threshold is refused if it is NaN, else the counts are exactly those of Python's
    own comparison of integers and floats (+inf and -inf: the curve's two ends)."""
    try:
        cm = _CURVE.confusion_matrix(threshold=t)
    except ValueError as exc:  # either outcome is drawn: no pytest.raises
        assert np.isnan(t) and "`threshold`" in str(exc)  # noqa: PT017
        return
    pred = [int(s) >= t for s in _SCORES.tolist()]  # exact: Python compares int and float
    tp = sum(p and y for p, y in zip(pred, _LABELS, strict=True))
    fp = sum(p and not y for p, y in zip(pred, _LABELS, strict=True))
    assert (cm.tp, cm.fp) == (tp, fp)


_SHAPES = st.sampled_from([(), (1,), (2,), (3,), (2, 1), (1, 3), (2, 3), (3, 2)])


@SETTINGS
@given(v_shape=_SHAPES, p_shape=_SHAPES, seed=st.integers(0, 100))
def test_vectorized_reference_calls_of_any_shapes(v_shape, p_shape, seed):
    """Values and prevalences broadcast (the result has their broadcast shape, each entry
    the scalar call's) or are refused naming both shapes."""
    rng = np.random.default_rng(seed)
    values = rng.uniform(0, 1, v_shape)
    prevalences = rng.uniform(0.05, 0.95, p_shape)
    try:
        shape = np.broadcast_shapes(v_shape, p_shape)
    except ValueError:
        with pytest.raises(ValueError, match=r"`value` and `prevalence` must broadcast"):
            Uniform().ops("f1", values, prevalence=prevalences)
        return
    r = Uniform().ops("f1", values, prevalence=prevalences)
    got = np.asarray(r.estimate)
    assert got.shape == shape
    vb, pb = np.broadcast_arrays(values, prevalences)
    for idx in np.ndindex(shape):
        assert got[idx] == Uniform().ops("f1", float(vb[idx]), prevalence=float(pb[idx])).estimate


@SETTINGS
@given(
    truth=st.lists(st.sampled_from([0, 1, None]), min_size=2, max_size=12),
    dtype=st.sampled_from(["Int64", "boolean", "object", "float"]),
)
def test_label_columns_with_missing_values(truth, dtype):
    """Labels with <NA>, None or NaN are refused naming the argument and the first
    position; complete columns give the counts of the plain lists."""
    pred = [1, 0] * (len(truth) // 2) + [1] * (len(truth) % 2)
    if dtype == "boolean":
        column = pd.array([None if v is None else bool(v) for v in truth], dtype="boolean")
    elif dtype == "float":
        column = pd.Series([np.nan if v is None else float(v) for v in truth])
    else:
        column = pd.array(truth, dtype=dtype)
    try:
        cm = ConfusionMatrix.from_predictions(column, pred)
    except (ValueError, TypeError) as exc:
        msg = str(exc)
        if None in truth:
            first = truth.index(None)
            assert "`y_true`" in msg and f"position {first}" in msg
        else:  # one class only in truth and pred together is fine; other refusals name y_true
            assert "`y_true`" in msg or "`pos_label`" in msg
        return
    assert None not in truth
    plain = ConfusionMatrix.from_predictions([int(v) for v in truth], pred)
    assert cm == plain

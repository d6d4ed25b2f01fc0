"""The hand-written fuzz cases: public entry points fed the classes of input that broke
them, each with the outcome it must have, checked against independent computations.

A :class:`Case` is one call. It either must be refused with a ``ValueError`` or
``TypeError`` whose message names the argument (in backticks) and says what was
received (``argument``, ``received``, ``mentions``), or must return a value that an
independent computation confirms (``expect``: scikit-learn, statsmodels, pROC's
numbers, exact ``Fraction`` arithmetic, a slow pairwise count, a 50-digit decimal
integral, or the single-threaded numbers). :func:`classify` runs a case and names its
outcome, one of :data:`OUTCOMES`; a case may also state the memory it may allocate
(``memory``, bytes, measured with ``tracemalloc``). Each case belongs to a ``group``
named by what it exercises (thresholds, big integers, resource limits, ...).

These are the cases with independent expected values; the generated cases of every
public entry point (bad values of each argument's kind, judged by a generic oracle) are
in ``tests/fuzz_entry_points.py``. ``tests/test_fuzz_api.py`` asserts both;
``benchmarks/fuzz_census.py`` runs both (against this code or an older checkout, each
case in a worker process with a memory and time limit) and counts the outcomes. The
cases use only public API that an older checkout has too, so that it can be run on them,
except those of ``_prevalence_cases``, ``_monitor_cases`` (the API of the prevalence
work and of monitoring, added since), ``_proc_habits_cases`` (the entry points added
for pROC users) and ``_compare_threshold_cases`` (``threshold=`` of the comparisons,
added since).
"""

from __future__ import annotations

import contextlib
import sys
import threading
import tracemalloc
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

#: The outcome classes of the census, best first.
OUTCOMES = (
    "clear error",  # ValueError/TypeError naming the argument and what was received
    "correct",  # a value confirmed by an independent computation
    "valid result",  # a generated case's accepted value, no unexplained NaN (no peer)
    "unhelpful error",  # ValueError/TypeError without the argument or the received value
    "other exception",  # any other exception (KeyError, IndexError, OverflowError, ...)
    "silent NaN or wrong",  # a value where an error was due, or a wrong value, or NaN
    "over memory or time",  # above the case's memory, MemoryError, or stopped (census)
)

#: Messages are one line of reasonable length (describe objects, never their repr).
MAX_MESSAGE = 600
#: Memory a refused call may allocate before refusing (bytes); also the budget of an
#: exact OPS.
REFUSAL_MEMORY = 64 * 2**20
#: The accuracy the exact references promise (docs/method.md#uniform-reference: about
#: 1e-10, the quadrature's target; the closed forms are far better, checked to 2e-16 in
#: tests/test_uniform_reference.py).
EXACT_OPS = 1e-10


@dataclass(frozen=True)
class Case:
    """One call of the fuzz table and the outcome it must have.

    ``argument`` set: the call must raise ValueError/TypeError whose message contains
    ```argument``` (with backticks), ``received`` (if given) and every string of
    ``mentions``. Otherwise ``expect(result)`` must be true. ``memory``: the most bytes
    the call may allocate (tracemalloc peak). ``heavy``: a long stress case (threads),
    run by the census and by ``tests/test_shared_state.py`` rather than the fuzz test.
    """

    group: str
    entry: str
    name: str
    call: Callable[[], Any]
    argument: str | None = None
    received: str | None = None
    mentions: tuple[str, ...] = ()
    expect: Callable[[Any], bool] | None = None
    memory: int | None = None
    heavy: bool = False

    @property
    def label(self) -> str:
        return f"[{self.group}] {self.entry}: {self.name}"


def classify(case: Case) -> tuple[str, str]:
    """Run one case: (outcome, detail)."""
    tracemalloc.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = case.call()
    except (ValueError, TypeError) as exc:
        outcome, detail = _judge_error(case, exc)
    except MemoryError as exc:
        outcome, detail = "over memory or time", f"MemoryError: {exc}"
    except Exception as exc:
        outcome, detail = "other exception", f"{type(exc).__name__}: {str(exc)[:300]}"
    else:
        if case.expect is None:
            outcome, detail = "silent NaN or wrong", f"returned {_short(result)}"
        else:
            try:
                ok = bool(case.expect(result))
            except Exception as exc:
                ok, result = False, f"{result!r:.200} ({type(exc).__name__} in the check)"
            outcome = "correct" if ok else "silent NaN or wrong"
            detail = "" if ok else f"returned {_short(result)}"
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    limit = case.memory if case.memory is not None else None
    if limit is not None and peak > limit:
        outcome, detail = "over memory or time", f"allocated {peak / 2**20:.0f} MiB"
    return outcome, detail


def thread_stress(tasks: list[tuple[str, Callable[[], Any]]], calls: int) -> list[str]:
    """Eight threads call the (name, call) tasks in their own random orders, ``calls``
    each, switching as often as the interpreter allows; returns what went wrong (an
    exception, or an estimate other than the single-threaded one), empty if nothing."""
    expected = {name: float(f().estimate) for name, f in tasks}
    bad: list[str] = []
    barrier = threading.Barrier(8)

    def worker(seed: int) -> None:
        order = np.random.default_rng(seed).integers(0, len(tasks), calls)
        barrier.wait()
        for i in order:
            name, f = tasks[i]
            try:
                got = float(f().estimate)
            except Exception as exc:
                bad.append(f"{name}: {type(exc).__name__}: {exc}")
                continue
            if got != expected[name]:
                bad.append(f"{name}: {got} != {expected[name]}")

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible: races show
    try:
        threads = [threading.Thread(target=worker, args=(s,)) for s in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    return bad


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 200 else text[:197] + "..."


def _judge_error(case: Case, exc: Exception) -> tuple[str, str]:
    msg = str(exc)
    detail = f"{type(exc).__name__}: {msg[:300]}"
    if case.argument is None:
        return "unhelpful error", f"an error where a value was due: {detail}"
    wanted = [f"`{case.argument}`", *([case.received] if case.received else []), *case.mentions]
    missing = [w for w in wanted if w not in msg]
    if missing or len(msg) > MAX_MESSAGE or "\n" in msg:
        return "unhelpful error", f"{detail} (missing {missing})" if missing else detail
    return "clear error", detail


def census(cases: list[Case] | None = None) -> dict[str, int]:
    """Counts per outcome class of running the cases in this process."""
    counts = dict.fromkeys(OUTCOMES, 0)
    for case in CASES if cases is None else cases:
        counts[classify(case)[0]] += 1
    return counts


# ----------------------------------------------------------------------------- helpers
def _refuse(group, entry, name, call, argument, received=None, mentions=(), memory=None):
    return Case(group, entry, name, call, argument, received, tuple(mentions), None, memory)


def _close(a: float, b: float, tol: float = 1e-12) -> bool:
    return bool(np.isfinite(a) and abs(a - b) <= tol * max(1.0, abs(b)))


def _pairwise_auc(y: Any, s: Any) -> Fraction:
    """The ROC AUC as the share of (positive, negative) pairs ordered, ties one half:
    the slow, exact definition (Python integers, no float)."""
    pos = [int(v) for v, t in zip(s, y, strict=True) if t]
    neg = [int(v) for v, t in zip(s, y, strict=True) if not t]
    wins = sum(2 * (p > n) + (p == n) for p in pos for n in neg)
    return Fraction(wins, 2 * len(pos) * len(neg))


def _sklearn(name: str, y: Any, p: Any) -> float:
    from sklearn import metrics as skm

    if name == "f1":
        return float(skm.f1_score(y, p, zero_division=np.nan))
    if name == "mcc":
        return float(skm.matthews_corrcoef(y, p))
    if name == "roc_auc":
        return float(skm.roc_auc_score(y, p))
    return float(skm.average_precision_score(y, p))


def _frame(n: int = 400, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return pd.DataFrame(
        {
            "y": y.astype(int),
            "s": np.round(rng.normal(y * 1.2, 1.0), 3),
            "p": (rng.random(n) < np.where(y, 0.7, 0.2)).astype(int),
            "g": rng.choice(["a", "b", "c"], n),
        }
    )


def _small_dbt(seed: int = 31) -> Any:
    from opsstats import DirectedBinaryTree

    return DirectedBinaryTree(depth=4, n_curves=1000, seed=seed)


def _curve(seed: int = 1, n: int = 60) -> Any:
    from opsstats import ScoreCurve

    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    y[:2], y[2:4] = True, False
    return ScoreCurve.from_scores(y, rng.normal(y * 1.0, 1.0))


def _separated() -> Any:
    from opsstats import ScoreCurve

    return ScoreCurve.from_scores([0] * 12 + [1] * 12, np.arange(24.0))


def _cm() -> Any:
    from opsstats import ConfusionMatrix

    return ConfusionMatrix(tp=30, fp=20, fn=10, tn=40)


def _multilabel_truth(n: int = 200, seed: int = 3) -> np.ndarray:
    return np.random.default_rng(seed).random((n, 3)) < [0.2, 0.4, 0.5]


def _warned(pattern: str, call: Callable[[], Any]) -> bool:
    """Whether the call warns with a message containing ``pattern``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return any(pattern in str(w.message) for w in caught)


# -------------------------------------------------------------------- thresholds
def _threshold_cases() -> list[Case]:
    from opsstats import MultiLabel, evaluate

    df = _frame()
    y_ml = _multilabel_truth()
    s_ml = np.random.default_rng(4).random(y_ml.shape)
    out = []
    bad = [
        ("nan", float("nan"), "nan"),
        ("inf", float("inf"), "inf"),
        ("-inf", -float("inf"), "-inf"),
        ("a string", "0.5", "'0.5'"),
        ("a complex number", 0.5 + 0.5j, "0.5"),
        ("a boolean", True, "True"),
    ]
    for name, v, shown in bad:
        out.append(
            _refuse(
                "thresholds",
                "evaluate",
                f"threshold {name}",
                lambda v=v: evaluate(df, truth="y", score="s", threshold=v, metrics=["f1"]),
                "threshold",
                shown,
            )
        )
        out.append(
            _refuse(
                "thresholds",
                "MultiLabel.from_scores",
                f"threshold {name}",
                lambda v=v: MultiLabel.from_scores(y_ml, s_ml, threshold=v),
                "threshold",
                shown,
            )
        )
        if name in ("inf", "-inf"):  # a curve's two ends: nothing, everything positive
            continue
        out.append(
            _refuse(
                "thresholds",
                "ScoreCurve.confusion_matrix",
                f"threshold {name}",
                lambda v=v: _curve().confusion_matrix(threshold=v),
                "threshold",
                shown,
            )
        )

    def curve_ends() -> bool:
        # +inf and -inf are the curve's ends (scikit-learn's roc_curve starts at inf):
        # the counts of the rule score >= t, by Python's own comparison
        curve = _curve()
        top = curve.confusion_matrix(threshold=float("inf"))
        bottom = curve.confusion_matrix(threshold=-float("inf"))
        return (top.tp, top.fp, bottom.fn, bottom.tn) == (0, 0, 0, 0) and (
            bottom.tp,
            bottom.fp,
        ) == (curve.n_positive, curve.n_negative)

    out.append(
        Case(
            1,
            "ScoreCurve.confusion_matrix",
            "threshold inf and -inf (the ends)",
            curve_ends,
            expect=bool,
        )
    )

    def evaluate_counts() -> bool:
        table = evaluate(df, truth="y", score="s", threshold=0.25, metrics=["f1"], ci=None)
        return _close(table["value"].iloc[0], _sklearn("f1", df["y"], df["s"] >= 0.25))

    out.append(
        Case(
            "thresholds",
            "evaluate",
            "threshold 0.25 (F1 vs scikit-learn)",
            evaluate_counts,
            expect=bool,
        )
    )

    def multilabel_pred() -> bool:
        ml = MultiLabel.from_scores(y_ml, s_ml, threshold=0.5)
        return bool(np.array_equal(ml.pred, s_ml >= 0.5))

    out.append(
        Case("thresholds", "MultiLabel.from_scores", "threshold 0.5", multilabel_pred, expect=bool)
    )
    return out


# ------------------------------------------------------------------ shared state
def _cache_cases() -> list[Case]:
    from opsstats import BinormalCurves, DirectedBinaryTree, EmpiricalCurves, EmpiricalPoints
    from opsstats.metrics import register_metric, unregister_metric

    rng = np.random.default_rng(8)
    points = EmpiricalPoints(rng.uniform(0, 0.6, 300), rng.uniform(0, 0.6, 300))
    pool = EmpiricalCurves([_curve(seed) for seed in range(20)])

    def write_then_rank(ref: Any, metric: str, value: float) -> Callable[[], bool]:
        def run() -> bool:
            before = float(ref.ops(metric, value, prevalence=0.2).estimate)
            quantity = ref._quantity(metric, None, None, {})
            shared = ref.reference_values(quantity, 0.2)
            with contextlib.suppress(ValueError):  # read-only: refused, and that is fine
                shared[:] = 0.0  # a caller scribbling on what it was handed
            return float(ref.ops(metric, value, prevalence=0.2).estimate) == before

        return run

    out = [
        Case(
            "read-only shared arrays",
            "DirectedBinaryTree.reference_values",
            "write into the returned array",
            write_then_rank(DirectedBinaryTree(depth=3, n_curves=500, seed=41), "pr_auc", 0.5),
            expect=bool,
        ),
        Case(
            "read-only shared arrays",
            "BinormalCurves.reference_values",
            "write into the returned array",
            write_then_rank(BinormalCurves(n_curves=500, n_points=17, seed=42), "pr_auc", 0.5),
            expect=bool,
        ),
        Case(
            "read-only shared arrays",
            "EmpiricalCurves.reference_values",
            "write into the returned array",
            write_then_rank(pool, "pr_auc", 0.5),
            expect=bool,
        ),
        Case(
            "read-only shared arrays",
            "EmpiricalPoints.reference_values",
            "write into the returned array",
            write_then_rank(points, "f1", 0.5),
            expect=bool,
        ),
    ]

    def curve_arrays() -> bool:
        c = _curve()
        auc = c.auc("pr")
        for arr in (c.alpha, c.beta, c.tps):
            with contextlib.suppress(ValueError):
                arr[1] = 0
        return c.auc("pr") == auc

    out.append(
        Case(
            "read-only shared arrays",
            "ScoreCurve",
            "write into alpha, beta, tps",
            curve_arrays,
            expect=bool,
        )
    )

    def pool_arrays() -> bool:
        ref = EmpiricalPoints([0.1, 0.2, 0.3], [0.3, 0.2, 0.1])
        before = ref.ops("recall", 0.75, prevalence=0.3).estimate
        with contextlib.suppress(ValueError):
            ref.beta[:] = 1.0
        return ref.ops("recall", 0.75, prevalence=0.3).estimate == before

    out.append(
        Case(
            "read-only shared arrays",
            "EmpiricalPoints",
            "write into the pool's beta",
            pool_arrays,
            expect=bool,
        )
    )

    def overwrite(make: Callable[[], Any], point: bool) -> Callable[[], bool]:
        def run() -> bool:
            name = "fuzz_overwritten"
            at = None if point else {"fpr": 0.3}
            register_metric(
                name, lambda p, a, b: 1 - b, direction="higher", range=(0, 1), overwrite=True
            )
            try:
                ref = make()
                ref.ops(name, 0.5, prevalence=0.2, at=at) if at else ref.ops(
                    name, 0.5, prevalence=0.2
                )
                register_metric(
                    name, lambda p, a, b: 1 - a, direction="higher", range=(0, 1), overwrite=True
                )
                r = (
                    ref.ops(name, 0.5, prevalence=0.2, at=at)
                    if at
                    else ref.ops(name, 0.5, prevalence=0.2)
                )
                if point:  # share of the pool with 1 - alpha < 0.5
                    return _close(float(r.estimate), float(np.mean(1 - ref.alpha < 0.5)))
                return float(r.estimate) == 0.0  # 1 - alpha = 0.7 at fpr 0.3 on every curve
            finally:
                unregister_metric(name)

        return run

    out += [
        Case(
            "a metric overwritten",
            "DirectedBinaryTree.ops",
            "metric overwritten under its name",
            overwrite(lambda: DirectedBinaryTree(depth=3, n_curves=400, seed=43), False),
            expect=bool,
        ),
        Case(
            "a metric overwritten",
            "BinormalCurves.ops",
            "metric overwritten under its name",
            overwrite(lambda: BinormalCurves(n_curves=400, n_points=17, seed=44), False),
            expect=bool,
        ),
        Case(
            "a metric overwritten",
            "EmpiricalCurves.ops",
            "metric overwritten under its name",
            overwrite(lambda: pool, False),
            expect=bool,
        ),
        Case(
            "a metric overwritten",
            "EmpiricalPoints.ops",
            "metric overwritten under its name",
            overwrite(lambda: points, True),
            expect=bool,
        ),
    ]

    def threads(make: Callable[[], Any], calls: int) -> Callable[[], bool]:
        def run() -> bool:
            ref = make()
            tasks = [
                (q, lambda q=q: ref.ops(q, 0.5, prevalence=0.1)) for q in ("pr_auc", "gain_auc")
            ]
            return not thread_stress(tasks, calls)

        return run

    out += [
        Case(
            "threads",
            "DirectedBinaryTree.ops",
            "8 threads, a 1-vector cache",
            threads(lambda: DirectedBinaryTree(depth=2, n_curves=200, seed=45, cache_size=1), 1500),
            expect=bool,
            heavy=True,
        ),
        Case(
            "threads",
            "BinormalCurves.ops",
            "8 threads, a 1-vector cache",
            threads(lambda: BinormalCurves(n_curves=200, n_points=9, seed=46, cache_size=1), 1500),
            expect=bool,
            heavy=True,
        ),
    ]
    return out


# ------------------------------------------------------------------ big integers
def _integer_cases() -> list[Case]:
    from opsstats import ConfusionMatrix, MultiLabel, ScoreCurve, evaluate
    from opsstats.uncertainty.proportion import binomial_interval

    big = 2**53
    out = [
        Case(
            "big integers",
            "ConfusionMatrix",
            "tp = 2**53 + 1",
            lambda: ConfusionMatrix(tp=big + 1, fp=1, fn=big, tn=5),
            expect=lambda cm: cm.tp == big + 1 and isinstance(cm.tp, int) and cm.n == 2 * big + 7,
        ),
        Case(
            "big integers",
            "ConfusionMatrix",
            "np.int64 counts near 2**62",
            lambda: ConfusionMatrix(
                tp=np.int64(2**62 + 1), fp=np.int64(3), fn=np.int64(2**62), tn=1
            ),
            expect=lambda cm: (
                cm.tp == 2**62 + 1 and cm.metric("recall") == float(Fraction(2**62 + 1, 2**63 + 1))
            ),
        ),
        _refuse(
            "big integers",
            "ConfusionMatrix",
            "tp = 2**63 (beyond int64)",
            lambda: ConfusionMatrix(tp=2**63, fp=1, fn=1, tn=1),
            "tp",
            "9223372036854775808",
        ),
        _refuse(
            "big integers",
            "ConfusionMatrix",
            "tp = 2**1030",
            lambda: ConfusionMatrix(tp=2**1030, fp=1, fn=1, tn=1),
            "tp",
            "311 digits",
        ),
        _refuse(
            "big integers",
            "ConfusionMatrix",
            "float counts whose sum overflows",
            lambda: ConfusionMatrix(tp=1e308, fp=1e308, fn=1e308, tn=1.0),
            "tp",
            "1e+308",
        ),
        _refuse(
            "big integers",
            "ConfusionMatrix.from_predictions",
            "weights whose sum overflows",
            lambda: ConfusionMatrix.from_predictions(
                [1, 0, 1], [1, 0, 0], sample_weight=[1e308] * 3
            ),
            "sample_weight",
            "1e+308",
        ),
        Case(
            "big integers",
            "ScoreCurve.from_scores",
            "int64 scores 2**53..2**53+3",
            lambda: ScoreCurve.from_scores(
                [0, 1, 0, 1], np.arange(big, big + 4, dtype=np.int64)
            ).auc(),
            expect=lambda auc: (
                auc == 0.75 == float(_pairwise_auc([0, 1, 0, 1], range(big, big + 4)))
            ),
        ),
        Case(
            "big integers",
            "ScoreCurve.from_scores",
            "uint64 scores near 2**64",
            lambda: ScoreCurve.from_scores(
                [0, 1, 0, 1], np.array([2**64 - 1, 2**64 - 2, 5, 6], dtype=np.uint64)
            ).auc(),
            expect=lambda auc: (
                auc == float(_pairwise_auc([0, 1, 0, 1], [2**64 - 1, 2**64 - 2, 5, 6]))
            ),
        ),
        Case(
            "big integers",
            "ScoreCurve.from_counts",
            "uint64 counts of 2**62",
            lambda: ScoreCurve.from_counts(
                [0.2, 0.7], np.array([2**62, 3], dtype=np.uint64), [1, 2]
            ).tps.tolist(),
            expect=lambda tps: tps == [3, 2**62 + 3],
        ),
        _refuse(
            "big integers",
            "ScoreCurve.from_counts",
            "uint64 count 2**63 (would wrap)",
            lambda: ScoreCurve.from_counts(
                [0.2, 0.7], np.array([2**63, 1], dtype=np.uint64), [1, 2]
            ),
            "positives",
            "9223372036854775808",
        ),
        _refuse(
            "big integers",
            "ScoreCurve.from_counts",
            "int64 counts whose sum overflows",
            lambda: ScoreCurve.from_counts(
                [0.2, 0.7], np.array([2**62, 2**62], dtype=np.int64), [1, 2]
            ),
            "positives",
            "9223372036854775811",
        ),
        _refuse(
            "big integers",
            "ScoreCurve.from_counts",
            "a count of 2**1030",
            lambda: ScoreCurve.from_counts([0.2, 0.7], [2**1030, 1], [1, 2]),
            "positives",
            "311 digits",
        ),
        _refuse(
            "big integers",
            "ScoreCurve.from_scores",
            "weights whose sum overflows",
            lambda: ScoreCurve.from_scores(
                [0, 1] * 10, np.arange(20.0), sample_weight=[1e307] * 20
            ),
            "sample_weight",
            "1e+307",
        ),
        _refuse(
            "big integers",
            "binomial_interval",
            "trials = 10**20",
            lambda: binomial_interval(3, 10**20),
            "trials",
            "21 digits",
        ),
    ]
    rng = np.random.default_rng(5)
    for k in range(3):
        s = rng.integers(-(2**62), 2**62, 40) // (2**k * 7) * (2**k * 7)  # ties too
        s = np.concatenate([s, s[:5]]).astype(np.int64) + np.int64(2**61)
        y = rng.random(s.size) < 0.4
        y[:2], y[2:4] = True, False
        out.append(
            Case(
                "big integers",
                "ScoreCurve.from_scores",
                f"int64 scores around 2**62, ties (seed {k})",
                lambda y=y, s=s: ScoreCurve.from_scores(y, s).auc(),
                expect=lambda auc, y=y, s=s: _close(auc, float(_pairwise_auc(y, s)), 1e-15),
            )
        )
    s = np.array([big + 3, big + 1, big + 2, big, big + 1], dtype=np.int64)
    y = [1, 0, 1, 0, 1]
    df = pd.DataFrame({"y": y, "s": s})

    def counts() -> tuple[int, ...]:
        t = evaluate(df, truth="y", score="s", threshold=big + 2, metrics=["recall"], ci=None)
        return (float(t["value"].iloc[0]),)

    out.append(
        Case(
            "big integers",
            "evaluate",
            "int64 scores, integer threshold 2**53 + 2",
            counts,
            expect=lambda v: v == (2 / 3,),
        )
    )
    out.append(
        Case(
            "big integers",
            "MultiLabel.from_scores",
            "int64 scores, integer threshold 2**53 + 1",
            lambda: (
                MultiLabel.from_scores(np.array(y)[:, None], s[:, None], threshold=big + 1)
                .pred[:, 0]
                .tolist()
            ),
            expect=lambda p: p == [True, True, True, False, True],
        )
    )
    out.append(
        Case(
            "big integers",
            "ScoreCurve.confusion_matrix",
            "integer threshold 2**53 + 1",
            lambda: ScoreCurve.from_scores(y, s).confusion_matrix(threshold=big + 1).as_dict(),
            expect=lambda d: d == {"tp": 3, "fp": 1, "fn": 0, "tn": 1},
        )
    )
    from scipy.stats import beta as beta_dist

    out.append(
        Case(
            "big integers",
            "binomial_interval",
            "trials = 2**53 + 1 (exact integer)",
            lambda: binomial_interval(3, big + 1),
            expect=lambda ci: _close(ci[1], float(beta_dist.ppf(0.975, 4, big - 2)), 1e-9),
        )
    )
    return out


# -------------------------------------------------------------------- multi-class
def _multiclass_cases() -> list[Case]:
    from opsstats import MultiLabel

    t = ["a", "b", "c", "d", "a", "b"]
    p = ["a", "b", "c", "a", "a", "c"]
    scores = np.random.default_rng(2).random((6, 3))

    def counted() -> dict:
        ml = MultiLabel.from_multiclass(t[:3] + t[4:], p[:3] + p[4:], classes=["a", "b", "c"])
        return {k: v.as_dict() for k, v in ml.confusion_matrices().items()}

    return [
        _refuse(
            "multi-class",
            "MultiLabel.from_multiclass",
            "a true class not in classes (predictions)",
            lambda: MultiLabel.from_multiclass(t, p, classes=["a", "b", "c"]),
            "y_true",
            "'d'",
        ),
        _refuse(
            "multi-class",
            "MultiLabel.from_multiclass",
            "a true class not in classes (scores)",
            lambda: MultiLabel.from_multiclass(t, y_score=scores, classes=["a", "b", "c"]),
            "y_true",
            "'d'",
        ),
        Case(
            "multi-class",
            "MultiLabel.from_multiclass",
            "every class listed",
            counted,
            expect=lambda d: (
                d["a"] == {"tp": 2, "fp": 0, "fn": 0, "tn": 3}
                and d["c"] == {"tp": 1, "fp": 1, "fn": 0, "tn": 3}
            ),
        ),
    ]


# -------------------------------------------------------------- one set of draws
def _draws_cases() -> list[Case]:
    from opsstats import Uniform, evaluate

    df = _frame(600, seed=7)
    dbt = _small_dbt(47)

    def mapped(ci: str) -> Callable[[], bool]:
        def run() -> bool:
            t = evaluate(
                df,
                truth="y",
                pred="p",
                metrics=["f1", "fpr"],
                by="g",
                ci=ci,
                n_resamples=500,
                rng=3,
            )
            for _, row in t.iterrows():
                if row["metric"] == "f1":
                    want = (row["value_ci_low"], row["value_ci_high"])
                else:  # lower is better: the ends swap
                    want = (row["value_ci_high"], row["value_ci_low"])
                ops = (
                    Uniform().ops(row["metric"], list(want), prevalence=row["prevalence"]).estimate
                )
                if (row["ops_ci_low"], row["ops_ci_high"]) != (ops[0], ops[1]):
                    return False
            return True

        return run

    def invariant_point() -> bool:
        kw = {"truth": "y", "pred": "p", "by": "g", "n_resamples": 500, "rng": 11}
        one = evaluate(df, metrics=["f1"], **kw)
        many = evaluate(df, metrics=["mcc", "precision", "f1"], **kw)
        f1 = many[many["metric"] == "f1"].reset_index(drop=True)
        cols = ["value_ci_low", "value_ci_high", "ops_ci_low", "ops_ci_high"]
        return one[cols].equals(f1[cols])

    def invariant_curve() -> bool:
        kw = {
            "truth": "y",
            "score": "s",
            "by": "g",
            "n_resamples": 300,
            "rng": 12,
            "curve_reference": dbt,
        }
        one = evaluate(df, metrics=["precision@recall=0.8"], **kw)
        many = evaluate(df, metrics=["lift@rate=0.1", "roc_auc", "precision@recall=0.8"], **kw)
        row = many[many["metric"] == "precision@recall=0.8"].reset_index(drop=True)
        cols = ["value_ci_low", "value_ci_high", "ops_ci_low", "ops_ci_high"]
        return one[cols].equals(row[cols])

    def invariant_groups() -> bool:
        kw = {"truth": "y", "pred": "p", "metrics": ["f1"], "n_resamples": 500, "rng": 13}
        both = evaluate(df[df["g"].isin(["a", "b"])], by="g", **kw)
        alone = evaluate(df[df["g"] == "b"], by="g", **kw)
        cols = ["value_ci_low", "ops_ci_low", "ops_ci_high"]
        return both[both["g"] == "b"][cols].reset_index(drop=True).equals(alone[cols])

    return [
        Case(
            "one set of draws",
            "evaluate",
            "OPS interval = value interval mapped (Dirichlet)",
            mapped("dirichlet"),
            expect=bool,
        ),
        Case(
            "one set of draws",
            "evaluate",
            "OPS interval = value interval mapped (bootstrap)",
            mapped("bootstrap"),
            expect=bool,
        ),
        Case(
            "one set of draws",
            "evaluate",
            "a row's interval with more metrics in the call",
            invariant_point,
            expect=bool,
        ),
        Case(
            "one set of draws",
            "evaluate",
            "a curve row's interval with more quantities",
            invariant_curve,
            expect=bool,
        ),
        Case(
            "one set of draws",
            "evaluate",
            "a group's interval with other groups in the call",
            invariant_groups,
            expect=bool,
        ),
    ]


# ----------------------------------------------------------------- silent values
def _small_cases() -> list[Case]:
    from opsstats import (
        ConfusionMatrix,
        EmpiricalCurves,
        EmpiricalPoints,
        MultiLabel,
        ScoreCurve,
        Uniform,
        evaluate,
    )
    from opsstats.ops import standardized_curve

    dbt = _small_dbt(48)
    cplx = np.array([0.1 + 1j, 0.5, 0.9])
    out = [
        _refuse(
            "silent values",
            "EmpiricalCurves",
            "an alpha of 1.5",
            lambda: EmpiricalCurves([([0.0, 1.5], [1.0, 0.0])]),
            "curves[0].alpha",
            "1.5",
        ),
        _refuse(
            "silent values",
            "EmpiricalCurves",
            "a beta of -0.2",
            lambda: EmpiricalCurves([([0.0, 0.4, 1.0], [1.0, -0.2, -0.2])]),
            "curves[0].beta",
            "-0.2",
        ),
        _refuse(
            "silent values",
            "ScoreCurve.from_scores",
            "complex scores",
            lambda: ScoreCurve.from_scores([0, 1, 1], cplx),
            "y_score",
            "complex",
        ),
        _refuse(
            "silent values",
            "ScoreCurve.from_counts",
            "complex thresholds",
            lambda: ScoreCurve.from_counts(cplx, [1, 0, 1], [0, 1, 1]),
            "thresholds",
            "complex",
        ),
        _refuse(
            "silent values",
            "evaluate",
            "a complex score column",
            lambda: evaluate(pd.DataFrame({"y": [0, 1, 1], "s": cplx}), truth="y", score="s"),
            "score",
            "complex",
        ),
        _refuse(
            "silent values",
            "MultiLabel.from_scores",
            "complex scores",
            lambda: MultiLabel.from_scores(np.eye(3, dtype=bool), np.eye(3) * (1 + 1j)),
            "y_score",
            "complex",
        ),
        _refuse(
            "silent values",
            "Uniform.ops",
            "a complex value",
            lambda: Uniform().ops("f1", 0.5 + 0.1j, prevalence=0.2),
            "value",
            "complex",
        ),
        _refuse(
            "silent values",
            "Uniform.ops",
            "a complex prevalence",
            lambda: Uniform().ops("f1", 0.5, prevalence=0.2 + 0.1j),
            "prevalence",
            "complex",
        ),
        _refuse(
            "silent values",
            "ConfusionMatrix",
            "a complex count",
            lambda: ConfusionMatrix(tp=3 + 1j, fp=1, fn=1, tn=1),
            "tp",
            "(3+1j)",
        ),
        _refuse(
            "silent values",
            "ScoreCurve.from_scores",
            "complex weights",
            lambda: ScoreCurve.from_scores([0, 1, 1], [0.1, 0.2, 0.3], sample_weight=cplx),
            "sample_weight",
            "complex",
        ),
        _refuse(
            "silent values",
            "EmpiricalPoints",
            "complex error rates",
            lambda: EmpiricalPoints(cplx * 0.5, [0.1, 0.2, 0.3]),
            "alpha",
            "complex",
        ),
    ]
    curve = _curve()
    for pts, shown in [(2.7, "2.7"), (0, "0"), (-3, "-3"), ([0.0, 0.5], "0.0"), (True, "True")]:
        out.append(
            _refuse(
                "silent values",
                "standardized_curve",
                f"points={pts!r}",
                lambda pts=pts: standardized_curve(curve, points=pts, reference=dbt),
                "points",
                shown,
            )
        )
    cm = _cm()

    def fbeta_exact(beta: float) -> Callable[[float], bool]:
        b2 = Fraction(beta) ** 2
        exact = (1 + b2) * 30 / ((1 + b2) * 30 + b2 * 10 + 20)
        return lambda v: _close(v, float(exact), 1e-15)

    for beta in (1e200, 1e-200, 1e154, 3.0):
        out.append(
            Case(
                "silent values",
                "ConfusionMatrix.metric",
                f"fbeta with beta = {beta:g}",
                lambda beta=beta: cm.metric("fbeta", beta=beta),
                expect=fbeta_exact(beta),
            )
        )
    out.append(
        Case(
            "silent values",
            "ConfusionMatrix.ops",
            "fbeta with beta = 1e200 (= OPS of recall)",
            lambda: cm.ops("fbeta", beta=1e200).estimate,
            expect=lambda v: _close(v, cm.ops("recall").estimate, 1e-12),
        )
    )
    out.append(
        Case(
            "silent values",
            "ConfusionMatrix.from_rates",
            "beta = 1e-9 (a cell of 1e-7)",
            lambda: ConfusionMatrix.from_rates(n=1000, prevalence=0.1, alpha=0.2, beta=1e-9).beta,
            expect=lambda b: _close(b, 1e-9, 1e-9),
        )
    )
    out.append(
        Case(
            "silent values",
            "ConfusionMatrix.from_rates",
            "beta = 1e-7 at n = 10**6",
            lambda: ConfusionMatrix.from_rates(n=10**6, prevalence=0.01, alpha=0.2, beta=1e-7).fn,
            expect=lambda fn: _close(fn, 1e-3, 1e-9),
        )
    )
    out.append(
        Case(
            "silent values",
            "ConfusionMatrix.from_rates",
            "whole counts still snap",
            lambda: ConfusionMatrix.from_rates(
                n=1000, prevalence=0.1, alpha=0.2, beta=0.3
            ).as_dict(),
            expect=lambda d: d == {"tp": 70, "fp": 180, "fn": 30, "tn": 720},
        )
    )
    df = pd.DataFrame(
        {"y": [1] * 6 + [0, 1, 0, 1], "p": [0] * 6 + [0, 1, 1, 1], "g": ["all"] * 6 + ["mixed"] * 4}
    )
    out.append(
        Case(
            "silent values",
            "evaluate",
            "F1 of an all-positive group, nothing predicted positive",
            lambda: evaluate(df, truth="y", pred="p", by="g", metrics=["f1"], ci=None)[
                "value"
            ].iloc[0],
            expect=lambda v: v == _sklearn("f1", [1] * 6, [0] * 6) == 0.0,
        )
    )
    df2 = df.assign(p=[1, 1, 0, 0, 1, 0, 0, 1, 1, 1])
    out.append(
        Case(
            "silent values",
            "evaluate",
            "F1 of an all-positive group, half predicted positive",
            lambda: evaluate(df2, truth="y", pred="p", by="g", metrics=["f1"], ci=None)[
                "value"
            ].iloc[0],
            expect=lambda v: _close(v, _sklearn("f1", [1] * 6, [1, 1, 0, 0, 1, 0])),
        )
    )
    scores_only = pd.DataFrame({"y": [1, 1, 1, 0, 1, 0], "s": np.arange(6.0), "g": list("aaabbb")})

    def one_class_without_labels() -> bool:
        t = evaluate(scores_only, truth="y", score="s", by="g", metrics=["f1"], ci=None)
        row = t.iloc[0]  # group a: positives only, and no predicted labels at all
        return bool(np.isnan(row["value"])) and "needs predicted labels" in row["reason"]

    out.append(
        Case(
            "silent values",
            "evaluate",
            "an all-positive group with scores only: no F1 made up",
            one_class_without_labels,
            expect=bool,
        )
    )
    Y = np.zeros((8, 2), dtype=bool)
    Y[:, 0] = True
    Y[::2, 1] = True
    P = Y.copy()
    P[:4, 0] = False
    out.append(
        Case(
            "silent values",
            "MultiLabel.ops",
            "F1 of a label without negatives",
            lambda: (
                MultiLabel.from_predictions(Y, P).ops("f1", average=None).table["value"].iloc[0]
            ),
            expect=lambda v: _close(v, _sklearn("f1", Y[:, 0], P[:, 0])),
        )
    )
    sep = _separated()
    for method, interval in (
        ("jackknife", "normal"),
        ("bootstrap", "percentile"),
        ("delong", "normal"),
    ):
        out.append(
            Case(
                "silent values",
                "ScoreCurve.interval",
                f"perfect separation, {method}: [1, 1] warns",
                lambda method=method, interval=interval: _warned(
                    "has no width and is misleading",
                    lambda: sep.interval("roc_auc", method=method, interval=interval, rng=0),
                ),
                expect=bool,
            )
        )
    return out


# --------------------------------------------------------------- resource limits
def _resource_cases() -> list[Case]:
    from opsstats import BinormalCurves, DirectedBinaryTree, MultiLabel, evaluate
    from opsstats.ops import standardized_curve
    from opsstats.plotting import plot_curve, plot_distribution

    cm = _cm()
    curve = _curve()
    df = _frame(200)
    big = 10**9
    memory = ("of memory", "would need about")
    R = REFUSAL_MEMORY
    return [
        _refuse(
            "resource limits",
            "ConfusionMatrix.interval",
            "n_resamples = 1e9",
            lambda: cm.interval("f1", n_resamples=big),
            "n_resamples",
            "1,000,000,000",
            memory,
            R,
        ),
        _refuse(
            "resource limits",
            "ConfusionMatrix.ops",
            "n_resamples = 1e9",
            lambda: cm.ops("f1", ci="dirichlet", n_resamples=big),
            "n_resamples",
            "1,000,000,000",
            memory,
            R,
        ),
        _refuse(
            "resource limits",
            "ScoreCurve.interval",
            "n_resamples = 1e9",
            lambda: curve.interval("roc_auc", n_resamples=big),
            "n_resamples",
            "1,000,000,000",
            memory,
            R,
        ),
        _refuse(
            "resource limits",
            "ScoreCurve.ops",
            "n_resamples = 1e9",
            lambda: curve.ops("pr_auc", ci="bootstrap", n_resamples=big, reference=_small_dbt()),
            "n_resamples",
            "1,000,000,000",
            memory,
            R,
        ),
        _refuse(
            "resource limits",
            "evaluate",
            "n_resamples = 1e9",
            lambda: evaluate(df, truth="y", pred="p", metrics=["f1"], n_resamples=big),
            "n_resamples",
            "1,000,000,000",
            memory,
            R,
        ),
        _refuse(
            "resource limits",
            "MultiLabel.ops",
            "n_resamples = 1e8",
            lambda: MultiLabel.from_predictions(_multilabel_truth(), _multilabel_truth(seed=4)).ops(
                "f1", ci="bootstrap", n_resamples=10**8
            ),
            "n_resamples",
            "100,000,000",
            memory,
            R,
        ),
        _refuse(
            "resource limits",
            "DirectedBinaryTree",
            "n_curves = 1e9",
            lambda: DirectedBinaryTree(n_curves=big).ops("pr_auc", 0.5, prevalence=0.1),
            "n_curves",
            "1,000,000,000",
            memory,
            R,
        ),
        _refuse(
            "resource limits",
            "DirectedBinaryTree",
            "depth = 14 (the old documented maximum)",
            lambda: DirectedBinaryTree(depth=14).ops("pr_auc", 0.5, prevalence=0.1),
            "depth",
            "14",
            memory,
            R,
        ),
        _refuse(
            "resource limits",
            "DirectedBinaryTree",
            "depth = 40",
            lambda: DirectedBinaryTree(depth=40).ops("pr_auc", 0.5, prevalence=0.1),
            "depth",
            "40",
            memory,
            R,
        ),
        _refuse(
            "resource limits",
            "BinormalCurves",
            "n_points = 1e6",
            lambda: BinormalCurves(n_points=10**6).ops("pr_auc", 0.5, prevalence=0.1),
            "n_points",
            "1,000,000",
            memory,
            R,
        ),
        _refuse(
            "resource limits",
            "standardized_curve",
            "points = 1e6",
            lambda: standardized_curve(curve, points=10**6, reference=_small_dbt()),
            "points",
            "1,000,000",
            memory,
            R,
        ),
        _refuse(
            "resource limits",
            "plot_curve",
            "points = 1e7",
            lambda: plot_curve(curve, points=10**7, reference=_small_dbt()),
            "points",
            "10,000,000",
            memory,
            R,
        ),
        _refuse(
            "resource limits",
            "plot_distribution",
            "bins = 1e9",
            lambda: plot_distribution(cm.interval("f1", n_resamples=200, rng=0), bins=big),
            "bins",
            "1,000,000,000",
            memory,
            R,
        ),
        _refuse(
            "resource limits",
            "ConfusionMatrix.summary",
            "digits = 100000",
            lambda: cm.summary(digits=100_000).as_text(),
            "digits",
            "100000",
            (),
            R,
        ),
        _refuse(
            "resource limits",
            "OPSResult.to_string",
            "digits = 100000",
            lambda: cm.ops("f1").to_string(digits=100_000),
            "digits",
            "100000",
            (),
            R,
        ),
    ]


# ---------------------------------------------------- markedness at tiny prevalence
def _markedness_cases() -> list[Case]:
    from benchmarks.markedness_reference import markedness_ops
    from opsstats import BetaErrors, Uniform

    out = []
    for k in (3, 6, 8, 9, 10, 12):
        pi = 10.0**-k
        out.append(
            Case(
                "markedness at tiny prevalence",
                "Uniform.ops",
                f"markedness {pi:g} at prevalence {pi:g}",
                lambda pi=pi: Uniform().ops("markedness", pi, prevalence=pi).estimate,
                expect=lambda v, pi=pi: abs(v - markedness_ops(pi, pi)) <= EXACT_OPS,
                memory=REFUSAL_MEMORY,
            )
        )
    out.append(
        Case(
            "markedness at tiny prevalence",
            "BetaErrors.ops",
            "markedness 1e-9 at prevalence 1e-9 (quadrature)",
            lambda: BetaErrors(1, 1, 1, 1).ops("markedness", 1e-9, prevalence=1e-9).estimate,
            expect=lambda v: abs(v - markedness_ops(1e-9, 1e-9)) <= EXACT_OPS,
            memory=REFUSAL_MEMORY,
        )
    )
    return out


# -------------------------------------------------------------- unhelpful errors
def _message_cases() -> list[Case]:
    import pyarrow as pa

    from opsstats import (
        BinormalCurves,
        ConfusionMatrix,
        DirectedBinaryTree,
        EmpiricalCurves,
        EmpiricalPoints,
        MultiLabel,
        ScoreCurve,
        Uniform,
        evaluate,
    )
    from opsstats._summary import Summary
    from opsstats.ops import standardized_curve

    na_int = pd.array([1, 0, None, 1], dtype="Int64")
    na_bool = pd.array([True, None, False, True], dtype="boolean")
    na_float = pd.array([0.2, 0.5, None, 0.9], dtype="Float64")
    cm = _cm()
    curve = _curve()
    frame = pd.DataFrame({"y": [1, 0, 1, 0], "s": ["0.9", "x", "0.2", "0.1"]})
    lists = pd.DataFrame({"y": [1, 0, 1], "s": pd.Series([[0.1, 0.2], [0.3], [0.5, 0.6]])})
    table = pa.table({"y": np.arange(200_000) % 2, "s": np.linspace(0, 1, 200_000)})
    out = [
        _refuse(
            "unhelpful errors",
            "ConfusionMatrix.from_predictions",
            "nullable Int64 y_true with <NA>",
            lambda: ConfusionMatrix.from_predictions(na_int, [1, 0, 0, 1]),
            "y_true",
            "missing",
        ),
        _refuse(
            "unhelpful errors",
            "ConfusionMatrix.from_predictions",
            "nullable boolean y_pred with <NA>",
            lambda: ConfusionMatrix.from_predictions([True, False, True, False], na_bool),
            "y_pred",
            "missing",
        ),
        _refuse(
            "unhelpful errors",
            "ScoreCurve.from_scores",
            "nullable Float64 scores with <NA>",
            lambda: ScoreCurve.from_scores([1, 0, 1, 0], na_float),
            "y_score",
            "missing",
        ),
        _refuse(
            "unhelpful errors",
            "evaluate",
            "a truth column with <NA>",
            lambda: evaluate(
                pd.DataFrame({"y": na_int, "s": [0.1, 0.2, 0.3, 0.4]}), truth="y", score="s"
            ),
            "truth",
            "missing",
        ),
        _refuse(
            "unhelpful errors",
            "evaluate",
            "a score column with <NA>",
            lambda: evaluate(
                pd.DataFrame({"y": [1, 0, 1, 0], "s": na_float}), truth="y", score="s"
            ),
            "score",
            "missing",
        ),
        _refuse(
            "unhelpful errors",
            "ScoreCurve.from_scores",
            "ragged scores",
            lambda: ScoreCurve.from_scores([1, 0, 1], [[0.1, 0.2], [0.3], [0.5]]),
            "y_score",
            "different lengths",
        ),
        _refuse(
            "unhelpful errors",
            "ScoreCurve.from_scores",
            "a list column as scores",
            lambda: ScoreCurve.from_scores([1, 0, 1], lists["s"]),
            "y_score",
            "a list",
        ),
        _refuse(
            "unhelpful errors",
            "evaluate",
            "a list (Parquet) score column",
            lambda: evaluate(lists, truth="y", score="s"),
            "score",
            "a list",
        ),
        _refuse(
            "unhelpful errors",
            "evaluate",
            "non-numeric scores",
            lambda: evaluate(frame, truth="y", score="s"),
            "score",
            "'0.9'",
        ),
        _refuse(
            "unhelpful errors",
            "ScoreCurve.from_scores",
            "string scores",
            lambda: ScoreCurve.from_scores([1, 0, 1], ["a", "b", "c"]),
            "y_score",
            "'a'",
        ),
        _refuse(
            "unhelpful errors",
            "ScoreCurve.from_counts",
            "string thresholds",
            lambda: ScoreCurve.from_counts(["a", "b"], [1, 0], [0, 1]),
            "thresholds",
            "'a'",
        ),
        _refuse(
            "unhelpful errors",
            "MultiLabel.from_scores",
            "string scores",
            lambda: MultiLabel.from_scores(
                np.eye(2, dtype=bool), np.array([["a", "b"], ["c", "d"]])
            ),
            "y_score",
            "'a'",
        ),
        _refuse(
            "unhelpful errors",
            "ConfusionMatrix.summary",
            "digits = -1",
            lambda: cm.summary(digits=-1).as_text(),
            "digits",
            "-1",
        ),
        _refuse(
            "unhelpful errors",
            "ScoreCurve.summary",
            "digits = -1",
            lambda: curve.summary(digits=-1).as_text(),
            "digits",
            "-1",
        ),
        _refuse(
            "unhelpful errors",
            "OPSResult.to_string",
            "digits = -1",
            lambda: cm.ops("f1").to_string(digits=-1),
            "digits",
            "-1",
        ),
        _refuse(
            "unhelpful errors",
            "IntervalResult.to_string",
            "digits = -1",
            lambda: cm.interval("recall", method="wilson").to_string(digits=-1),
            "digits",
            "-1",
        ),
        _refuse(
            "unhelpful errors",
            "Summary.as_text",
            "digits = 2.5",
            lambda: Summary("t", pd.DataFrame({"v": [1.0]})).as_text(digits=2.5),
            "digits",
            "2.5",
        ),
        _refuse(
            "unhelpful errors",
            "MultiLabelOPS.to_string",
            "digits = -1",
            lambda: (
                MultiLabel.from_predictions(_multilabel_truth(), _multilabel_truth(seed=4))
                .ops("f1")
                .to_string(digits=-1)
            ),
            "digits",
            "-1",
        ),
        _refuse(
            "unhelpful errors",
            "Uniform.ops",
            "values and prevalences of shapes (3,) and (2,)",
            lambda: Uniform().ops("f1", [0.1, 0.2, 0.3], prevalence=[0.1, 0.2]),
            "value",
            "(3,)",
        ),
        _refuse(
            "unhelpful errors",
            "DirectedBinaryTree.ops",
            "values and prevalences of shapes (3,) and (2,)",
            lambda: _small_dbt().ops("pr_auc", [0.1, 0.2, 0.3], prevalence=[0.1, 0.2]),
            "value",
            "(3,)",
        ),
        _refuse(
            "unhelpful errors",
            "EmpiricalPoints.ops",
            "values and prevalences of shapes (2, 2) and (3,)",
            lambda: EmpiricalPoints([0.1, 0.2], [0.2, 0.1]).ops(
                "f1", [[0.1, 0.2], [0.3, 0.4]], prevalence=[0.1, 0.2, 0.3]
            ),
            "value",
            "(2, 2)",
        ),
        _refuse(
            "unhelpful errors",
            "BinormalCurves",
            "separation = 3",
            lambda: BinormalCurves(separation=3),
            "separation",
            "3",
        ),
        _refuse(
            "unhelpful errors",
            "EmpiricalCurves",
            "a list of one int",
            lambda: EmpiricalCurves([5]),
            "curves[0]",
            "5",
        ),
        _refuse(
            "unhelpful errors",
            "standardized_curve",
            "points = 0",
            lambda: standardized_curve(curve, points=0, reference=_small_dbt()),
            "points",
            "0",
        ),
        Case(  # counted by the engine (opsstats.frames), the rows of the pandas path
            "unhelpful errors",
            "evaluate",
            "a 200,000-row pyarrow Table as data",
            lambda: evaluate(
                table, truth="y", score="s", threshold=0.5, metrics=["f1"], rng=0
            ).equals(
                evaluate(
                    table.to_pandas(), truth="y", score="s", threshold=0.5, metrics=["f1"], rng=0
                )
            ),
            expect=bool,
        ),
        _refuse(
            "unhelpful errors",
            "ConfusionMatrix",
            "a 200,000-element array as tp",
            lambda: ConfusionMatrix(tp=np.zeros(200_000), fp=1, fn=1, tn=1),
            "tp",
            "shape (200000,)",
        ),
        _refuse(
            "unhelpful errors",
            "MultiLabel.ops",
            "weights of the wrong length (a long list)",
            lambda: MultiLabel.from_predictions(_multilabel_truth(), _multilabel_truth(seed=4)).ops(
                "f1", weights=list(range(100_000))
            ),
            "weights",
            "got 100000",
        ),
        _refuse(
            "unhelpful errors",
            "DirectedBinaryTree.ops",
            "a 200,000-row DataFrame as the metric",
            lambda: _small_dbt().ops(pd.DataFrame({"a": np.zeros(200_000)}), 0.5, prevalence=0.1),
            "metric",
            "shape (200000, 1)",
        ),
        _refuse(
            "unhelpful errors",
            "Uniform.ops",
            "a prevalence of nan",
            lambda: Uniform().ops("f1", 0.5, prevalence=float("nan")),
            "prevalence",
            "nan",
        ),
        _refuse(
            "unhelpful errors",
            "DirectedBinaryTree",
            "n_curves = 2.5",
            lambda: DirectedBinaryTree(n_curves=2.5),
            "n_curves",
            "2.5",
        ),
    ]
    return out


# --------------------------------------------------------------- default metrics
def _default_cases() -> list[Case]:
    from opsstats import evaluate

    df = _frame(500, seed=9)
    dbt = _small_dbt(49)

    def pred_only() -> bool:
        t = evaluate(df, truth="y", pred="p", ci=None)
        return list(t["metric"]) == ["f1", "mcc"] and all(
            _close(v, _sklearn(m, df["y"], df["p"]))
            for m, v in zip(t["metric"], t["value"], strict=True)
        )

    def scores_only() -> bool:
        t = evaluate(df, truth="y", score="s", ci=None, curve_reference=dbt)
        return list(t["metric"]) == ["roc_auc", "pr_auc"] and all(
            _close(v, _sklearn(m, df["y"], df["s"]), 1e-9)
            for m, v in zip(t["metric"], t["value"], strict=True)
        )

    def both() -> bool:
        t = evaluate(df, truth="y", score="s", threshold=0.5, ci=None, curve_reference=dbt)
        return list(t["metric"]) == ["f1", "mcc", "roc_auc", "pr_auc"] and _close(
            t["value"].iloc[0], _sklearn("f1", df["y"], df["s"] >= 0.5)
        )

    return [
        Case(
            "default metrics",
            "evaluate",
            "default metrics with predictions only",
            pred_only,
            expect=bool,
        ),
        Case(
            "default metrics",
            "evaluate",
            "default metrics with scores only",
            scores_only,
            expect=bool,
        ),
        Case(
            "default metrics",
            "evaluate",
            "default metrics with scores and a threshold",
            both,
            expect=bool,
        ),
    ]


# ---------------------------------------------- every entry point: ordinary inputs
def _entry_point_cases() -> list[Case]:
    """Each public entry point with a value checked independently and its everyday
    bad inputs (wrong type, NaN, negative, out of range)."""
    from sklearn import metrics as skm

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
    )
    from opsstats.metrics import get_metric, register_metric, resolve_metric
    from opsstats.plotting import (
        plot_forest,
        plot_ops_function,
        plot_standardized_curve,
        plot_unit_square,
    )
    from opsstats.uncertainty.proportion import binomial_interval

    rng = np.random.default_rng(21)
    y = rng.random(300) < 0.3
    y[:2], y[2:4] = True, False
    s = np.round(rng.normal(y * 1.0, 1.0), 2)
    p = s > 0.5
    cm = ConfusionMatrix.from_predictions(y, p)
    curve = ScoreCurve.from_scores(y, s)
    dbt = _small_dbt(50)
    out = [
        Case(
            "ordinary",
            "ConfusionMatrix.from_predictions",
            "counts vs scikit-learn",
            lambda: cm.as_dict(),
            expect=lambda d: (
                [d["tn"], d["fp"], d["fn"], d["tp"]] == skm.confusion_matrix(y, p).ravel().tolist()
            ),
        ),
        Case(
            "ordinary",
            "ConfusionMatrix.metric",
            "MCC vs scikit-learn",
            lambda: cm.metric("mcc"),
            expect=lambda v: _close(v, _sklearn("mcc", y, p)),
        ),
        Case(
            "ordinary",
            "ConfusionMatrix.metrics",
            "balanced accuracy vs scikit-learn",
            lambda: cm.metrics()["balanced_accuracy"],
            expect=lambda v: _close(v, float(skm.balanced_accuracy_score(y, p))),
        ),
        Case(
            "ordinary",
            "ConfusionMatrix.ops",
            "OPS of recall = recall (Uniform)",
            lambda: cm.ops("recall").estimate,
            expect=lambda v: _close(v, cm.metric("recall")),
        ),
        Case(
            "ordinary",
            "ConfusionMatrix.interval",
            "Wilson interval of recall vs statsmodels",
            lambda: tuple(cm.interval("recall", method="wilson").ci),
            expect=lambda ci: _close(ci[0], 1 - _wilson(cm.fn, cm.tp + cm.fn)[1]),
        ),
        _refuse(
            "ordinary",
            "ConfusionMatrix",
            "a negative count",
            lambda: ConfusionMatrix(tp=-1, fp=1, fn=1, tn=1),
            "tp",
            "-1",
        ),
        _refuse(
            "ordinary",
            "ConfusionMatrix",
            "a NaN count",
            lambda: ConfusionMatrix(tp=float("nan"), fp=1, fn=1, tn=1),
            "tp",
            "nan",
        ),
        _refuse(
            "ordinary",
            "ConfusionMatrix",
            "a string count",
            lambda: ConfusionMatrix(tp="3", fp=1, fn=1, tn=1),
            "tp",
            "'3'",
        ),
        _refuse(
            "ordinary",
            "ConfusionMatrix.from_rates",
            "alpha = 1.5",
            lambda: ConfusionMatrix.from_rates(n=100, prevalence=0.2, alpha=1.5, beta=0.1),
            "alpha",
            "1.5",
        ),
        _refuse(
            "ordinary",
            "ConfusionMatrix.from_rates",
            "n = inf",
            lambda: ConfusionMatrix.from_rates(n=float("inf"), prevalence=0.2, alpha=0.5, beta=0.1),
            "n",
            "inf",
        ),
        _refuse(
            "ordinary",
            "ConfusionMatrix.interval",
            "confidence_level = 1.5",
            lambda: cm.interval("f1", confidence_level=1.5),
            "confidence_level",
            "1.5",
        ),
        _refuse(
            "ordinary",
            "ConfusionMatrix.interval",
            "rng = -1",
            lambda: cm.interval("f1", rng=-1),
            "rng",
            "-1",
        ),
        _refuse(
            "ordinary",
            "ConfusionMatrix.metric",
            "an unknown metric",
            lambda: cm.metric("f2_score_typo"),
            "name",
            "'f2_score_typo'",
        ),
        _refuse(
            "ordinary",
            "ConfusionMatrix.metric",
            "fbeta with beta = nan",
            lambda: cm.metric("fbeta", beta=float("nan")),
            "beta",
            "nan",
        ),
        Case(
            "ordinary",
            "ScoreCurve.auc",
            "ROC AUC vs scikit-learn",
            lambda: curve.auc(),
            expect=lambda v: _close(v, _sklearn("roc_auc", y, s)),
        ),
        Case(
            "ordinary",
            "ScoreCurve.auc",
            "PR AUC (step) vs average precision",
            lambda: curve.auc("pr"),
            expect=lambda v: _close(v, _sklearn("pr_auc", y, s)),
        ),
        Case(
            "ordinary",
            "ScoreCurve.from_counts",
            "the same curve as from_scores",
            lambda: ScoreCurve.from_counts(s, y.astype(int), (~y).astype(int)) == curve,
            expect=bool,
        ),
        Case(
            "ordinary",
            "ScoreCurve",
            "rebuilt from its own arrays",
            lambda: ScoreCurve(curve.thresholds, curve.tps, curve.fps) == curve,
            expect=bool,
        ),
        Case(
            "ordinary",
            "ScoreCurve.value_at",
            "recall at fpr = 1 is 1",
            lambda: curve.value_at("recall", at={"fpr": 1.0}),
            expect=lambda v: v == 1.0,
        ),
        Case(
            "ordinary",
            "ScoreCurve.confusion_matrix",
            "at a threshold = from_predictions",
            lambda: (
                curve.confusion_matrix(threshold=0.5)
                == ConfusionMatrix.from_predictions(y, s >= 0.5)
            ),
            expect=bool,
        ),
        Case(
            "ordinary",
            "ScoreCurve.interval",
            "DeLong variance vs the jackknife's",
            lambda: (
                curve.interval("roc_auc", method="delong").details["variance"],
                curve.interval("roc_auc", method="jackknife").details["variance"],
            ),
            expect=lambda v: _close(v[0], v[1], 1e-9),
        ),
        Case(
            "ordinary",
            "ScoreCurve.ops",
            "OPS of the PR AUC = share of reference values below",
            lambda: curve.ops("pr_auc", reference=dbt).estimate,
            expect=lambda v: (
                v
                == float(
                    np.mean(
                        dbt.reference_values(
                            dbt._quantity("pr_auc", None, None, {}), curve.prevalence
                        )
                        < curve.auc("pr")
                    )
                )
            ),
        ),
        _refuse(
            "ordinary",
            "ScoreCurve.from_scores",
            "one class only",
            lambda: ScoreCurve.from_scores([1, 1, 1], [0.1, 0.2, 0.3]),
            "y_true",
            "only the positive",
        ),
        _refuse(
            "ordinary",
            "ScoreCurve.from_scores",
            "NaN scores",
            lambda: ScoreCurve.from_scores([1, 0, 1], [0.1, float("nan"), 0.3]),
            "y_score",
            "nan",
        ),
        _refuse(
            "ordinary",
            "ScoreCurve.from_scores",
            "negative weights",
            lambda: ScoreCurve.from_scores([1, 0, 1], [0.1, 0.2, 0.3], sample_weight=[1, -1, 1]),
            "sample_weight",
            "-1",
        ),
        _refuse(
            "ordinary",
            "ScoreCurve.from_counts",
            "negative counts",
            lambda: ScoreCurve.from_counts([0.1, 0.2], [1, -1], [1, 1]),
            "positives",
            "-1",
        ),
        _refuse(
            "ordinary",
            "ScoreCurve",
            "thresholds not decreasing",
            lambda: ScoreCurve([0.1, 0.2], [1, 2], [1, 1]),
            "thresholds",
            "0.1",
        ),
        _refuse(
            "ordinary",
            "ScoreCurve.auc",
            "an unknown curve",
            lambda: curve.auc("det"),
            "kind",
            "'det'",
        ),
        _refuse(
            "ordinary",
            "ScoreCurve.value_at",
            "at recall = 2",
            lambda: curve.value_at("precision", at={"recall": 2.0}),
            "at['recall']",
            "2.0",
        ),
        _refuse(
            "ordinary",
            "ScoreCurve.value_at",
            "top_k = 10**6",
            lambda: curve.value_at("lift", top_k=10**6),
            "top_k",
            "1000000",
        ),
        _refuse(
            "ordinary",
            "ScoreCurve.interval",
            "an unknown method",
            lambda: curve.interval("roc_auc", method="magic"),
            "method",
            "'magic'",
        ),
        Case(
            "ordinary",
            "Uniform.ops",
            "F1 0.6 at 0.1 (the paper's Example 2)",
            lambda: Uniform().ops("f1", 0.6, prevalence=0.1).estimate,
            expect=lambda v: abs(v - 0.957672) < 5e-7,
        ),
        Case(
            "ordinary",
            "BetaErrors.ops",
            "Beta(1, 1)^2 is Uniform (MCC)",
            lambda: BetaErrors(1, 1, 1, 1).ops("mcc", 0.4, prevalence=0.1).estimate,
            expect=lambda v: _close(v, Uniform().ops("mcc", 0.4, prevalence=0.1).estimate, 1e-9),
        ),
        Case(
            "ordinary",
            "BetterThanChance.ops",
            "MCC 0.4: 2 u - 1 of Uniform's u",
            lambda: BetterThanChance().ops("mcc", 0.4, prevalence=0.1).estimate,
            expect=lambda v: _close(
                v, 2 * Uniform().ops("mcc", 0.4, prevalence=0.1).estimate - 1, 1e-9
            ),
        ),
        Case(
            "ordinary",
            "EmpiricalPoints.ops",
            "share of the pool below",
            lambda: (
                EmpiricalPoints([0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1])
                .ops("recall", 0.75, prevalence=0.2)
                .estimate
            ),
            expect=lambda v: v == 0.5,
        ),
        Case(
            "ordinary",
            "EmpiricalCurves.ops",
            "share of the pool below",
            lambda: (
                EmpiricalCurves(
                    [([0.0, 0.2, 1.0], [1.0, 0.3, 0.0]), ([0.0, 0.5, 1.0], [1.0, 0.5, 0.0])]
                )
                .ops("roc_auc", 0.6, prevalence=0.5)
                .estimate
            ),
            expect=lambda v: v == 0.5,
        ),
        Case(
            "ordinary",
            "BinormalCurves.ops",
            "ROC AUC 0.5 near the middle",
            lambda: (
                BinormalCurves(n_curves=4000, seed=51).ops("roc_auc", 0.5, prevalence=0.3).estimate
            ),
            expect=lambda v: abs(v - 0.5) < 0.05,
        ),
        Case(
            "ordinary",
            "DirectedBinaryTree.reference_values",
            "sorted, G values",
            lambda: dbt.reference_values(dbt._quantity("roc_auc", None, None, {}), 0.3),
            expect=lambda v: v.size == 1000 and bool(np.all(np.diff(v) >= 0)),
        ),
        _refuse(
            "ordinary",
            "Uniform.ops",
            "prevalence = 0",
            lambda: Uniform().ops("f1", 0.5, prevalence=0.0),
            "prevalence",
            "0.0",
        ),
        _refuse(
            "ordinary",
            "Uniform.ops",
            "value outside F1's range",
            lambda: Uniform().ops("f1", 1.5, prevalence=0.2),
            "value",
            "1.5",
        ),
        _refuse(
            "ordinary",
            "Uniform.ops",
            "ties = 'random'",
            lambda: Uniform().ops("f1", 0.5, prevalence=0.2, ties="random"),
            "ties",
            "'random'",
        ),
        _refuse(
            "ordinary", "BetaErrors", "a shape of 0", lambda: BetaErrors(0, 1, 1, 1), "a_alpha", "0"
        ),
        _refuse(
            "ordinary",
            "EmpiricalPoints",
            "alpha and beta of different lengths",
            lambda: EmpiricalPoints([0.1, 0.2], [0.1]),
            "alpha",
            "2 and 1",
        ),
        _refuse(
            "ordinary",
            "DirectedBinaryTree",
            "depth = 0",
            lambda: DirectedBinaryTree(depth=0),
            "depth",
            "0",
        ),
        _refuse(
            "ordinary",
            "DirectedBinaryTree.ops",
            "an unknown curve quantity",
            lambda: dbt.ops("det_auc", 0.5, prevalence=0.2),
            "metric",
            "det_auc",
        ),
        Case(
            "ordinary",
            "MultiLabel.ops",
            "macro OPS of recall = mean of per-label recall",
            lambda: (
                MultiLabel.from_predictions(_multilabel_truth(), _multilabel_truth(seed=4))
                .ops("recall")
                .estimate
            ),
            expect=lambda v: _close(
                v,
                float(
                    np.mean(
                        [
                            skm.recall_score(
                                _multilabel_truth()[:, j], _multilabel_truth(seed=4)[:, j]
                            )
                            for j in range(3)
                        ]
                    )
                ),
            ),
        ),
        Case(
            "ordinary",
            "MultiLabel.evaluate",
            "per-label F1 vs scikit-learn",
            lambda: (
                MultiLabel.from_predictions(_multilabel_truth(), _multilabel_truth(seed=4))
                .evaluate(["f1"])["value"]
                .tolist()
            ),
            expect=lambda v: np.allclose(
                v,
                skm.f1_score(_multilabel_truth(), _multilabel_truth(seed=4), average=None),
                rtol=1e-12,
            ),
        ),
        _refuse(
            "ordinary",
            "MultiLabel.from_predictions",
            "shapes (200, 3) and (200, 2)",
            lambda: MultiLabel.from_predictions(_multilabel_truth(), _multilabel_truth()[:, :2]),
            "y_true",
            "(200, 3)",
        ),
        _refuse(
            "ordinary",
            "MultiLabel.ops",
            "average = 'median'",
            lambda: MultiLabel.from_predictions(_multilabel_truth(), _multilabel_truth(seed=4)).ops(
                "f1", average="median"
            ),
            "average",
            "'median'",
        ),
        Case(
            "ordinary",
            "binomial_interval",
            "Clopper-Pearson vs statsmodels",
            lambda: binomial_interval(8, 20),
            expect=lambda ci: _close(ci[0], _beta_ci(8, 20)[0]),
        ),
        _refuse(
            "ordinary",
            "binomial_interval",
            "successes > trials",
            lambda: binomial_interval(5, 3),
            "successes",
            "5",
        ),
        _refuse(
            "ordinary",
            "binomial_interval",
            "NaN trials",
            lambda: binomial_interval(1, float("nan")),
            "trials",
            "nan",
        ),
        Case(
            "ordinary",
            "get_metric",
            "an alias",
            lambda: get_metric("Sensitivity").name,
            expect=lambda v: v == "recall",
        ),
        Case(
            "ordinary",
            "resolve_metric",
            "F2 at (0.1, 0.2, 0.3)",
            lambda: float(resolve_metric("fbeta", beta=2)(0.1, 0.2, 0.3)),
            expect=lambda v: _close(v, 5 * 0.07 / (5 * 0.07 + 4 * 0.03 + 0.18)),
        ),
        _refuse(
            "ordinary",
            "register_metric",
            "a range (1, 0)",
            lambda: register_metric(
                "fuzz_bad", lambda p, a, b: a, direction="higher", range=(1, 0)
            ),
            "range",
            "(1, 0)",
        ),
        _refuse(
            "ordinary",
            "register_metric",
            "direction = 'up'",
            lambda: register_metric("fuzz_bad", lambda p, a, b: a, direction="up", range=(0, 1)),
            "direction",
            "'up'",
        ),
        _refuse(
            "ordinary",
            "register_metric",
            "an existing name",
            lambda: register_metric("f1", lambda p, a, b: a, direction="higher", range=(0, 1)),
            "name",
            "'f1'",
        ),
        _refuse(
            "ordinary",
            "plot_unit_square",
            "prevalence = 1.5",
            lambda: plot_unit_square("f1", 0.5, 1.5),
            "prevalence",
            "1.5",
        ),
        _refuse(
            "ordinary",
            "plot_ops_function",
            "prevalences with a string",
            lambda: plot_ops_function("f1", prevalences="abc"),
            "prevalences",
            "'abc'",
        ),
        _refuse(
            "ordinary",
            "plot_forest",
            "a list instead of a frame",
            lambda: plot_forest([1, 2, 3]),
            "frame",
            "[1, 2, 3]",
        ),
        _refuse(
            "ordinary",
            "plot_standardized_curve",
            "a ConfusionMatrix instead of a curve",
            lambda: plot_standardized_curve(cm),
            "curve",
            "ConfusionMatrix",
        ),
    ]
    return out


# ------------------------------------------------- the entry points added since
def _long_frame(n: int = 300, seed: int = 11) -> pd.DataFrame:
    """Two classifiers' scores of the same rows (``m``), matched by ``id``."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    rows = pd.DataFrame({"id": np.arange(n), "y": y})
    return pd.concat(
        [rows.assign(m="A", s=rng.normal(1.2 * y, 1)), rows.assign(m="B", s=rng.normal(0.6 * y, 1))]
    )


def _new_threshold_cases() -> list[Case]:
    from opsstats import compare_groups, evaluate
    from opsstats.sklearn import cross_evaluate, make_ops_scorer, metric_score, ops_score

    df = _frame()
    y, s = df["y"].to_numpy(), df["s"].to_numpy()
    long = _long_frame()
    g = "thresholds of the new entry points"
    out = []
    for name, v, shown in (("nan", float("nan"), "nan"), ("inf", float("inf"), "inf")):
        out += [
            _refuse(
                g,
                "sklearn.ops_score",
                f"threshold {name}",
                lambda v=v: ops_score(y, s, metric="f1", threshold=v),
                "threshold",
                shown,
            ),
            _refuse(
                g,
                "sklearn.make_ops_scorer",
                f"threshold {name}",
                lambda v=v: make_ops_scorer("f1", threshold=v),
                "threshold",
                shown,
            ),
            _refuse(
                g,
                "evaluate",
                f"compare=, threshold {name}",
                lambda v=v: evaluate(
                    long, truth="y", score="s", compare="m", threshold=v, metrics=["f1"]
                ),
                "threshold",
                shown,
            ),
            _refuse(
                g,
                "compare_groups",
                f"threshold {name}",
                lambda v=v: compare_groups(
                    long, truth="y", score="s", compare_by="m", threshold=v, metrics=["f1"]
                ),
                "threshold",
                shown,
            ),
        ]
    out.append(
        _refuse(
            g,
            "sklearn.cross_evaluate",
            "threshold nan, refused before any fold is fitted",
            lambda: cross_evaluate(None, np.zeros((len(y), 1)), y, threshold=float("nan")),
            "threshold",
            "nan",
        )
    )

    def scorer_value() -> bool:  # F1 at a threshold: scikit-learn's on the same labels
        return _close(metric_score(y, s, metric="f1", threshold=0.25), _sklearn("f1", y, s >= 0.25))

    out.append(
        Case(
            g,
            "sklearn.metric_score",
            "threshold 0.25 (F1 vs scikit-learn)",
            scorer_value,
            expect=bool,
        )
    )
    return out


def _p_value_cases() -> list[Case]:
    from statsmodels.stats.multitest import multipletests

    from opsstats.comparison import adjust_p_values

    g = "p-values"
    out = [
        _refuse(
            g,
            "comparison.adjust_p_values",
            "a negative p-value",
            lambda: adjust_p_values([-0.1, 0.5]),
            "p_values",
            "-0.1",
        ),
        _refuse(
            g,
            "comparison.adjust_p_values",
            "a p-value above 1",
            lambda: adjust_p_values([0.01, 1.5]),
            "p_values",
            "1.5",
        ),
        _refuse(
            g,
            "comparison.adjust_p_values",
            "strings",
            lambda: adjust_p_values(["a", "b"]),
            "p_values",
            "'a'",
        ),
        _refuse(
            g,
            "comparison.adjust_p_values",
            "a 2-D array",
            lambda: adjust_p_values([[0.1, 0.2]]),
            "p_values",
        ),
        _refuse(
            g,
            "comparison.adjust_p_values",
            "an unknown method",
            lambda: adjust_p_values([0.1, 0.2], method="hochberg"),
            "method",
            "'hochberg'",
        ),
    ]
    p = [0.01, 0.04, float("nan"), 0.03, 0.2]
    for method in ("holm", "bonferroni"):

        def agrees(method: str = method) -> bool:  # statsmodels, NaN left out of the count
            got = adjust_p_values(p, method=method)
            ok = [i for i, v in enumerate(p) if v == v]
            want = multipletests([p[i] for i in ok], method=method)[1]
            return bool(np.isnan(got[2]) and np.allclose(got[ok], want, rtol=1e-15, atol=0))

        out.append(
            Case(g, "comparison.adjust_p_values", f"{method} vs statsmodels", agrees, expect=bool)
        )
    return out


def _power_cases() -> list[Case]:
    from scipy.stats import norm

    from opsstats.comparison import obuchowski_variance, power_roc_test, power_roc_test_params

    g = "binormal parameters"
    base = {"a1": 1.2, "b1": 1.0, "a2": 0.8, "b2": 1.2, "rn": 0.5, "ra": 0.5, "delta": 0.05}

    def params(**changed: Any) -> Any:
        return power_roc_test_params(**{**base, **changed}, power=0.8)

    out = [
        _refuse(
            g,
            "comparison.power_roc_test_params",
            "correlation 2",
            lambda: params(rn=2.0),
            "rn",
            "2.0",
        ),
        _refuse(
            g,
            "comparison.power_roc_test_params",
            "a NaN parameter",
            lambda: params(a1=float("nan")),
            "a1",
            "nan",
        ),
        _refuse(
            g,
            "comparison.power_roc_test_params",
            "an FPR range reversed",
            lambda: params(fpr1=(0.2, 0.0)),
            "fpr1",
            "0.2",
        ),
        _refuse(
            g,
            "comparison.power_roc_test_params",
            "an FPR range past 1",
            lambda: params(fpr1=(0.0, 1.5)),
            "fpr1",
            "1.5",
        ),
        _refuse(
            g,
            "comparison.power_roc_test_params",
            "a negative b",
            lambda: params(b1=-1.0),
            "b1",
            "-1.0",
        ),
        _refuse(
            g,
            "comparison.power_roc_test_params",
            "a string parameter",
            lambda: params(a2="0.8"),
            "a2",
            "'0.8'",
        ),
        _refuse(
            g,
            "comparison.obuchowski_variance",
            "a negative b",
            lambda: obuchowski_variance(1.2, -1.0, 1.0, (0.0, 0.2)),
            "b",
            "-1.0",
        ),
        _refuse(
            g,
            "comparison.obuchowski_variance",
            "an FPR range past 1",
            lambda: obuchowski_variance(1.2, 1.0, 1.0, (0.0, 1.5)),
            "fpr",
            "1.5",
        ),
        _refuse(
            g,
            "comparison.power_roc_test_params",
            "a significance level above 1",
            lambda: power_roc_test_params(
                1.2, 1.0, 1.2, 1.0, 0.5, 0.5, 0.001, ncases=50, power=0.9, sig_level=None
            ),
            "power",
            "not reached",
        ),
        _refuse(
            g,
            "comparison.power_roc_test",
            "a significance level above 1",
            lambda: power_roc_test(0.52, ncases=50, ncontrols=50, power=0.9, sig_level=None),
            "power",
            "not reached",
        ),
    ]
    # pROC's power.roc.test(list(A1=1.2, B1=1, A2=0.8, B2=1.2, rn=0.5, ra=0.5, delta=d),
    # power=0.8): ncases = 100.9935 (its documentation's example)
    d = norm.cdf(1.2 / 2**0.5) - norm.cdf(0.8 / (1 + 1.2**2) ** 0.5)
    out.append(
        Case(
            g,
            "comparison.power_roc_test_params",
            "pROC's example (ncases 100.9935)",
            lambda: power_roc_test_params(**{**base, "delta": d}, power=0.8).ncases,
            expect=lambda v: abs(v - 100.9935) < 5e-5,
        )
    )
    return out


def _weights_and_labels_cases() -> list[Case]:
    from opsstats import MultiLabel
    from opsstats.metrics.multiclass import cohen_kappa

    y = _multilabel_truth()
    p = np.random.default_rng(9).random(y.shape) < 0.4
    g = "label weights and names"

    def normalized() -> bool:  # weights 1e308, 1e308, 1: the mean of the first two labels
        ml = MultiLabel.from_predictions(y, p)
        r = ml.ops("f1", weights=[1e308, 1e308, 1])
        each = ml.ops("f1", average="macro").table["ops"].to_numpy()
        return _close(r.estimate, (each[0] + each[1]) / 2, 1e-12)

    mixed = np.array(["a", 1, "a", 1, 2, "a"], dtype=object)
    return [
        Case(g, "MultiLabel.ops", "weights [1e308, 1e308, 1]", normalized, expect=bool),
        _refuse(
            g,
            "MultiLabel.ops",
            "weights 'abc'",
            lambda: MultiLabel.from_predictions(y, p).ops("f1", weights="abc"),
            "weights",
        ),
        _refuse(
            g,
            "MultiLabel.from_predictions",
            "labels [['a'], ['b'], ['c']]",
            lambda: MultiLabel.from_predictions(y, p, labels=[["a"], ["b"], ["c"]]),
            "labels",
            "['a']",
        ),
        _refuse(
            g,
            "MultiLabel.from_predictions",
            "zero rows",
            lambda: MultiLabel.from_predictions(y[:0], p[:0]),
            "y_true",
            "(0, 3)",
        ),
        _refuse(
            g,
            "MultiLabel.from_predictions",
            "zero labels",
            lambda: MultiLabel.from_predictions(y[:, :0], p[:, :0]),
            "y_true",
            "(200, 0)",
        ),
        _refuse(
            g,
            "metrics.multiclass.cohen_kappa",
            "classes mixing strings and integers",
            lambda: cohen_kappa(mixed, mixed[::-1]),
            "y_true",
            "strings",
        ),
    ]


def _count_array_cases() -> list[Case]:
    from opsstats import Uniform
    from opsstats.comparison import unpaired_ops_tests

    g = "count arrays"
    a, b = ([40, 35], [10, 12], [10, 15], [140, 138]), ([30, 31], [20, 22], [20, 19], [130, 128])

    def estimates() -> bool:  # each pair's OPS difference, from the closed-form Uniform OPS
        r = unpaired_ops_tests(a, b, "f1", n_draws=200, rng=0)
        want = []
        for k in range(2):
            ops = []
            for tp, fp, fn, tn in ((c[k] for c in a), (c[k] for c in b)):
                f1 = 2 * tp / (2 * tp + fp + fn)
                ops.append(Uniform().ops("f1", f1, prevalence=(tp + fn) / (tp + fp + fn + tn)))
            want.append(ops[0].estimate - ops[1].estimate)
        return bool(np.allclose(r["estimate"], want, rtol=0, atol=1e-12))

    return [
        _refuse(
            g,
            "comparison.unpaired_ops_tests",
            "tp of length 2, the others of length 1",
            lambda: unpaired_ops_tests(
                ([40, 30], [10], [10], [140]), ([30], [20], [20], [130]), rng=0
            ),
            "counts_a[tp]",
            "length",
        ),
        _refuse(
            g,
            "comparison.unpaired_ops_tests",
            "a negative count",
            lambda: unpaired_ops_tests(
                ([-40], [10], [10], [140]), ([30], [20], [20], [130]), rng=0
            ),
            "counts_a[tp]",
            "-40",
        ),
        Case(
            g,
            "comparison.unpaired_ops_tests",
            "estimates vs the closed-form OPS",
            estimates,
            expect=bool,
        ),
    ]


def _plan_cases() -> list[Case]:
    from opsstats.comparison import ops_sample_size

    g = "sample size"
    return [
        _refuse(
            g,
            "comparison.ops_sample_size",
            "a half-width not reachable (1e-9)",
            lambda: ops_sample_size(
                "f1",
                prevalence=0.2,
                alpha=0.1,
                beta=0.2,
                half_width=1e-9,
                n_sims=20,
                n_draws=100,
                rng=0,
            ),
            "half_width",
            "1e-09",
            ("not reached",),
        ),
    ]


def _curve_argument_cases() -> list[Case]:
    from opsstats.comparison import binormal_fit, delong_unpaired, power_roc_test_curves
    from opsstats.curves import binormal_smooth, calibrate
    from opsstats.sklearn import ops_score

    a = np.arange(10.0)
    df = _frame()
    y = df["y"].to_numpy()
    g = "a curve expected"
    shown = "array of shape (10,)"
    return [
        _refuse(
            g,
            "comparison.delong_unpaired",
            "two arrays",
            lambda: delong_unpaired(a, a),
            "curve_a",
            shown,
        ),
        _refuse(g, "comparison.binormal_fit", "an array", lambda: binormal_fit(a), "curve", shown),
        _refuse(
            g, "curves.binormal_smooth", "an array", lambda: binormal_smooth(a), "curve", shown
        ),
        _refuse(g, "curves.calibrate", "an array", lambda: calibrate(a), "curve", shown),
        _refuse(
            g,
            "comparison.power_roc_test_curves",
            "constant scores: `y_score`, not `auc`",
            lambda: power_roc_test_curves(y, [np.zeros(len(y))], power=0.9),
            "y_score",
            "0.5",
        ),
        _refuse(
            g,
            "sklearn.ops_score",
            "ragged labels",
            lambda: ops_score([0, 1, [1, 0]], [0, 1, 1], metric="f1"),
            "y_true",
            "ragged",
        ),
    ]


def _new_resource_cases() -> list[Case]:
    from opsstats import evaluate
    from opsstats.comparison import ops_sample_size
    from opsstats.curves import binormal_smooth

    big = 10**9
    memory = ("would need about",)
    plan = {"prevalence": 0.2, "alpha": 0.1, "beta": 0.2, "half_width": 0.05}
    long = _long_frame()
    R = REFUSAL_MEMORY
    return [
        _refuse(
            "resource limits",
            "comparison.ops_sample_size",
            "n_sims = 1e9",
            lambda: ops_sample_size("f1", **plan, n_sims=big),
            "n_sims",
            "1,000,000,000",
            memory,
            R,
        ),
        _refuse(
            "resource limits",
            "comparison.ops_sample_size",
            "n_draws = 1e9",
            lambda: ops_sample_size("f1", **plan, n_draws=big),
            "n_draws",
            "1,000,000,000",
            memory,
            R,
        ),
        _refuse(
            "resource limits",
            "curves.binormal_smooth",
            "n = 1e9",
            lambda: binormal_smooth(_curve(), n=big),
            "n",
            "1,000,000,000",
            memory,
            R,
        ),
        _refuse(
            "resource limits",
            "evaluate",
            "compare=, n_resamples = 1e9",
            lambda: evaluate(long, truth="y", score="s", compare="m", n_resamples=big),
            "n_resamples",
            "1,000,000,000",
            memory,
            R,
        ),
    ]


def _cancellation_cases() -> list[Case]:
    from opsstats import ConfusionMatrix
    from opsstats.metrics import get_metric

    g = "cancellation"
    tp, fp, fn = 1_224_040, 1_506_713, 911_631
    tn = 1_122_158  # TP TN - FP FN = -583 of products near 1.4e12: MCC -2.6e-10
    pos, neg = tp + fn, fp + tn
    p, a, b = pos / (pos + neg), fp / neg, fn / pos

    def forward(name: str) -> bool:
        """The registry's formula on float64 (pi, alpha, beta) against the same formula
        in Fraction arithmetic on those floats: a stable form keeps a few ulps."""
        fp_, fa, fb = Fraction(p), Fraction(a), Fraction(b)
        c = (fp_ * (1 - fb), (1 - fp_) * fa, fp_ * fb, (1 - fp_) * (1 - fa))
        cross = c[0] * c[3] - c[1] * c[2]
        if name == "mcc":
            den = (c[0] + c[1]) * (c[0] + c[2]) * (c[3] + c[1]) * (c[3] + c[2])
            exact = float(cross) / float(den) ** 0.5  # the product, not the difference
        else:
            exact = float(
                2 * cross / ((c[0] + c[1]) * (c[1] + c[3]) + (c[0] + c[2]) * (c[2] + c[3]))
            )
        got = float(get_metric(name).func(p, a, b))
        return abs(got - exact) <= 1e-14 * abs(exact)

    def counts(name: str) -> bool:  # ConfusionMatrix against the counts' exact value
        cross = Fraction(tp * tn - fp * fn)
        if name == "mcc":
            den = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
            exact = float(cross) / float(den) ** 0.5
        else:
            exact = float(2 * cross / ((tp + fp) * (fp + tn) + (tp + fn) * (fn + tn)))
        got = ConfusionMatrix(tp=tp, fp=fp, fn=fn, tn=tn).metric(name)
        return abs(got - exact) <= 1e-6 * abs(exact)

    return [
        Case(
            g,
            "metrics.get_metric",
            "MCC formula near 0, float64 inputs",
            lambda: forward("mcc"),
            expect=bool,
        ),
        Case(
            g,
            "metrics.get_metric",
            "kappa formula near 0, float64 inputs",
            lambda: forward("cohen_kappa"),
            expect=bool,
        ),
        Case(
            g,
            "ConfusionMatrix.metric",
            "MCC near 0 at counts near 1e6",
            lambda: counts("mcc"),
            expect=bool,
        ),
        Case(
            g,
            "ConfusionMatrix.metric",
            "kappa near 0 at counts near 1e6",
            lambda: counts("cohen_kappa"),
            expect=bool,
        ),
    ]


def _prevalence_cases() -> list[Case]:
    """The entry points of the prevalence work (the same classifier at a stated
    prevalence, the prevalence profile, the invariance of an OPS): a value checked
    against scikit-learn on rows reweighted to the prevalence or a closed form, and the
    everyday bad inputs. They use the API added with them, so an older checkout fails
    them."""
    from sklearn import metrics as skm

    from opsstats import (
        ConfusionMatrix,
        ScoreCurve,
        Uniform,
        compare_test_sets,
        evaluate,
        ops_prevalence_profile,
    )
    from opsstats.curves import ops_prevalence_invariant
    from opsstats.metrics import register_metric
    from opsstats.plotting import plot_ops_function

    g = "prevalence"
    rng = np.random.default_rng(28)
    y = rng.random(400) < 0.1
    y[:2], y[2:4] = True, False
    s = np.round(rng.normal(y * 1.2, 1.0), 3)
    p = s > 1.0
    cm = ConfusionMatrix.from_predictions(y, p)
    curve = ScoreCurve.from_scores(y, s)
    w = np.where(y, 0.5 / y.mean(), 0.5 / (1 - y.mean()))  # the rows reweighted to 0.5
    frame = pd.DataFrame({"y": y.astype(int), "s": s, "g": np.arange(400) % 2})
    return [
        Case(
            g,
            "ConfusionMatrix.at_prevalence",
            "F1 at 0.5 vs scikit-learn on reweighted rows",
            lambda: cm.at_prevalence(0.5).metric("f1"),
            expect=lambda v: _close(v, float(skm.f1_score(y, p, sample_weight=w))),
        ),
        Case(
            g,
            "ConfusionMatrix.at_prevalence",
            "alpha and beta kept exactly",
            lambda: (cm.at_prevalence(0.5).alpha, cm.at_prevalence(0.5).beta),
            expect=lambda ab: ab == (cm.alpha, cm.beta),
        ),
        _refuse(
            g,
            "ConfusionMatrix.at_prevalence",
            "prevalence 0",
            lambda: cm.at_prevalence(0),
            "prevalence",
            "0.0",
        ),
        _refuse(
            g,
            "ConfusionMatrix.at_prevalence",
            "prevalence 1",
            lambda: cm.at_prevalence(1.0),
            "prevalence",
            "1.0",
        ),
        _refuse(
            g,
            "ConfusionMatrix.at_prevalence",
            "a NaN prevalence",
            lambda: cm.at_prevalence(float("nan")),
            "prevalence",
            "nan",
        ),
        _refuse(
            g,
            "ConfusionMatrix.at_prevalence",
            "a string prevalence",
            lambda: cm.at_prevalence("0.5"),
            "prevalence",
            "'0.5'",
        ),
        _refuse(
            g,
            "ConfusionMatrix.at_prevalence",
            "a boolean prevalence",
            lambda: cm.at_prevalence(True),
            "prevalence",
            "True",
        ),
        _refuse(
            g,
            "ConfusionMatrix.at_prevalence",
            "a class absent",
            lambda: ConfusionMatrix(tp=0, fp=2, fn=0, tn=5).at_prevalence(0.3),
            "at_prevalence",
            mentions=("both classes",),
        ),
        Case(
            g,
            "ScoreCurve.at_prevalence",
            "average precision at 0.5 vs scikit-learn on reweighted rows",
            lambda: curve.at_prevalence(0.5).auc("pr"),
            expect=lambda v: _close(v, float(skm.average_precision_score(y, s, sample_weight=w))),
        ),
        _refuse(
            g,
            "ScoreCurve.at_prevalence",
            "prevalence above 1",
            lambda: curve.at_prevalence(1.5),
            "prevalence",
            "1.5",
        ),
        _refuse(
            g,
            "ScoreCurve.at_prevalence",
            "a list prevalence",
            lambda: curve.at_prevalence([0.5]),
            "prevalence",
        ),
        Case(
            g,
            "ops_prevalence_profile",
            "OPS of precision flat across prevalences",
            lambda: ops_prevalence_profile(cm, "precision", [0.01, 0.5, 0.99]).ops_range,
            expect=lambda r: 0 <= r < 1e-9,
        ),
        Case(
            g,
            "ops_prevalence_profile",
            "OPS of F1 at 0.5 = the Uniform OPS of F1(0.5, alpha, beta)",
            lambda: (
                ops_prevalence_profile(cm, "f1", [0.5])
                .table.set_index("prevalence")
                .loc[0.5, "ops"]
            ),
            expect=lambda v: _close(
                v,
                float(
                    Uniform()
                    .ops("f1", float(skm.f1_score(y, p, sample_weight=w)), prevalence=0.5)
                    .estimate
                ),
                1e-9,
            ),
        ),
        _refuse(
            g,
            "ops_prevalence_profile",
            "a prevalence of 0",
            lambda: ops_prevalence_profile(cm, "f1", [0.0, 0.5]),
            "prevalences",
            "0.0",
        ),
        _refuse(
            g,
            "ops_prevalence_profile",
            "a NaN prevalence",
            lambda: ops_prevalence_profile(cm, "f1", [float("nan")]),
            "prevalences",
        ),
        _refuse(
            g,
            "ops_prevalence_profile",
            "a string for rng (was numpy's SeedSequence error)",
            lambda: ops_prevalence_profile(cm, "f1", [0.5], ci="dirichlet", rng="abc"),
            "rng",
            "'abc'",
        ),
        _refuse(
            g,
            "ops_prevalence_profile",
            "True for rng (was taken as the seed 1)",
            lambda: ops_prevalence_profile(cm, "f1", [0.5], ci="dirichlet", rng=True),
            "rng",
            "True",
        ),
        _refuse(
            g,
            "plotting.plot_ops_function",
            "a prevalence of 1.5 among the prevalences (was named `prevalence`)",
            lambda: plot_ops_function("f1", prevalences=[0.2, 1.5]),
            "prevalences",
            "1.5",
        ),
        _refuse(
            g,
            "ops_prevalence_profile",
            "an array for obj",
            lambda: ops_prevalence_profile(np.zeros(3), "f1"),
            "obj",
            "array of shape (3,)",
        ),
        _refuse(
            g,
            "ops_prevalence_profile",
            "an unknown metric",
            lambda: ops_prevalence_profile(cm, "f2"),
            "metric",
            "'f2'",
        ),
        _refuse(
            g,
            "ops_prevalence_profile",
            "too many prevalences",
            lambda: ops_prevalence_profile(cm, "f1", np.linspace(0.001, 0.999, 5000)),
            "prevalences",
            "5,000",
        ),
        Case(
            g,
            "PrevalenceProfile.summary",
            "the summary names the metric and the verdict",
            lambda: str(ops_prevalence_profile(cm, "mcc", [0.5]).summary()),
            expect=lambda t: "Matthews correlation coefficient" in t and "not invariant" in t,
        ),
        Case(
            g,
            "evaluate",
            "standardized F1 per group vs scikit-learn on reweighted rows",
            lambda: evaluate(
                frame,
                truth="y",
                score="s",
                threshold=1.0,
                metrics=["f1"],
                by="g",
                prevalence=0.5,
                ci=None,
            )["standardized"].tolist(),
            expect=lambda vals: all(
                _close(
                    v,
                    float(
                        skm.f1_score(
                            y[frame["g"] == g],
                            p[frame["g"] == g],
                            sample_weight=np.where(
                                y[frame["g"] == g],
                                0.5 / y[frame["g"] == g].mean(),
                                0.5 / (1 - y[frame["g"] == g].mean()),
                            ),
                        )
                    ),
                )
                for g, v in zip((0, 1), vals, strict=True)
            ),
        ),
        _refuse(
            g,
            "evaluate",
            "prevalence 1",
            lambda: evaluate(frame, truth="y", score="s", threshold=1.0, prevalence=1),
            "prevalence",
            "1.0",
        ),
        _refuse(
            g,
            "evaluate",
            "a string prevalence",
            lambda: evaluate(frame, truth="y", score="s", threshold=1.0, prevalence="half"),
            "prevalence",
            "'half'",
        ),
        Case(
            g,
            "ops_prevalence_invariant",
            "PR AUC not invariant, ROC AUC and precision at a recall invariant",
            lambda: (
                ops_prevalence_invariant("pr_auc"),
                ops_prevalence_invariant("roc_auc"),
                ops_prevalence_invariant("precision", {"recall": 0.5}),
            ),
            expect=lambda r: r == (False, True, True),
        ),
        _refuse(
            g,
            "ops_prevalence_invariant",
            "an unknown quantity",
            lambda: ops_prevalence_invariant("qr_auc"),
            "metric",
            "'qr_auc'",
        ),
        _refuse(
            g,
            "register_metric",
            "prevalence_invariant not a boolean",
            lambda: register_metric(
                "x_inv",
                lambda p_, a, b: b,
                direction="lower",
                range=(0, 1),
                prevalence_invariant="yes",
            ),
            "prevalence_invariant",
            "'yes'",
        ),
        _refuse(
            g,
            "register_metric",
            "monotone not a boolean",
            lambda: register_metric(
                "x_inv", lambda p_, a, b: b, direction="lower", range=(0, 1), monotone=1
            ),
            "monotone",
            "1",
        ),
        _refuse(
            g,
            "compare_test_sets",
            "a curve where a confusion matrix is compared",
            lambda: compare_test_sets({"a": curve, "b": cm}, metric="f1"),
            "test_sets['a']",
            "ScoreCurve",
        ),
        Case(
            g,
            "compare_test_sets",
            "one classifier standardized twice: difference exactly 0",
            lambda: (
                compare_test_sets(
                    {
                        "a": cm.at_prevalence(0.3),
                        "b": ConfusionMatrix(
                            tp=2 * cm.tp, fp=cm.fp, fn=2 * cm.fn, tn=cm.tn
                        ).at_prevalence(0.3),
                    },
                    metric="f1",
                    rng=0,
                ).estimate
            ),
            expect=lambda d: d == 0.0,
        ),
    ]


def _monitor_cases() -> list[Case]:
    """``opsstats.monitor``: its bad inputs refused naming the argument, and values
    checked against scikit-learn on each period's rows and against the exact zero of an
    unchanged classifier (a period whose positives are the baseline's twice over: the
    same alpha and beta at another prevalence)."""
    from sklearn import metrics as skm

    from opsstats import monitor

    rng = np.random.default_rng(29)
    y = rng.random(600) < 0.15
    y[:3], y[3:6] = True, False
    s = np.round(rng.normal(y * 1.3, 1.0), 3)
    a = pd.DataFrame({"y": y.astype(int), "s": s, "m": "a"})
    # period b: a's rows with every positive twice: alpha and beta exactly a's
    b = pd.concat([a, a[a["y"] == 1]], ignore_index=True).assign(m="b")
    frame = pd.concat([a, b], ignore_index=True)
    kw: dict[str, Any] = {"truth": "y", "score": "s", "threshold": 1.0, "metrics": ["f1"]}

    def table(**extra: Any) -> pd.DataFrame:
        return monitor(frame, time="m", rng=0, n_resamples=200, **{**kw, **extra}).table

    return [
        Case(
            "monitor",
            "monitor",
            "raw F1 per period vs scikit-learn",
            lambda: table()["value"].tolist(),
            expect=lambda v: all(
                abs(got - skm.f1_score(g["y"], g["s"] >= 1.0)) < 1e-12
                for got, (_, g) in zip(v, frame.groupby("m"), strict=True)
            ),
        ),
        Case(
            "monitor",
            "monitor",
            "the same alpha and beta at another prevalence: change and classifier part 0",
            lambda: table().iloc[1],
            expect=lambda r: (
                r["change"] == 0.0
                and r["classifier_part"] == 0.0
                and r["value"] != table().iloc[0]["value"]
                and not r["classifier_changed"]
            ),
        ),
        Case(
            "monitor",
            "monitor",
            "time not a str",
            lambda: monitor(frame, time=3, **kw),
            argument="time",
            received="3",
        ),
        Case(
            "monitor",
            "monitor",
            "time not a column",
            lambda: monitor(frame, time="month", **kw),
            argument="time",
            received="'month'",
        ),
        Case(
            "monitor",
            "monitor",
            "one period",
            lambda: monitor(a, time="m", **kw),
            argument="time",
            mentions=("1 period",),
        ),
        Case(
            "monitor",
            "monitor",
            "baseline not a period",
            lambda: monitor(frame, time="m", baseline="c", **kw),
            argument="baseline",
            received="'c'",
        ),
        Case(
            "monitor",
            "monitor",
            "baseline prevalence 1",
            lambda: monitor(frame, time="m", baseline=1.0, **kw),
            argument="baseline",
            received="1.0",
        ),
        Case(
            "monitor",
            "monitor",
            "adjust unknown",
            lambda: monitor(frame, time="m", adjust="bh", **kw),
            argument="adjust",
            received="'bh'",
        ),
        Case(
            "monitor",
            "monitor",
            "time among by",
            lambda: monitor(frame, time="m", by=["m"], **kw),
            argument="by",
            mentions=("time",),
        ),
        Case(
            "monitor",
            "monitor",
            "missing periods",
            lambda: monitor(frame.assign(m=frame["m"].where(frame.index > 0)), time="m", **kw),
            argument="time",
            mentions=("missing",),
        ),
    ]


def _wilson(x: int, n: int) -> tuple[float, float]:
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(x, n, method="wilson")
    return float(lo), float(hi)


def _beta_ci(x: int, n: int) -> tuple[float, float]:
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(x, n, method="beta")
    return float(lo), float(hi)


def _compare_threshold_cases() -> list[Case]:
    """``threshold=`` of ``compare`` and ``compare_test_sets`` (predicted labels
    ``score >= threshold``, as ``evaluate`` makes them): each side's F1 checked against
    scikit-learn on the thresholded scores, and the threshold's bad values refused by
    the one threshold check. They use the API added with them, so an older checkout
    fails them."""
    from opsstats import compare, compare_test_sets

    df = _frame()
    y, s = df["y"].to_numpy(), df["s"].to_numpy()
    s2 = np.round(s * 0.5 + np.random.default_rng(5).normal(0, 1, len(s)), 3)
    out = []
    for name, v, shown in (
        ("nan", float("nan"), "nan"),
        ("inf", float("inf"), "inf"),
        ("a string", "0.5", "'0.5'"),
        ("a boolean", True, "True"),
    ):
        out.append(
            _refuse(
                "thresholds",
                "compare",
                f"threshold {name}",
                lambda v=v: compare(y, {"A": s, "B": s2}, threshold=v, metric="f1", rng=0),
                "threshold",
                shown,
            )
        )
        out.append(
            _refuse(
                "thresholds",
                "compare_test_sets",
                f"threshold {name}",
                lambda v=v: compare_test_sets(
                    {"a": (y[:200], s[:200]), "b": (y[200:], s[200:])}, threshold=v, rng=0
                ),
                "threshold",
                shown,
            )
        )

    def paired() -> bool:
        # sklearn.metrics.f1_score(y, s >= 0.25) for each classifier
        r = compare(y, {"A": s, "B": s2}, threshold=0.25, metric="f1", rng=0)
        a, b = _sklearn("f1", y, s >= 0.25), _sklearn("f1", y, s2 >= 0.25)
        return _close(r.estimate_a, a) and _close(r.estimate_b, b) and _close(r.estimate, a - b)

    def unpaired() -> bool:
        # sklearn.metrics.f1_score of each test set's scores >= 0.25
        r = compare_test_sets(
            {"a": (y[:200], s[:200]), "b": (y[200:], s[200:])}, threshold=0.25, rng=0
        )
        a, b = _sklearn("f1", y[:200], s[:200] >= 0.25), _sklearn("f1", y[200:], s[200:] >= 0.25)
        return _close(r.estimate_a, a) and _close(r.estimate_b, b)

    out.append(
        Case("thresholds", "compare", "threshold 0.25 (F1 vs scikit-learn)", paired, expect=bool)
    )
    out.append(
        Case(
            "thresholds",
            "compare_test_sets",
            "threshold 0.25 (F1 vs scikit-learn)",
            unpaired,
            expect=bool,
        )
    )
    return out


# ------------------------------------------------- what a pROC user reaches for
def _proc_habits_cases() -> list[Case]:
    """The entry points added for pROC users (the unpaired Venkatraman test, the best
    threshold within a partial-AUC range, the power of two partial AUCs, case weights in
    the multi-class AUC): a value checked independently and the everyday bad inputs.
    They use the API added with them, so an older checkout fails them."""
    from opsstats import ScoreCurve
    from opsstats.comparison import power_roc_test_curves, venkatraman_unpaired_test
    from opsstats.curves.multiclass import multiclass_roc_auc

    rng = np.random.default_rng(29)
    y = rng.random(200) < 0.4
    y[:2], y[2:4] = True, False
    s = np.round(rng.normal(y * 1.0, 1.0), 2)
    s2 = np.round(0.7 * s + rng.normal(0, 0.7, 200), 2)
    curve = ScoreCurve.from_scores(y, s)
    k = rng.integers(0, 3, 150)
    k[:3] = [0, 1, 2]
    probs = rng.dirichlet(np.ones(3), 150)
    wk = rng.integers(0, 4, 150)

    def best_in_range() -> bool:
        # brute force: every threshold rule "score >= t" whose FPR is at most 0.1
        b = curve.best_threshold(fpr_range=(0, 0.1))
        P, N = int(y.sum()), int((~y).sum())
        best = max(
            Fraction(int((s[y] >= t).sum()), P) - Fraction(int((s[~y] >= t).sum()), N)
            for t in [np.inf, *np.unique(s)]
            if Fraction(int((s[~y] >= t).sum()), N) <= Fraction(1, 10)
        )
        return _close(float(b["youden"].iloc[0]), float(best))

    return [
        Case(
            "pROC habits",
            "venkatraman_unpaired_test",
            "two identical test sets: E = 0, p = 1",
            lambda: venkatraman_unpaired_test({"a": (y, s), "b": (y, s)}, n_resamples=100, rng=0),
            expect=lambda r: r.statistic == 0.0 and r.p_value == 1.0,
        ),
        _refuse(
            "pROC habits",
            "venkatraman_unpaired_test",
            "one test set",
            lambda: venkatraman_unpaired_test({"a": (y, s)}),
            "test_sets",
            received="dict",
        ),
        _refuse(
            "pROC habits",
            "venkatraman_unpaired_test",
            "NaN score",
            lambda: venkatraman_unpaired_test({"a": (y, np.r_[np.nan, s[1:]]), "b": (y, s)}),
            "test_sets['a'][1]",
        ),
        Case(
            "pROC habits",
            "ScoreCurve.best_threshold",
            "fpr_range: Youden's J by brute force over the rules",
            best_in_range,
            expect=bool,
        ),
        _refuse(
            "pROC habits",
            "ScoreCurve.best_threshold",
            "fpr_range of text",
            lambda: curve.best_threshold(fpr_range="low"),
            "fpr_range",
            received="'low'",
        ),
        _refuse(
            "pROC habits",
            "power_roc_test_curves",
            "fpr_range with DeLong's variance",
            lambda: power_roc_test_curves(y, {"a": s, "b": s2}, power=0.8, fpr_range=(0, 0.2)),
            "fpr_range",
            mentions=("obuchowski",),
        ),
        Case(
            "pROC habits",
            "multiclass_roc_auc",
            "integer sample_weight = repeated rows",
            lambda: multiclass_roc_auc(k, probs, sample_weight=wk),
            expect=lambda v: _close(
                v, multiclass_roc_auc(np.repeat(k, wk), np.repeat(probs, wk, axis=0))
            ),
        ),
        _refuse(
            "pROC habits",
            "multiclass_roc_auc",
            "NaN sample_weight",
            lambda: multiclass_roc_auc(k, probs, sample_weight=np.r_[np.nan, np.ones(149)]),
            "sample_weight",
        ),
    ]


def _change_cases() -> list[Case]:
    """The decomposition of a change between two test sets and the test of "the
    classifier changed" (docs/method.md#decomposition, #classifier-change): values
    against scikit-learn on rows reweighted to the other set's prevalence, scipy's
    chi-squared test, and the everyday bad inputs."""
    from scipy import stats
    from sklearn import metrics as skm

    from opsstats import ConfusionMatrix, classifier_change_test, decompose

    rng = np.random.default_rng(2028)
    ys, ps = [], []
    for pi in (0.1, 0.35):
        y = rng.random(500) < pi
        ys.append(y)
        ps.append(np.round(rng.normal(y * 1.2, 1.0), 3) > 0.8)
    cms = [ConfusionMatrix.from_predictions(y, p) for y, p in zip(ys, ps, strict=True)]
    pi1 = cms[1].prevalence
    # the before rows reweighted to the after set's prevalence
    w = np.where(ys[0], pi1 / ys[0].mean(), (1 - pi1) / (1 - ys[0].mean()))
    f1_before_at_after = float(skm.f1_score(ys[0], ps[0], sample_weight=w))
    pairs = [(y.astype(int), p.astype(int)) for y, p in zip(ys, ps, strict=True)]
    w1 = np.where(ys[1], cms[0].prevalence / pi1, (1 - cms[0].prevalence) / (1 - pi1))
    d_std = float(skm.f1_score(ys[1], ps[1], sample_weight=w1)) - float(skm.f1_score(ys[0], ps[0]))
    a, b = cms
    x2 = sum(
        stats.chi2_contingency(table, correction=False)[0]
        for table in ([[a.fp, a.tn], [b.fp, b.tn]], [[a.fn, a.tp], [b.fn, b.tp]])
    )
    return [
        Case(
            "classifier change",
            "decompose",
            "a corner vs scikit-learn on reweighted rows",
            lambda: decompose(*pairs, metric="f1", ci=None).corners[0][1],
            expect=lambda v: _close(v, f1_before_at_after),
        ),
        Case(
            "classifier change",
            "decompose",
            "the parts add up to the change of scikit-learn's F1",
            lambda: decompose(*pairs, metric="f1", ci=None),
            expect=lambda d: _close(
                d.prevalence_part + d.classifier_part,
                float(skm.f1_score(ys[1], ps[1])) - float(skm.f1_score(ys[0], ps[0])),
            ),
        ),
        Case(
            "classifier change",
            "decompose",
            "the same classifier twice: classifier part exactly 0",
            lambda: decompose(cms[0], cms[0].at_prevalence(0.4), metric="mcc", ci=None),
            expect=lambda d: d.classifier_part == 0.0,
        ),
        _refuse(
            "classifier change",
            "decompose",
            "a string test set",
            lambda: decompose(cms[0], "jan", metric="f1"),
            "after",
            "'jan'",
        ),
        _refuse(
            "classifier change",
            "decompose",
            "an unknown ci",
            lambda: decompose(*cms, metric="f1", ci="exact"),
            "ci",
            "'exact'",
        ),
        _refuse(
            "classifier change",
            "decompose",
            "too few resamples",
            lambda: decompose(*cms, metric="f1", n_resamples=10),
            "n_resamples",
            "10",
        ),
        _refuse(
            "classifier change",
            "decompose",
            "a confidence level of 95",
            lambda: decompose(*cms, metric="f1", confidence_level=95),
            "confidence_level",
            "95",
        ),
        _refuse(
            "classifier change",
            "decompose",
            "a NaN threshold",
            lambda: decompose(*pairs, metric="f1", threshold=float("nan")),
            "threshold",
            "nan",
        ),
        _refuse(
            "classifier change",
            "decompose",
            "a class absent",
            lambda: decompose(cms[0], ConfusionMatrix(tp=0, fp=3, fn=0, tn=9), metric="f1"),
            "after",
            mentions=("both classes",),
        ),
        Case(
            "classifier change",
            "classifier_change_test",
            "D vs scikit-learn's F1 on the after rows reweighted to the before prevalence",
            lambda: classifier_change_test(*pairs, metric="f1", rng=0).estimate,
            expect=lambda v: _close(v, d_std),
        ),
        Case(
            "classifier change",
            "classifier_change_test",
            "error rates: X-squared vs scipy's chi2_contingency",
            lambda: classifier_change_test(*cms, metric="error_rates").statistic,
            expect=lambda v: _close(v, float(x2)),
        ),
        _refuse(
            "classifier change",
            "classifier_change_test",
            "prevalence 0",
            lambda: classifier_change_test(*cms, metric="f1", prevalence=0),
            "prevalence",
            "0",
        ),
        _refuse(
            "classifier change",
            "classifier_change_test",
            "a string prevalence",
            lambda: classifier_change_test(*cms, metric="f1", prevalence="0.3"),
            "prevalence",
            "'0.3'",
        ),
        _refuse(
            "classifier change",
            "classifier_change_test",
            "error rates with a prevalence",
            lambda: classifier_change_test(*cms, metric="error_rates", prevalence=0.3),
            "prevalence",
        ),
        _refuse(
            "classifier change",
            "classifier_change_test",
            "error rates of a standardized matrix",
            lambda: classifier_change_test(cms[0].at_prevalence(0.3), cms[1], metric="error_rates"),
            "before",
            mentions=("whole counts",),
        ),
    ]


def _build() -> list[Case]:
    groups = (
        _threshold_cases,
        _cache_cases,
        _integer_cases,
        _multiclass_cases,
        _draws_cases,
        _small_cases,
        _resource_cases,
        _markedness_cases,
        _message_cases,
        _default_cases,
        _entry_point_cases,
        _new_threshold_cases,
        _p_value_cases,
        _power_cases,
        _weights_and_labels_cases,
        _count_array_cases,
        _plan_cases,
        _curve_argument_cases,
        _new_resource_cases,
        _cancellation_cases,
        _prevalence_cases,
        _change_cases,
        _monitor_cases,
        _proc_habits_cases,
        _compare_threshold_cases,
    )
    cases: list[Case] = []
    for group in groups:
        cases.extend(group())
    return cases


#: The table. Group "ordinary" holds the ordinary cases of every entry point.
CASES: list[Case] = _build()

__all__ = ["OUTCOMES", "Case", "CASES", "classify", "census"]

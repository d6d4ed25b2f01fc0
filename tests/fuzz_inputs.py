"""The input classes of the fuzz suite and the generic oracle, applied by an argument's name
and annotation to every public entry point (``tests/fuzz_entry_points.py`` holds their
minimal valid calls).

An argument's *kind* (:func:`kind_of`) is read from its name (``y_true``, ``y_score``,
``threshold``, ``confidence_level``, ``n_resamples``, ``tp``, ``prevalence``, ...) and,
for the names not listed, from its annotation (``float``, ``int``, ``str``, ``bool``).
Each kind has its bad values (:data:`BAD`), one per input class of the table: NaN, inf,
None, empty, one class, all ties, huge and tiny numbers, wrong types, ragged and nullable
arrays, mismatched lengths, out-of-range values and resource-sized values. A bad value is
a constant or a function of the argument's valid value (a NaN put into the valid array,
its last row dropped, ...), and it says what the call must do:

``refuse``
    raise a clear error (below);
``either``
    a clear error or a valid result;
``sized``
    a work-sizing value far above what memory allows: a clear error that states the
    memory estimate, or a valid result made in bounded memory;
``paired``
    ``refuse`` where the call takes another array to pair with (a length mismatch),
    ``either`` where it takes this one only;
``scalar``
    ``refuse`` where the annotation is a scalar type (``float``, ``int``), ``either``
    where it allows more (a vectorized ``value`` or ``prevalence``);
``integer``
    ``refuse`` unless the annotation is ``float`` (a fractional count of rows).

The oracle (:func:`judge`): a *clear error* is a ``ValueError`` or ``TypeError`` whose
message names the argument in backticks (`` `y_true` `` or `` `y_true[...]` ``), says
what was received (``got ...``, or the word of its class: empty, missing, NaN, ...), is
one line of at most 600 characters, and was raised having allocated at most 64 MiB. A
*valid result* is a return value without an unexplained NaN: a NaN where the entry
point's minimal valid call has a number comes with a warning of the package or a
non-empty ``reason`` on its row. (The NaN of the minimal valid call are its result's
structure, read by hand: a quantity that call does not compute, such as the degrees of
freedom of a z test or the value interval of an OPS table, or a 0/0 point its
documentation names, such as the precision at recall 0 of a PR curve.)
"""

from __future__ import annotations

import dataclasses
import math
import re
import tracemalloc
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

#: The outcome classes of a generated case, best first (the census adds "correct" for
#: the hand-written cases, whose values are checked against independent computations).
OUTCOMES = (
    "clear error",  # ValueError/TypeError naming the argument and what was received
    "valid result",  # accepted, no unexplained NaN (not checked against a peer)
    "unhelpful error",  # ValueError/TypeError without the argument or the received value
    "other exception",  # any other exception (KeyError, IndexError, AttributeError, ...)
    "silent NaN or wrong",  # accepted what must be refused, or an unexplained NaN
    "over memory or time",  # above the memory bound, MemoryError, or stopped (census)
)

#: Messages are one line of reasonable length (objects described, never their repr).
MAX_MESSAGE = 600
#: Memory a refused call may allocate before refusing (bytes), and a call given a
#: resource-sized value may allocate if it is not refused.
REFUSAL_MEMORY = 64 * 2**20
#: A work-sizing value far above what any machine holds.
HUGE_SIZE = 10**9

_PACKAGE = str(Path(__file__).resolve().parents[1] / "opsstats")


@dataclass(frozen=True)
class Bad:
    """One bad value of a kind: ``value`` (a constant, or with ``relative`` a function of
    the valid value), what the call must do (``expect``), and words of which one in a
    refusal shows what was received besides "got" (``shown``)."""

    name: str
    value: Any
    expect: str = "refuse"
    relative: bool | str = False
    shown: tuple[str, ...] = ()
    also: tuple[str, ...] = ()  # other arguments a refusal may name (a frame's columns)

    def make(self, valid: Any, kwargs: dict[str, Any]) -> Any:
        if self.relative == "frame":
            return self.value(valid, kwargs)
        if not self.relative:
            return self.value
        if isinstance(valid, dict) and valid:  # {name: column}: the first column
            first, *_ = valid
            return {**valid, first: self.value(valid[first])}
        if isinstance(valid, list | tuple) and valid and np.ndim(valid[0]) >= 1:
            return [self.value(valid[0]), *valid[1:]]  # a list of columns: the first
        return self.value(valid)

    def resolved(self, annotation: str, paired: bool, default: Any) -> Bad:
        """This bad value with its expectation resolved for one argument (None is the
        default of an optional argument, a valid value)."""
        if self.value is None and not self.relative and default is None:
            return dataclasses.replace(self, expect="either")
        scalar = annotation.split(" | ")[0] in ("float", "int")
        expect = {
            "paired": "refuse" if paired else "either",
            "scalar": "refuse" if scalar else "either",
            "integer": "either" if annotation.startswith("float") else "refuse",
        }.get(self.expect, self.expect)
        return dataclasses.replace(self, expect=expect)


# ------------------------------------------------------------------ array mutations
def _as_list(valid: Any) -> Any:
    if isinstance(valid, pd.Series | pd.Index):
        return valid.to_list()
    return np.asarray(valid).tolist()


def _with_first(valid: Any, value: Any) -> Any:
    """The valid array (1-D or 2-D) with its first element replaced (object dtype
    where the value does not fit)."""
    arr = np.array(_as_list(valid), dtype=object)
    arr[(0,) * arr.ndim] = value
    return arr


def _nullable(valid: Any) -> Any:
    """A pandas nullable column (Int64, Float64 or boolean) with <NA> first."""
    arr = np.asarray(_as_list(valid))
    if arr.ndim != 1:
        frame = pd.DataFrame(arr).convert_dtypes()
        frame.iloc[0, 0] = pd.NA
        return frame
    series = pd.Series(arr).convert_dtypes()
    series.iloc[0] = pd.NA
    return series


def _drop_last(valid: Any) -> Any:
    return np.asarray(_as_list(valid))[:-1]


def _empty(valid: Any) -> Any:
    arr = np.asarray(_as_list(valid))
    return arr[:0]


def _ragged(valid: Any) -> Any:
    items = _as_list(valid)
    return [items[0], [items[1], items[1]], *items[2:]]


def _one_class(valid: Any) -> Any:
    arr = np.asarray(_as_list(valid))
    return np.full_like(arr, arr.flat[0])


def _scaled(factor: float) -> Callable[[Any], Any]:
    def scale(valid: Any) -> Any:
        return np.asarray(_as_list(valid), dtype=float) * factor

    return scale


def _mixed_types(valid: Any) -> Any:
    """Labels mixing strings and integers ("a" where the first label was)."""
    arr = np.array(_as_list(valid), dtype=object)
    if arr.ndim != 1:
        return arr
    first = arr[0]
    return np.array(["a" if v == first else v for v in arr], dtype=object)


def _nested(valid: Any) -> Any:
    """Unhashable labels: every label a set of itself."""
    items = _as_list(valid)
    arr = np.empty(len(items), dtype=object)
    arr[:] = [{v if not isinstance(v, list) else tuple(v)} for v in items]
    return arr


# ------------------------------------------------------------------ frame mutations
def _frame_column(kwargs: dict[str, Any], arg: str) -> str | None:
    """The column an argument names (the first of a list of columns)."""
    col = kwargs.get(arg)
    if isinstance(col, list | tuple) and col:
        col = col[0]
    return col if isinstance(col, str) else None


def _frame_nan(frame: pd.DataFrame, kwargs: dict[str, Any]) -> pd.DataFrame:
    out = frame.copy()
    for arg in ("truth", "score", "pred"):
        col = _frame_column(kwargs, arg)
        if col is not None and col in out:
            out[col] = out[col].astype(object if out[col].dtype == object else float)
            out.loc[out.index[0], col] = np.nan
    return out


def _frame_nullable(frame: pd.DataFrame, kwargs: dict[str, Any]) -> pd.DataFrame:
    out = frame.convert_dtypes()
    col = _frame_column(kwargs, "truth")
    if col is not None and col in out:
        out.loc[out.index[0], col] = pd.NA
    return out


def _frame_one_class(frame: pd.DataFrame, kwargs: dict[str, Any]) -> pd.DataFrame:
    out = frame.copy()
    col = _frame_column(kwargs, "truth")
    if col is not None and col in out:
        out[col] = out[col].iloc[0]
    return out


def _frame_ties(frame: pd.DataFrame, kwargs: dict[str, Any]) -> pd.DataFrame:
    out = frame.copy()
    col = _frame_column(kwargs, "score")
    if col is not None and col in out:
        out[col] = 0.5
    return out


def _frame_list_scores(frame: pd.DataFrame, kwargs: dict[str, Any]) -> pd.DataFrame:
    out = frame.copy()
    col = _frame_column(kwargs, "score") or _frame_column(kwargs, "truth")
    if col is not None and col in out:
        out[col] = [[v, v] for v in out[col]]
    return out


def _frame_strings(frame: pd.DataFrame, kwargs: dict[str, Any]) -> pd.DataFrame:
    out = frame.copy()
    col = (
        _frame_column(kwargs, "score")
        or _frame_column(kwargs, "pred")
        or _frame_column(kwargs, "truth")
    )
    if col is not None and col in out:
        out[col] = out[col].astype(str).str.cat(["x"] * len(out))
    return out


# ----------------------------------------------------------------------- the kinds
#: The arguments that name a frame's columns: a refusal of a bad column of ``data``
#: may name them (`` `truth` (column 'y') must not contain NaN``).
_COLUMN_ARGS = ("truth", "score", "pred", "weight", "by")

_NUMBER_TYPES = [
    Bad("nan", float("nan"), shown=("nan",)),
    Bad("inf", float("inf"), shown=("inf",)),
    Bad("a string", "0.5", shown=("'0.5'",)),
    Bad("a complex number", 0.5 + 0.5j, shown=("0.5",)),
    Bad("a boolean", True, shown=("True",)),
    Bad("a list", [0.5], "scalar", shown=("[0.5]", "list")),
]

_ARRAY_TYPES = [
    Bad("None", None, shown=("None",)),
    Bad("a string", "abc", shown=("'abc'",)),
    Bad("a number", 5, shown=("5",)),
    Bad("a dict", {"a": 1}, shown=("dict", "{'a': 1}")),
    Bad("ragged", _ragged, relative=True, shown=("ragged", "list", "length", "scalar")),
    Bad("empty", _empty, relative=True, shown=("empty", "0 rows", "shape (0")),
]

BAD: dict[str, list[Bad]] = {
    "labels": [
        *_ARRAY_TYPES,
        Bad(
            "NaN inside",
            lambda v: _with_first(v, float("nan")),
            relative=True,
            shown=("NaN", "nan", "missing"),
        ),
        Bad(
            "None inside", lambda v: _with_first(v, None), relative=True, shown=("None", "missing")
        ),
        Bad("nullable <NA>", _nullable, relative=True, shown=("missing", "<NA>")),
        Bad("mismatched length", _drop_last, "paired", relative=True, shown=("length",)),
        Bad("one class", _one_class, "either", relative=True),
        Bad("strings and integers", _mixed_types, "either", relative=True),
        Bad("unhashable labels", _nested, relative=True, shown=("list", "scalar")),
    ],
    "scores": [
        *_ARRAY_TYPES,
        Bad(
            "NaN inside",
            lambda v: _with_first(v, float("nan")),
            relative=True,
            shown=("NaN", "nan", "finite"),
        ),
        Bad(
            "inf inside",
            lambda v: _with_first(v, float("inf")),
            relative=True,
            shown=("inf", "finite"),
        ),
        Bad(
            "None inside",
            lambda v: _with_first(v, None),
            relative=True,
            shown=("None", "missing", "numeric"),
        ),
        Bad(
            "a string inside",
            lambda v: _with_first(v, "x"),
            relative=True,
            shown=("'x'", "numeric"),
        ),
        Bad("nullable <NA>", _nullable, relative=True, shown=("missing", "<NA>")),
        Bad("mismatched length", _drop_last, "paired", relative=True, shown=("length",)),
        Bad(
            "all ties",
            lambda v: np.zeros_like(np.asarray(_as_list(v), dtype=float)),
            "either",
            relative=True,
        ),
        Bad("huge", _scaled(1e300), "either", relative=True),
        Bad("tiny", _scaled(1e-300), "either", relative=True),
    ],
    "weights": [
        *_ARRAY_TYPES,
        Bad(
            "NaN inside",
            lambda v: _with_first(v, float("nan")),
            relative=True,
            shown=("NaN", "nan", "finite"),
        ),
        Bad("negative", lambda v: _with_first(v, -1.0), relative=True, shown=("-1",)),
        Bad("mismatched length", _drop_last, relative=True, shown=("length", "one weight")),
        Bad(
            "all zero",
            lambda v: np.zeros_like(np.asarray(_as_list(v), dtype=float)),
            "either",
            relative=True,
        ),
        Bad("huge", lambda v: np.full(np.shape(v), 1e308), "either", relative=True),
        Bad("tiny", _scaled(1e-300), "either", relative=True),
    ],
    "threshold": [
        *_NUMBER_TYPES,
        Bad("-inf", -float("inf"), shown=("-inf",)),
        Bad("huge", 1e300, "either"),
    ],
    # a curve's threshold (ScoreCurve.confusion_matrix): +inf and -inf are its two ends
    "curve_threshold": [
        *(b for b in _NUMBER_TYPES if b.name != "inf"),
        Bad("huge", 1e300, "either"),
    ],
    "confidence_level": [
        *_NUMBER_TYPES,
        Bad("0", 0.0, shown=("0",)),
        Bad("1", 1.0, shown=("1",)),
        Bad("1.5", 1.5, shown=("1.5",)),
        Bad("-0.1", -0.1, shown=("-0.1",)),
    ],
    "size": [
        Bad("1e9", HUGE_SIZE, "sized", shown=("1,000,000,000", "1e+09", "1000000000")),
        Bad("1e30", 10**30, "sized", shown=("digits", "1e+30")),
        Bad("0", 0, shown=("0",)),
        Bad("-1", -1, shown=("-1",)),
        Bad("2.5", 2.5, "integer", shown=("2.5",)),
        Bad("a string", "100", shown=("'100'",)),
        Bad("nan", float("nan"), shown=("nan",)),
        Bad("a boolean", True, shown=("True",)),
    ],
    "rng": [
        Bad("a string", "abc", shown=("'abc'",)),
        Bad("-1", -1, shown=("-1",)),
        Bad("2.5", 2.5, shown=("2.5",)),
        Bad("a boolean", True, shown=("True",)),
    ],
    "pos_label": [
        Bad("absent label", "no_such_label", shown=("'no_such_label'",)),
        Bad("a list", [1], shown=("[1]", "list")),
        Bad("nan", float("nan"), shown=("nan",)),
    ],
    "metric": [
        Bad("unknown name", "no_such_metric", shown=("'no_such_metric'",)),
        Bad("a number", 5, shown=("5",)),
        Bad("empty string", "", shown=("''",)),
        Bad("None", None, "either"),
    ],
    "count": [
        Bad("-1", -1, shown=("-1",)),
        Bad("nan", float("nan"), shown=("nan",)),
        Bad("inf", float("inf"), shown=("inf",)),
        Bad("a string", "3", shown=("'3'",)),
        Bad("2**70", 2**70, shown=("digits", "1180591620717411303424", "2**63")),
        Bad("a complex number", 3 + 1j, shown=("3",)),
        Bad("a boolean", True, shown=("True",)),
        Bad("1.5", 1.5, "either"),
        Bad("0", 0, "either"),
    ],
    "probability": [
        *_NUMBER_TYPES,
        Bad("-0.1", -0.1, shown=("-0.1",)),
        Bad("1.5", 1.5, shown=("1.5",)),
        Bad("0", 0.0, "either"),
        Bad("1", 1.0, "either"),
    ],
    "probabilities": [
        Bad("a string", "abc", shown=("'abc'",)),
        Bad("a dict", {"a": 1}, shown=("dict", "{'a': 1}")),
        Bad("empty", _empty, relative=True, shown=("empty", "0 ", "shape (0")),
        Bad(
            "NaN inside",
            lambda v: _with_first(v, float("nan")),
            relative=True,
            shown=("NaN", "nan"),
        ),
        Bad("-0.1 inside", lambda v: _with_first(v, -0.1), relative=True, shown=("-0.1",)),
        Bad("1.5 inside", lambda v: _with_first(v, 1.5), relative=True, shown=("1.5",)),
    ],
    "positive": [
        *_NUMBER_TYPES,
        Bad("0", 0.0, shown=("0",)),
        Bad("-1", -1.0, shown=("-1",)),
        Bad("huge", 1e300, "either"),
    ],
    "real": [
        *_NUMBER_TYPES,
        Bad("huge", 1e300, "either"),
        Bad("tiny", 1e-300, "either"),
    ],
    "correlation": [
        *_NUMBER_TYPES,
        Bad("2", 2.0, shown=("2",)),
        Bad("-1.5", -1.5, shown=("-1.5",)),
    ],
    "range": [  # a range of rates (either order is taken where pROC takes it)
        Bad("reversed", (0.5, 0.1), "either"),
        Bad("past 1", (0.1, 1.5), shown=("1.5",)),
        Bad("nan", (float("nan"), 0.5), shown=("nan",)),
        Bad("a number", 0.5, shown=("0.5",)),
        Bad("a string", "abc", shown=("'abc'",)),
        Bad("three values", (0.1, 0.2, 0.3), shown=("3 value",)),
    ],
    "interval": [  # a pair (low, high) of any finite numbers (a difference's range)
        Bad("reversed", (0.5, 0.1), shown=("(0.5, 0.1)",)),
        Bad("nan", (float("nan"), 0.5), shown=("nan",)),
        Bad("a number", 0.5, shown=("0.5",)),
        Bad("a string", "abc", shown=("'abc'",)),
        Bad("three values", (0.1, 0.2, 0.3), shown=("3 value",)),
    ],
    "digits": [
        Bad("-1", -1, shown=("-1",)),
        Bad("18", 18, shown=("18",)),
        Bad("100000", 100000, shown=("100000",)),
        Bad("2.5", 2.5, shown=("2.5",)),
        Bad("a string", "3", shown=("'3'",)),
        Bad("a boolean", True, shown=("True",)),
    ],
    "p_values": [
        Bad("negative", lambda v: _with_first(v, -0.1), relative=True, shown=("-0.1",)),
        Bad("above 1", lambda v: _with_first(v, 1.5), relative=True, shown=("1.5",)),
        Bad("inf inside", lambda v: _with_first(v, float("inf")), relative=True, shown=("inf",)),
        Bad("strings", ["a", "b"], shown=("'a'", "list")),
        Bad("2-D", [[0.1, 0.2]], shown=("2-D", "1-D", "list", "shape")),
        Bad("None", None, shown=("None",)),
    ],
    "curve": [
        Bad("an array", np.arange(10.0), shown=("array",)),
        Bad("None", None, shown=("None",)),
        Bad("a string", "roc", shown=("'roc'",)),
    ],
    "confusion": [
        Bad("an array", np.arange(4.0), shown=("array",)),
        Bad("None", None, shown=("None",)),
        Bad("a dict", {"tp": 1}, shown=("dict", "{'tp': 1}")),
    ],
    "frame": [
        Bad("None", None, shown=("None",)),
        Bad("a list", [1, 2, 3], shown=("list", "[1, 2, 3]")),
        Bad(
            "empty",
            lambda f, kw: f.head(0),
            relative="frame",
            shown=("empty", "no rows", "0 rows", "shape (0"),
            also=_COLUMN_ARGS,
        ),
        Bad(
            "NaN cells",
            _frame_nan,
            relative="frame",
            shown=("NaN", "nan", "missing", "finite"),
            also=_COLUMN_ARGS,
        ),
        Bad(
            "nullable <NA>",
            _frame_nullable,
            relative="frame",
            shown=("missing", "<NA>"),
            also=_COLUMN_ARGS,
        ),
        Bad("one class", _frame_one_class, "either", relative="frame"),
        Bad("all ties", _frame_ties, "either", relative="frame"),
        Bad(
            "list cells",
            _frame_list_scores,
            relative="frame",
            shown=("list", "scalar"),
            also=_COLUMN_ARGS,
        ),
        Bad("strings", _frame_strings, relative="frame", shown=("numeric", "'"), also=_COLUMN_ARGS),
    ],
    "column": [
        Bad("absent column", "no_such_column", shown=("'no_such_column'",)),
        Bad("a number", 12345, shown=("12345",)),
    ],
    "option": [
        Bad("unknown option", "no_such_option", shown=("'no_such_option'",)),
        Bad("a number", 5, shown=("5",)),
    ],
    "flag": [
        Bad("a string", "yes", "either"),
        Bad("None", None, "either"),
    ],
    "reference": [
        Bad("a string", "uniform", shown=("'uniform'",)),
        Bad("a number", 5, shown=("5",)),
    ],
}

#: Argument names and their kinds (before annotations are read).
NAMES: dict[str, str] = {
    **dict.fromkeys(("y_true", "y_pred", "y"), "labels"),
    **dict.fromkeys(("y_score", "y_response"), "scores"),
    **dict.fromkeys(("sample_weight", "weights"), "weights"),
    **dict.fromkeys(("threshold",), "threshold"),
    **dict.fromkeys(("confidence_level",), "confidence_level"),
    **dict.fromkeys(
        (
            "n_resamples",
            "n_sims",
            "n_draws",
            "n",
            "bins",
            "points",
            "n_points",
            "n_curves",
            "depth",
            "max_distinct",
            "cache_size",
        ),
        "size",
    ),
    **dict.fromkeys(("rng", "seed"), "rng"),
    **dict.fromkeys(("pos_label",), "pos_label"),
    **dict.fromkeys(("metric",), "metric"),
    **dict.fromkeys(("tp", "fp", "fn", "tn", "successes", "trials"), "count"),
    **dict.fromkeys(
        (
            "prevalence",
            "alpha",
            "beta",
            "sig_level",
            "power",
            "prevalence_b",
            "alpha_b",
            "beta_b",
            "auc",
        ),
        "probability",
    ),
    **dict.fromkeys(
        ("kappa", "ncases", "ncontrols", "half_width", "cost_fp", "cost_fn", "test_to_train"),
        "positive",
    ),
    **dict.fromkeys(("a", "a1", "a2", "delta", "value", "skew"), "real"),
    **dict.fromkeys(("b", "b1", "b2"), "positive"),
    **dict.fromkeys(("rn", "ra"), "correlation"),
    **dict.fromkeys(("fpr", "fpr1", "fpr2", "fpr_range", "tpr_range"), "range"),
    **dict.fromkeys(("rope",), "interval"),
    **dict.fromkeys(("digits",), "digits"),
    **dict.fromkeys(("p_values",), "p_values"),
    **dict.fromkeys(("prevalences",), "probabilities"),
    **dict.fromkeys(("curve", "curve_a", "curve_b"), "curve"),
    **dict.fromkeys(("cm",), "confusion"),
    **dict.fromkeys(("data",), "frame"),
    **dict.fromkeys(
        (
            "truth",
            "score",
            "pred",
            "compare_by",
            "weight",
            "id",
            "compare",
            "estimate",
            "low",
            "high",
        ),
        "column",
    ),
    **dict.fromkeys(("reference", "point_reference", "curve_reference"), "reference"),
}

#: Free text: any string is a valid value (a title, a display name, a description).
FREE_TEXT = {"title", "xlabel", "ylabel", "label", "description", "formula", "undefined", "names"}


def annotation_text(annotation: Any) -> str:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    return text.replace("'", "")


def kind_of(name: str, annotation: Any) -> str | None:
    """The kind of an argument from its name, else from its annotation (a ``str``
    option, a ``bool`` flag, a ``float`` or ``int`` number); None when neither says
    (free text, callables, objects of the caller's own)."""
    text = annotation_text(annotation)
    if name in FREE_TEXT:
        return None
    if name == "name":  # a metric's name where the annotation says so, else free text
        return "metric" if "Metric" in text else None
    if name in NAMES:
        kind = NAMES[name]
        if text in ("str", "str | None") and kind not in ("metric", "column"):
            return "option"  # `prevalence="fixed"`, `curve="roc"`: an option, not a number
        if kind == "range" and name == "fpr" and "tuple" not in text:
            return None  # `fpr` of IsoLine.tpr: values on the axis, not a range
        return kind
    if text in ("str", "str | None"):
        return "option"
    if text in ("bool", "bool | None"):
        return "flag"
    if text in ("float", "float | None"):
        return "real"
    if text in ("int", "int | None"):
        return "size" if name.startswith("n_") else "real"
    return None


# -------------------------------------------------------------------------- oracle
def named(message: str, argument: str) -> bool:
    """The message names the argument in backticks (`` `name` `` or `` `name[...]` ``)."""
    return re.search(r"`" + re.escape(argument) + r"(\[[^`]*\]|\.[^`]*)?`", message) is not None


def clear(message: str, argument: str, bad: Bad) -> tuple[bool, str]:
    """Whether a refusal message is clear, and what it lacks."""
    missing = []
    if not any(named(message, a) for a in (argument, *bad.also)):
        missing.append(f"`{argument}`")
    if (
        "got" not in message
        and "received" not in message
        and not any(word in message for word in bad.shown)
    ):
        missing.append("what was received")
    if "\n" in message or len(message) > MAX_MESSAGE:
        missing.append("one line of at most 600 characters")
    if bad.expect == "sized" and "memory" not in message and "would need" not in message:
        missing.append("the memory estimate")
    return not missing, ", ".join(missing)


def _opsstats_warning(w: warnings.WarningMessage) -> bool:
    """A warning that explains a NaN: the package's own categories, or a UserWarning
    (the package's notes, e.g. a zero variance); not numpy's RuntimeWarnings or the
    libraries' deprecations."""
    module = getattr(w.category, "__module__", "")
    return (
        module.startswith("opsstats")
        or (
            issubclass(w.category, UserWarning)
            and not issubclass(w.category, DeprecationWarning | FutureWarning)
        )
        or (str(w.filename).startswith(_PACKAGE) and not issubclass(w.category, RuntimeWarning))
    )


def nan_locations(result: Any) -> set[str]:
    """Where a result holds NaN: a number's path (``result.p_value``, ``result.ci[0]``)
    or a table's column (``result.table[value_ci_low]``), leaving out the rows whose
    ``reason`` says why."""
    found: set[str] = set()
    _find_nan(result, "result", 0, found)
    return found


def _find_nan(obj: Any, path: str, depth: int, found: set[str]) -> None:
    if depth > 4 or obj is None or isinstance(obj, str | bytes | bool):
        return
    if isinstance(obj, float | np.floating):
        if math.isnan(obj):
            found.add(path)
        return
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind == "f" and np.isnan(obj).any():
            found.add(path)
        return
    if isinstance(obj, pd.DataFrame):
        numeric = obj.select_dtypes("number")
        nan = numeric.isna().to_numpy().copy()
        if "reason" in obj:
            nan[obj["reason"].fillna("").astype(str).str.len().gt(0).to_numpy()] = False
        found.update(f"{path}[{c}]" for c in numeric.columns[nan.any(axis=0)])
        return
    if isinstance(obj, pd.Series):
        if obj.dtype.kind == "f":
            found.update(f"{path}[{i!r}]" for i in obj.index[obj.isna().to_numpy()])
        return
    if isinstance(obj, dict):
        if not obj.get("reason"):
            for k, v in obj.items():
                _find_nan(v, f"{path}[{k!r}]", depth + 1, found)
        return
    if isinstance(obj, tuple | list) and len(obj) <= 50:
        for i, v in enumerate(obj):
            _find_nan(v, f"{path}[{i}]", depth + 1, found)
        return
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        details = getattr(obj, "details", None)
        if isinstance(details, dict) and details.get("reason"):
            return
        for f in dataclasses.fields(obj):
            if f.name not in ("draws", "details"):  # draws are data (undefined ones counted)
                _find_nan(getattr(obj, f.name), f"{path}.{f.name}", depth + 1, found)


@dataclass(frozen=True)
class Verdict:
    outcome: str
    detail: str


def judge(
    call: Callable[[], Any],
    argument: str | None,
    bad: Bad | None,
    structure: Callable[[], set[str]] = set,
) -> Verdict:
    """Run one call and sort its outcome into :data:`OUTCOMES`. ``argument`` and
    ``bad``: the argument that was given the bad value and what it must do (None for
    a minimal valid call, which must give a valid result); ``structure()``: the NaN
    locations of the minimal valid call's result."""
    tracemalloc.start()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = call()
    except (ValueError, TypeError) as exc:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        message = f"{type(exc).__name__}: {str(exc)[:300]}"
        if peak > REFUSAL_MEMORY:
            return Verdict("over memory or time", f"allocated {peak / 2**20:.0f} MiB; {message}")
        if argument is None or bad is None:
            return Verdict("unhelpful error", f"an error where a value was due: {message}")
        ok, lacking = clear(str(exc), argument, bad)
        if not ok:
            return Verdict("unhelpful error", f"{message} (lacks {lacking})")
        return Verdict("clear error", message)
    except MemoryError as exc:
        tracemalloc.stop()
        return Verdict("over memory or time", f"MemoryError: {exc}")
    except Exception as exc:
        tracemalloc.stop()
        return Verdict("other exception", f"{type(exc).__name__}: {str(exc)[:300]}")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    shown = _short(result)
    if bad is not None and bad.expect == "sized" and peak > REFUSAL_MEMORY:
        return Verdict("over memory or time", f"allocated {peak / 2**20:.0f} MiB")
    if bad is not None and bad.expect == "refuse":
        return Verdict("silent NaN or wrong", f"accepted, returned {shown}")
    found = nan_locations(result) if bad is not None else set()
    if found and not any(_opsstats_warning(w) for w in caught):
        where = sorted(found - structure())
        if where:
            return Verdict(
                "silent NaN or wrong", f"NaN without a reason at {', '.join(where[:3])}: {shown}"
            )
    return Verdict("valid result", "")


def _short(value: Any) -> str:
    try:
        text = repr(value)
    except Exception as exc:  # a repr that fails is itself worth reporting
        text = f"<repr failed: {type(exc).__name__}>"
    text = " ".join(text.split())
    return text if len(text) < 160 else text[:157] + "..."

"""Bad values for every public parameter of ConfusionMatrix and the metric registry.

Each ``match=`` checks that the message names the argument (in backticks) and says
what was received, as STYLE.md asks: "`prevalence` must be in [0, 1]; got 1.5."
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from opsstats import ConfusionMatrix
from opsstats.metrics import available_metrics, get_metric, register_metric, unregister_metric

CM = ConfusionMatrix
GOOD = {"tp": 3, "fp": 1, "fn": 2, "tn": 4}


def counts(**bad):
    return {**GOOD, **bad}


def _metric(p, a, b):
    return 1 - a


# --------------------------------------------------------------- the constructor


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (counts(tp=-1), ValueError, r"`tp` must be a finite non-negative number; got -1\."),
        (counts(fn=-0.5), ValueError, r"`fn` must be a finite non-negative number; got -0\.5\."),
        (counts(fp=np.nan), ValueError, r"`fp` must be a finite non-negative number; got nan\."),
        (counts(fn=np.inf), ValueError, r"`fn` must be a finite non-negative number; got inf\."),
        (counts(tn=-np.inf), ValueError, r"`tn` must be a finite non-negative number; got -inf\."),
        (counts(tp="3"), TypeError, r"`tp` must be a non-negative number; got '3'\."),
        (counts(tn=None), TypeError, r"`tn` must be a non-negative number; got None\."),
        (counts(fp=True), TypeError, r"`fp` must be a non-negative number; got True\."),
        (counts(tp=[1, 2]), TypeError, r"`tp` must be a non-negative number; got \[1, 2\]\."),
        (
            counts(tp=np.array([1, 2])),
            TypeError,
            r"`tp` must be a non-negative number; got an array of shape \(2,\)",
        ),
        (
            {"tp": 0, "fp": 0, "fn": 0, "tn": 0},
            ValueError,
            r"needs at least one observation; got tp \+ fp \+ fn \+ tn = 0\.",
        ),
        ({"tp": 0.0, "fp": 0, "fn": 0, "tn": 0}, ValueError, r"tp \+ fp \+ fn \+ tn = 0"),
    ],
)
def test_constructor_bad_counts(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        ConfusionMatrix(**kwargs)


def test_constructor_is_keyword_only():
    with pytest.raises(TypeError, match="positional argument"):
        ConfusionMatrix(3, 1, 2, 4)  # the order TP, FP, FN, TN is too easy to get wrong
    with pytest.raises(TypeError, match="tn"):
        ConfusionMatrix(tp=3, fp=1, fn=2)


# --------------------------------------------------------------- from_predictions


@pytest.mark.parametrize(
    "args, kwargs, exc, match",
    [
        # missing values in the labels
        (
            ([1, np.nan, 0], [1, 0, 0]),
            {},
            ValueError,
            r"`y_true` must not contain NaN; got 1 NaN value\(s\), the first at position 1\.",
        ),
        (
            ([1, 0, 0], [0.0, 1.0, np.nan]),
            {},
            ValueError,
            r"`y_pred` must not contain NaN; got 1 NaN value\(s\), the first at position 2\.",
        ),
        (
            (["a", "b", "a"], ["a", None, "b"]),
            {"pos_label": "a"},
            ValueError,
            r"`y_pred` must not contain missing values; got 1 missing value\(s\) \(<NA>, NaN "
            r"or None\), the first at position 1\.",
        ),
        # shapes
        (
            ([1, 0, 1], [1, 0]),
            {},
            ValueError,
            r"`y_true` and `y_pred` must have the same length; got 3 and 2\.",
        ),
        (
            (np.zeros((2, 3)), np.zeros((2, 3))),
            {},
            ValueError,
            r"`y_true` must be 1-dimensional; got an array of shape \(2, 3\)\.",
        ),
        (
            ([0, 1, 0], np.zeros((3, 2))),
            {},
            ValueError,
            r"`y_pred` must be 1-dimensional; got an array of shape \(3, 2\)\.",
        ),
        (
            (pd.DataFrame({"a": [0, 1], "b": [1, 0]}), [0, 1]),
            {},
            ValueError,
            r"`y_true` must be 1-dimensional; got an array of shape \(2, 2\)\.",
        ),
        ((1, [1]), {}, TypeError, r"`y_true` must be a 1-D array-like; got 1\."),
        (("abc", [1, 0, 1]), {}, TypeError, r"`y_true` must be a 1-D array-like; got 'abc'\."),
        ((None, [1]), {}, TypeError, r"`y_true` must be array-like; got None\."),
        (([], []), {}, ValueError, r"`y_true` must not be empty\."),
        # labels
        (
            ([0, 1, 2], [0, 1, 1]),
            {},
            ValueError,
            r"`y_true` and `y_pred` together must hold binary labels .*got 3 distinct values: "
            r"0, 1, 2\.",
        ),
        (
            ([0, 1, 1], [0, 1, 1]),
            {"pos_label": 2},
            ValueError,
            r"`pos_label` must be one of the labels present in `y_true` and `y_pred` together; "
            r"got 2, labels present: \[0, 1\]\.",
        ),
        (
            (["spam", "ham"], ["spam", "spam"]),
            {"pos_label": "eggs"},
            ValueError,
            r"`pos_label` must be one of the labels present .*got 'eggs', labels present: "
            r"\['ham', 'spam'\]\.",
        ),
        (
            (["spam", "ham"], ["spam", "spam"]),
            {},
            ValueError,
            r"`pos_label` must be given when the labels are not \{0, 1\}, \{-1, 1\} or "
            r"booleans; got labels \['ham', 'spam'\]\.",
        ),
        (
            (np.array(["0", "1", "1"]), np.array([0, 1, 1])),
            {"pos_label": "1"},
            TypeError,
            r"labels must be all strings or all numbers; got `y_true` holds strings; `y_pred` "
            r"holds numbers\.",
        ),
        # sample_weight
        (
            ([0, 1], [0, 1]),
            {"sample_weight": [1, -0.5]},
            ValueError,
            r"`sample_weight` must be non-negative; got -0\.5 at position 1\.",
        ),
        (
            ([0, 1], [0, 1]),
            {"sample_weight": [1, np.nan]},
            ValueError,
            r"`sample_weight` must contain only finite numbers; got 1 NaN or infinite "
            r"value\(s\), the first at position 1 \(nan\)\.",
        ),
        (
            ([0, 1], [0, 1]),
            {"sample_weight": [np.inf, 1]},
            ValueError,
            r"`sample_weight` must contain only finite numbers; .* at position 0 \(inf\)\.",
        ),
        (
            ([0, 1], [0, 1]),
            {"sample_weight": [1, 1, 1]},
            ValueError,
            r"`sample_weight` must have one weight per row \(2\); got 3\.",
        ),
        (
            ([0, 1], [0, 1]),
            {"sample_weight": ["a", "b"]},
            TypeError,
            r"`sample_weight` must be numeric; got dtype <U1 \(e\.g\. 'a'\)\.",
        ),
        (
            ([0, 1], [0, 1]),
            {"sample_weight": np.ones((2, 2))},
            ValueError,
            r"`sample_weight` must be 1-dimensional; got an array of shape \(2, 2\)\.",
        ),
        (
            ([0, 1], [0, 1]),
            {"sample_weight": [0, 0]},
            ValueError,
            r"`sample_weight` must have a positive sum; got weights that are all 0\.",
        ),
    ],
)
def test_from_predictions_bad_values(args, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        ConfusionMatrix.from_predictions(*args, **kwargs)


# --------------------------------------------------------------------- from_rates

RATES = {"n": 100, "prevalence": 0.3, "alpha": 0.1, "beta": 0.2}


@pytest.mark.parametrize(
    "bad, exc, match",
    [
        ({"prevalence": 1.5}, ValueError, r"`prevalence` must be in \[0, 1\]; got 1\.5\."),
        ({"prevalence": -0.1}, ValueError, r"`prevalence` must be in \[0, 1\]; got -0\.1\."),
        ({"alpha": -0.1}, ValueError, r"`alpha` must be in \[0, 1\]; got -0\.1\."),
        ({"alpha": 1.0001}, ValueError, r"`alpha` must be in \[0, 1\]; got 1\.0001\."),
        ({"beta": 2}, ValueError, r"`beta` must be in \[0, 1\]; got 2\.0\."),
        ({"beta": np.nan}, ValueError, r"`beta` must be finite; got nan\."),
        ({"alpha": np.inf}, ValueError, r"`alpha` must be finite; got inf\."),
        ({"beta": "0.2"}, TypeError, r"`beta` must be a real number; got '0\.2'\."),
        ({"prevalence": None}, TypeError, r"`prevalence` must be a real number; got None\."),
        ({"n": 0}, ValueError, r"`n` must be in \(0, inf\); got 0\.0\."),
        ({"n": -5}, ValueError, r"`n` must be in \(0, inf\); got -5\.0\."),
        ({"n": np.inf}, ValueError, r"`n` must be finite; got inf\."),
        ({"n": "100"}, TypeError, r"`n` must be a real number; got '100'\."),
    ],
)
def test_from_rates_bad_values(bad, exc, match):
    with pytest.raises(exc, match=match):
        ConfusionMatrix.from_rates(**{**RATES, **bad})


def test_from_rates_is_keyword_only():
    with pytest.raises(TypeError, match="positional argument"):
        ConfusionMatrix.from_rates(100, 0.3, 0.1, 0.2)


# --------------------------------------------------------------------- metric()


def test_unknown_metric_lists_valid_names_and_a_close_match():
    cm = ConfusionMatrix(**GOOD)
    with pytest.raises(
        ValueError,
        match=r"unknown metric 'presicion'\. Did you mean "
        r"'precision'\?",
    ) as info:
        cm.metric("presicion")
    message = str(info.value)
    assert "`name` must be a registered name or alias" in message
    # every valid name is listed
    listed = message.split("valid names: ", 1)[1].rstrip(".").split(", ")
    assert listed == sorted(available_metrics())


def test_unknown_metric_without_close_match():
    with pytest.raises(
        ValueError,
        match=r"unknown metric 'zzz'\. `name` must be a "
        r"registered name or alias; valid names: accuracy, ",
    ):
        ConfusionMatrix(**GOOD).metric("zzz")


def test_metric_name_of_wrong_type():
    with pytest.raises(TypeError, match=r"`name` must be a metric name \(str\); got 3\."):
        ConfusionMatrix(**GOOD).metric(3)


@pytest.mark.parametrize(
    "name, params, exc, match",
    [
        (
            "f1",
            {"beta": 2},
            TypeError,
            r"metric 'f1' takes no parameters; got unexpected parameter\(s\) 'beta'\.",
        ),
        (
            "fbeta",
            {"gamma": 2},
            TypeError,
            r"metric 'fbeta' takes `beta`; got unexpected parameter\(s\) 'gamma'\.",
        ),
        (
            "fbeta",
            {"beta": 0},
            ValueError,
            r"`beta` \(the F-beta weight\) must be a finite positive number; got 0\.",
        ),
        (
            "fbeta",
            {"beta": -1.5},
            ValueError,
            r"`beta` \(the F-beta weight\) must be a finite positive number; got -1\.5\.",
        ),
        (
            "fbeta",
            {"beta": np.inf},
            ValueError,
            r"`beta` \(the F-beta weight\) must be a finite positive number; got inf\.",
        ),
        (
            "fbeta",
            {"beta": np.nan},
            ValueError,
            r"`beta` \(the F-beta weight\) must be a finite positive number; got nan\.",
        ),
        (
            "fbeta",
            {"beta": "2"},
            TypeError,
            r"`beta` \(the F-beta weight\) must be a positive number; got '2'\.",
        ),
        (
            "fbeta",
            {"beta": None},
            TypeError,
            r"`beta` \(the F-beta weight\) must be a positive number; got None\.",
        ),
        (
            "fbeta",
            {"beta": True},
            TypeError,
            r"`beta` \(the F-beta weight\) must be a positive number; got True\.",
        ),
    ],
)
def test_metric_bad_parameters(name, params, exc, match):
    with pytest.raises(exc, match=match):
        ConfusionMatrix(**GOOD).metric(name, **params)


# -------------------------------------------------------------- register_metric


@pytest.fixture
def cleanup():
    """Unregister anything a test managed to register under these names."""
    yield
    for name in ("test_new_metric",):
        if name in available_metrics():
            unregister_metric(name)


def _register(**kwargs):
    args = {
        "name": "test_new_metric",
        "func": _metric,
        "direction": "higher",
        "range": (0, 1),
        **kwargs,
    }
    return register_metric(args.pop("name"), args.pop("func"), **args)


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        # duplicate names and aliases
        (
            {"name": "f1"},
            ValueError,
            r"`name` must not be an existing metric name or alias; got 'f1', already a "
            r"registered metric\. Pass `overwrite=True`",
        ),
        (
            {"name": "ACC"},
            ValueError,
            r"`name` must not be an existing metric name or alias; got 'acc', already an alias "
            r"of 'accuracy'\.",
        ),
        (
            {"aliases": ("tpr",)},
            ValueError,
            r"`aliases` must not be an existing metric name or alias; got 'tpr', already an "
            r"alias of 'recall'\.",
        ),
        # name
        ({"name": ""}, TypeError, r"`name` must be a non-empty string; got ''\."),
        ({"name": 5}, TypeError, r"`name` must be a non-empty string; got 5\."),
        # direction
        ({"direction": "up"}, ValueError, r"`direction` must be 'higher' or 'lower'; got 'up'\."),
        (
            {"direction": "Higher"},
            ValueError,
            r"`direction` must be 'higher' or 'lower'; got 'Higher'\.",
        ),
        (
            {"direction": None},
            TypeError,
            r"needs `func`, `direction` and `range` when `name` "
            r"is a string; got no `direction`\.",
        ),
        # range
        (
            {"range": (1, 0)},
            ValueError,
            r"`range` must be a pair \(low, high\) of numbers with low < high; got \(1, 0\)\.",
        ),
        ({"range": (0.5, 0.5)}, ValueError, r"`range` must be .* low < high; got \(0\.5, 0\.5\)\."),
        ({"range": (np.nan, 1)}, ValueError, r"`range` must be .* low < high; got \(nan, 1\)\."),
        ({"range": (0,)}, ValueError, r"`range` must be a pair .*; got 1 value\(s\): \(0,\)\."),
        ({"range": (0, 1, 2)}, ValueError, r"`range` must be a pair .*; got 3 value\(s\)"),
        ({"range": "01"}, TypeError, r"`range` must be a pair .*; got '01'\."),
        ({"range": ("0", "1")}, TypeError, r"`range` must be a pair .*; got \('0', '1'\)\."),
        ({"range": None}, TypeError, r"got no `range`\."),
        # func
        (
            {"func": lambda p, a: 1 - a},
            TypeError,
            r"`func` must take \(prevalence, alpha, beta\) as its first three positional "
            r"arguments; got the signature \(p, a\)\.",
        ),
        (
            {"func": lambda p, a, b, c: 1 - a},
            TypeError,
            r"`func` must take \(prevalence, alpha, beta\) .*; got the signature \(p, a, b, c\)\.",
        ),
        ({"func": lambda p, a, b, *, k: 1 - a}, TypeError, r"got the signature \(p, a, b, \*, k\)"),
        ({"func": 3}, TypeError, r"`func` must be callable; got 3\."),
        ({"func": None}, TypeError, r"got no `func`\."),
    ],
)
def test_register_metric_bad_values(kwargs, exc, match, cleanup):
    before = available_metrics()
    with pytest.raises(exc, match=match):
        _register(**kwargs)
    assert available_metrics() == before  # nothing half-registered


def test_register_metric_accepts_valid_signatures(cleanup):
    # defaults, declared parameters and *args are all fine
    for func, params in [
        (lambda p, a, b, w=0.5: w * a, {}),
        (lambda p, a, b, k: k * a, {"k": 1.0}),
        (lambda *args: 1 - args[1], {}),
        (lambda p, a, b, *, k: k * a, {"k": 1.0}),
    ]:
        _register(func=func, params=params)
        assert get_metric("test_new_metric").func is func
        unregister_metric("test_new_metric")


def test_unregistered_name_is_unknown():
    with pytest.raises(ValueError, match=r"unknown metric 'test_never_registered'"):
        unregister_metric("test_never_registered")


# -------------------------------------------------------------------- immutability


@pytest.mark.parametrize(
    "attribute", ["tp", "fp", "fn", "tn", "n", "prevalence", "_tp", "new_attribute"]
)
def test_confusion_matrix_is_immutable(attribute):
    cm = ConfusionMatrix(**GOOD)
    with pytest.raises(AttributeError, match=rf"immutable: cannot set `{re.escape(attribute)}`"):
        setattr(cm, attribute, 10)
    assert cm.as_dict() == GOOD


@pytest.mark.parametrize("attribute", ["tp", "_tp"])
def test_confusion_matrix_attributes_cannot_be_deleted(attribute):
    cm = ConfusionMatrix(**GOOD)
    with pytest.raises(AttributeError, match=rf"immutable: cannot delete `{attribute}`"):
        delattr(cm, attribute)
    assert cm.tp == 3


def test_registry_objects_are_immutable():
    metric = get_metric("f1")
    with pytest.raises(AttributeError):
        metric.direction = "lower"
    with pytest.raises(TypeError):
        get_metric("fbeta").params["beta"] = 2.0  # a read-only mapping
    assert get_metric("fbeta").params["beta"] == 1.0
    bound = get_metric("fbeta").bind(beta=2)
    with pytest.raises(AttributeError):
        bound.param_items = ()

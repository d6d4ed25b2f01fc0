"""The metric registry: every confusion-matrix metric, defined once.

A metric is a vectorized function of (prevalence, alpha, beta) -- numpy broadcasting --
with its name, aliases, direction, range and the condition under which it is 0/0.
Everything else in the package (confusion matrices, curves, OPS, intervals,
multi-label) reads metrics from here and never re-derives a formula.
"""

from __future__ import annotations

import difflib
import inspect
import numbers
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, cast

import numpy as np

from .._validation import describe

__all__ = [
    "Metric",
    "BoundMetric",
    "register_metric",
    "unregister_metric",
    "get_metric",
    "resolve_metric",
    "available_metrics",
    "metric_table",
]

_DIRECTIONS = ("higher", "lower")


def _is_real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_)


def _check_range(value: Any) -> tuple[float, float]:
    """`range` as (low, high): two real numbers, not NaN, low < high (may be infinite)."""
    expected = "`range` must be a pair (low, high) of numbers with low < high"
    if not isinstance(value, tuple | list):
        raise TypeError(f"{expected}; got {describe(value)}.")
    if len(value) != 2:
        raise ValueError(f"{expected}; got {len(value)} value(s): {describe(value)}.")
    if not all(_is_real(v) for v in value):
        raise TypeError(f"{expected}; got {describe(value)}.")
    lo, hi = float(value[0]), float(value[1])
    if not lo < hi:  # also refuses NaN
        raise ValueError(f"{expected}; got {tuple(value)!r}.")
    return lo, hi


def _key_value(value: Any) -> str:
    # 2, 2.0 and np.float64(2.0) are the same parameter value: one key for all three
    if _is_real(value):
        return repr(float(value))
    return repr(value)


def _check_signature(func: Callable[..., Any], params: Mapping[str, Any]) -> None:
    """`func` must accept (prevalence, alpha, beta) positionally, and need nothing
    else than its declared ``params``."""
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):  # some builtins and ufuncs have no signature
        return
    ps = list(sig.parameters.values())
    positional = [p for p in ps if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    var_positional = any(p.kind == p.VAR_POSITIONAL for p in ps)
    # required arguments after the first three must be supplied as declared params
    extra = [p.name for p in required[3:]] + [
        p.name for p in ps if p.kind == p.KEYWORD_ONLY and p.default is p.empty
    ]
    if (len(positional) < 3 and not var_positional) or set(extra) - set(params):
        raise TypeError(
            "`func` must take (prevalence, alpha, beta) as its first three "
            f"positional arguments; got the signature {sig}."
        )


def _normalize(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", name.strip().lower())


@dataclass(frozen=True, slots=True, eq=False)
class Metric:
    """A confusion-matrix metric M(prevalence, alpha, beta).

    Parameters
    ----------
    name : str
        Canonical name (lower case, ``_`` separated), e.g. ``"f1"``.
    func : callable
        ``func(prevalence, alpha, beta, **params)``; must broadcast over numpy arrays.
        Where the metric is 0/0 it must return NaN (numpy's ``0/0``); the registry
        evaluates it with floating-point warnings silenced.
    direction : {"higher", "lower"}
        Whether higher or lower values mean better performance.
    range : (float, float)
        The metric's range over all (prevalence, alpha, beta); may be infinite.
    aliases : tuple of str
        Other accepted names.
    label : str
        Display name ("F1 score").
    undefined : str
        When the metric is 0/0 (its value there is NaN), e.g. "no predicted positives".
    params : mapping
        Parameter names and default values (e.g. ``{"beta": 1.0}`` for F-beta).
    param_check : callable, optional
        ``param_check(**params)`` raising ``ValueError``/``TypeError`` for bad values.
    formula : str
        The definition in terms of counts, for documentation.
    prevalence_invariant : bool or None
        Whether the metric's OPS under a reference whose law of (alpha, beta) does not
        depend on the prevalence (every point reference of the package) is the same at
        every prevalence for fixed (alpha, beta): True when the metric orders the
        (alpha, beta) plane the same way at every prevalence, M(pi, a, b) =
        h_pi(g(a, b)) with h_pi strictly monotone in one direction for every pi
        (docs/method.md#prevalence-invariance). None: not known (the default for a
        registered metric); the built-in metrics say True or False.
    monotone : bool or None
        Whether, at every prevalence in (0, 1), the metric as a function of alpha at
        fixed beta (and of beta at fixed alpha) is either constant or strictly worse as
        the error rate rises, the same at every prevalence. Binned curves bound a value
        at an operating point only for such metrics (docs/method.md#binned-curves), and
        its OPS on the recall or FPR axis is then prevalence-invariant
        (docs/method.md#prevalence-invariance). None: not known (the default for a
        registered metric); every built-in metric is (tests check it on a grid).

    Examples
    --------
    >>> from opsstats.metrics import get_metric
    >>> m = get_metric("f1")
    >>> m.name, m.direction, m.range
    ('f1', 'higher', (0.0, 1.0))
    >>> round(float(m(0.1, 1.0, 0.0)), 4)   # the trivial positive classifier
    0.1818
    >>> m.prevalence_invariant, get_metric("precision").prevalence_invariant, m.monotone
    (False, True, True)
    """

    name: str
    func: Callable[..., Any]
    direction: str
    range: tuple[float, float]
    aliases: tuple[str, ...] = ()
    label: str = ""
    undefined: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)
    param_check: Callable[..., None] | None = None
    formula: str = ""
    prevalence_invariant: bool | None = None
    monotone: bool | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"`name` must be a non-empty string; got {describe(self.name)}.")
        if not callable(self.func):
            raise TypeError(f"`func` must be callable; got {describe(self.func)}.")
        if self.direction not in _DIRECTIONS:
            raise ValueError(
                f"`direction` must be 'higher' or 'lower'; got {describe(self.direction)}."
            )
        lo, hi = _check_range(self.range)
        for flag in ("prevalence_invariant", "monotone"):
            value = getattr(self, flag)
            if value is not None and not isinstance(value, bool | np.bool_):
                raise TypeError(f"`{flag}` must be True, False or None; got {describe(value)}.")
            object.__setattr__(self, flag, None if value is None else bool(value))
        object.__setattr__(self, "name", _normalize(self.name))
        object.__setattr__(self, "aliases", tuple(_normalize(a) for a in self.aliases))
        object.__setattr__(self, "range", (float(lo), float(hi)))
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))
        if not self.label:
            object.__setattr__(self, "label", self.name)

    @property
    def higher_is_better(self) -> bool:
        return self.direction == "higher"

    def bind(self, **params: Any) -> BoundMetric:
        """This metric with its parameters fixed (defaults filled in, values checked)."""
        unknown = set(params) - set(self.params)
        if unknown:
            expected = ", ".join(f"`{p}`" for p in self.params) or "no parameters"
            raise TypeError(
                f"metric {self.name!r} takes {expected}; got unexpected "
                f"parameter(s) {', '.join(sorted(map(repr, unknown)))}."
            )
        full = {**self.params, **params}
        if self.param_check is not None:
            self.param_check(**full)
        return BoundMetric(self, tuple(sorted(full.items())))

    def __call__(self, prevalence: Any, alpha: Any, beta: Any, **params: Any) -> Any:
        return self.bind(**params)(prevalence, alpha, beta)


@dataclass(frozen=True, slots=True)
class BoundMetric:
    """A metric with fixed parameters: what OPS, intervals and caches work with.

    Examples
    --------
    >>> from opsstats.metrics import resolve_metric
    >>> f2 = resolve_metric("fbeta", beta=2)
    >>> f2.label, f2.key
    ('F-beta score (beta=2)', 'fbeta(beta=2.0)')
    """

    metric: Metric
    param_items: tuple[tuple[str, Any], ...] = ()

    @property
    def name(self) -> str:
        return self.metric.name

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.param_items)

    @property
    def direction(self) -> str:
        return self.metric.direction

    @property
    def higher_is_better(self) -> bool:
        return self.metric.direction == "higher"

    @property
    def range(self) -> tuple[float, float]:
        return self.metric.range

    @property
    def prevalence_invariant(self) -> bool | None:
        """The metric's ``Metric.prevalence_invariant``."""
        return self.metric.prevalence_invariant

    @property
    def monotone(self) -> bool | None:
        """The metric's ``Metric.monotone``."""
        return self.metric.monotone

    @property
    def label(self) -> str:
        """Display label with parameters, e.g. ``"F-beta (beta=2)"``."""
        if not self.param_items:
            return self.metric.label
        inner = ", ".join(
            f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in self.param_items
        )
        return f"{self.metric.label} ({inner})"

    @property
    def key(self) -> str:
        """A stable identifier used as a cache key and column name."""
        if not self.param_items:
            return self.metric.name
        inner = ",".join(f"{k}={_key_value(v)}" for k, v in self.param_items)
        return f"{self.metric.name}({inner})"

    @property
    def cache_key(self) -> tuple[str, Metric]:
        """The key under which values of this metric are cached: :attr:`key` and the
        :class:`Metric` object itself (compared by identity), so that a metric
        registered again under the same name (``overwrite=True``) never meets the
        values cached for the one it replaced."""
        return (self.key, self.metric)

    def __call__(self, prevalence: Any, alpha: Any, beta: Any) -> Any:
        """The metric at (prevalence, alpha, beta), broadcast; float64 results.

        Inputs are evaluated in float64, except that ``np.longdouble`` inputs are kept
        in extended precision (``ConfusionMatrix`` evaluates its metrics that way).
        """
        p, a, b = _as_real_array(prevalence), _as_real_array(alpha), _as_real_array(beta)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            out = self.metric.func(p, a, b, **self.params)
        out = np.asarray(out, dtype=float)
        # A metric that ignores an argument (recall ignores alpha) still returns the
        # broadcast shape of all three, as callers evaluating on grids expect.
        shape = np.broadcast_shapes(p.shape, a.shape, b.shape)
        if out.shape != shape:
            out = np.array(np.broadcast_to(out, shape))
        return out[()] if out.ndim == 0 else out


def _as_real_array(x: Any) -> np.ndarray:
    arr = np.asarray(x)
    return arr if arr.dtype == np.longdouble else np.asarray(x, dtype=float)


_REGISTRY: dict[str, Metric] = {}
_ALIASES: dict[str, str] = {}


def register_metric(
    name: str | Metric,
    func: Callable[..., Any] | None = None,
    *,
    direction: str | None = None,
    range: tuple[float, float] | None = None,
    aliases: tuple[str, ...] = (),
    label: str = "",
    undefined: str = "",
    params: Mapping[str, Any] | None = None,
    param_check: Callable[..., None] | None = None,
    formula: str = "",
    prevalence_invariant: bool | None = None,
    monotone: bool | None = None,
    overwrite: bool = False,
) -> Metric:
    """Add a metric to the registry, so that every feature of the package accepts it.

    Parameters
    ----------
    name : str or Metric
        The metric's name, or a ready :class:`Metric` (then the other arguments
        are not used).
    func : callable
        ``func(prevalence, alpha, beta, **params)``, vectorized with numpy.
    direction : {"higher", "lower"}
        Whether higher or lower values are better.
    range : (float, float)
        The metric's range.
    aliases, label, undefined, params, param_check, formula
        See :class:`Metric`.
    prevalence_invariant : bool or None, default None
        Declare whether the metric's OPS is the same at every prevalence for fixed
        (alpha, beta) under a prevalence-free reference, i.e. whether the metric orders
        the (alpha, beta) plane the same way at every prevalence (see :class:`Metric`;
        docs/method.md#prevalence-invariance). None: not known. The declaration is
        shown by :func:`metric_table` and :func:`opsstats.ops_prevalence_profile`;
        nothing checks it, so declare True only for a metric you have proved it of
        (a function of alpha and beta alone is).
    monotone : bool or None, default None
        Declare that at every prevalence the metric is constant or strictly worse as
        either error rate rises (see :class:`Metric`). None: not known; binned curves
        then give no range for the metric at an operating point.
    overwrite : bool, default False
        Replace an existing metric of the same name.

    Returns
    -------
    Metric

    Raises
    ------
    ValueError
        If the name or an alias is already taken (and ``overwrite`` is False), or if
        the direction or range is invalid.

    Examples
    --------
    >>> import numpy as np
    >>> from opsstats.metrics import register_metric, unregister_metric
    >>> m = register_metric("half_recall", lambda p, a, b: (1 - b) / 2,
    ...                     direction="higher", range=(0, 0.5))
    >>> float(m(0.3, 0.1, 0.2))
    0.4
    >>> unregister_metric("half_recall")
    """
    if isinstance(name, Metric):
        metric = name
    else:
        missing = [
            f"`{k}`"
            for k, v in (("func", func), ("direction", direction), ("range", range))
            if v is None
        ]
        if missing:
            raise TypeError(
                "register_metric() needs `func`, `direction` and `range` when "
                f"`name` is a string; got no {' and no '.join(missing)}."
            )
        if not callable(func):
            raise TypeError(f"`func` must be callable; got {describe(func)}.")
        _check_signature(func, params or {})
        metric = Metric(
            name=name,
            func=func,
            direction=cast(str, direction),  # not None: checked above
            range=cast(tuple[float, float], range),
            aliases=tuple(aliases),
            label=label,
            undefined=undefined,
            params=params or {},
            param_check=param_check,
            formula=formula,
            prevalence_invariant=prevalence_invariant,
            monotone=monotone,
        )
    if not overwrite:
        for arg, n in [("name", metric.name)] + [("aliases", a) for a in metric.aliases]:
            if n in _REGISTRY or n in _ALIASES:
                owner = _ALIASES.get(n, n)
                what = "a registered metric" if n == owner else f"an alias of {owner!r}"
                raise ValueError(
                    f"`{arg}` must not be an existing metric name or alias; "
                    f"got {n!r}, already {what}. Pass `overwrite=True` to "
                    "replace it."
                )
    else:
        if metric.name in _REGISTRY:
            unregister_metric(metric.name)
    _REGISTRY[metric.name] = metric
    for alias in metric.aliases:
        _ALIASES[alias] = metric.name
    return metric


def unregister_metric(name: str) -> None:
    """Remove a metric (by name or alias) and its aliases from the registry.

    Examples
    --------
    >>> from opsstats.metrics import register_metric, unregister_metric, available_metrics
    >>> _ = register_metric("twice_recall", lambda p, a, b: 2 * (1 - b), direction="higher",
    ...                     range=(0, 2))
    >>> unregister_metric("twice_recall")
    >>> "twice_recall" in available_metrics()
    False
    """
    metric = get_metric(name)
    del _REGISTRY[metric.name]
    for alias in metric.aliases:
        _ALIASES.pop(alias, None)


def _close_names(key: str) -> list[str]:
    """The names of the metrics whose name or alias is close to ``key`` (difflib's
    ratio at least 0.6, and within 0.1 of the closest), closest first, at most three: a
    metric's name, never an alias (which may read as an unrelated word, such as 'for').

    Examples
    --------
    >>> _close_names("f1score"), _close_names("sensitivty"), _close_names("zzz")
    (['f1'], ['recall'], [])
    """
    scored: dict[str, float] = {}
    for word in [*_REGISTRY, *_ALIASES]:
        ratio = difflib.SequenceMatcher(None, key, word).ratio()
        name = _ALIASES.get(word, word)
        if ratio >= 0.6 and ratio > scored.get(name, 0.0):
            scored[name] = ratio
    if not scored:
        return []
    best = max(scored.values())
    ranked = sorted(scored, key=lambda n: (-scored[n], n))
    return [n for n in ranked if scored[n] >= best - 0.1][:3]


def get_metric(name: str | Metric | BoundMetric) -> Metric:
    """Look up a metric by name or alias (case and ``-``/``_`` insensitive).

    Raises
    ------
    ValueError
        For an unknown name; the message lists the valid names and close matches.

    Examples
    --------
    >>> get_metric("Sensitivity").name
    'recall'
    """
    return lookup(name, "name")


def lookup(name: Any, argument: str = "metric") -> Metric:
    """:func:`get_metric` for a caller whose argument is called ``argument`` (its
    messages name it: ``cm.metric(name=...)``, ``evaluate(metrics=[...])``)."""
    if isinstance(name, Metric):
        return name
    if isinstance(name, BoundMetric):
        return name.metric
    if not isinstance(name, str):
        raise TypeError(f"`{argument}` must be a metric name (str); got {describe(name)}.")
    key = _normalize(name)
    key = _ALIASES.get(key, key)
    if key in _REGISTRY:
        return _REGISTRY[key]
    close = _close_names(key)
    hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
    raise ValueError(
        f"unknown metric {describe(name)}.{hint} `{argument}` must be a registered name or "
        f"alias; valid names: {', '.join(sorted(_REGISTRY))}."
    )


def resolve_metric(metric: str | Metric | BoundMetric, **params: Any) -> BoundMetric:
    """A :class:`BoundMetric` from a name, a Metric or a BoundMetric plus parameters.

    Examples
    --------
    >>> resolve_metric("fbeta", beta=0.5).params
    {'beta': 0.5}
    """
    return bind(metric, params)


def bind(metric: Any, params: dict[str, Any], argument: str = "metric") -> BoundMetric:
    """:func:`resolve_metric` for a caller whose argument is called ``argument``."""
    if isinstance(metric, BoundMetric):
        if params:
            return metric.metric.bind(**{**metric.params, **params})
        return metric
    return lookup(metric, argument).bind(**params)


def available_metrics() -> list[str]:
    """Canonical names of every registered metric, in registration order.

    Examples
    --------
    >>> names = available_metrics()
    >>> len(names), names[:3]
    (25, ['recall', 'specificity', 'fpr'])
    """
    return list(_REGISTRY)


def metric_table() -> Any:
    """A DataFrame describing every registered metric (name, label, direction, range,
    aliases, parameters, when undefined, formula, whether its OPS is
    prevalence-invariant and whether it is monotone in the error rates; None where not
    known).

    Examples
    --------
    >>> table = metric_table()
    >>> table.loc["mcc", "direction"], float(table.loc["mcc", "low"])
    ('higher', -1.0)
    >>> table.loc[["precision", "f1"], "prevalence invariant"].tolist()
    [True, False]
    """
    import pandas as pd

    rows = [
        {
            "name": m.name,
            "label": m.label,
            "direction": m.direction,
            "low": m.range[0],
            "high": m.range[1],
            "aliases": ", ".join(m.aliases),
            "params": ", ".join(f"{k}={v}" for k, v in m.params.items()),
            "undefined when": m.undefined,
            "formula": m.formula,
            "prevalence invariant": m.prevalence_invariant,
            "monotone": m.monotone,
        }
        for m in _REGISTRY.values()
    ]
    return pd.DataFrame(rows).set_index("name")

"""The shipped table of the default Directed Binary Tree reference
(docs/method.md#dbt-table).

The default DBT (depth 9, G = 100,000 curves, seed 20231) is one fixed sample of
curves, so the sorted values of its curve areas and the quantiles of its band can be
computed once and shipped. The table holds, made by ``scripts/make_dbt_table.py``:

- the ROC AUC of every curve (sorted): the gain AUC is pi / 2 + (1 - pi) ROC AUC on each
  curve and the Gini coefficient 2 ROC AUC - 1, so the three are read off at any
  prevalence;
- for the PR AUC (step) and the lift AUC (step), which depend on the prevalence, at
  nodes k / 32 of s = logit(prevalence): the sorted values at a set of ranks (every
  rank near the ends thinning to every 0.5% of the distance from the nearer end), and
  the values of the curves that reach the 1,024 lowest or highest at some node, at
  nodes k / 16. At prevalence pi the sorted values are rebuilt: the middle ranks cubic
  in s between the four nodes around it and linear between the stored ranks; the 512
  lowest and highest as the sorted values of those curves, each interpolated by the
  degree-5 polynomial through its six nodes around s. Those curves are known by their
  index in the stream, so a count the interpolation cannot settle (an observed value
  within the entry's ``tail_margin`` of one of them) is settled by the reference, which
  draws those curves again and computes their areas (``placed_curves``);
- each curve's FPR at the recalls of a plot's band and of a standardized curve, sorted,
  at a set of ranks: a metric at a recall is a function of the FPR there (the FNR is
  1 - recall), at every prevalence;
- the ROC and PR band's pointwise quantiles at the x values of a plot (``points=50``):
  the quantile ranks of the recall at each FPR (ROC), and of the FPR and FNR at each
  recall (PR: precision at a recall decreases with the FPR there, at every
  prevalence);
- for the lift and gain bands, read on the rate axis that moves with the prevalence:
  the FPR at the band's quantile ranks at 25,801 recalls (``rate_band_recalls``). A
  curve's recall at rate x is at most y exactly when its rate at recall y,
  pi y + (1 - pi) FPR(y), is at least x; so the k-th smallest recall at rate x is where
  the (G - 1 - k)-th smallest FPR at recall y puts that rate at x, at any prevalence.

Values are stored as integers (multiples of a power of two) in differences, and decoded
on first use. A reference whose parameters differ, a quantity or a prevalence the table
does not hold, is computed by a pass over the curves as before.
"""

from __future__ import annotations

import hashlib
import json
import threading
import warnings
import zipfile
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..curves._geometry import (
    CurveArea,
    Gini,
    OperatingPoint,
    curve_area,
    ideal_auc,
    value_at,
)
from ..metrics import resolve_metric
from ._interpolation import cubic_weights, logit, quintic_weights

__all__ = [
    "TABLE_PATH",
    "DBTTable",
    "load_table",
    "fingerprint",
    "band_x",
    "quantile_ranks",
    "rate_band_recalls",
]

TABLE_PATH = Path(__file__).parent / "data" / "dbt_default.npz"
FORMAT = 1

#: The band quantiles the table holds exactly (the plots' defaults and common choices).
BAND_QUANTILES = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.975, 0.99)
#: The highest prevalence at which an entry is read when below the file's range: the
#: lift AUC's values crowd toward 1 as pi -> 1 (at 0.999 all 100,000 lie in 0.9937 to
#: 1.0010), finer than their stored quantum (2**-21) above about 0.99: at 0.999, 17 of
#: the 100,000 gaps between the sorted direct values were missed by up to 0.35 of the
#: count's standard error (docs/method.md#dbt-table).
_UPPER = {"lift": 0.99}
#: Which stored quantity each table entry is: (name in the file, rebuilt by).
_Y = {"roc": ("recall", "fpr"), "pr": ("precision", "recall"), "gain": ("recall", "rate")}


def at_recall_x() -> np.ndarray:
    """The recalls at which the table holds the curves' FPR: the band's x values and the
    standardized curve's k / 21."""
    return np.unique(np.r_[band_x(), np.arange(1, 21) / 21])


def rate_band_recalls() -> np.ndarray:
    """The recalls at which the table holds the band ranks' FPR for the lift and gain
    bands: 16,383 evenly spaced between 0 and 1, and geometrically spaced (0.5% apart)
    from 1e-14 to 0.05 and from 1 - 0.05 to 1 - 1e-9, where the recalls at a rate crowd
    (a curve's FPR is linear in its recall on its first and last segments)."""
    ratio = np.log(1.005)
    low = np.geomspace(1e-14, 0.05, 1 + int(np.log(0.05 / 1e-14) / ratio))
    high = np.geomspace(1e-9, 0.05, 1 + int(np.log(0.05 / 1e-9) / ratio))
    return np.unique(np.r_[np.linspace(0.0, 1.0, 2**14 + 1)[1:-1], low, 1.0 - high])


def band_x(points: int = 50) -> np.ndarray:
    """The x values at which :func:`opsstats.plotting.plot_curve` computes the band."""
    return np.unique(
        np.r_[np.geomspace(1e-3, 1.0 / points, 5), np.linspace(0.0, 1.0, points + 1)[1:]]
    )


def quantile_ranks(n: int, q: float) -> tuple[int, int, float]:
    """The ranks (0-based) and weight of ``np.quantile``'s default (linear) rule for
    the q-th quantile of n sorted values: it reads ranks lo and hi = lo + 1 with weight
    g = (n - 1) q - lo."""
    virtual = (n - 1) * q
    if virtual >= n - 1:
        return n - 1, n - 1, 0.0
    lo = int(np.floor(virtual))
    return lo, lo + 1, float(virtual - lo)


def _lerp(a: Any, b: Any, g: float) -> Any:
    """``np.quantile``'s interpolation between the ranks lo (a) and hi (b), as numpy
    computes it (from the nearer end)."""
    diff = b - a
    return b - diff * (1 - g) if g >= 0.5 else a + diff * g


def fingerprint(reference: Any) -> str:
    """A hash of quantities of the reference's first 200 curves (ROC, PR and lift AUC,
    operating points on the three axes), to 10 significant digits: it changes when the
    curves or the geometry that reads them change, which makes the table stale."""
    m = 200
    buffers = (np.empty((reference.n_points, m)), np.empty((reference.n_points, m)))
    alpha, beta = reference._chunk(0, buffers, (0, m))
    recall, fpr = resolve_metric("recall"), resolve_metric("fpr")
    values = [
        curve_area(CurveArea("roc", "trapezoid"), 0.5, alpha, beta),
        curve_area(CurveArea("pr", "step"), 0.1, alpha, beta),
        curve_area(CurveArea("lift", "step"), 0.03, alpha, beta),
        value_at(OperatingPoint(recall, "rate", 0.2), 0.1, alpha, beta),
        value_at(OperatingPoint(fpr, "recall", 0.5), 0.5, alpha, beta),
        value_at(OperatingPoint(recall, "fpr", 0.3), 0.5, alpha, beta),
    ]
    text = ";".join(np.format_float_scientific(v, precision=9) for v in np.concatenate(values))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _cumsum(codes: np.ndarray, times: int, axis: int) -> np.ndarray:
    out = codes.astype(np.int64)
    for _ in range(times):
        out = np.cumsum(out, axis=axis)
    return out


def _undo_differences(head: np.ndarray, body: np.ndarray) -> np.ndarray:
    """The integers whose differences along axis 0 of orders 0 to n - 1 start with the
    rows of ``head`` (n rows) and whose n-th differences are ``body``."""
    out = body.astype(np.int64)
    for first in head[::-1].astype(np.int64):
        out = np.concatenate([first[None], first + np.cumsum(out, axis=0)])
    return out


class DBTTable:
    """The decoded table (see the module's docstring); built by :func:`load_table`."""

    def __init__(self, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        self.meta = meta
        self._arrays = arrays
        ref = meta["reference"]
        self.params = (ref["depth"], ref["n_curves"], ref["seed"], ref["chunk"])
        self.n_curves = int(ref["n_curves"])
        lo, hi = meta["prevalence_range"]
        self.range = (float(lo), float(hi))
        self._decoded: dict[str, Any] = {}
        self._memo: OrderedDict[tuple, np.ndarray] = OrderedDict()
        self._not_monotone: set[tuple] = set()
        self._lock = threading.Lock()
        self._fingerprint_ok: dict[int, bool] = {}

    # ------------------------------------------------------------ which references
    def matches(self, reference: Any, chunk: int) -> bool:
        """Whether this is the table of ``reference``'s curves: equal parameters, and
        its curves and geometry still those the table was made from (the fingerprint)."""
        params = (reference.depth, reference.n_curves, reference.seed, chunk)
        if tuple(self.params) != params:
            return False
        key = id(type(reference))
        if key not in self._fingerprint_ok:
            ok = fingerprint(reference) == self.meta["fingerprint"]
            if not ok:
                warnings.warn(
                    f"The shipped table of {reference!r} ({TABLE_PATH.name}) was made from "
                    "other curves or another geometry than this version computes; it is "
                    "not used (every prevalence is computed by a pass over the curves). "
                    "Regenerate it with scripts/make_dbt_table.py.",
                    UserWarning,
                    stacklevel=4,
                )
            self._fingerprint_ok[key] = ok
        return self._fingerprint_ok[key]

    # ------------------------------------------------------------ which quantities
    def _entry(self, quantity: Any) -> tuple[str, bool] | None:
        """(stored quantity, only at prevalences in the table's range) for a quantity
        the table holds."""
        if isinstance(quantity, Gini):
            return "roc", False
        if isinstance(quantity, OperatingPoint):
            return ("at.recall", False) if self._at_index(quantity) is not None else None
        if not isinstance(quantity, CurveArea):
            return None
        if (quantity.curve, quantity.rule) in (("roc", "trapezoid"), ("gain", "trapezoid")):
            return "roc", False
        if (quantity.curve, quantity.rule) in (("pr", "step"), ("lift", "step")):
            return quantity.curve, True
        return None

    def _at_index(self, point: OperatingPoint) -> int | None:
        """The row of the stored recalls that is this operating point's, if any."""
        if point.axis != "recall":
            return None
        xs = self.meta["entries"]["at.recall"]["x"]
        i = int(np.searchsorted(xs, point.x))
        for j in (i - 1, i):
            if 0 <= j < len(xs) and abs(xs[j] - point.x) <= 1e-12:
                return j
        return None

    def range_of(self, name: str) -> tuple[float, float]:
        """The prevalences at which the entry ``name`` (``"pr"``, ``"lift"``) is read."""
        return self.range[0], min(self.range[1], _UPPER.get(name, 1.0))

    def in_range(self, prevalence: Any, name: str = "pr") -> np.ndarray:
        p = np.asarray(prevalence, dtype=float)
        lo, hi = self.range_of(name)
        return (p >= lo) & (p <= hi)

    def covers(self, quantity: Any, prevalence: float) -> bool:
        """Whether the table holds ``quantity`` at ``prevalence``."""
        entry = self._entry(quantity)
        if entry is None:
            return False
        if entry[0] == "at.recall":
            return self._at_values(quantity, prevalence) is not None
        return not entry[1] or bool(self.in_range(prevalence, entry[0]))

    def note(self, quantity: Any, prevalence: Any) -> str | None:
        """How the table made the OPS of ``quantity`` at these prevalences, for the
        result's method; None when it made none of them."""
        entry = self._entry(quantity)
        if entry is None:
            return None
        if entry[0] == "at.recall":
            if not all(self.covers(quantity, float(p)) for p in np.unique(prevalence)):
                return None
            return f"read from the shipped table of every curve's FPR at recall {quantity.x:g}"
        if not entry[1]:
            return "read from the shipped table of every curve's ROC AUC"
        inside = self.in_range(prevalence, entry[0])
        lo, hi = self.range_of(entry[0])
        if not inside.any():
            return f"a pass over the curves (prevalence outside the shipped table's {lo:g}-{hi:g})"
        where = (
            f"at prevalence {float(prevalence):.4g}"
            if np.ndim(prevalence) == 0
            else "in logit(prevalence)"
        )
        text = f"read from the shipped table, interpolated {where}"
        if not inside.all():
            text += f"; outside {lo:g}-{hi:g} by a pass over the curves"
        return text

    # ------------------------------------------------------------ decoding
    def _decode(self, name: str) -> Any:
        with self._lock:
            found = self._decoded.get(name)
        if found is not None:
            return found
        a, info = self._arrays, self.meta["entries"].get(name, {})
        if name == "roc":
            out: Any = _cumsum(a["roc"], 1, 0) * 2.0 ** -info["bits"]
            out.flags.writeable = False  # handed out as is
        elif name in ("pr", "lift"):
            mid = _cumsum(_cumsum(a[f"{name}.mid"], 1, 1), 1, 0) * 2.0 ** -info["bits"]
            tails = [
                _undo_differences(a[f"{name}.{end}.head"], a[f"{name}.{end}"])
                * 2.0 ** -info["tail_bits"]
                for end in ("low", "high")
            ]
            out = (mid, *tails)
        elif name == "band.rate":  # logit(FPR), for the same precision near 0 and 1
            z = _cumsum(_cumsum(a[name], 1, 0), 1, 1) * 2.0 ** -info["bits"]
            out = 1.0 / (1.0 + np.exp(-z))
        elif name == "at.recall":  # log(FPR), for the same relative precision everywhere
            out = np.exp(_cumsum(a["at.recall"], 1, 1) * 2.0 ** -info["bits"])
        else:
            out = a[name]
        with self._lock:
            self._decoded[name] = out
        return out

    # ------------------------------------------------------------ values
    def values(self, quantity: Any, prevalence: float) -> np.ndarray:
        """The sorted values of ``quantity`` over the G curves at ``prevalence``
        (read-only), rebuilt from the table."""
        entry = self._entry(quantity)
        assert entry is not None and self.covers(quantity, prevalence)
        name, by_pi = entry
        if name == "at.recall":
            at = self._at_values(quantity, prevalence)
            assert at is not None
            return at
        gain = isinstance(quantity, CurveArea) and quantity.curve == "gain"
        memo = (quantity, prevalence if by_pi or gain else None)
        with self._lock:
            found = self._memo.get(memo)
        if found is not None:
            return found
        pi = prevalence
        out = self._decode("roc") if name == "roc" else self._rebuild(name, pi)
        if isinstance(quantity, Gini):
            out = 2.0 * out - 1.0
        elif gain:  # on each curve: pi / 2 + (1 - pi) ROC AUC, increasing in it
            out = pi / 2.0 + (1.0 - pi) * out
        if isinstance(quantity, CurveArea) and quantity.normalized:
            out = out / ideal_auc(quantity.curve, pi)
        out.flags.writeable = False
        with self._lock:
            self._memo[memo] = out
            while len(self._memo) > 8:
                self._memo.popitem(last=False)
        return out

    def placed_curves(self, quantity: Any, prevalence: float) -> tuple[np.ndarray, float] | None:
        """The curves whose own interpolated values the rebuilt sorted values of
        ``quantity`` at ``prevalence`` hold at their ``t`` lowest and ``t`` highest
        positions (``placed_ids``), and the margin within which those values may differ
        from the curves' areas (the entry's ``tail_margin``, ten times the largest
        difference the generator measured), in the quantity's units. None for entries
        without such curves."""
        entry = self._entry(quantity)
        if entry is None or entry[0] not in ("pr", "lift") or not self.covers(quantity, prevalence):
            return None
        margin = self.meta["entries"][entry[0]].get("tail_margin")
        if margin is None:
            return None
        if quantity.normalized:  # the values are the areas divided by the ideal one
            margin = margin / ideal_auc(quantity.curve, prevalence)
        return self.placed_ids(entry[0], prevalence), float(margin)

    def placed_ids(self, name: str, prevalence: float) -> np.ndarray:
        """The indices in the reference's stream of the curves at the ``t`` lowest
        (first ``t``) and ``t`` highest positions of the entry ``name`` rebuilt at
        ``prevalence``, in the order of their positions."""
        return self._tails(name, prevalence)[2]

    def _at_values(self, point: OperatingPoint, prevalence: float) -> np.ndarray | None:
        """The sorted values of a metric at a stored recall, from the curves' FPR there
        (the FNR is 1 - recall on every curve): None where the metric is not strictly
        monotone in the FPR there (or undefined), which a pass over the curves answers."""
        memo = (point, prevalence)
        with self._lock:
            found = self._memo.get(memo)
        if found is not None or memo in self._not_monotone:
            return found
        row = self._at_index(point)
        assert row is not None
        stored = self._decode("at.recall")[row]
        positions = self._arrays["at.recall.ranks"].astype(float)
        alpha = np.interp(np.arange(self.n_curves, dtype=float), positions, stored)
        with np.errstate(all="ignore"):
            v = np.asarray(point.metric(prevalence, alpha, 1.0 - point.x), dtype=float)
        steps = np.diff(v)
        out: np.ndarray | None = None
        if not np.isnan(v).any() and np.ptp(v) > 0:
            if np.all(steps >= 0):
                out = v
            elif np.all(steps <= 0):
                out = v[::-1].copy()
        with self._lock:
            if out is None:
                self._not_monotone.add(memo)
            else:
                out.flags.writeable = False
                self._memo[memo] = out
                while len(self._memo) > 8:
                    self._memo.popitem(last=False)
        return out

    def _tails(self, name: str, prevalence: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The ``t`` lowest and ``t`` highest values of the entry ``name`` at
        ``prevalence``, each the value of one of the curves that reach the ends (degree 5
        in s through its six nodes around s), sorted, and those curves' indices in the
        reference's stream in the same order (low then high)."""
        info = self.meta["entries"][name]
        _, low, high = self._decode(name)
        x = float(logit(np.array(prevalence))) / info["tail_step"]
        j = int(np.floor(x))
        row = j - info["tail_nodes"][0]
        w6 = quintic_weights(x - j)
        ends, orders = [], []
        for curves in (low, high):
            v = w6[0] * curves[row - 2]
            for k in range(1, 6):
                v = v + w6[k] * curves[row - 2 + k]
            order = np.argsort(v, kind="stable")
            ends.append(v[order])
            orders.append(order)
        t = info["tail"]
        ids = info["tail_curve_ids"]
        placed = np.r_[
            np.asarray(ids["low"], dtype=np.int64)[orders[0][:t]],
            np.asarray(ids["high"], dtype=np.int64)[orders[1][-t:]],
        ]
        return ends[0][:t], ends[1][-t:], placed

    def _rebuild(self, name: str, prevalence: float) -> np.ndarray:
        info = self.meta["entries"][name]
        mid = self._decode(name)[0]
        ranks = self._arrays["ranks"]
        s = float(logit(np.array(prevalence)))
        # the middle ranks: cubic in s between the four nodes around s
        x = s / info["step"]
        j = int(np.floor(x))
        row = j - info["nodes"][0]
        w = cubic_weights(x - j)
        middle = w[0] * mid[row - 1]
        for k in (1, 2, 3):
            middle = middle + w[k] * mid[row - 1 + k]
        low, high, _ = self._tails(name, prevalence)
        t, g = info["tail"], self.n_curves
        # the ends are each curve's own value; of the middle, interpolated, the ranks
        # whose values fall between them (near the ends, a rank's value can miss by a
        # few neighbours), in order
        keep = (middle > low[-1]) & (middle < high[0])
        middle = np.maximum.accumulate(middle[keep])
        positions = np.r_[np.arange(t), ranks[keep], np.arange(g - t, g)]
        values = np.r_[low, middle, high]
        return np.interp(np.arange(g, dtype=float), positions.astype(float), values)

    # ------------------------------------------------------------ band
    def band(
        self, kind: str, prevalence: float, x: np.ndarray, quantiles: tuple[float, ...]
    ) -> np.ndarray | None:
        """The band's quantiles (shape (len(quantiles), len(x))) when the table holds
        these x values, quantiles and prevalence; None otherwise."""
        info = self.meta["band"]
        table_x = np.asarray(info["x"])
        right = np.clip(np.searchsorted(table_x, x), 1, table_x.size - 1)
        nearer = np.abs(table_x[right - 1] - x) <= np.abs(table_x[right] - x)
        where = np.where(nearer, right - 1, right)  # the nearest stored x
        if not (
            x.size
            and np.all(np.abs(table_x[where] - x) <= 1e-12)
            and all(q in BAND_QUANTILES for q in quantiles)
        ):
            return None
        if kind in ("lift", "gain") and "band.rate" not in self._arrays:
            return None
        ranks = list(np.asarray(self._arrays["band.ranks"]))
        g = self.n_curves
        out = np.empty((len(quantiles), x.size))
        for i, q in enumerate(quantiles):
            lo, hi, w = quantile_ranks(g, q)
            if kind in ("lift", "gain"):
                y_lo, y_hi = (
                    self._recall_at_rate(prevalence, x, ranks.index(g - 1 - k)) for k in (lo, hi)
                )
                if kind == "lift":  # recall / rate: increasing in the recall at a rate
                    y_lo, y_hi = y_lo / x, y_hi / x
            elif kind == "roc":
                y_lo = self._decode("band.roc")[where, ranks.index(lo)]
                y_hi = self._decode("band.roc")[where, ranks.index(hi)]
            else:  # precision decreases with the FPR at a recall
                alpha, beta = self._decode("band.pr.alpha"), self._decode("band.pr.beta")
                precision = resolve_metric("precision")
                a_lo, a_hi = ranks.index(g - 1 - lo), ranks.index(g - 1 - hi)
                y_lo = precision(prevalence, alpha[where, a_lo], beta[where, a_lo])
                y_hi = precision(prevalence, alpha[where, a_hi], beta[where, a_hi])
            out[i] = _lerp(np.asarray(y_lo), np.asarray(y_hi), w)
        return out

    def _recall_at_rate(self, prevalence: float, x: np.ndarray, row: int) -> np.ndarray:
        """The (G - 1 - m)-th smallest recall at each rate x over the G curves, where m is
        the stored rank of ``row`` (docs/method.md#dbt-table): a curve's recall at rate x
        is at most y exactly when its rate at recall y, pi y + (1 - pi) FPR(y), is at
        least x, so the k-th smallest recall at rate x is the recall at which the
        (G - 1 - k)-th smallest FPR, F(y), reaches the rate x: pi y + (1 - pi) F(y) = x
        (increasing in y), solved on the stored recalls, F linear between them."""
        # the curves start at (0, 0) and end at (1, 1): recall 0 at rate 0, 1 at 1
        y = np.r_[0.0, rate_band_recalls(), 1.0]
        rate = prevalence * y + (1.0 - prevalence) * np.r_[0.0, self._decode("band.rate")[row], 1.0]
        j = np.clip(np.searchsorted(rate, x, side="left"), 1, y.size - 1)
        r0, r1 = rate[j - 1], rate[j]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.clip(np.where(r1 > r0, (x - r0) / (r1 - r0), 1.0), 0.0, 1.0)
        return y[j - 1] + t * (y[j] - y[j - 1])


@lru_cache(maxsize=4)
def load_table(path: Path = TABLE_PATH) -> DBTTable | None:
    """The shipped table, read on first use; None, with a warning, when it cannot be
    read (the references then compute every prevalence by a pass over the curves)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
        meta = json.loads(str(arrays.pop("meta")))
        if meta.get("format") != FORMAT:
            raise ValueError(f"format {meta.get('format')!r}, expected {FORMAT}")
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        warnings.warn(
            f"The shipped table of the default DirectedBinaryTree ({path}) could not be "
            f"read ({exc}); every prevalence is computed by a pass over the curves.",
            UserWarning,
            stacklevel=2,
        )
        return None
    return DBTTable(arrays, meta)

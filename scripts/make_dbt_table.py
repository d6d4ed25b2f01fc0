"""Make the shipped table of the default DBT reference,
``opsstats/reference/data/dbt_default.npz`` (docs/method.md#dbt-table).

What it computes, from ``DirectedBinaryTree()`` (depth 9, G = 100,000, seed 20231) by the
package's own passes over the curves (the arithmetic of a direct OPS; the rate band's
FPR by ``np.interp``, the same linear interpolation to rounding):

1. the ROC AUC of every curve, sorted;
2. the PR AUC (step) and the lift AUC (step) of every curve at the nodes k / 32 of
   s = logit(prevalence) that prevalences 0.001 to 0.999 read (two more at each end
   for the tails): kept are the sorted values at the ranks of ``rank_set`` and, at the
   nodes k / 16, the values of every curve that is among the 2 x 512 lowest or highest
   at some node (by their index in the stream);
3. the FPR at each recall of ``at_recall_x()`` (the band's x values and the standardized
   curve's k / 21), sorted, at the ranks of ``rank_set(G, 128, 0.007)`` and every rank
   of the 128 lowest and highest: a metric at a recall is a function of the FPR there
   (the FNR is 1 - recall), at every prevalence;
4. the ROC and PR band's quantile ranks (``BAND_QUANTILES``, numpy's linear rule) at the
   54 x values of a plot: recall at each FPR (ROC), FPR and FNR at each recall (PR);
   and, for the lift and gain bands, the FPR at the same ranks at each of the 25,801
   recalls of ``rate_band_recalls()``;
5. a check of the table against direct passes at ``--check`` prevalences drawn between
   the nodes (seeded): first the largest difference of the tail curves' rebuilt values
   from their areas, of which ten times is each entry's ``tail_margin`` (a value closer
   to one of them is ranked against the curve's computed area); then the OPS counts, as
   ``ref.ops`` makes them from the table, of values at random ranks, in units of the
   Monte Carlo standard error, of operating points, and the lift and gain bands against
   numpy's quantile of the direct values; written into the file's metadata and
   printed.

The metadata also records the parameters, the fingerprint of the reference's curves
(``opsstats.reference._dbt_table.fingerprint``) that the package checks before using
the table, the git commit and a hash of the sources that define the values.

The shipped table (2026-11-28) was made by ``--without-rate-band`` (847 s on two cores
at load 4, 0.5 GB), its lift and gain bands' entry taken from the table of 2026-11-27
(``--rate-band-only`` of that run; its code has not changed since) by
``--add-rate-band``, then checked by ``--recheck`` (150 s). The table of 2026-11-27
took 2,010 s on two busy cores (load 10 to 20); memory about 1.5 GB (the rate band
holds the curves: about 2 GB).

Run: ``nice python scripts/make_dbt_table.py [--out PATH] [--check 40]``. Parts of it:

- ``--recheck``: only step 5 on an existing table (after a change to how it is read);
- ``--retail``: the tail curves of an existing table (as its run selected them)
  evaluated again at the nodes k * ``TAIL_STEP``, its other entries kept, then step 5
  (the table of 2026-11-27's tails were made so, when their nodes went from 1/4 to
  1/16 apart; the file's ``meta["retailed"]``);
- ``--rate-band-only FILE`` then ``--add-rate-band FILE``: the lift and gain bands'
  entry made apart (it can run beside ``--retail`` or ``--without-rate-band``) and added
  to the table at ``--out``, with its check.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np

import opsstats
from opsstats.curves._geometry import CurveArea, OperatingPoint, curve_areas
from opsstats.metrics import resolve_metric
from opsstats.reference._dbt_table import (
    BAND_QUANTILES,
    FORMAT,
    TABLE_PATH,
    DBTTable,
    at_recall_x,
    band_x,
    fingerprint,
    quantile_ranks,
    rate_band_recalls,
)
from opsstats.reference._interpolation import expit, logit
from opsstats.reference._streamed import CHUNK
from opsstats.reference.dbt import DirectedBinaryTree

RANGE = (0.001, 0.999)
STEP = 1 / 32  # the middle ranks' nodes
TAIL_STEP = 1 / 16  # the tail curves' nodes
TAIL = 512  # ranks 0..TAIL-1 and G-TAIL..G-1 from the tail curves
RATIO = 0.005  # stored ranks: steps of 0.5% of the distance from the nearer end
BITS = {"mid": 24, "tail": 34, "roc": 36, "log": 60, "rate": 28}  # 2**-bits for values below 1
TAIL_DIFFERENCES = 4
MARGIN = 10  # the tail curves' margin: this many times their largest error measured
AT_TAIL, AT_RATIO = 128, 0.007  # the operating points' ranks (one node: no tail curves)
RATE_BATCH = 1024  # recalls of the rate band's grid per pass
AREAS = {"pr": CurveArea("pr", "step"), "lift": CurveArea("lift", "step")}
SOURCES = [
    "reference/dbt.py",
    "reference/_streamed.py",
    "reference/_dbt_table.py",
    "reference/_interpolation.py",
    "curves/_geometry.py",
    "metrics/_definitions.py",
]


def rank_set(g: int, tail: int, ratio: float) -> np.ndarray:
    """Ranks from ``tail`` to ``g - 1 - tail``: every rank near the ends, then steps of
    ``ratio`` times the distance from the nearer end (the error of a linear
    interpolation between stored ranks, in units of the standard error of the count,
    is then about sqrt(ratio) / 2 wherever it is read)."""
    out, k = [tail], tail
    while k < g // 2:
        k += max(1, int(ratio * (k + 1)))
        out.append(min(k, g // 2))
    low = np.array(out)
    return np.unique(np.r_[low, g - 1 - low]).astype(np.int32)


def node_range(step: float, before: int, after: int) -> range:
    """The nodes k (at s = k * step) that interpolation at s in RANGE reads: floor(s /
    step) - before to floor(s / step) + after."""
    lo, hi = (float(logit(np.array(p))) for p in RANGE)
    return range(int(np.floor(lo / step)) - before, int(np.floor(hi / step)) + after + 1)


def quantize(values: np.ndarray, bits: int) -> tuple[np.ndarray, int]:
    """Integers round(values * 2**b), b = bits less the bits of the largest value above
    1, and b."""
    b = bits - max(0, int(np.ceil(np.log2(max(1.0, float(np.max(np.abs(values))))))))
    return np.round(values * 2.0**b).astype(np.int64), b


def narrow(codes: np.ndarray) -> np.ndarray:
    return codes.astype(np.int32) if np.abs(codes).max() < 2**31 else codes


def differences(q: np.ndarray, times: int, axis: int) -> np.ndarray:
    for _ in range(times):
        q = np.diff(q, axis=axis, prepend=0)
    return q


def passes(ref, pairs, per_pass):
    """``ref._one_pass`` over the pairs, ``per_pass`` pairs at a time."""
    for start in range(0, len(pairs), per_pass):
        batch = pairs[start : start + per_pass]
        yield from zip(batch, ref._one_pass(batch), strict=True)


def areas(ref, log) -> tuple[dict, dict]:
    """The middle table and the tail curves' values of the PR and lift AUC."""
    g = ref.n_curves
    ranks = rank_set(g, TAIL, RATIO)
    mid_nodes = node_range(STEP, 1, 2)
    tail_nodes = node_range(TAIL_STEP, 2, 3)
    ratio = round(TAIL_STEP / STEP)
    every = sorted(set(mid_nodes) | {k * ratio for k in tail_nodes})
    arrays, entries = {}, {}
    for name, q in AREAS.items():
        t0 = time.perf_counter()
        mid = np.empty((len(mid_nodes), ranks.size))
        at_tail_nodes, low_ids, high_ids = {}, set(), set()
        pairs = [(q, expit(k * STEP)) for k in every]
        for k, ((_, pi), v) in zip(every, passes(ref, pairs, 24), strict=True):
            if np.isnan(v).any():
                raise ValueError(f"{q.label} undefined on some curves at {pi}")
            part = np.argpartition(v, [2 * TAIL, g - 2 * TAIL - 1])
            low_ids.update(part[: 2 * TAIL].tolist())
            high_ids.update(part[g - 2 * TAIL :].tolist())
            if k in mid_nodes:
                mid[k - mid_nodes.start] = np.sort(v)[ranks]
            if k % ratio == 0 and k // ratio in tail_nodes:
                at_tail_nodes[k // ratio] = v
        low, high = sorted(low_ids), sorted(high_ids)
        tails = {
            "low": np.stack([at_tail_nodes[k][low] for k in tail_nodes]),
            "high": np.stack([at_tail_nodes[k][high] for k in tail_nodes]),
        }
        codes, bits = quantize(mid, BITS["mid"])
        arrays[f"{name}.mid"] = narrow(differences(differences(codes, 1, 0), 1, 1))
        more, entries[name] = encode_tails(name, tails, {"low": low, "high": high}, tail_nodes)
        arrays.update(more)
        entries[name] |= {"bits": bits, "step": STEP}
        entries[name]["nodes"] = [mid_nodes.start, mid_nodes.stop - 1]
        log(
            f"{q.label}: {len(every)} nodes, {ranks.size} ranks, tail curves {len(low)} + "
            f"{len(high)}, {time.perf_counter() - t0:.0f} s"
        )
    arrays["ranks"] = ranks
    return arrays, entries


def encode_tails(name: str, tails: dict, ids: dict, tail_nodes: range) -> tuple[dict, dict]:
    """The tail curves' values at the nodes (``tails[end]``: nodes x curves) as integers
    in differences of order ``TAIL_DIFFERENCES`` along the nodes, and their entry."""
    arrays = {}
    _, tail_bits = quantize(np.r_[tails["low"].ravel(), tails["high"].ravel()], BITS["tail"])
    for end, values in tails.items():
        codes = np.round(values * 2.0**tail_bits).astype(np.int64)
        # the first row of each order of differences, then the last order's rows
        head = []
        for _ in range(TAIL_DIFFERENCES):
            head.append(codes[0])
            codes = np.diff(codes, axis=0)
        arrays[f"{name}.{end}.head"] = np.stack(head)
        arrays[f"{name}.{end}"] = narrow(codes)
    entry = {
        "tail": TAIL,
        "tail_step": TAIL_STEP,
        "tail_nodes": [tail_nodes.start, tail_nodes.stop - 1],
        "tail_bits": tail_bits,
        "tail_differences": TAIL_DIFFERENCES,
        "tail_curves": [len(ids["low"]), len(ids["high"])],
        "tail_curve_ids": {end: [int(i) for i in ids[end]] for end in ("low", "high")},
    }
    return arrays, entry


def retail(ref, arrays: dict, meta: dict, log) -> None:
    """The tail curves of an existing table (its ``tail_curve_ids``, selected by the run
    that made it) evaluated again at the nodes k * TAIL_STEP, into ``arrays`` and
    ``meta``: each chunk drawn once, the areas of its tail curves at every node."""
    tail_nodes = node_range(TAIL_STEP, 2, 3)
    pis = [expit(k * TAIL_STEP) for k in tail_nodes]
    for name, q in AREAS.items():
        t0 = time.perf_counter()
        entry = meta["entries"][name]
        ids = {end: np.asarray(entry["tail_curve_ids"][end]) for end in ("low", "high")}
        tails = {end: np.empty((len(pis), v.size)) for end, v in ids.items()}
        for index, (alpha, beta) in enumerate(ref.iter_curves()):
            for end, wanted in ids.items():
                at = np.flatnonzero((wanted >= index * CHUNK) & (wanted < (index + 1) * CHUNK))
                rows = wanted[at] - index * CHUNK
                values = curve_areas(q, pis, alpha[rows], beta[rows])
                tails[end][:, at] = np.stack(values)
        more, fields = encode_tails(name, tails, ids, tail_nodes)
        arrays.update(more)
        entry.update(fields)
        log(f"{q.label}: tail curves at {len(pis)} nodes, {time.perf_counter() - t0:.0f} s")


def roc(ref, log) -> tuple[dict, dict]:
    t0 = time.perf_counter()
    ((_, v),) = passes(ref, [(CurveArea("roc", "trapezoid"), 0.5)], 1)
    codes, bits = quantize(np.sort(v), BITS["roc"])
    log(f"ROC AUC: {time.perf_counter() - t0:.0f} s")
    return {"roc": narrow(differences(codes, 1, 0))}, {"roc": {"bits": bits}}


def at_recall(ref, log) -> tuple[dict, dict]:
    """The sorted FPR at each recall of ``at_recall_x()``, at stored ranks."""
    t0 = time.perf_counter()
    g, xs = ref.n_curves, at_recall_x()
    ranks = np.r_[np.arange(AT_TAIL), rank_set(g, AT_TAIL, AT_RATIO), np.arange(g - AT_TAIL, g)]
    fpr = resolve_metric("fpr")
    pairs = [(OperatingPoint(fpr, "recall", float(u)), 0.5) for u in xs]
    values = np.stack([np.sort(v)[ranks] for _, v in passes(ref, pairs, xs.size)])
    codes, bits = quantize(np.log(values), BITS["log"])  # FPR > 0 at a recall > 0
    log(f"FPR at {xs.size} recalls, {ranks.size} ranks: {time.perf_counter() - t0:.0f} s")
    arrays = {"at.recall": narrow(differences(codes, 1, 1)), "at.recall.ranks": ranks}
    return arrays, {"at.recall": {"bits": bits, "x": xs.tolist()}}


def band_ranks(g: int) -> np.ndarray:
    ranks = set()
    for q in BAND_QUANTILES:
        lo, hi, _ = quantile_ranks(g, q)
        ranks.update([lo, hi, g - 1 - lo, g - 1 - hi])
    return np.array(sorted(ranks), dtype=np.int64)


def bands(ref, log) -> tuple[dict, dict]:
    """The ROC and PR band's quantile ranks at the 54 x values of a plot."""
    t0 = time.perf_counter()
    g, xs = ref.n_curves, band_x()
    ranks = band_ranks(g)
    recall, fpr, fnr = (resolve_metric(m) for m in ("recall", "fpr", "fnr"))
    pairs = [(OperatingPoint(recall, "fpr", float(u)), 0.5) for u in xs]
    pairs += [(OperatingPoint(fpr, "recall", float(u)), 0.5) for u in xs]
    pairs += [(OperatingPoint(fnr, "recall", float(u)), 0.5) for u in xs]
    values = [v for _, v in passes(ref, pairs, 60)]
    n = xs.size
    roc_band = np.stack([np.sort(v)[ranks] for v in values[:n]])
    alpha, beta = [], []
    for a, b in zip(values[n : 2 * n], values[2 * n :], strict=True):
        order = np.argsort(a, kind="stable")
        alpha.append(a[order][ranks])
        beta.append(b[order][ranks])
    log(f"ROC and PR band: {time.perf_counter() - t0:.0f} s")
    arrays = {
        "band.ranks": ranks,
        "band.roc": roc_band,
        "band.pr.alpha": np.stack(alpha),
        "band.pr.beta": np.stack(beta),
    }
    band = {"x": xs.tolist(), "quantiles": list(BAND_QUANTILES), "points": 50}
    return arrays, band


def fpr_at_recalls(ref, ys: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """The FPR of every curve at the recalls ``ys``, sorted, at ``ranks``: shape
    (ranks, ys). Each curve's FPR at a recall is its linear interpolation between the
    points around it (as ``values_at`` on the recall axis, to rounding), by ``np.interp``
    per curve, ``RATE_BATCH`` recalls at a time; the curves are drawn once and held
    (about 0.8 GB)."""
    g = ref.n_curves
    tpr, fpr = np.empty((g, ref.n_points)), np.empty((g, ref.n_points))
    for index, (alpha, beta) in enumerate(ref.iter_curves()):
        tpr[index * CHUNK : index * CHUNK + alpha.shape[0]] = 1.0 - beta
        fpr[index * CHUNK : index * CHUNK + alpha.shape[0]] = alpha
    out = np.empty((ranks.size, ys.size))
    values = np.empty((RATE_BATCH, g))
    for b0 in range(0, ys.size, RATE_BATCH):
        yb = ys[b0 : b0 + RATE_BATCH]
        for c in range(g):
            values[: yb.size, c] = np.interp(yb, tpr[c], fpr[c])
        out[:, b0 : b0 + yb.size] = np.partition(values[: yb.size], ranks, axis=1)[:, ranks].T
    return out


def rate_band(ref, log) -> tuple[dict, dict]:
    """The FPR at each recall of ``rate_band_recalls()``, sorted, at the band's quantile
    ranks: the lift and gain bands at any prevalence and rate are read from it."""
    t0 = time.perf_counter()
    ys = rate_band_recalls()
    out = fpr_at_recalls(ref, ys, band_ranks(ref.n_curves))
    # as logit(FPR): relative precision near 0 and 1 (0 < FPR < 1 at 0 < recall < 1)
    codes = np.round(np.log(out / (1 - out)) * 2.0 ** BITS["rate"]).astype(np.int64)
    log(f"rate band: FPR at {ys.size} recalls: {time.perf_counter() - t0:.0f} s")
    arrays = {"band.rate": differences(differences(codes, 1, 1), 1, 0)}
    return arrays, {"band.rate": {"bits": BITS["rate"], "recalls": int(ys.size)}}


def check_rate_band(ref, table, pis, log) -> dict:
    """The lift and gain bands read from the table against numpy's quantile of the
    direct values (a pass over the curves) at the prevalences ``pis``, at every x of a
    plot and every quantile the table holds: the largest difference, and the count of
    direct values between the two in units of the Monte Carlo s.e. sqrt(G p (1 - p))."""
    t0 = time.perf_counter()
    g, xs = ref.n_curves, band_x()
    p = np.asarray(BAND_QUANTILES)
    se = np.sqrt(g * p * (1 - p))
    y_metric = {"gain": resolve_metric("recall"), "lift": resolve_metric("lift")}
    worst = {kind: {"abs": 0.0, "rel": 0.0, "z": 0.0} for kind in y_metric}
    for pi in pis:
        pairs = [(OperatingPoint(m, "rate", float(u)), pi) for m in y_metric.values() for u in xs]
        values = [np.sort(v) for _, v in passes(ref, pairs, len(pairs))]
        for i, kind in enumerate(y_metric):
            tabled = table.band(kind, pi, xs, BAND_QUANTILES)
            for j, v in enumerate(values[i * xs.size : (i + 1) * xs.size]):
                direct = np.quantile(v, BAND_QUANTILES)
                z = np.abs(np.searchsorted(v, tabled[:, j]) - np.searchsorted(v, direct)) / se
                diff = np.abs(tabled[:, j] - direct)
                w = worst[kind]
                w["abs"] = max(w["abs"], float(diff.max()))
                w["rel"] = max(w["rel"], float((diff / np.abs(direct)).max()))
                w["z"] = max(w["z"], float(z.max()))
    out = {"prevalences": [float(p) for p in pis], "max": worst}
    log(f"rate band check: {json.dumps(out)} ({time.perf_counter() - t0:.0f} s)")
    return out


def z_scores(direct: np.ndarray, count: Any, rng: np.random.Generator) -> dict:
    """|count(mu) - count(direct < mu)| / sqrt(G p (1 - p)) at values mu drawn at random
    inside gaps of the direct values, at ranks log-uniform in the distance from the
    nearer end; by that distance. ``count(mu)``: the count below mu as the package
    makes it from the table (``counter``)."""
    g = direct.size
    dist = np.exp(rng.uniform(0, np.log(g / 2), 20_000)).astype(int)
    ranks = np.clip(np.where(rng.random(dist.size) < 0.5, dist - 1, g - 1 - dist), 0, g - 2)
    mu = direct[ranks] + rng.random(ranks.size) * (direct[ranks + 1] - direct[ranks])
    inside = (mu > direct[ranks]) & (mu < direct[ranks + 1])
    ranks, mu = ranks[inside], mu[inside]
    n_direct = np.searchsorted(direct, mu)
    p = n_direct / g
    z = np.abs(count(mu) - n_direct) / np.sqrt(g * p * (1 - p))
    near = np.minimum(ranks + 1, g - 1 - ranks)
    return {"z": z, "near": near}


def counter(ref, table, q, pi):
    """The count of reference values below mu as ``ref.ops`` makes it from ``table``
    (the tail curves near mu settled by computing them): G times the OPS of a quantity
    whose higher values are better."""
    assert q.higher_is_better
    ref._table = lambda: table  # the table under test, as the package reads its own

    def count(mu: np.ndarray) -> np.ndarray:
        return np.rint(ref.ops(q, mu, prevalence=pi).estimate * ref.n_curves).astype(np.int64)

    return count


def tail_errors(table, q, pi, values: np.ndarray) -> float:
    """The largest difference between the tail curves' values as the table rebuilds them
    at pi and their direct values (``values``, by curve), in the stored area's units."""
    placed = table.placed_ids(q.curve, pi)
    rebuilt = table.values(q, pi)
    t, g = placed.size // 2, rebuilt.size
    at = np.r_[rebuilt[:t], rebuilt[g - t :]]
    assert table.meta["entries"][q.curve]["tail"] == t
    return float(np.abs(at - values[placed]).max())


def check(ref, table, n_check, seed, log) -> dict:
    """The table against direct passes at prevalences between the nodes."""
    t0 = time.perf_counter()
    rng = np.random.default_rng(seed)
    lo, hi = (float(logit(np.array(p))) for p in RANGE)
    s = np.sort(rng.uniform(lo, hi, n_check))
    pis = [expit(v) for v in s]
    out: dict = {"prevalences": len(pis), "seed": seed}
    zs, near = [], []
    worst = {}
    cases: list[tuple[float, str, float, int]] = []  # each pair's worst probe
    # as the package reads the table: the pairs it does not cover (the lift AUC above
    # its upper prevalence) are left to passes, and not checked here
    pairs = [(q, pi) for pi in pis for q in AREAS.values() if table.covers(q, pi)]
    out["pairs_checked"] = len(pairs)
    # first the tail curves' largest error, of which their margin is MARGIN times
    table.meta["entries"]["pr"].pop("tail_margin", None)
    table.meta["entries"]["lift"].pop("tail_margin", None)
    direct_values = []
    errors = dict.fromkeys(AREAS, 0.0)
    for (q, pi), v in passes(ref, pairs, 30):
        errors[q.curve] = max(errors[q.curve], tail_errors(table, q, pi, v))
        direct_values.append(np.sort(v))
    for name, error in errors.items():
        table.meta["entries"][name]["tail_margin"] = MARGIN * error
    out["tail_curves"] = {"max_error": errors, "margin": {k: MARGIN * e for k, e in errors.items()}}
    for (q, pi), direct in zip(pairs, direct_values, strict=True):
        r = z_scores(direct, counter(ref, table, q, pi), rng)
        zs.append(r["z"])
        near.append(r["near"])
        worst[q.name] = max(worst.get(q.name, 0.0), float(r["z"].max()))
        i = int(np.argmax(r["z"]))
        cases.append((float(r["z"][i]), q.name, float(pi), int(r["near"][i])))
    z, d = np.concatenate(zs), np.concatenate(near)
    # precision at recall 0.9 and F1 at recall 0.5 (from the stored FPR), a few prevalences
    worst_at = 0.0
    points = [
        OperatingPoint(resolve_metric("precision"), "recall", 0.9),
        OperatingPoint(resolve_metric("f1"), "recall", 0.5),
    ]
    pairs = [(q, pi) for pi in pis[::4] for q in points]
    for (q, pi), v in passes(ref, pairs, 30):
        r = z_scores(np.sort(v), counter(ref, table, q, pi), rng)
        worst_at = max(worst_at, float(r["z"].max()))
    out["operating_points"] = {"max": worst_at}
    if "band.rate" in table._arrays:
        out["rate_band"] = check_rate_band(ref, table, pis[::4], log)
    out["areas"] = {
        "probes": int(z.size),
        "max": float(z.max()),
        "p99.9": float(np.quantile(z, 0.999)),
        "share_above_quarter": float(np.mean(z > 0.25)),
        "max_by_quantity": worst,
        "worst_pairs": [
            {"z": z, "quantity": name, "prevalence": pi, "distance_from_the_end": d}
            for z, name, pi, d in sorted(cases, reverse=True)[:8]
        ],
        "max_by_distance_from_the_end": {
            f"{a}-{b - 1}": float(z[(d >= a) & (d < b)].max(initial=0.0))
            for a, b in [(1, 16), (16, 512), (512, 5000), (5000, 50_001)]
        },
    }
    log(f"check: {json.dumps(out)} ({time.perf_counter() - t0:.0f} s)")
    return out


def code_hash() -> dict:
    root = Path(opsstats.__file__).parent
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update((root / name).read_bytes())
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "status", "--porcelain", "--", *SOURCES],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit, changed = "unknown", ""
    return {
        "commit": commit,
        "sources_changed_since_commit": bool(changed),
        "sources": SOURCES,
        "sources_sha256": digest.hexdigest(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=TABLE_PATH)
    parser.add_argument("--n-curves", type=int, default=100_000, help="for trying it out")
    parser.add_argument("--check", type=int, default=40, help="prevalences checked")
    parser.add_argument("--seed", type=int, default=20240611, help="of the check")
    parser.add_argument(
        "--recheck",
        action="store_true",
        help="only check the table at --out again, as the package now reads it, and "
        "record the result in it (its values unchanged)",
    )
    parser.add_argument(
        "--retail",
        action="store_true",
        help="only evaluate the tail curves of the table at --out again at the nodes "
        "k * TAIL_STEP (its other entries unchanged), then check it as --recheck does",
    )
    parser.add_argument(
        "--without-rate-band",
        action="store_true",
        help="leave out the lift and gain band's entry (made apart with --rate-band-only "
        "and added with --add-rate-band, e.g. in parallel)",
    )
    parser.add_argument(
        "--rate-band-only", type=Path, help="compute only the rate band's entry, into this file"
    )
    parser.add_argument(
        "--add-rate-band",
        type=Path,
        help="add the rate band's entry from this file (made by --rate-band-only) to the "
        "table at --out and check it",
    )
    args = parser.parse_args()
    t0 = time.perf_counter()

    def log(text: str) -> None:
        print(f"[{time.perf_counter() - t0:6.0f} s] {text}", flush=True)

    if args.rate_band_only:
        ref = DirectedBinaryTree(n_curves=args.n_curves)
        arrays, entry = rate_band(ref, log)
        np.savez_compressed(args.rate_band_only, meta=np.array(json.dumps(entry)), **arrays)
        log(f"wrote {args.rate_band_only}")
        return

    if args.add_rate_band:
        with np.load(args.out, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
        meta = json.loads(str(arrays.pop("meta")))
        with np.load(args.add_rate_band, allow_pickle=False) as data:
            arrays["band.rate"] = data["band.rate"]
            meta["entries"].update(json.loads(str(data["meta"])))
        ref = DirectedBinaryTree(n_curves=meta["reference"]["n_curves"])
        rng = np.random.default_rng(args.seed)
        lo, hi = (float(logit(np.array(p))) for p in RANGE)
        pis = [expit(v) for v in np.sort(rng.uniform(lo, hi, args.check))]  # as check()
        accuracy = check_rate_band(ref, DBTTable(dict(arrays), meta), pis[::4], log)
        meta["accuracy"]["rate_band"] = accuracy
        np.savez_compressed(args.out, meta=np.array(json.dumps(meta)), **arrays)
        log(f"added the rate band to {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")
        return

    if args.recheck or args.retail:
        with np.load(args.out, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
        meta = json.loads(str(arrays.pop("meta")))
        ref = DirectedBinaryTree(n_curves=meta["reference"]["n_curves"])
        if args.retail:
            retail(ref, arrays, meta, log)
            meta["retailed"] = {"date": datetime.date.today().isoformat(), "by": code_hash()}
        accuracy = check(ref, DBTTable(dict(arrays), meta), args.check, args.seed, log)
        meta["accuracy"] = {**accuracy, "read_by": code_hash()}
        np.savez_compressed(args.out, meta=np.array(json.dumps(meta)), **arrays)
        log(f"rechecked {args.out}")
        return

    ref = DirectedBinaryTree(n_curves=args.n_curves)
    arrays, entries = areas(ref, log)
    more, roc_entry = roc(ref, log)
    arrays.update(more)
    entries.update(roc_entry)
    more, at_entry = at_recall(ref, log)
    arrays.update(more)
    entries.update(at_entry)
    more, band = bands(ref, log)
    arrays.update(more)
    if not args.without_rate_band:
        more, rate_entry = rate_band(ref, log)
        arrays.update(more)
        entries.update(rate_entry)
    meta = {
        "format": FORMAT,
        "reference": {
            "class": "DirectedBinaryTree",
            "depth": ref.depth,
            "n_curves": ref.n_curves,
            "seed": ref.seed,
            "chunk": CHUNK,
        },
        "prevalence_range": list(RANGE),
        "ranks": {"tail": TAIL, "ratio": RATIO},
        "entries": entries,
        "band": band,
        "fingerprint": fingerprint(ref),
        "code": code_hash(),
        "generator": "scripts/make_dbt_table.py",
    }
    table = DBTTable(dict(arrays), meta)  # decoded as the package decodes it
    meta["accuracy"] = {**check(ref, table, args.check, args.seed, log), "read_by": code_hash()}
    meta["generated"] = {
        "date": datetime.date.today().isoformat(),
        "seconds": round(time.perf_counter() - t0),
        "opsstats": opsstats.__version__,
        "numpy": np.__version__,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, meta=np.array(json.dumps(meta)), **arrays)
    log(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()

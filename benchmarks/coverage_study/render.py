"""Markdown helpers both parts' renderings use: the order and labels of the cells,
flagged coverage, pivot tables (cells x methods), the acceptance table, the default
entries outside the 93%-97% band, and the sections of the test sets left out and of the
warnings emitted."""

from __future__ import annotations

import collections
import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from .common import ACCEPT_HIGH, ACCEPT_LOW, QUANTITY_LABEL


def _flag(cov: float) -> str:
    if not np.isfinite(cov):
        return "-"
    text = f"{100 * cov:.1f}"
    if cov < ACCEPT_LOW:
        return f"**{text}** v"
    if cov > ACCEPT_HIGH:
        return f"**{text}** ^"
    return text


def _cell_order(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.sort_values(
        ["classifier", "n", "prevalence"], ascending=[True, True, False], kind="stable"
    )


def _row_label(r: pd.Series) -> str:
    return f"{r['classifier']} | {int(r['n'])} | {r['prevalence']:g}"


def _pivot(frame: pd.DataFrame, value: Callable[[pd.Series], str], methods: list[str]) -> str:
    """Markdown table: rows cells, columns methods."""
    frame = _cell_order(frame)
    cells = frame.drop_duplicates("cell")
    header = "| classifier \\| n \\| pi | " + " | ".join(methods) + " |"
    sep = "|---|" + "---|" * len(methods)
    lines = [header, sep]
    for _, c in cells.iterrows():
        sub = frame[frame["cell"] == c["cell"]].set_index("method")
        entries = [value(sub.loc[m]) if m in sub.index else "" for m in methods]
        lines.append(f"| {_row_label(c)} | " + " | ".join(entries) + " |")
    return "\n".join(lines)


def _defined_note(r: pd.Series) -> str:
    return _flag(r["coverage"])


def _left_out_table(left: pd.DataFrame) -> str:
    """The "test sets left out" table shared by every part: per cell and quantity, the
    test sets with a class absent and the intervals a method did not give, with why."""
    lines = [
        ("| classifier \\| n \\| pi | quantity | absent | no interval (method: count) | why |"),
        "|---|---|---|---|---|",
    ]
    for _, sub in left.groupby(["cell", "quantity"], sort=False):
        absent = int(sub["n_absent"].iloc[0])
        undef = sub[sub["n_undefined"] > 0]
        if absent == 0 and undef.empty:
            continue
        counts = ", ".join(f"{r['method']}: {r['n_undefined']}" for _, r in undef.iterrows())
        why = sorted(
            {
                re.sub(r" \(\d+\)$", "", part)
                for text in undef["undefined_reasons"]
                if isinstance(text, str)
                for part in text.split("; ")
                if part
            }
        )
        lines.append(
            f"| {_row_label(sub.iloc[0])} | {QUANTITY_LABEL[sub['quantity'].iloc[0]]}"
            f" | {absent} | {counts or '-'} | {'; '.join(why) or '-'} |"
        )
    return "\n".join(lines) + "\n" if len(lines) > 2 else "None.\n"


def _warning_kind(text: str) -> str:
    """A recorded warning (cut at 100 characters) without the object and counts it
    names, so that the warnings table has one line per kind of warning, not one per
    confusion matrix or curve."""
    cut = len(text) >= 100
    text = re.sub(r"(ConfusionMatrix|ScoreCurve)\([^)]*\)?", r"\1(...)", text)
    text = re.sub(r"\bis \d+ \(<", "is k (<", text)
    text = re.sub(
        r"^(SmallCountWarning: )\d+ rows in the smaller class \(P = \d+, N = \d+\)",
        r"\1k rows in the smaller class (P, N)",
        text,
    )
    if not cut:
        return text
    return text + " ..." if text.endswith("(...)") else re.sub(r"\s+\S*$", " ...", text)


def _coverage_by_cell(
    cells: pd.DataFrame,
    rows: pd.DataFrame,
    columns: Sequence[tuple[str, str]],
    title: Callable[[str, str], str],
    extra: tuple[str, Callable[[pd.Series], str]] | None = None,
) -> str:
    """The acceptance table: one line per cell of ``cells``, the flagged coverage of each
    (quantity, method) of ``columns`` from ``rows`` (blank where absent), and an optional
    ``extra`` column (header, value of the cell's row) after the cell's label."""
    head = ["classifier \\| n \\| pi"] + ([extra[0]] if extra else [])
    lines = [
        "| " + " | ".join(head + [title(q, m) for q, m in columns]) + " |",
        "|" + "---|" * (len(head) + len(columns)),
    ]
    for _, c in _cell_order(cells).drop_duplicates("cell").iterrows():
        sub = rows[rows["cell"] == c["cell"]].set_index(["quantity", "method"])
        first = [_row_label(c)] + ([extra[1](c)] if extra else [])
        lines.append(
            "| "
            + " | ".join(
                first + [_flag(sub.loc[k, "coverage"]) if k in sub.index else "" for k in columns]
            )
            + " |"
        )
    return "\n".join(lines) + "\n"


def _left_out_sections(
    df: pd.DataFrame,
    intro: str,
    none: str,
    counted: Callable[[pd.DataFrame], pd.DataFrame],
    key: str,
    count_label: str,
    label: Callable[[str], str],
) -> list[str]:
    """The "Test sets left out" and "Warnings emitted" sections: the left-out table of
    the matched-target rows, then the table of the warnings recorded on the rows
    ``counted`` keeps (or ``none`` when no row recorded one)."""
    left = _cell_order(df[df["target"] != "population"])
    warned = left[left["warnings"].apply(lambda w: isinstance(w, str) and w != "")]
    return [
        "## Test sets left out\n",
        intro,
        _left_out_table(left),
        "## Warnings emitted by opsstats during the study\n",
        none if warned.empty else _warnings_table(counted(warned), key, count_label, label),
    ]


def _warnings_table(
    warned: pd.DataFrame, key: str, count_label: str, label: Callable[[str], str]
) -> str:
    """Markdown table of the warnings recorded in the rows' ``warnings`` column
    ("<text> (<count>)" joined by "; "), summed per (``key`` column, method, kind)."""
    total: collections.Counter[tuple[str, str, str]] = collections.Counter()
    for _, r in warned.iterrows():
        for part in r["warnings"].split("; "):
            m = re.match(r"(.*) \((\d+)\)$", part)
            if m:
                total[r[key], r["method"], _warning_kind(m.group(1))] += int(m.group(2))
    lines = [f"| {key} | method | warning | {count_label} |", "|---|---|---|---|"]
    for (k, meth, text), count in sorted(total.items()):
        lines.append(f"| {label(k)} | {meth} | {text} | {count} |")
    return "\n".join(lines) + "\n"


def _outside_p(r: pd.Series) -> float:
    """One-sided exact binomial p-value that the coverage is inside the band, against
    the side it fell out of (small: outside beyond sampling noise)."""
    from scipy.stats import binomtest

    k = round(r["coverage"] * r["n_defined"])
    if r["coverage"] < ACCEPT_LOW:
        return binomtest(k, int(r["n_defined"]), ACCEPT_LOW, alternative="less").pvalue
    return binomtest(k, int(r["n_defined"]), ACCEPT_HIGH, alternative="greater").pvalue


_FOR_EACH = (
    "For each: the coverage +- its s.e.; `p`, the exact one-sided binomial p-value "
    "of the band edge it fell past (p >= 0.01: compatible with sampling noise "
    "around a coverage inside the band); "
)


def _outside_band(defaults: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """The default entries outside 93%-97%, with ``p_band``, and the number defined."""
    bad = defaults[(defaults["coverage"] < ACCEPT_LOW) | (defaults["coverage"] > ACCEPT_HIGH)]
    return (
        bad.assign(p_band=bad.apply(_outside_p, axis=1)) if len(bad) else bad,
        int(defaults["coverage"].notna().sum()),
    )


class _Outside(NamedTuple):
    below: int  # entries below the band
    above: int  # entries above it
    real: int  # of them, beyond sampling noise (p < 0.01)
    worst: float  # the largest min_expected_count among those
    larger: int  # entries of the method with a larger min_expected_count
    larger_out: int  # of them, outside the band


def _outside_counts(sub: pd.DataFrame, mine: pd.DataFrame) -> _Outside:
    """``sub``: one method's entries outside the band (with ``p_band``); ``mine``: all
    its entries."""
    real = sub[sub["p_band"] < 0.01]
    worst = float(real["min_expected_count"].max()) if len(real) else np.nan
    larger = mine[mine["min_expected_count"] > worst]
    out = (larger["coverage"] < ACCEPT_LOW) | (larger["coverage"] > ACCEPT_HIGH)
    return _Outside(
        int((sub["coverage"] < ACCEPT_LOW).sum()),
        int((sub["coverage"] > ACCEPT_HIGH).sum()),
        len(real),
        worst,
        len(larger),
        int(out.sum()),
    )

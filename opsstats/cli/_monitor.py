"""``opsstats monitor FILE --truth COL (--score COL [--threshold T] | --pred COL) --time COL
[--baseline PERIOD] [--group COL] [--metric NAME] [--engine duckdb|pandas] [--html
OUT.html]``: a classifier monitored across periods (:func:`opsstats.monitor`), printed as
text, CSV or JSON, and written as one self-contained HTML file (tables and figures
embedded as base64 PNG, no reference to anything outside the file: it opens offline).

The file is read as ``report`` reads it: through DuckDB by default (one file checked as
the pandas path checks it, a directory or a glob of files; only the count tables come
into Python), with ``--engine pandas`` (the default for a pipe) into memory; the tables
are the same."""

from __future__ import annotations

import argparse
import base64
import dataclasses
import html
import io
import json
from typing import Any

from .._csv import to_csv
from .._summary import printable
from ..monitoring import MonitorResult, monitor
from ..report import json_rows
from ._arguments import CommandError, add_engine_arguments, add_input_arguments
from ._duckdb_file import distinct_values, duckdb_errors, open_duckdb
from ._outputs import Output
from ._reading import (
    _relation_pos_label,
    check_columns,
    default_engine,
    parse_pos_label,
    read_table,
)

__all__ = ["add_monitor_arguments", "run_monitor", "html_document", "MAX_HTML_GROUPS"]

#: The most groups whose figure the HTML report embeds (the tables hold every group).
MAX_HTML_GROUPS = 24

#: What ``--plot`` draws.
PLOT_HELP = (
    "one panel per metric (raw value, value at the baseline's prevalence and OPS over the "
    "periods with interval bands, flagged periods marked) and a panel of the prevalence; "
    "the first group's, with --group"
)


def add_monitor_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``opsstats monitor`` besides the output and draw options."""
    add_input_arguments(p)
    p.add_argument("--time", required=True, metavar="COL", help="column of periods (e.g. a month)")
    p.add_argument(
        "--baseline",
        metavar="PERIOD",
        help="the baseline period, as written in the file (default the first in sorted "
        "order): every period is standardized to its prevalence and tested against it; "
        "a number in (0, 1) that is not a period fixes the prevalence instead",
    )
    p.add_argument(
        "--group",
        action="append",
        metavar="COL",
        help="grouping column (repeatable): every group monitored on its own",
    )
    p.add_argument(
        "--metric",
        action="append",
        metavar="NAME",
        help="metric to monitor (repeatable); default F1 and MCC with predicted labels, "
        "ROC and PR AUC with scores",
    )
    p.add_argument(
        "--pos-label", metavar="LABEL", help="the positive class of --truth (and --pred)"
    )
    p.add_argument(
        "--html",
        metavar="OUT.html",
        help="also write the report as one self-contained HTML file (tables and figures "
        "embedded; opens offline)",
    )
    add_engine_arguments(p)


def _baseline(periods: list[Any], column: str, text: str | None) -> Any:
    """The period (of the distinct ``periods``) whose printed form is ``text``, or
    ``text`` as a number."""
    if text is None:
        return None
    for value in periods:
        if str(value) == text:
            return value
    try:
        number = float(text)
    except ValueError:
        number = None
    if number is not None and 0 < number < 1:
        return number
    shown = ", ".join(repr(v) for v in sorted(str(v) for v in periods)[:6])
    raise CommandError(
        f"--baseline {text!r} is not a period of --time column {column!r} ({shown}"
        f"{' ...' if len(periods) > 6 else ''}) nor a prevalence in (0, 1)"
    )


def run_monitor(args: argparse.Namespace) -> Output:
    """``opsstats monitor``: read the file (DuckDB or pandas, as ``report``), monitor,
    and render."""
    if args.pred is not None and args.threshold is not None:
        raise CommandError("--threshold applies to --score, not to --pred")
    options = {
        "--truth": args.truth,
        "--score": args.score,
        "--pred": args.pred,
        "--time": args.time,
        "--group": args.group,
    }
    complete = ("--truth", "--score", "--pred", "--time")
    common = {
        "truth": args.truth,
        "score": args.score,
        "pred": args.pred,
        "threshold": args.threshold,
        "time": args.time,
        "metrics": args.metric,
        "by": args.group,
        "confidence_level": args.confidence_level,
        "n_resamples": args.n_resamples,
        "rng": args.seed,
    }
    if (args.engine or default_engine(args.file)) == "duckdb":
        relation, connection = open_duckdb(args.file, options, args.memory_limit, complete=complete)
        periods = [] if args.baseline is None else distinct_values(
            relation, "--time", args.time, args.file
        )  # fmt: skip
        with duckdb_errors(args.file):
            result = monitor(
                relation,
                baseline=_baseline(periods, args.time, args.baseline),
                pos_label=_relation_pos_label(relation, args.truth, args.pos_label),
                **common,
            )
        connection.close()  # only the count tables were brought into Python
    else:
        data = read_table(args.file)
        check_columns(data, args.file, options, complete=complete)
        result = monitor(
            data,
            baseline=_baseline(list(data[args.time].drop_duplicates()), args.time, args.baseline),
            pos_label=parse_pos_label(data, args.truth, args.pos_label),
            **common,
        )
    files = {"--html": lambda: html_document(result, args.digits).encode("utf-8")}
    return Output(
        render_monitor(result, args.format, args.digits),
        lambda fig: draw_monitor(fig, result),
        files,
    )


def render_monitor(result: MonitorResult, fmt: str, digits: int) -> str:
    """The result as text (the summary), CSV or JSON (the full table, full precision) or
    HTML (the self-contained document)."""
    if fmt == "text":
        return result.summary(digits).as_text()
    if fmt == "html":
        return html_document(result, digits)
    if fmt == "csv":
        return to_csv(result.to_frame())
    settings = {
        "time": result.time,
        "by": list(result.by),
        "baseline": str(result.baseline),
        "standard_prevalence": [
            {"group": [str(k) for k in key], "prevalence": None if p != p else p}
            for key, p in result.standard_prevalence.items()
        ],
        "confidence_level": result.confidence_level,
        "adjust": result.adjust,
        "method": result.method,
    }
    return json.dumps(
        {"title": f"Monitoring across {result.time!r}", "settings": settings,
         "rows": json_rows(result.to_frame())},
        indent=2,
        default=str,
        allow_nan=False,
    )  # fmt: skip


def _panels(fig: Any, result: MonitorResult) -> Any:
    n = len(result.metrics) + 1
    fig.set_size_inches(10.0, 2.1 * len(result.metrics) + 1.9)
    return fig.subplots(n, 1, sharex=True, height_ratios=[2.0] * len(result.metrics) + [1.3])


def draw_monitor(fig: Any, result: MonitorResult, group: Any = None) -> None:
    """The monitoring figure of one group (default the first) on ``fig``."""
    result.plot(ax=list(_panels(fig, result)), group=group)


def _png(result: MonitorResult, group: Any) -> str:
    """One group's figure as base64 PNG (without the software metadata: nothing in the
    file points anywhere)."""
    from matplotlib.figure import Figure

    fig = Figure(layout="constrained")
    draw_monitor(fig, result, group)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    return base64.b64encode(buffer.getvalue()).decode("ascii")


_STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; max-width: 80em; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { padding: 2px 8px; text-align: right; border-bottom: 1px solid #ddd; }
ul { font-size: 0.9em; } img { max-width: 100%; }
details { margin-top: 1.5em; } .wide { overflow-x: auto; }
"""


def html_document(result: MonitorResult, digits: int = 4) -> str:
    """The monitoring report as one HTML document: the summary table with its notes,
    each group's figure (base64 PNG, up to :data:`MAX_HTML_GROUPS`), and the full table
    in a collapsible section. It references nothing outside itself."""
    summary = result.summary(digits)
    # the page's heading is the summary's title; the table under it gets a caption of
    # its own instead of the same title a second time
    table = dataclasses.replace(summary, title="Per period and metric")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(printable(summary.title))}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(printable(summary.title))}</h1>",
        '<div class="wide">',
        table.as_html(),
        "</div>",
    ]
    groups = result.groups
    for group in groups[:MAX_HTML_GROUPS]:
        where = ", ".join(f"{c} = {v}" for c, v in zip(result.by, group, strict=True))
        heading = f"Over time: {where}" if where else "Over time"
        alt = f"monitoring figure {where}".strip()
        parts.append(f"<h2>{html.escape(printable(heading))}</h2>")
        parts.append(
            f'<img alt="{html.escape(printable(alt))}" '
            f'src="data:image/png;base64,{_png(result, group if result.by else None)}">'
        )
    if len(groups) > MAX_HTML_GROUPS:
        parts.append(
            f"<p>Figures of the first {MAX_HTML_GROUPS} of {len(groups)} groups; the "
            "tables hold every group.</p>"
        )
    full = result.to_frame().to_html(escape=True, border=0, index=False, na_rep="")
    parts += [
        "<details><summary>Every column (the tidy table)</summary>",
        f'<div class="wide">{printable(full)}</div></details>',
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"

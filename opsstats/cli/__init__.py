"""The ``opsstats`` command line.

``opsstats report FILE --truth COL (--score COL | --pred COL) ...`` evaluates a CSV or
Parquet file of predictions; ``opsstats example`` runs the full report on the bundled
affairs data.

Exit statuses: 0 on success; 2 for an error, printed as one line on stderr
(``opsstats: error: ...``) with nothing on stdout and no output file written; 130 when
interrupted (Ctrl-C, ``opsstats: interrupted``); 3 for an internal error (a bug in
opsstats, printed as one line asking to report it). Never a traceback.

How a subcommand is made: its parser calls ``add_output_options`` (with what its
``--plot`` draws in ``_PLOT_HELP``; and whatever
else it needs, e.g. the argument types ``finite_float``, ``resample_count``)
and sets ``run=`` to a function ``build(args) -> Output``. ``main`` parses the
arguments and hands ``build`` to ``run_command``, which checks the output paths
first (``check_outputs``), runs ``build`` with warnings turned into one line each,
writes the figure and the report whole or not at all (``StagedFiles``), prints
the report last, and turns every failure into one line and an exit status. A
subcommand reading a file of predictions uses ``read_table``,
``check_columns`` and ``parse_pos_label``.

``report`` reads through DuckDB by default (``default_engine``): one file with
``read_file_relation``, which makes ``check_columns``' checks by queries with the same
messages and types a CSV's columns as pandas would, a directory or a glob with
``read_relation``; only count tables come into Python. ``--engine pandas`` reads the
rows with ``read_table``, as does a pipe.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import plotting
from .._csv import to_csv
from .._lazy import lazy_module
from .._validation import MAX_DIGITS
from .._version import __version__
from ..comparison import METHODS as COMPARE_METHODS
from ..comparison import ComparisonResult, ComparisonTable, compare, compare_test_sets
from ..curves.score_curve import ScoreCurve
from ..examples import affairs_example
from ..frames import count_tables
from ..grouped import parse_metrics
from ..plotting._axes import literal, ops_label
from ..plotting.forest import metric_text
from ..report import EvaluationReport, report
from ._arguments import (
    CI_CHOICES,
    DEFAULT_MAX_DISTINCT,
    EXIT_ERROR,
    FORMATS,
    MAX_FOREST_ROWS,
    MAX_RESAMPLES,
    MIN_RESAMPLES,
    CommandError,
    _Parser,
    add_engine_arguments,
    add_input_arguments,
    digit_count,
    distinct_limit,
    finite_float,
    open_unit_float,
    resample_count,
    seed_value,
    whole_number,
)
from ._duckdb_file import CSV_MISSING as CSV_MISSING  # the tests' markers
from ._duckdb_file import duckdb_errors, open_duckdb
from ._monitor import PLOT_HELP as MONITOR_PLOT_HELP
from ._monitor import add_monitor_arguments, run_monitor
from ._outputs import Output, run_command
from ._outputs import StagedFiles as StagedFiles  # a part of every subcommand (above)
from ._reading import (
    _relation_pos_label,
    check_columns,
    default_engine,
    parse_pos_label,
    read_table,
)

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__ = ["main"]

# ---------------------------------------------------------------------------------------
# the subcommands


#: What ``--plot`` draws, by command.
_PLOT_HELP = {
    "report": "the OPS of each group with intervals (forest plot) when there are groups, "
    "else the PR curve over the reference band with the OPS of its area and the "
    "operating point of --threshold (scores), or the unit square of the first metric "
    "(predicted labels)",
    "compare": "the difference of each pair with its interval (forest plot), a dotted line at 0",
    "monitor": MONITOR_PLOT_HELP,
}


def add_output_options(p: argparse.ArgumentParser, command: str) -> None:
    """``--format``, ``--output``, ``--plot`` (what it draws for ``command``) and
    ``--digits``."""
    p.add_argument("--format", choices=FORMATS, default="text", help="output format (default text)")
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write the report to FILE instead of standard output (whole or not at all: "
        "a temporary file beside it is renamed when complete)",
    )
    p.add_argument(
        "--plot",
        metavar="OUT.png",
        help="also write a figure (format from the extension: .png, .pdf, .svg, ...): "
        + _PLOT_HELP[command],
    )
    p.add_argument(
        "--digits",
        type=digit_count,
        default=4,
        help=f"digits when printed, 0 to {MAX_DIGITS} (default 4; CSV and JSON keep full "
        "precision)",
    )


def add_draw_options(p: argparse.ArgumentParser, resamples: int) -> None:
    """``--confidence-level``, ``--n-resamples`` (default ``resamples``) and ``--seed``."""
    p.add_argument("--confidence-level", type=open_unit_float, default=0.95, help="(default 0.95)")
    p.add_argument(
        "--n-resamples",
        type=resample_count,
        default=resamples,
        help=f"draws per interval, {MIN_RESAMPLES} to {MAX_RESAMPLES:_} (default {resamples})",
    )
    p.add_argument("--seed", type=seed_value, default=0, help="random seed (default 0)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="opsstats",
        description="Outperformance scores (o-values) of classifier metrics, with intervals.",
        epilog="Exit status: 0 on success, 2 for an error (one line on stderr), 130 if "
        "interrupted.",
    )
    parser.add_argument("--version", action="version", version=f"opsstats {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    rep = sub.add_parser("report", help="evaluate a CSV or Parquet file of predictions")
    add_input_arguments(rep)
    rep.add_argument(
        "--metric",
        action="append",
        metavar="NAME",
        help="metric to report (repeatable): a registered metric (f1, mcc, "
        "...), a curve area (roc_auc, pr_auc, lift_auc, gain_auc) or an "
        "operating point such as precision@recall=0.9; default: F1, MCC, "
        "precision, recall, balanced accuracy and/or ROC and PR AUC",
    )
    rep.add_argument(
        "--group",
        action="append",
        metavar="COL",
        help="grouping column (repeatable): one evaluation per group",
    )
    rep.add_argument(
        "--pos-label",
        metavar="LABEL",
        help="the positive class of --truth (and --pred) when it is not 1/True",
    )
    rep.add_argument(
        "--ci",
        choices=CI_CHOICES,
        default="dirichlet",
        help="interval method (default dirichlet; delong: DeLong's for the ROC AUC; none: "
        "no intervals)",
    )
    add_draw_options(rep, 1000)
    add_engine_arguments(rep)
    rep.add_argument(
        "--bins",
        type=whole_number,
        metavar="K",
        help="curves from K equal-width score bins (counted by the engine); each curve "
        "row then states the range of the unbinned value. Alone: always; with "
        "--max-distinct: only beyond it",
    )
    rep.add_argument(
        "--max-distinct",
        type=distinct_limit,
        metavar="M",
        help=f"count each curve per distinct score while every group has at most M "
        f"distinct scores (default {DEFAULT_MAX_DISTINCT}), else in --bins equal-width "
        "bins (default M), each curve row then stating the range of the unbinned value, "
        "so that memory does not grow with the rows; 'none' never bins (memory then grows "
        "with the distinct scores)",
    )
    add_output_options(rep, "report")
    rep.set_defaults(run=_report)

    add_compare_parser(sub)

    mon = sub.add_parser(
        "monitor", help="a classifier across periods: did it change, or only the class balance?"
    )
    add_monitor_arguments(mon)
    add_draw_options(mon, 1000)
    add_output_options(mon, "monitor")
    mon.set_defaults(run=run_monitor)

    ex = sub.add_parser("example", help="the full report on the bundled affairs data")
    ex.add_argument(
        "--threshold",
        type=finite_float,
        default=0.5,
        help="score threshold for the confusion-matrix metrics (default 0.5)",
    )
    ex.add_argument("--ci", choices=CI_CHOICES, default="dirichlet")
    add_output_options(ex, "report")
    ex.set_defaults(run=_example)
    return parser


def _needs_labels(metrics: Any, args: argparse.Namespace) -> None:
    """A confusion-matrix metric asked of scores without ``--threshold`` is refused
    before anything is read, saying what to give."""
    if args.score is None or args.threshold is not None or not metrics:
        return
    try:
        specs = parse_metrics(metrics)
    except (ValueError, TypeError):  # not a metric evaluate knows: the library says why
        return
    for spec in specs:
        if spec.kind == "point":
            raise CommandError(f"--metric {spec.label} needs --threshold or --pred")


def _warn_one_class(rep: EvaluationReport, threshold: float | None) -> None:
    """A warning when ``--threshold`` predicts every row alike (e.g. 30 on probabilities
    in [0, 1]): the confusion-matrix metrics would be those of a constant classifier."""
    if threshold is None or rep.counts is None or rep.counts.empty:
        return
    total = rep.counts.sum()
    flagged, rows = total["tp"] + total["fp"], total.sum()
    if flagged == 0 or flagged == rows:
        side, rule = ("negative", "no score is") if flagged == 0 else ("positive", "every score is")
        warnings.warn(
            f"--threshold {threshold:g} predicts every row {side}: {rule} >= {threshold:g} "
            f"in the --score column {rep.settings['score']}; is the threshold on the scores' "
            "scale?",
            UserWarning,
            stacklevel=2,
        )


def _report(args: argparse.Namespace) -> Output:
    _needs_labels(args.metric, args)
    if (args.engine or default_engine(args.file)) == "duckdb":
        return _report_in_duckdb(args)
    data = read_table(args.file)
    check_columns(data, args.file, _report_columns(args))
    rep = _run_report(args, data, parse_pos_label(data, args.truth, args.pos_label), "")
    return Output(
        rep.render(args.format, digits=args.digits),
        lambda fig: draw_report(fig, rep, data),
    )


def _run_report(args: argparse.Namespace, data: Any, pos_label: Any, note: str) -> Any:
    """The report of ``report``'s options on ``data`` (a pandas frame or a relation),
    with a warning when ``--threshold`` predicts every row alike."""
    bins, max_distinct = _curve_counting(args)
    rep = report(
        data,
        truth=args.truth,
        score=args.score,
        pred=args.pred,
        threshold=args.threshold,
        metrics=args.metric,
        by=args.group,
        pos_label=pos_label,
        ci=None if args.ci == "none" else args.ci,
        confidence_level=args.confidence_level,
        n_resamples=args.n_resamples,
        rng=args.seed,
        title=f"Evaluation of {args.file}{note}",
        bins=bins,
        max_distinct=max_distinct,
    )
    _warn_one_class(rep, args.threshold)
    return rep


def _curve_counting(args: argparse.Namespace) -> tuple[int | None, int | None]:
    """``(bins, max_distinct)`` of the report's curves: ``--bins K`` alone bins
    always (into K bins); otherwise a curve is counted per distinct score while every
    group has at most ``--max-distinct M`` distinct scores (default
    :data:`DEFAULT_MAX_DISTINCT`), else in ``--bins`` bins (default M); ``--max-distinct
    none`` never bins (``--bins`` then bins always)."""
    limit = args.max_distinct
    if (limit is None and args.bins is not None) or limit == 0:
        return args.bins, None
    limit = DEFAULT_MAX_DISTINCT if limit is None else limit
    return args.bins or limit, limit


def _report_columns(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "--truth": args.truth,
        "--score": args.score,
        "--pred": args.pred,
        "--group": args.group,
    }


def _report_in_duckdb(args: argparse.Namespace) -> Output:
    """``report`` with the counting done by DuckDB (opsstats/frames.py): the rows never
    come into Python, so memory does not grow with their number. One file is checked as
    the pandas path checks it (:func:`read_file_relation`); the PR curve of ``--plot`` is
    built from DuckDB's count per distinct score (per bin with ``--bins``)."""
    relation, connection = open_duckdb(args.file, _report_columns(args), args.memory_limit)
    pos_label = _relation_pos_label(relation, args.truth, args.pos_label)
    with duckdb_errors(args.file):
        rep = _run_report(args, relation, pos_label, " (counted by DuckDB)")

    def curve() -> tuple[ScoreCurve, bool]:
        bins, max_distinct = _curve_counting(args)
        with duckdb_errors(args.file):
            tables = count_tables(
                relation,
                truth=args.truth,
                score=args.score,
                pos_label=pos_label,
                curves=True,
                bins=bins,
                max_distinct=max_distinct,
            )
        assert tables.scores is not None
        return ScoreCurve.from_counts(*tables.scores[0]), tables.bins is not None

    def draw(fig: Any, connection: Any = connection) -> None:  # the connection kept
        draw_report(fig, rep, None, curve=curve)

    return Output(rep.render(args.format, digits=args.digits), draw)


def _example(args: argparse.Namespace) -> Output:
    ex = affairs_example(threshold=args.threshold)
    rep = ex.report(ci=None if args.ci == "none" else args.ci)
    data = ex.test_sets
    return Output(
        rep.render(args.format, digits=args.digits),
        lambda fig: draw_report(fig, rep, data),
    )


def draw_report(
    fig: Any,
    rep: EvaluationReport,
    data: pd.DataFrame | None,
    *,
    curve: Callable[[], tuple[ScoreCurve, bool]] | None = None,
) -> None:
    """The figure of a report: the forest plot of every group's OPS with groups; else
    the PR curve of the positive class (``pos_label``) over the reference band when
    there are scores, or the unit square of the first metric with a finite value. The
    curve is that of the rows of ``data``, or the first of ``curve()``'s (curve, binned)
    (e.g. from an engine's count table); the other figures need neither. The PR curve's
    legend has the OPS of its area as the report has it (with its interval), and the
    operating point of the report's threshold is marked unless the curve is binned (it
    has no point at an arbitrary threshold)."""
    table = rep.table
    if rep.by:
        if len(table) > MAX_FOREST_ROWS:
            raise CommandError(
                f"--plot: a forest plot of {len(table)} rows (groups x metrics) would be "
                f"unreadable; at most {MAX_FOREST_ROWS}: choose fewer --metric or --group"
            )
        fig.set_size_inches(7, max(4.5, 0.3 * len(table) + 1.6))
        plotting.plot_forest(table, ax=fig.subplots())
        return
    score = rep.settings.get("score")
    if score is not None:
        binned = False
        if curve is not None:
            pr, binned = curve()
        else:
            assert data is not None
            pr = ScoreCurve.from_scores(
                data[rep.settings["truth"]], data[score], pos_label=rep.settings.get("pos_label")
            )
        threshold = None if binned else rep.settings.get("threshold")
        ax = plotting.plot_curve(
            pr, "pr", threshold=threshold, ax=fig.subplots(), **_pr_auc_label(rep)
        )
        pos_label = rep.settings.get("pos_label")
        if pos_label is not None:  # say which class's curve it is
            which = literal(f"positive class: {rep.settings['truth']} = {pos_label}")
            ax.set_title(f"{ax.get_title()}\n{which}", fontsize="medium")
        return
    finite = table[np.isfinite(table["value"].to_numpy(dtype=float))]
    if finite.empty:
        raise CommandError("--plot: nothing to plot: no metric has a finite value")
    first = finite.iloc[0]
    fig.set_size_inches(5.6, 6.6)
    plotting.plot_unit_square(
        first["metric"], first["value"], first["prevalence"], ax=fig.subplots()
    )


def _pr_auc_label(rep: EvaluationReport) -> dict[str, Any]:
    """``label=`` of the PR curve: its area with the OPS and interval of the report's
    ``pr_auc`` row (none when the report has no such row)."""
    rows = rep.table[rep.table["metric"] == "pr_auc"]
    if rows.empty:
        return {}
    row = rows.iloc[0]
    return {
        "label": ops_label(
            "classifier",
            metric_text("pr_auc"),
            row["value"],
            row["ops"],
            (row["ops_ci_low"], row["ops_ci_high"]),
            rep.settings.get("confidence_level"),
        )
    }


# ---------------------------------------------------------------------------------------
# opsstats compare


def add_compare_parser(sub: Any) -> None:
    """``opsstats compare FILE --truth COL (--score COL --score COL ... | --pred COL ...)``,
    or one ``--score``/``--pred`` with ``--between COL`` for independent test sets."""
    cmp = sub.add_parser(
        "compare",
        help="compare classifiers on the same rows, or test sets (--between)",
    )
    cmp.add_argument("file", help="a .csv, .tsv or .parquet file, one row per instance")
    cmp.add_argument("--truth", required=True, metavar="COL", help="column of true labels")
    what = cmp.add_mutually_exclusive_group(required=True)
    what.add_argument(
        "--score",
        action="append",
        metavar="COL",
        help="column of a classifier's scores (repeat for each classifier)",
    )
    what.add_argument(
        "--pred",
        action="append",
        metavar="COL",
        help="column of a classifier's predicted labels (repeat for each classifier)",
    )
    cmp.add_argument(
        "--between",
        metavar="COL",
        help="compare the test sets this column defines (e.g. a month), one --score or "
        "--pred, independent (unpaired) comparisons",
    )
    cmp.add_argument(
        "--threshold",
        type=finite_float,
        metavar="T",
        help="with --score: predict positive where score >= T, for a confusion-matrix metric",
    )
    cmp.add_argument(
        "--metric",
        metavar="NAME",
        help="what to compare (default roc_auc with --score, f1 with --pred or --threshold)",
    )
    cmp.add_argument("--ops", action="store_true", help="compare the OPS of the metric")
    cmp.add_argument(
        "--method",
        choices=COMPARE_METHODS,
        default="auto",
        help="default auto: DeLong's statistic on Student's t (Satterthwaite df) for the "
        "ROC AUC (delong: pROC's reference distribution), the paired bootstrap for other "
        "curve quantities, the Dirichlet posterior for confusion-matrix metrics",
    )
    cmp.add_argument("--alternative", choices=("two-sided", "greater", "less"), default="two-sided")
    cmp.add_argument(
        "--rope",
        nargs=2,
        type=finite_float,
        metavar=("LOW", "HIGH"),
        help="region of practical equivalence of the difference (Dirichlet method)",
    )
    cmp.add_argument("--adjust", choices=("holm", "bonferroni"), default="holm")
    cmp.add_argument("--pos-label", metavar="LABEL", help="the positive class of --truth")
    add_draw_options(cmp, 2000)
    add_output_options(cmp, "compare")
    cmp.set_defaults(run=_compare)


def _compare(args: argparse.Namespace) -> Output:
    if args.threshold is not None and args.pred:
        raise CommandError("--threshold makes predicted labels from --score; --pred gives them")
    metric = (
        args.metric
        if args.metric is not None
        else ("roc_auc" if args.score and args.threshold is None else "f1")
    )
    _needs_labels([metric], args)
    data = read_table(args.file)
    columns = args.score or args.pred
    check_columns(
        data,
        args.file,
        {
            "--truth": args.truth,
            "--score": args.score,
            "--pred": args.pred,
            "--between": args.between,
        },
        complete=("--truth", "--score", "--pred", "--between"),
    )
    option = "--score" if args.score else "--pred"
    if len(set(columns)) < len(columns):
        raise CommandError(f"{option}: a column is named twice")
    pos_label = parse_pos_label(data, args.truth, args.pos_label)
    common: dict[str, Any] = {
        "metric": metric,
        "threshold": args.threshold,
        "ops": args.ops,
        "method": args.method,
        "alternative": args.alternative,
        "confidence_level": args.confidence_level,
        "n_resamples": args.n_resamples,
        "rope": args.rope,
        "adjust": args.adjust,
        "pos_label": pos_label,
        "rng": args.seed,
    }
    if args.between is not None:
        if len(columns) != 1:
            raise CommandError(f"--between compares test sets: give one {option}")
        groups = {
            str(k): (g[args.truth].to_numpy(), g[columns[0]].to_numpy())
            for k, g in data.groupby(args.between, sort=True)
        }
        if len(groups) < 2:
            raise CommandError(
                f"--between {args.between!r} has {len(groups)} value(s); 2 or more needed"
            )
        result = compare_test_sets(groups, **common)
    else:
        if len(columns) < 2:
            raise CommandError(f"give {option} at least twice (the classifiers to compare)")
        arrays = {c: data[c].to_numpy() for c in columns}
        y = data[args.truth].to_numpy()
        if args.score:
            result = compare(y, arrays, **common)
        else:
            result = compare(y, y_pred=arrays, **common)
    return Output(
        render_comparison(result, args.format, args.digits),
        lambda fig: result.plot(ax=fig.subplots()),
    )


def render_comparison(result: ComparisonResult | ComparisonTable, fmt: str, digits: int) -> str:
    """The comparison as text (R's printed test, or the table of pairs), CSV, JSON or
    HTML."""
    if fmt == "text":
        if isinstance(result, ComparisonResult):
            return result.to_string(digits)
        return result.summary(digits).as_text()
    if fmt == "html":
        return result.summary(digits).as_html()
    frame = result.to_frame()
    if fmt == "csv":
        return to_csv(frame)
    return frame.to_json(orient="records", indent=2)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``opsstats`` command with ``argv`` (default ``sys.argv[1:]``) and return its
    exit status: 0 on success, 2 for an error (printed as one line on stderr), 130 when
    interrupted, 3 for an internal error.

    Examples
    --------
    >>> import os, tempfile
    >>> import pandas as pd
    >>> path = os.path.join(tempfile.mkdtemp(), "predictions.csv")
    >>> pd.DataFrame({"y": [1, 0, 1, 0, 1], "p": [1, 0, 0, 0, 1]}).to_csv(path, index=False)
    >>> main(["report", path, "--truth", "y", "--pred", "p", "--metric", "recall",
    ...       "--ci", "none", "--format", "csv"])  # doctest: +ELLIPSIS
    "metric","n","prevalence","value",...
    0
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (status 0) or a usage error, printed as one line (2)
        return exc.code if isinstance(exc.code, int) else EXIT_ERROR
    return run_command(args.run, args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

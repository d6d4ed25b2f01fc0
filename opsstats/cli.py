"""The ``opsstats`` command line.

``opsstats report FILE --truth COL (--score COL | --pred COL) ...`` evaluates a CSV or
Parquet file of predictions; ``opsstats example`` runs the full report on the bundled
affairs data. Errors print one line on stderr and exit with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import pandas as pd

from . import plotting
from .curves.score_curve import ScoreCurve
from .examples import affairs_example
from .exceptions import UndefinedMetricWarning
from .report import report

__all__ = ["main"]

FORMATS = ("text", "csv", "json", "html")
CI_CHOICES = ("dirichlet", "bootstrap", "delong", "none")


class CommandError(Exception):
    """An error to print as one line (exit status 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2 (argparse's default code)
        self.exit(2, f"opsstats: error: {message}\n")


def read_table(path: str) -> Any:
    """A CSV (``.csv``, ``.csv.gz``, ``.tsv``) or Parquet (``.parquet``, ``.pq``) file."""
    p = Path(path)
    if not p.exists():
        raise CommandError(f"no such file: {path}")
    if p.is_dir():
        raise CommandError(f"{path} is a directory, not a CSV or Parquet file")
    name = p.name.lower()
    try:
        if name.endswith((".parquet", ".pq")):
            try:
                return pd.read_parquet(p)
            except ImportError:
                raise CommandError(
                    "reading Parquet needs pyarrow: pip install 'opsstats[parquet]'"
                ) from None
        if name.endswith((".csv", ".csv.gz", ".txt")):
            return pd.read_csv(p)
        if name.endswith(".tsv"):
            return pd.read_csv(p, sep="\t")
    except CommandError:
        raise
    except Exception as exc:  # pandas/pyarrow parse errors of many types
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CommandError(f"cannot read {path}: {first}") from None
    raise CommandError(f"{path}: unsupported file type; use .csv, .tsv or .parquet")


def _add_output_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=FORMATS, default="text", help="output format (default text)")
    p.add_argument(
        "--plot",
        metavar="OUT.png",
        help="also write a figure: the OPS of each group with intervals "
        "(forest plot) when there are groups, else the PR curve over the "
        "reference band (scores) or the unit square of the first metric "
        "(predicted labels)",
    )
    p.add_argument("--digits", type=int, default=4, help="digits when printed (default 4)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="opsstats",
        description="Outperformance scores (o-values) of classifier metrics, with intervals.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    rep = sub.add_parser("report", help="evaluate a CSV or Parquet file of predictions")
    rep.add_argument("file", help="a .csv, .tsv or .parquet file, one row per instance")
    rep.add_argument("--truth", required=True, metavar="COL", help="column of true labels")
    what = rep.add_mutually_exclusive_group(required=True)
    what.add_argument("--score", metavar="COL", help="column of scores")
    what.add_argument("--pred", metavar="COL", help="column of predicted labels")
    rep.add_argument(
        "--threshold",
        type=float,
        metavar="T",
        help="predict positive where score >= T (confusion-matrix metrics)",
    )
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
        help="interval method (default dirichlet; curves use, for the ROC "
        "and PR AUC, the Dirichlet posterior of each class's scores below "
        "100 rows of the smaller class (for the PR AUC with the lower "
        "end extended by its bias estimate) and the logit-scale DeLong or "
        "jackknife interval from 100 on, the percentile bootstrap "
        "otherwise, or DeLong's normal interval for the ROC AUC with --ci "
        "delong; none for no intervals)",
    )
    rep.add_argument("--confidence-level", type=float, default=0.95)
    rep.add_argument("--n-resamples", type=int, default=1000)
    rep.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    _add_output_options(rep)
    rep.set_defaults(run=_report)

    ex = sub.add_parser("example", help="the full report on the bundled affairs data")
    ex.add_argument(
        "--threshold",
        type=float,
        default=0.5,
        help="score threshold for the confusion-matrix metrics (default 0.5)",
    )
    ex.add_argument("--ci", choices=CI_CHOICES, default="dirichlet")
    _add_output_options(ex)
    ex.set_defaults(run=_example)
    return parser


def _pos_label(data: Any, column: str, text: str | None) -> Any:
    """Match a --pos-label string to the column's type (ints, floats, booleans)."""
    if text is None or column not in data.columns:
        return text
    kind = data[column].dtype.kind
    try:
        if kind in "iu":
            return int(text)
        if kind == "f":
            return float(text)
        if kind == "b":
            return {"true": True, "false": False, "1": True, "0": False}[text.lower()]
    except (ValueError, KeyError):
        raise CommandError(
            f"--pos-label {text!r} is not a value of column {column!r} (dtype {data[column].dtype})"
        ) from None
    return text


def _report(args: argparse.Namespace) -> tuple[Any, Any]:
    data = read_table(args.file)
    if args.n_resamples < 100:
        raise CommandError(f"--n-resamples must be at least 100; got {args.n_resamples}")
    rep = report(
        data,
        truth=args.truth,
        score=args.score,
        pred=args.pred,
        threshold=args.threshold,
        metrics=args.metric,
        by=args.group,
        pos_label=_pos_label(data, args.truth, args.pos_label),
        ci=None if args.ci == "none" else args.ci,
        confidence_level=args.confidence_level,
        n_resamples=args.n_resamples,
        rng=args.seed,
        title=f"Evaluation of {args.file}",
    )
    return rep, data


def _example(args: argparse.Namespace) -> tuple[Any, Any]:
    ex = affairs_example(threshold=args.threshold)
    rep = ex.report(ci=None if args.ci == "none" else args.ci)
    return rep, ex.test_sets


def _plot(rep: Any, data: Any, path: str, args: argparse.Namespace) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    table = rep.table
    if rep.by:
        name = " / ".join(rep.by) + " · metric"
        label = table[rep.by].astype(str).agg(" / ".join, axis=1) + " · " + table["metric"]
        plotting.plot_forest(table.assign(**{name: label}), label=name, ax=ax)
    else:
        score = getattr(args, "score", None) or ("score" if "score" in data.columns else None)
        if score is not None:
            curve = ScoreCurve.from_scores(data[rep.settings["truth"]], data[score])
            plotting.plot_curve(curve, "pr", ax=ax)
        else:  # predicted labels only: the unit square of the first defined metric
            defined = table[table["value"].notna()]
            if defined.empty:
                raise CommandError("nothing to plot: every metric is undefined")
            first = defined.iloc[0]
            plotting.plot_unit_square(first["metric"], first["value"], first["prevalence"], ax=ax)
    fig.tight_layout()
    fig.savefig(path, dpi=150)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``opsstats`` command with ``argv`` (default ``sys.argv[1:]``) and return its
    exit status: 0 on success, 2 for an error (printed as one line on stderr).

    Examples
    --------
    >>> import os, tempfile
    >>> import pandas as pd
    >>> path = os.path.join(tempfile.mkdtemp(), "predictions.csv")
    >>> pd.DataFrame({"y": [1, 0, 1, 0, 1], "p": [1, 0, 0, 0, 1]}).to_csv(path, index=False)
    >>> main(["report", path, "--truth", "y", "--pred", "p", "--metric", "recall",
    ...       "--ci", "none", "--format", "csv"])  # doctest: +ELLIPSIS
    metric,n,prevalence,value,...
    0
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        with warnings.catch_warnings():
            # undefined rows are printed in the report with their reason; other
            # warnings (e.g. small counts for a bootstrap) as one line on stderr
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            shown: set[str] = set()

            def show(message: Any, *args: Any, **kwargs: Any) -> None:
                if str(message) not in shown:
                    shown.add(str(message))
                    print(f"opsstats: warning: {message}", file=sys.stderr)

            warnings.simplefilter("always", UserWarning)
            warnings.showwarning = show
            rep, data = args.run(args)
        print(rep.render(args.format, digits=args.digits))
        if args.plot:
            _plot(rep, data, args.plot, args)
            print(f"figure written to {args.plot}", file=sys.stderr)
    except BrokenPipeError:  # e.g. `opsstats report ... | head`: the reader left
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (CommandError, ValueError, TypeError, KeyError, OSError) as exc:
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"opsstats: error: {message}", file=sys.stderr)
        return 2
    except Exception as exc:  # never a traceback; say it is ours
        print(
            f"opsstats: internal error ({type(exc).__name__}: {exc}); please report it",
            file=sys.stderr,
        )
        return 3
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

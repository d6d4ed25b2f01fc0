"""The ``opsstats`` command line.

``opsstats example`` evaluates a logistic model of the bundled affairs data on a
held-out set. Errors print one line on stderr and exit with status 2; never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2 (argparse's default code)
        self.exit(2, f"opsstats: error: {message}\n")


def _example(args: argparse.Namespace) -> str:
    from .examples import affairs_example

    return affairs_example(threshold=args.threshold).report()


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="opsstats", description="Outperformance scores (o-values) of "
                     "classifier metrics.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    ex = sub.add_parser("example", help="evaluate a model of the bundled affairs data")
    ex.add_argument("--threshold", type=float, default=0.5,
                    help="score threshold for the confusion matrix (default 0.5)")
    ex.set_defaults(run=_example)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        print(args.run(args))
    except (ValueError, TypeError, OSError, KeyError) as exc:
        print(f"opsstats: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

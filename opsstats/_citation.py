"""How to cite opsstats and the paper that defines the outperformance score.

The facts below are the single Python source of the citation; ``CITATION.cff`` at the top
of the repository states the same facts for GitHub and reference managers, and
``tests/test_citation.py`` checks that the two agree. Only what the paper's text gives is
recorded: its title, its four authors and the journal named in its front matter. The text
gives no year, volume, pages or DOI, so none is made up here.
"""

from __future__ import annotations

from ._validation import describe
from ._version import __version__

__all__ = ["cite", "PAPER", "SOFTWARE", "FORMATS"]

#: The method: Zhao, Bui, Yu and Dzieciolowski, as the manuscript gives it.
PAPER = {
    "title": (
        "Outperformance Score: A Universal Standardization Method for "
        "Confusion-Matrix-Based Classification Performance Metrics"
    ),
    # (given names, family name), in the manuscript's order
    "authors": (
        ("Ningsheng", "Zhao"),
        ("Trang", "Bui"),
        ("Jia Yuan", "Yu"),
        ("Krzysztof", "Dzieciolowski"),
    ),
    # the journal named in the manuscript's front matter ("journal: Pattern Recognition")
    "journal": "Pattern Recognition",
    "status": "preprint",
}

#: The software.
SOFTWARE = {
    "title": (
        "opsstats: outperformance scores (o-values) of classifier metrics, with honest uncertainty"
    ),
    "authors": "opsstats developers",
    "license": "BSD-3-Clause",
}

#: The formats :func:`cite` writes.
FORMATS = ("text", "bibtex")


class _Citation(str):
    """A ``str`` that shows itself as text at the interactive prompt (no quotes, real
    line breaks), so that ``opsstats.cite()`` reads like R's ``citation()``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)


def _version() -> str:
    return __version__


def _initials(given: str) -> str:
    return " ".join(part[0] + "." for part in given.split())


def _text() -> str:
    names = [f"{family}, {_initials(given)}" for given, family in PAPER["authors"]]
    authors = ", ".join(names[:-1]) + " and " + names[-1]
    return "\n".join(
        [
            "If you use opsstats, please cite the paper that defines the outperformance score",
            "(o-value) and the software:",
            "",
            f"  {authors}",
            f"  {PAPER['title']}.",
            f"  Manuscript prepared for {PAPER['journal']}.",
            "",
            f"  {SOFTWARE['authors']}.",
            f"  {SOFTWARE['title']}.",
            f"  Python package, version {_version()}.",
            "",
            'opsstats.cite("bibtex") gives both as BibTeX entries.',
        ]
    )


def _bibtex() -> str:
    authors = " and ".join(f"{family}, {given}" for given, family in PAPER["authors"])
    return "\n".join(
        [
            "@unpublished{zhao_outperformance_score,",
            f"  author = {{{authors}}},",
            f"  title  = {{{PAPER['title']}}},",
            f"  note   = {{Manuscript prepared for {PAPER['journal']}}},",
            "}",
            "",
            "@misc{opsstats,",
            f"  author       = {{{{{SOFTWARE['authors']}}}}},",
            f"  title        = {{{SOFTWARE['title']}}},",
            f"  howpublished = {{Python package, version {_version()}}},",
            "}",
        ]
    )


def cite(format: str = "text") -> str:
    """How to cite opsstats and the paper that defines the outperformance score.

    Parameters
    ----------
    format : {"text", "bibtex"}
        Plain text to read, or BibTeX entries to paste into a ``.bib`` file.

    Returns
    -------
    str
        The citation. At the interactive prompt it shows as text; ``print()`` it in a
        script.

    Raises
    ------
    ValueError
        If ``format`` is not one of the two formats.
    TypeError
        If ``format`` is not a string.

    Notes
    -----
    The paper's text gives its title, authors and the journal named in its front
    matter, but no year, volume or DOI, and none is given here. The same facts are in
    ``CITATION.cff``, which GitHub and reference managers read.

    Examples
    --------
    >>> import opsstats
    >>> opsstats.cite()                                  # doctest: +ELLIPSIS
    If you use opsstats, please cite the paper that defines the outperformance score
    (o-value) and the software:
    <BLANKLINE>
      Zhao, N., Bui, T., Yu, J. Y. and Dzieciolowski, K.
      Outperformance Score: A Universal Standardization Method for ...
      Manuscript prepared for Pattern Recognition.
    ...
    >>> print(opsstats.cite("bibtex").splitlines()[0])
    @unpublished{zhao_outperformance_score,
    """
    if not isinstance(format, str):
        raise TypeError(
            f"`format` must be a string, one of {', '.join(map(repr, FORMATS))}; "
            f"got {type(format).__name__}."
        )
    if format not in FORMATS:
        raise ValueError(
            f"`format` must be one of {', '.join(map(repr, FORMATS))}; got {describe(format)}."
        )
    return _Citation(_text() if format == "text" else _bibtex())

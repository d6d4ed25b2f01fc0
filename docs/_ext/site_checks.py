"""Checks of the built site that ``-W`` alone does not make (called by opsstats_docs).

Plain functions of text, without Sphinx, so that ``tests/test_docs_checks.py`` runs them
in the test environment:

- :func:`matplotlib_repr`: a notebook cell whose output is the text repr of a figure
  (``<Figure size 640x290 with 1 Axes>``) shows no picture: the figure was made on a
  backend that does not display (``matplotlib.use("Agg")`` in the notebook), or the
  object was returned instead of drawn. MyST-NB renders such an output as text, and
  Sphinx has no warning for it.
- :func:`external_assets` and :func:`external_css_urls`: a page must render offline,
  so no script, style sheet, font or image it loads may come from another host (the
  formulas once came from a CDN and showed as raw TeX without a network);
  :func:`local_assets`: what it loads from the site itself, to be found there.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

#: The text repr of a matplotlib figure, Axes or artist (or a list of them).
_MATPLOTLIB_REPR = re.compile(
    r"^\[?<(?:Figure size [\d.]+x[\d.]+ with \d+ Axes"
    r"|(?:Axes|Figure|Line2D|Text|Legend|AxesImage)\b[^>]*"
    r"|matplotlib\.[\w.]+(?: object)? at 0x[0-9a-fA-F]+)>"
)

#: A URL that leaves the site: with a scheme other than file, or protocol-relative.
_EXTERNAL = re.compile(r"^\s*(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")
_LOCAL_SCHEMES = ("data:", "file:", "blob:", "about:")

#: Attributes that load what a page needs to render, by tag (``<a href>`` only links).
_LOADING = {
    "script": ("src",),
    "img": ("src", "srcset"),
    "iframe": ("src",),
    "source": ("src", "srcset"),
    "video": ("src", "poster"),
    "audio": ("src",),
    "embed": ("src",),
    "object": ("data",),
}
#: ``<link rel=...>`` values whose ``href`` is loaded to render the page.
_LOADED_LINKS = {"stylesheet", "preload", "modulepreload", "icon", "prefetch", "manifest"}


def matplotlib_repr(text: str) -> str | None:
    """The first line of a cell's text output that is the repr of a matplotlib object,
    or None.

    Examples
    --------
    >>> matplotlib_repr("<Figure size 640x290 with 1 Axes>")
    '<Figure size 640x290 with 1 Axes>'
    >>> matplotlib_repr("n = 5\\n<Axes: xlabel='recall'>")
    "<Axes: xlabel='recall'>"
    >>> matplotlib_repr("<matplotlib.lines.Line2D at 0x7f3a2c1d5e10>")
    '<matplotlib.lines.Line2D at 0x7f3a2c1d5e10>'
    >>> matplotlib_repr("AUC = 0.75 (95% CI 0.70-0.80)") is None
    True
    """
    for line in text.splitlines():
        if _MATPLOTLIB_REPR.match(line.strip()):
            return line.strip()
    return None


def _is_external(url: str) -> bool:
    url = url.strip()
    return bool(_EXTERNAL.match(url)) and not url.lower().startswith(_LOCAL_SCHEMES)


class _Assets(HTMLParser):
    """The URLs a page loads: ``found`` (what, url) for external ones, ``local`` for
    the others."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.local: list[str] = []
        self._in_style = False
        self._style: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        names = _LOADING.get(tag, ())
        if tag == "link" and _LOADED_LINKS & set(values.get("rel", "").lower().split()):
            names = ("href",)
        for name in names:
            value = values.get(name, "")
            for url in _srcset_urls(value) if name == "srcset" else [value.strip()]:
                if url and _is_external(url):
                    self.found.append(f"<{tag} {name}={url!r}>")
                elif url and not url.lower().startswith(_LOCAL_SCHEMES):
                    self.local.append(re.split(r"[?#]", url, maxsplit=1)[0])
        if "style" in values:
            self.found += [f"<{tag} style: url({u!r})>" for u in external_css_urls(values["style"])]
        self._in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self.found += [f"<style>: {u!r}" for u in external_css_urls("".join(self._style))]
            self._style = []
            self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self._style.append(data)


def _srcset_urls(value: str) -> list[str]:
    """The URLs of a ``srcset`` attribute ("a.png 1x, b.png 2x")."""
    return [part.split()[0] for part in value.split(",") if part.split()]


def external_assets(html: str) -> list[str]:
    """What a page loads from another host to render: scripts, style sheets, fonts and
    icons (``<link rel=...>``), images, frames and media, and ``url(...)`` or
    ``@import`` in its inline styles. Links (``<a href>``) are not loaded, and are not
    listed.

    Examples
    --------
    >>> page = '''<link rel="stylesheet" href="_static/furo.css">
    ... <script defer src="https://cdn.jsdelivr.net/npm/mathjax@4/tex-mml-chtml.js"></script>
    ... <script src="_static/mathjax/tex-chtml.js"></script>
    ... <a href="https://doi.org/10.1000/1">a paper</a>'''
    >>> external_assets(page)
    ["<script src='https://cdn.jsdelivr.net/npm/mathjax@4/tex-mml-chtml.js'>"]
    """
    parser = _Assets()
    parser.feed(html)
    parser.close()
    return parser.found


def local_assets(html: str) -> list[str]:
    """The URLs of this site's own files that a page loads (as :func:`external_assets`
    finds them), without query or fragment, relative to the page's folder.

    Examples
    --------
    >>> local_assets('<script src="_static/mathjax/tex-chtml.js?v=3"></script>'
    ...              '<img src="data:image/png;base64,AAAA">')
    ['_static/mathjax/tex-chtml.js']
    """
    parser = _Assets()
    parser.feed(html)
    parser.close()
    return parser.local


#: ``url(...)`` and ``@import "..."`` in CSS.
_CSS_URL = re.compile(
    r"""url\(\s*(['"]?)(?P<url>[^'")]+)\1\s*\)|@import\s+(['"])(?P<imp>[^'"]+)\3"""
)


def external_css_urls(css: str) -> list[str]:
    """The URLs of other hosts that a style sheet loads (``url(...)``, ``@import``).

    Examples
    --------
    >>> external_css_urls('@font-face{src:url("fonts/a.woff2")} '
    ...                   '@import "https://fonts.example.org/css?family=X";')
    ['https://fonts.example.org/css?family=X']
    """
    urls = [m.group("url") or m.group("imp") for m in _CSS_URL.finditer(css)]
    return [u.strip() for u in urls if _is_external(u)]

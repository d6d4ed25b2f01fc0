"""The checks the documentation build makes of what a reader sees (docs/_ext/site_checks.py),
on the pages they are meant to catch, and the sources they guard.

The build (``sphinx-build -W``) runs them on every page; here they run without Sphinx,
which the test environment does not have: a figure shown as text (the bug of vignette
08's forest plot, ``<Figure size 640x290 with 1 Axes>``), a script or style sheet from
another host (MathJax from a CDN, which left the formulas as raw TeX offline).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from site_checks import (  # noqa: E402
    external_assets,
    external_css_urls,
    local_assets,
    matplotlib_repr,
)

#: A cell output as MyST-NB wrote it on the site before the fix (vignette 08, section 3).
FIGURE_AS_TEXT = """<div class="cell_output docutils container">
<div class="output text_plain highlight-myst-ansi notranslate"><div class="highlight">
<pre><span></span>&lt;Figure size 640x290 with 1 Axes&gt;
</pre></div></div></div>"""


@pytest.mark.parametrize(
    "text",
    [
        "<Figure size 640x290 with 1 Axes>",
        "<Figure size 1600x560 with 3 Axes>",
        "<Axes: title={'center': 'OPS'}, xlabel='OPS (o-value)'>",
        "<matplotlib.legend.Legend at 0x7f0e2d1c3a90>",
        "[<matplotlib.lines.Line2D at 0x7f0e2d1c3a90>]",
        "n = 400\n<Figure size 640x480 with 1 Axes>",
    ],
)
def test_matplotlib_reprs_are_caught(text):
    assert matplotlib_repr(text) == text.splitlines()[-1]


@pytest.mark.parametrize(
    "text",
    [
        "OPS(F1 score = 0.6366 at prevalence 0.4521) = 0.7489, 95% CI 0.6938-0.7948",
        "{'best C by OPS(F1)': 0.1, 'mean OPS(F1)': [0.993, 0.998]}",
        "Figure size matters <not a repr>",
        "<opsstats.results.OPSResult object at 0x7f0e2d1c3a90>",
    ],
)
def test_other_outputs_pass(text):
    assert matplotlib_repr(text) is None


def test_the_figure_shown_as_text_on_the_old_site_is_caught():
    from html import unescape

    text = unescape(re.sub(r"<[^>]+>", "", FIGURE_AS_TEXT))
    assert matplotlib_repr(text) == "<Figure size 640x290 with 1 Axes>"


def test_external_assets_of_a_page():
    page = """<html><head>
    <link rel="stylesheet" type="text/css" href="_static/styles/furo.css?v=1" />
    <link rel="stylesheet" href="https://cdn.example.org/katex.min.css" />
    <link rel="preload" as="font" href="//fonts.example.org/a.woff2" />
    <link rel="canonical" href="https://opsstats.example.org/method.html" />
    <script src="_static/documentation_options.js?v=1"></script>
    <script defer="defer" src="https://cdn.jsdelivr.net/npm/mathjax@4/tex-mml-chtml.js"></script>
    <style>@import url("https://fonts.example.org/css2?family=Inter");</style>
    </head><body>
    <img src="_images/forest.png" srcset="_images/forest.png 1x, https://x.example.org/f.png 2x">
    <img src="data:image/png;base64,iVBORw0KGgo=">
    <div style="background: url('https://x.example.org/bg.png')"></div>
    <a href="https://doi.org/10.48550/arXiv.2301.00001">the paper</a>
    </body></html>"""
    assert external_assets(page) == [
        "<link href='https://cdn.example.org/katex.min.css'>",
        "<link href='//fonts.example.org/a.woff2'>",
        "<script src='https://cdn.jsdelivr.net/npm/mathjax@4/tex-mml-chtml.js'>",
        "<style>: 'https://fonts.example.org/css2?family=Inter'",
        "<img srcset='https://x.example.org/f.png'>",
        "<div style: url('https://x.example.org/bg.png')>",
    ]
    assert local_assets(page) == [
        "_static/styles/furo.css",
        "_static/documentation_options.js",
        "_images/forest.png",
        "_images/forest.png",
    ]


def test_external_urls_of_a_style_sheet():
    css = """@font-face { font-family: MJX; src: url("../fonts/woff-v2/MathJax_Zero.woff") }
    @import 'https://fonts.example.org/css?family=X';
    .a { background: url(https://x.example.org/a.png) } .b { background: url(data:,x) }"""
    assert external_css_urls(css) == [
        "https://fonts.example.org/css?family=X",
        "https://x.example.org/a.png",
    ]


# ------------------------------------------------------- the sources the checks guard
NOTEBOOKS = sorted((ROOT / "vignettes").glob("*.md")) + sorted((ROOT / "docs").glob("*.md"))


def _code(path: Path) -> str:
    """The code cells of a MyST notebook page."""
    text = path.read_text(encoding="utf-8")
    return "\n".join(re.findall(r"```\{code-cell\}[^\n]*\n(.*?)```", text, flags=re.S))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_notebook_page_leaves_the_inline_backend(path):
    """The site shows a figure through the notebook's inline backend; a page that
    switches to Agg shows ``<Figure size ...>`` instead (vignette 08's forest plot was
    missing so). The test suite runs the vignettes on Agg by itself."""
    assert not re.search(r"matplotlib\.use\(|plt\.switch_backend\(", _code(path)), path.name


def test_the_display_is_shown_where_the_readme_says():
    """The README sends users to vignette 10 for ``OPSCurveDisplay``: it is drawn there."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "`OPSCurveDisplay` (vignette 10)" in " ".join(readme.split())
    code = _code(ROOT / "vignettes" / "10-model-selection-with-cv.md")
    assert "OPSCurveDisplay.from_estimator(" in code
    assert "standardized=True" in code


def test_the_docs_build_uses_its_checks_and_local_mathjax():
    conf = (ROOT / "docs" / "conf.py").read_text(encoding="utf-8")
    assert '"sphinx-mathjax-offline"' in conf and '"opsstats_docs"' in conf
    assert "mathjax_path" not in conf  # set by sphinx-mathjax-offline to its local copy
    ext = (ROOT / "docs" / "_ext" / "opsstats_docs.py").read_text(encoding="utf-8")
    assert 'app.connect("doctree-resolved", check_cell_outputs)' in ext
    assert 'app.connect("build-finished", check_built_pages' in ext

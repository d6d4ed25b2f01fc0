"""Screenshots of the built documentation, taken offline with headless Chromium.

Usage::

    python scripts/screenshot_docs.py [--html docs/_build/html]
        [--out docs/_static/screenshots] [--chromium /usr/bin/chromium]

Build the site first (``sphinx-build -W --keep-going -b html docs docs/_build/html``).
Each page of ``PAGES`` is opened from the disk (``file://``) in a fresh Chromium profile
that cannot reach any host (every host name resolves to nothing), so a page that needed
a script, a style sheet or a font from the network would show it; JavaScript runs for
up to ``--wait`` seconds of virtual time first, long enough for MathJax to typeset. For
each page the script also reads the whole page's DOM after the scripts ran and counts
the formulas MathJax rendered (``mjx-container`` elements) and those left as raw TeX (a
``math`` element still holding ``\\(`` or ``\\[``), and fails if any is left raw or, on a
page with formulas, none was rendered. The PNGs are reduced to 256 colours (Pillow,
which matplotlib brings) to stay small.

Headless Chromium's screenshot of a page scrolled to a fragment (``page.html#section``)
comes out blank, so a screenshot that starts at a section is taken of a temporary copy
of the page, beside it, whose script removes the content before that section when the
page loads (the sidebar and everything from the section on are the page's own).

Chromium runs with ``--no-sandbox``, which it needs when run as root (as on the project's
machines); the pages opened are the project's own.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: (file name of the screenshot, page of the site, fragment to scroll to, window height)
PAGES = [
    ("index.png", "index.html", "", 1400),
    ("getting-started.png", "getting-started.html", "from-the-command-line", 1700),
    ("method.png", "method.html", "parametrization", 1500),
    (
        "vignette-08-forest-plot.png",
        "vignettes/08-comparing-models.html",
        "many-models-every-pair-adjusted-p-values-a-forest-plot",
        1500,
    ),
    (
        "displays.png",
        "vignettes/10-model-selection-with-cv.html",
        "displays-a-model-s-curve-over-the-reference-band",
        2700,
    ),
]

#: Flags for a headless run that reaches no network and keeps nothing between runs.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--host-resolver-rules=MAP * ~NOTFOUND",
]


def chromium(binary: str, page: str, extra: list[str], wait: float) -> str:
    """Run Chromium on ``page`` with ``extra`` flags in a fresh profile; its stdout."""
    with tempfile.TemporaryDirectory(prefix="opsstats-chromium-") as profile:
        cmd = [
            binary,
            *FLAGS,
            f"--user-data-dir={profile}",
            f"--virtual-time-budget={int(1000 * wait)}",
            *extra,
            page,
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise SystemExit(f"chromium failed on {page}: {proc.stderr.strip()[-500:]}")
    return proc.stdout


#: Run when the page is parsed: remove what comes before the element ``id`` inside the
#: article (its earlier siblings, and theirs of every ancestor up to the article).
_START_AT = """<script>
document.addEventListener("DOMContentLoaded", function () {
  var node = document.getElementById(%s);
  if (!node) { throw new Error("no element with this id"); }
  for (; node && node.tagName !== "ARTICLE"; node = node.parentElement) {
    while (node.previousElementSibling) { node.previousElementSibling.remove(); }
  }
});
</script>"""


def starting_at(page: Path, fragment: str) -> Path:
    """A temporary copy of ``page``, in its folder, that shows it from ``fragment`` on."""
    html = page.read_text(encoding="utf-8")
    if f'id="{fragment}"' not in html:
        raise SystemExit(f"{page} has no element with id {fragment!r}")
    script = _START_AT % json.dumps(fragment)
    copy = page.with_name(f".screenshot-{page.name}")
    copy.write_text(html.replace("</body>", script + "</body>", 1), encoding="utf-8")
    return copy


def formulas(dom: str) -> tuple[int, int, int]:
    """(formulas in the page's math elements, rendered by MathJax, left as raw TeX)."""
    math = re.findall(r'<(?:span|div) class="math[^"]*"[^>]*>(.*?)</(?:span|div)>', dom, re.S)
    rendered = dom.count("<mjx-container")
    raw = sum(1 for m in math if "<mjx-container" not in m and re.search(r"\\[(\[]", m))
    return len(math), rendered, raw


def shrink(path: Path) -> None:
    """The PNG reduced to a 256-colour palette (a screenshot has few colours)."""
    from PIL import Image

    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=256, dither=Image.Dither.NONE)
    small.save(path, optimize=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=Path, default=ROOT / "docs" / "_build" / "html")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "_static" / "screenshots")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--width", type=int, default=1200)
    parser.add_argument("--wait", type=float, default=15.0, help="virtual seconds of JavaScript")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    failed = False
    for name, page, fragment, height in PAGES:
        path = args.html / page
        if not path.is_file():
            raise SystemExit(f"{path} does not exist: build the site first")
        start = time.perf_counter()
        dom = chromium(args.chromium, path.resolve().as_uri(), ["--dump-dom"], args.wait)
        total, rendered, raw = formulas(dom)
        target = args.out / name
        shown = starting_at(path, fragment) if fragment else path
        try:
            chromium(
                args.chromium,
                shown.resolve().as_uri(),
                [f"--screenshot={target}", f"--window-size={args.width},{height}"],
                args.wait,
            )
        finally:
            if shown != path:
                shown.unlink()
        shrink(target)
        bad = raw > 0 or (total > 0 and rendered == 0)
        failed |= bad
        print(
            f"{target}  {target.stat().st_size / 1024:.0f} KiB  {page}#{fragment}: "
            f"{total} formulas, {rendered} typeset by MathJax, {raw} left as raw TeX"
            f"{'  <- FAILED' if bad else ''}  ({time.perf_counter() - start:.1f} s)"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Sphinx helpers for the opsstats site: the API pages, the vignettes, re-exported names,
and checks of what the pages show.

Four jobs, each small and each run on every build, so that nothing has to be edited
here when the package or the vignettes grow:

1. **API pages from ``__all__``.** Every public module of the package (no component of
   its dotted name starts with ``_``) gets one page under ``api/``. An object is
   documented in full exactly once, on the page of the *shortest* public module other
   than the top level that exports it (``Uniform``: ``opsstats.reference``, not
   ``opsstats`` nor ``opsstats.reference.uniform``); every other module that exports
   it links there. A public function added to an ``__all__`` therefore appears without
   touching the docs, and no object is described twice (which Sphinx would report).
   ``INTERNAL_MODULES`` adds the private modules whose objects the public docstrings
   name (the ``Summary`` that every ``summary()`` returns; the curve geometry), and the
   private base classes of documented classes are found and added to them, so that a
   refactoring that introduces one does not break the build. A base class whose own
   name starts with ``_`` is a private part of a class split across modules (the
   mixins of ``MultiLabel``): its public members are documented on the class's page as
   the class's own, and it is shown neither as a base nor on the "Internals" page.

2. **Vignettes.** ``vignettes/`` lives at the top of the repository (the test suite runs
   it from there); Sphinx only reads files under ``docs/``. The folder is mirrored to
   ``docs/vignettes/`` (git-ignored) before the build reads anything: new vignettes
   appear through the glob in ``vignettes.md``, deleted ones disappear, unchanged ones
   keep their timestamps so that an incremental build does not execute them again.

3. **Re-exported names.** Docstrings refer to an object by any of its public paths
   (``opsstats.ScoreCurve``, ``opsstats.curves.ScoreCurve``,
   ``opsstats.curves.score_curve.ScoreCurve``). A reference that Sphinx cannot find
   under the written name is imported and sent to the place where that same object is
   documented. References that lead to no documented object still fail the build.

4. **Checks of what a reader sees** (the functions of ``site_checks.py``), as warnings,
   so that ``-W`` fails the build: a notebook cell whose output is a matplotlib figure
   shown as text (``<Figure size 640x290 with 1 Axes>``: no picture) or an Axes' repr
   beside it; and, once the pages are written, any script, style sheet, font or image
   a page would load from another host (the site must render offline) or that is
   missing from the built site.
"""

from __future__ import annotations

import filecmp
import importlib
import inspect
import pkgutil
import re
import shutil
from pathlib import Path
from typing import Any

from docutils import nodes
from myst_nb.core.read import is_myst_markdown_notebook
from site_checks import external_assets, external_css_urls, local_assets, matplotlib_repr
from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

PACKAGE = "opsstats"

#: Page order of the API reference: the package's layout, read as a table of contents.
#: Public modules not listed here follow in alphabetical order.
ORDER = [
    "opsstats",
    "opsstats.confusion",
    "opsstats.metrics",
    "opsstats.curves",
    "opsstats.reference",
    "opsstats.ops",
    "opsstats.uncertainty",
    "opsstats.results",
    "opsstats.grouped",
    "opsstats.multilabel",
    "opsstats.report",
    "opsstats.plotting",
    "opsstats.datasets",
    "opsstats.examples",
    "opsstats.exceptions",
    "opsstats.cli",
]

#: Private modules documented on the "Internals" page because public pages refer to what
#: they hold: ``summary()`` returns a ``Summary``; ``ScoreCurve`` and the curve references
#: share ``opsstats.curves._geometry`` (docs/method.md#auc-rules). Private *base classes* of
#: documented classes (whose inherited methods, such as ``precompute``, users call) are
#: found and added to this page automatically; see :func:`private_bases`.
INTERNAL_MODULES = ["opsstats._summary", "opsstats.curves._geometry"]

#: Names in ``__all__`` that are not API objects to document.
SKIP_NAMES = {"__version__"}


# ----------------------------------------------------------------------- API pages
def public_modules() -> list[str]:
    """Dotted names of the package's public modules, in page order."""
    pkg = importlib.import_module(PACKAGE)
    names = {PACKAGE}
    for info in pkgutil.walk_packages(pkg.__path__, PACKAGE + "."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.add(info.name)
    rank = {m: i for i, m in enumerate(ORDER)}
    return sorted(names, key=lambda m: (rank.get(m, len(ORDER)), m))


def _kind(obj: Any) -> str | None:
    if inspect.ismodule(obj):
        return None
    if inspect.isclass(obj):
        return "exception" if issubclass(obj, BaseException) else "class"
    if callable(obj):
        return "function"
    return "data"


def _is_private(modname: str) -> bool:
    return any(part.startswith("_") for part in modname.split("."))


def _is_part(cls: Any) -> bool:
    """A private part of a class: a class of the package whose own name starts with
    ``_``, used as a base (a mixin) by a class split across modules."""
    mod = getattr(cls, "__module__", None) or ""
    return (
        inspect.isclass(cls)
        and cls.__name__.startswith("_")
        and (mod == PACKAGE or mod.startswith(PACKAGE + "."))
    )


def _exports(module: Any, extra: tuple[str, ...] = ()) -> list[tuple[str, Any, str]]:
    """(name, object, kind) of what ``module`` documents: its ``__all__``, plus ``extra``
    names (private base classes found by :func:`private_bases`)."""
    if not hasattr(module, "__all__") and not _is_private(module.__name__):
        # without __all__ nothing says which names are public; refuse to guess
        logger.warning(
            f"{module.__name__} has no __all__: its public names cannot be "
            "documented; list them in __all__ (or make the module private)"
        )
    out = []
    names = list(getattr(module, "__all__", ()))
    names += [n for n in extra if n not in names]
    for name in names:
        if name in SKIP_NAMES:
            continue
        obj = getattr(module, name)
        kind = _kind(obj)
        if kind is not None:
            out.append((name, obj, kind))
    return out


Homes = dict[tuple[str, int], tuple[str, Any]]


def assign_homes(modules: list[str], extra: dict[str, tuple[str, ...]]) -> Homes:
    """(name, id(object)) -> (the module whose page documents it in full, the object)."""
    exporters: dict[tuple[str, int], list[str]] = {}
    objects = {}
    for modname in modules:
        for name, obj, _ in _exports(importlib.import_module(modname), extra.get(modname, ())):
            exporters.setdefault((name, id(obj)), []).append(modname)
            objects[(name, id(obj))] = obj
    homes = {}
    for key, mods in exporters.items():
        below_top = [m for m in mods if m != PACKAGE] or mods
        homes[key] = (min(below_top, key=lambda m: (m.count("."), m)), objects[key])
    return homes


def private_bases(homes: Homes) -> dict[str, tuple[str, ...]]:
    """Base classes, defined in private modules of the package, of the documented classes
    that are not documented themselves: {module: names}. A documented class shows its
    bases, and the methods it inherits from them are documented only there. The private
    parts of a class (:func:`_is_part`) are documented with it instead."""
    documented = {id(obj) for _, obj in homes.values()}
    found: dict[str, set[str]] = {}
    for _, obj in homes.values():
        if not inspect.isclass(obj):
            continue
        for base in obj.__mro__[1:]:
            mod = base.__module__
            if (
                not _is_part(base)
                and (mod == PACKAGE or mod.startswith(PACKAGE + "."))
                and _is_private(mod)
                and id(base) not in documented
            ):
                found.setdefault(mod, set()).add(base.__name__)
    return {m: tuple(sorted(names)) for m, names in found.items()}


def _relative(name: str, modname: str) -> str:
    return name[len(modname) + 1 :] if name.startswith(modname + ".") else name


def _directive(kind: str) -> str:
    return {
        "class": "autoclass",
        "exception": "autoexception",
        "function": "autofunction",
        "data": "autodata",
    }[kind]


def module_page(
    modname: str,
    homes: Homes,
    *,
    internal: bool,
    extra: tuple[str, ...] = (),
    submodules: list[str] = (),
) -> str:
    """The reStructuredText of one module's page; a package's page lists the pages of
    its ``submodules`` (all public modules are passed; its children are picked)."""
    module = importlib.import_module(modname)
    title = f"``{modname}``"
    lines = [
        ".. This page is generated by docs/_ext/opsstats_docs.py; do not edit.",
        "",
        title,
        "=" * len(title),
        "",
    ]
    if internal:
        lines += [
            ".. note::",
            "   A private module, documented because the public documentation refers to it.",
            "   Its contents may change without notice; import from the public modules.",
            "",
        ]
    lines += [
        f".. automodule:: {modname}",
        "   :no-members:",
        "",
        f".. currentmodule:: {modname}",
        "",
    ]
    own, elsewhere = [], []
    for name, obj, kind in _exports(module, extra):
        home = homes[(name, id(obj))][0]
        (own if home == modname else elsewhere).append((name, obj, kind, home))
    if own:
        lines += [".. autosummary::", "   :nosignatures:", ""]
        lines += [f"   {name}" for name, *_ in own] + [""]
    if elsewhere:
        lines += [
            ".. rubric:: Also available here, documented with its module",
            "",
            ".. autosummary::",
            "   :nosignatures:",
            "",
        ]
        # autosummary refuses names that repeat the current module: write them relative
        lines += [
            f"   ~{_relative(f'{home}.{name}', modname)}" for name, _, _, home in elsewhere
        ] + [""]
    children = [m for m in submodules if m.rpartition(".")[0] == modname]
    if children:
        lines += [".. rubric:: Submodules", "", ".. toctree::", "   :maxdepth: 1", ""]
        lines += [f"   {m}" for m in children] + [""]
    for name, obj, kind, _ in own:
        lines.append(f".. {_directive(kind)}:: {name}")
        if kind in ("class", "exception"):
            lines += ["   :members:", "   :show-inheritance:"]
            if any(_is_part(base) for base in obj.__mro__[1:]):
                # the members of its private parts (listed after its own), not those of
                # its other bases
                others = sorted({base.__name__ for base in obj.__mro__[1:] if not _is_part(base)})
                lines.append(f"   :inherited-members: {', '.join(others)}")
        lines.append("")
    return "\n".join(lines)


def shown_bases(app: Sphinx, name: str, obj: Any, options: Any, bases: list[Any]) -> None:
    """The bases shown for a class (``autodoc-process-bases``): each private part
    (:func:`_is_part`) replaced by its own bases, so that a class split into mixins
    shows the bases it had before (``MultiLabel``: ``object``)."""
    i = 0
    while i < len(bases):
        if _is_part(bases[i]):
            bases[i : i + 1] = [b for b in bases[i].__bases__ if b not in bases]
        else:
            i += 1


def _write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def generate_api(app: Sphinx) -> None:
    out = Path(app.srcdir) / "api"
    out.mkdir(exist_ok=True)
    modules = public_modules()
    internal, extra = list(INTERNAL_MODULES), {}
    while True:  # a private base may itself have a private base
        homes = assign_homes(modules + internal, extra)
        more = private_bases(homes)
        if not more:
            break
        for mod, names in more.items():
            extra[mod] = tuple(sorted(set(extra.get(mod, ())) | set(names)))
            if mod not in internal:
                internal.append(mod)
    pages = {
        m: module_page(m, homes, internal=False, submodules=modules if m != PACKAGE else ())
        for m in modules
    }
    pages.update(
        {m: module_page(m, homes, internal=True, extra=extra.get(m, ())) for m in internal}
    )
    for modname, text in pages.items():
        _write_if_changed(out / f"{modname}.rst", text)
    for stale in out.glob("*.rst"):
        if stale.stem not in pages:
            stale.unlink()
    index = [
        ".. This page is generated by docs/_ext/opsstats_docs.py; do not edit.",
        "",
        ".. toctree::",
        "   :maxdepth: 1",
        "",
    ]
    # the top level and its direct children; deeper modules are listed by their package
    index += [f"   api/{m}" for m in modules if m.count(".") <= 1] + [""]
    index += [
        "Internals",
        "---------",
        "",
        "Private modules that the pages above refer to. Not a stable interface.",
        "",
        ".. toctree::",
        "   :maxdepth: 1",
        "",
    ]
    index += [f"   api/{m}" for m in internal] + [""]
    _write_if_changed(Path(app.srcdir) / "api" / "_modules.rst.inc", "\n".join(index))


# ------------------------------------------------------------------------ vignettes
def _wanted(path: Path) -> bool:
    return not any(part.startswith((".", "_")) or part == "__pycache__" for part in path.parts)


def sync_vignettes(app: Sphinx) -> None:
    """Mirror ``../vignettes`` into ``docs/vignettes`` (see the module docstring)."""
    src = Path(app.srcdir).parent / "vignettes"
    dst = Path(app.srcdir) / "vignettes"
    files = (
        sorted(
            p.relative_to(src)
            for p in src.rglob("*")
            if p.is_file() and _wanted(p.relative_to(src))
        )
        if src.is_dir()
        else []
    )
    if not any(f.suffix == ".md" for f in files):
        logger.warning(f"no vignettes found in {src}: the Vignettes page will be empty")
    dst.mkdir(exist_ok=True)
    for rel in files:
        target = dst / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() or not filecmp.cmp(src / rel, target, shallow=False):
            shutil.copy2(src / rel, target)
        if (
            rel.suffix == ".md"
            and rel.parent == Path(".")
            and not is_myst_markdown_notebook((src / rel).read_text(encoding="utf-8"))
        ):
            logger.warning(
                f"vignettes/{rel} has no MyST notebook front matter, so MyST-NB "
                "would show it without running it; start it with the front "
                "matter of vignettes/00-quickstart.md"
            )
    keep = {dst / rel for rel in files}
    for p in sorted(dst.rglob("*"), reverse=True):
        if p.is_file() and p not in keep:
            p.unlink()
        elif p.is_dir() and not any(p.iterdir()):
            p.rmdir()


# ----------------------------------------------------------------- re-exported names
def _import_path(path: str) -> Any:
    """The object at a dotted path, or None. Class attributes are looked up statically
    so that a method or property is the same object whichever class path reaches it."""
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        try:
            for attr in parts[i:]:
                obj = (
                    inspect.getattr_static(obj, attr)
                    if inspect.isclass(obj)
                    else getattr(obj, attr)
                )
        except AttributeError:
            return None
        return obj
    return None


def _identity(obj: Any) -> int | None:
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if (
        inspect.ismodule(obj)
        or inspect.isclass(obj)
        or inspect.isroutine(obj)
        or isinstance(obj, property)
    ):
        return id(obj)
    return None  # data: a small int or str may be shared by unrelated names


def _documented(env: Any) -> dict[int, tuple[str, str]]:
    """id(object) -> (documented name, object type), built once per build."""
    cache = getattr(env, "_opsstats_documented", None)
    if cache is None:
        cache = {}
        for name, entry in env.get_domain("py").objects.items():
            if getattr(entry, "aliased", False):
                continue
            ident = _identity(_import_path(name))
            if ident is not None:
                cache.setdefault(ident, (name, entry.objtype))
        env._opsstats_documented = cache
    return cache


def resolve_reexport(app: Sphinx, env: Any, node: Any, contnode: Any) -> Any:
    if node.get("refdomain") != "py":
        return None
    # a dotted name has no spaces: a target wrapped across docstring lines is rejoined
    target = "".join(node["reftarget"].split()).lstrip("~.")
    candidates = [target]
    # a relative name is looked up where it was written: the page's module and class,
    # then the namespaces around the object whose docstring holds the reference (where
    # its module imported the name), then the top-level package
    module, cls = node.get("py:module"), node.get("py:class")
    if module:
        if cls:
            candidates.append(f"{module}.{cls}.{target}")
        candidates.append(f"{module}.{target}")
    owner = re.search(r"docstring of (\S+)", str(node.source or ""))
    if owner:
        parts = owner.group(1).split(".")
        candidates += [".".join([*parts[:i], target]) for i in range(len(parts), 0, -1)]
    candidates.append(f"{PACKAGE}.{target}")
    table = _documented(env)
    for candidate in candidates:
        if not candidate.startswith(PACKAGE + ".") and candidate != PACKAGE:
            continue
        ident = _identity(_import_path(candidate))
        if ident in table:
            name, _ = table[ident]
            return env.get_domain("py").resolve_xref(
                env, node["refdoc"], app.builder, node["reftype"], name, node, contnode
            )
    return None


def _reset(app: Sphinx, env: Any, *args: Any) -> None:
    env._opsstats_documented = None


# ---------------------------------------------------------------- what a reader sees
def check_cell_outputs(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Warn about every notebook cell output shown as the text repr of a matplotlib
    object (MyST-NB renders a text/plain output as a literal block classed
    ``text_plain``). Run on the resolved doctree: until MyST-NB's post-transform has
    chosen one representation of each output for the builder, a figure's text/plain
    stands beside its image/png."""
    for block in doctree.findall(nodes.literal_block):
        if "text_plain" not in block.get("classes", ()):
            continue
        shown = matplotlib_repr(block.astext())
        if shown:
            logger.warning(
                f"a cell shows the text {shown!r} where a figure belongs: display the "
                "figure with the notebook's own (inline) backend, not after "
                "matplotlib.use('Agg'), and end a cell that returns an Axes with ';'",
                location=block,
            )


def check_built_pages(app: Sphinx, exc: Exception | None) -> None:
    """Warn about every asset a built page loads from another host, or that is
    missing from the site (runs after the other build-finished handlers, which copy
    assets such as MathJax)."""
    if exc is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    for page in sorted(out.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        name = page.relative_to(out)
        for asset in external_assets(html):
            logger.warning(f"{name} loads {asset} from another host: it must render offline")
        for url in local_assets(html):
            if not (page.parent / url).resolve().is_file():
                logger.warning(f"{name} loads {url!r}, which is not in the built site")
    for sheet in sorted(out.rglob("*.css")):
        for url in external_css_urls(sheet.read_text(encoding="utf-8", errors="replace")):
            logger.warning(
                f"{sheet.relative_to(out)} loads {url!r} from another host: "
                "the site must render offline"
            )


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", generate_api)
    app.connect("builder-inited", sync_vignettes)
    app.connect("env-updated", _reset)
    app.connect("missing-reference", resolve_reexport)
    app.connect("autodoc-process-bases", shown_bases)
    app.connect("doctree-resolved", check_cell_outputs)
    app.connect("build-finished", check_built_pages, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

"""Sphinx configuration of the opsstats documentation.

Build from the top of a checkout, in an environment with ``pip install -e ".[docs]"``:

    sphinx-build -W --keep-going -b html docs docs/_build/html

Warnings are errors. The vignettes and the getting-started page are executed on every
build (MyST-NB); a cell that raises fails the build unless it is tagged
``raises-exception``, and a figure shown as text or a page that loads anything from
another host (MathJax included: it is served from the site) fails it too.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

# The notebooks run in a Jupyter kernel started as "python -m ipykernel_launcher"; put
# this interpreter first on PATH so that the kernel is the environment that runs Sphinx
# (and has opsstats), also when sphinx-build is called without activating it.
os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])

import opsstats  # noqa: E402

# -- Project ------------------------------------------------------------------------
project = "opsstats"
author = "opsstats developers"
copyright = "opsstats developers"
release = opsstats.__version__
version = ".".join(release.split(".")[:2])

# -- Extensions ---------------------------------------------------------------------
extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    # MathJax 3 from the PyPI package (docs extra), copied into the site's _static: the
    # formulas render without a network (opsstats_docs fails the build on any script
    # or style a page would load from another host)
    "sphinx-mathjax-offline",
    "numpydoc",
    "myst_nb",
    "sphinx_copybutton",
    "opsstats_docs",  # docs/_ext: API pages from __all__, vignettes, re-exported names
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "**.ipynb_checkpoints", "api/*.inc", "jupyter_execute"]
templates_path = []

# Every reference must lead somewhere (nitpicky). The exceptions are deliberate and
# limited to names *outside* opsstats: Sphinx can only link them through intersphinx
# inventories fetched from the projects' web sites, which the build must not depend on
# (CI reaches package registries only). They are shown as code, without a link.
# Anything under ``opsstats`` that does not resolve still fails the build.
nitpicky = True
nitpick_ignore = [
    ("py:class", name)
    for name in (
        "object",
        "tuple",
        "dict",
        "list",
        "str",
        "int",
        "float",
        "bool",
        "Exception",
        "UserWarning",
        "Warning",
        "ABC",
        "NamedTuple",
        "Enum",
    )
]
nitpick_ignore_regex = [
    (
        r"py:.*",
        r"(numpy|np|pandas|pd|matplotlib|scipy|statsmodels|abc|typing|"
        r"collections|enum|dataclasses|builtins)(\..+)?",
    ),
    # Private helpers (the last component starts with "_") are not documented; a
    # docstring may still name one for maintainers, and it is shown as code.
    (r"py:.*", r"(.+\.)?_[A-Za-z]\w*"),
]
# numpydoc numbers a References list as citations; a docstring that lists its sources
# without citing each one in the text (as numpydoc's own guide allows) is not an error.
suppress_warnings = ["ref.citation"]

# -- autodoc / autosummary / numpydoc -----------------------------------------------
autodoc_typehints = "none"  # types are in the numpydoc Parameters sections
autodoc_member_order = "bysource"
autodoc_default_options = {"exclude-members": "__init__, __new__"}
autosummary_generate = False  # the API pages are written by opsstats_docs
numpydoc_show_class_members = False  # autodoc :members: lists them, once
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# -- MyST and MyST-NB ---------------------------------------------------------------
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "force"  # run every notebook that is (re)read
nb_execution_raise_on_error = True  # a failing cell fails the build ...
nb_execution_allow_errors = False  # ... unless tagged raises-exception
nb_execution_timeout = 600  # seconds per cell
nb_execution_in_temp = True  # files a notebook writes go to a temporary folder
nb_execution_show_tb = True  # print the traceback of a failure in the log
nb_merge_streams = True
nb_kernel_rgx_aliases = {"python.*": "python3"}

# -- HTML ---------------------------------------------------------------------------
html_theme = "furo"
html_title = f"opsstats {release}"
html_static_path = []
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True

"""pytest configuration of the whole checkout: the tests and the doctests of the package.

Every test and doctest prints at 80 columns (``COLUMNS=80``), so that a printed table is
the same whatever the terminal that runs them.

The methods of :class:`opsstats.curves.ScoreCurve` are written in mixin classes, one
module per group (``opsstats/curves/_curve_*.py``), which the class's module imports and
which therefore cannot import the class. Their examples call ``ScoreCurve`` as they did
when the methods were written in the class's own module, and as a reader of
``help(ScoreCurve)`` does: the doctests of those modules, and only those, find the name in
their namespace.
"""

from __future__ import annotations

import pytest

from opsstats.curves import ScoreCurve

#: The modules of the mixins ScoreCurve inherits (its MRO without itself and ``object``).
_MIXIN_MODULES = {cls.__module__ for cls in ScoreCurve.__mro__[1:-1]}


def pytest_collection_modifyitems(items):
    for item in items:
        dtest = getattr(item, "dtest", None)  # the doctest of a doctest item
        if dtest is not None and dtest.globs.get("__name__") in _MIXIN_MODULES:
            dtest.globs["ScoreCurve"] = ScoreCurve


@pytest.fixture(autouse=True)
def _eighty_columns(monkeypatch):
    """Printed tables follow the terminal's width (``COLUMNS`` first): every test and
    doctest prints at 80 columns, the width without a terminal, whatever the terminal
    that runs them."""
    monkeypatch.setenv("COLUMNS", "80")

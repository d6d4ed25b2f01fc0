"""The package's version: one place, read by ``opsstats.__version__``, the citation and
the build (``pyproject.toml`` takes it from here)."""

__version__ = "0.1.0"

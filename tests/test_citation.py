"""opsstats.cite() and CITATION.cff state the same facts, and cite() checks its input."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import opsstats
from opsstats._citation import PAPER, SOFTWARE

CFF = Path(__file__).resolve().parent.parent / "CITATION.cff"


@pytest.fixture(scope="module")
def cff() -> dict:
    return yaml.safe_load(CFF.read_text(encoding="utf-8"))


def _paper_entry(cff: dict) -> dict:
    (entry,) = [r for r in cff["references"] if r["title"].strip() == PAPER["title"]]
    return entry


def test_cff_is_version_1_2_0_software_with_its_required_keys(cff):
    assert cff["cff-version"] == "1.2.0"
    assert cff["type"] == "software"
    for key in ("message", "title", "authors"):
        assert cff[key]


def test_software_facts_agree(cff):
    assert cff["title"] == SOFTWARE["title"]
    assert cff["authors"] == [{"name": SOFTWARE["authors"]}]
    assert cff["license"] == SOFTWARE["license"]
    assert str(cff["version"]) == opsstats.__version__


def test_paper_facts_agree(cff):
    entry = _paper_entry(cff)
    assert [(a["given-names"], a["family-names"]) for a in entry["authors"]] == list(
        PAPER["authors"]
    )
    assert entry["title"] == PAPER["title"]
    assert entry["journal"] == PAPER["journal"]
    assert entry["status"] == PAPER["status"]
    # the paper's text gives none of these: nothing may be invented
    for key in ("doi", "year", "volume", "issue", "start", "end", "date-published"):
        assert key not in entry


def test_text_citation_names_both_works():
    text = opsstats.cite()
    assert isinstance(text, str)
    assert repr(text) == str(text)  # shows as text at the prompt
    assert PAPER["title"] in text
    assert "Zhao, N., Bui, T., Yu, J. Y. and Dzieciolowski, K." in text
    assert f"version {opsstats.__version__}" in text
    assert "o-value" in text


def test_bibtex_has_one_entry_per_work_with_balanced_braces():
    bib = opsstats.cite("bibtex")
    assert bib.count("@unpublished{") == 1 and bib.count("@misc{") == 1
    assert bib.count("{") == bib.count("}")
    assert "Zhao, Ningsheng and Bui, Trang and Yu, Jia Yuan and Dzieciolowski, Krzysztof" in bib
    assert "doi" not in bib.lower() and "year" not in bib.lower()


@pytest.mark.parametrize("bad", ["BibTeX", "apa", ""])
def test_unknown_format_is_refused(bad):
    with pytest.raises(ValueError, match=r"`format` must be one of 'text', 'bibtex'; got"):
        opsstats.cite(bad)


def test_format_must_be_a_string():
    with pytest.raises(TypeError, match=r"`format` must be a string.*got int"):
        opsstats.cite(1)

"""docs/maquis.md is generated from the package (`python -m maquis docs`) and must not drift."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

import maquis
from maquis import docs

PAGE = Path(__file__).parents[1] / "docs" / "maquis.md"


def test_reference_page_is_up_to_date():
    text = docs.render()
    old = PAGE.read_text()
    if old != text:
        diff = "".join(difflib.unified_diff(old.splitlines(True), text.splitlines(True), str(PAGE), "generated now"))
        pytest.fail(f"docs/maquis.md is out of date: python -m maquis docs --output docs/maquis.md\n{diff}", pytrace=False)


def test_reference_page_names_every_action_and_slice():
    text = PAGE.read_text()
    for i, name in enumerate(maquis.ACTION_NAMES):
        assert f"| {i} | `{name}` |" in text
    for name, off, length in maquis.OBSERVATION_LAYOUT:
        assert f"| `{name}` | `[{off}:{off + length}]` | {length} |" in text


def test_a_slice_without_description_is_refused(monkeypatch):
    monkeypatch.delitem(docs.SLICES, "peek")
    with pytest.raises(ValueError, match="peek"):
        docs.render()

"""What docs/dday.md says beyond the pages of every game (tests/test_docs.py): the block patterns."""

from __future__ import annotations

from pathlib import Path

import pytest

from maquis import dday
from maquis.dday import docs

PAGE = Path(__file__).parents[1] / "docs" / "dday.md"


def test_reference_page_shows_the_block_patterns():
    text = PAGE.read_text()
    assert len(dday.ACTION_NAMES) == 191
    for row in ("| `allocate:<item>:<zone>` | 0-24 | 25 |", "| `guess:<zone>:<value>` | 25-74 | 50 |",
                "| `stop_interrogation` | 75 | 1 |", "| `flee:<unit>:<state>` | 181-190 | 10 |"):
        assert row in text


def test_a_block_without_description_is_refused(monkeypatch):
    monkeypatch.delitem(docs.BLOCKS, "rescue")
    with pytest.raises(ValueError, match="rescue"):
        docs.render()

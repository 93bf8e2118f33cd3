"""docs/dday.md is generated from the package (`python -m maquis dday docs`) and must not drift."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

dday = pytest.importorskip("maquis.dday")
if not hasattr(dday, "ACTION_NAMES"):
    pytest.skip("maquis.dday has no action table in this build", allow_module_level=True)

from maquis.cli import main  # noqa: E402
from maquis.dday import docs  # noqa: E402

PAGE = Path(__file__).parents[1] / "docs" / "dday.md"


def test_reference_page_is_up_to_date():
    text = docs.render()
    old = PAGE.read_text()
    if old != text:
        diff = "".join(difflib.unified_diff(old.splitlines(True), text.splitlines(True), str(PAGE), "generated now"))
        pytest.fail(f"docs/dday.md is out of date: python -m maquis dday docs --output docs/dday.md\n{diff}", pytrace=False)


def test_reference_page_names_every_action_and_slice():
    text = PAGE.read_text()
    assert len(dday.ACTION_NAMES) == 191
    for i, name in enumerate(dday.ACTION_NAMES):
        assert f"| {i} | `{name}` |" in text
    for name, off, length in dday.OBSERVATION_LAYOUT:
        assert f"| `{name}` | `[{off}:{off + length}]` | {length} |" in text
    for row in ("| `allocate:<item>:<zone>` | 0-24 | 25 |", "| `guess:<zone>:<value>` | 25-74 | 50 |",
                "| `stop_interrogation` | 75 | 1 |", "| `flee:<unit>:<state>` | 181-190 | 10 |"):
        assert row in text


def test_a_slice_or_block_without_description_is_refused(monkeypatch):
    monkeypatch.delitem(docs.SLICES, "pending")
    with pytest.raises(ValueError, match="pending"):
        docs.render()
    monkeypatch.undo()
    monkeypatch.delitem(docs.BLOCKS, "rescue")
    with pytest.raises(ValueError, match="rescue"):
        docs.render()


def test_docs_command_check(tmp_path, capsys):
    assert main(["dday", "docs", "--check", str(PAGE)]) == 0
    stale = tmp_path / "dday.md"
    stale.write_text("old\n")
    assert main(["dday", "docs", "--check", str(stale)]) == 1
    assert main(["dday", "docs", "--output", str(stale)]) == 0
    assert stale.read_text() == PAGE.read_text()

"""docs/maurice.md, generated from `maquis.maurice` (`maquis maurice docs`): what the page must hold
beyond tests/test_docs.py's checks shared by every game."""

from __future__ import annotations

from pathlib import Path

import pytest

maurice = pytest.importorskip("maquis.maurice")
if not hasattr(maurice, "ACTION_NAMES"):
    pytest.skip("maquis.maurice has no tables in this build", allow_module_level=True)

from maquis.common.docs import action_blocks  # noqa: E402
from maquis.maurice import docs  # noqa: E402

PAGE = Path(__file__).parents[1] / "docs" / "maurice.md"


def test_blocks_follow_the_api_table():
    blocks = {b: (idx[0], idx[-1]) for b, idx in action_blocks(maurice.ACTION_NAMES, docs.block_of)}
    assert blocks["volley_choice"] == (0, 1)
    assert blocks["command"] == (2, 6)  # the command `charge` ...
    assert blocks["charge_lead"] == (17, 19)  # ... is not the lead-in `charge:straight`
    assert blocks["move"] == (20, 32) and blocks["form"] == (33, 51)
    assert blocks["unit"] == (52, 67) and blocks["card"] == (68, 96) and blocks["cell"] == (97, 1446)
    assert sum(b - a + 1 for a, b in blocks.values()) == maurice.NUM_ACTIONS


def test_the_page_has_every_card_slice_and_section():
    text = docs.render()
    for card in maurice.CARDS:
        assert f"| {card['index']} | `{card['id']}` | {card['name']} |" in text
    assert "stand-in deck" in text
    for name, off, length in maurice.OBSERVATION_LAYOUT:
        assert f"| `{name}` | `[{off}:{off + length}]` | {length} |" in text
    for title in ("Actions", "Observation", "Rewards", "Episode end", "Reset options and seeding", "Rendering",
                  "Version history"):
        assert f"## {title}" in text
    assert f"`Discrete({maurice.NUM_ACTIONS})`" in text and str(maurice.COMPACT_OBSERVATION_SIZE) in text


def test_an_action_block_without_description_is_refused(monkeypatch):
    monkeypatch.delitem(docs.BLOCKS, "charge_lead")
    with pytest.raises(ValueError, match="charge_lead"):
        docs.render()


def test_the_committed_page_is_the_generated_one():
    assert PAGE.read_text() == docs.render()

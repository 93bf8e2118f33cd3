"""``maquis maurice render`` (a PNG, or the text view, of a saved position) and ``maquis maurice
replay`` (every position of a recorded episode, as PNG frames or a GIF): the shared
``maquis.common.render_verbs.SnapshotVerbs``, configured for Maurice Lite.

A position is what ``save_state()`` wrote (a versioned JSON save, loaded into an environment) or a
``state_dict()`` dumped as JSON (``maquis maurice play``'s ``save`` writes one side's view so).
``--side`` draws one side's view only: the enemy's hand hidden.

An episode, as ``maquis maurice play --record FILE`` writes it::

    {"format": "maquis.maurice-episode", "version": 1, "seed": 3,
     "reset_options": {"scenario": "skirmish"}, "actions": ["no_volley", "march", ...],
     "outcome": "blue"}
"""

from __future__ import annotations

from ..common.render_verbs import SnapshotVerbs
from .render import render_ansi, render_rgb, side_view

EPISODE_FORMAT = "maquis.maurice-episode"
EPISODE_VERSION = 1
SIDES = ("blue", "red")

VERBS = SnapshotVerbs(
    "maurice", "maquis.maurice", EPISODE_FORMAT, EPISODE_VERSION, SIDES, render_ansi, render_rgb, side_view,
    # Any save with a viewer is one side's view (`maquis maurice play`'s `save`).
    viewer_of=lambda sd: sd.get("viewer"),
    # A malformed state_dict can also index past a list (a hand, the deck, a battle line).
    errors=(KeyError, TypeError, IndexError),
    rgb_takes_side=True,
)

__all__ = ["EPISODE_FORMAT", "EPISODE_VERSION", "SIDES", "VERBS"]

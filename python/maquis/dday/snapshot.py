"""``maquis dday render`` (a PNG, or the text view, of a saved position) and ``maquis dday replay``
(every position of a recorded episode, as PNG frames or a GIF): the shared
``maquis.common.render_verbs.SnapshotVerbs``, configured for D-Day 1944.

A position is what ``save_state()`` wrote (a versioned JSON save, loaded into an environment) or a
``state_dict()`` dumped as JSON. ``--side`` draws one side's view only.

An episode, as ``maquis dday play --record FILE`` writes it::

    {"format": "maquis.dday1944-episode", "version": 1, "seed": 3, "reset_options": null,
     "actions": ["stop_interrogation", ...], "outcome": "german"}

``seed`` and ``reset_options`` are those of ``reset()``, the actions are both sides' decisions by
name in the order they were taken; the same file therefore replays exactly.
"""

from __future__ import annotations

from ..common.render_verbs import SnapshotVerbs
from .render import render_ansi, render_rgb, side_view

EPISODE_FORMAT = "maquis.dday1944-episode"
EPISODE_VERSION = 1
SIDES = ("resistance", "german")

VERBS = SnapshotVerbs(
    "dday", "maquis.dday", EPISODE_FORMAT, EPISODE_VERSION, SIDES, render_ansi, render_rgb, side_view,
    # A side's view (`maquis dday play`'s `save`) lacks something only where it lists hidden zones.
    viewer_of=lambda sd: sd.get("viewer") if sd.get("hidden") else None,
    errors=(KeyError, TypeError),
    side_article="the ",
)

__all__ = ["EPISODE_FORMAT", "EPISODE_VERSION", "SIDES", "VERBS"]

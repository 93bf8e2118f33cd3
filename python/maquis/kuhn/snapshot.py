"""``maquis kuhn render`` (a PNG, or the text view, of a saved position) and ``maquis kuhn replay``
(every position of a recorded hand, as PNG frames or a GIF): the shared
``maquis.common.render_verbs.SnapshotVerbs``, configured for Kuhn poker. ``--side`` draws one
side's view: the other card face down (RULES O1).

An episode, as ``maquis kuhn play --record FILE`` writes it::

    {"format": "maquis.kuhn-episode", "version": 1, "seed": 3, "reset_options": null,
     "actions": ["bet", "pass"], "outcome": "first"}
"""

from __future__ import annotations

from ..common.render_verbs import SnapshotVerbs
from .render import render_ansi, render_rgb, side_view

EPISODE_FORMAT = "maquis.kuhn-episode"
EPISODE_VERSION = 1
SIDES = ("first", "second")

VERBS = SnapshotVerbs(
    "kuhn", "maquis.kuhn", EPISODE_FORMAT, EPISODE_VERSION, SIDES, render_ansi, render_rgb, side_view,
    # A side's view (`maquis kuhn play`'s `save`) names its viewer.
    viewer_of=lambda sd: sd.get("viewer"),
    errors=(KeyError, TypeError, AttributeError),
    rgb_takes_side=True,
)

__all__ = ["EPISODE_FORMAT", "EPISODE_VERSION", "SIDES", "VERBS"]

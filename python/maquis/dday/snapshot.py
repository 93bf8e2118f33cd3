"""``maquis dday render`` (a PNG, or the text view, of a saved position) and ``maquis dday replay``
(every position of a recorded episode, as PNG frames or a GIF).

A position is what ``save_state()`` wrote (a versioned JSON save, loaded into an environment) or a
``state_dict()`` dumped as JSON. ``--side`` draws one side's view only.

An episode, as ``maquis dday play --record FILE`` writes it::

    {"format": "maquis.dday1944-episode", "version": 1, "seed": 3, "reset_options": null,
     "actions": ["stop_interrogation", ...], "outcome": "german"}

``seed`` and ``reset_options`` are those of ``reset()``, the actions are both sides' decisions by
name in the order they were taken; the same file therefore replays exactly.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ..common import render_verbs
from .render import render_ansi, render_rgb, side_view

EPISODE_FORMAT = "maquis.dday1944-episode"
EPISODE_VERSION = 1
SIDES = ("resistance", "german")

__all__ = [
    "EPISODE_FORMAT", "EPISODE_VERSION", "add_render_arguments", "add_replay_arguments", "episode",
    "load_episode", "load_position", "replay_states", "run_render", "run_replay",
]


def load_position(text: str) -> dict:
    """The state_dict of a saved state or of a dumped state_dict (JSON text)."""
    from . import raw_env

    return render_verbs.load_aec_position(text, "dday", raw_env)


def add_render_arguments(p: argparse.ArgumentParser) -> None:
    render_verbs.add_side_render_arguments(p, SIDES)


def run_render(args: argparse.Namespace) -> int:
    def load(text: str) -> dict:
        sd = load_position(text)
        viewer = sd.get("viewer")  # a save of one side's view (`maquis dday play`'s `save`)
        if args.side and viewer and sd.get("hidden") and args.side != viewer:
            raise ValueError(f"this position holds only what the {viewer} sees: draw it with --side {viewer}")
        return side_view(sd, args.side) if args.side else sd

    return render_verbs.run_render(
        args, "dday", load, render_ansi, lambda sd, width: render_rgb(sd, width=width), (KeyError, TypeError)
    )


# -- Recorded episodes ---------------------------------------------------------------------------


def episode(seed: int | None, actions: list[str], outcome: str | None, reset_options: Mapping | None = None) -> dict:
    """An episode to write as JSON (``maquis dday play --record``)."""
    return render_verbs.episode_data(EPISODE_FORMAT, EPISODE_VERSION, seed, actions, outcome, reset_options)


def load_episode(path: str | Path) -> dict:
    """Reads and checks an episode file; ValueError says what is wrong."""
    return render_verbs.load_episode_file(path, EPISODE_FORMAT, EPISODE_VERSION, "D-Day 1944")


def replay_states(data: Mapping[str, Any]) -> Iterator[dict]:
    """The state_dict of every position of an episode: the start, then after each action.
    ValueError when an action is unknown or not legal where it is played."""
    from . import raw_env

    return render_verbs.replay_aec_states(raw_env(), data)


def add_replay_arguments(p: argparse.ArgumentParser) -> None:
    render_verbs.add_replay_arguments(p, "maquis dday play", SIDES)


def run_replay(args: argparse.Namespace) -> int:
    def draw(sd: dict, width: int) -> Any:
        return render_rgb(side_view(sd, args.side) if args.side else sd, width=width)

    return render_verbs.run_replay(args, "maquis dday replay", load_episode, replay_states, draw, (KeyError, TypeError))

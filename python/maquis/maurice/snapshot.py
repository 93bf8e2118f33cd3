"""``maquis maurice render`` (a PNG, or the text view, of a saved position) and ``maquis maurice
replay`` (every position of a recorded episode, as PNG frames or a GIF), on the shared verbs of
``maquis.common.render_verbs``.

A position is what ``save_state()`` wrote (a versioned JSON save, loaded into an environment) or a
``state_dict()`` dumped as JSON (``maquis maurice play``'s ``save`` writes one side's view so).
``--side`` draws one side's view only: the enemy's hand hidden.

An episode, as ``maquis maurice play --record FILE`` writes it::

    {"format": "maquis.maurice-episode", "version": 1, "seed": 3,
     "reset_options": {"scenario": "skirmish"}, "actions": ["no_volley", "march", ...],
     "outcome": "blue"}
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ..common import render_verbs
from .render import render_ansi, render_rgb, side_view

EPISODE_FORMAT = "maquis.maurice-episode"
EPISODE_VERSION = 1
SIDES = ("blue", "red")

__all__ = [
    "EPISODE_FORMAT", "EPISODE_VERSION", "add_render_arguments", "add_replay_arguments", "episode",
    "load_episode", "load_position", "replay_states", "run_render", "run_replay",
]


def load_position(text: str) -> dict:
    """The state_dict of a saved state or of a dumped state_dict (JSON text)."""
    from . import raw_env

    return render_verbs.load_aec_position(text, "maurice", raw_env)


def add_render_arguments(p: argparse.ArgumentParser) -> None:
    render_verbs.add_side_render_arguments(p, SIDES)


def _side_of(sd: dict, side: str | None) -> dict:
    viewer = sd.get("viewer")  # a save of one side's view (`maquis maurice play`'s `save`)
    if side and viewer and side != viewer:
        raise ValueError(f"this position holds only what {viewer} sees: draw it with --side {viewer}")
    return side_view(sd, side) if side else sd


def run_render(args: argparse.Namespace) -> int:
    return render_verbs.run_render(
        args, "maurice", lambda text: _side_of(load_position(text), args.side), render_ansi,
        lambda sd, width: render_rgb(sd, width=width), (KeyError, TypeError, IndexError),
    )


def episode(seed: int | None, actions: list[str], outcome: str | None, reset_options: Mapping | None = None) -> dict:
    """An episode to write as JSON (``maquis maurice play --record``)."""
    return render_verbs.episode_data(EPISODE_FORMAT, EPISODE_VERSION, seed, actions, outcome, reset_options)


def load_episode(path: str | Path) -> dict:
    """Reads and checks an episode file; ValueError says what is wrong."""
    return render_verbs.load_episode_file(path, EPISODE_FORMAT, EPISODE_VERSION, "Maurice Lite")


def replay_states(data: Mapping[str, Any]) -> Iterator[dict]:
    """The state_dict of every position of an episode: the start, then after each action."""
    from . import raw_env

    return render_verbs.replay_aec_states(raw_env(), data)


def add_replay_arguments(p: argparse.ArgumentParser) -> None:
    render_verbs.add_replay_arguments(p, "maquis maurice play", SIDES)


def run_replay(args: argparse.Namespace) -> int:
    def draw(sd: dict, width: int) -> Any:
        return render_rgb(sd, width=width, side=args.side)

    return render_verbs.run_replay(
        args, "maquis maurice replay", load_episode, replay_states, draw, (KeyError, TypeError, IndexError)
    )

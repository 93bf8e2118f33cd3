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
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ..common import cli as common_cli
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
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"not JSON: {err}") from None
    if isinstance(data, dict) and "phase" in data and "allocation" in data:
        return data  # a state_dict
    from . import raw_env

    env = raw_env()
    env.reset(seed=0)
    env.load_state(text)
    return env.state_dict()


def add_render_arguments(p: argparse.ArgumentParser) -> None:
    render_verbs.add_render_arguments(p)
    common_cli.add_side(p, SIDES, None, "draw only what this side sees (default: everything)")


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
    return {
        "format": EPISODE_FORMAT,
        "version": EPISODE_VERSION,
        "seed": seed,
        "reset_options": dict(reset_options) if reset_options else None,
        "actions": list(actions),
        "outcome": outcome,
    }


def load_episode(path: str | Path) -> dict:
    """Reads and checks an episode file; ValueError says what is wrong."""
    return render_verbs.load_episode_file(path, EPISODE_FORMAT, EPISODE_VERSION, "D-Day 1944")


def replay_states(data: Mapping[str, Any]) -> Iterator[dict]:
    """The state_dict of every position of an episode: the start, then after each action.
    ValueError when an action is unknown or not legal where it is played."""
    from . import raw_env

    env = raw_env()
    env.reset(seed=data.get("seed"), options=data.get("reset_options") or None)
    yield env.state_dict()
    actions = data["actions"]
    for k, action in enumerate(actions, 1):
        sd = env.state_dict()
        if sd.get("outcome") is not None:
            raise ValueError(f"the game ended after {k - 1} actions, but the episode has {len(actions)}")
        try:
            index = env.action_from_str(str(action))
        except (ValueError, KeyError) as err:
            raise ValueError(f"action {k} ({action!r}) is unknown: {err}") from None
        if not env.observe(env.agent_selection)["action_mask"][index]:
            raise ValueError(
                f"action {k} ({action}) is not legal for {env.agent_selection} in phase {sd.get('phase')}: "
                "the episode does not replay with this engine and these options"
            )
        env.step(index)
        yield env.state_dict()


def add_replay_arguments(p: argparse.ArgumentParser) -> None:
    render_verbs.add_replay_arguments(p, "maquis dday play")
    common_cli.add_side(p, SIDES, None, "draw only what this side sees (default: everything)")


def run_replay(args: argparse.Namespace) -> int:
    def draw(sd: dict, width: int) -> Any:
        return render_rgb(side_view(sd, args.side) if args.side else sd, width=width)

    return render_verbs.run_replay(args, "maquis dday replay", load_episode, replay_states, draw, (KeyError, TypeError))

"""Draw saved games: ``maquis render`` (a PNG of one saved position) and ``maquis replay`` (one PNG
per step of a recorded episode, or an animated GIF).

- ``maquis render STATE.json -o out.png`` - a PNG of a position saved by ``env.save_state()`` (a
  plain ``state_dict()`` dumped as JSON works too).
- ``maquis replay EPISODE.json -o DIR`` (one PNG per step) or ``-o out.gif`` -
  re-runs a recorded episode (``maquis.maquis.episode``) and draws every position along the way.
"""

from __future__ import annotations

import argparse
import json

from ..common import render_verbs
from .episode import UsageError, load_episode, make_env, replay_states
from .render import render_ansi, render_rgb

__all__ = ["add_render_arguments", "add_replay_arguments", "load_state_dict", "run_render", "run_replay"]


def add_render_arguments(p: argparse.ArgumentParser) -> None:
    render_verbs.add_render_arguments(p)


def load_state_dict(text: str) -> dict:
    """The ``state_dict()`` of a saved position: ``env.save_state()`` output, or a state_dict as JSON."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise UsageError(f"not JSON: {err}") from None
    env = make_env({})
    try:
        env.load_state(text)
        return env.state_dict()
    except (ValueError, TypeError, KeyError) as err:
        if isinstance(data, dict) and isinstance(data.get("board"), dict) and "phase" in data:
            return data  # a plain state_dict: the renderers draw it as it is
        raise UsageError(f"not a saved position: {err}") from None


def run_render(args: argparse.Namespace) -> int:
    return render_verbs.run_render(args, "maquis", load_state_dict, render_ansi, render_rgb, (UsageError,))


def add_replay_arguments(p: argparse.ArgumentParser) -> None:
    render_verbs.add_replay_arguments(p, "maquis play")


def run_replay(args: argparse.Namespace) -> int:
    return render_verbs.run_replay(args, "maquis replay", load_episode, replay_states, render_rgb, (UsageError,))

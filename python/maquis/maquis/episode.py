"""Recorded episodes: the file format, reading one, and re-running it position by position.

Episode files (``format: "maquis-episode"``, ``version: 1``), written by ``maquis play --record``
and read by ``maquis replay``::

    {"format": "maquis-episode", "version": 1,
     "env": {"difficulty": "normal", "mission_pool": "second_edition",
             "missions": ["sabotage", "aid_the_spy"]},
     "seed": 1234, "reset_options": null,
     "actions": ["place:grocer", "act:grocer:food", ...], "outcome": "win"}

``env`` holds keyword arguments of ``MaquisEnv``, ``seed`` and ``reset_options`` those of
``reset()``; the same file therefore replays exactly.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..common.render_verbs import load_episode_file

__all__ = [
    "EPISODE_FORMAT",
    "EPISODE_VERSION",
    "UsageError",
    "load_episode",
    "make_env",
    "replay_states",
    "reset_env",
]

EPISODE_FORMAT = "maquis-episode"
EPISODE_VERSION = 1


class UsageError(Exception):
    """A problem with a command's input (a file, an option), reported as one line and exit status 1 or 2."""


def _env_class():
    from . import MaquisEnv  # imported late: `maquis render --help` works even without the extension

    return MaquisEnv


def make_env(env_kwargs: Mapping, **extra):
    """A ``MaquisEnv`` from an episode's ``env`` mapping (and ``extra`` keywords)."""
    try:
        return _env_class()(**{**dict(env_kwargs), **extra})
    except (TypeError, ValueError) as err:
        raise UsageError(f"cannot create the environment with {dict(env_kwargs)}: {err}") from err


def reset_env(env, seed, options):
    try:
        return env.reset(seed=seed, options=options or None)
    except (TypeError, ValueError) as err:
        raise UsageError(f"cannot start the game (seed {seed}, options {options}): {err}") from err


def load_episode(path_or_data) -> dict:
    """Read and check an episode (a path, or the already-parsed dict)."""
    try:
        data = load_episode_file(path_or_data, EPISODE_FORMAT, EPISODE_VERSION, "maquis")
    except ValueError as err:
        raise UsageError(str(err)) from None
    if not isinstance(data.get("actions"), list) or not isinstance(data.get("env", {}), dict):
        raise UsageError("an episode needs an `actions` list and an `env` mapping")
    return data


def replay_states(episode: Mapping):
    """Yield the ``state_dict()`` of every position of ``episode``: the start, then after each action.

    Raises ``UsageError`` when an action is unknown or not legal where it is played, or when the
    game ends before the actions do (the episode was recorded with other rules or options).
    """
    env = make_env(episode.get("env") or {})
    reset_env(env, episode.get("seed"), episode.get("reset_options"))
    yield env.state_dict()
    for k, action in enumerate(episode["actions"], 1):
        sd = env.state_dict()
        if sd.get("outcome") is not None:
            raise UsageError(
                f"the game ended after {k - 1} actions, but the episode has {len(episode['actions'])}"
            )
        try:
            index = int(action) if isinstance(action, int) else env.action_from_str(str(action))
        except (ValueError, KeyError) as err:
            raise UsageError(f"action {k} ({action!r}) is unknown: {err}") from None
        if index not in env.legal_actions():
            raise UsageError(
                f"action {k} ({env.action_to_str(index)}) is not legal on day {sd.get('day')}, phase "
                f"{sd.get('phase')}: the episode does not replay with this engine and these options"
            )
        env.step(index)
        yield env.state_dict()

"""``maquis.maurice.ladder`` and ``maquis maurice ladder``: the rated round robin of Maurice Lite's bundled levels on
duplicate deals (the shared ladder: ``maquis.common.ladder``; the games: ``maquis._core.maurice.play_games``,
in Rust on threads). The first side of a deal is the game's default learner side."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

from .._core import maurice as _core_game
from ..common import rate as _rate
from ..common.ladder import LadderGame, LadderResult, add_ladder_arguments, play_ladder, run_ladder
from ..common.single import BUNDLED_OPPONENTS as OPPONENTS

__all__ = ["GAME", "VERSUS", "ladder", "rate", "add_arguments", "run", "add_rate_arguments", "run_rate"]


def _play(games: list[tuple[str, int, str, int, int]], budget: int, threads: int) -> list[int]:
    from .._core import maurice

    return maurice.play_games(games, budget, threads)


#: Search is left out by default: a Maurice search game takes seconds (``--agents random,heuristic,search``).
GAME = LadderGame("maurice", OPPONENTS, ("random", "heuristic"), 100, _play, default_deals=100,
                  agents_note="a search game takes seconds")


def ladder(
    agents: str | Sequence[str] | None = None,
    deals: int = 100,
    seed: int = 0,
    threads: int | None = None,
    budget: int = 100,
    resume: str | os.PathLike[str] | None = None,
    bootstrap: int = 200,
    progress: bool = False,
) -> LadderResult:
    """Bradley–Terry ratings (Elo scale, ``random`` at 0, 95 % bootstrap intervals) of ``agents``
    (default: random and heuristic; ``search`` is slow, add it by name) from every pairing
    played on ``deals`` deals, each twice with the seats swapped. ``budget``: the search levels'
    simulations per decision; ``threads``: games at once (default all cores); ``resume``: a JSONL
    file of finished games, appended to and not replayed. A ValueError names bad input.

    ``result.to_dict()`` is ``{"game", "agents": [{"agent", "rating", "ci95", ...}], "pairings":
    [{"a", "b", "wins", "draws", "losses", "score", ...}], "settings"}``."""
    return play_ladder(GAME, agents, deals, seed, threads, budget, resume, bootstrap, progress)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_ladder_arguments(p, GAME)


def run(args: argparse.Namespace) -> int:
    return run_ladder(args, GAME)


def _make_env(n: int, side: str, opponent: str, budget: int, threads: int | None):
    from maquis.maurice import MauriceVectorEnv

    return MauriceVectorEnv(n, num_threads=threads, side=side, opponent=opponent, opponent_kwargs={"budget": budget}, copy=False)


#: What ``maquis maurice rate`` and ``exploit`` need: the ladder, the sides (the ladder's first first), the vector env.
VERSUS = _rate.VersusGame(GAME, tuple(_core_game.SIDES), _make_env,
                          fast_agents=("random", "heuristic"))


def rate(policy, ladder=None, agents=None, deals: int = 100, seed: int = 0, **kw) -> _rate.RateResult:
    """``policy`` (a saved ``.npz``, ``"module:attr"``, a torch module, or an object with ``act`` /
    ``act_batch``) rated on the ladder's scale: see ``maquis.common.rate.rate``."""
    return _rate.rate(VERSUS, policy, ladder, agents, deals, seed, **kw)


def add_rate_arguments(p: argparse.ArgumentParser) -> None:
    _rate.add_rate_arguments(p, VERSUS)


def run_rate(args: argparse.Namespace) -> int:
    return _rate.run_rate(args, VERSUS)

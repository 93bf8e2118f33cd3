"""``maquis.maurice.ladder`` and ``maquis maurice ladder``: the rated round robin of Maurice Lite's bundled levels on
duplicate deals (the shared ladder: ``maquis.common.ladder``; the games: ``maquis._core.maurice.play_games``,
in Rust on threads). The first side of a deal is the game's default learner side."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

from ..common.ladder import LadderGame, LadderResult, add_ladder_arguments, play_ladder, run_ladder
from ..common.single import BUNDLED_OPPONENTS as OPPONENTS

__all__ = ["GAME", "ladder", "add_arguments", "run"]


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

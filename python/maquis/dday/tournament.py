"""``maquis.dday.ladder`` and ``maquis dday ladder``: the rated round robin of D-Day's bundled levels on
duplicate deals (the shared ladder: ``maquis.common.ladder``; the games: ``maquis._core.dday.play_games``,
in Rust on threads). The first side of a deal is the Resistance."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

from ..common.ladder import LadderGame, LadderResult, add_ladder_arguments, play_ladder, run_ladder
from .opponents import OPPONENTS

__all__ = ["GAME", "ladder", "add_arguments", "run"]


def _prepare(agents: Sequence[str]) -> None:
    if any(a.startswith("network") for a in agents):
        from .network import ensure_network

        ensure_network()


def _play(games: list[tuple[str, int, str, int, int]], budget: int, threads: int) -> list[int]:
    from .._core import dday

    return dday.play_games(games, budget, threads)


GAME = LadderGame(
    "dday", OPPONENTS, OPPONENTS, 200, _play, _prepare, default_deals=100,
    agents_note="search and network_search take about a second a game on one core: "
    "--agents random,heuristic,network for a fast ladder",
)


def ladder(
    agents: str | Sequence[str] | None = None,
    deals: int = 100,
    seed: int = 0,
    threads: int | None = None,
    budget: int = 200,
    resume: str | os.PathLike[str] | None = None,
    bootstrap: int = 200,
    progress: bool = False,
) -> LadderResult:
    """Bradley–Terry ratings (Elo scale, ``random`` at 0, 95 % bootstrap intervals) of ``agents``
    (default: every level: random, heuristic, search, network, network_search) from every pairing
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

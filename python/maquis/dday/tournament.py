"""``maquis.dday.ladder`` and ``maquis dday ladder``: the rated round robin of D-Day's bundled levels on
duplicate deals (the shared ladder: ``maquis.common.ladder``; the games: ``maquis._core.dday.play_games``,
in Rust on threads). The first side of a deal is the Resistance."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

from .._core import dday as _core_game
from ..common import rate as _rate
from ..common.ladder import LadderGame, LadderResult, add_ladder_arguments, play_ladder, run_ladder
from .opponents import OPPONENTS

__all__ = ["GAME", "VERSUS", "ladder", "rate", "add_arguments", "run", "add_rate_arguments", "run_rate"]


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


def _make_env(n: int, side: str, opponent: str, budget: int, threads: int | None):
    from maquis.dday import DDayVectorEnv

    return DDayVectorEnv(n, num_threads=threads, side=side, opponent=opponent, opponent_kwargs={"budget": budget}, copy=False)


#: What ``maquis dday rate`` and ``exploit`` need: the ladder, the sides (the ladder's first first), the vector env.
VERSUS = _rate.VersusGame(GAME, tuple(_core_game.SIDES), _make_env,
                          fast_agents=("random", "heuristic", "network"))


def rate(policy, ladder=None, agents=None, deals: int = 100, seed: int = 0, **kw) -> _rate.RateResult:
    """``policy`` (a saved ``.npz``, ``"module:attr"``, a torch module, or an object with ``act`` /
    ``act_batch``) rated on the ladder's scale: see ``maquis.common.rate.rate``."""
    return _rate.rate(VERSUS, policy, ladder, agents, deals, seed, **kw)


def add_rate_arguments(p: argparse.ArgumentParser) -> None:
    _rate.add_rate_arguments(p, VERSUS)


def run_rate(args: argparse.Namespace) -> int:
    return _rate.run_rate(args, VERSUS)

"""``maquis.kuhn.ladder`` / ``rate`` and ``maquis kuhn ladder`` / ``rate``: the shared rated round
robin on duplicate deals (``maquis.common.ladder``) and the shared rating of a user's policy
(``maquis.common.rate``), over Kuhn's two levels; the hands are played in Rust on threads
(``maquis._core.kuhn.play_games``). The first side of a deal is ``first``."""

from __future__ import annotations

from .._core import kuhn as _core_game
from ..common import rate as _rate
from ..common.ladder import LadderGame
from ._common import OPPONENTS

__all__ = ["GAME", "VERSUS", "ladder", "rate", "add_arguments", "run", "add_rate_arguments", "run_rate"]


def _play(games: list[tuple[str, int, str, int, int]], budget: int, threads: int) -> list[int]:
    return _core_game.play_games(games, budget, threads)


#: A hand takes microseconds: the default ladder plays many deals.
GAME = LadderGame("kuhn", OPPONENTS, OPPONENTS, 1, _play, default_deals=10_000, sides=tuple(_core_game.SIDES))

#: What ``maquis kuhn rate`` needs: the ladder (which names the sides), the vector env (no search budget).
VERSUS = _rate.VersusGame(GAME, _rate.vector_env_maker("maquis.kuhn", "KuhnVectorEnv", budget=False),
                          fast_agents=OPPONENTS)

_VERBS = _rate.verbs(VERSUS)
ladder, rate, add_arguments, run = _VERBS.ladder, _VERBS.rate, _VERBS.add_arguments, _VERBS.run
add_rate_arguments, run_rate = _VERBS.add_rate_arguments, _VERBS.run_rate

"""``maquis.dday.ladder`` and ``maquis dday ladder``: the rated round robin of D-Day's bundled levels on
duplicate deals (the shared ladder: ``maquis.common.ladder``; the games: ``maquis._core.dday.play_games``,
in Rust on threads). The first side of a deal is the Resistance."""

from __future__ import annotations

from collections.abc import Sequence

from .._core import dday as _core_game
from ..common import rate as _rate
from ..common.exploit import ExploitVerb
from ..common.ladder import LadderGame
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
    sides=tuple(_core_game.SIDES),
    file_agents=("network", "network_search"),
)


#: What ``maquis dday rate`` and ``exploit`` need: the ladder (which names the sides), the vector env.
VERSUS = _rate.VersusGame(GAME, _rate.vector_env_maker("maquis.dday", "DDayVectorEnv"),
                          fast_agents=("random", "heuristic", "network"))

_VERBS = _rate.verbs(VERSUS)
ladder, rate, add_arguments, run = _VERBS.ladder, _VERBS.rate, _VERBS.add_arguments, _VERBS.run
add_rate_arguments, run_rate = _VERBS.add_rate_arguments, _VERBS.run_rate

#: `maquis dday exploit`: a PPO best response to a level of this game's ladder.
EXPLOIT = ExploitVerb(__name__)

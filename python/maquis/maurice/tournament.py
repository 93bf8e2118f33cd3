"""``maquis.maurice.ladder`` and ``maquis maurice ladder``: the rated round robin of Maurice Lite's bundled levels on
duplicate deals (the shared ladder: ``maquis.common.ladder``; the games: ``maquis._core.maurice.play_games``,
in Rust on threads). The first side of a deal is the game's default learner side."""

from __future__ import annotations

from collections.abc import Sequence

from .._core import maurice as _core_game
from ..common import rate as _rate
from ..common.exploit import ExploitVerb
from ..common.ladder import LadderGame
from .opponents import OPPONENTS

__all__ = ["GAME", "VERSUS", "ladder", "rate", "add_arguments", "run", "add_rate_arguments", "run_rate"]


def _prepare(agents: Sequence[str]) -> None:
    from .network import NETWORK

    for a in agents:
        NETWORK.ensure_level(a)


def _play(games: list[tuple[str, int, str, int, int]], budget: int, threads: int) -> list[int]:
    from .._core import maurice

    return maurice.play_games(games, budget, threads)


#: The rule-based levels by default: the search takes about a millisecond a decision (a 100-deal
#: ladder of the three levels is about 150 s of CPU); add network,network_search for the learned ones.
GAME = LadderGame("maurice", OPPONENTS, ("random", "heuristic", "search"), 100, _play, _prepare, default_deals=100,
                  agents_note="search takes about a millisecond a decision", sides=tuple(_core_game.SIDES),
                  file_agents=("network", "network_search"))


#: What ``maquis maurice rate`` and ``exploit`` need: the ladder (which names the sides), the vector env.
VERSUS = _rate.VersusGame(GAME, _rate.vector_env_maker("maquis.maurice", "MauriceVectorEnv"),
                          fast_agents=("random", "heuristic"))

_VERBS = _rate.verbs(VERSUS)
ladder, rate, add_arguments, run = _VERBS.ladder, _VERBS.rate, _VERBS.add_arguments, _VERBS.run
add_rate_arguments, run_rate = _VERBS.add_rate_arguments, _VERBS.run_rate

#: `maquis maurice exploit`: a PPO best response to a level of this game's ladder.
EXPLOIT = ExploitVerb(__name__)

"""``maquis maurice bench``: how fast Maurice Lite plays (the shared measurements of
``maquis.common.bench``).

1. The engine at random play on one core: ``MauriceVectorEnv`` with one thread, a random learner
   (``sample_actions``, drawn in Rust) against the ``random`` opponent, writing the compact uint8
   observation (the least the bindings let a step write), so that little but the engine runs per
   decision; reported as games/s and decisions/s (both sides' decisions, the count per game
   measured on the same seeds through the AEC env).
2. The vector env as training uses it: each of ``--envs`` environments on each of ``--threads``
   threads with the ``heuristic`` opponent inside, learner steps/s (games/s: those over the
   learner's decisions per game against the heuristic, measured on the AEC env).

``--scenario`` picks the armies (standard: 15 units a side, skirmish: 7); ``--observation compact``
leaves out the map planes. Every figure is the median of ``--repeats`` timed repeats of about
``--seconds`` each.
"""

from __future__ import annotations

import argparse

from ..common.bench import decisions_per_game, vector_rate
from ..common.cli import add_bench_arguments, add_seed, bench_settings, write_json

#: Environments of the engine figure: enough that a step's fixed cost is spread out.
ENGINE_ENVS = 256


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_bench_arguments(p)
    add_seed(p, "seed of the games")
    p.add_argument("--scenario", choices=("standard", "skirmish"), default="standard",
                   help="the armies (default: standard)")
    p.add_argument("--observation", choices=("full", "compact"), default="full",
                   help="the observation the vector env writes (default: full, 21334 values)")


def run(args: argparse.Namespace) -> int:
    from . import MauriceVectorEnv, raw_env
    from .agents import make_agent

    settings = bench_settings(args)
    settings.update(scenario=args.scenario, observation=args.observation)
    seconds, repeats = settings["seconds"], settings["repeats"]

    def make_vec(n: int, threads: int, opponent: str, observation: str = args.observation, dtype: str = "float32"):
        # copy=False: the arrays the engine writes, as a training loop that reads them at once uses them.
        return MauriceVectorEnv(num_envs=n, num_threads=threads, copy=False, side="blue", opponent=opponent,
                                scenario=args.scenario, observation=observation, observation_dtype=dtype)

    def make_engine(n: int, threads: int, opponent: str):
        return make_vec(n, threads, opponent, "compact", "uint8")

    text = args.json != "-"
    games = 3 if settings["quick"] else 20
    options = {"scenario": args.scenario}
    # Games last hundreds of decisions and all environments start together, so few end within a
    # window: games/s is the learner's steps/s over its decisions per game, measured on the AEC env.
    random_game = decisions_per_game(raw_env, games, args.seed, options)
    engine = vector_rate(make_engine, 64 if settings["quick"] else ENGINE_ENVS, 1, "random", seconds, args.seed, repeats,
                         until_a_game_ends=False)
    engine["decisions_per_game"] = random_game["all"]
    engine["games_per_s"] = engine["learner_steps_per_s"] / random_game["blue"]
    engine["decisions_per_s"] = engine["games_per_s"] * random_game["all"]
    if text:
        print(
            f"engine, random play, 1 thread ({engine['envs']} envs, {args.scenario}, compact uint8 observation): "
            f"{engine['decisions_per_s']:,.0f} decisions/s, {engine['games_per_s']:,.1f} games/s "
            f"({random_game['all']:.1f} decisions a game, {random_game['blue']:.1f} of them blue's)"
        )
    heuristic_game = decisions_per_game(raw_env, games, args.seed, options, {"red": make_agent("heuristic", args.seed)})
    vector = []
    for n in settings["envs"]:
        for t in settings["threads"]:
            row = vector_rate(make_vec, n, t, "heuristic", seconds, args.seed, repeats, until_a_game_ends=False)
            row["games_per_s"] = row["learner_steps_per_s"] / heuristic_game["blue"]
            row["learner_decisions_per_game"] = heuristic_game["blue"]
            vector.append(row)
            if text:
                print(
                    f"vector env, {n} envs x {t} threads, heuristic opponent, {args.observation} observation: "
                    f"{row['learner_steps_per_s']:,.0f} learner steps/s, {row['games_per_s']:,.1f} games/s "
                    f"({heuristic_game['blue']:.1f} learner decisions a game)"
                )
    if args.json:
        write_json({"settings": settings, "engine": engine, "vector": vector}, args.json)
    return 0

"""``maquis dday bench``: how fast D-Day 1944 plays.

1. The engine at random play on one core: ``DDayVectorEnv`` with one thread, a random learner
   (``sample_actions``, drawn in Rust) against the ``random`` opponent, so that nothing but the
   engine runs per decision; reported as games/s and decisions/s (both sides' decisions, the
   count per game measured on the same seeds through the AEC env).
2. The vector env as training uses it: each of ``--envs`` environments on each of ``--threads``
   threads with the ``heuristic`` opponent inside, learner steps/s.

Every figure is the median of ``--repeats`` timed repeats of about ``--seconds`` each.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np

from ..common.cli import add_bench_arguments, add_seed, bench_settings, write_json


def decisions_per_game(games: int, seed: int) -> float:
    """Mean decisions (both sides) of random-vs-random games, through the AEC env."""
    from . import raw_env

    env = raw_env()
    rng = np.random.default_rng(seed)
    total = 0
    for k in range(games):
        env.reset(seed=seed + k)
        while env.state_dict()["outcome"] is None:
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
            total += 1
    return total / games


def vector_rate(num_envs: int, threads: int, opponent: str, seconds: float, seed: int, repeats: int = 1) -> dict[str, Any]:
    """Learner steps/s and finished games/s of the vector env stepped with random legal actions
    (the medians of `repeats` runs of about `seconds`)."""
    from . import DDayVectorEnv

    env = DDayVectorEnv(num_envs=num_envs, num_threads=threads, side="resistance", opponent=opponent)
    env.reset(seed=seed)
    for _ in range(3):  # warm-up
        env.step(env.sample_actions())
    step_rates, game_rates, total = [], [], 0.0
    for _ in range(repeats):
        steps = games = 0
        t0 = time.perf_counter()
        # Until a game has ended too: a short window on a starved machine could otherwise report 0 games/s.
        while (elapsed := time.perf_counter() - t0) < seconds or games == 0:
            _, _, terminated, truncated, _ = env.step(env.sample_actions())
            steps += num_envs
            games += int(np.count_nonzero(terminated | truncated))
        step_rates.append(steps / elapsed)
        game_rates.append(games / elapsed)
        total += elapsed
    env.close()
    return {
        "envs": num_envs,
        "threads": threads,
        "opponent": opponent,
        "seconds": round(total, 3),
        "learner_steps_per_s": statistics.median(step_rates),
        "games_per_s": statistics.median(game_rates),
    }


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_bench_arguments(p)
    add_seed(p, "seed of the games")


def run(args: argparse.Namespace) -> int:
    settings = bench_settings(args)
    seconds, repeats = settings["seconds"], settings["repeats"]
    text = args.json != "-"
    per_game = decisions_per_game(5 if settings["quick"] else 20, args.seed)
    engine = vector_rate(256, 1, "random", seconds, args.seed, repeats)
    engine["decisions_per_game"] = per_game
    engine["decisions_per_s"] = engine["games_per_s"] * per_game
    if text:
        print(
            f"engine, random play, 1 thread (256 envs): {engine['games_per_s']:,.0f} games/s, "
            f"~{engine['decisions_per_s']:,.0f} decisions/s ({per_game:.1f} decisions a game), "
            f"{engine['learner_steps_per_s']:,.0f} learner steps/s"
        )
    vector = []
    for n in settings["envs"]:
        for t in settings["threads"]:
            row = vector_rate(n, t, "heuristic", seconds, args.seed, repeats)
            vector.append(row)
            if text:
                print(
                    f"vector env, {n} envs x {t} threads, heuristic opponent: "
                    f"{row['learner_steps_per_s']:,.0f} learner steps/s, {row['games_per_s']:,.0f} games/s"
                )
    if args.json:
        write_json({"settings": settings, "engine": engine, "vector": vector}, args.json)
    return 0

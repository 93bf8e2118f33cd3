"""``maquis dday bench``: how fast D-Day 1944 plays.

1. The engine at random play on one core: ``DDayVectorEnv`` with one thread, a random learner
   (``sample_actions``, drawn in Rust) against the ``random`` opponent, so that nothing but the
   engine runs per decision; reported as games/s and decisions/s (both sides' decisions, the
   count per game measured on the same seeds through the AEC env).
2. The vector env as training uses it: ``--envs`` (1024) environments on ``--threads`` (2)
   threads with the ``heuristic`` opponent inside, learner steps/s.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np


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


def vector_rate(num_envs: int, threads: int, opponent: str, seconds: float, seed: int) -> dict[str, Any]:
    """Learner steps/s and finished games/s of the vector env stepped with random legal actions."""
    from . import DDayVectorEnv

    env = DDayVectorEnv(num_envs=num_envs, num_threads=threads, side="resistance", opponent=opponent)
    env.reset(seed=seed)
    for _ in range(3):  # warm-up
        env.step(env.sample_actions())
    steps = games = 0
    t0 = time.perf_counter()
    # Until a game has ended too: a short window on a starved machine could otherwise report 0 games/s.
    while (elapsed := time.perf_counter() - t0) < seconds or games == 0:
        _, _, terminated, truncated, _ = env.step(env.sample_actions())
        steps += num_envs
        games += int(np.count_nonzero(terminated | truncated))
    env.close()
    return {
        "envs": num_envs,
        "threads": threads,
        "opponent": opponent,
        "seconds": round(elapsed, 3),
        "learner_steps_per_s": steps / elapsed,
        "games_per_s": games / elapsed,
    }


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--envs", type=int, default=1024, help="environments of the vector measurement (default 1024)")
    p.add_argument("--threads", type=int, default=2, help="threads of the vector measurement (default 2)")
    p.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")


def run(args: argparse.Namespace) -> int:
    if args.envs < 1 or args.threads < 1 or args.seconds <= 0:
        print("maquis dday bench: --envs and --threads must be at least 1, --seconds positive")
        return 2
    per_game = decisions_per_game(20, args.seed)
    engine = vector_rate(256, 1, "random", args.seconds, args.seed)
    engine["decisions_per_game"] = per_game
    engine["decisions_per_s"] = engine["games_per_s"] * per_game
    print(
        f"engine, random play, 1 thread (256 envs): {engine['games_per_s']:,.0f} games/s, "
        f"~{engine['decisions_per_s']:,.0f} decisions/s ({per_game:.1f} decisions a game), "
        f"{engine['learner_steps_per_s']:,.0f} learner steps/s"
    )
    vec = vector_rate(args.envs, args.threads, "heuristic", args.seconds, args.seed)
    print(
        f"vector env, {args.envs} envs x {args.threads} threads, heuristic opponent: "
        f"{vec['learner_steps_per_s']:,.0f} learner steps/s, {vec['games_per_s']:,.0f} games/s"
    )
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"engine": engine, "vector": vec}, f, indent=1)
            f.write("\n")
    return 0

"""What every two-player game's `bench` verb measures, written once: the mean number of decisions
of a game (through the AEC env) and the throughput of its native vector env stepped with random
legal actions drawn in Rust (`sample_actions`), each figure the median of timed repeats. A game's
`bench.py` names its environments and prints its lines.

`vector_rate`'s games/s counts the games that end in its window; when games are long beside the
window (all environments start together, so they end in bursts), divide the learner steps/s by
the learner's decisions per game instead (`decisions_per_game`).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

__all__ = ["bench_ladder", "decisions_per_game", "ladder_speed", "print_ladder_speed", "run_versus_bench", "vector_rate"]


def decisions_per_game(make_env: Callable[[], Any], games: int, seed: int, options: dict | None = None,
                       agents: Mapping[str, Any] | None = None) -> dict[str, float]:
    """Mean decisions of games on the AEC env `make_env()`: `"all"` (both sides) and per side. A
    side plays uniformly random legal actions unless `agents` gives it an agent (`act(obs, mask)`)."""
    env = make_env()
    rng = np.random.default_rng(seed)
    agents = dict(agents or {})
    counts: dict[str, int] = {}
    for k in range(games):
        env.reset(seed=seed + k, options=options)
        while env.state_dict()["outcome"] is None:
            side = env.agent_selection
            seen = env.observe(side)
            if side in agents:
                action = int(agents[side].act(seen["observation"], seen["action_mask"]))
            else:
                action = int(rng.choice(np.flatnonzero(seen["action_mask"])))
            env.step(action)
            counts[side] = counts.get(side, 0) + 1
    out = {side: n / games for side, n in counts.items()}
    out["all"] = sum(counts.values()) / games
    return out


def vector_rate(make_vec: Callable[[int, int, str], Any], num_envs: int, threads: int, opponent: str,
                seconds: float, seed: int, repeats: int = 1, until_a_game_ends: bool = True) -> dict[str, Any]:
    """Learner steps/s and finished games/s of the vector env `make_vec(num_envs, threads,
    opponent)` stepped with random legal actions (the medians of `repeats` runs of about
    `seconds`, each run lasting until a game has ended too unless `until_a_game_ends` is False)."""
    env = make_vec(num_envs, threads, opponent)
    env.reset(seed=seed)
    for _ in range(3):  # warm-up
        env.step(env.sample_actions())
    step_rates, game_rates, total = [], [], 0.0
    for _ in range(repeats):
        steps = games = 0
        t0 = time.perf_counter()
        # Until a game has ended too: a short window on a starved machine could otherwise report 0 games/s.
        while (elapsed := time.perf_counter() - t0) < seconds or (until_a_game_ends and games == 0):
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


def ladder_speed(versus: Any, deals: int, slow_deals: int, threads: int, seed: int) -> dict[str, Any]:
    """The rated ladder's cost (`versus` a `maquis.common.rate.VersusGame`): the wall clock of a
    `deals`-deal ladder of the game's fast agents (start-up and bootstrap fits included), and for
    each slower level its seconds a game against the heuristic, both seats, over `slow_deals` deals
    (one thread, so that the figure is a core's)."""
    from .ladder import deal_games, play_ladder

    t0 = time.perf_counter()
    play_ladder(versus.ladder, versus.fast_agents, deals=deals, seed=seed, threads=threads)
    fast = {"agents": list(versus.fast_agents), "deals": deals, "games": deals * len(versus.fast_agents)
            * (len(versus.fast_agents) - 1), "threads": threads, "seconds": round(time.perf_counter() - t0, 3)}
    slow = []
    for level in versus.ladder.agents:
        if level in versus.fast_agents:
            continue
        versus.ladder.prepare([level])
        games = [game for k in range(slow_deals) for game in deal_games(level, "heuristic", seed, k)]
        t0 = time.perf_counter()
        versus.ladder.play_games(games, versus.ladder.default_budget, 1)
        slow.append({"agent": level, "games": len(games), "budget": versus.ladder.default_budget,
                     "seconds_per_game": round((time.perf_counter() - t0) / len(games), 4)})
    return {"fast_ladder": fast, "levels": slow}


def bench_ladder(versus: Any, settings: Mapping[str, Any], seed: int, text: bool, deals: int = 1000,
                 slow_deals: int = 4, quick_deals: int = 20) -> dict[str, Any]:
    """`ladder_speed` as a `bench` verb measures it (`deals` fast deals on the largest of the
    `--threads`, `slow_deals` of each slower level; --quick: `quick_deals` and 1), printed if `text`."""
    quick = settings["quick"]
    ladder = ladder_speed(versus, quick_deals if quick else deals, 1 if quick else slow_deals,
                          max(settings["threads"]), seed)
    if text:
        print_ladder_speed(ladder)
    return ladder


def print_ladder_speed(ladder: dict[str, Any]) -> None:
    """The lines of `ladder_speed`'s figures."""
    f = ladder["fast_ladder"]
    print(f"ladder of {','.join(f['agents'])}, {f['deals']} deals ({f['games']} games), {f['threads']} "
          f"thread{'s' if f['threads'] != 1 else ''}: {f['seconds']:.1f} s")
    for row in ladder["levels"]:
        print(f"ladder level {row['agent']} (budget {row['budget']}) against heuristic, 1 thread: "
              f"{row['seconds_per_game']:.3f} s a game")


def run_versus_bench(args: argparse.Namespace, raw_env: Callable[[], Any], make_vec: Callable[[int, int, str], Any],
                     engine_envs: int = 256, versus: Any = None) -> int:
    """A two-player game's `bench` verb with `args` (`maquis.common.cli.add_bench_arguments`,
    `--seed`): the engine at random play on one thread (`engine_envs` envs of `make_vec` against
    `random`, the decisions per game counted on the AEC env `raw_env()`), then the vector env
    with the `heuristic` opponent at each `--envs` x `--threads`, then, given the game's `versus`
    (its rating game), the ladder's cost (`ladder_speed`: 1000 fast deals on the largest
    `--threads`, 4 deals of each slower level: `bench_ladder`); printed, and `--json` written."""
    from .cli import bench_settings, write_json

    settings = bench_settings(args)
    seconds, repeats = settings["seconds"], settings["repeats"]
    text = args.json != "-"
    per_game = decisions_per_game(raw_env, 5 if settings["quick"] else 20, args.seed)["all"]
    engine = vector_rate(make_vec, engine_envs, 1, "random", seconds, args.seed, repeats)
    engine["decisions_per_game"] = per_game
    engine["decisions_per_s"] = engine["games_per_s"] * per_game
    if text:
        print(
            f"engine, random play, 1 thread ({engine_envs} envs): {engine['games_per_s']:,.0f} games/s, "
            f"~{engine['decisions_per_s']:,.0f} decisions/s ({per_game:.1f} decisions a game), "
            f"{engine['learner_steps_per_s']:,.0f} learner steps/s"
        )
    vector = []
    for n in settings["envs"]:
        for t in settings["threads"]:
            row = vector_rate(make_vec, n, t, "heuristic", seconds, args.seed, repeats)
            vector.append(row)
            if text:
                print(
                    f"vector env, {n} envs x {t} threads, heuristic opponent: "
                    f"{row['learner_steps_per_s']:,.0f} learner steps/s, {row['games_per_s']:,.0f} games/s"
                )
    figures: dict[str, Any] = {"settings": settings, "engine": engine, "vector": vector}
    if versus is not None:
        figures["ladder"] = bench_ladder(versus, settings, args.seed, text)
    if args.json:
        write_json(figures, args.json)
    return 0

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

3. The parts of a step, one thread, ``ENGINE_ENVS`` environments: the engine row again with the
   full float32 observation (the observation's cost is the difference of the two rows' times a
   step) and with the ``heuristic`` opponent (the opponent's own cost likewise, printed as its own
   line: the heuristic row less the random one).
4. The ``search`` opponent: the milliseconds of one searched decision (``command`` or
   ``volley_choice`` with a choice, ``--budget`` playouts, default 100) in positions of
   heuristic-against-heuristic games, the median and the largest of ``--search`` decisions (0:
   skipped).

The Rust side's own figures (``legal_mask``, the observation, ``apply`` and the opponents alone,
with no Python) are ``cargo bench --bench maurice`` and ``examples/maurice_speed.rs``.

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
    p.add_argument("--search", type=int, default=None, metavar="N",
                   help="searched decisions timed (default 10, --quick 1; 0 skips the search row)")
    p.add_argument("--budget", type=int, default=100, metavar="B",
                   help="the search's playouts per decision (default 100)")


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
    parts = []
    envs = 64 if settings["quick"] else ENGINE_ENVS
    for label, opponent, observation, dtype in (("random opponent, compact uint8", "random", "compact", "uint8"),
                                               ("random opponent, full float32", "random", "full", "float32"),
                                               ("heuristic opponent, compact uint8", "heuristic", "compact", "uint8")):
        row = vector_rate(lambda n, t, o: make_vec(n, t, o, observation, dtype), envs, 1, opponent, seconds, args.seed,
                          repeats, until_a_game_ends=False)
        row.update(part=label, observation=observation, dtype=dtype, us_per_step=1e6 / row["learner_steps_per_s"])
        parts.append(row)
        if text:
            print(f"parts, 1 thread ({envs} envs), {label}: {row['learner_steps_per_s']:,.0f} learner steps/s, "
                  f"{row['us_per_step']:.2f} us a step")
    # The heuristic opponent's own cost: its decisions (each with its observation and mask) are
    # what the heuristic row adds to the random one, per learner step.
    opponent_us = parts[2]["us_per_step"] - parts[0]["us_per_step"]
    if text:
        print(f"parts: the heuristic opponent's own cost, {opponent_us:.2f} us a learner step "
              f"(the heuristic row less the random one)")
    search = None
    decisions = args.search if args.search is not None else (1 if settings["quick"] else 10)
    if decisions > 0:
        search = search_times(raw_env, make_agent, decisions, args.budget, args.seed, options)
        if text:
            print(f"search, budget {args.budget}, {args.scenario}: median {search['median_ms']:.1f} ms a searched "
                  f"decision, max {search['max_ms']:.1f} ms ({decisions} decisions)")
    # The rated ladder's cost: its games last hundreds of decisions, so fewer deals than D-Day's 1000.
    from ..common.bench import bench_ladder
    from .tournament import VERSUS

    ladder = bench_ladder(VERSUS, settings, args.seed, text, deals=100, slow_deals=2, quick_deals=5)
    if args.json:
        write_json({"settings": settings, "engine": engine, "vector": vector, "parts": parts,
                    "opponent_us_per_step": opponent_us, "search": search, "ladder": ladder}, args.json)
    return 0


def search_times(raw_env, make_agent, decisions: int, budget: int, seed: int, options: dict) -> dict:
    """The wall milliseconds of `decisions` searched decisions (``command`` or ``volley_choice``
    with more than one legal action, at least 30 decisions apart) in heuristic-against-heuristic
    games on the AEC env, one search agent per game: median and max."""
    import statistics
    import time

    env = raw_env()
    times: list[float] = []
    game = 0
    while len(times) < decisions:
        env.reset(seed=seed + 1000 + game, options=options)
        agent = make_agent("search", seed + game, budget)
        players = {side: make_agent("heuristic", seed + game + k) for k, side in enumerate(env.possible_agents)}
        since = 0
        while env.state_dict()["outcome"] is None and len(times) < decisions:
            seen = env.observe(env.agent_selection)
            mask = seen["action_mask"]
            if since >= 30 and env.state_dict()["phase"] in ("command", "volley_choice") and mask.sum() > 1:
                t0 = time.perf_counter()
                action = int(agent.act(seen["observation"], mask))
                times.append(1e3 * (time.perf_counter() - t0))
                since = 0
            else:
                action = int(players[env.agent_selection].act(seen["observation"], mask))
            env.step(action)
            since += 1
        game += 1
    return {"budget": budget, "decisions": decisions, "median_ms": statistics.median(times), "max_ms": max(times),
            "times_ms": times}

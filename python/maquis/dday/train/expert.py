"""Expert iteration for D-Day 1944 (two players, hidden information): `maquis dday train`.

Generation 0: D1 `search` plays both sides of `--games0` games; the network learns to imitate its
moves for both seats (one-hot policy targets: the observation says which side moves) and to
predict the result for the side to move. Generation g >= 1: `network_search` with the network of
generation g-1 plays both sides, and the network learns its moves and results in the same way,
over the last `--window` generations of data. The games are played in Rust
(`maquis._core.dday.selfplay`, `--threads` threads, GIL released); torch only trains. The training
loop, checkpoint and curve are `maquis.train.common`'s, shared with `maquis train`.

`--init NET` starts the network from a weight file (its widths replace `--hidden`). With
`--distill SIDE=POLICY` (needs `--init`; once per side), generation 0 is a distillation instead
(`maquis.dday.train.distill`): each named side's moves from its saved policy, a side not named
keeps the `--init` network's, as soft targets; this is how the shipped network learned both seats
from PPO learners (docs/dday_training.md). `--recipe shipped` runs the whole chain that makes the
shipped network instead (`maquis.dday.train.recipe`).

Each generation: data in `OUT/data/gen<g>.npz`, the network in `OUT/net_gen<g>.safetensors`
(D-Day's fingerprint), a checkpoint (`OUT/checkpoint.pt`; a second run with the same OUT continues
after the last finished generation), and rows of `OUT/curve.csv` + `OUT/curve.png`: the win rate
with its 95% Wilson interval of `network` (and, with `--eval-search-episodes`, of
`network_search`) against each of `--eval-opponents`, from both seats, on the fixed evaluation
deals `--eval-seed`.. (never those of the training games, whose seeds start at `--seed` * 1,000,003).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # spinning OpenMP threads stall a busy 2-core machine

import numpy as np

from maquis._core import dday as _dday
from maquis.dday.train import recipe as dday_recipe
from maquis.train import common

CURVE_FIELDS = ["generation", "agent", "side", "opponent", "games", "win_rate", "ci_low", "ci_high", "draw_rate",
                "loss_rate", "samples", "policy_loss", "value_loss", "minutes"]
PROG = "maquis dday train"


def add_arguments(p: Any) -> None:
    p.add_argument("--out", required=True, help="run folder (created; an existing one is resumed)")
    p.add_argument("--generations", type=int, default=3, help="generations in all, generation 0 included")
    p.add_argument("--hidden", default="256,256", help="hidden widths of the MLP trunk")
    p.add_argument("--games0", type=int, default=400, help="games of generation 0 (search against search)")
    p.add_argument("--teacher0-budget", type=int, default=100, help="generation 0's search: simulations per searched decision")
    p.add_argument("--games", type=int, default=200, help="games per later generation (network_search against itself)")
    p.add_argument("--budget", type=int, default=100, help="network_search in self-play: simulations per searched decision")
    p.add_argument("--window", type=int, default=3, help="generations of data each training uses")
    p.add_argument("--init", default=None, metavar="FILE",
                   help="a D-Day weight file the network starts from (its hidden widths replace --hidden)")
    p.add_argument("--distill", action="append", default=None, metavar="SIDE=POLICY",
                   help="generation 0 distils: SIDE's moves from the saved POLICY (a maquis-mlp-v1 file), a side not "
                        "named from the --init network, in games against --distill-opponents (needs --init; "
                        "once per side)")
    p.add_argument("--distill-games", type=int, default=6000, help="games a side of the distillation generation")
    p.add_argument("--distill-opponents", default="heuristic,network",
                   help="comma-separated bundled opponents of the distillation games ('network': the --init network)")
    common.add_training_arguments(p, epochs=6, batch_size=256)
    p.add_argument("--eval-opponents", default="random,heuristic", help="comma-separated opponents of the curve")
    p.add_argument("--eval-episodes", type=int, default=300, help="games per seat and opponent of the network alone")
    p.add_argument("--eval-search-episodes", type=int, default=0,
                   help="games per seat and opponent of network_search (0: skip; it costs a search game each)")
    p.add_argument("--eval-budget", type=int, default=200, help="the evaluated searches' simulations per decision")
    p.add_argument("--eval-seed", type=int, default=2025, help="first deal of the evaluation games (the same every generation)")
    p.add_argument("--seed", type=int, default=1, help="seed of the self-play games and of torch")
    p.add_argument("--threads", type=int, default=2, help="threads for the games and for torch")
    p.add_argument("--recipe", default=None, choices=dday_recipe.RECIPES,
                   help="run a whole recipe instead, in --out with --threads, the other options its own: 'shipped' "
                        "makes the shipped network (expert iteration, two PPO learners, a distillation; hours)")
    p.add_argument("--recipe-scale", type=float, default=1.0,
                   help="the recipe's games, steps and minutes times this (a small one checks the chain quickly)")


def play(args: Any, generation: int, net_path: Path | None, model: Any = None) -> dict[str, np.ndarray]:
    """The games of one generation, played in Rust, with one-hot policy targets and unit weights;
    with `--distill`, generation 0 is `maquis.dday.train.distill`'s (soft targets)."""
    seed = args.seed * 1_000_003 + generation * 100_000
    if generation == 0 and args.distill:
        from maquis.dday.agents import load_network
        from maquis.dday.train import distill as dday_distill

        load_network(args.init)  # the `network` opponent is the starting network
        return dday_distill.play(args, model, lambda line: print(line, flush=True))
    if generation == 0:
        data = _dday.selfplay("search", args.games0, seed, budget=args.teacher0_budget, threads=args.threads)
    else:
        data = _dday.selfplay("network_search", args.games, seed, budget=args.budget, network=str(net_path),
                              threads=args.threads)
    policy = np.zeros(data["masks"].shape, np.float32)
    policy[np.arange(len(policy)), data["action"]] = 1.0
    return {**data, "policy": policy, "weight": np.ones(len(policy), np.float32)}


def initial_model(path: str) -> Any:
    """The network of `--init` as a torch model, or None (after saying why) when it is not a D-Day
    weight file."""
    from maquis.dday.agents import load_network
    from maquis.train.model import model_from_file

    try:
        load_network(path)  # checks the file is D-Day's (its fingerprint) before torch reads it
        return model_from_file(path)
    except (OSError, ValueError, RuntimeError, KeyError) as e:
        print(f"{PROG}: --init {path}: {e}", file=sys.stderr)
        return None


def teacher_name(args: Any, generation: int) -> str:
    if generation > 0:
        return f"network_search@{args.budget}"
    if args.distill:
        return f"distill {' '.join(args.distill)} with the --init network"
    return f"search@{args.teacher0_budget}"


def evaluate_generation(args: Any, net_path: Path) -> list[dict[str, Any]]:
    """`network` (and `network_search`) of `net_path` against each evaluation opponent, both seats."""
    from maquis.common.evaluation import wilson_interval
    from maquis.dday import evaluate
    from maquis.dday.agents import load_network

    load_network(net_path)
    opponents = [o.strip() for o in args.eval_opponents.split(",") if o.strip()]
    agents = [("network", args.eval_episodes)]
    if args.eval_search_episodes > 0:
        agents.append(("network_search", args.eval_search_episodes))
    rows = []
    for agent, episodes in agents:
        result = evaluate(agent, side="both", opponents=opponents, episodes=episodes, seed=args.eval_seed,
                          budget=args.eval_budget)
        for r in result.rows:
            lo, hi = wilson_interval(r.counts["win"], r.episodes)
            rows.append({"agent": agent, "side": r.side, "opponent": r.opponent, "games": r.episodes,
                         "win_rate": r.counts["win"] / r.episodes, "ci_low": lo, "ci_high": hi,
                         "draw_rate": r.rate("draw"), "loss_rate": r.rate("loss")})
    return rows


def run(args: Any) -> int:
    if args.recipe:
        return dday_recipe.run(args)
    try:
        import torch

        from maquis.train.model import PolicyValueNet, save_network
    except ImportError as e:
        print(f"{PROG}: needs torch (pip install \"maquis[train]\"): {e}", file=sys.stderr)
        return 2
    from maquis.dday.network import network_file_metadata

    for name in ("generations", "games0", "games", "teacher0_budget", "budget", "epochs", "batch_size", "window",
                 "distill_games"):
        if getattr(args, name) < 1:
            print(f"{PROG}: --{name.replace('_', '-')} must be at least 1", file=sys.stderr)
            return 2
    if args.distill:
        from maquis.dday.train.distill import parse_distill

        if not args.init:
            print(f"{PROG}: --distill needs --init (the network it starts from, and the `network` opponent)",
                  file=sys.stderr)
            return 2
        try:
            parse_distill(args.distill)
        except ValueError as e:
            print(f"{PROG}: {e}", file=sys.stderr)
            return 2
    torch.set_num_threads(max(1, args.threads))
    out = Path(args.out)
    if args.init:
        model = initial_model(args.init)
        if model is None:
            return 2
        hidden = model.hidden
    else:
        hidden = common.hidden_widths(args.hidden, PROG)
        model = PolicyValueNet(hidden, "observation", _dday.OBSERVATION_SIZE, _dday.NUM_ACTIONS)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    start = common.open_run(out, model, opt, args, PROG, CURVE_FIELDS,
                            {"hidden": hidden, "game": "dday1944"})
    if start is None:
        return 2
    t0 = time.perf_counter()
    for g in range(start, args.generations):
        data_path = out / "data" / f"gen{g}.npz"
        if not data_path.exists():
            t = time.perf_counter()
            data = play(args, g, out / f"net_gen{g - 1}.safetensors" if g > 0 else None, model)
            np.savez_compressed(data_path, **data)
            outcomes = np.bincount(data["game_outcomes"], minlength=3)
            print(f"generation {g}: {len(data['game_outcomes'])} games (draw {outcomes[0]}, resistance {outcomes[1]}, "
                  f"german {outcomes[2]}), {len(data['obs'])} samples in {time.perf_counter() - t:.0f} s", flush=True)
        window = [np.load(out / "data" / f"gen{k}.npz") for k in range(max(0, g - args.window + 1), g + 1)]
        train = {k: np.concatenate([w[k] for w in window]) for k in ("obs", "masks", "policy", "outcome", "weight")}
        t = time.perf_counter()
        pl, vl = common.train_on(model, opt, train, args, np.random.default_rng(args.seed + g))
        print(f"generation {g}: trained on {len(train['obs'])} samples in {time.perf_counter() - t:.0f} s "
              f"(policy loss {pl:.3f}, value loss {vl:.3f})", flush=True)
        net_path = out / f"net_gen{g}.safetensors"
        info = {"generation": g, "hidden": list(hidden), "samples": int(len(train["obs"])),
                "teacher": teacher_name(args, g), "init": args.init,
                "seed": args.seed, "command": "maquis dday train " + " ".join(sys.argv[3:])}
        save_network(model, str(net_path), info, network_file_metadata(), dtype=args.storage)
        common.save_checkpoint(out, g, model, opt, hidden=list(hidden), game="dday1944")
        rows = evaluate_generation(args, net_path)
        minutes = round((time.perf_counter() - t0) / 60, 2)
        common.append_curve(out / "curve.csv", CURVE_FIELDS, [
            {"generation": g, **r, "samples": len(train["obs"]), "policy_loss": round(pl, 4),
             "value_loss": round(vl, 4), "minutes": minutes} for r in rows])
        for r in rows:
            print(f"generation {g}: {r['agent']} as {r['side']} vs {r['opponent']} wins {100 * r['win_rate']:.1f}% "
                  f"[{100 * r['ci_low']:.1f}, {100 * r['ci_high']:.1f}] over {r['games']} games", flush=True)
        common.plot_curve(out / "curve.csv", out / "curve.png", ("agent", "side", "opponent"),
                          "wins, % (95% CI), fixed evaluation deals")
    return 0


__all__ = ["add_arguments", "run", "play", "evaluate_generation", "CURVE_FIELDS"]

"""Expert iteration for Maquis (a single-player stochastic game): `maquis train`.

Generation 0: the bundled agents play games (`--teacher0`, default the determinized search); the
network learns to imitate their moves (one-hot policy targets) and to predict the outcome.
Generation g >= 1: the network-guided search with the network of generation g-1 plays games
(Gumbel noise on its prior for exploration); the network learns its improved policy (softmax of
prior logits + the search's completed values) and the outcomes. The games are played in Rust
(`maquis._core.maquis.selfplay`, all threads, GIL released); torch only trains.

Each generation: data in `OUT/data/gen<g>.npz`, the network in `OUT/net_gen<g>.safetensors`, a
checkpoint (`OUT/checkpoint.pt`: model, optimizer, the generation reached; a second run with the
same OUT continues from it), and rows of the learning curve `OUT/curve.csv` + `OUT/curve.png`: the
win rate (wins + major wins) with its 95% Wilson interval of the network alone and of the guided
search on fixed evaluation seeds (`maquis.evaluate`).
"""

from __future__ import annotations

import csv
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # spinning OpenMP threads stall a busy 2-core machine

import numpy as np

from maquis._core import maquis as _core
from maquis.maquis.evaluation import evaluate, wilson_interval
from maquis.maquis.network import network_metadata
from maquis.maquis.tables import DIFFICULTIES
from maquis.train import common

# torch is imported in `run` (through maquis.train.model), so that `maquis --help` and the other
# subcommands never pay for it, and a missing torch is a clear message.

CURVE_FIELDS = ["generation", "agent", "difficulty", "games", "win_rate", "ci_low", "ci_high", "draw_rate",
                "loss_rate", "samples", "policy_loss", "value_loss", "minutes"]


def add_arguments(p: Any) -> None:
    p.add_argument("--out", required=True, help="run folder (created; an existing one is resumed)")
    p.add_argument("--generations", type=int, default=4, help="generations in all, generation 0 included")
    p.add_argument("--hidden", default="256,256", help="hidden widths of the MLP trunk")
    p.add_argument("--inputs", choices=_core.NETWORK_INPUTS, default="observation",
                   help="what the network reads: the observation, or also the heuristic's 4 best moves "
                        "(observation+heuristic4: planes in the input and a weight per plane in the logits)")
    p.add_argument("--teacher0", default="search",
                   help="generation 0's players: 'heuristic' or 'search', or a list with game counts and optional "
                        "policy-loss weights such as 'search:1800:3,heuristic:20000' (imitation data of both); "
                        "'search@very_hard:900' plays that part on its own levels ('@hard+very_hard') instead of --difficulties")
    p.add_argument("--games0", type=int, default=400, help="games of generation 0 per teacher with no count")
    p.add_argument("--teacher0-simulations", type=int, default=64, help="generation 0's search teacher: simulations per move")
    p.add_argument("--games", type=int, default=400, help="games per later generation")
    p.add_argument("--difficulties", default="normal", help="comma-separated levels the games cycle through")
    p.add_argument("--simulations", type=int, default=64, help="guided search in self-play: leaf evaluations")
    p.add_argument("--candidates", type=int, default=8, help="guided search in self-play: the network's best moves searched")
    p.add_argument("--depth", type=int, default=4, help="guided search in self-play: greedy network moves before the value")
    p.add_argument("--rollout-mix", type=float, default=0.0,
                   help="guided search in self-play: share of a heuristic rollout's result in the leaf value (0: the network's value alone)")
    p.add_argument("--gumbel-scale", type=float, default=1.0, help="self-play exploration (0: none)")
    p.add_argument("--heuristic-candidates", type=int, default=0,
                   help="guided search in self-play: the heuristic's best moves added to the network's candidates")
    p.add_argument("--prior-weight", type=float, default=1.0,
                   help="guided search in self-play: weight of the network's logits beside the values (0: values alone)")
    p.add_argument("--progress-bonus", type=float, default=0.0,
                   help="guided search in self-play: value per unit of progress on open missions added at the leaves")
    p.add_argument("--window", type=int, default=3, help="generations of data each training uses")
    p.add_argument("--keep0", action="store_true",
                   help="every generation also trains on generation 0's imitation data (beyond --window)")
    common.add_training_arguments(p, epochs=4, batch_size=512)
    p.add_argument("--eval-episodes", type=int, default=200, help="games per evaluation of the network alone")
    p.add_argument("--eval-search-episodes", type=int, default=100, help="games per evaluation of the guided search (0: skip)")
    p.add_argument("--eval-simulations", type=int, default=None,
                   help="the evaluated network_search's budget (default: its own, maquis.maquis.agents.DEFAULT_NETWORK_SEARCH)")
    p.add_argument("--eval-seed", type=int, default=2025, help="seed of the evaluation games (the same every generation)")
    p.add_argument("--eval-difficulty", default="normal", help="the level of the evaluation games")
    p.add_argument("--seed", type=int, default=1, help="seed of the self-play games and of torch")
    p.add_argument("--threads", type=int, default=2, help="threads for the games and for torch")


def _hidden(text: str) -> tuple[int, ...]:
    return common.hidden_widths(text, "maquis train")


class Teacher(NamedTuple):
    """One part of generation 0: a bundled player, its games, the weight of its samples in the
    policy loss, and the levels its games cycle through (empty: `--difficulties`)."""

    name: str
    games: int
    weight: float = 1.0
    levels: tuple[str, ...] = ()

    def cache_name(self) -> str:
        """The part's file in `OUT/data` (the levels in the name only when the part sets them)."""
        at = "@" + "+".join(self.levels) if self.levels else ""
        return f"gen0.{self.name}{at}{self.games}.npz"


def teachers0(text: str, default_games: int) -> list[Teacher]:
    """`'search:500:3,heuristic:4000,search@very_hard:900'` -> each player (`name[@level+level]`),
    its number of games and the weight of its samples in the policy loss (1 by default)."""
    parts = []
    for item in (x.strip() for x in text.split(",") if x.strip()):
        player, _, rest = item.partition(":")
        name, at, level_text = player.partition("@")
        count, _, weight = rest.partition(":")
        if name not in ("heuristic", "search"):
            raise SystemExit(f"maquis train: --teacher0 players are 'heuristic' or 'search', got {name!r}")
        levels = tuple(x for x in level_text.split("+") if x)
        if at and not levels:
            raise SystemExit(f"maquis train: --teacher0 {item!r}: '@' must be followed by levels (e.g. search@very_hard:900)")
        for lvl in levels:
            if lvl not in DIFFICULTIES:
                raise SystemExit(f"maquis train: --teacher0 {item!r}: unknown difficulty {lvl!r}, expected one of {', '.join(DIFFICULTIES)}")
        try:
            games = int(count) if count else default_games
        except ValueError:
            raise SystemExit(f"maquis train: --teacher0 game counts must be integers, got {item!r}")
        try:
            w = float(weight) if weight else 1.0
        except ValueError:
            raise SystemExit(f"maquis train: --teacher0 weights must be numbers, got {item!r}")
        if not (w > 0 and np.isfinite(w)):
            raise SystemExit(f"maquis train: --teacher0 weights must be positive, got {item!r}")
        parts.append(Teacher(name, games, w, levels))
    if not parts:
        raise SystemExit("maquis train: --teacher0 names no player")
    return parts


def concat(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Samples of several sets of games as one (game indices renumbered)."""
    out: dict[str, list[np.ndarray]] = {k: [] for k in parts[0]}
    games = 0
    for p in parts:
        for k, v in p.items():
            out[k].append(v + games if k == "game" else v)
        games += len(p["game_outcomes"])
    return {k: np.concatenate(v) for k, v in out.items()}


def play(args: Any, generation: int, net_path: Path | None, data_dir: Path | None = None) -> dict[str, np.ndarray]:
    """The games of one generation, played in Rust (generation 0's parts cached in `data_dir`)."""
    levels = [d.strip() for d in args.difficulties.split(",") if d.strip()]
    seed = args.seed * 1_000_003 + generation * 100_000
    if generation == 0:
        parts = []
        for k, t in enumerate(teachers0(args.teacher0, args.games0)):
            cache = data_dir / t.cache_name() if data_dir else None
            if cache and cache.exists():
                part = dict(np.load(cache))
            else:
                part = _core.selfplay(t.name, t.games, seed + k * 10_000_000, difficulties=list(t.levels) or levels,
                                      simulations=args.teacher0_simulations, threads=args.threads)
                if cache:
                    np.savez_compressed(cache, **part)
            part["weight"] = np.full(len(part["obs"]), t.weight, np.float32)
            parts.append(part)
        return concat(parts)
    net = _core.Network.load(str(net_path))
    return _core.selfplay("network_search", args.games, seed, difficulties=levels, network=net,
                          simulations=args.simulations, candidates=args.candidates, depth=args.depth,
                          rollout_mix=args.rollout_mix, gumbel_scale=args.gumbel_scale,
                          heuristic_candidates=args.heuristic_candidates, prior_weight=args.prior_weight,
                          progress_bonus=args.progress_bonus, threads=args.threads)


def train_on(model: Any, opt: Any, data: dict[str, np.ndarray], args: Any,
             rng: np.random.Generator) -> tuple[float, float]:
    """`args.epochs` passes over `data` (see `maquis.train.common.train_on`); a network that reads
    the heuristic planes gets them built from the observations."""
    rows = None
    if model.planes:
        import torch

        from maquis.maquis.network import heuristic_planes, heuristic_ranks

        obs = torch.from_numpy(data["obs"])
        ranks, gaps = heuristic_ranks(data["obs"], data["masks"])

        def rows(idx: Any) -> Any:
            planes = torch.from_numpy(heuristic_planes(ranks[idx.numpy()], gaps[idx.numpy()]))
            return torch.cat([obs[idx], planes], dim=1)
    return common.train_on(model, opt, data, args, rng, rows)


def evaluate_generation(args: Any, net_path: Path) -> list[dict[str, Any]]:
    from maquis.maquis.agents import NetworkAgent, NetworkSearchAgent

    agents: list[Any] = [NetworkAgent(str(net_path))]
    if args.eval_search_episodes > 0:
        agents.append(NetworkSearchAgent(str(net_path), args.eval_simulations, seed=args.eval_seed))
    rows = []
    for agent in agents:
        episodes = args.eval_episodes if agent.name == "network" else args.eval_search_episodes
        r = evaluate(agent, args.eval_difficulty, episodes, args.eval_seed, num_threads=args.threads).row(args.eval_difficulty)
        wins = r.counts["win"] + r.counts["major_win"]
        lo, hi = wilson_interval(wins, r.episodes)
        rows.append({"agent": agent.name, "difficulty": args.eval_difficulty, "games": r.episodes,
                     "win_rate": wins / r.episodes, "ci_low": lo, "ci_high": hi,
                     "draw_rate": r.rate("draw"), "loss_rate": r.rate("loss")})
    return rows


def plot_curve(csv_path: Path, png_path: Path) -> None:
    """The curve's PNG: one series per evaluated agent (`maquis.train.common.plot_curve`)."""
    with open(csv_path) as f:
        first = next(csv.DictReader(f), None)
    level = first["difficulty"] if first else ""
    common.plot_curve(csv_path, png_path, ("agent",), f"wins incl. major, % (95% CI), {level}")


def run(args: Any) -> int:
    try:
        import torch

        from maquis.train.model import PolicyValueNet, save_network
    except ImportError as e:
        print(f"maquis train: needs torch (pip install \"maquis[train]\"): {e}", file=sys.stderr)
        return 2
    hidden = _hidden(args.hidden)
    if args.generations < 1:
        print("maquis train: --generations must be at least 1", file=sys.stderr)
        return 2
    torch.set_num_threads(max(1, args.threads))
    out = Path(args.out)
    planes = 0 if args.inputs == "observation" else _core.HEURISTIC_PLANES
    model = PolicyValueNet(hidden, args.inputs, _core.OBS_SIZE, _core.NUM_ACTIONS, planes)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    curve_path = out / "curve.csv"
    start = common.open_run(out, model, opt, args, "maquis train", CURVE_FIELDS,
                            {"hidden": hidden, "inputs": args.inputs})
    if start is None:
        return 2
    t0 = time.perf_counter()
    for g in range(start, args.generations):
        prev = out / f"net_gen{g - 1}.safetensors"
        data_path = out / "data" / f"gen{g}.npz"
        if data_path.exists():
            data = dict(np.load(data_path))
        else:
            t = time.perf_counter()
            data = play(args, g, prev if g > 0 else None, out / "data")
            np.savez_compressed(data_path, **data)
            outcomes = np.bincount(data["game_outcomes"], minlength=4)
            print(f"generation {g}: {len(data['game_outcomes'])} games ({dict(zip(_core.OUTCOMES, outcomes.tolist()))}), "
                  f"{len(data['obs'])} samples in {time.perf_counter() - t:.0f} s", flush=True)
        gens = range(max(0, g - args.window + 1), g + 1)
        if args.keep0 and 0 not in gens:
            gens = [0, *gens]
        window = [np.load(out / "data" / f"gen{k}.npz") for k in gens]
        keys = ("obs", "masks", "policy", "outcome")
        train = {k: np.concatenate([w[k] for w in window]) for k in keys}
        train["weight"] = np.concatenate([w["weight"] if "weight" in w else np.ones(len(w["obs"]), np.float32)
                                          for w in window])
        rng = np.random.default_rng(args.seed + g)
        t = time.perf_counter()
        pl, vl = train_on(model, opt, train, args, rng)
        print(f"generation {g}: trained on {len(train['obs'])} samples in {time.perf_counter() - t:.0f} s "
              f"(policy loss {pl:.3f}, value loss {vl:.3f})", flush=True)
        net_path = out / f"net_gen{g}.safetensors"
        info = {"generation": g, "hidden": list(hidden), "inputs": args.inputs, "samples": int(len(train["obs"])),
                "teacher": args.teacher0 if g == 0 else "network_search", "seed": args.seed,
                "command": "maquis train " + " ".join(sys.argv[2:]) if sys.argv[1:2] == ["train"] else ""}
        save_network(model, str(net_path), info, network_metadata(model.inputs), dtype=args.storage)
        common.save_checkpoint(out, g, model, opt, hidden=list(hidden), inputs=args.inputs)
        rows = evaluate_generation(args, net_path)
        minutes = (time.perf_counter() - t0) / 60
        with open(curve_path, "a", newline="") as f:
            w = csv.DictWriter(f, CURVE_FIELDS)
            for r in rows:
                w.writerow({"generation": g, **r, "samples": len(train["obs"]), "policy_loss": round(pl, 4),
                            "value_loss": round(vl, 4), "minutes": round(minutes, 2)})
                print(f"generation {g}: {r['agent']} wins {100 * r['win_rate']:.1f}% "
                      f"[{100 * r['ci_low']:.1f}, {100 * r['ci_high']:.1f}] over {r['games']} games", flush=True)
        plot_curve(curve_path, out / "curve.png")
    return 0


__all__ = ["Teacher", "teachers0", "add_arguments", "run", "play", "train_on", "evaluate_generation", "plot_curve"]

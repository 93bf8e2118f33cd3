"""The shipped D-Day network from one command: `maquis dday train --recipe shipped --out DIR`.

The recipe is the four steps of docs/dday_training.md ("Making the shipped network"), each in its own
folder of `DIR`, run in turn in this process:

1. `1_expert_iteration`: expert iteration for both seats (`maquis dday train`, 6 generations),
   then the choice of its generation (`choice.csv`, `chosen.safetensors`): the one whose network
   wins most against the heuristic, mean of both seats, over 2,000 games a seat;
2. `2_ppo_german`: masked PPO from scratch as the German against the search Resistance
   (`maquis.dday.train.ppo`, 400,000 learner steps);
3. `3_ppo_resistance`: masked PPO as the Resistance against the heuristic German, warm-started by
   imitating step 1's network (45 minutes);
4. `4_distill`: one distillation generation: each seat from its PPO learner into step 1's network.

Step 1's generations differ by several points as the Resistance (their 300-game curve cannot
tell them apart), so the recipe measures them rather than taking the last.

The network is then copied to `DIR/dday.safetensors` (what `python/maquis/dday/networks/` ships). Each
step resumes as its own command does (expert iteration after its last finished generation, PPO
from its checkpoint), and a finished step is not run again, so the same command continues a run
that was stopped. `--recipe-scale S` multiplies every count of games, steps and minutes by S (at
least one of each): a small S checks the whole chain in minutes, it does not make the network.
"""

from __future__ import annotations

import csv
import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RECIPES = ("shipped",)
PROG = "maquis dday train --recipe"
EXPERT_GENERATIONS = 6


@dataclass(frozen=True)
class Step:
    folder: str
    kind: str  # "expert" (maquis dday train) or "ppo" (maquis.dday.train.ppo)
    argv: Callable[[Path, Callable[..., str], int], list[str]]  # (DIR, scaled count, threads) -> arguments
    result: str  # the file of its folder that the step writes last: there when the step is done
    choose: bool = False  # then choose the generation that later steps use (`choose_generation`)

    def done(self, root: Path) -> bool:
        return (root / self.folder / self.result).exists()


CHOSEN_NET = "chosen.safetensors"
# Step 1's choice: games a seat against the heuristic per generation, on the curve's evaluation
# deals (never those of training games).
CHOICE_GAMES = 2000
CHOICE_SEED = 2025


def _expert_net(root: Path) -> Path:
    return root / "1_expert_iteration" / CHOSEN_NET


STEPS = (
    Step("1_expert_iteration", "expert",
         lambda root, n, threads: ["--generations", str(EXPERT_GENERATIONS), "--games0", n(300), "--teacher0-budget",
                                   n(50), "--games", n(120), "--budget", n(50), "--eval-episodes", n(300),
                                   "--hidden", "256,256", "--threads", str(threads), "--seed", "1"],
         CHOSEN_NET, choose=True),
    Step("2_ppo_german", "ppo",
         lambda root, n, threads: ["--side", "german", "--opponent", "search", "--total-steps", n(400_000),
                                   "--opponent-budget", n(200), "--eval-every", "0", "--eval-episodes", n(300),
                                   *_ppo_size(n),
                                   "--final-eval-episodes", n(1000),
                                   "--baselines", "heuristic,network", "--network", str(_expert_net(root)),
                                   "--threads", "1", "--env-threads", str(threads), "--seed", "1"],
         "final_eval.json"),
    Step("3_ppo_resistance", "ppo",
         lambda root, n, threads: ["--side", "resistance", "--opponent", "heuristic", "--network",
                                   str(_expert_net(root)), "--imitate", "network", "--imitate-minutes", n(3.0),
                                   "--bc-coef", "0.5", "--bc-decay-minutes", n(5.0), "--minutes", n(45.0),
                                   *_ppo_size(n),
                                   "--eval-every", "40", "--eval-episodes", n(300), "--final-eval-episodes", n(1000),
                                   "--baselines", "heuristic,network", "--threads", "1",
                                   "--env-threads", str(threads), "--seed", "44"],
         "final_eval.json"),
    Step("4_distill", "expert",
         lambda root, n, threads: ["--init", str(_expert_net(root)),
                                   "--distill", f"german={root / '2_ppo_german' / 'policy.npz'}",
                                   "--distill", f"resistance={root / '3_ppo_resistance' / 'policy.npz'}",
                                   "--distill-games", n(6000), "--generations", "1", "--lr", "3e-4",
                                   "--eval-episodes", n(300), "--threads", str(threads), "--seed", "1"],
         "net_gen0.safetensors"),
)


def scaled(scale: float) -> Callable[..., str]:
    """A count of the recipe times `scale`, as an argument: an int at least `least`, or minutes (a
    float) at least 0.01."""
    def n(count: float, least: int = 1) -> str:
        value = count * scale
        return str(max(least, round(value))) if isinstance(count, int) else f"{max(value, 0.01):g}"
    return n


def _ppo_size(n: Callable[..., str]) -> list[str]:
    """The PPO learners' batch: 64 games x 128 steps, scaled down with the recipe."""
    return ["--num-envs", n(64, 4), "--num-steps", n(128, 8)]


def step_arguments(step: Step, root: Path, scale: float, threads: int) -> list[str]:
    """The command-line arguments of `step` for the run folder `root`: its own folder, resumed
    from its checkpoint where it has one (PPO)."""
    folder = root / step.folder
    argv = ["--out", str(folder), *step.argv(root, scaled(scale), threads)]
    if step.kind == "ppo" and (folder / "checkpoint.pt").exists():
        argv += ["--resume", str(folder / "checkpoint.pt")]
    return argv


def choose_generation(folder: Path, games: int, seed: int = CHOICE_SEED) -> Path:
    """Of the networks `net_gen<g>.safetensors` in `folder`, the one whose `network` wins most
    against `heuristic`, mean of both seats over `games` deals a seat from `seed` (a tie: the later
    generation); writes every generation's figures to `choice.csv` and copies the winner to
    `chosen.safetensors`, which it returns."""
    from types import SimpleNamespace

    from maquis.dday.train.expert import evaluate_generation

    nets = sorted((int(p.stem.removeprefix("net_gen")), p) for p in folder.glob("net_gen*.safetensors"))
    if not nets:
        raise FileNotFoundError(f"no net_gen<g>.safetensors in {folder} to choose from")
    # The curve's evaluation of a generation, against the heuristic only and over more games.
    settings = SimpleNamespace(eval_opponents="heuristic", eval_episodes=games, eval_search_episodes=0,
                               eval_seed=seed, eval_budget=200)
    rows = []
    for generation, path in nets:
        row: dict[str, Any] = {"generation": generation, "games": games}
        for r in evaluate_generation(settings, path):
            row.update({f"{r['side']}_win": round(r["win_rate"], 4), f"{r['side']}_ci_low": round(r["ci_low"], 4),
                        f"{r['side']}_ci_high": round(r["ci_high"], 4)})
        row["mean"] = round((row["resistance_win"] + row["german_win"]) / 2, 5)
        rows.append(row)
        print(f"choice: generation {generation}: network wins {100 * row['resistance_win']:.1f}% as the "
              f"Resistance, {100 * row['german_win']:.1f}% as the German against heuristic over {games} games a seat",
              flush=True)
    best = max(rows, key=lambda r: (r["mean"], r["generation"]))
    with open(folder / "choice.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=[*rows[0], "chosen"])
        w.writeheader()
        w.writerows({**r, "chosen": r is best} for r in rows)
    chosen = folder / CHOSEN_NET
    partial = chosen.with_suffix(".partial")
    shutil.copyfile(folder / f"net_gen{best['generation']}.safetensors", partial)
    os.replace(partial, chosen)  # the step is done once this file is there, so it appears whole
    print(f"choice: generation {best['generation']} ({chosen})", flush=True)
    return chosen


def run_step(step: Step, argv: list[str]) -> int:
    if step.kind == "ppo":
        from maquis.dday.train import ppo as dday_ppo

        return dday_ppo.main(argv)
    import argparse

    from maquis.dday.train import expert as dday

    p = argparse.ArgumentParser(prog="maquis dday train")
    dday.add_arguments(p)
    return dday.run(p.parse_args(argv))


def run(args: Any) -> int:
    """Runs the steps of `args.recipe` not yet done in `args.out`; 0 when the network is written."""
    if args.recipe not in RECIPES:
        print(f"{PROG}: unknown recipe {args.recipe!r} (known: {', '.join(RECIPES)})", file=sys.stderr)
        return 2
    if not args.recipe_scale > 0:
        print(f"{PROG}: --recipe-scale must be positive, got {args.recipe_scale}", file=sys.stderr)
        return 2
    root = Path(args.out)
    root.mkdir(parents=True, exist_ok=True)
    threads = max(1, args.threads)
    for k, step in enumerate(STEPS, 1):
        if step.done(root):
            print(f"recipe step {k}/{len(STEPS)} {step.folder}: done already", flush=True)
            continue
        argv = step_arguments(step, root, args.recipe_scale, threads)
        print(f"recipe step {k}/{len(STEPS)} {step.folder}: {' '.join(argv)}", flush=True)
        rc = run_step(step, argv)
        if rc == 0 and step.choose:
            choose_generation(root / step.folder, int(scaled(args.recipe_scale)(CHOICE_GAMES)))
        if rc != 0 or not step.done(root):
            print(f"{PROG}: step {step.folder} failed (exit {rc}); the same command resumes it", file=sys.stderr)
            return rc or 1
    net = root / "dday.safetensors"
    shutil.copyfile(root / STEPS[-1].folder / STEPS[-1].result, net)
    print(f"wrote {net} (to ship it: cp {net} python/maquis/dday/networks/dday.safetensors)", flush=True)
    return 0


__all__ = ["RECIPES", "STEPS", "Step", "choose_generation", "run", "step_arguments", "scaled"]

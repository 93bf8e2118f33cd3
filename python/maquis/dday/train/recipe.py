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

The network is then copied to `DIR/dday.safetensors` (what `python/maquis/dday/networks/` ships).
The steps in folders, a finished step skipped, a stopped one resumed (PPO from its checkpoint),
`--recipe-scale` and the final copy are the shared `maquis.train.recipe`'s.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path
from typing import Any

from maquis.train.common import copy_whole
from maquis.train.recipe import Recipe, Step, add_recipe_arguments, command, resume_checkpoint, scaled, step_arguments
from maquis.train.recipe import run as run_recipe

RECIPES = ("shipped",)
PROG = "maquis dday train --recipe"
EXPERT_GENERATIONS = 6

CHOSEN_NET = "chosen.safetensors"
# Step 1's choice: games a seat against the heuristic per generation, on the curve's evaluation
# deals (never those of training games).
CHOICE_GAMES = 2000
CHOICE_SEED = 2025


def _expert_net(root: Path) -> Path:
    return root / "1_expert_iteration" / CHOSEN_NET


def _expert(argv: list[str]) -> int:
    from maquis.dday.train import expert as dday

    return command("maquis dday train", dday.add_arguments, dday.run)(argv)


def _ppo(argv: list[str]) -> int:
    from maquis.dday.train import ppo as dday_ppo

    return dday_ppo.main(argv)


def _choose(folder: Path, scale: float) -> Path:
    return choose_generation(folder, int(scaled(scale)(CHOICE_GAMES)))


STEPS = (
    Step("1_expert_iteration", _expert,
         lambda root, n, threads: ["--generations", str(EXPERT_GENERATIONS), "--games0", n(300), "--teacher0-budget",
                                   n(50), "--games", n(120), "--budget", n(50), "--eval-episodes", n(300),
                                   "--hidden", "256,256", "--threads", str(threads), "--seed", "1"],
         CHOSEN_NET, finish=_choose),
    Step("2_ppo_german", _ppo,
         lambda root, n, threads: ["--side", "german", "--opponent", "search", "--total-steps", n(400_000),
                                   "--opponent-budget", n(200), "--eval-every", "0", "--eval-episodes", n(300),
                                   *_ppo_size(n),
                                   "--final-eval-episodes", n(1000),
                                   "--baselines", "heuristic,network", "--network", str(_expert_net(root)),
                                   "--threads", "1", "--env-threads", str(threads), "--seed", "1"],
         "final_eval.json", resume=resume_checkpoint),
    Step("3_ppo_resistance", _ppo,
         lambda root, n, threads: ["--side", "resistance", "--opponent", "heuristic", "--network",
                                   str(_expert_net(root)), "--imitate", "network", "--imitate-minutes", n(3.0),
                                   "--bc-coef", "0.5", "--bc-decay-minutes", n(5.0), "--minutes", n(45.0),
                                   *_ppo_size(n),
                                   "--eval-every", "40", "--eval-episodes", n(300), "--final-eval-episodes", n(1000),
                                   "--baselines", "heuristic,network", "--threads", "1",
                                   "--env-threads", str(threads), "--seed", "44"],
         "final_eval.json", resume=resume_checkpoint),
    Step("4_distill", _expert,
         lambda root, n, threads: ["--init", str(_expert_net(root)),
                                   "--distill", f"german={root / '2_ppo_german' / 'policy.npz'}",
                                   "--distill", f"resistance={root / '3_ppo_resistance' / 'policy.npz'}",
                                   "--distill-games", n(6000), "--generations", "1", "--lr", "3e-4",
                                   "--eval-episodes", n(300), "--threads", str(threads), "--seed", "1"],
         "net_gen0.safetensors"),
)

SHIPPED = Recipe(PROG, STEPS, "dday.safetensors", "python/maquis/dday/networks/dday.safetensors")


def _ppo_size(n: Callable[..., str]) -> list[str]:
    """The PPO learners' batch: 64 games x 128 steps, scaled down with the recipe."""
    return ["--num-envs", n(64, 4), "--num-steps", n(128, 8)]


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
    copy_whole(folder / f"net_gen{best['generation']}.safetensors", chosen)  # the step is done once it is there
    print(f"choice: generation {best['generation']} ({chosen})", flush=True)
    return chosen


def add_arguments(p: Any) -> None:
    """`--recipe` and `--recipe-scale` of `maquis dday train`."""
    add_recipe_arguments(p, RECIPES, "'shipped' makes the shipped network (expert iteration, two PPO learners, a "
                                     "distillation; hours)")


def run(args: Any) -> int:
    """Runs the steps of `args.recipe` not yet done in `args.out`; 0 when the network is written."""
    return run_recipe(SHIPPED, args)


__all__ = ["RECIPES", "STEPS", "SHIPPED", "Step", "add_arguments", "choose_generation", "run", "step_arguments",
           "scaled"]

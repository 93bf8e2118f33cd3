"""Maurice Lite's shipped network from one command: `maquis maurice train --recipe shipped --out DIR`.

The recipe is three runs (docs/maurice_training.md, "Making the shipped network"), each in its
own folder of `DIR`, run in turn in this process, each gated (`--gate --gate-against heuristic`:
a network after the first is kept only if the rated ladder's sequential test says it is
stronger than the last kept one, the two compared through their games against the heuristic on
the same deals, since this game's networks draw every game against each other):

1. `1_expert_iteration`: expert iteration from scratch, 4 generations (generation 0 imitates
   `search` at 100 simulations over 300 games, then `network_search` at 50 over 150 games); its
   result `expert.safetensors` is the last kept generation;
2. `2_margin`: a second run from step 1's network (`--init`), 3 generations (generation 0 imitates
   `search` again over 200 games, starting from step 1's weights); its result
   `margin.safetensors` is the last kept generation;
3. `3_ppo`: masked PPO on step 2's network itself (`maquis.maurice.train.ppo --model network`),
   from both seats against the heuristic and `random`, on the outcome reward, 500,000 learner
   steps, evaluated every 20 updates; its result `ppo.safetensors` is the last evaluation's
   network the gate kept (the starting network when none passed).

Step 3's result is copied to `DIR/maurice.safetensors` (what `python/maquis/maurice/networks/`
ships). The steps in folders, a finished step skipped, a stopped one resumed (after its last
finished generation, or from the PPO checkpoint), `--recipe-scale` and the final copy are the
shared `maquis.train.recipe`'s. The same command with the same `--out`, `--threads` and torch
writes the same bytes (docs/maurice_training.md says what may differ).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from maquis.train.common import copy_whole
from maquis.train.recipe import (
    Recipe, Step, add_recipe_arguments, command, resume_checkpoint, keep_best, scaled, step_arguments,
)
from maquis.train.recipe import run as run_recipe

RECIPES = ("shipped",)
PROG = "maquis maurice train --recipe"
EXPERT_NET = "expert.safetensors"
MARGIN_NET = "margin.safetensors"
PPO_NET = "ppo.safetensors"


def _expert(argv: list[str]) -> int:
    from maquis.maurice.train import expert

    return command(expert.PROG, expert.add_arguments, expert.run)(argv)


def _ppo(argv: list[str]) -> int:
    from maquis.maurice.train import ppo

    return ppo.main(argv)


def _ppo_finish(folder: Path, scale: float) -> Path:
    """The PPO step's kept network (its best evaluation's) copied once the run is over."""
    from maquis.maurice.train.ppo import BEST_NETWORK_FILE

    copy_whole(folder / BEST_NETWORK_FILE, folder / PPO_NET)
    return folder / PPO_NET


def _gate(n: Any) -> list[str]:
    """The gate, scaled with the recipe: through the heuristic, since two networks of this game draw
    every game against each other (a drawn pair says nothing of strength)."""
    return ["--gate", "--gate-against", "heuristic", "--gate-max-pairs", n(2000)]


def _evaluation(n: Any) -> list[str]:
    """The curve's games and the gate, scaled with the recipe."""
    return ["--eval-episodes", n(100), "--eval-budget", n(50), *_gate(n)]


STEPS = (
    Step("1_expert_iteration", _expert,
         lambda root, n, threads: ["--generations", "4", "--games0", n(300), "--teacher0-budget", n(100),
                                   "--games", n(150), "--budget", n(50), "--hidden", "256,256", *_evaluation(n),
                                   "--threads", str(threads), "--seed", "1"],
         EXPERT_NET, finish=keep_best(EXPERT_NET)),
    Step("2_margin", _expert,
         lambda root, n, threads: ["--init", str(root / "1_expert_iteration" / EXPERT_NET), "--generations", "3",
                                   "--games0", n(200), "--teacher0-budget", n(100), "--games", n(150),
                                   "--budget", n(50), *_evaluation(n), "--threads", str(threads), "--seed", "2"],
         MARGIN_NET, finish=keep_best(MARGIN_NET)),
    # Deterministic: a budget of steps, not minutes, and one torch thread.
    Step("3_ppo", _ppo,
         lambda root, n, threads: ["--model", "network", "--init-network", str(root / "2_margin" / MARGIN_NET),
                                   "--side", "both", "--opponent", "heuristic", "--train-opponents", "heuristic,random",
                                   "--reward", "outcome", "--total-steps", n(500_000), "--num-envs", n(64, 4),
                                   "--num-steps", n(64, 8), "--lr", "1e-4", "--eval-every", "20",
                                   "--eval-episodes", n(100), "--eval-seed", "100000", *_gate(n), "--threads", "1",
                                   "--env-threads", str(threads), "--seed", "3"],
         PPO_NET, finish=_ppo_finish, resume=resume_checkpoint),
)

SHIPPED = Recipe(PROG, STEPS, "maurice.safetensors", "python/maquis/maurice/networks/maurice.safetensors")


def add_arguments(p: Any) -> None:
    """`--recipe` and `--recipe-scale` of `maquis maurice train`."""
    add_recipe_arguments(p, RECIPES, "'shipped' makes the shipped network (two expert-iteration runs, then PPO on the "
                                     "network, each gated through the heuristic; docs/maurice_training.md)")


def run(args: Any) -> int:
    """Runs the steps of `args.recipe` not yet done in `args.out`; 0 when the network is written."""
    return run_recipe(SHIPPED, args)


__all__ = ["RECIPES", "STEPS", "SHIPPED", "add_arguments", "run", "step_arguments", "scaled"]

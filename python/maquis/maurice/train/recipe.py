"""Maurice Lite's shipped network from one command: `maquis maurice train --recipe shipped --out DIR`.

The recipe is six runs (docs/maurice_training.md, "Making the shipped network"), each in its
own folder of `DIR`, run in turn in this process. The first three are gated (`--gate
--gate-against heuristic`: a network after the first is kept only if the rated ladder's
sequential test says it is stronger than the last kept one, the two compared through their games
against the heuristic on the same deals, since this game's networks draw every game against each
other):

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

The last three teach the walk to an army that stays home, which the first three never show
(their network drew every game against `random`):

4. `4_levels`: one generation from step 3's network imitating `search` at 100 simulations playing
   one side against `random`, the heuristic and `search` in turn (`--opponents0`), 1,200 games
   of the standard scenario, where the armies start far apart;
   its result `levels.safetensors`;
5. `5_walk`: masked PPO on step 4's network from both seats against the heuristic and `random`,
   200,000 learner steps, evaluated against `random` every 10 updates; its result
   `walk.safetensors` is the best evaluation's network (`--keep-best`: PPO here learns the walk
   within about 120,000 steps and then loses it);
6. `6_distill`: one generation from step 3's network imitating step 3's network against the
   heuristic (1,200 standard games: the finishing it learned there is what the walk must not
   cost) and step 5's against `random` (600) (`--teacher0`); its result
   `distill.safetensors`.

Step 6's result is copied to `DIR/maurice.safetensors` (what `python/maquis/maurice/networks/`
ships). `--recipe maps` runs the same six steps for a network that also reads the 15 map planes
through a convolution stem (step 1's `--maps 32,32`; the later steps start from its network).
The steps in folders, a finished step skipped, a stopped one resumed (after its last finished
generation, or from the PPO checkpoint), `--recipe-scale` and the final copy are the shared
`maquis.train.recipe`'s. The same command with the same `--out`, `--threads` and torch
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

RECIPES = ("shipped", "maps")
PROG = "maquis maurice train --recipe"
EXPERT_NET = "expert.safetensors"
MARGIN_NET = "margin.safetensors"
PPO_NET = "ppo.safetensors"
LEVELS_NET = "levels.safetensors"
WALK_NET = "walk.safetensors"
DISTILL_NET = "distill.safetensors"


def _expert(argv: list[str]) -> int:
    from maquis.maurice.train import expert

    return command(expert.PROG, expert.add_arguments, expert.run)(argv)


def _ppo(argv: list[str]) -> int:
    from maquis.maurice.train import ppo

    return ppo.main(argv)


def _kept_network(result: str) -> Any:
    """A PPO step's `finish`: its kept network (the gate's, or its best evaluation's) copied to
    `result` once the run is over."""
    def finish(folder: Path, scale: float) -> Path:
        from maquis.maurice.train.ppo import BEST_NETWORK_FILE

        copy_whole(folder / BEST_NETWORK_FILE, folder / result)
        return folder / result

    return finish


def _ppo_on(n: Any, threads: int, init: Path, opponent: str, steps: int, every: int, episodes: int,
            keep: list[str]) -> list[str]:
    """PPO on the network of `init` from both seats against the heuristic and `random`, on the
    outcome reward, evaluated against `opponent` every `every` updates, `keep` choosing the kept
    network. Deterministic: a budget of learner steps, not minutes, and one torch thread."""
    return ["--model", "network", "--init-network", str(init), "--side", "both", "--opponent", opponent,
            "--train-opponents", "heuristic,random", "--reward", "outcome", "--total-steps", n(steps),
            "--num-envs", n(64, 4), "--num-steps", n(64, 8), "--lr", "1e-4", "--eval-every", str(every),
            "--eval-episodes", n(episodes), "--eval-seed", "100000", *keep, "--threads", "1",
            "--env-threads", str(threads), "--seed", "3"]


def _bc(n: Any, epochs: int) -> list[str]:
    """A one-generation imitation's training pass and curve (no gate: generation 0 is never gated)."""
    return ["--generations", "1", "--epochs", str(epochs), "--batch-size", "512", "--lr", "5e-4",
            "--schedule", "onecycle", "--eval-episodes", n(100), "--eval-budget", n(50)]


def _gate(n: Any) -> list[str]:
    """The gate, scaled with the recipe: through the heuristic, since two networks of this game draw
    every game against each other (a drawn pair says nothing of strength)."""
    return ["--gate", "--gate-against", "heuristic", "--gate-max-pairs", n(2000)]


def _evaluation(n: Any) -> list[str]:
    """The curve's games and the gate, scaled with the recipe."""
    return ["--eval-episodes", n(100), "--eval-budget", n(50), *_gate(n)]


def _steps(maps: str) -> tuple[Step, ...]:
    """The six steps; `maps`: step 1's `--maps` (the later steps start from its network, stem included)."""
    stem = ["--maps", maps] if maps else []
    return (
        Step("1_expert_iteration", _expert,
             lambda root, n, threads: ["--generations", "4", "--games0", n(300), "--teacher0-budget", n(100),
                                       "--games", n(150), "--budget", n(50), "--hidden", "256,256", *stem,
                                       *_evaluation(n),
                                       "--threads", str(threads), "--seed", "1"],
             EXPERT_NET, finish=keep_best(EXPERT_NET)),
        Step("2_margin", _expert,
             lambda root, n, threads: ["--init", str(root / "1_expert_iteration" / EXPERT_NET), "--generations", "3",
                                       "--games0", n(200), "--teacher0-budget", n(100), "--games", n(150),
                                       "--budget", n(50), *_evaluation(n), "--threads", str(threads), "--seed", "2"],
             MARGIN_NET, finish=keep_best(MARGIN_NET)),
        Step("3_ppo", _ppo,
             lambda root, n, threads: _ppo_on(n, threads, root / "2_margin" / MARGIN_NET, "heuristic", 500_000, 20, 100,
                                              _gate(n)),
             PPO_NET, finish=_kept_network(PPO_NET), resume=resume_checkpoint),
        # The walk: search's moves against the levels (an army that stays home included), from step
        # 3's network, then PPO against `random` and the heuristic, kept by its games against `random`.
        Step("4_levels", _expert,
             lambda root, n, threads: ["--init", str(root / "3_ppo" / PPO_NET), "--games0", n(1200),
                                       "--teacher0-budget", n(100), "--opponents0", "random,heuristic,search",
                                       "--scenarios", "standard", *_bc(n, 3), "--threads", str(threads), "--seed", "4"],
             LEVELS_NET, finish=keep_best(LEVELS_NET)),
        Step("5_walk", _ppo,
             lambda root, n, threads: _ppo_on(n, threads, root / "4_levels" / LEVELS_NET, "random", 200_000, 10, 50,
                                              ["--keep-best"]),
             WALK_NET, finish=_kept_network(WALK_NET), resume=resume_checkpoint),
        # Step 3's network against the heuristic and step 5's against `random`, distilled into one
        # (twice the heuristic's games: one to one kept the walk and lost a fifth of the wins against it).
        Step("6_distill", _expert,
             lambda root, n, threads: ["--init", str(root / "3_ppo" / PPO_NET),
                                       "--teacher0", f"network@{root / '3_ppo' / PPO_NET}:heuristic:{n(1200)}",
                                       "--teacher0", f"network@{root / '5_walk' / WALK_NET}:random:{n(600)}",
                                       "--scenarios", "standard", *_bc(n, 4), "--threads", str(threads), "--seed", "6"],
             DISTILL_NET, finish=keep_best(DISTILL_NET)),
    )


STEPS = _steps("")
#: The `maps` recipe's stem: 32 channels over 3 x 3 patches of the planes, then 32 over 3 x 3 of
#: those with stride 2 (`maquis.maurice.train.expert.map_stem_layout`).
MAP_CHANNELS = "32,32"

SHIPPED = Recipe(PROG, STEPS, "maurice.safetensors", "python/maquis/maurice/networks/maurice.safetensors")
MAPS = Recipe(PROG, _steps(MAP_CHANNELS), "maurice.safetensors", "python/maquis/maurice/networks/maurice.safetensors")
RECIPE_OF = {"shipped": SHIPPED, "maps": MAPS}


def add_arguments(p: Any) -> None:
    """`--recipe` and `--recipe-scale` of `maquis maurice train`."""
    add_recipe_arguments(p, RECIPES, "'shipped' makes the shipped network (two expert-iteration runs and PPO on the network, "
                                     "each gated through the heuristic, then the walk: imitation against the levels, PPO "
                                     "against random and a distillation; docs/maurice_training.md); 'maps' the same "
                                     f"chain for a network with a convolution stem over the map planes (--maps {MAP_CHANNELS})")


def run(args: Any) -> int:
    """Runs the steps of `args.recipe` not yet done in `args.out`; 0 when the network is written."""
    return run_recipe(RECIPE_OF[args.recipe], args)


__all__ = ["RECIPES", "STEPS", "SHIPPED", "MAPS", "MAP_CHANNELS", "add_arguments", "run", "step_arguments", "scaled"]

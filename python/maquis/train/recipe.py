"""A shipped network from one resumable command, written once: `maquis <game> train --recipe NAME
--out DIR` (D-Day's `maquis.dday.train.recipe`, Maurice Lite's `maquis.maurice.train.recipe`).

A recipe is a chain of steps, each a command of the package run in this process in its own
folder `DIR/<step>`; a step's arguments may name an earlier step's result (a file of its folder).
A step is done when its result is there (written last, whole), and a done step is not run again,
so the same command continues a run that was stopped: a step stopped halfway resumes as its own
command does (expert iteration after its last finished generation, PPO from its checkpoint when
the step says how). `--recipe-scale S` multiplies every count of games, steps, simulations and
minutes by S (at least one of each): a small S checks the whole chain in minutes, it does not
make the network. The last step's result is then copied to `DIR/<game file>`, what the package
ships.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from maquis.train.common import copy_whole

__all__ = ["Step", "Recipe", "scaled", "step_arguments", "run", "add_recipe_arguments", "command", "keep_best",
           "resume_checkpoint"]


@dataclass(frozen=True)
class Step:
    folder: str
    #: the step's command: its arguments (the folder's `--out` first) to an exit status
    command: Callable[[list[str]], int]
    #: (DIR, scaled count, threads) -> the arguments after `--out`
    argv: Callable[[Path, Callable[..., str], int], list[str]]
    #: the file of its folder the step writes last: there when the step is done
    result: str
    #: (its folder, the recipe's scale): run after the command succeeded, writes `result` when
    #: the command does not (a choice among generations, a copy of the kept one)
    finish: Callable[[Path, float], Any] | None = None
    #: arguments that resume a stopped run in its folder (none: the command resumes by itself)
    resume: Callable[[Path], list[str]] | None = None

    def done(self, root: Path) -> bool:
        return (root / self.folder / self.result).exists()


@dataclass(frozen=True)
class Recipe:
    prog: str  # "maquis dday train --recipe"
    steps: tuple[Step, ...]
    network: str  # the final copy's name in DIR ("dday.safetensors")
    shipped: str  # where the package ships it, said when it is written


def scaled(scale: float) -> Callable[..., str]:
    """A count of the recipe times `scale`, as an argument: an int at least `least`, or minutes (a
    float) at least 0.01."""
    def n(count: float, least: int = 1) -> str:
        value = count * scale
        return str(max(least, round(value))) if isinstance(count, int) else f"{max(value, 0.01):g}"
    return n


def step_arguments(step: Step, root: Path, scale: float, threads: int) -> list[str]:
    """The command-line arguments of `step` for the run folder `root`: its own folder, resumed
    from what it holds where the step says how."""
    folder = root / step.folder
    argv = ["--out", str(folder), *step.argv(root, scaled(scale), threads)]
    if step.resume is not None:
        argv += step.resume(folder)
    return argv


def keep_best(result: str) -> Callable[[Path, float], Path]:
    """A step's `finish` for expert iteration: its run's result (`best.safetensors`, the last kept
    generation) copied to `result`."""
    def finish(folder: Path, scale: float) -> Path:
        from maquis.train.iteration import BEST_NET

        copy_whole(folder / BEST_NET, folder / result)
        return folder / result
    return finish


def resume_checkpoint(folder: Path) -> list[str]:
    """A PPO step's `resume`: `--resume` from its folder's checkpoint, once there is one."""
    return ["--resume", str(folder / "checkpoint.pt")] if (folder / "checkpoint.pt").exists() else []


def command(prog: str, add_arguments: Callable[[Any], None], run_args: Callable[[Any], int]) -> Callable[[list[str]], int]:
    """A step's command: `prog`'s parser (`add_arguments`) and its `run_args(args)`."""
    def run_argv(argv: list[str]) -> int:
        p = argparse.ArgumentParser(prog=prog)
        add_arguments(p)
        return run_args(p.parse_args(argv))
    return run_argv


def run(recipe: Recipe, args: Any) -> int:
    """Runs the steps of `recipe` not yet done in `args.out` (`args.recipe_scale`, `args.threads`);
    0 when the network is written."""
    if not args.recipe_scale > 0:
        print(f"{recipe.prog}: --recipe-scale must be positive, got {args.recipe_scale}", file=sys.stderr)
        return 2
    root = Path(args.out)
    root.mkdir(parents=True, exist_ok=True)
    threads = max(1, args.threads)
    steps = recipe.steps
    for k, step in enumerate(steps, 1):
        if step.done(root):
            print(f"recipe step {k}/{len(steps)} {step.folder}: done already", flush=True)
            continue
        argv = step_arguments(step, root, args.recipe_scale, threads)
        print(f"recipe step {k}/{len(steps)} {step.folder}: {' '.join(argv)}", flush=True)
        rc = step.command(argv)
        if rc == 0 and step.finish is not None:
            step.finish(root / step.folder, args.recipe_scale)
        if rc != 0 or not step.done(root):
            print(f"{recipe.prog}: step {step.folder} failed (exit {rc}); the same command resumes it", file=sys.stderr)
            return rc or 1
    net = root / recipe.network
    shutil.copyfile(root / steps[-1].folder / steps[-1].result, net)
    print(f"wrote {net} (to ship it: cp {net} {recipe.shipped})", flush=True)
    return 0


def add_recipe_arguments(p: Any, recipes: Sequence[str], what: str) -> None:
    """`--recipe NAME` (`what`: what each makes and its cost) and `--recipe-scale S`."""
    p.add_argument("--recipe", default=None, choices=tuple(recipes),
                   help=f"run a whole recipe instead, in --out with --threads, the other options its own: {what}")
    p.add_argument("--recipe-scale", type=float, default=1.0,
                   help="the recipe's games, steps, simulations and minutes times this (a small one checks the chain "
                        "quickly)")

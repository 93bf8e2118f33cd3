"""What every game's expert iteration shares (`maquis train`, `maquis dday train`): the hidden
widths flag, the training passes (masked policy cross-entropy against the teacher's targets, value
cross-entropy against the outcome), the run folder's checkpoint and resume, and the learning
curve's PNG. A game supplies its games, its model's sizes and its evaluation.

torch is imported inside the functions that need it, so that importing this module costs nothing.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["hidden_widths", "train_on", "open_run", "save_checkpoint", "plot_curve", "append_curve", "copy_whole"]


def hidden_widths(text: str, prog: str) -> tuple[int, ...]:
    """`--hidden` ("256,256") as widths; SystemExit naming `prog` when it is not positive ints."""
    try:
        h = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise SystemExit(f"{prog}: --hidden must be comma-separated integers, got {text!r}")
    if any(x < 1 for x in h):
        raise SystemExit(f"{prog}: hidden widths must be positive, got {text!r}")
    return h


def add_training_arguments(p: Any, epochs: int, batch_size: int) -> None:
    """The options of a generation's training pass, shared by every game's `train` verb."""
    p.add_argument("--storage", choices=("float32", "float16"), default="float16",
                   help="dtype of the written net_gen<g>.safetensors (the checkpoint stays float32)")
    p.add_argument("--epochs", type=int, default=epochs, help="passes over the data per generation")
    p.add_argument("--batch-size", type=int, default=batch_size, help="positions per training step")
    p.add_argument("--lr", type=float, default=1e-3, help="learning rate (AdamW)")
    p.add_argument("--schedule", choices=("constant", "onecycle"), default="constant",
                   help="learning rate within a generation: constant --lr, or one cycle peaking at --lr")
    p.add_argument("--weight-decay", type=float, default=1e-4, help="AdamW weight decay")
    p.add_argument("--value-coef", type=float, default=1.0, help="weight of the value loss beside the policy loss")


def train_on(model: Any, opt: Any, data: dict[str, np.ndarray], args: Any, rng: np.random.Generator,
             rows: Callable[[Any], Any] | None = None) -> tuple[float, float]:
    """`args.epochs` passes over `data` (obs, masks, policy targets, outcome in [0, 1] and each
    sample's `weight` in the policy loss) in batches of `args.batch_size`, the learning rate constant
    (`args.schedule == "constant"`) or one cycle per call; `rows(idx)`: the input rows of samples
    `idx` (default: their observations). Returns the mean policy and value losses of the last epoch."""
    import torch
    from torch.nn import functional as F

    obs = torch.from_numpy(data["obs"])
    if rows is None:
        def rows(idx: Any) -> Any:
            return obs[idx]
    masks = torch.from_numpy(data["masks"])
    target = torch.from_numpy(data["policy"])
    value = torch.from_numpy(data["outcome"])
    weight = torch.from_numpy(data["weight"])
    n = len(obs)
    steps = args.epochs * -(-n // args.batch_size)
    # One cycle (warm-up, then cosine decay to ~0) per generation, or the constant --lr.
    sched = (torch.optim.lr_scheduler.OneCycleLR(opt, args.lr, total_steps=steps, pct_start=0.05)
             if args.schedule == "onecycle" else None)
    model.train()
    pl = vl = 0.0
    for _ in range(args.epochs):
        order = torch.from_numpy(rng.permutation(n))
        pls, vls = [], []
        for i in range(0, n, args.batch_size):
            idx = order[i : i + args.batch_size]
            logits, v = model(rows(idx))
            logits = logits.masked_fill(~masks[idx], -1e9)
            w = weight[idx]
            p_loss = (-(target[idx] * F.log_softmax(logits, dim=1)).sum(1) * w).sum() / w.sum()
            v_loss = F.binary_cross_entropy_with_logits(v, value[idx])
            loss = p_loss + args.value_coef * v_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            if sched is not None:
                sched.step()
            pls.append(p_loss.item())
            vls.append(v_loss.item())
        pl, vl = float(np.mean(pls)), float(np.mean(vls))
    model.eval()
    return pl, vl


def open_run(out: Path, model: Any, opt: Any, args: Any, prog: str, fields: Sequence[str],
             match: dict[str, Any], restore: dict[str, Any] | None = None) -> int | None:
    """Opens the run folder `out`: resumes `model` and `opt` from its checkpoint (whose `match`
    entries, e.g. the hidden widths, must equal this run's; the keys of `restore` that it has
    replace `restore`'s values), or starts it (torch seeded with `args.seed`, the arguments in
    `args.json`); creates `curve.csv` with `fields`. Returns the first generation to play, or None
    (after printing why) when the checkpoint does not fit."""
    import sys

    import torch

    (out / "data").mkdir(parents=True, exist_ok=True)
    ckpt_path, curve_path = out / "checkpoint.pt", out / "curve.csv"
    start = 0
    if ckpt_path.exists():
        ckpt = torch.load(ckpt_path, weights_only=False)
        for key, want in match.items():
            have = ckpt.get(key, "observation" if key == "inputs" else None)
            if (tuple(have) if isinstance(have, list) else have) != want:
                print(f"{prog}: {ckpt_path} has {key} {have}, not {want}", file=sys.stderr)
                return None
        model.load_state_dict(ckpt["model"])
        opt.load_state_dict(ckpt["optimizer"])
        for key in restore or {}:
            if key in ckpt:
                restore[key] = ckpt[key]
        start = ckpt["generation"] + 1
        print(f"resuming {out} after generation {ckpt['generation']}")
    else:
        torch.manual_seed(args.seed)
        (out / "args.json").write_text(json.dumps(vars(args), indent=2, default=str))
    if not curve_path.exists():
        with open(curve_path, "w", newline="") as f:
            csv.DictWriter(f, list(fields)).writeheader()
    return start


def save_checkpoint(out: Path, generation: int, model: Any, opt: Any, **extra: Any) -> None:
    """`out/checkpoint.pt`: the generation reached, the model, the optimizer and `extra`."""
    import torch

    torch.save({"generation": generation, **extra, "model": model.state_dict(), "optimizer": opt.state_dict()},
               out / "checkpoint.pt")


def copy_whole(src: Path, dst: Path) -> None:
    """`src` copied to `dst`, which appears whole (a reader never sees half of it: a run's result,
    a recipe step's, whose presence says the step is done)."""
    partial = dst.with_suffix(".partial")
    shutil.copyfile(src, partial)
    os.replace(partial, dst)


def append_curve(csv_path: Path, fields: Sequence[str], rows: Sequence[dict[str, Any]]) -> None:
    with open(csv_path, "a", newline="") as f:
        w = csv.DictWriter(f, list(fields))
        for r in rows:
            w.writerow(r)


def plot_curve(csv_path: Path, png_path: Path, label_fields: Sequence[str] = ("agent",), ylabel: str = "") -> bool:
    """The curve's PNG: the win rate with its 95% interval per generation, one series per distinct
    value of `label_fields`. Without matplotlib it says so on stderr and draws nothing (False)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"matplotlib is not installed (pip install 'maquis[train]'): {png_path} not drawn", file=sys.stderr)
        return False
    with open(csv_path) as f:
        rows = list(csv.DictReader(f))
    fig, ax = plt.subplots(figsize=(6, 4))
    for label in dict.fromkeys(tuple(r[k] for k in label_fields) for r in rows):
        rs = [r for r in rows if tuple(r[k] for k in label_fields) == label]
        g = np.array([int(r["generation"]) for r in rs])
        w = np.array([float(r["win_rate"]) for r in rs])
        lo = np.array([float(r["ci_low"]) for r in rs])
        hi = np.array([float(r["ci_high"]) for r in rs])
        # Clipped: a Wilson bound at 0 or 1 wins can land a rounding error past the rate.
        yerr = np.clip([100 * (w - lo), 100 * (hi - w)], 0, None)
        ax.errorbar(g, 100 * w, yerr=yerr, marker="o", capsize=3, label=" ".join(label))
    ax.set_xticks(sorted({int(r["generation"]) for r in rows}))
    ax.set_xlabel("generation")
    ax.set_ylabel(ylabel or "wins, % (95% CI)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(png_path, dpi=110)
    plt.close(fig)
    return True

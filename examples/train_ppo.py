#!/usr/bin/env python3
"""PPO with invalid-action masking on `maquis.MaquisVectorEnv` (CleanRL style).

The masked-PPO core, shared with `dday_ppo.py` and `maurice_ppo.py`, is `maquis.train.ppo`.

    pip install "maquis[train]"            # or: pip install . torch matplotlib tqdm
    python examples/train_ppo.py --minutes 30 --difficulty normal --out runs/ppo_normal
    maquis eval --policy runs/ppo_normal/policy.npz --difficulties normal --episodes 2000
    python examples/train_ppo.py plot curve.png runs/a=label_a runs/b=label_b   # compare runs

What it does
------------
* Collects experience from `--num-envs` games stepped together in Rust (`maquis.MaquisVectorEnv`,
  next-step autoreset), with the legal-action masks from `env.action_masks()`.
* Masking: the logits of illegal actions are replaced by -1e8 before the categorical, so illegal
  actions are never sampled, get no probability mass, and the entropy is over legal actions only.
* Autoreset (Gymnasium `NEXT_STEP`): after a step that ends a game, the *next* `step()` ignores the
  action of that environment and returns the first observation of a new game (reward 0). That
  "reset step" is not a decision of the agent: it is stored with `valid = 0` and left out of the
  losses; the step that ended the game is terminal in GAE (no bootstrapping through it).
* Reward: the environment's outcome reward (win / major_win +1, draw 0, loss -1) plus, by default,
  the environment's potential-based shaping (`MaquisVectorEnv(shaping=...)`, computed in Rust):
  r += gamma * phi(s') - phi(s), phi = 0 at the end of a game, with the PPO discount `--gamma`
  and the default potential of `maquis.maquis.shaping` (missions 1.0, hand 0.3, morale 0.2, workers 0.2;
  `--shaping-weights '{"morale": 0}'` changes some). Potential-based shaping leaves the optimal
  policy unchanged (Ng et al., 1999); it only gives the critic an earlier signal. `--shaping off`
  for the plain outcome reward. Evaluation always counts real outcomes.
* Start-state curriculum (optional, `--curriculum FILE|AGENT:N`): some training games start from
  positions recorded from a bundled agent's games (`maquis.maquis.curriculum.record_states`, every
  `--curriculum-every` decisions of N games) or from a file of `save_state()` strings (a JSON
  list, or one per line), through `MaquisVectorEnv.set_start_states` (hidden deck order redrawn).
  The share of such games starts at `--curriculum-prob` and falls linearly to 0 at
  `--curriculum-anneal` of the budget. Evaluation games always start from the beginning.
* `--device cuda`: the network, the rollout buffers and the updates on the GPU; the observations
  go to it as uint8 through pinned memory, and the games are two vector envs stepped in turn, Rust
  stepping one half while the GPU acts on the other (see `maquis.train.ppo`). At the end the run
  prints where the collection's time went (waiting on the environment, staging, the forward and
  sampling, waiting on the device for the actions, storing).
* Every `--eval-every` updates (and at the end) the current policy is evaluated greedily
  (masked argmax) on fixed seeds with `maquis.evaluate` (or an equivalent built-in loop while
  `maquis.evaluate` is not available), written to `curve.csv` and plotted to `curve.png`.
* Saves `policy.npz` (see below), `checkpoint.pt` (torch state, to resume with `--resume`),
  `curve.csv`, `curve.png`, `args.json`.

The saved policy: `policy.npz` ("maquis-mlp-v1")
------------------------------------------------
A plain numpy archive, so that evaluating a trained policy needs neither torch nor this file:

    format        str  "maquis-mlp-v1"
    activation    str  "tanh" | "relu"  (after every layer but the last)
    num_layers    int  L
    w0, b0 ... w{L-1}, b{L-1}   float32, w_i of shape (in, out): x <- act(x @ w_i + b_i)
    obs_size      int  observation length it was trained on (maquis.OBSERVATION_LAYOUT total)
    num_actions   int  N (len(maquis.ACTION_NAMES))
    deterministic bool  True: play the masked argmax of the logits (the default for evaluation)
    meta          str  JSON: difficulty, steps trained, seed, creation time, library versions

    logits = mlp(obs); logits[~mask] = -inf; action = argmax(logits)

`load_policy(path)` below is the reference loader (numpy only); it returns a batched callable
`policy(obs, mask) -> action` accepting one observation or a batch.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from collections import deque
from pathlib import Path

import numpy as np

# The saved policy (`maquis-mlp-v1`) is defined by the package, so `maquis eval --policy` reads it.
from maquis.maquis.policy import POLICY_FORMAT, NumpyMLPPolicy, load_policy, save_policy  # noqa: E402,F401
from maquis.maquis.evaluation import wilson_interval as wilson  # noqa: E402

# The masked-PPO core shared with the other training examples.
from maquis.train import ppo as masked_ppo  # noqa: E402
from maquis.train.ppo import (  # noqa: E402
    Batch, Collector, CurvePlot, DaggerSet, actor_weights, add_evaluation_arguments, add_imitation_arguments,
    add_ppo_arguments, batch_expert, build_agent, device_settings, gae, imitation_update, make_envs, phase_at,
    ppo_update, prepare_run,
)


# --------------------------------------------------------------------------------------------
# Arguments
# --------------------------------------------------------------------------------------------


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    g = p.add_argument_group("budget and run")
    g.add_argument("--total-steps", type=int, default=20_000_000, help="environment steps (all envs together)")
    g.add_argument("--minutes", type=float, default=None, help="wall-clock budget; stops at whichever comes first")
    g.add_argument("--difficulty", default="normal")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--out", default="runs/ppo", help="output directory")
    g.add_argument("--threads", type=int, default=2, help="torch threads (torch.set_num_threads)")
    g.add_argument("--env-threads", type=int, default=1, help="Rust threads of the vector env")
    g.add_argument("--no-progress", action="store_true", help="no tqdm progress bar")
    g.add_argument("--resume", default=None, help="checkpoint.pt to continue from")
    g = add_ppo_arguments(p, num_envs=128, gamma=0.997, epochs=3, ent_coef=0.02)
    g.add_argument("--target-kl", type=float, default=None, help="stop an update's epochs past this KL")
    g.add_argument("--activation", choices=("tanh", "relu"), default="tanh", help="of the hidden layers")
    g.add_argument("--shaping", choices=("on", "off"), default="on",
                   help="the env's potential-based shaping (maquis.maquis.shaping) with gamma = --gamma")
    g.add_argument("--shaping-weights", default=None, metavar="JSON",
                   help='weights of some potential terms, e.g. \'{"missions": 1, "hand": 0.3}\'')
    g = p.add_argument_group("start-state curriculum (optional)")
    g.add_argument("--curriculum", default=None, metavar="FILE|AGENT:N",
                   help="start some training games from recorded positions: a file of save_state() strings, "
                        "or AGENT:N to record N games of a bundled agent (e.g. heuristic:200)")
    g.add_argument("--curriculum-every", type=int, default=4, help="record every k-th decision (AGENT:N)")
    g.add_argument("--curriculum-prob", type=float, default=0.5, help="share of games started from the pool at first")
    g.add_argument("--curriculum-anneal", type=float, default=0.6,
                   help="fraction of the budget at which the share reaches 0 (linear)")
    add_imitation_arguments(p, minutes=8.0, steps=64, minibatch=1024, buffer=400_000, bc_decay_minutes=10.0,
                            metavar="AGENT",
                            help="a bundled agent to imitate first (e.g. heuristic): DAgger-style behaviour cloning")
    add_evaluation_arguments(p, episodes=500, seed=12345, every=10, final=2000)
    return p.parse_args(argv)


# --------------------------------------------------------------------------------------------
# Evaluation
# --------------------------------------------------------------------------------------------


def _info_outcomes(info, ended):
    """The outcome (a str, or None where the info gives none) of each environment in `ended`
    (indices of the environments that just finished), from a Gymnasium vector info dict."""
    if "outcome" not in info:
        return [None] * len(ended)
    vals, have = info["outcome"], info.get("_outcome")
    return [(v.decode() if isinstance(v, bytes) else str(v)) if have is None or have[i] else None
            for i, v in zip(ended, vals[ended])]


def evaluate_policy(policy, difficulty, episodes, seed):
    """Outcome counts {win, major_win, draw, loss} of `episodes` games (`maquis.evaluate`'s games),
    and how many of them completed at least one mission.

    `policy`: a callable (obs, mask) -> action (batched if `policy.batched`), or a bundled agent
    name ("random", "heuristic", "search")."""
    from maquis.maquis.evaluation import OUTCOMES, run_episodes

    _, records = run_episodes(policy, difficulty, episodes, seed)
    counts = {o: sum(1 for r in records if r[0] == o) for o in OUTCOMES}
    return counts, sum(1 for r in records if r[2] >= 1)


def rates(counts):
    n = max(1, sum(counts.values()))
    return {k: v / n for k, v in counts.items()}


# --------------------------------------------------------------------------------------------
# Plot
# --------------------------------------------------------------------------------------------


def plot_curve(csv_path, png_path, baselines=None, title=""):
    plot = CurvePlot.read(csv_path, ("win", "draw", "loss"))
    if plot is None:
        return False
    if plot.rows[0].get("eval_mission") not in (None, ""):
        plot.left.plot(plot.steps, [float(r["eval_mission"]) for r in plot.rows], "-s", ms=3, color="tab:blue",
                       label="PPO >=1 mission")
    for name, r in (baselines or {}).items():
        for key in ("win", "draw"):
            plot.baseline(name, r[key], plot.COLORS[key], f"{name} {key}")
    plot.training("train_return", "train episode return (shaped)")
    plot.training("train_win", "train win rate (sampling policy)")
    plot.training("entropy", "entropy / 3", scale=3)
    return plot.save(png_path, "environment steps (millions)", title or "evaluation", legend_columns=2)


def make_expert(name, envs):
    """`expert(obs, masks, valid) -> actions` for a bundled agent, for the imitation phase
    (`envs`: the example's `VectorHalves`)."""
    import maquis.maquis.agents as agents

    cls = {"random": "RandomAgent", "heuristic": "HeuristicAgent", "search": "SearchAgent"}.get(name, name)
    agent = getattr(agents, cls)()
    if hasattr(agent, "act_vector") and len(envs) == 1:  # acts on the vector env's own states
        env = envs.envs[0]
        return lambda obs, masks, valid: np.asarray(agent.act_vector(env), dtype=np.int64)
    if hasattr(agent, "act_batch"):
        return batch_expert(agent)

    def expert(obs, masks, valid):
        return np.array([agent.act(o, m) if v and m.any() else 0 for o, m, v in zip(obs, masks, valid)], np.int64)
    return expert


# --------------------------------------------------------------------------------------------
# Training
# --------------------------------------------------------------------------------------------


def layout_slice(name):
    import maquis

    for n, off, length in maquis.OBSERVATION_LAYOUT:
        if n == name:
            return off, length
    raise KeyError(name)


def plot_runs(run_dirs, labels, png_path, title=""):
    """One figure comparing runs (their curve.csv) against the baselines of their final_eval.json."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.6))
    baselines = {}
    for k, (d, label) in enumerate(zip(run_dirs, labels)):
        rows = list(csv.DictReader(open(Path(d) / "curve.csv")))
        m = np.array([float(r["minutes"]) for r in rows])
        color = f"C{k}"
        for ax, key in zip(axes, ("win", "draw", "loss")):
            y = np.array([float(r[f"eval_{key}"]) for r in rows])
            lo = np.array([float(r[f"eval_{key}_lo"]) for r in rows])
            hi = np.array([float(r[f"eval_{key}_hi"]) for r in rows])
            ax.plot(m, y, "-o", ms=2.5, color=color, label=label)
            ax.fill_between(m, lo, hi, color=color, alpha=0.15)
        phases = [r.get("phase", "ppo") for r in rows]
        if "imitate" in phases and "ppo" in phases:
            for ax in axes:
                ax.axvline(m[phases.index("ppo") - 1], color=color, lw=0.8, ls=":")
        fe = Path(d) / "final_eval.json"
        if fe.exists():
            res = json.loads(fe.read_text())["results"]
            baselines.update({n: r for n, r in res.items() if n != "ppo"})
            if "ppo" in res:
                for ax, key in zip(axes, ("win", "draw", "loss")):
                    r, (lo, hi) = res["ppo"][key], res["ppo"][f"{key}_ci95"]
                    ax.errorbar([m[-1] + 0.4], [r], yerr=[[max(0.0, r - lo)], [max(0.0, hi - r)]],
                                fmt="s", color=color, ms=5, capsize=3)
    styles = {"random": ":", "heuristic": "--", "search": "-."}
    for ax, key in zip(axes, ("win", "draw", "loss")):
        for name, r in baselines.items():
            ax.axhline(r[key], color="k", ls=styles.get(name, "--"), lw=1, label=f"{name} agent")
            ax.axhspan(r[f"{key}_ci95"][0], r[f"{key}_ci95"][1], color="k", alpha=0.06)
        ax.set_title(f"{key} rate" + (" (win + major win)" if key == "win" else ""))
        ax.set_xlabel("wall-clock minutes of training (2 shared CPU cores)")
        ax.set_ylim(0, 1 if key != "win" else max(0.35, ax.get_ylim()[1]))
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("rate on fixed evaluation seeds (greedy; 95% CI)")
    axes[0].legend(fontsize=8, loc="upper left")
    fig.suptitle(title or "maquis, difficulty normal", fontsize=11)
    fig.tight_layout()
    fig.savefig(png_path, dpi=110)
    plt.close(fig)


def plot_command(argv):
    """`plot OUT.png RUN_DIR[=LABEL] ...`: compare finished runs in one figure."""
    runs = [a.split("=", 1) for a in argv[1:]]
    plot_runs([r[0] for r in runs], [r[1] if len(r) > 1 else Path(r[0]).name for r in runs], argv[0])
    print(f"wrote {argv[0]}")
    return 0


# --------------------------------------------------------------------------------------------
# The run: its clock and counters, checkpoints
# --------------------------------------------------------------------------------------------


def export_policy(agent, path, args, env_steps):
    meta = {"trained_with": "examples/train_ppo.py", "difficulty": args.difficulty, "env_steps": int(env_steps), "seed": args.seed}
    masked_ppo.export_policy(agent, path, args.activation, meta)


class Progress:
    """Environment steps and updates so far, and the clock (a resumed run adds its past seconds)."""

    def __init__(self, global_step=0, update=0, t_offset=0.0):
        self.global_step, self.update, self.t_offset = global_step, update, t_offset
        self.update0 = update  # the update the run (re)started from
        self.t0 = time.time()
        self.eval_time = 0.0  # seconds spent evaluating, left out of the budget's schedules

    def elapsed(self):
        return time.time() - self.t0

    def seconds(self):
        return self.elapsed() + self.t_offset


def resume(path, agent, opt, device="cpu"):
    import torch

    ck = torch.load(path, weights_only=False, map_location=device)
    agent.load_state_dict(ck["agent"])
    opt.load_state_dict(ck["opt"])
    return Progress(ck["global_step"], ck["update"], ck.get("seconds", 0.0))


def save_run(out, agent, opt, args, progress):
    """policy.npz and checkpoint.pt."""
    import torch

    export_policy(agent, out / "policy.npz", args, progress.global_step)
    torch.save({"agent": agent.state_dict(), "opt": opt.state_dict(), "global_step": progress.global_step,
                "update": progress.update, "seconds": progress.seconds()}, out / "checkpoint.pt")


# --------------------------------------------------------------------------------------------
# Experience
# --------------------------------------------------------------------------------------------


class MissionProgress:
    """Mission progress read from the observation, for the training statistics (the shaping
    itself is the environment's): boxes done / boxes, +1 once complete, summed over both missions."""

    def __init__(self):
        self.slots = [off for off, _ in map(layout_slice, ("mission_a_state", "mission_b_state"))]

    def __call__(self, o):
        return sum(o[:, off + 0] + o[:, off + 2] for off in self.slots)

    def completed(self, o):
        """Missions completed (0, 1 or 2) per row."""
        return sum(o[:, off + 2] for off in self.slots)


def shaping_keyword(args):
    """The env's `shaping` keyword from the arguments (None: off)."""
    if args.shaping == "off":
        return None
    kw = {"gamma": args.gamma}
    if args.shaping_weights:
        kw["weights"] = json.loads(args.shaping_weights)
    return kw


def curriculum_states(spec, difficulty, every, seed):
    """The start states of `--curriculum`: AGENT:N records N games of a bundled agent; otherwise
    a file holding a JSON list of save_state() strings, or one per line."""
    from maquis.maquis.agents import AGENT_NAMES
    from maquis.maquis.curriculum import record_states

    name, _, n = spec.partition(":")
    if name in AGENT_NAMES and n.isdigit():
        t = time.time()
        states = record_states(agent=name, episodes=int(n), difficulty=difficulty, every=every, seed=seed + 10_000)
        print(f"curriculum: {len(states)} positions from {n} {name} games ({time.time() - t:.0f} s)")
        return states
    text = Path(spec).read_text()
    states = json.loads(text) if text.lstrip().startswith("[") else [ln for ln in text.splitlines() if ln.strip()]
    print(f"curriculum: {len(states)} positions from {spec}")
    return states


def curriculum_probability(args, progress, budget_s):
    """The share of training games started from the pool now: linear from --curriculum-prob to 0."""
    frac = progress.global_step / args.total_steps
    if budget_s < float("inf"):
        frac = max(frac, progress.elapsed() / budget_s)
    return args.curriculum_prob * max(0.0, 1.0 - frac / max(args.curriculum_anneal, 1e-9))


class EpisodeStats:
    """Return, length, outcome and mission progress of the last 1000 training games."""

    KEEP = 1000

    def __init__(self, num_envs):
        self.ret = np.zeros(num_envs)
        self.len = np.zeros(num_envs, np.int64)
        self.recent = {k: deque(maxlen=self.KEEP) for k in ("ret", "len", "win", "draw", "loss", "progress", "mission")}

    def record(self, sl, rew, valid, done, term, info, final_progress, final_completed=None):
        """One step of the environments `sl` (a slice of the batch; the arrays are theirs).
        `final_progress` and `final_completed`: one value per environment that ended, in the order
        of `np.flatnonzero(done)`. Whole arrays at once: a batch of thousands ends hundreds of
        games a step."""
        ret, length = self.ret[sl], self.len[sl]
        ret += rew
        length += valid
        ended = np.flatnonzero(done)
        if not len(ended):
            return
        outs = [o or ("win" if term[i] and rew[i] > 0.5 else "loss")
                for o, i in zip(_info_outcomes(info, ended), ended)]
        r = self.recent
        r["ret"].extend(ret[ended].tolist())
        r["len"].extend(length[ended].tolist())
        r["progress"].extend(np.asarray(final_progress).tolist())
        completed = np.zeros(len(ended)) if final_completed is None else np.asarray(final_completed)
        r["mission"].extend((completed >= 1).tolist())
        r["win"].extend(o in ("win", "major_win") for o in outs)
        r["draw"].extend(o == "draw" for o in outs)
        r["loss"].extend(o == "loss" for o in outs)
        ret[ended] = 0.0
        length[ended] = 0

    def mean(self, key):
        xs = self.recent[key]
        return float(np.mean(xs)) if xs else float("nan")


def schedule(args, progress, budget_s, imitate_s, has_expert):
    """The phase and learning rate at this point of the budget (steps or minutes, whichever binds)."""
    elapsed = progress.elapsed()
    frac_done = max(progress.global_step / args.total_steps, (elapsed - progress.eval_time) / budget_s if args.minutes else 0.0)
    run_s = elapsed + progress.t_offset - progress.eval_time
    return phase_at(args, run_s, frac_done, imitate_s, has_expert)


def recorder(episodes):
    """The Collector's `record`: the episode statistics, with the missions read from the last
    observation of each finished game."""
    import maquis

    missions = MissionProgress()

    def record(sl, obs, rew, valid, done, term, info):
        final_progress = completed = None
        ended = np.flatnonzero(done)
        if len(ended):
            # The progress is read from the float32 values of the finished games' rows alone.
            last = maquis.observation_float32(np.asarray(obs)[ended])
            final_progress, completed = missions(last), missions.completed(last)
        episodes.record(sl, rew, valid, done, term, info, final_progress, completed)

    return record


# --------------------------------------------------------------------------------------------
# Logging: the learning curve, the progress bar, the final evaluation
# --------------------------------------------------------------------------------------------

CURVE_FIELDS = [
    "update", "env_steps", "minutes", "sps", "eval_episodes",
    "eval_win", "eval_win_lo", "eval_win_hi", "eval_major_win", "eval_draw", "eval_draw_lo", "eval_draw_hi",
    "eval_loss", "eval_loss_lo", "eval_loss_hi",
    "train_return", "train_win", "train_draw", "train_loss_rate", "train_len", "train_progress",
    "eval_mission", "train_mission", "start_prob",
    "entropy", "pg_loss", "v_loss", "approx_kl", "clipfrac", "lr", "phase", "bc_loss", "bc_coef",
]


class Curve:
    """curve.csv: one row per evaluation (appended to when a run resumes)."""

    def __init__(self, path, resuming):
        self.path = path
        if not (resuming and path.exists()):
            with open(path, "w", newline="") as f:
                csv.DictWriter(f, CURVE_FIELDS).writeheader()

    def log(self, progress, sps, counts, episodes, stats, mission_games=0):
        """Writes the row of an evaluation's outcome `counts` (and games with a mission completed)
        and the training statistics; returns it."""
        n = sum(counts.values())
        wins = counts.get("win", 0) + counts.get("major_win", 0)
        row = {
            "update": progress.update, "env_steps": progress.global_step, "minutes": round(progress.seconds() / 60, 3),
            "sps": round(sps), "eval_episodes": n,
            "eval_win": wins / n, "eval_major_win": counts.get("major_win", 0) / n,
            "eval_draw": counts.get("draw", 0) / n, "eval_loss": counts.get("loss", 0) / n,
            "eval_mission": mission_games / n,
        }
        for key, k in (("win", wins), ("draw", counts.get("draw", 0)), ("loss", counts.get("loss", 0))):
            row[f"eval_{key}_lo"], row[f"eval_{key}_hi"] = wilson(k, n)
        row.update({
            "train_return": episodes.mean("ret"), "train_win": episodes.mean("win"), "train_draw": episodes.mean("draw"),
            "train_loss_rate": episodes.mean("loss"), "train_len": episodes.mean("len"),
            "train_progress": episodes.mean("progress"), "train_mission": episodes.mean("mission"),
        })
        row.update(stats)
        with open(self.path, "a", newline="") as f:
            csv.DictWriter(f, CURVE_FIELDS).writerow({k: (round(v, 5) if isinstance(v, float) else v) for k, v in row.items()})
        return row


def make_bar(args):
    """A tqdm bar over the budget (seconds or steps), or None."""
    if args.no_progress:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=args.minutes * 60 if args.minutes else args.total_steps, unit="s" if args.minutes else "step",
                dynamic_ncols=True, mininterval=2.0)


def show_progress(bar, args, progress, budget_s, sps, stats, rollout_s, episodes):
    if bar is None:
        return
    if args.minutes:
        bar.n = min(int(progress.elapsed()), int(budget_s))
    else:
        bar.n = min(progress.global_step, args.total_steps)
    w = np.mean(episodes.recent["win"]) if episodes.recent["win"] else 0.0
    bar.set_postfix(steps=f"{progress.global_step/1e6:.2f}M", sps=f"{sps:.0f}", win=f"{w:.3f}",
                    ent=f"{stats['entropy']:.2f}", roll=f"{rollout_s:.1f}s")
    bar.refresh()


def final_evaluation(args, out, progress):
    """The saved policy and the baselines on the same seeds: final_eval.json, a table, the plot."""
    results = {}
    final_n = args.final_eval_episodes
    pol = load_policy(out / "policy.npz")  # what `maquis eval --policy` will load
    results["ppo"] = evaluate_policy(pol, args.difficulty, final_n, args.eval_seed + 1)
    for name in [b for b in args.baselines.split(",") if b]:
        try:
            results[name] = evaluate_policy(name, args.difficulty, final_n, args.eval_seed + 1)
        except Exception as e:  # an agent may not be available in this build
            print(f"baseline {name!r} not evaluated: {e}", file=sys.stderr)
    summary = {}
    for name, (c, mission_games) in results.items():
        n = sum(c.values())
        wins = c.get("win", 0) + c.get("major_win", 0)
        summary[name] = {
            "episodes": n,
            "mission": mission_games / n, "mission_ci95": wilson(mission_games, n),
            "win": wins / n, "win_ci95": wilson(wins, n),
            "major_win": c.get("major_win", 0) / n,
            "draw": c.get("draw", 0) / n, "draw_ci95": wilson(c.get("draw", 0), n),
            "loss": c.get("loss", 0) / n, "loss_ci95": wilson(c.get("loss", 0), n),
        }
    summary_all = {"difficulty": args.difficulty, "eval_seed": args.eval_seed + 1, "env_steps": progress.global_step,
                   "train_minutes": progress.seconds() / 60, "results": summary}
    (out / "final_eval.json").write_text(json.dumps(summary_all, indent=2))
    print(f"\nfinal evaluation, {args.difficulty}, {final_n} games, seed {args.eval_seed + 1}:")
    for name, s in summary.items():
        print(f"  {name:<10} win {s['win']:.3f} [{s['win_ci95'][0]:.3f},{s['win_ci95'][1]:.3f}]  "
              f"draw {s['draw']:.3f}  loss {s['loss']:.3f}  >=1 mission {s['mission']:.3f} "
              f"[{s['mission_ci95'][0]:.3f},{s['mission_ci95'][1]:.3f}]")
    plot_curve(out / "curve.csv", out / "curve.png", baselines={k: v for k, v in summary.items() if k != "ppo"},
               title=f"PPO on maquis ({args.difficulty})")


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------


def main(argv=None):
    if argv is None:
        argv = sys.argv[1:]
    if argv and argv[0] == "plot":  # python examples/train_ppo.py plot OUT.png RUN_DIR[=LABEL] ...
        return plot_command(argv[1:])
    args = parse_args(argv)
    # Idle OpenMP threads sleep instead of spinning: on a busy 2-core machine spinning threads made
    # torch over 10x slower (must be set before torch loads its OpenMP runtime).
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import torch

    import maquis

    device, obs_dtype, halves = device_settings(args)
    out = prepare_run(args)
    envs = make_envs(lambda n: maquis.MaquisVectorEnv(num_envs=n, num_threads=args.env_threads, difficulty=args.difficulty,
                                                      shaping=shaping_keyword(args), observation_dtype=obs_dtype, copy=False),
                     args.num_envs, halves, device)
    if args.curriculum:
        states = curriculum_states(args.curriculum, args.difficulty, args.curriculum_every, args.seed)
        for env in envs.envs:
            env.set_start_states(states, probability=args.curriculum_prob)
    obs_size = int(np.prod(envs.envs[0].single_observation_space.shape))
    n_actions = int(envs.envs[0].single_action_space.n)
    agent = build_agent(obs_size, n_actions, args.hidden, args.layers, args.activation).to(device)
    opt = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    progress = resume(args.resume, agent, opt, device) if args.resume else Progress()

    expert = make_expert(args.imitate, envs) if args.imitate else None
    imitate_s = args.imitate_minutes * 60 if expert is not None else 0.0
    dagger = DaggerSet(args.imitate_buffer, obs_size, n_actions, device) if expert is not None else None
    budget_s = args.minutes * 60 if args.minutes else float("inf")
    curve = Curve(out / "curve.csv", resuming=bool(args.resume))
    bar = make_bar(args)
    episodes = EpisodeStats(args.num_envs)
    collector = Collector(envs, args.seed, recorder(episodes), device, maquis.OBSERVATION_DIVISOR, graph=args.graph)
    buf = collector.new_rollout(args.num_steps, args.num_envs)

    def evaluate_and_log(n_episodes, sps):
        t = time.time()
        policy = NumpyMLPPolicy(*actor_weights(agent), args.activation)
        counts, mission_games = evaluate_policy(policy, args.difficulty, n_episodes, args.eval_seed)
        return curve.log(progress, sps, counts, episodes, stats, mission_games), time.time() - t

    progress.t0 = time.time()
    last_eval_update = -1
    stats = {}
    while progress.global_step < args.total_steps and progress.elapsed() < budget_s:
        phase = schedule(args, progress, budget_s, imitate_s, expert is not None)
        for g in opt.param_groups:
            g["lr"] = phase.lr
        if args.curriculum:
            for env in envs.envs:
                env.set_start_probability(curriculum_probability(args, progress, budget_s))
        rollout_t = time.time()
        next_value = collector.collect(agent, buf, expert, phase)
        adv, ret = gae(buf, next_value, args.gamma, args.gae_lambda)
        progress.global_step += int(buf.valid.sum().item())
        rollout_s = time.time() - rollout_t

        batch = Batch(buf, adv, ret)
        if phase.imitating:
            stats = imitation_update(agent, opt, dagger, batch, args)
        else:
            stats = ppo_update(agent, opt, batch, args, phase.bc_coef)
        if args.curriculum:
            stats["start_prob"] = envs.envs[0].start_states[1]
        stats.update(lr=opt.param_groups[0]["lr"], phase="imitate" if phase.imitating else "ppo",
                     bc_coef=1.0 if phase.imitating else phase.bc_coef)
        progress.update += 1
        sps = buf.act.numel() / max(1e-9, time.time() - rollout_t)

        show_progress(bar, args, progress, budget_s, sps, stats, rollout_s, episodes)
        if args.eval_every and (progress.update - progress.update0) % args.eval_every == 0:
            row, dt = evaluate_and_log(args.eval_episodes, sps)
            progress.eval_time += dt
            last_eval_update = progress.update
            msg = (f"[update {progress.update} | {progress.global_step/1e6:.2f}M steps | {row['minutes']:.1f} min] "
                   f"eval win {row['eval_win']:.3f} draw {row['eval_draw']:.3f} loss {row['eval_loss']:.3f} "
                   f">=1 mission {row['eval_mission']:.3f} "
                   f"(train win {row['train_win']:.3f}, {sps:.0f} steps/s)")
            (bar.write if bar is not None else print)(msg)
            save_run(out, agent, opt, args, progress)
            plot_curve(out / "curve.csv", out / "curve.png", title=f"PPO on maquis ({args.difficulty})")
    if bar is not None:
        bar.close()
    envs.close()
    t = collector.timers
    busy = sum(t.host.values())
    if busy > 0:
        print(f"collection on {device} ({len(envs)} vector env(s) in turn, {collector.obs_dtype} observations, "
              f"{'send/recv' if envs.asynchronous else 'step'}): {busy:.1f} s, of which "
              + ", ".join(f"{k.replace('_', ' ')} {v / busy:.1%}" for k, v in t.host.items()))

    save_run(out, agent, opt, args, progress)
    if last_eval_update != progress.update and args.eval_every:
        evaluate_and_log(args.eval_episodes, 0)
    if args.final_eval_episodes:
        final_evaluation(args, out, progress)
    print(f"saved {out / 'policy.npz'} ({progress.global_step} env steps); curve: {out / 'curve.csv'}, {out / 'curve.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

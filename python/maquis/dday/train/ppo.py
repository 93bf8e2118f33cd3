"""Masked PPO for D-Day 1944 on `maquis.dday.DDayVectorEnv` (CleanRL style): the learner of
`examples/dday_ppo.py` and of `maquis dday train --recipe` (`maquis.dday.train.recipe`).

The masked-PPO core, shared with `examples/train_ppo.py`, is `maquis.train.ppo`; how to run it is
in `examples/dday_ppo.py`.

What it does
------------
* The learner plays `--side` (default the Resistance) against a bundled `--opponent` (default the
  heuristic German) in `--num-envs` games stepped together in Rust, the opponent inside
  (`maquis.dday.DDayVectorEnv`, next-step autoreset); one step is one decision of the learner.
* Masking: the logits of illegal actions are replaced by -1e8 before the categorical, so illegal
  actions are never sampled and the entropy is over legal actions only.
* Autoreset (Gymnasium `NEXT_STEP`): after a step that ends a game, the next `step()` ignores the
  action of that environment and returns the first observation of a new game. That step is no
  decision: it is stored with `valid = 0` and left out of the losses; the step that ended the game
  is terminal in GAE (no bootstrapping through it).
* Reward: the environment's, 0 until the end of a game, then win +1, draw 0, loss -1
  (`--reward outcome`) or (own VP - opponent VP) / 150 (`--reward vp_margin`).
* `--train-opponents heuristic,network` shares the training environments out equally among several
  bundled opponents; the curve's evaluation stays against `--opponent`.
* `--opponent-budget`: the simulations per decision of a `search` or `network_search` opponent;
  `--network FILE`: the weight file of the `network` levels (default the shipped network).
* Optional warm start (`--imitate heuristic`, or `network`): for `--imitate-minutes` the policy
  imitates a bundled agent playing the learner's side (DAgger: the expert labels the states the
  mixed policy visits), then PPO takes over with a cross-entropy term to the expert decaying to 0 over
  `--bc-decay-minutes`. The expert reads the same observation as the learner.
* Every `--eval-every` updates (and at the end) the greedy policy (masked argmax) is evaluated on
  fixed seeds with `maquis.dday.evaluate` (win/draw/loss with Wilson 95 % intervals) and written to
  `curve.csv`, plotted to `curve.png`. At the end `--final-eval-episodes` games against the
  opponent, with the bundled agents on the same seeds as baselines, go to `final_eval.json`.
* Saves `policy.npz` (the `maquis-mlp-v1` numpy MLP of `maquis.common.policy`; `maquis dday eval --policy
  FILE` and `maquis.dday.evaluate(FILE)` play it without torch), `checkpoint.pt` (to continue with
  `--resume`), `curve.csv`, `curve.png`, `args.json`.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections import deque

import numpy as np

from maquis.train import ppo
from maquis.train.ppo import (
    Collector, CurvePlot, DaggerSet, add_evaluation_arguments, add_imitation_arguments, add_ppo_arguments,
    add_train_opponents_argument, add_versus_run_arguments, batch_expert, build_agent, device_settings, groups,
    make_group_envs, prepare_run, start_or_resume, train_update, training_groups,
)


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="dday_ppo.py", description="Masked PPO for D-Day 1944 (CleanRL style)",
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    from maquis.dday.opponents import OPPONENTS

    g = add_versus_run_arguments(p, ("resistance", "german"), ("outcome", "vp_margin"), "runs/dday_ppo", OPPONENTS)
    add_train_opponents_argument(g)
    add_ppo_arguments(p, num_envs=64, gamma=0.998, epochs=4, ent_coef=0.01)
    add_imitation_arguments(p, minutes=4.0, steps=32, minibatch=512, buffer=200_000, bc_decay_minutes=6.0,
                            choices=("random", "heuristic", "search", "network"),
                            help="a bundled agent whose play of the learner's side is imitated first (DAgger)")
    add_evaluation_arguments(p, episodes=300, seed=100_000, every=20, final=1000)
    p.add_argument("--opponent-budget", type=int, default=200,
                   help="simulations per decision of a search opponent (search, network_search), in training "
                        "and evaluation")
    p.add_argument("--network", default=None, metavar="FILE",
                   help="the D-Day weight file the network levels play (opponent, --imitate network, baselines); "
                        "default the shipped network")
    args = p.parse_args(argv)
    for name in ("num_envs", "num_steps", "minibatches", "epochs", "eval_episodes", "final_eval_episodes", "threads",
                 "env_threads", "opponent_budget"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    training_groups(p, args, (args.side,), OPPONENTS)
    if args.network:
        from maquis.dday.agents import load_network

        try:
            load_network(args.network)  # the network levels play it from here on
        except ValueError as e:  # MaquisError: a missing file, another game's network; it says which
            p.error(f"--network {args.network}: {e}")
    return args


# --------------------------------------------------------------------------------------------
# The saved policy
# --------------------------------------------------------------------------------------------


def export_policy(agent, path, args, steps):
    """The actor as `maquis-mlp-v1` (w of shape (in, out)), readable with numpy only."""
    meta = {"trained_with": "maquis.dday.train.ppo", "game": "dday1944", "side": args.side, "opponent": args.opponent,
            "train_opponents": args.train_opponents, "opponent_budget": args.opponent_budget, "env_steps": int(steps),
            "seed": args.seed}
    ppo.export_policy(agent, path, "tanh", meta)


# --------------------------------------------------------------------------------------------
# Evaluation and the curve
# --------------------------------------------------------------------------------------------


def evaluate_row(policy, args, episodes, seed):
    """`maquis.dday.evaluate`'s row for the learner's side against the opponent."""
    import maquis.dday as dday

    res = dday.evaluate(policy, side=args.side, opponents=(args.opponent,), episodes=episodes, seed=seed,
                        budget=args.opponent_budget)
    return res.row(args.side, args.opponent)


def row_fields(row, prefix="eval_"):
    out = {}
    for k in ("win", "draw", "loss"):
        lo, hi = row.interval(k)
        out[f"{prefix}{k}"], out[f"{prefix}{k}_lo"], out[f"{prefix}{k}_hi"] = row.rate(k), lo, hi
    out[f"{prefix}vp"], out[f"{prefix}opp_vp"] = row.mean_vp, row.mean_opponent_vp
    return out


OTHER = {"resistance": "German", "german": "Resistance"}

CURVE_FIELDS = ["update", "env_steps", "games", "minutes", "phase", "sps", "eval_episodes",
                "eval_win", "eval_win_lo", "eval_win_hi", "eval_draw", "eval_draw_lo", "eval_draw_hi",
                "eval_loss", "eval_loss_lo", "eval_loss_hi", "eval_vp", "eval_opp_vp",
                "train_win", "train_len", "entropy", "pg_loss", "v_loss", "bc_loss", "approx_kl"]


def plot_curve(csv_path, png_path, baselines, title):
    plot = CurvePlot.read(csv_path, ("win", "loss"))
    if plot is None:
        return False
    for name, r in (baselines or {}).items():
        plot.baseline(name, r["win"], "k", f"{name} as the learner: win")
    plot.training("train_win", "train win rate (sampling policy)")
    plot.training("entropy", "entropy / 3", scale=3)
    return plot.save(png_path, "learner steps (millions)", title)


# --------------------------------------------------------------------------------------------
# Training statistics and the expert
# --------------------------------------------------------------------------------------------


class Games:
    """Outcomes and lengths of the last 1000 training games."""

    KEEP = 1000

    def __init__(self, num_envs):
        self.len = np.zeros(num_envs, np.int64)
        self.wins, self.lens, self.count = deque(maxlen=self.KEEP), deque(maxlen=self.KEEP), 0

    def record(self, sl, valid, done, info):
        """One step of the environments `sl` (a slice of the batch; the arrays are theirs), the
        finished games' as whole arrays."""
        length = self.len[sl]
        length += valid
        ended = np.flatnonzero(done)
        if not len(ended):
            return
        outcome = info.get("outcome")
        outs = [""] * len(ended) if outcome is None else [o.decode() if isinstance(o, bytes) else str(o)
                                                          for o in outcome[ended]]
        self.wins.extend(o == "win" for o in outs)
        self.lens.extend(length[ended].tolist())
        length[ended] = 0
        self.count += len(ended)

    def win_rate(self):
        return float(np.mean(self.wins)) if self.wins else float("nan")

    def mean_len(self):
        return float(np.mean(self.lens)) if self.lens else float("nan")


def make_expert(name, seed):
    """`expert(obs, masks, valid) -> actions`: a bundled agent playing the learner's side."""
    from maquis.dday.opponents import make_agent

    return batch_expert(make_agent(name, seed=seed))


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------


def main(argv=None):
    args = parse_args(argv)
    import torch

    import maquis.dday as dday
    from maquis.dday.policy import load_policy

    device, obs_dtype, halves = device_settings(args)
    out = prepare_run(args)

    envs = make_group_envs(lambda n, side, opponent: dday.DDayVectorEnv(
        num_envs=n, num_threads=args.env_threads, side=side, opponent=opponent,
        opponent_kwargs={"budget": args.opponent_budget}, reward=None if args.reward == "outcome" else "vp_margin",
        observation_dtype=obs_dtype, copy=False), groups((args.side,), args.train_opponents), args.num_envs, halves,
        device)
    obs_size, n_actions = dday.OBSERVATION_SIZE, dday.NUM_ACTIONS
    agent = build_agent(obs_size, n_actions, args.hidden, args.layers, "tanh").to(device)
    opt = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    curve_path = out / "curve.csv"
    steps, update, seconds0 = start_or_resume(args, agent, opt, curve_path, CURVE_FIELDS, device)

    T, B = args.num_steps, args.num_envs
    games = Games(B)
    collector = Collector(envs, args.seed + 7919 * update,
                          lambda sl, obs, rew, valid, done, term, info: games.record(sl, valid, done, info),
                          device, dday.OBSERVATION_DIVISOR, graph=args.graph)
    buf = collector.new_rollout(T, B)
    expert = make_expert(args.imitate, args.seed + 1) if args.imitate else None
    data = DaggerSet(args.imitate_buffer, obs_size, n_actions, device) if args.imitate else None
    budget_s = 60.0 * args.minutes if args.minutes else float("inf")
    imitate_s = 60.0 * args.imitate_minutes if args.imitate else 0.0
    t0, eval_s = time.time(), 0.0
    losses = {"entropy": float("nan"), "pg_loss": 0.0, "v_loss": 0.0, "bc_loss": 0.0, "approx_kl": 0.0}

    def run_seconds():  # training time so far (a resumed run counts its past), evaluations left out
        return seconds0 + time.time() - t0 - eval_s

    def evaluate_and_log(phase, sps):
        nonlocal eval_s
        te = time.time()
        export_policy(agent, out / "policy.npz", args, steps)
        row = evaluate_row(load_policy(out / "policy.npz"), args, args.eval_episodes, args.eval_seed)
        eval_s += time.time() - te
        rec = {"update": update, "env_steps": steps, "games": games.count, "minutes": round(run_seconds() / 60, 3),
               "phase": phase, "sps": round(sps), "eval_episodes": args.eval_episodes, **row_fields(row),
               "train_win": games.win_rate(), "train_len": games.mean_len(), **losses}
        with open(curve_path, "a", newline="") as f:
            csv.DictWriter(f, CURVE_FIELDS).writerow(rec)
        lo, hi = row.interval("win")
        print(f"update {update:5d}  steps {steps:>10,}  {rec['minutes']:6.1f} min  {phase:<7}  {sps:6.0f} steps/s  "
              f"eval win {row.rate('win'):.3f} [{lo:.3f}, {hi:.3f}]  train win {games.win_rate():.3f}  "
              f"entropy {losses['entropy']:.2f}", flush=True)

    def save():
        export_policy(agent, out / "policy.npz", args, steps)
        torch.save({"agent": agent.state_dict(), "opt": opt.state_dict(), "steps": steps, "update": update,
                    "seconds": run_seconds()}, out / "checkpoint.pt")

    phase = "ppo"
    while steps < args.total_steps and run_seconds() < budget_s:
        ts = time.time()
        phase, stats, done = train_update(args, agent, opt, collector, buf, expert, data, run_seconds(), steps, imitate_s)
        losses = {k: v for k, v in stats.items() if k in CURVE_FIELDS}  # the curve has no clipfrac
        steps += done
        update += 1
        sps = T * B / max(time.time() - ts, 1e-9)
        if args.eval_every and update % args.eval_every == 0:
            evaluate_and_log(phase, sps)
            save()
    evaluate_and_log(phase, 0)
    save()
    envs.close()

    # The final evaluation: the saved policy (what `maquis dday eval --policy` reads) and the
    # bundled agents as the learner on the same seeds.
    seed = args.eval_seed + 1_000_000
    trained_minutes = run_seconds() / 60  # before the final evaluation, which is not training
    results = {"ppo": row_fields(evaluate_row(load_policy(out / "policy.npz"), args, args.final_eval_episodes, seed), "")}
    for name in [b.strip() for b in args.baselines.split(",") if b.strip()]:
        results[name] = row_fields(evaluate_row(name, args, args.final_eval_episodes, seed), "")
    final = {"side": args.side, "opponent": args.opponent, "episodes": args.final_eval_episodes, "seed": seed,
             "env_steps": steps, "minutes": trained_minutes, "results": results}
    (out / "final_eval.json").write_text(json.dumps(final, indent=2))
    for name, r in results.items():
        print(f"final {name:<10} as {args.side} vs {args.opponent}, {args.final_eval_episodes} games: "
              f"win {r['win']:.3f} [{r['win_lo']:.3f}, {r['win_hi']:.3f}]  draw {r['draw']:.3f}  loss {r['loss']:.3f}  "
              f"VP {r['vp']:.1f} - {r['opp_vp']:.1f}")
    title = f"D-Day 1944: masked PPO as the {args.side.capitalize()} against the {args.opponent} {OTHER[args.side]}"
    if plot_curve(curve_path, out / "curve.png", {k: v for k, v in results.items() if k != "ppo"}, title):
        print(f"wrote {out / 'curve.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

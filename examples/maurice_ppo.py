#!/usr/bin/env python3
"""Masked PPO for Maurice Lite on `maquis.maurice.MauriceVectorEnv`: blue against the heuristic red.

The masked-PPO core, shared with `train_ppo.py` and `dday_ppo.py`, is `maquis.train.ppo`; this
example adds the game's model and its statistics.

    pip install . torch matplotlib
    python examples/maurice_ppo.py --minutes 20 --out runs/maurice_ppo                 # on the CPU
    python examples/maurice_ppo.py --minutes 5 --device cuda --num-envs 512 --out runs/maurice_ppo
    python examples/maurice_ppo.py --resume runs/maurice_ppo/checkpoint.pt --minutes 10 --out runs/maurice_ppo

What it does
------------
* The learner plays `--side` (default blue) against a bundled `--opponent` (default the heuristic)
  in `--num-envs` games stepped together in Rust, the opponent inside; one step is one decision of
  the learner (docs/api/maurice.md).
* The model reads the observation as what it is: a small CNN over the 15 maps of 30 × 45 cells
  (`PLANES`: terrain, walls, the units of each side, the CinCs) and an MLP over the 1,084 values of
  state (round, hands, the units' rows), joined into one trunk with an actor and a critic head.
* Reward (`--reward`): `morale_margin` (the default: own morale left / own start − the same for the
  enemy, at the end) gives a signal in the many games that end at nightfall; `outcome` is win +1,
  draw 0, loss −1.
* Every `--eval-every` updates (and at the end) the greedy policy (masked argmax) plays
  `--eval-episodes` games on fixed seeds against the opponent (one game per environment of a vector
  env reset with `--eval-seed`); win/draw/loss with Wilson 95 % intervals and the mean morale
  margin go to `curve.csv` and `curve.png`, with the heuristic playing the learner's side on the
  same deals as the baseline.
* Saves `checkpoint.pt` (the model, the optimiser, the counters: `--resume` continues),
  `curve.csv`, `curve.png`, `args.json`, `final_eval.json`.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time

import numpy as np

# The masked-PPO core shared with the other training examples.
from maquis.train.ppo import (
    Batch, Collector, CurvePlot, add_evaluation_arguments, add_ppo_arguments, add_versus_run_arguments, device_settings, gae, make_envs,
    phase_at, ppo_update, prepare_run, start_or_resume,
)

CURVE_FIELDS = ["update", "env_steps", "games", "minutes", "sps", "eval_episodes", "eval_win", "eval_win_lo",
                "eval_win_hi", "eval_draw", "eval_loss", "eval_margin", "train_win", "train_return", "entropy",
                "pg_loss", "v_loss", "approx_kl"]


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    g = add_versus_run_arguments(p, ("blue", "red"), ("morale_margin", "outcome"), "runs/maurice_ppo")
    g.add_argument("--scenario", choices=("standard", "skirmish"), default="standard")
    g.add_argument("--channels", type=int, default=32, help="channels of the CNN over the maps")
    add_ppo_arguments(p, num_envs=64, gamma=0.997, epochs=3, ent_coef=0.01)
    add_evaluation_arguments(p, episodes=128, seed=100_000, every=10)
    args = p.parse_args(argv)
    for name in ("num_envs", "num_steps", "minibatches", "epochs", "eval_episodes", "threads", "env_threads", "channels"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    return args


def build_model(channels, hidden):
    """The actor-critic over Maurice's observation: CNN over the maps + MLP over the state."""
    import torch
    import torch.nn as nn

    import maquis.maurice as maurice

    n_planes, state_size = len(maurice.PLANES), maurice.COMPACT_OBSERVATION_SIZE
    h, w, n_actions = maurice.HEIGHT, maurice.WIDTH, maurice.NUM_ACTIONS

    def linear(i, o, std=2 ** 0.5):
        lin = nn.Linear(i, o)
        nn.init.orthogonal_(lin.weight, std)
        nn.init.zeros_(lin.bias)
        return lin

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            c = channels
            self.maps = nn.Sequential(
                nn.Conv2d(n_planes, c, 3, padding=1), nn.ReLU(),
                nn.Conv2d(c, 2 * c, 3, stride=2, padding=1), nn.ReLU(),
                nn.Conv2d(2 * c, 2 * c, 3, stride=2, padding=1), nn.ReLU(),
                nn.Flatten(),
            )
            with torch.no_grad():
                flat = self.maps(torch.zeros(1, n_planes, h, w)).shape[1]
            self.maps_out = linear(flat, hidden)
            self.state = nn.Sequential(linear(state_size, hidden), nn.ReLU())
            self.trunk = nn.Sequential(linear(2 * hidden, hidden), nn.ReLU())
            self.actor = linear(hidden, n_actions, 0.01)
            self.critic = linear(hidden, 1, 1.0)

        def features(self, x):
            planes = x[:, state_size:].reshape(-1, n_planes, h, w)
            m = torch.relu(self.maps_out(self.maps(planes)))
            return self.trunk(torch.cat([self.state(x[:, :state_size]), m], dim=1))

        def value(self, x):
            return self.critic(self.features(x)).squeeze(-1)

        def act(self, x, mask, action=None, expert_action=None):
            f = self.features(x)
            logits = self.actor(f).masked_fill(~mask, -1e8)
            dist = torch.distributions.Categorical(logits=logits, validate_args=False)  # checks would wait on the GPU
            if action is None:
                action = dist.sample()
            p = dist.probs
            ent = -(p * torch.where(mask, dist.logits, torch.zeros_like(p))).sum(-1)
            return action, dist.log_prob(action), ent, self.critic(f).squeeze(-1)

        def greedy(self, x, mask):
            return self.actor(self.features(x)).masked_fill(~mask, -1e8).argmax(-1)

    return Model()


class Games:
    """Finished training games: the learner's outcomes and final rewards (the morale margin under
    `--reward morale_margin`)."""

    def __init__(self):
        self.wins, self.returns = [], []

    def record(self, rew, done, info):
        outcome = info.get("outcome")
        for i in np.flatnonzero(done):
            self.wins.append(float(outcome is not None and outcome[i] == "win"))
            self.returns.append(float(rew[i]))

    @staticmethod
    def recent(xs):
        return float(np.mean(xs[-500:])) if xs else float("nan")


def play_greedy(act_batch, args, episodes, seed):
    """One game in each of `episodes` environments of a vector env reset with `seed`, the learner
    choosing by `act_batch(obs, masks)`; returns the outcomes and the learner's reward per game."""
    import maquis.maurice as maurice

    env = maurice.MauriceVectorEnv(num_envs=episodes, num_threads=args.env_threads, side=args.side,
                                   opponent=args.opponent, scenario=args.scenario, reward="morale_margin")
    obs, info = env.reset(seed=seed)
    mask = info["action_mask"].astype(bool)
    outcome = np.array([None] * episodes, dtype=object)
    reward = np.zeros(episodes)
    while any(o is None for o in outcome):
        live = np.array([o is None for o in outcome])
        actions = np.zeros(episodes, np.int64)
        rows = np.flatnonzero(live)
        if len(rows):
            actions[rows] = act_batch(obs[rows], mask[rows])
        obs, rew, term, trunc, info = env.step(actions)
        mask = info["action_mask"].astype(bool)
        for i in np.flatnonzero(live & (term | trunc)):
            outcome[i] = info["outcome"][i]
            reward[i] = rew[i]
    env.close()
    return list(outcome), reward


def evaluation_row(outcomes, rewards):
    from maquis.common.evaluation import wilson_interval

    n = len(outcomes)
    wins = sum(o == "win" for o in outcomes)
    lo, hi = wilson_interval(wins, n)
    return {"eval_win": wins / n, "eval_win_lo": lo, "eval_win_hi": hi,
            "eval_draw": sum(o == "draw" for o in outcomes) / n, "eval_loss": sum(o == "loss" for o in outcomes) / n,
            "eval_margin": float(np.mean(rewards))}


def main(argv=None):
    args = parse_args(argv)
    import torch

    import maquis.maurice as maurice

    device, obs_dtype, halves = device_settings(args)
    out = prepare_run(args)
    envs = make_envs(lambda n: maurice.MauriceVectorEnv(
        num_envs=n, num_threads=args.env_threads, side=args.side, opponent=args.opponent, scenario=args.scenario,
        reward=None if args.reward == "outcome" else "morale_margin", observation_dtype=obs_dtype, copy=False),
        args.num_envs, halves, device)
    model = build_model(args.channels, args.hidden).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, eps=1e-5)
    curve_path = out / "curve.csv"
    steps, update, seconds0 = start_or_resume(args, model, opt, curve_path, CURVE_FIELDS, device)

    T, B = args.num_steps, args.num_envs
    games = Games()
    collector = Collector(envs, args.seed + 7919 * update,
                          lambda sl, obs, rew, valid, done, term, info: games.record(rew, done, info),
                          device, maurice.OBSERVATION_DIVISOR, graph=args.graph)
    buf = collector.new_rollout(T, B)
    budget_s = 60.0 * args.minutes if args.minutes else float("inf")
    t0, eval_s = time.time(), 0.0
    losses = {"entropy": float("nan"), "pg_loss": 0.0, "v_loss": 0.0, "approx_kl": 0.0}

    def greedy_batch(obs, masks):
        with torch.no_grad():
            x = torch.as_tensor(np.asarray(obs, dtype=np.float32), device=device)
            m = torch.as_tensor(masks, device=device)
            return model.greedy(x, m).cpu().numpy()

    def run_seconds():
        return seconds0 + time.time() - t0 - eval_s

    def evaluate_and_log(sps):
        nonlocal eval_s
        te = time.time()
        row = evaluation_row(*play_greedy(greedy_batch, args, args.eval_episodes, args.eval_seed))
        eval_s += time.time() - te
        rec = {"update": update, "env_steps": steps, "games": len(games.wins), "minutes": round(run_seconds() / 60, 3),
               "sps": round(sps), "eval_episodes": args.eval_episodes, **row, "train_win": games.recent(games.wins),
               "train_return": games.recent(games.returns), **losses}
        with open(curve_path, "a", newline="") as f:
            csv.DictWriter(f, CURVE_FIELDS).writerow(rec)
        print(f"update {update:5d}  steps {steps:>10,}  {rec['minutes']:6.1f} min  {sps:7.0f} steps/s  "
              f"eval win {row['eval_win']:.3f} [{row['eval_win_lo']:.3f}, {row['eval_win_hi']:.3f}] "
              f"draw {row['eval_draw']:.3f}  margin {row['eval_margin']:+.3f}  entropy {losses['entropy']:.2f}",
              flush=True)

    def save():
        torch.save({"agent": model.state_dict(), "opt": opt.state_dict(), "steps": steps, "update": update,
                    "seconds": run_seconds(), "args": vars(args)}, out / "checkpoint.pt")

    while steps < args.total_steps and run_seconds() < budget_s:
        ts = time.time()
        frac = max(steps / args.total_steps, run_seconds() / budget_s if args.minutes else 0.0)
        now = phase_at(args, run_seconds(), frac, 0.0, False)
        for g in opt.param_groups:
            g["lr"] = now.lr
        next_value = collector.collect(model, buf, None, now)
        adv, ret = gae(buf, next_value, args.gamma, args.gae_lambda)
        stats = ppo_update(model, opt, Batch(buf, adv, ret), args, 0.0)
        losses = {k: v for k, v in stats.items() if k in CURVE_FIELDS}
        steps += int(buf.valid.sum())
        update += 1
        sps = T * B / max(time.time() - ts, 1e-9)
        if args.eval_every and update % args.eval_every == 0:
            evaluate_and_log(sps)
            save()
    evaluate_and_log(0)
    save()
    envs.close()

    # The baseline: the bundled heuristic playing the learner's side on the same deals.
    heuristic = maurice.agents.HeuristicAgent(seed=args.seed)
    base = evaluation_row(*play_greedy(heuristic.act_batch, args, args.eval_episodes, args.eval_seed))
    final = {"side": args.side, "opponent": args.opponent, "scenario": args.scenario, "episodes": args.eval_episodes,
             "seed": args.eval_seed, "env_steps": steps, "minutes": run_seconds() / 60,
             "device": str(device), "heuristic": base}
    rows = list(csv.DictReader(open(curve_path)))
    final["ppo"] = {k: float(rows[-1][k]) for k in CURVE_FIELDS if k.startswith("eval_")}
    (out / "final_eval.json").write_text(json.dumps(final, indent=2))
    print(f"heuristic as {args.side} on the same deals: win {base['eval_win']:.3f} "
          f"[{base['eval_win_lo']:.3f}, {base['eval_win_hi']:.3f}]  margin {base['eval_margin']:+.3f}")
    plot = CurvePlot.read(curve_path, ("win",))
    if plot is None:
        return 0
    plot.baseline("heuristic", base["eval_win"], "tab:gray", f"heuristic as {args.side}")
    plot.training("train_return", "final reward of training games (last 500)")
    plot.save(out / "curve.png", "learner steps",
              f"Maurice Lite: masked PPO as {args.side} against the {args.opponent} ({args.scenario})")
    print(f"wrote {out / 'curve.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

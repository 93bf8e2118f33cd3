#!/usr/bin/env python3
"""Masked PPO for D-Day 1944 on `maquis.dday.DDayVectorEnv`, in one file (CleanRL style).

    pip install . torch matplotlib
    python examples/dday_ppo.py --minutes 20 --out runs/dday_ppo          # the Resistance vs the heuristic German
    python -m maquis dday eval --policy runs/dday_ppo/policy.npz --sides resistance --opponents heuristic --episodes 1000
    python examples/dday_ppo.py --resume runs/dday_ppo/checkpoint.pt --minutes 10 --out runs/dday_ppo

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
* Optional warm start (`--imitate heuristic`): for `--imitate-minutes` the policy imitates a bundled
  agent playing the learner's side (DAgger: the expert labels the states the mixed policy visits),
  then PPO takes over with a cross-entropy term to the expert decaying to 0 over
  `--bc-decay-minutes`. The expert reads the same observation as the learner.
* Every `--eval-every` updates (and at the end) the greedy policy (masked argmax) is evaluated on
  fixed seeds with `maquis.dday.evaluate` (win/draw/loss with Wilson 95 % intervals) and written to
  `curve.csv`, plotted to `curve.png`. At the end `--final-eval-episodes` games against the
  opponent, with the bundled agents on the same seeds as baselines, go to `final_eval.json`.
* Saves `policy.npz` (the `maquis-mlp-v1` numpy MLP of `maquis.policy`; `maquis dday eval --policy
  FILE` and `maquis.dday.evaluate(FILE)` play it without torch), `checkpoint.pt` (to continue with
  `--resume`), `curve.csv`, `curve.png`, `args.json`.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import random
import sys
import time
from pathlib import Path

import numpy as np

from maquis.policy import save_policy


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    g = p.add_argument_group("budget and run")
    g.add_argument("--total-steps", type=int, default=50_000_000, help="learner steps (all envs together)")
    g.add_argument("--minutes", type=float, default=None, help="wall-clock budget; stops at whichever comes first")
    g.add_argument("--side", choices=("resistance", "german"), default="resistance")
    g.add_argument("--opponent", choices=("random", "heuristic", "search"), default="heuristic")
    g.add_argument("--reward", choices=("outcome", "vp_margin"), default="outcome")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--out", default="runs/dday_ppo", help="output directory")
    g.add_argument("--threads", type=int, default=1, help="torch threads (torch.set_num_threads)")
    g.add_argument("--env-threads", type=int, default=1, help="Rust threads of the vector env")
    g.add_argument("--resume", default=None, help="checkpoint.pt to continue from")
    g = p.add_argument_group("PPO")
    g.add_argument("--num-envs", type=int, default=64)
    g.add_argument("--num-steps", type=int, default=128, help="steps per env per rollout")
    g.add_argument("--lr", type=float, default=3e-4)
    g.add_argument("--anneal-lr", type=int, default=1, help="1: linear decay over the budget")
    g.add_argument("--gamma", type=float, default=0.998)
    g.add_argument("--gae-lambda", type=float, default=0.95)
    g.add_argument("--minibatches", type=int, default=4)
    g.add_argument("--epochs", type=int, default=4)
    g.add_argument("--clip", type=float, default=0.2)
    g.add_argument("--ent-coef", type=float, default=0.01)
    g.add_argument("--vf-coef", type=float, default=0.5)
    g.add_argument("--max-grad-norm", type=float, default=0.5)
    g.add_argument("--hidden", type=int, default=256)
    g.add_argument("--layers", type=int, default=2)
    g = p.add_argument_group("imitation warm start (optional)")
    g.add_argument("--imitate", default=None, choices=("random", "heuristic", "search"),
                   help="a bundled agent whose play of the learner's side is imitated first (DAgger)")
    g.add_argument("--imitate-minutes", type=float, default=4.0)
    g.add_argument("--imitate-beta-end", type=float, default=0.3,
                   help="share of expert actions in the rollouts at the end of the imitation phase (from 1)")
    g.add_argument("--imitate-steps", type=int, default=32, help="gradient steps per rollout during imitation")
    g.add_argument("--imitate-lr", type=float, default=1e-3)
    g.add_argument("--imitate-minibatch", type=int, default=512)
    g.add_argument("--imitate-buffer", type=int, default=200_000, help="samples kept in the aggregated data set")
    g.add_argument("--bc-coef", type=float, default=0.5, help="after imitation: weight of the cross-entropy to the expert, decaying to 0")
    g.add_argument("--bc-decay-minutes", type=float, default=6.0)
    g = p.add_argument_group("evaluation")
    g.add_argument("--eval-every", type=int, default=20, help="updates between evaluations (0: only at the end)")
    g.add_argument("--eval-episodes", type=int, default=300)
    g.add_argument("--eval-seed", type=int, default=100_000)
    g.add_argument("--final-eval-episodes", type=int, default=1000)
    g.add_argument("--baselines", default="random,heuristic", help="bundled agents evaluated on the final seeds ('' for none)")
    args = p.parse_args(argv)
    for name in ("num_envs", "num_steps", "minibatches", "epochs", "eval_episodes", "final_eval_episodes", "threads", "env_threads"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    return args


# --------------------------------------------------------------------------------------------
# The network and the saved policy
# --------------------------------------------------------------------------------------------


def build_agent(obs_size, n_actions, hidden, layers):
    """The actor-critic: two tanh MLPs over the observation, the actor's logits masked to legal actions."""
    import torch
    import torch.nn as nn

    def layer(i, o, std=math.sqrt(2)):
        lin = nn.Linear(i, o)
        nn.init.orthogonal_(lin.weight, std)
        nn.init.constant_(lin.bias, 0.0)
        return lin

    def mlp(out_dim, out_std):
        mods, d = [], obs_size
        for _ in range(layers):
            mods += [layer(d, hidden), nn.Tanh()]
            d = hidden
        mods.append(layer(d, out_dim, out_std))
        return nn.Sequential(*mods)

    class Agent(nn.Module):
        def __init__(self):
            super().__init__()
            self.actor = mlp(n_actions, 0.01)
            self.critic = mlp(1, 1.0)

        def value(self, x):
            return self.critic(x).squeeze(-1)

        def dist(self, x, mask):
            logits = torch.where(mask, self.actor(x), torch.full((1,), -1e8))
            return torch.distributions.Categorical(logits=logits)

        def act(self, x, mask, action=None):
            d = self.dist(x, mask)
            if action is None:
                action = d.sample()
            p = d.probs
            ent = -(p * torch.where(mask, d.logits, torch.zeros_like(p))).sum(-1)
            return action, d.log_prob(action), ent, self.value(x)

    return Agent()


def export_policy(agent, path, args, steps):
    """The actor as `maquis-mlp-v1` (w of shape (in, out)), readable with numpy only."""
    import torch
    import torch.nn as nn

    import maquis

    lins = [m for m in agent.actor if isinstance(m, nn.Linear)]
    ws = [m.weight.detach().cpu().numpy().T.copy() for m in lins]
    bs = [m.bias.detach().cpu().numpy().copy() for m in lins]
    meta = {
        "trained_with": "examples/dday_ppo.py",
        "game": "dday1944",
        "side": args.side,
        "opponent": args.opponent,
        "env_steps": int(steps),
        "seed": args.seed,
        "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "maquis_version": getattr(maquis, "__version__", "?"),
        "torch_version": torch.__version__,
    }
    save_policy(path, ws, bs, "tanh", meta)


# --------------------------------------------------------------------------------------------
# Evaluation and the curve
# --------------------------------------------------------------------------------------------


def evaluate_row(policy, args, episodes, seed):
    """`maquis.dday.evaluate`'s row for the learner's side against the opponent."""
    import maquis.dday as dday

    res = dday.evaluate(policy, side=args.side, opponents=(args.opponent,), episodes=episodes, seed=seed)
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
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = list(csv.DictReader(open(csv_path)))
    if not rows:
        return False
    steps = np.array([float(r["env_steps"]) for r in rows]) / 1e6
    minutes = np.array([float(r["minutes"]) for r in rows])
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    colors = {"win": "tab:green", "draw": "tab:orange", "loss": "tab:red"}
    for key in ("win", "loss"):
        y = np.array([float(r[f"eval_{key}"]) for r in rows])
        lo = np.array([float(r[f"eval_{key}_lo"]) for r in rows])
        hi = np.array([float(r[f"eval_{key}_hi"]) for r in rows])
        ax1.plot(steps, y, "-o", ms=3, color=colors[key], label=f"PPO {key}")
        ax1.fill_between(steps, lo, hi, color=colors[key], alpha=0.15)
    styles = {"random": ":", "heuristic": "--", "search": "-."}
    for name, r in (baselines or {}).items():
        ax1.axhline(r["win"], color="k", ls=styles.get(name, "--"), lw=1, label=f"{name} as the learner: win")
    phases = [r["phase"] for r in rows]
    if "imitate" in phases and "ppo" in phases:
        k = phases.index("ppo")
        ax1.axvline(steps[max(k - 1, 0)], color="gray", lw=1, ls=":")
        ax1.text(steps[max(k - 1, 0)], 0.97, " imitation | PPO", fontsize=7, va="top", color="gray")
    ax1.set_xlabel("learner steps (millions)")
    ax1.set_ylabel("rate (greedy policy, fixed eval seeds; 95% CI)")
    ax1.set_ylim(0, 1)
    ax1.grid(alpha=0.3)
    ax1.legend(fontsize=7)
    ax1.set_title(title)
    ax2.plot(minutes, [float(r["train_win"]) for r in rows], label="train win rate (sampling policy)")
    ax2.plot(minutes, [float(r["entropy"]) / 3 for r in rows], label="entropy / 3")
    ax2.set_xlabel("wall-clock minutes")
    ax2.grid(alpha=0.3)
    ax2.legend(fontsize=7)
    ax2.set_title("training")
    fig.tight_layout()
    fig.savefig(png_path, dpi=110)
    plt.close(fig)
    return True


# --------------------------------------------------------------------------------------------
# Rollouts
# --------------------------------------------------------------------------------------------


class Rollout:
    """One rollout, (T, B) per field; `valid` is 0 for the autoreset steps (no decision)."""

    def __init__(self, T, B, obs_size, n_actions):
        import torch

        self.obs = torch.zeros((T, B, obs_size))
        self.mask = torch.zeros((T, B, n_actions), dtype=torch.bool)
        self.act = torch.zeros((T, B), dtype=torch.long)
        self.logp = torch.zeros((T, B))
        self.val = torch.zeros((T, B))
        self.rew = torch.zeros((T, B))
        self.done = torch.zeros((T, B))
        self.valid = torch.zeros((T, B))
        self.expert = torch.zeros((T, B), dtype=torch.long)


class Games:
    """Outcomes and lengths of the last 1000 training games."""

    KEEP = 1000

    def __init__(self, num_envs):
        self.len = np.zeros(num_envs, np.int64)
        self.wins, self.lens, self.count = [], [], 0

    def record(self, valid, done, info):
        self.len += valid
        if not done.any():
            return
        outcome = info.get("outcome")
        for i in np.flatnonzero(done):
            o = outcome[i] if outcome is not None else ""
            o = o.decode() if isinstance(o, bytes) else str(o)
            self.wins.append(o == "win")
            self.lens.append(int(self.len[i]))
            self.len[i] = 0
            self.count += 1
        self.wins, self.lens = self.wins[-self.KEEP:], self.lens[-self.KEEP:]

    def win_rate(self):
        return float(np.mean(self.wins)) if self.wins else float("nan")

    def mean_len(self):
        return float(np.mean(self.lens)) if self.lens else float("nan")


def make_expert(name, seed):
    """`expert(obs, masks, valid) -> actions`: a bundled agent playing the learner's side."""
    from maquis.dday.opponents import make_agent

    agent = make_agent(name, seed=seed)

    def expert(obs, masks, valid):
        out = np.zeros(len(obs), np.int64)
        idx = np.flatnonzero(valid & masks.any(axis=1))
        if len(idx):
            out[idx] = agent.act_batch(obs[idx], masks[idx])
        return out

    return expert


class Collector:
    """Steps the vector env with the agent (mixed with the expert while imitating) into a Rollout."""

    def __init__(self, env, games, seed):
        import torch

        self.env, self.games = env, games
        self.obs_np, _ = env.reset(seed=seed)
        self.next_obs = torch.as_tensor(self.obs_np)
        self.pending_reset = np.zeros(env.num_envs, bool)  # the env's next step() is its autoreset

    def collect(self, agent, buf, expert, beta, need_expert):
        import torch

        T, B = buf.act.shape
        with torch.no_grad():
            for t in range(T):
                masks_np = np.asarray(self.env.action_masks(), dtype=bool)
                valid = ~self.pending_reset
                safe = masks_np.copy()
                safe[~safe.any(axis=1)] = True  # reset rows: any action, it is ignored
                mask_t = torch.as_tensor(safe)
                action, logp, _, value = agent.act(self.next_obs, mask_t)
                if need_expert:
                    ex = torch.as_tensor(expert(self.obs_np, masks_np, valid), dtype=torch.long)
                    buf.expert[t] = ex
                    if beta > 0:
                        use = torch.as_tensor(np.random.random(B) < beta)
                        action = torch.where(use, ex, action)
                        logp = agent.act(self.next_obs, mask_t, action)[1]
                buf.obs[t], buf.mask[t], buf.act[t], buf.logp[t], buf.val[t] = self.next_obs, mask_t, action, logp, value
                buf.valid[t] = torch.as_tensor(valid, dtype=torch.float32)
                self.obs_np, rew, term, trunc, info = self.env.step(action.numpy())
                done = (np.asarray(term) | np.asarray(trunc)) & valid
                buf.rew[t] = torch.as_tensor(np.asarray(rew, dtype=np.float32) * valid)
                buf.done[t] = torch.as_tensor(done, dtype=torch.float32)
                self.next_obs = torch.as_tensor(self.obs_np)
                self.games.record(valid, done, info)
                self.pending_reset = done
            return agent.value(self.next_obs)


def gae(buf, next_value, gamma, lam):
    """Advantages and returns; a done step does not bootstrap, reset steps get 0."""
    import torch

    T, B = buf.rew.shape
    with torch.no_grad():
        adv = torch.zeros((T, B))
        last = torch.zeros(B)
        for t in reversed(range(T)):
            nv = next_value if t == T - 1 else buf.val[t + 1]
            nonterm = 1.0 - buf.done[t]
            delta = buf.rew[t] + gamma * nv * nonterm - buf.val[t]
            last = (delta + gamma * lam * nonterm * last) * buf.valid[t]
            adv[t] = last
        return adv, adv + buf.val


# --------------------------------------------------------------------------------------------
# Updates
# --------------------------------------------------------------------------------------------


class Batch:
    """A rollout flattened to T * B samples, with the indices of the valid ones."""

    def __init__(self, buf, adv, ret):
        import torch

        T, B, obs_size = buf.obs.shape
        self.obs = buf.obs.reshape(T * B, obs_size)
        self.mask = buf.mask.reshape(T * B, -1)
        self.act, self.logp, self.val = buf.act.reshape(-1), buf.logp.reshape(-1), buf.val.reshape(-1)
        self.adv, self.ret, self.expert = adv.reshape(-1), ret.reshape(-1), buf.expert.reshape(-1)
        self.idx_valid = torch.nonzero(buf.valid.reshape(-1) > 0).squeeze(1)


class DaggerSet:
    """The aggregated imitation data (DAgger): observations, masks, the expert's actions (a ring)."""

    def __init__(self, cap, obs_size, n_actions):
        import torch

        self.cap = cap
        self.obs = torch.zeros((cap, obs_size))
        self.mask = torch.zeros((cap, n_actions), dtype=torch.bool)
        self.act = torch.zeros(cap, dtype=torch.long)
        self.n, self.at = 0, 0

    def add(self, batch):
        import torch

        nb = len(batch.idx_valid)
        k = min(nb, self.cap)
        pos = (self.at + torch.arange(k)) % self.cap
        sel = batch.idx_valid[torch.randperm(nb)[:k]]
        self.obs[pos], self.mask[pos], self.act[pos] = batch.obs[sel], batch.mask[sel], batch.expert[sel]
        self.at, self.n = int((self.at + k) % self.cap), min(self.cap, self.n + k)


def imitation_update(agent, opt, data, batch, args):
    """Cross-entropy of the actor to the aggregated expert labels; the critic to this rollout's returns."""
    import torch
    import torch.nn as nn

    data.add(batch)
    nb = len(batch.idx_valid)
    for _ in range(args.imitate_steps):
        j = torch.randint(0, data.n, (args.imitate_minibatch,))
        bc = -agent.dist(data.obs[j], data.mask[j]).log_prob(data.act[j]).mean()
        i = batch.idx_valid[torch.randint(0, nb, (args.imitate_minibatch,))]
        vl = 0.5 * ((agent.value(batch.obs[i]) - batch.ret[i]) ** 2).mean()
        loss = bc + args.vf_coef * vl
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm * 4)
        opt.step()
    return {"entropy": float("nan"), "pg_loss": 0.0, "v_loss": vl.item(), "bc_loss": bc.item(), "approx_kl": 0.0}


def ppo_update(agent, opt, batch, args, bc_coef):
    """Clipped PPO epochs over minibatches of the valid samples, plus `bc_coef` times the
    cross-entropy to the expert."""
    import torch
    import torch.nn as nn

    nb = len(batch.idx_valid)
    mbs = max(1, nb // args.minibatches)
    kl = 0.0
    for _ in range(args.epochs):
        perm = batch.idx_valid[torch.randperm(nb)]
        for s in range(0, nb - mbs + 1, mbs):
            i = perm[s:s + mbs]
            _, newlogp, ent, newv = agent.act(batch.obs[i], batch.mask[i], batch.act[i])
            bc = -agent.dist(batch.obs[i], batch.mask[i]).log_prob(batch.expert[i]).mean() if bc_coef > 0 else torch.zeros(())
            logratio = newlogp - batch.logp[i]
            ratio = logratio.exp()
            with torch.no_grad():
                kl = ((ratio - 1) - logratio).mean().item()
            a = batch.adv[i]
            a = (a - a.mean()) / (a.std() + 1e-8)
            pg = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
            v_clipped = batch.val[i] + (newv - batch.val[i]).clamp(-args.clip, args.clip)
            vl = 0.5 * torch.max((newv - batch.ret[i]) ** 2, (v_clipped - batch.ret[i]) ** 2).mean()
            loss = pg - args.ent_coef * ent.mean() + args.vf_coef * vl + bc_coef * bc
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
            opt.step()
    return {"entropy": ent.mean().item(), "pg_loss": pg.item(), "v_loss": vl.item(), "bc_loss": bc.item(), "approx_kl": kl}


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------


def main(argv=None):
    args = parse_args(argv)
    import torch

    import maquis.dday as dday
    from maquis.dday.policy import load_policy

    torch.set_num_threads(args.threads)
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "args.json").write_text(json.dumps(vars(args), indent=2))

    env = dday.DDayVectorEnv(num_envs=args.num_envs, num_threads=args.env_threads, side=args.side,
                             opponent=args.opponent, reward=None if args.reward == "outcome" else "vp_margin")
    obs_size, n_actions = dday.OBSERVATION_SIZE, dday.NUM_ACTIONS
    agent = build_agent(obs_size, n_actions, args.hidden, args.layers)
    opt = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    steps, update, seconds0 = 0, 0, 0.0
    curve_path = out / "curve.csv"
    if args.resume:
        ck = torch.load(args.resume, weights_only=False)
        agent.load_state_dict(ck["agent"])
        opt.load_state_dict(ck["opt"])
        steps, update, seconds0 = ck["steps"], ck["update"], ck["seconds"]
        print(f"resumed from {args.resume}: update {update}, {steps} steps, {seconds0 / 60:.1f} min")
    if not (args.resume and curve_path.exists()):
        with open(curve_path, "w", newline="") as f:
            csv.DictWriter(f, CURVE_FIELDS).writeheader()

    T, B = args.num_steps, args.num_envs
    buf = Rollout(T, B, obs_size, n_actions)
    games = Games(B)
    collector = Collector(env, games, args.seed + 7919 * update)
    expert = make_expert(args.imitate, args.seed + 1) if args.imitate else None
    data = DaggerSet(args.imitate_buffer, obs_size, n_actions) if args.imitate else None
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
        run_s = run_seconds()
        frac = max(steps / args.total_steps, run_s / budget_s if args.minutes else 0.0)
        imitating = args.imitate is not None and run_s < imitate_s
        beta = 1.0 - (1.0 - args.imitate_beta_end) * min(1.0, run_s / max(imitate_s, 1e-9)) if imitating else 0.0
        bc_coef = 0.0
        if args.imitate and not imitating and args.bc_coef > 0:
            bc_coef = args.bc_coef * max(0.0, 1.0 - (run_s - imitate_s) / max(60 * args.bc_decay_minutes, 1e-9))
        lr = args.imitate_lr if imitating else args.lr * (1.0 - min(frac, 0.95)) if args.anneal_lr else args.lr
        for g in opt.param_groups:
            g["lr"] = lr
        phase = "imitate" if imitating else "ppo"
        next_value = collector.collect(agent, buf, expert, beta, imitating or bc_coef > 0)
        adv, ret = gae(buf, next_value, args.gamma, args.gae_lambda)
        batch = Batch(buf, adv, ret)
        losses = imitation_update(agent, opt, data, batch, args) if imitating else ppo_update(agent, opt, batch, args, bc_coef)
        steps += int(buf.valid.sum())
        update += 1
        sps = T * B / max(time.time() - ts, 1e-9)
        if args.eval_every and update % args.eval_every == 0:
            evaluate_and_log(phase, sps)
            save()
    evaluate_and_log(phase, 0)
    save()
    env.close()

    # The final evaluation: the saved policy (what `maquis dday eval --policy` reads) and the
    # bundled agents as the learner on the same seeds.
    seed = args.eval_seed + 1_000_000
    results = {"ppo": row_fields(evaluate_row(load_policy(out / "policy.npz"), args, args.final_eval_episodes, seed), "")}
    for name in [b.strip() for b in args.baselines.split(",") if b.strip()]:
        results[name] = row_fields(evaluate_row(name, args, args.final_eval_episodes, seed), "")
    final = {"side": args.side, "opponent": args.opponent, "episodes": args.final_eval_episodes, "seed": seed,
             "env_steps": steps, "minutes": run_seconds() / 60, "results": results}
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

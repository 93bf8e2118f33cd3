"""Masked PPO for Maurice Lite on `maquis.maurice.MauriceVectorEnv`: the learner of
`examples/maurice_ppo.py` and of `maquis maurice train --recipe` (`maquis.maurice.train.recipe`).

The masked-PPO core, shared with `train_ppo.py` and `dday_ppo.py`, is `maquis.train.ppo`; this
module adds the game's model and its statistics. How to run it is in `examples/maurice_ppo.py`.

What it does
------------
* The learner plays `--side` (default blue) against a bundled `--opponent` (default the heuristic)
  in `--num-envs` games stepped together in Rust, the opponent inside; one step is one decision of
  the learner (docs/api/maurice.md).
* The model reads the observation as what it is: a small CNN over the 15 maps of 30 × 45 cells
  (`PLANES`: terrain, walls, the units of each side, the CinCs) and an MLP over the 1,084 values of
  state (round, hands, the units' rows), joined into one trunk with an actor and a critic head.
* `--model network` instead trains a bundled-format network (`maquis.train.model.PolicyValueNet`,
  the file the `network` levels play, over the compact observation or, when its file has a map
  stem, the full one), from `--init-network` (the shipped one by default, `scratch` for new
  weights; `--maps 32,32` grafts a stem over the map planes onto a file without one, its weights
  into the trunk starting at zero: `maquis.train.model.graft_map_stem`); its critic is
  `tanh(value / 2)`, so that with `--reward outcome` the value head keeps its meaning (sigmoid:
  win 1, draw ½, loss 0). It is
  saved as `network.safetensors` with every checkpoint (`python -m maquis maurice ladder --agents
  heuristic,network,network@runs/.../network.safetensors` rates it beside the shipped one). `--side both` plays half the environments
  as blue and half as red (one network holds both seats).
* `--keep-best` (with `--model network`) also keeps the network of the best evaluation so far, the
  starting one included, as `best_network.safetensors` (PPO on a network that already beats the
  heuristic wanders: its evaluation moves by tens of points between checkpoints).
* `--gate` (with `--model network`; instead of `--keep-best`) keeps an evaluation's network only if
  the rated ladder's sequential test says it is stronger than the last kept one, the starting
  network first (`maquis.train.gate`; `--gate-against heuristic` compares the two through their
  games against the heuristic on the same deals, since this game's networks draw each other). The
  kept networks are `gate/update<U>.safetensors`, the last `best_network.safetensors`, the
  decisions `gate.csv`.
* `--train-opponents heuristic,random` shares the training environments out among several bundled
  opponents (and the sides); the curve's evaluation stays against `--opponent`.
* Reward (`--reward`): `morale_margin` (the default: own morale left / own start − the same for the
  enemy, at the end) gives a signal in the many games that end at nightfall; `outcome` is win +1,
  draw 0, loss −1. `--shaping default` (or weights, `advance=1,morale=0.5`) adds the env's
  potential-based shaping (`maquis.maurice.shaping`: the ground covered towards the enemy and the
  morale margin, as they change) with the PPO discount, which leaves the best policy unchanged.
* Optional warm start (`--imitate heuristic`, `search`, `network`): for `--imitate-minutes` the
  policy imitates the bundled agent playing the learner's side (DAgger: the expert labels the
  states the mixed policy visits; `--imitate-buffer` of them kept, each a full observation), then
  PPO takes over with a cross-entropy term to the expert decaying to 0 over `--bc-decay-minutes`
  (the shared `maquis.train.ppo` machinery of the other examples).
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
from maquis.train.common import copy_whole
from maquis.train.gate import DECISION_FIELDS, add_gate_arguments, check_gate
from maquis.train.ppo import (
    Collector, CurvePlot, DaggerSet, add_evaluation_arguments, add_imitation_arguments, add_ppo_arguments,
    add_train_opponents_argument, add_versus_run_arguments, batch_expert, device_settings, groups, make_group_envs,
    masked_act, masked_log_prob, prepare_run, start_or_resume, train_update, training_groups,
)

#: The bundled-format network of `--model network`, rewritten with every checkpoint.
NETWORK_FILE = "network.safetensors"
#: With `--keep-best`, the network of the best evaluation so far; with `--gate`, the last kept one.
BEST_NETWORK_FILE = "best_network.safetensors"
#: With `--gate`, the evaluations' networks the gate kept, `update<U>.safetensors`.
GATE_FOLDER = "gate"
#: The rows of `gate.csv`: the update tested, the kept update it met, the decision, the update kept.
GATE_FIELDS = ["update", "against", *DECISION_FIELDS[:-1], "kept", "seconds"]

CURVE_FIELDS = ["update", "env_steps", "games", "minutes", "phase", "sps", "eval_episodes", "eval_win", "eval_win_lo",
                "eval_win_hi", "eval_draw", "eval_loss", "eval_margin", "train_win", "train_return", "entropy",
                "pg_loss", "v_loss", "bc_loss", "approx_kl"]


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="maurice_ppo.py", description=__doc__.split("\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    g = add_versus_run_arguments(p, ("blue", "red", "both"), ("morale_margin", "outcome"), "runs/maurice_ppo")
    g.add_argument("--scenario", choices=("standard", "skirmish"), default="standard")
    g.add_argument("--model", choices=("cnn", "network"), default="cnn",
                   help="cnn: a CNN over the maps and an MLP over the state; network: the bundled levels' network "
                        "over the compact observation, saved as network.safetensors")
    g.add_argument("--init-network", default="shipped", metavar="FILE",
                   help="--model network: the weight file to start from ('shipped': the shipped network, "
                        "'scratch': new weights of --hidden x --layers)")
    g.add_argument("--maps", default="", metavar="C1,C2",
                   help="--model network: graft a convolution stem of these channels over the map planes onto a "
                        "--init-network without one (its weights into the trunk start at zero, so PPO starts "
                        "from what the file plays), as `maquis maurice train --maps` makes")
    g.add_argument("--keep-best", action="store_true",
                   help="--model network: also keep the network of the best evaluation so far (its score, wins + "
                        "draws / 2, against --opponent; the starting network's included) as best_network.safetensors")
    add_train_opponents_argument(g)
    g.add_argument("--channels", type=int, default=32, help="channels of the CNN over the maps")
    g.add_argument("--shaping", default=None, metavar="TERM=W,...",
                   help="the training envs' potential-based shaping (maquis.maurice.shaping) with gamma = --gamma: "
                        "'default' for the default weights, or weights such as advance=1,morale=0.5 (the terms left "
                        "out keep their default); the evaluation is unshaped")
    add_ppo_arguments(p, num_envs=64, gamma=0.997, epochs=3, ent_coef=0.01)
    # A full observation is 21,334 values: 20,000 of them in the DAgger set are 1.7 GB of float32.
    add_imitation_arguments(p, minutes=2.0, steps=16, minibatch=256, buffer=20_000, bc_decay_minutes=4.0,
                            choices=("heuristic", "search", "network"),
                            help="a bundled agent whose play of the learner's side is imitated first (DAgger)")
    add_evaluation_arguments(p, episodes=128, seed=100_000, every=10)
    add_gate_arguments(p, budget=50, what="evaluation", first="the starting network")
    args = p.parse_args(argv)
    for name in ("num_envs", "num_steps", "minibatches", "epochs", "eval_episodes", "threads", "env_threads", "channels",
                 "imitate_steps", "imitate_minibatch", "imitate_buffer"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    for flag in ("keep_best", "gate"):
        if getattr(args, flag) and args.model != "network":
            p.error(f"--{flag.replace('_', '-')} keeps a network file: it needs --model network")
    if args.keep_best and args.gate:
        p.error("--keep-best and --gate are two ways of choosing the kept network: give one")
    if args.gate and not args.eval_every:
        p.error("--gate tests the evaluations' networks: it needs --eval-every")
    from maquis.maurice.tournament import GAME as LADDER

    bad = check_gate(LADDER, args)
    if bad is not None:
        p.error(bad)
    if args.maps:
        from maquis.maurice.train.expert import parse_map_channels

        if args.model != "network":
            p.error("--maps grafts a stem onto --init-network: it needs --model network")
        try:
            parse_map_channels(args.maps)
        except ValueError as e:
            p.error(str(e))
    if args.imitate and args.model == "network":
        p.error("--imitate warm-starts --model cnn; --model network starts from --init-network")
    training_groups(p, args, sides(args), ("random", "heuristic", "search"))
    if args.shaping is not None:
        try:
            shaping_keyword(args)
        except ValueError as e:
            p.error(f"--shaping: {e}")
    return args


def shaping_keyword(args):
    """The envs' `shaping` keyword of `--shaping` (None without it), checked."""
    from maquis.maurice.shaping import shaping_json

    if args.shaping is None:
        return None
    weights = {}
    if args.shaping != "default":
        for item in args.shaping.split(","):
            term, eq, w = item.partition("=")
            try:
                weights[term.strip()] = float(w)
            except ValueError:
                raise ValueError(f"expected 'default' or TERM=W,..., got {item!r}") from None
            if not eq:
                raise ValueError(f"expected 'default' or TERM=W,..., got {item!r}")
    keyword = {"gamma": args.gamma, "weights": weights}
    shaping_json(keyword)
    return keyword


def sides(args):
    return ("blue", "red") if args.side == "both" else (args.side,)


def _grafted(args, net):
    """`net` with the stem of `--maps` grafted on (`maquis.train.model.graft_map_stem`); SystemExit
    when it has a stem already."""
    import torch

    from maquis.maurice.train.expert import new_model
    from maquis.train.model import graft_map_stem

    if net.maps is not None:
        raise SystemExit(f"maurice_ppo.py: --maps: --init-network {args.init_network} has a map stem already")
    torch.manual_seed(args.seed)  # the stem's weights, drawn the same on every run
    return graft_map_stem(net, new_model(args, net.hidden))


def build_network_model(args):
    """The bundled levels' network as an actor-critic: its policy head the actor, `tanh(value / 2)`
    the critic (the value head's sigmoid, win 1 / draw ½ / loss 0, on the outcome reward's scale)."""
    import torch
    import torch.nn as nn

    import maquis.maurice as maurice
    from maquis.maurice.network import shipped_network_path
    from maquis.train.model import PolicyValueNet, model_from_file

    if args.init_network == "scratch":
        net = PolicyValueNet((args.hidden,) * args.layers, "observation", maurice.COMPACT_OBSERVATION_SIZE,
                             maurice.NUM_ACTIONS)
    else:
        path = shipped_network_path() if args.init_network == "shipped" else args.init_network
        net = model_from_file(str(path))
    if args.maps:
        net = _grafted(args, net)

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = net
            # What the network reads of a full observation: its compact head, or all of it (a map stem).
            self.row = maurice.COMPACT_OBSERVATION_SIZE if net.maps is None else maurice.OBSERVATION_SIZE

        def value(self, x):
            return torch.tanh(0.5 * self.net(x)[1])

        def act(self, x, mask, action=None, expert_action=None):
            logits, v = self.net(x)
            return masked_act(logits, mask, torch.tanh(0.5 * v), action, expert_action)

        def expert_logp(self, x, mask, target):
            return masked_log_prob(self.net(x)[0], mask, target)

        def greedy(self, x, mask):
            return self.net(x[:, :self.row])[0].masked_fill(~mask, -1e8).argmax(-1)

    return Model()


def save_network_file(model, path, args, steps):
    from maquis.maurice.network import network_file_metadata
    from maquis.train.model import save_network

    info = {"trained_with": "maquis.maurice.train.ppo", "command": args.command, "init": args.init_network, "side": args.side,
            "opponents": args.train_opponents, "reward": args.reward, "scenario": args.scenario, "env_steps": int(steps),
            "seed": args.seed}
    save_network(model.net, str(path), info, network_file_metadata())


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
            return masked_act(self.actor(f), mask, self.critic(f).squeeze(-1), action, expert_action)

        def expert_logp(self, x, mask, target):
            return masked_log_prob(self.actor(self.features(x)), mask, target)

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
    """One game in each of `episodes` environments of a vector env reset with `seed` per learner
    side (`--side both`: the same deals from each seat), the learner choosing by `act_batch(obs,
    masks)`; returns the outcomes and the learner's reward per game."""
    outcomes, rewards = [], []
    for side in sides(args):
        o, r = play_greedy_side(act_batch, args, episodes, seed, side)
        outcomes += o
        rewards.append(r)
    return outcomes, np.concatenate(rewards)


def play_greedy_side(act_batch, args, episodes, seed, side):
    import maquis.maurice as maurice

    env = maurice.MauriceVectorEnv(num_envs=episodes, num_threads=args.env_threads, side=side,
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


class Gated:
    """`--gate`: each evaluation's network against the last kept one (the starting network first),
    by the rated ladder's sequential test (`maquis.train.gate`); H1 keeps it. The kept networks are
    `gate/update<U>.safetensors`, the last of them `best_network.safetensors`, the decisions
    `gate.csv`. A resumed run reads the decisions up to its checkpoint's update (`done`)."""

    def __init__(self, out, done):
        from maquis.maurice.tournament import GAME as LADDER

        self.out, self.ladder = out, LADDER
        (out / GATE_FOLDER).mkdir(exist_ok=True)
        path = out / "gate.csv"
        self.rows = [r for r in csv.DictReader(open(path)) if int(r["update"]) <= done] if path.exists() else []
        self.kept = int(self.rows[-1]["kept"]) if self.rows else (0 if done > 0 else None)
        if self.kept is not None and not self.file(self.kept).exists():
            raise SystemExit(f"maurice_ppo.py: --gate: {self.file(self.kept)} is missing (was the run in "
                             f"{out} started without --gate?)")
        if self.kept is not None:  # a test after the checkpoint may have replaced it
            copy_whole(self.file(self.kept), out / BEST_NETWORK_FILE)

    def file(self, update):
        return self.out / GATE_FOLDER / f"update{update}.safetensors"

    def test(self, update, write, args):
        """Tests update `update`'s network (`write(path)` writes it) against the kept one."""
        from maquis.train.gate import decide, describe, write_rows

        if self.kept is None:  # the starting network
            write(self.file(update))
            self.kept = update
        elif update == self.kept or any(int(r["update"]) == update for r in self.rows):
            return  # the final evaluation of a run that ended on an evaluation's update
        else:
            candidate = self.file(update)
            write(candidate)
            row = decide(self.ladder, args, candidate, self.file(self.kept), update, args.env_threads)
            kept = update if row["decision"] == "H1" else self.kept
            self.rows.append({"update": update, "against": self.kept, **row, "kept": kept})
            write_rows(self.out / "gate.csv", GATE_FIELDS, self.rows)
            print(f"gate: {row['agent']} of update {update} v update {self.kept}: {describe(row)}, update {kept} kept",
                  flush=True)
            if kept != update:
                candidate.unlink()
            self.kept = kept
        copy_whole(self.file(self.kept), self.out / BEST_NETWORK_FILE)


def eval_score(row):
    """An evaluation's score, wins + draws / 2 (of a row of the curve or `evaluation_row`)."""
    return float(row["eval_win"]) + 0.5 * float(row["eval_draw"])


def evaluation_row(outcomes, rewards):
    from maquis.common.evaluation import wilson_interval

    n = len(outcomes)
    wins = sum(o == "win" for o in outcomes)  # of every game, both seats' under --side both
    lo, hi = wilson_interval(wins, n)
    return {"eval_win": wins / n, "eval_win_lo": lo, "eval_win_hi": hi,
            "eval_draw": sum(o == "draw" for o in outcomes) / n, "eval_loss": sum(o == "loss" for o in outcomes) / n,
            "eval_margin": float(np.mean(rewards))}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_args(argv)
    # The command line as the network file records it (the example's, which runs this).
    args.command = " ".join(["examples/maurice_ppo.py", *argv])
    import torch

    import maquis.maurice as maurice

    device, obs_dtype, halves = device_settings(args)
    out = prepare_run(args)
    network = args.model == "network"
    model = (build_network_model(args) if network else build_model(args.channels, args.hidden)).to(device)
    # The CNN and a network with a map stem read the full observation; an MLP network its compact head.
    obs_size = model.row if network else maurice.OBSERVATION_SIZE

    def make_env(n, side, opponent):
        return maurice.MauriceVectorEnv(
            num_envs=n, num_threads=args.env_threads, side=side, opponent=opponent, scenario=args.scenario,
            reward=None if args.reward == "outcome" else "morale_margin",
            observation="full" if obs_size == maurice.OBSERVATION_SIZE else "compact",
            observation_dtype="float32" if network else obs_dtype, copy=False, shaping=shaping_keyword(args))

    envs = make_group_envs(make_env, groups(sides(args), args.train_opponents), args.num_envs, halves, device)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, eps=1e-5)
    curve_path = out / "curve.csv"
    steps, update, seconds0 = start_or_resume(args, model, opt, curve_path, CURVE_FIELDS, device)

    T, B = args.num_steps, args.num_envs
    games = Games()
    collector = Collector(envs, args.seed + 7919 * update,
                          lambda sl, obs, rew, valid, done, term, info: games.record(rew, done, info),
                          device, maurice.OBSERVATION_DIVISOR[:obs_size], graph=args.graph)
    buf = collector.new_rollout(T, B)
    expert = None
    if args.imitate:
        from maquis.maurice.agents import make_agent

        expert = batch_expert(make_agent(args.imitate, seed=args.seed + 1))
    data = DaggerSet(args.imitate_buffer, obs_size, maurice.NUM_ACTIONS, device) if expert else None
    budget_s = 60.0 * args.minutes if args.minutes else float("inf")
    imitate_s = 60.0 * args.imitate_minutes if expert else 0.0
    t0, eval_s = time.time(), 0.0
    losses = {"entropy": float("nan"), "pg_loss": 0.0, "v_loss": 0.0, "bc_loss": 0.0, "approx_kl": 0.0}
    phase = "ppo"

    def greedy_batch(obs, masks):
        with torch.no_grad():
            x = torch.as_tensor(np.asarray(obs, dtype=np.float32), device=device)
            m = torch.as_tensor(masks, device=device)
            return model.greedy(x, m).cpu().numpy()

    def run_seconds():
        return seconds0 + time.time() - t0 - eval_s

    def evaluate_and_log(phase, sps):
        nonlocal eval_s
        te = time.time()
        row = evaluation_row(*play_greedy(greedy_batch, args, args.eval_episodes, args.eval_seed))
        eval_s += time.time() - te
        rec = {"update": update, "env_steps": steps, "games": len(games.wins), "minutes": round(run_seconds() / 60, 3),
               "phase": phase, "sps": round(sps), "eval_episodes": args.eval_episodes, **row, "train_win": games.recent(games.wins),
               "train_return": games.recent(games.returns), **losses}
        with open(curve_path, "a", newline="") as f:
            csv.DictWriter(f, CURVE_FIELDS).writerow(rec)
        print(f"update {update:5d}  steps {steps:>10,}  {rec['minutes']:6.1f} min  {phase:<7}  {sps:7.0f} steps/s  "
              f"eval win {row['eval_win']:.3f} [{row['eval_win_lo']:.3f}, {row['eval_win_hi']:.3f}] "
              f"draw {row['eval_draw']:.3f}  margin {row['eval_margin']:+.3f}  entropy {losses['entropy']:.2f}",
              flush=True)
        return row

    # --keep-best: the best evaluation's score so far (a resumed run's from its curve).
    best = max((eval_score(r) for r in csv.DictReader(open(curve_path))), default=None) if args.keep_best else None
    gated = Gated(out, update) if args.gate else None

    def save(row):
        nonlocal best, eval_s
        if gated is not None:
            # Before the checkpoint: a run stopped in between redoes the update and its test.
            te = time.time()
            gated.test(update, lambda path: save_network_file(model, path, args, steps), args)
            eval_s += time.time() - te
        torch.save({"agent": model.state_dict(), "opt": opt.state_dict(), "steps": steps, "update": update,
                    "seconds": run_seconds(), "args": vars(args)}, out / "checkpoint.pt")
        if network:
            save_network_file(model, out / NETWORK_FILE, args, steps)
        if args.keep_best and (best is None or eval_score(row) > best):
            best = eval_score(row)
            save_network_file(model, out / BEST_NETWORK_FILE, args, steps)
            print(f"kept as {BEST_NETWORK_FILE}: score {best:.3f}", flush=True)

    if (args.keep_best or args.gate) and update == 0:
        save(evaluate_and_log(phase, 0))  # the starting network is a candidate too (the gate's first kept one)

    while steps < args.total_steps and run_seconds() < budget_s:
        ts = time.time()
        phase, stats, done = train_update(args, model, opt, collector, buf, expert, data, run_seconds(), steps, imitate_s)
        losses = {k: v for k, v in stats.items() if k in CURVE_FIELDS}
        steps += done
        update += 1
        sps = T * B / max(time.time() - ts, 1e-9)
        if args.eval_every and update % args.eval_every == 0:
            save(evaluate_and_log(phase, sps))
    save(evaluate_and_log(phase, 0))
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

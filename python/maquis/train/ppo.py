"""The masked-PPO core of the training examples (`train_ppo.py`, `maurice_ppo.py`) and of D-Day's
PPO learner (`maquis.dday.train.ppo`, `examples/dday_ppo.py`), in one place.

A learner imports it and adds its own game: the vector env, the expert, the statistics, the curve.
Torch is imported inside the functions, so that `--help` and the numpy-only parts work without it.

* Masking: the logits of illegal actions are replaced by -1e8 before the categorical, so illegal
  actions are never sampled, get no probability mass, and the entropy is over legal actions only.
* Autoreset (Gymnasium `NEXT_STEP`): the step after the end of a game is no decision of the agent:
  it is stored with `valid = 0` and left out of the losses; the step that ended the game is
  terminal in GAE (no bootstrapping through it).
* Imitation (DAgger): the expert labels the states the mixed policy visits, the actor is fitted to
  the aggregated labels; PPO then adds a cross-entropy term to the expert of decaying weight.
* The device (`--device cuda`): the network, the rollout buffers and the updates stay on the GPU.
  The collection loop is `maquis.train.rollout`'s: observations (uint8 by default there, a quarter
  of the bytes) and masks go through pinned host memory with non-blocking copies and become the
  float32 input on the GPU; the environments are `--halves` vector envs stepped in turn, so Rust
  steps one half while the GPU acts on the other. On the CPU (the default) nothing of this is
  needed: one vector env, float32 observations, the env's arrays read as they are.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import random
import time
from pathlib import Path

import numpy as np

from maquis.common.policy import save_policy
from maquis.common.single import file_opponent_id


# --------------------------------------------------------------------------------------------
# The command line: the options this core reads, with each example's defaults
# --------------------------------------------------------------------------------------------


def add_ppo_arguments(p, num_envs, gamma, epochs, ent_coef):
    """The `PPO` group (the example may add to it)."""
    g = p.add_argument_group("PPO")
    g.add_argument("--num-envs", type=int, default=num_envs, help="games stepped together in Rust")
    g.add_argument("--num-steps", type=int, default=128, help="steps per env per rollout")
    g.add_argument("--lr", type=float, default=3e-4, help="Adam's learning rate")
    g.add_argument("--anneal-lr", type=int, default=1, help="1: linear decay over the budget")
    g.add_argument("--gamma", type=float, default=gamma, help="discount")
    g.add_argument("--gae-lambda", type=float, default=0.95, help="GAE's lambda")
    g.add_argument("--minibatches", type=int, default=4, help="minibatches per epoch")
    g.add_argument("--epochs", type=int, default=epochs, help="passes over each rollout")
    g.add_argument("--clip", type=float, default=0.2, help="PPO's ratio clip (and the value clip)")
    g.add_argument("--ent-coef", type=float, default=ent_coef, help="weight of the entropy bonus")
    g.add_argument("--vf-coef", type=float, default=0.5, help="weight of the value loss")
    g.add_argument("--max-grad-norm", type=float, default=0.5, help="gradient norm clip")
    g.add_argument("--hidden", type=int, default=256, help="width of the hidden layers")
    g.add_argument("--layers", type=int, default=2, help="hidden layers of the actor and of the critic")
    g.add_argument("--device", default="cpu",
                   help="where the network, the rollouts and the updates run: cpu, cuda, cuda:N, auto")
    g.add_argument("--observation-dtype", choices=("auto", "float32", "uint8"), default="auto",
                   help="what the env writes: auto is uint8 on cuda (converted on the GPU), float32 on cpu")
    g.add_argument("--graph", action=argparse.BooleanOptionalAction, default=None,
                   help="on cuda, the policy's forward pass and sampling replayed as one CUDA graph per half of the "
                        "collection (default: on with cuda; not while an expert is imitated)")
    g.add_argument("--halves", type=int, default=None,
                   help="the envs as this many vector envs stepped in turn on one set of threads, one stepped while "
                        "the network acts on another (default: 2 on cuda from 16384 envs, else 1: below that the "
                        "halves' launches cost more than the overlap saves; leave a core to the learner with 2)")
    return g


def device_settings(args):
    """(torch device, observation dtype, halves) from --device, --observation-dtype, --halves;
    a clear exit when CUDA is asked for and missing."""
    from maquis.train.rollout import default_halves, observation_dtype_for, resolve_device

    try:
        device = resolve_device(args.device)
    except ValueError as e:
        raise SystemExit(f"--device: {e}") from None
    if args.graph and device.type != "cuda":
        raise SystemExit("--graph: CUDA graphs need --device cuda")
    halves = args.halves if args.halves is not None else default_halves(device, args.num_envs)
    if halves < 1 or halves > args.num_envs:
        raise SystemExit(f"--halves must be between 1 and --num-envs ({args.num_envs}), got {halves}")
    return device, observation_dtype_for(device, args.observation_dtype), halves


def make_envs(make_env, num_envs, halves, device="cpu"):
    """`num_envs` environments as `halves` vector envs (`make_env(n)` builds one), stepped in turn
    on one set of threads, which spin between steps as long as suits a learner on `device`."""
    from maquis.train.rollout import VectorHalves, default_worker_spin

    return VectorHalves(make_env, num_envs, halves, worker_spin=default_worker_spin(device))


def add_train_opponents_argument(g):
    """`--train-opponents A,B`: the training environments shared out among bundled opponents."""
    g.add_argument("--train-opponents", default=None, metavar="A,B",
                   help="opponents of the training games, the environments shared out equally among them (and the "
                        "sides): bundled ids, or network@FILE / network_search@FILE (a weight file of yours, e.g. a "
                        "pool of past learners) (default: --opponent; the evaluation is against --opponent)")


def groups(sides, train_opponents):
    """The (side, opponent) of each group of training environments: `sides` times the
    comma-separated `train_opponents`."""
    return [(side, o) for side in sides for o in train_opponents.split(",")]


def training_groups(p, args, sides, opponents):
    """The (side, opponent) of each group of training environments: `sides` times the opponents
    of `--train-opponents` (or `--opponent`), each one of `opponents`; `--num-envs` must share out
    equally among them (`p.error` otherwise). Sets `args.train_opponents` to the names, comma-joined."""
    names = [o.strip() for o in (args.train_opponents or args.opponent).split(",") if o.strip()]
    unknown = [o for o in names if o not in opponents and "@" not in o]
    if not names or unknown:
        p.error(f"--train-opponents: expected some of {', '.join(opponents)} (or network@FILE), "
                f"got {args.train_opponents!r}")
    try:
        names = [file_opponent_id(o, tuple(opponents)) if "@" in o else o for o in names]
    except (ValueError, OSError) as e:
        p.error(f"--train-opponents: {e}")
    args.train_opponents = ",".join(names)
    kinds = groups(sides, args.train_opponents)
    if args.num_envs % len(kinds):
        p.error(f"--num-envs must be a multiple of {len(kinds)}: the environments are shared out equally among "
                f"{len(sides)} side(s) and {len(names)} training opponent(s)")
    return kinds


def make_group_envs(make_env, groups, num_envs, halves, device="cpu"):
    """As `make_envs`, the environments shared out among `groups` ((side, opponent) pairs,
    `training_groups`): one vector env (a "half" of the rollout machinery) per group, or per share
    of one; `make_env(n, side, opponent)` builds one."""
    halves = len(groups) * max(1, -(-halves // len(groups)))
    built = []

    def one(n):
        side, opponent = groups[len(built) * len(groups) // halves]
        built.append(side)
        return make_env(n, side, opponent)

    return make_envs(one, num_envs, halves, device)


def add_versus_run_arguments(p, sides, rewards, out, opponents=("random", "heuristic", "search")):
    """The `budget and run` group of a two-player game's example: the budget, the learner's side
    (the first of `sides` by default) against a bundled opponent, the reward (the first of
    `rewards` by default), the seed, the output directory, threads and `--resume`."""
    g = p.add_argument_group("budget and run")
    g.add_argument("--total-steps", type=int, default=50_000_000, help="learner steps (all envs together)")
    g.add_argument("--minutes", type=float, default=None, help="wall-clock budget; stops at whichever comes first")
    g.add_argument("--side", choices=sides, default=sides[0], help="the learner's side")
    g.add_argument("--opponent", choices=opponents, default="heuristic",
                   help="the bundled opponent playing the other side")
    g.add_argument("--reward", choices=rewards, default=rewards[0], help="the env's reward")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--out", default=out, help="output directory")
    g.add_argument("--threads", type=int, default=1, help="torch threads (torch.set_num_threads)")
    g.add_argument("--env-threads", type=int, default=1, help="Rust threads of the vector env")
    g.add_argument("--resume", default=None, help="checkpoint.pt to continue from")
    return g


def add_imitation_arguments(p, minutes, steps, minibatch, buffer, bc_decay_minutes, **imitate):
    """The `imitation warm start` group; `imitate`: the keywords of `--imitate` (choices, help)."""
    g = p.add_argument_group("imitation warm start (optional)")
    g.add_argument("--imitate", default=None, **imitate)
    g.add_argument("--imitate-minutes", type=float, default=minutes, help="length of the imitation phase")
    g.add_argument("--imitate-beta-end", type=float, default=0.3,
                   help="share of expert actions in the rollouts at the end of the imitation phase (from 1)")
    g.add_argument("--imitate-steps", type=int, default=steps,
                   help="gradient steps per rollout on the aggregated (DAgger) data set during imitation")
    g.add_argument("--imitate-lr", type=float, default=1e-3, help="the learning rate while imitating")
    g.add_argument("--imitate-minibatch", type=int, default=minibatch, help="samples per imitation step")
    g.add_argument("--imitate-buffer", type=int, default=buffer, help="samples kept in the aggregated data set")
    g.add_argument("--bc-coef", type=float, default=0.5,
                   help="after imitation: weight of the cross-entropy to the expert in the PPO loss, decaying to 0")
    g.add_argument("--bc-decay-minutes", type=float, default=bc_decay_minutes, help="PPO minutes over which --bc-coef decays")
    return g


def add_evaluation_arguments(p, episodes=500, seed=12345, every=None, final=None):
    """The `evaluation` group: greedy play on fixed seeds; with `every`, during the training too,
    with `final`, at the end against the bundled agents as baselines."""
    g = p.add_argument_group("evaluation")
    if every is not None:
        g.add_argument("--eval-every", type=int, default=every, help="updates between evaluations (0: only at the end)")
    g.add_argument("--eval-episodes", type=int, default=episodes, help="games of each evaluation")
    g.add_argument("--eval-seed", type=int, default=seed, help="seed of the evaluation games")
    if final is not None:
        g.add_argument("--final-eval-episodes", type=int, default=final, help="games of the final evaluation")
        g.add_argument("--baselines", default="random,heuristic",
                       help="bundled agents evaluated on the final seeds ('' for none)")
    return g


def add_shaping_switch(p, gamma):
    """`--shaping` of the examples that train with a library's PPO at a fixed discount."""
    p.add_argument("--shaping", action="store_true",
                   help=f"the env's potential-based shaping (the game's `shaping` keyword) with the PPO discount ({gamma})")


# --------------------------------------------------------------------------------------------
# The network and the saved policy
# --------------------------------------------------------------------------------------------


def masked_act(logits, mask, value, action=None, expert_action=None):
    """What an actor-critic's `act` returns, from its raw logits and value: the action (sampled when
    `action` is None) with its log-probability, the entropy over the legal actions, the value, and
    with `expert_action` the expert's log-probability too. Illegal actions get logit -1e8."""
    import torch

    logits = logits.masked_fill(~mask, -1e8)
    dist = torch.distributions.Categorical(logits=logits, validate_args=False)  # checks would wait on the GPU
    if action is None:
        action = dist.sample()
    # entropy over the legal actions only (masked probabilities are exactly 0)
    p = dist.probs
    ent = -(p * torch.where(mask, dist.logits, torch.zeros_like(p))).sum(-1)
    if expert_action is not None:
        return action, dist.log_prob(action), ent, value, dist.log_prob(expert_action)
    return action, dist.log_prob(action), ent, value


def masked_log_prob(logits, mask, target):
    """The log-probabilities of `target` under the logits masked to the legal actions."""
    import torch

    return torch.log_softmax(logits.masked_fill(~mask, -1e8), -1).gather(1, target[:, None]).squeeze(1)


def build_agent(obs_size, n_actions, hidden, layers, activation="tanh"):
    """The actor-critic: two MLPs over the observation, the actor's logits masked to legal actions."""
    import torch.nn as nn

    def layer(i, o, std=math.sqrt(2)):
        lin = nn.Linear(i, o)
        nn.init.orthogonal_(lin.weight, std)
        nn.init.constant_(lin.bias, 0.0)
        return lin

    Act = nn.Tanh if activation == "tanh" else nn.ReLU

    def mlp(out_dim, out_std):
        mods, d = [], obs_size
        for _ in range(layers):
            mods += [layer(d, hidden), Act()]
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

        def act(self, x, mask, action=None, expert_action=None):
            return masked_act(self.actor(x), mask, self.value(x), action, expert_action)

        def expert_logp(self, x, mask, target):
            return masked_log_prob(self.actor(x), mask, target)

    return Agent()


def actor_weights(agent):
    """The actor's layers as numpy (w of shape (in, out), b), as `maquis-mlp-v1` stores them."""
    import torch.nn as nn

    lins = [m for m in agent.actor if isinstance(m, nn.Linear)]
    return ([m.weight.detach().cpu().numpy().T.copy() for m in lins], [m.bias.detach().cpu().numpy().copy() for m in lins])


def export_policy(agent, path, activation, meta):
    """The actor as `maquis-mlp-v1` (numpy only to read); `meta` first, then when and with what."""
    import torch

    import maquis

    ws, bs = actor_weights(agent)
    meta = {
        **meta,
        "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "maquis_version": getattr(maquis, "__version__", "?"),
        "torch_version": torch.__version__,
    }
    save_policy(path, ws, bs, activation, meta)


def prepare_run(args):
    """Seeds (torch's CUDA generators too), torch threads, the output directory with args.json."""
    import torch

    torch.set_num_threads(args.threads)
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "args.json").write_text(json.dumps(vars(args), indent=2))
    return out


def start_or_resume(args, agent, opt, curve_path, fields, device):
    """(steps, update, seconds so far): zeros for a new run, whose `curve_path` gets the header of
    `fields`; with `--resume`, the checkpoint's model, optimiser and counters, the curve kept."""
    import torch

    steps, update, seconds = 0, 0, 0.0
    if args.resume:
        ck = torch.load(args.resume, weights_only=False, map_location=device)
        agent.load_state_dict(ck["agent"])
        opt.load_state_dict(ck["opt"])
        steps, update, seconds = ck["steps"], ck["update"], ck["seconds"]
        print(f"resumed from {args.resume}: update {update}, {steps} steps, {seconds / 60:.1f} min")
    if not (args.resume and Path(curve_path).exists()):
        with open(curve_path, "w", newline="") as f:
            csv.DictWriter(f, fields).writeheader()
    return steps, update, seconds


# --------------------------------------------------------------------------------------------
# Experience
# --------------------------------------------------------------------------------------------


class Rollout:
    """One rollout, (T, B) per field, on `device`: what the agent saw and did, and what came of it;
    `valid` is 0 for the autoreset steps (no decision), `expert` holds the expert's actions when one
    is asked. The observations are kept as the env writes them (uint8 or float32; `decode` makes
    the network's input). Rewards, dones, `valid` and the expert's actions are written on the host
    (`host`, pinned on CUDA) as the steps come, and go to the device once, at `finish`."""

    def __init__(self, T, B, obs_size, n_actions, device="cpu", obs_dtype="float32", decode=None):
        import torch

        self.device = torch.device(device)
        self.decode = decode if decode is not None else (lambda x: x)
        dt = torch.uint8 if obs_dtype == "uint8" else torch.float32
        self.obs = torch.zeros((T, B, obs_size), dtype=dt, device=self.device)
        self.mask = torch.zeros((T, B, n_actions), dtype=torch.bool, device=self.device)
        self.act = torch.zeros((T, B), dtype=torch.long, device=self.device)
        self.logp = torch.zeros((T, B), device=self.device)
        self.val = torch.zeros((T, B), device=self.device)
        self.rew = torch.zeros((T, B), device=self.device)
        self.done = torch.zeros((T, B), device=self.device)
        self.valid = torch.zeros((T, B), device=self.device)
        self.expert = torch.zeros((T, B), dtype=torch.long, device=self.device)
        pin = self.device.type == "cuda"
        self._host = {k: torch.zeros((T, B), dtype=getattr(self, k).dtype, pin_memory=pin)
                      for k in ("rew", "done", "valid", "expert")}
        self.host = {k: v.numpy() for k, v in self._host.items()}

    def finish(self):
        """The host-written fields to the device (waits for the copies on CUDA, so that the host
        rows can be written again)."""
        import torch

        for k, v in self._host.items():
            getattr(self, k).copy_(v, non_blocking=True)
        if self.device.type == "cuda":
            torch.cuda.current_stream(self.device).synchronize()


class Phase:
    """What this rollout does: imitate the expert (DAgger; `beta` is the share of expert actions)
    or PPO (with a decaying BC term of weight `bc_coef`), and at which learning rate."""

    def __init__(self, imitating, beta, bc_coef, lr):
        self.imitating, self.beta, self.bc_coef, self.lr = imitating, beta, bc_coef, lr

    @property
    def need_expert(self):
        return self.imitating or self.bc_coef > 0


def phase_at(args, run_s, frac, imitate_s, has_expert):
    """The phase after `run_s` seconds of training, `frac` of the budget done: imitation for the
    first `imitate_s` seconds (the expert's share falling from 1 to --imitate-beta-end), then PPO
    with the BC weight decaying from --bc-coef to 0 over --bc-decay-minutes; the learning rate
    annealed linearly with `frac` (--anneal-lr)."""
    lr = args.lr * (1.0 - min(frac, 0.95)) if args.anneal_lr else args.lr
    imitating = has_expert and run_s < imitate_s
    beta = 1.0 - (1.0 - args.imitate_beta_end) * min(1.0, run_s / max(imitate_s, 1e-9)) if imitating else 0.0
    bc_coef = 0.0
    if has_expert and not imitating and args.bc_coef > 0:
        bc_coef = args.bc_coef * max(0.0, 1.0 - (run_s - imitate_s) / max(60 * args.bc_decay_minutes, 1e-9))
    return Phase(imitating, beta, bc_coef, args.imitate_lr if imitating else lr)


def train_update(args, model, opt, collector, buf, expert, data, run_s, steps, imitate_s):
    """One update of a learner's loop after `run_s` seconds of training and `steps` learner steps:
    the schedule (`phase_at`, the budget's fraction done by steps or minutes, whichever binds), a
    rollout into `buf`, GAE, then an imitation update (on the DAgger set `data`) or a PPO one.
    Returns the phase's name, the update's statistics and the learner steps of the rollout."""
    budget_s = 60.0 * args.minutes if args.minutes else float("inf")
    frac = max(steps / args.total_steps, run_s / budget_s if args.minutes else 0.0)
    now = phase_at(args, run_s, frac, imitate_s, expert is not None)
    for g in opt.param_groups:
        g["lr"] = now.lr
    next_value = collector.collect(model, buf, expert, now)
    adv, ret = gae(buf, next_value, args.gamma, args.gae_lambda)
    batch = Batch(buf, adv, ret)
    stats = imitation_update(model, opt, data, batch, args) if now.imitating else ppo_update(model, opt, batch, args, now.bc_coef)
    return ("imitate" if now.imitating else "ppo"), stats, int(buf.valid.sum())


def batch_expert(agent):
    """`expert(obs, masks, valid) -> actions` from a bundled agent's `act_batch`, asked only about
    the `valid` rows (not those awaiting their autoreset); 0 elsewhere."""

    def expert(obs, masks, valid):
        out = np.zeros(len(obs), np.int64)
        idx = np.flatnonzero(valid)
        if len(idx):
            out[idx] = agent.act_batch(obs[idx], masks[idx])
        return out

    return expert


class Collector:
    """Steps the environments with the agent (or the expert) and fills a `Rollout`.

    `envs`: a `maquis.train.rollout.VectorHalves` (see `make_envs`) or one vector env. `divisor`: the
    game's `OBSERVATION_DIVISOR`, needed when the env writes uint8 observations. `record(sl, obs,
    rew, valid, done, term, info)` is called after every step of the environments `sl` (a slice
    of the batch): the example's statistics; `obs` as the env wrote it."""

    def __init__(self, envs, seed, record, device="cpu", divisor=None, graph=None):
        import torch
        from maquis.train.rollout import ObservationDecoder, RolloutTimers, Staging, VectorHalves

        self.envs = envs if isinstance(envs, VectorHalves) else VectorHalves.wrap(envs)
        self.device = torch.device(device)
        self.record = record
        env0 = self.envs.envs[0]
        self.obs_size = int(np.prod(env0.single_observation_space.shape))
        self.n_actions = int(env0.single_action_space.n)
        self.obs_dtype = getattr(env0, "observation_dtype", "float32")
        if self.obs_dtype == "uint8" and divisor is None:
            raise ValueError("uint8 observations need the game's OBSERVATION_DIVISOR (divisor=)")
        self.divisor = divisor
        self.decode = ObservationDecoder(divisor, self.device) if divisor is not None else (lambda x: x)
        self.stagings = [Staging(sl.stop - sl.start, self.obs_size, self.n_actions, self.obs_dtype, self.device)
                         for sl in self.envs.slices]
        self.timers = RolloutTimers(self.device)
        k = len(self.envs)
        self.obs_np, self.masks_np, self.current = [None] * k, [None] * k, [None] * k
        for h, (obs, info) in enumerate(self.envs.reset(seed=seed)):
            self._stage(h, obs, info["action_mask"])
        self.pending_reset = np.zeros(self.envs.num_envs, bool)  # the env's next step() is its autoreset
        self.graph = self.device.type == "cuda" if graph is None else graph
        if self.graph and self.device.type != "cuda":
            raise ValueError("CUDA graphs need a CUDA device")
        self._graphs = (None, [])  # (the agent they were captured for, one per half)

    def _captured(self, agent):
        """The agent's forward pass and sampling as one CUDA graph per half, over the staged rows
        (which stay at their device addresses); captured once per agent (its parameters are
        updated in place). None where capture fails: the collection launches op by op."""
        import warnings

        import torch
        from maquis.train.rollout import CapturedCall

        if self._graphs[0] is agent:
            return self._graphs[1]

        def policy(h):
            # An env awaiting its autoreset has every action in its mask row (its action is
            # ignored): every row can be sampled.
            o, m = self.current[h]
            action, logp, _, value = agent.act(self.decode(o), m)
            return m, action, logp, value

        try:
            with torch.no_grad():
                graphs = [CapturedCall(lambda h=h: policy(h)) for h in range(len(self.envs))]
        except RuntimeError as e:
            warnings.warn(f"CUDA graph capture failed, collecting op by op: {e}", RuntimeWarning, stacklevel=2)
            self.graph, graphs = False, None
        self._graphs = (agent, graphs)
        return graphs

    def new_rollout(self, T, B):
        """A `Rollout` of `T` steps of the `B` environments, on this collector's device."""
        return Rollout(T, B, self.obs_size, self.n_actions, self.device, self.obs_dtype, self.decode)

    def _stage(self, h, obs, masks):
        self.obs_np[h], self.masks_np[h] = obs, masks
        self.current[h] = self.stagings[h].upload(obs, masks)

    def _host_float32(self, obs):
        from maquis.train.rollout import host_float32

        return obs if self.divisor is None else host_float32(obs, self.divisor)

    def collect(self, agent, buf, expert, phase):
        """Fills `buf` with one rollout and returns the value of the observation after it."""
        import torch
        from maquis.train.rollout import run_pipeline

        T, B = buf.act.shape
        timers, envs, dev = self.timers, self.envs, self.device
        graphs = self._captured(agent) if self.graph and not phase.need_expert else None

        def act(h, t):
            sl = envs.slices[h]
            o, m = self.current[h]
            valid = ~self.pending_reset[sl]
            if graphs is not None:
                safe, action, logp, value = graphs[h]()  # rewritten by the next replay: stored below
            else:
                safe = m  # rows awaiting their autoreset allow every action, which is ignored
                x = self.decode(o)
                action, logp, _, value = agent.act(x, safe)
            timers.lap("forward")
            if phase.need_expert:
                masks_np = np.asarray(self.masks_np[h]).astype(bool)
                ex_np = np.where(valid, expert(self._host_float32(self.obs_np[h]), masks_np, valid), 0)
                buf.host["expert"][t, sl] = ex_np
                if phase.imitating:
                    ex = torch.as_tensor(ex_np, dtype=torch.long).to(dev)
                    use = torch.as_tensor(np.random.random(sl.stop - sl.start) < phase.beta).to(dev)
                    action = torch.where(use, ex, action)
                    logp = agent.act(x, safe, action)[1]
                timers.lap("sample")
            buf.obs[t, sl] = o
            buf.mask[t, sl] = safe
            buf.act[t, sl] = action
            buf.logp[t, sl] = logp
            buf.val[t, sl] = value
            buf.host["valid"][t, sl] = valid
            timers.lap("store")
            actions = self.stagings[h].download(action)
            timers.lap("device_wait")
            return actions

        def on_result(h, t, result):
            sl = envs.slices[h]
            obs, rew, term, trunc, info = result
            valid = ~self.pending_reset[sl]
            done = (np.asarray(term) | np.asarray(trunc)) & valid
            rew = np.asarray(rew, dtype=np.float64) * valid
            buf.host["rew"][t, sl] = rew
            buf.host["done"][t, sl] = done
            self.record(sl, obs, rew, valid, done, term, info)
            self.pending_reset[sl] = done
            timers.lap("store")
            self._stage(h, obs, info["action_mask"])
            timers.lap("stage")

        with torch.no_grad():
            timers.start()
            run_pipeline(envs, T, act, on_result, timers)
            buf.finish()
            next_value = torch.cat([agent.value(self.decode(self.current[h][0])) for h in range(len(envs))])
            timers.lap("store")
            return next_value


def gae(buf, next_value, gamma, lam):
    """Advantages and returns; a transition with done=1 does not bootstrap, invalid (reset) steps get 0."""
    import torch

    T, B = buf.rew.shape
    with torch.no_grad():
        adv = torch.zeros_like(buf.rew)
        last = torch.zeros_like(buf.rew[0])
        for t in reversed(range(T)):
            nv = next_value if t == T - 1 else buf.val[t + 1]
            nonterm = 1.0 - buf.done[t]
            delta = buf.rew[t] + gamma * nv * nonterm - buf.val[t]
            last = (delta + gamma * lam * nonterm * last) * buf.valid[t]
            adv[t] = last
        return adv, adv + buf.val


# --------------------------------------------------------------------------------------------
# Learning
# --------------------------------------------------------------------------------------------


class Batch:
    """A rollout flattened to T * B samples, with the indices of the valid ones."""

    def __init__(self, buf, adv, ret):
        import torch

        T, B, obs_size = buf.obs.shape
        self.obs = buf.decode(buf.obs.reshape(T * B, obs_size))
        self.mask = buf.mask.reshape(T * B, -1)
        self.act, self.logp, self.val = buf.act.reshape(-1), buf.logp.reshape(-1), buf.val.reshape(-1)
        self.adv, self.ret, self.expert = adv.reshape(-1), ret.reshape(-1), buf.expert.reshape(-1)
        self.idx_valid = torch.nonzero(buf.valid.reshape(-1) > 0).squeeze(1)


class DaggerSet:
    """The aggregated imitation data set (DAgger): observations, masks and the expert's actions."""

    def __init__(self, cap, obs_size, n_actions, device="cpu"):
        import torch

        self.cap = cap
        self.obs = torch.zeros((cap, obs_size), device=device)
        self.mask = torch.zeros((cap, n_actions), dtype=torch.bool, device=device)
        self.act = torch.zeros(cap, dtype=torch.long, device=device)
        self.n, self.at = 0, 0

    def add(self, batch):
        """The expert's labels of the states this rollout visited (a random subset when over cap)."""
        import torch

        nb = len(batch.idx_valid)
        k = min(nb, self.cap)
        dev = self.obs.device
        pos = (self.at + torch.arange(k, device=dev)) % self.cap
        sel = batch.idx_valid[torch.randperm(nb, device=dev)[:k]]
        self.obs[pos], self.mask[pos], self.act[pos] = batch.obs[sel], batch.mask[sel], batch.expert[sel]
        self.at, self.n = int((self.at + k) % self.cap), min(self.cap, self.n + k)


def imitation_update(agent, opt, data, batch, args):
    """DAgger: fit the actor to the aggregated expert labels by cross-entropy, the critic to this
    rollout's returns. Returns the losses of the last step."""
    import torch
    import torch.nn as nn

    data.add(batch)
    nb = len(batch.idx_valid)
    dev = batch.obs.device
    for _ in range(args.imitate_steps):
        j = torch.randint(0, data.n, (args.imitate_minibatch,), device=dev)
        bc = -agent.expert_logp(data.obs[j], data.mask[j], data.act[j]).mean()
        i = batch.idx_valid[torch.randint(0, nb, (args.imitate_minibatch,), device=dev)]
        vl = 0.5 * ((agent.value(batch.obs[i]) - batch.ret[i]) ** 2).mean()
        loss = bc + args.vf_coef * vl
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm * 4)
        opt.step()
    # no policy-gradient step while imitating
    return {"entropy": float("nan"), "pg_loss": 0.0, "v_loss": float(vl.item()), "bc_loss": float(bc.item()),
            "approx_kl": 0.0, "clipfrac": 0.0}


def ppo_update(agent, opt, batch, args, bc_coef):
    """Clipped PPO epochs over minibatches of the valid samples, plus `bc_coef` times the
    cross-entropy to the expert. Returns the losses of the last minibatch."""
    import torch
    import torch.nn as nn

    target_kl = getattr(args, "target_kl", None)  # an option of some examples only
    nb = len(batch.idx_valid)
    mbs = max(1, nb // args.minibatches)
    clipfracs, kl = [], 0.0
    dev = batch.obs.device
    for _ in range(args.epochs):
        perm = batch.idx_valid[torch.randperm(nb, device=dev)]
        for s in range(0, nb - mbs + 1, mbs):
            i = perm[s:s + mbs]
            if bc_coef > 0:
                _, newlogp, ent, newv, explogp = agent.act(batch.obs[i], batch.mask[i], batch.act[i], batch.expert[i])
                bc = -explogp.mean()
            else:
                _, newlogp, ent, newv = agent.act(batch.obs[i], batch.mask[i], batch.act[i])
                bc = torch.zeros((), device=dev)
            logratio = newlogp - batch.logp[i]
            ratio = logratio.exp()
            with torch.no_grad():
                kl = ((ratio - 1) - logratio).mean().item()
                clipfracs.append(((ratio - 1.0).abs() > args.clip).float().mean().item())
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
        if target_kl is not None and kl > target_kl:
            break
    return {"entropy": float(ent.mean().item()), "pg_loss": float(pg.item()), "v_loss": float(vl.item()),
            "bc_loss": float(bc.item()), "approx_kl": kl, "clipfrac": float(np.mean(clipfracs)) if clipfracs else 0.0}


# --------------------------------------------------------------------------------------------
# The learning curve
# --------------------------------------------------------------------------------------------


class CurvePlot:
    """curve.png from curve.csv: on the left the evaluation's rates (`eval_<key>`, with their 95 %
    bands) over the env steps, on the right the training statistics over wall-clock minutes. The
    example adds its own lines to `left` and `right`, then `save`s."""

    COLORS = {"win": "tab:green", "draw": "tab:orange", "loss": "tab:red"}
    BASELINE_STYLES = {"random": ":", "heuristic": "--", "search": "-."}

    @classmethod
    def read(cls, csv_path, rates):
        """The figure of `csv_path` with the `rates` drawn; None without matplotlib or rows."""
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            return None
        rows = list(csv.DictReader(open(csv_path)))
        return cls(plt, rows, rates) if rows else None

    def __init__(self, plt, rows, rates):
        self.plt, self.rows = plt, rows
        self.steps = np.array([float(r["env_steps"]) for r in rows]) / 1e6
        self.minutes = np.array([float(r["minutes"]) for r in rows])
        self.fig, (self.left, self.right) = plt.subplots(1, 2, figsize=(12, 4.5))
        for key in rates:
            y = np.array([float(r[f"eval_{key}"]) for r in rows])
            lo = np.array([float(r[f"eval_{key}_lo"]) for r in rows])
            hi = np.array([float(r[f"eval_{key}_hi"]) for r in rows])
            self.left.plot(self.steps, y, "-o", ms=3, color=self.COLORS[key], label=f"PPO {key}")
            self.left.fill_between(self.steps, lo, hi, color=self.COLORS[key], alpha=0.15)

    def baseline(self, name, rate, color, label):
        """A bundled agent's rate, as a level line in the style of its name."""
        self.left.axhline(rate, color=color, ls=self.BASELINE_STYLES.get(name, "--"), lw=1, label=label)

    def training(self, key, label, scale=1.0):
        """The column `key` of the curve over wall-clock minutes, divided by `scale`."""
        self.right.plot(self.minutes, [float(r[key]) / scale for r in self.rows], label=label)

    def save(self, png_path, steps_label, title, legend_columns=1):
        """Marks the end of imitation, labels both panels, writes the picture; returns True."""
        phases = [r.get("phase", "ppo") for r in self.rows]
        if "imitate" in phases and "ppo" in phases:
            x = self.steps[max(phases.index("ppo") - 1, 0)]
            self.left.axvline(x, color="gray", lw=1, ls=":")
            self.left.text(x, 0.97, " imitation | PPO", fontsize=7, va="top", color="gray")
        self.left.set_xlabel(steps_label)
        self.left.set_ylabel("rate (greedy policy, fixed eval seeds; 95% CI)")
        self.left.set_ylim(0, 1)
        self.left.grid(alpha=0.3)
        self.left.legend(fontsize=7, ncol=legend_columns)
        self.left.set_title(title)
        self.right.set_xlabel("wall-clock minutes")
        self.right.grid(alpha=0.3)
        self.right.legend(fontsize=7)
        self.right.set_title("training")
        self.fig.tight_layout()
        self.fig.savefig(png_path, dpi=110)
        self.plt.close(self.fig)
        return True

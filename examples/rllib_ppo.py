#!/usr/bin/env python3
"""Ray RLlib PPO with action masking on maquis (RLlib's new API stack: RLModule, EnvRunners, Learners).

    pip install "maquis[train]"        # or: pip install . "ray[rllib]" torch
    python examples/rllib_ppo.py --iterations 50 --num-env-runners 1 --out runs/rllib
    maquis eval --policy runs/rllib/policy.npz --difficulties normal

The environments of an EnvRunner
--------------------------------
Each EnvRunner steps its `--envs-per-runner` games in one native vector env (`maquis.MaquisVectorEnv`,
stepped in Rust on `--env-threads` threads), handed to RLlib as a ready vector env
(`gym_env_vectorize_mode="vector_entry_point"`), not as Gymnasium's `SyncVectorEnv` of single envs
stepped one by one in Python (`--vectorize sync` does that, for comparison).

Seeds: RLlib seeds EnvRunner `w` with `seed + w`, and Gymnasium's `SyncVectorEnv` its sub-env `j`
with `seed + w + j`: summed seeds would make runner `w + 1`'s env `j` replay runner `w`'s env
`j + 1`, deal for deal (R + E - 1 streams, not R x E). The integration's envs
(`maquis.integrations.rllib`) instead reset with a hash of the seed they are given and their
runner's index (`rllib_seed`), and the native vector env gives its sub-env `i` the stream of
`maquis.sub_env_seed` of that seed and `i`: R runners x E envs play R x E distinct deal streams in
either mode.

How the mask reaches the policy
-------------------------------
The observations become a dict `{"observations": Box(D,), "action_mask": Box(N,) (float32, 0/1)}`
(`maquis.integrations.rllib.RLlibVectorObservations` for the native vector env, `RLlibObservations`
for single envs). RLlib's action-masking RLModule
(`ray.rllib.examples.rl_modules.classes.action_masking_rlm.ActionMaskingTorchRLModule`, a
`PPOTorchRLModule`) reads it: it builds its networks on the observation alone, and adds `log(mask)`
(clamped to the most negative float) to the logits in every forward pass (exploration, inference and
training), so illegal actions are never sampled and get no gradient.

At the end the RLModule is checkpointed (`algo.save_to_path`), evaluated greedily through
`maquis.evaluate`, and its actor is exported as `policy.npz` (the "maquis-mlp-v1" numpy format of
`examples/train_ppo.py`) for `maquis eval --policy`.

Scaling out to a cluster
------------------------
RLlib samples with `num_env_runners` processes (each steps `num_envs_per_env_runner` games, in Rust)
and learns with `num_learners` processes (a GPU each with `--num-gpus-per-learner 1`). On one machine
`--num-env-runners 0` samples in the driver, which is the fastest choice on 2 cores. On a cluster:

    # on the head node (every node needs the same Python environment: pip install "maquis[train]")
    ray start --head --port=6379 --dashboard-host=0.0.0.0
    # on each worker node
    ray start --address=<head-ip>:6379
    # then, from any node (or through `ray job submit --address http://<head-ip>:8265 -- python ...`)
    python examples/rllib_ppo.py --address auto --num-env-runners 64 --envs-per-runner 16 \
        --num-learners 2 --num-gpus-per-learner 1 --train-batch 131072 --minibatch 8192

`--address auto` attaches to the running cluster instead of starting a local Ray. Scale
`--train-batch` with the number of runners (so each iteration still collects a few rollouts per
runner), and keep `--minibatch` a divisor of it. The environment is created inside every EnvRunner
by `env_creator` (registered under the name "maquis-Maquis"), so nothing but the package has to be shipped;
`ray.init(runtime_env={"pip": ["maquis"]})` can install it on the nodes instead.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

# The options every training example shares.
from maquis.train.ppo import add_evaluation_arguments, add_shaping_switch


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--iterations", type=int, default=None, help="algo.train() calls (default: 20, or no limit with --minutes)")
    p.add_argument("--minutes", type=float, default=None,
                   help="wall-clock budget: no new iteration starts after it (stops at whichever comes first)")
    p.add_argument("--difficulty", default="normal")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="runs/rllib_ppo")
    p.add_argument("--address", default=None, help="Ray cluster address ('auto' to attach); default: local Ray")
    p.add_argument("--num-cpus", type=int, default=None, help="CPUs for a local Ray (default: all)")
    p.add_argument("--num-env-runners", type=int, default=0, help="0: sample in the driver process")
    p.add_argument("--envs-per-runner", type=int, default=16)
    p.add_argument("--env-threads", type=int, default=1, help="Rust threads of each runner's vector env")
    p.add_argument("--vectorize", choices=("native", "sync"), default="native",
                   help="native: one maquis vector env per runner; sync: Gymnasium's SyncVectorEnv of single envs")
    p.add_argument("--num-learners", type=int, default=0, help="0: learn in the driver process")
    p.add_argument("--num-gpus-per-learner", type=float, default=0)
    p.add_argument("--train-batch", type=int, default=8192)
    p.add_argument("--minibatch", type=int, default=1024)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--hidden", type=int, default=256)
    add_evaluation_arguments(p, episodes=500, seed=12345)
    add_shaping_switch(p, GAMMA)
    args = p.parse_args(argv)
    for name in ("envs_per_runner", "env_threads", "train_batch", "minibatch", "epochs"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.iterations is None:
        args.iterations = 10**9 if args.minutes else 20
    return args


#: The discount of the PPO below, also the shaping's (its terms telescope only for the same one).
GAMMA = 0.997


#: The name the env creator is registered under (`maquis.integrations.rllib.ENV_NAMES`).
ENV_NAME = "maquis-Maquis"


def env_creator(env_config):
    """The envs of one RLlib EnvRunner (on any node): `maquis.integrations.rllib.maquis_env_creator`.
    With `num_envs` in `env_config` (RLlib's `vector_entry_point`) one native vector env of that many
    games on `num_threads` Rust threads; without, one single env (Gymnasium's SyncVectorEnv,
    `--vectorize sync`, builds several). Either way the observations carry RLlib's masking keys and
    each env's seed is hashed with its runner's index."""
    from maquis.integrations.rllib import maquis_env_creator

    return maquis_env_creator(env_config)


def build_config(args):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    return (
        PPOConfig()
        .environment(ENV_NAME, env_config={"difficulty": args.difficulty,
                                           "shaping": {"gamma": GAMMA} if args.shaping else None,
                                           "num_threads": args.env_threads})
        .env_runners(num_env_runners=args.num_env_runners, num_envs_per_env_runner=args.envs_per_runner,
                     gym_env_vectorize_mode="vector_entry_point" if args.vectorize == "native" else "sync",
                     num_cpus_per_env_runner=args.env_threads if args.vectorize == "native" else 1)
        .learners(num_learners=args.num_learners, num_gpus_per_learner=args.num_gpus_per_learner)
        .training(
            train_batch_size_per_learner=args.train_batch,
            minibatch_size=args.minibatch,
            num_epochs=args.epochs,
            lr=args.lr,
            gamma=GAMMA,
            lambda_=0.95,
            entropy_coeff=0.01,
            vf_loss_coeff=0.5,
        )
        .rl_module(
            rl_module_spec=RLModuleSpec(
                module_class=ActionMaskingTorchRLModule,
                model_config={
                    "fcnet_hiddens": [args.hidden, args.hidden],
                    "fcnet_activation": "tanh",
                    "head_fcnet_hiddens": [],
                    "vf_share_layers": False,
                },
            )
        )
        .debugging(seed=args.seed)
    )


class RLModulePolicy:
    """Greedy masked play of an RLlib RLModule: a batched `policy(obs, mask)` for maquis.evaluate."""

    batched = True

    def __init__(self, module):
        self.module = module

    def __call__(self, obs, mask):
        import torch
        from ray.rllib.core.columns import Columns

        obs = np.asarray(obs, np.float32)
        single = obs.ndim == 1
        obs2 = obs[None] if single else obs
        mask2 = np.asarray(mask, np.float32).reshape(obs2.shape[0], -1)
        with torch.no_grad():
            out = self.module.forward_inference(
                {Columns.OBS: {"observations": torch.from_numpy(obs2), "action_mask": torch.from_numpy(mask2)}}
            )
        logits = out[Columns.ACTION_DIST_INPUTS].numpy()
        logits = np.where(mask2 > 0, logits, -np.inf)
        actions = logits.argmax(axis=1).astype(np.int64)
        return int(actions[0]) if single else actions


def export_npz(module, path, meta):
    """The actor (encoder + policy head) as a `maquis-mlp-v1` .npz, when it is a plain tanh MLP."""
    import torch.nn as nn

    linears, acts = [], set()
    for part in (module.encoder.actor_encoder if hasattr(module.encoder, "actor_encoder") else module.encoder, module.pi):
        for m in part.modules():
            if isinstance(m, nn.Linear):
                linears.append(m)
            elif isinstance(m, (nn.Tanh, nn.ReLU)):
                acts.add(type(m))
    if acts != {nn.Tanh} or not linears:
        return False
    from maquis.maquis.policy import save_policy

    weights = [m.weight.detach().cpu().numpy().T.copy() for m in linears]
    save_policy(path, weights, [m.bias.detach().cpu().numpy() for m in linears], "tanh", meta)
    return True


def main(argv=None):
    args = parse_args(argv)
    import ray
    from ray.tune.registry import register_env

    import maquis

    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    ray.init(address=args.address, num_cpus=args.num_cpus, include_dashboard=False, ignore_reinit_error=True,
             log_to_driver=False)
    register_env(ENV_NAME, env_creator)
    algo = build_config(args).build_algo()
    t0 = time.time()
    last_steps, rates = 0, []
    try:
        for it in range(1, args.iterations + 1):
            t_it = time.time()
            result = algo.train()
            dt = time.time() - t_it
            runners = result.get("env_runners", {})
            ret = runners.get("episode_return_mean", float("nan"))
            length = runners.get("episode_len_mean", float("nan"))
            steps = int(result.get("num_env_steps_sampled_lifetime", runners.get("num_env_steps_sampled_lifetime", 0)) or 0)
            # Env steps per second of the whole iteration (sampling and learning), as a user sees it.
            rates.append((steps - last_steps) / max(dt, 1e-9))
            last_steps = steps
            print(f"iter {it:3d}  env steps {steps:>9d}  return {ret:+.3f}  len {length:6.1f}  "
                  f"{rates[-1]:8.0f} steps/s  {time.time() - t0:6.0f}s", flush=True)
            if args.minutes is not None and time.time() - t0 >= 60 * args.minutes:
                break
        later = rates[1:] or rates  # the first iteration also starts the runners' processes
        print(f"{args.num_env_runners} env runners x {args.envs_per_runner} envs ({args.vectorize}): "
              f"{last_steps} env steps in {time.time() - t0:.0f} s, median {float(np.median(later)):.0f} steps/s "
              f"per iteration after the first", flush=True)
        algo.save_to_path(str(out / "checkpoint"))
        module = algo.get_module()
        exported = export_npz(module, out / "policy.npz", {"trained_with": "examples/rllib_ppo.py",
                                                          "difficulty": args.difficulty, "shaping": args.shaping})
        if args.eval_episodes:
            res = maquis.evaluate(RLModulePolicy(module), difficulties=[args.difficulty],
                                  episodes=args.eval_episodes, seed=args.eval_seed)
            print(res.to_text(stars=False) if hasattr(res, "to_text") else res)
        print(f"saved {out / 'checkpoint'}" + (f" and {out / 'policy.npz'}" if exported else ""))
    finally:
        algo.stop()
        ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())

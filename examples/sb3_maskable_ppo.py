#!/usr/bin/env python3
"""Stable-Baselines3 (sb3-contrib) `MaskablePPO` on maquis, with unchanged library code.

    pip install "maquis[train]"        # or: pip install . sb3-contrib
    python examples/sb3_maskable_ppo.py --total-steps 2000000 --num-envs 16 --out runs/sb3
    maquis eval --policy runs/sb3/policy.npz --difficulties normal

`maquis.MaquisEnv` already has `action_masks()` (np.bool_, sb3-contrib's convention), so
`MaskablePPO` reads the legal-action mask from the environment itself: no wrapper is needed. (With an
environment that lacks the method, `sb3_contrib.common.wrappers.ActionMasker(env, fn)` supplies it.)
The environments run in one process (`DummyVecEnv`); with two cores, `SubprocVecEnv` brings nothing:
the Rust engine is far faster than the policy network.

At the end the model is saved (`model.zip`, SB3's format) and evaluated with `maquis.evaluate`
(greedy, masked). Its actor is also exported as `policy.npz` (the "maquis-mlp-v1" numpy format of
`examples/train_ppo.py`), which `maquis eval --policy` can play without torch or SB3.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

# The options every training example shares.
from maquis.train.ppo import add_evaluation_arguments, add_shaping_switch


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--total-steps", type=int, default=None,
                   help="environment steps (default: 1,000,000, or no limit with --minutes)")
    p.add_argument("--minutes", type=float, default=None, help="wall-clock budget; stops at whichever comes first")
    p.add_argument("--num-envs", type=int, default=16)
    p.add_argument("--n-steps", type=int, default=256, help="rollout length per env")
    p.add_argument("--batch-size", type=int, default=1024)
    p.add_argument("--difficulty", default="normal")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=2, help="torch threads")
    p.add_argument("--out", default="runs/sb3_maskable_ppo")
    add_evaluation_arguments(p, episodes=500, seed=12345)
    p.add_argument("--verbose", type=int, default=1)
    add_shaping_switch(p, GAMMA)
    args = p.parse_args(argv)
    if args.total_steps is None:
        args.total_steps = 10**12 if args.minutes else 1_000_000
    return args


#: The discount of the PPO below, also the shaping's (its terms telescope only for the same one).
GAMMA = 0.997


def make_env(difficulty, shaping=False):
    import maquis
    from stable_baselines3.common.monitor import Monitor

    def thunk():
        # MaquisEnv exposes action_masks(); Monitor keeps it reachable through env_method.
        return Monitor(maquis.MaquisEnv(difficulty=difficulty, shaping={"gamma": GAMMA} if shaping else None))

    return thunk


def time_budget(minutes):
    """An SB3 callback that ends `learn()` once `minutes` of wall-clock time have passed."""
    from stable_baselines3.common.callbacks import BaseCallback

    class TimeBudget(BaseCallback):
        def _on_training_start(self):
            self.deadline = time.time() + 60 * minutes

        def _on_step(self):
            return time.time() < self.deadline

    return TimeBudget()


def export_npz(model, path, meta):
    """Write the actor of an SB3 MLP policy as a `maquis-mlp-v1` .npz (see examples/train_ppo.py)."""
    import torch.nn as nn

    pol = model.policy
    lins = [m for m in pol.mlp_extractor.policy_net if isinstance(m, nn.Linear)] + [pol.action_net]
    acts = {type(m) for m in pol.mlp_extractor.policy_net if not isinstance(m, nn.Linear)}
    activation = "tanh" if acts == {nn.Tanh} or not acts else "relu" if acts == {nn.ReLU} else None
    if activation is None:
        raise ValueError(f"cannot export activation {acts}")
    from maquis.maquis.policy import save_policy

    weights = [m.weight.detach().cpu().numpy().T.copy() for m in lins]
    save_policy(path, weights, [m.bias.detach().cpu().numpy() for m in lins], activation, meta)


def main(argv=None):
    args = parse_args(argv)
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    import maquis

    torch.set_num_threads(args.threads)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    venv = DummyVecEnv([make_env(args.difficulty, args.shaping) for _ in range(args.num_envs)])
    venv.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=4,
        gamma=GAMMA,
        gae_lambda=0.95,
        learning_rate=3e-4,
        ent_coef=0.01,
        policy_kwargs=dict(net_arch=dict(pi=[256, 256], vf=[256, 256])),
        seed=args.seed,
        verbose=args.verbose,
        device="cpu",
    )
    t = time.time()
    model.learn(total_timesteps=args.total_steps, callback=time_budget(args.minutes) if args.minutes else None)
    minutes = (time.time() - t) / 60
    steps = int(model.num_timesteps)
    model.save(out / "model.zip")
    export_npz(model, out / "policy.npz", {"trained_with": "examples/sb3_maskable_ppo.py", "shaping": args.shaping,
                                            "difficulty": args.difficulty, "env_steps": steps})
    venv.close()

    # Greedy masked play of the trained model, evaluated by maquis on fixed seeds.
    def policy(obs, mask):
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    if args.eval_episodes:
        res = maquis.evaluate(policy, difficulties=[args.difficulty], episodes=args.eval_episodes, seed=args.eval_seed)
        print(res.to_text(stars=False) if hasattr(res, "to_text") else res)
    print(f"trained {steps} steps in {minutes:.1f} min; saved {out / 'model.zip'} and {out / 'policy.npz'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

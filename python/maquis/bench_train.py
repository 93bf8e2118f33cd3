"""`maquis bench --train`: the rate a learner sees. Env-steps/s through a PPO-style rollout loop
in torch: each step converts the observations to a tensor, runs a 2×256 tanh MLP (policy and value
heads), samples an action from the masked logits, stores the batch (observations, masks, actions,
log-probabilities, values, rewards, dones) into preallocated rollout buffers, and steps a
`MaquisVectorEnv` (copy=True, as a learner creates it). The environment's share of the time is
the time spent in `env.step` over the whole loop. No gradient step: this is the collection half of
PPO, whose update adds its own time on top.

Torch threads are set as `examples/train_ppo.py` sets them (OMP_WAIT_POLICY=PASSIVE, so that
torch's idle threads do not spin against the environment's workers).
"""

from __future__ import annotations

import os
import time
from typing import Any

import numpy as np

#: The rollout loop's shape: `examples/train_ppo.py`'s defaults (128 environments, 128 steps per
#: rollout, 2×256 hidden units).
TRAIN_ENVS, TRAIN_STEPS, HIDDEN = 128, 128, 256


def torch_or_none() -> Any:
    """torch, imported with the thread settings of the training example, or None if missing."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        import torch
    except ImportError:
        return None
    return torch


def bench_train(
    seconds: float, repeats: int, difficulty: str, threads: int, dtype: str, num_envs: int = TRAIN_ENVS,
    steps: int = TRAIN_STEPS,
) -> dict[str, Any]:
    """One row: env-steps/s of the rollout loop (median of `repeats` runs of at least `seconds`,
    whole rollouts) and `env_share`, the median fraction of it spent in `env.step`."""
    import statistics

    from . import MaquisVectorEnv, OBS_SIZE, NUM_ACTIONS, OBSERVATION_DIVISOR

    torch = torch_or_none()
    if torch is None:
        raise ImportError("torch is not installed")
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    nn = torch.nn
    body = nn.Sequential(nn.Linear(OBS_SIZE, HIDDEN), nn.Tanh(), nn.Linear(HIDDEN, HIDDEN), nn.Tanh())
    pi, vf = nn.Linear(HIDDEN, NUM_ACTIONS), nn.Linear(HIDDEN, 1)
    env = MaquisVectorEnv(num_envs, num_threads=threads, difficulty=difficulty, observation_dtype=dtype)
    obs, info = env.reset(seed=0)
    masks = info["action_mask"]
    t_dtype = torch.uint8 if dtype == "uint8" else torch.float32
    buf = {
        "obs": torch.zeros((steps, num_envs, OBS_SIZE), dtype=t_dtype),
        "masks": torch.zeros((steps, num_envs, NUM_ACTIONS), dtype=torch.bool),
        "actions": torch.zeros((steps, num_envs), dtype=torch.int64),
        "logp": torch.zeros((steps, num_envs)),
        "values": torch.zeros((steps, num_envs)),
        "rewards": torch.zeros((steps, num_envs)),
        "dones": torch.zeros((steps, num_envs), dtype=torch.bool),
    }
    # uint8 rows to the float32 network input, in torch (see maquis.observation_float32).
    divisor = torch.as_tensor(np.where(OBSERVATION_DIVISOR > 0, OBSERVATION_DIVISOR, 1), dtype=torch.float32)
    shares = torch.as_tensor(np.flatnonzero(OBSERVATION_DIVISOR == 0))

    def as_input(o: Any) -> Any:
        if o.dtype == torch.float32:
            return o
        x = o.float() / divisor
        x[:, shares] = o[:, shares + 1].float() / o[:, shares].float().clamp(min=1)
        return x

    state = {"obs": obs, "masks": masks}

    def rollout() -> float:
        """One rollout; returns the seconds spent in env.step."""
        in_env = 0.0
        with torch.no_grad():
            for k in range(steps):
                o = torch.from_numpy(state["obs"])
                m = torch.from_numpy(state["masks"]).bool()
                # An environment whose episode just ended has no legal action: its action is
                # ignored by the next-step autoreset, any will do.
                m[:, 0] |= ~m.any(dim=1)
                buf["obs"][k].copy_(o)
                buf["masks"][k].copy_(m)
                h = body(as_input(o))
                logits = pi(h).masked_fill(~m, float("-inf"))
                dist = torch.distributions.Categorical(logits=logits)
                a = dist.sample()
                buf["actions"][k] = a
                buf["logp"][k] = dist.log_prob(a)
                buf["values"][k] = vf(h).squeeze(1)
                t = time.perf_counter()
                obs, rewards, terminated, truncated, info = env.step(a.numpy())
                in_env += time.perf_counter() - t
                buf["rewards"][k] = torch.from_numpy(rewards)
                buf["dones"][k] = torch.from_numpy(terminated | truncated)
                state["obs"], state["masks"] = obs, info["action_mask"]
        return in_env

    rollout()  # warm-up
    rates, cpu_rates, shares_of_env = [], [], []
    for _ in range(repeats):
        start, cpu, in_env, n = time.perf_counter(), time.process_time(), 0.0, 0
        while True:
            in_env += rollout()
            n += steps * num_envs
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        rates.append(n / elapsed)
        cpu_rates.append(n / max(time.process_time() - cpu, 1e-9))
        shares_of_env.append(in_env / elapsed)
    env.close()
    rate = statistics.median(rates)
    return {
        "name": f"PPO rollout, 2x{HIDDEN} MLP in torch, {dtype}",
        "kind": "train",
        "num_envs": num_envs,
        "threads": threads,
        "observation_dtype": dtype,
        "steps_per_s": rate,
        "us_per_step": 1e6 / rate,
        "steps_per_cpu_s": statistics.median(cpu_rates),
        "env_share": statistics.median(shares_of_env),
        "repeats": [round(r) for r in rates],
    }

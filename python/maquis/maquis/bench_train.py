"""`maquis bench --train`: the rate a learner sees. Env-steps/s through a PPO-style rollout loop
in torch: each step takes the observations and masks to the network's device, runs a 2×256 tanh
MLP (policy and value heads), samples an action from the masked logits, stores the batch
(observations, masks, actions, log-probabilities, values, rewards, dones) into preallocated rollout
buffers on that device, and steps `MaquisVectorEnv`s (copy=False: their rows are read, or copied
to pinned memory, before their next step). No gradient step: this is the collection half of PPO,
whose update adds its own time on top.

The loop is `maquis.train.rollout`'s, the one `examples/train_ppo.py` collects with. On CUDA
(`--device cuda`) the env's own rows are page-locked and copied to the device with non-blocking
copies (uint8 rows are a quarter of float32's bytes; the float32 input is made on the GPU), and
the forward pass and the sampling are replayed as one CUDA graph (`--no-graph`: launched op by
op). `--halves 2` makes the environments two vector envs stepped in turn (`send`/`recv`), so that
Rust steps one half while the GPU acts on the other. `env_share` is the share of the loop's time
spent waiting on the environment; the row's `timers` give the shares of the other stages
(staging, launching the forward and the sampling, waiting on the device for the actions, storing)
and, on CUDA, the device's own microseconds per env-step of each stage (host-to-device copies,
forward, sampling, device-to-host copy), from CUDA events.

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
    steps: int = TRAIN_STEPS, device: str = "cpu", halves: int = 1, graph: bool | None = None,
    worker_spin: float | str | None = "auto", share_threads: bool = True,
) -> dict[str, Any]:
    """One row: env-steps/s of the rollout loop (median of `repeats` runs of at least `seconds`,
    whole rollouts), `env_share`, the fraction of the loop's time spent waiting on the environment,
    and `timers`, the shares of the other stages (and on CUDA the device's time per stage).

    `device`: where the network and the rollout buffers are ("cpu", "cuda", "cuda:N", "auto").
    `halves`: the environments as that many vector envs stepped in turn (`maquis.train.rollout.
    VectorHalves`): the network acts on one half while Rust steps the other. 1 by default: on the
    CPU both would share the same cores, and on the GPU each half's launches cost as much as the
    whole batch's (docs/performance.md). `graph`: the forward pass and the sampling replayed as
    one CUDA graph per half (`maquis.train.rollout.CapturedCall`); by default on CUDA, not on the
    CPU (where it is refused). `worker_spin`: the envs' `worker_spin` in seconds ("auto":
    `maquis.train.rollout.default_worker_spin`, longer on CUDA; None: the env's default).
    `share_threads`: the halves step on one set of threads (`VectorHalves`)."""
    import statistics

    from . import MaquisVectorEnv, NUM_ACTIONS, OBS_SIZE, OBSERVATION_DIVISOR

    torch = torch_or_none()
    if torch is None:
        raise ImportError("torch is not installed")
    from ..train.rollout import (
        CapturedCall, ObservationDecoder, RolloutTimers, Staging, VectorHalves, default_worker_spin,
        masked_sample, resolve_device, run_pipeline,
    )

    dev = resolve_device(device)
    graph = dev.type == "cuda" if graph is None else graph
    if graph and dev.type != "cuda":
        raise ValueError("graph=True needs a CUDA device")
    k = halves
    spin = default_worker_spin(dev) if worker_spin == "auto" else worker_spin
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    nn = torch.nn
    body = nn.Sequential(nn.Linear(OBS_SIZE, HIDDEN), nn.Tanh(), nn.Linear(HIDDEN, HIDDEN), nn.Tanh()).to(dev)
    pi, vf = nn.Linear(HIDDEN, NUM_ACTIONS).to(dev), nn.Linear(HIDDEN, 1).to(dev)
    # copy=False: the env's own arrays, read (or copied to pinned memory) before the half's next step.
    envs = VectorHalves(
        lambda n: MaquisVectorEnv(n, num_threads=threads, difficulty=difficulty, observation_dtype=dtype, copy=False),
        num_envs, k, share_threads=share_threads, worker_spin=spin,
    )
    decode = ObservationDecoder(OBSERVATION_DIVISOR, dev)
    stagings = [Staging(sl.stop - sl.start, OBS_SIZE, NUM_ACTIONS, dtype, dev) for sl in envs.slices]
    t_dtype = torch.uint8 if dtype == "uint8" else torch.float32
    buf = {
        "obs": torch.zeros((steps, num_envs, OBS_SIZE), dtype=t_dtype, device=dev),
        "masks": torch.zeros((steps, num_envs, NUM_ACTIONS), dtype=torch.bool, device=dev),
        "actions": torch.zeros((steps, num_envs), dtype=torch.int64, device=dev),
        "logp": torch.zeros((steps, num_envs), device=dev),
        "values": torch.zeros((steps, num_envs), device=dev),
        "rewards": torch.zeros((steps, num_envs), device=dev),
        "dones": torch.zeros((steps, num_envs), dtype=torch.bool, device=dev),
    }
    # Rewards and dones are written on the host row by row and go to the device once per rollout.
    pin = dev.type == "cuda"
    host_rewards = torch.zeros((steps, num_envs), pin_memory=pin)
    host_dones = torch.zeros((steps, num_envs), dtype=torch.bool, pin_memory=pin)
    rewards_np, dones_np = host_rewards.numpy(), host_dones.numpy()
    timers = RolloutTimers(dev)
    current: list[Any] = [None] * k

    def stage(h: int, obs: np.ndarray, masks: np.ndarray) -> None:
        current[h] = stagings[h].upload(obs, masks, timers)
        timers.lap("stage")

    for h, (obs, info) in enumerate(envs.reset(seed=0)):
        stage(h, obs, info["action_mask"])

    def forward(h: int) -> tuple[Any, ...]:
        # An environment awaiting its autoreset has every action in its row (the action is ignored).
        o, m = current[h]
        hidden = body(decode(o))
        return m, pi(hidden), vf(hidden).squeeze(1)

    def policy(h: int) -> tuple[Any, ...]:
        m, logits, value = forward(h)
        return (m, value, *masked_sample(logits, m))

    # On CUDA the staged rows stay at the same device addresses: each half's graph reads them there.
    with torch.no_grad():
        graphs = [CapturedCall(lambda h=h: policy(h)) for h in range(k)] if graph else []

    def act(h: int, t: int) -> np.ndarray:
        sl = envs.slices[h]
        begin = timers.event()
        if graph:
            m, value, a, logp = graphs[h]()  # the sampling too
            forwarded = timers.event()
            timers.lap("forward")
        else:
            m, logits, value = forward(h)
            forwarded = timers.event()
            timers.lap("forward")
            a, logp = masked_sample(logits, m)
            timers.lap("sample")
        buf["obs"][t, sl] = current[h][0]
        buf["masks"][t, sl] = m
        buf["values"][t, sl] = value
        buf["actions"][t, sl] = a
        buf["logp"][t, sl] = logp
        sampled = timers.event()
        timers.lap("store")
        actions = stagings[h].download(a)
        back = timers.event()
        timers.lap("device_wait")
        timers.span("forward", begin, forwarded)
        timers.span("sample", forwarded, sampled)
        timers.span("d2h", sampled, back)
        return actions

    def on_result(h: int, t: int, result: tuple[Any, ...]) -> None:
        obs, rewards, terminated, truncated, info = result
        sl = envs.slices[h]
        rewards_np[t, sl] = rewards
        np.logical_or(terminated, truncated, out=dones_np[t, sl])
        timers.lap("store")
        stage(h, obs, info["action_mask"])

    def rollout() -> None:
        with torch.no_grad():
            timers.start()
            run_pipeline(envs, steps, act, on_result, timers)
            buf["rewards"].copy_(host_rewards, non_blocking=True)
            buf["dones"].copy_(host_dones, non_blocking=True)
            if pin:
                # The rollout is done when its data is on the device (and the host rows are free).
                torch.cuda.current_stream().synchronize()
            timers.lap("store")
            timers.flush()  # the device's times of this rollout (its events are used again)
            timers.start()  # reading them is no part of the loop

    rollout()  # warm-up
    timers.reset()
    rates, cpu_rates, env_shares, total_s, total_n = [], [], [], 0.0, 0
    for _ in range(repeats):
        start, cpu, n = time.perf_counter(), time.process_time(), 0
        wait0 = timers.host["env_wait"]
        while True:
            rollout()
            n += steps * num_envs
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        rates.append(n / elapsed)
        cpu_rates.append(n / max(time.process_time() - cpu, 1e-9))
        env_shares.append((timers.host["env_wait"] - wait0) / elapsed)
        total_s += elapsed
        total_n += n
    summary = timers.summary(total_s, total_n)
    asynchronous = envs.asynchronous
    locked = sorted({role for st in stagings for role in st.locked})
    for st in stagings:
        st.close()
    envs.close()
    rate = statistics.median(rates)
    where = "" if dev.type == "cpu" else f" on {dev.type}"
    split = (f", {k} halves" if k > 1 else "") + (", CUDA graph" if graph else "")
    return {
        "name": f"PPO rollout, 2x{HIDDEN} MLP in torch{where}, {dtype}{split}",
        "kind": "train",
        "num_envs": num_envs,
        "threads": threads,
        "observation_dtype": dtype,
        "device": str(dev),
        "device_name": torch.cuda.get_device_name(dev) if dev.type == "cuda" else None,
        "torch": torch.__version__,
        "halves": k,
        "shared_threads": envs.shared_threads,
        "worker_spin": envs.envs[0].worker_spin,
        "graph": graph,
        "locked_rows": locked,
        "async_env": asynchronous,
        "steps_per_s": rate,
        "us_per_step": 1e6 / rate,
        "steps_per_cpu_s": statistics.median(cpu_rates),
        "env_share": statistics.median(env_shares),
        "timers": summary,
        "repeats": [round(r) for r in rates],
    }

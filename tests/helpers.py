"""Helpers several test files share (imported as `helpers`: pytest puts tests/ on the path)."""

from __future__ import annotations

import pytest

#: The example trainers' device options: the CPU as by default; the CPU with the pipelined
#: collection loop (two vector envs in turn, uint8 observations converted by torch); CUDA where
#: torch sees a GPU, pipelined too (its default is one half; the pipeline has more to go wrong).
DEVICES = {
    "cpu": [],
    "cpu-pipelined": ["--halves", "2", "--observation-dtype", "uint8"],
    "cuda": ["--device", "cuda", "--halves", "2"],
}


def device_args(device: str) -> list[str]:
    """The command-line options of `device` (a DEVICES key); skips the test without CUDA."""
    if device == "cuda":
        import torch

        if not torch.cuda.is_available():
            pytest.skip("no CUDA device (torch.cuda.is_available() is False)")
    return DEVICES[device]


def episode(env, seed, options=None, limit=5000):
    """Plays an episode of a single-agent env with its own sampler, checking every step's mask,
    observation and flags; returns (actions, rewards, last info)."""
    obs, info = env.reset(seed=seed, options=options)
    actions, rewards = [], []
    for _ in range(limit):
        a = env.sample_action()
        assert info["action_mask"][a] == 1
        obs, r, term, trunc, info = env.step(a)
        assert obs in env.observation_space
        assert type(term) is bool and type(trunc) is bool and trunc is False
        actions.append(a)
        rewards.append(r)
        if term:
            return actions, rewards, info
    raise AssertionError("the episode did not end")

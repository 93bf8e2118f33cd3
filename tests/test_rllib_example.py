"""examples/rllib_ppo.py with Ray RLlib: each EnvRunner steps a native vector env, and R runners x E
envs play R x E distinct deal streams (RLlib seeds runner `w` with `seed + w`).

The runners are RLlib's own `SingleAgentEnvRunner`s, built in this process from the example's
config (its env creator, vectorize mode and seed), so the seeds are the ones RLlib gives them. A
deal stream is told by the state the env saves right after its seeded reset (`save_state`, which
holds the deck order). Without ray (`pip install "ray[rllib]"`) these tests are SKIPPED.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("maquis")
pytest.importorskip("torch")
pytest.importorskip("ray.rllib")

import gymnasium as gym  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RUNNERS, ENVS, SEED = 3, 4, 11


def _example():
    spec = importlib.util.spec_from_file_location("rllib_ppo_example", EXAMPLES / "rllib_ppo.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# Ray's registry keeps a pickled copy of the env creator: the creator and what it records are
# module-level names, which pickle by reference.
SEEN: list[str] = []


class VectorRecord(gym.vector.VectorWrapper):
    def reset(self, *, seed=None, options=None):
        out = self.env.reset(seed=seed, options=options)
        if seed is not None:
            core = self.env.unwrapped
            SEEN.extend(core.save_state(i) for i in range(core.num_envs))
        return out


class Record(gym.Wrapper):
    def reset(self, *, seed=None, options=None):
        out = self.env.reset(seed=seed, options=options)
        if seed is not None:
            SEEN.append(self.env.unwrapped.save_state())
        return out


def recording_creator(env_config):
    """The example's env creator, each env noting the saved state of every game after a seeded
    reset (in SEEN)."""
    env = _example().env_creator(env_config)
    return VectorRecord(env) if isinstance(env, gym.vector.VectorEnv) else Record(env)


def _streams(vectorize):
    """The saved states of every game of RUNNERS runners x ENVS envs after RLlib's seeded reset."""
    from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner
    from ray.tune.registry import register_env

    example = _example()
    args = example.parse_args(["--seed", str(SEED), "--envs-per-runner", str(ENVS), "--num-env-runners", str(RUNNERS),
                               "--vectorize", vectorize, "--hidden", "16", "--train-batch", "64", "--minibatch", "32"])
    SEEN.clear()
    register_env(example.ENV_NAME, recording_creator)
    config = example.build_config(args)
    per_runner = []
    for w in range(1, RUNNERS + 1):
        runner = SingleAgentEnvRunner(config=config, worker_index=w, num_workers=RUNNERS)
        before = len(SEEN)
        runner.sample(num_timesteps=ENVS, explore=True)
        per_runner.append(SEEN[before:])
        runner.stop()
    return per_runner


@pytest.mark.filterwarnings("ignore:.*Overriding environment")
@pytest.mark.parametrize("vectorize", ["native", "sync"])
def test_runners_times_envs_play_distinct_deal_streams(vectorize):
    per_runner = _streams(vectorize)
    assert [len(s) for s in per_runner] == [ENVS] * RUNNERS
    states = [s for runner in per_runner for s in runner]
    assert len(set(states)) == RUNNERS * ENVS


def test_summed_seeds_would_replay_deals():
    """What the integration's seeding avoids: sub-env j of runner w seeded seed + w + j (Gymnasium's
    SyncVectorEnv under RLlib's seed + w) replays runner w + 1's env j - 1. The saved states see it."""
    import maquis

    env = maquis.MaquisEnv()
    states = []
    for w in range(1, RUNNERS + 1):
        for j in range(ENVS):
            env.reset(seed=SEED + w + j)
            states.append(env.save_state())
    assert len(set(states)) == RUNNERS + ENVS - 1


def test_the_native_env_reaches_rllib_as_one_vector_env():
    example = _example()
    env = example.env_creator({"num_envs": 3, "num_threads": 1, "difficulty": "normal"})
    import maquis

    assert isinstance(env.unwrapped, maquis.MaquisVectorEnv) and env.num_envs == 3
    obs, infos = env.reset(seed=0)
    assert obs["observations"].shape == (3, maquis.OBS_SIZE)
    assert obs["action_mask"].dtype.name == "float32" and obs["action_mask"].shape == (3, maquis.NUM_ACTIONS)
    assert env.single_observation_space.contains({k: v[0] for k, v in obs.items()})
    assert "action_mask" not in infos
    legal = obs["action_mask"].argmax(axis=1)
    obs, rewards, terminated, truncated, infos = env.step(legal)
    assert obs["action_mask"].shape == (3, maquis.NUM_ACTIONS) and rewards.shape == (3,)

"""Pickling: env factories sent to other processes (cloudpickle, as Ray and multiprocessing vector envs
do), the environments themselves, and gymnasium's AsyncVectorEnv with spawned workers."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

cloudpickle = pytest.importorskip("cloudpickle")
pytest.importorskip("pettingzoo")

import maquis  # noqa: E402
import maquis.dday  # noqa: E402
from gymnasium.vector import AsyncVectorEnv  # noqa: E402


def make_maquis() -> maquis.MaquisEnv:
    return maquis.MaquisEnv()


def make_dday() -> maquis.dday.DDayEnv:
    return maquis.dday.DDayEnv(opponent="random")


FACTORIES = {"maquis": lambda: maquis.MaquisEnv(), "dday": lambda: maquis.dday.DDayEnv()}


def play(env, seed: int, steps: int) -> list[bytes]:
    obs, _ = env.reset(seed=seed)
    trace = [obs.tobytes()]
    for _ in range(steps):
        obs, reward, terminated, _, _ = env.step(env.sample_action())
        trace.append(obs.tobytes() + np.float64(reward).tobytes())
        if terminated:
            obs, _ = env.reset()
            trace.append(obs.tobytes())
    return trace


@pytest.mark.parametrize("game", sorted(FACTORIES))
def test_cloudpickled_factories_make_the_same_env(game):
    factory = cloudpickle.loads(cloudpickle.dumps(FACTORIES[game]))
    assert play(factory(), 3, 40) == play(FACTORIES[game](), 3, 40)


def test_the_packages_pickle_by_reference_and_evaluate_is_the_function():
    for module in (maquis, maquis.dday):
        assert cloudpickle.loads(cloudpickle.dumps(module)) is module
    assert callable(maquis.evaluate) and callable(maquis.dday.evaluate)


@pytest.mark.parametrize("make", [make_maquis, make_dday, lambda: maquis.MaquisEnv(observation_dtype="uint8")])
@pytest.mark.parametrize("dumps", [pickle.dumps, cloudpickle.dumps])
def test_envs_pickle_mid_episode_and_play_on_the_same(make, dumps):
    env = make()
    env.reset(seed=7)
    for _ in range(5):
        env.step(env.sample_action())
    copy = pickle.loads(dumps(env))
    assert type(copy) is type(env) and copy.save_state() == env.save_state()
    assert copy.observation_space == env.observation_space
    for _ in range(30):
        if env.done:
            break
        a = env.sample_action()
        assert copy.sample_action() == a
        ra, rb = env.step(a), copy.step(a)
        np.testing.assert_array_equal(ra[0], rb[0])
        assert ra[1:4] == rb[1:4]


def test_the_aec_env_pickles():
    env = maquis.dday.raw_env(reward="vp_margin")
    env.reset(seed=2)
    for _ in range(6):
        env.step(env.legal_actions()[0])
    copy = cloudpickle.loads(cloudpickle.dumps(env))
    assert copy.save_state() == env.save_state() and copy.agent_selection == env.agent_selection
    assert copy.legal_actions() == env.legal_actions()


@pytest.mark.parametrize("game", sorted(FACTORIES))
def test_async_vector_env_with_spawned_workers(game):
    envs = AsyncVectorEnv([FACTORIES[game]] * 2, context="spawn")
    try:
        obs, infos = envs.reset(seed=0)
        assert obs.shape == (2, *FACTORIES[game]().observation_space.shape)
        for _ in range(4):
            actions = np.array([int(np.flatnonzero(m)[0]) for m in infos["action_mask"]])
            obs, rewards, terminated, truncated, infos = envs.step(actions)
            assert obs.shape[0] == 2 and not truncated.any()
    finally:
        envs.close()

"""Pickling: env factories sent to other processes (cloudpickle, as Ray and multiprocessing vector envs
do), the environments themselves, and gymnasium's AsyncVectorEnv with spawned workers."""

from __future__ import annotations

import copy as copy_module
import pickle

import numpy as np
import pytest

cloudpickle = pytest.importorskip("cloudpickle")
pytest.importorskip("pettingzoo")

import maquis  # noqa: E402
import maquis.dday  # noqa: E402
from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
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


# -- Vector envs ------------------------------------------------------------------------------------

try:  # Maurice Lite, where its package is built
    import maquis.maurice as _maurice
except ImportError:
    _maurice = None

VECTORS = {
    "maquis": lambda **k: maquis.MaquisVectorEnv(3, num_threads=2, **k),
    "maquis-shaped": lambda **k: maquis.MaquisVectorEnv(3, num_threads=2, shaping=True, difficulty="hard", **k),
    "dday": lambda **k: maquis.dday.DDayVectorEnv(3, num_threads=2, opponent="heuristic", **k),
}
if _maurice is not None:
    VECTORS["maurice"] = lambda **k: _maurice.MauriceVectorEnv(2, num_threads=2, observation="compact", **k)

SETTINGS = {
    "copy": {},
    "no-copy": {"copy": False},
    "uint8-same-step": {"observation_dtype": "uint8", "autoreset_mode": "same_step"},
}


def trajectory(v, steps: int) -> list:
    """What `v` returns over `steps` steps of its own sampled play (copies of every array)."""
    out = []
    for _ in range(steps):
        actions = v.sample_actions()
        obs, rewards, terminated, truncated, infos = v.step(actions)
        out.append((actions, np.array(obs), np.array(rewards), np.array(terminated), np.array(truncated),
                    copy_module.deepcopy(infos)))
    return out


def assert_same(a: list, b: list) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b):
        for u, w in zip(x[:5], y[:5]):
            np.testing.assert_array_equal(u, w)
        assert data_equivalence(x[5], y[5], exact=True)


@pytest.mark.parametrize("setting", sorted(SETTINGS))
@pytest.mark.parametrize("game", sorted(VECTORS))
@pytest.mark.parametrize("dumps", [pickle.dumps, cloudpickle.dumps], ids=["pickle", "cloudpickle"])
def test_vector_envs_pickle_mid_episode_and_step_identically(game, setting, dumps):
    v = VECTORS[game](**SETTINGS[setting])
    v.reset(seed=5)
    trajectory(v, 7)
    copy = pickle.loads(dumps(v))
    assert type(copy) is type(v) and copy.num_envs == v.num_envs and copy.copy == v.copy
    assert copy.observation_space == v.observation_space and copy.metadata == v.metadata
    assert [copy.save_state(i) for i in range(v.num_envs)] == [v.save_state(i) for i in range(v.num_envs)]
    assert_same(trajectory(copy, 40), trajectory(v, 40))
    # Resets go on from the same streams, and from the same np_random.
    np.testing.assert_array_equal(copy.reset()[0], v.reset()[0])
    assert_same(trajectory(copy, 10), trajectory(v, 10))
    np.testing.assert_array_equal(copy.reset(seed=9)[0], v.reset(seed=9)[0])


@pytest.mark.parametrize("game", sorted(VECTORS))
def test_vector_envs_pickle_before_and_between_resets(game):
    fresh = VECTORS[game]()
    copy = cloudpickle.loads(cloudpickle.dumps(fresh))
    with pytest.raises(maquis.MaquisError, match="never reset"):
        copy.step(np.zeros(copy.num_envs, dtype=np.int64))
    np.testing.assert_array_equal(copy.reset(seed=2)[0], fresh.reset(seed=2)[0])
    # Some environments reset, the others never: the copy knows which.
    v = VECTORS[game]()
    mask = np.zeros(v.num_envs, dtype=bool)
    mask[0] = True
    v.reset(seed=3, options={"reset_mask": mask})
    copy = pickle.loads(pickle.dumps(v))
    assert copy.save_state(0) == v.save_state(0)
    with pytest.raises(maquis.MaquisError, match="never reset"):
        copy.step(np.zeros(copy.num_envs, dtype=np.int64))
    copy.reset(options={"reset_mask": ~mask})
    v.reset(options={"reset_mask": ~mask})
    assert_same(trajectory(copy, 20), trajectory(v, 20))


def test_a_vector_env_pickles_its_start_states_and_deepcopies():
    source = maquis.MaquisEnv()
    source.reset(seed=1)
    for _ in range(3):
        source.step(source.sample_action())
    assert not source.done
    v = maquis.MaquisVectorEnv(3, num_threads=2)
    v.set_start_states([source.save_state()], probability=0.5)
    v.reset(seed=4)
    trajectory(v, 5)
    for copy in (pickle.loads(pickle.dumps(v)), copy_module.deepcopy(v)):
        assert copy.start_states == v.start_states == (1, 0.5)
    copy = pickle.loads(pickle.dumps(v))
    assert_same(trajectory(copy, 60), trajectory(v, 60))


def test_a_restored_snapshot_must_match_the_settings():
    v = maquis.MaquisVectorEnv(2)
    v.reset(seed=0)
    snap = v._core.snapshot([True, True])
    for other in (maquis.MaquisVectorEnv(3), maquis.MaquisVectorEnv(2, difficulty="hard"),
                  maquis.MaquisVectorEnv(2, autoreset_mode="same_step")):
        with pytest.raises(maquis.MaquisError, match="vector env snapshot"):
            other._core.restore(snap)
    with pytest.raises(maquis.MaquisError, match="snapshot"):
        maquis.dday.DDayVectorEnv(2)._core.restore(snap)
    with pytest.raises(maquis.MaquisError, match="snapshot"):
        maquis.MaquisVectorEnv(2)._core.restore(snap.replace('"version":1', '"version":7'))


def test_a_vector_env_with_a_step_pending_does_not_pickle():
    v = maquis.MaquisVectorEnv(2)
    v.reset(seed=0)
    v.send(v.sample_actions())
    with pytest.raises(RuntimeError, match="pickling called while a send"):
        pickle.dumps(v)
    v.recv()
    pickle.dumps(v)


def _step_in_a_worker(payload: bytes) -> bytes:
    """A Ray-like worker: unpickles the vector env it is sent, plays it, sends the results back."""
    v = cloudpickle.loads(payload)
    return cloudpickle.dumps(trajectory(v, 15))


@pytest.mark.parametrize("game", ["maquis", "dday"])
def test_a_vector_env_sent_to_a_spawned_process_plays_on(game):
    import multiprocessing

    v = VECTORS[game](copy=False)
    v.reset(seed=8)
    trajectory(v, 4)
    payload = cloudpickle.dumps(v)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        remote = cloudpickle.loads(pool.apply(_step_in_a_worker, (payload,)))
    assert_same(remote, trajectory(v, 15))

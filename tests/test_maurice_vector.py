"""The native Maurice Lite vector env `maquis.maurice.MauriceVectorEnv` (docs/api/maurice.md
"Vector environment"): seeding and thread counts, autoreset, infos, the compact and uint8
observations, options and bad inputs, saves."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

pytest.importorskip("pettingzoo")

import maquis.dday as dday  # noqa: E402
import maquis.maurice as maurice  # noqa: E402
from maquis.maurice import MauriceEnv, MauriceVectorEnv  # noqa: E402

COMPACT = maurice.COMPACT_OBSERVATION_SIZE


def test_spaces_infos_and_autoreset_next_step():
    venv = MauriceVectorEnv(3, opponent="random")
    assert venv.single_observation_space.shape == (21334,) and venv.observation_space.shape == (3, 21334)
    assert venv.single_action_space.n == 1447
    obs, infos = venv.reset(seed=0)
    assert obs.shape == (3, 21334) and obs.dtype == np.float32
    assert infos["action_mask"].shape == (3, 1447) and infos["action_mask"].dtype == np.int8
    assert venv.action_masks().shape == (3, 1447) and venv.action_masks().dtype == np.bool_
    assert venv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    ended = 0
    for _ in range(2000):
        a = venv.sample_actions()
        assert a.dtype == np.int64
        obs, r, term, trunc, infos = venv.step(a)
        assert not trunc.any()
        for i in np.flatnonzero(term):
            assert infos["outcome"][i] in ("win", "draw", "loss") and r[i] in (-1.0, 0.0, 1.0)
        ended += int(term.sum())
        if ended >= 3:
            break
    assert ended >= 3


@pytest.mark.parametrize("copy", [True, False])
def test_compact_rows_are_the_full_rows_cut(copy):
    full = MauriceVectorEnv(2, opponent="heuristic")
    compact = MauriceVectorEnv(2, opponent="heuristic", observation="compact", copy=copy)
    assert compact.single_observation_space.shape == (COMPACT,) and compact.observation_space.shape == (2, COMPACT)
    of, _ = full.reset(seed=3)
    oc, _ = compact.reset(seed=3)
    np.testing.assert_array_equal(oc, of[:, :COMPACT])
    for _ in range(60):
        a = full.sample_actions()
        assert (compact.sample_actions() == a).all()
        of, *_ = full.step(a)
        oc, *_ = compact.step(a)
        assert oc.shape == (2, COMPACT) and oc in compact.observation_space
        np.testing.assert_array_equal(oc, of[:, :COMPACT])


def test_same_step_autoreset_final_obs_compact():
    venv = MauriceVectorEnv(2, opponent="random", observation="compact", autoreset_mode="same_step")
    venv.reset(seed=0)
    for _ in range(2000):
        obs, r, term, trunc, infos = venv.step(venv.sample_actions())
        if term.any():
            i = int(np.flatnonzero(term)[0])
            assert infos["_final_obs"][i] and infos["final_obs"][i].shape == (COMPACT,)
            assert infos["final_info"]["outcome"][i] in ("win", "draw", "loss")
            assert infos["action_mask"][i].any()  # the new episode's mask
            return
    raise AssertionError("no episode ended")


@pytest.mark.parametrize("observation", ["full", "compact"])
def test_uint8_rows_convert_back_bit_for_bit(observation):
    a = MauriceVectorEnv(2, opponent="heuristic", observation=observation, observation_dtype="uint8")
    b = MauriceVectorEnv(2, opponent="heuristic", observation=observation)
    assert a.single_observation_space.dtype == np.uint8
    oa, _ = a.reset(seed=9)
    ob, _ = b.reset(seed=9)
    for _ in range(40):
        assert oa.dtype == np.uint8 and oa in a.observation_space
        assert maurice.observation_float32(oa).tobytes() == ob.tobytes()
        acts = b.sample_actions()
        oa, *_ = a.step(acts)
        ob, *_ = b.step(acts)


def test_reset_options():
    venv = MauriceVectorEnv(3, opponent="random", scenario="skirmish")
    venv.reset(seed=1, options={"first": "red", "morale": {"blue": 2, "red": 2}})
    for i in range(3):
        sd = venv.state_dict(i)
        assert sd["scenario"] == "skirmish" and sd["morale"]["blue"]["left"] == 2
    for bad in ({"side": "red"}, {"opponent": "random"}, {"bogus": 1}, {"dice": [9]}, {"first": "green"}):
        with pytest.raises(ValueError):
            venv.reset(options=bad)


def test_bad_inputs():
    with pytest.raises(ValueError, match="MauriceEnv"):
        MauriceVectorEnv(2, opponent=maurice.agents.RandomAgent())
    for kw in ({"opponent": "grandmaster"}, {"observation": "tiny"}, {"scenario": "waterloo"}, {"num_envs": 0}):
        with pytest.raises(ValueError):
            MauriceVectorEnv(**{"num_envs": 2, **kw})
    venv = MauriceVectorEnv(2, opponent="random")
    venv.reset(seed=0)
    with pytest.raises(ValueError):
        venv.step(np.array([1447, 0]))
    with pytest.raises(ValueError):
        venv.step(np.array([0, 0, 0]))


def test_search_and_morale_margin_in_the_vector_env():
    venv = MauriceVectorEnv(2, opponent="search", opponent_kwargs={"budget": 2}, reward="morale_margin",
                            observation="compact")
    venv.reset(seed=0)
    for _ in range(10):
        venv.step(venv.sample_actions())


def test_load_state_replaces_one_env_and_refuses_another_games_save():
    v = MauriceVectorEnv(3, num_threads=2, opponent="random", observation="compact")
    v.reset(seed=5)
    for _ in range(10):
        v.step(v.sample_actions())
    saved = v.save_state(2)
    v.load_state(0, saved)
    assert v.save_state(0) == saved and v.state_dict(0) == v.state_dict(2)
    np.testing.assert_array_equal(v._obs[0], v._obs[2])
    before = [v.save_state(i) for i in range(3)]
    d = dday.DDayEnv(opponent="random")
    d.reset(seed=0)
    with pytest.raises(ValueError, match="D-Day 1944 save"):
        v.load_state(1, d.save_state())
    with pytest.raises(IndexError):
        v.load_state(3, saved)
    assert [v.save_state(i) for i in range(3)] == before
    # A single env's save continues in the vector env, and back.
    single = MauriceEnv(opponent="random", observation="compact")
    single.load_state(v.save_state(1))
    assert single.state_dict() == v.state_dict(1)


@pytest.mark.parametrize("copy", [True, False])
def test_compact_rows_survive_pickling_and_the_asynchronous_step(copy):
    import pickle

    v = MauriceVectorEnv(2, opponent="random", observation="compact", copy=copy)
    v.reset(seed=1)
    for _ in range(3):
        v.step(v.sample_actions())
    w = pickle.loads(pickle.dumps(v))
    a = v.sample_actions()
    np.testing.assert_array_equal(w.sample_actions(), a)
    v.send(a)
    ov = v.recv()[0]
    ow = w.step(a)[0]
    assert ov.shape == ow.shape == (2, COMPACT)
    np.testing.assert_array_equal(ov, ow)

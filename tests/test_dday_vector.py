"""The native D-Day vector env `maquis.dday.DDayVectorEnv` (API.md "Vector environment")."""

from __future__ import annotations

import json

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

pytest.importorskip("pettingzoo")

import maquis.dday as dday  # noqa: E402
from maquis.dday import DDayVectorEnv  # noqa: E402


def test_infos_masks_sample_actions_and_autoreset_next_step():
    venv = DDayVectorEnv(4, opponent="random")
    obs, infos = venv.reset(seed=0)
    assert obs.shape == (4, 380) and obs.dtype == np.float32
    assert infos["action_mask"].shape == (4, 191) and infos["action_mask"].dtype == np.int8
    assert venv.action_masks().dtype == np.bool_
    assert venv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    ended = 0
    for _ in range(3000):
        a = venv.sample_actions()
        assert a.dtype == np.int64
        masks = venv.action_masks()
        assert all(masks[i, a[i]] for i in range(4) if masks[i].any())
        obs, r, term, trunc, infos = venv.step(a)
        assert not trunc.any()
        if term.any():
            ended += int(term.sum())
            for i in np.flatnonzero(term):
                assert infos["outcome"][i] in ("win", "draw", "loss")
                assert r[i] in (-1.0, 0.0, 1.0)
        if ended >= 4:
            break
    assert ended >= 4


def test_same_step_autoreset_final_obs():
    venv = DDayVectorEnv(2, opponent="random", autoreset_mode="same_step")
    venv.reset(seed=0)
    for _ in range(3000):
        obs, r, term, trunc, infos = venv.step(venv.sample_actions())
        if term.any():
            i = int(np.flatnonzero(term)[0])
            assert infos["_final_obs"][i] and infos["final_obs"][i].shape == (380,)
            assert infos["final_info"]["outcome"][i] in ("win", "draw", "loss")
            assert infos["action_mask"][i].any()  # the new episode's mask
            return
    raise AssertionError("no episode ended")


def test_options_and_bad_inputs():
    alloc = {
        "caen": ["squad", "vip", "gendarme"],
        "bayeux": ["squad", "passenger"],
        "lison": ["squad", "goods"],
        "saint_lo": ["goods", "gendarme"],
        "avranches": ["gendarme", "gendarme"],
    }
    venv = DDayVectorEnv(2, opponent="random")
    venv.reset(seed=0, options={"allocation": alloc, "attack": ["caen", "lison"]})
    assert venv.state_dict(0)["attacked"] == ["caen", "lison"]
    for bad in ({"side": "german"}, {"opponent": "random"}, {"bogus": 1}, {"dice": [9]}):
        with pytest.raises(ValueError):
            venv.reset(options=bad)
    with pytest.raises(ValueError):
        DDayVectorEnv(2, opponent=dday.agents.RandomAgent())
    with pytest.raises(ValueError):
        DDayVectorEnv(2, opponent="grandmaster")
    with pytest.raises(ValueError):
        venv.step(np.array([191, 0]))
    with pytest.raises(ValueError):
        venv.step(np.array([0, 0, 0]))


def test_search_and_vp_margin_in_the_vector_env():
    venv = DDayVectorEnv(2, opponent="search", opponent_kwargs={"budget": 2}, reward="vp_margin", side="german")
    venv.reset(seed=0)
    for _ in range(50):
        venv.step(venv.sample_actions())


def test_copy_false_hands_out_the_engine_arrays():
    venv = DDayVectorEnv(3, opponent="heuristic", copy=False)
    obs, infos = venv.reset(seed=0)
    for _ in range(200):
        obs, r, term, trunc, infos = venv.step(venv.sample_actions())
        assert infos["action_mask"].shape == (3, 191)
    ref = DDayVectorEnv(3, opponent="heuristic")
    o2, _ = ref.reset(seed=0)
    for _ in range(200):
        o2, *_ = ref.step(ref.sample_actions())
    np.testing.assert_array_equal(obs, o2)


def test_load_state_replaces_one_env_and_refuses_bad_saves_changing_nothing():
    v = DDayVectorEnv(3, num_threads=2)
    v.reset(seed=5)
    for _ in range(20):
        v.step(v.sample_actions())
    saved = v.save_state(2)
    v.load_state(0, saved)
    assert v.save_state(0) == saved and v.state_dict(0) == v.state_dict(2)
    np.testing.assert_array_equal(v._obs[0], v._obs[2])
    np.testing.assert_array_equal(v.action_masks()[0], v.action_masks()[2])
    before = [v.save_state(i) for i in range(3)]
    bad = json.loads(saved)
    bad["game"]["state"]["phase"] = "no_such_phase"
    for text, error in ((json.dumps(bad), ValueError), ("{}", ValueError), (b"x", TypeError)):
        with pytest.raises(error):
            v.load_state(1, text)
    with pytest.raises(IndexError):
        v.load_state(3, saved)
    assert [v.save_state(i) for i in range(3)] == before
    # The loaded env plays on exactly as the one it was copied from.
    for _ in range(30):
        actions = v.sample_actions()
        actions[0] = actions[2]
        v.step(actions)


def test_dday_q0_every_german_learner_makes_11_allocation_decisions():
    """RULES Q0's ruling (2026-11-28), in the vector env: each env's German learner takes exactly
    11 steps in the allocation phase (observation slice `phase`, allocation first), forced ones
    included."""
    n = 32
    venv = DDayVectorEnv(n, side="german", opponent="heuristic")
    obs, infos = venv.reset(seed=5)
    allocation = dday.PHASES.index("allocation")
    phase = dict((name, off) for name, off, _ in dday.OBSERVATION_LAYOUT)["phase"]
    steps, forced = np.zeros(n, int), 0
    while (obs[:, phase + allocation] == 1).any():
        in_allocation = obs[:, phase + allocation] == 1
        steps += in_allocation
        forced += int(((infos["action_mask"].sum(axis=1) == 1) & in_allocation).sum())
        obs, r, term, trunc, infos = venv.step(venv.sample_actions())
    assert (steps == 11).all(), steps
    assert forced > 0

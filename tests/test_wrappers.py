"""Mask conventions for RL libraries: dict observations (single and vector) and sb3-contrib's
`action_masks`, all agreeing with info["action_mask"] and legal_actions()."""

from __future__ import annotations

import gymnasium as gym
import numpy as np

import maquis
from maquis import ActionMaskObservation, MaquisVectorEnv, VectorActionMaskObservation, action_masks

N = maquis.NUM_ACTIONS


def test_dict_observation_wrapper_over_episodes():
    env = ActionMaskObservation(gym.make(maquis.ENV_ID))
    space = env.observation_space
    assert isinstance(space, gym.spaces.Dict) and set(space.spaces) == {"observation", "action_mask"}
    assert space["action_mask"] == gym.spaces.MultiBinary(N)
    obs, info = env.reset(seed=0)
    episodes = 0
    for _ in range(300):
        assert obs in space
        assert obs["action_mask"].dtype == np.int8
        np.testing.assert_array_equal(obs["action_mask"], info["action_mask"])
        legal = env.unwrapped.legal_actions()
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        np.testing.assert_array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        if not legal:
            obs, info = env.reset()
            episodes += 1
            continue
        obs, _, _, _, info = env.step(int(np.random.default_rng(len(legal)).choice(legal)))
    assert episodes > 3


def test_sb3_action_masks_through_gymnasium_wrappers():
    env = gym.make(maquis.ENV_ID)  # OrderEnforcing / PassiveEnvChecker around MaquisEnv
    env.reset(seed=1)
    m = action_masks(env)
    assert m.dtype == np.bool_ and m.shape == (N,)
    np.testing.assert_array_equal(m, env.unwrapped.action_masks())
    np.testing.assert_array_equal(env.get_wrapper_attr("action_masks")(), m)  # what MaskablePPO calls
    assert np.flatnonzero(m).tolist() == env.unwrapped.legal_actions()


def test_vector_dict_observation_wrapper():
    v = VectorActionMaskObservation(MaquisVectorEnv(4, num_threads=2))
    obs, infos = v.reset(seed=2)
    for _ in range(100):
        assert obs in v.observation_space
        np.testing.assert_array_equal(obs["action_mask"], infos["action_mask"])
        np.testing.assert_array_equal(obs["action_mask"].astype(bool), v.action_masks())
        obs, _, _, _, infos = v.step(v.unwrapped.sample_actions())

"""Mask conventions for RL libraries: dict observations (single and vector) and sb3-contrib's
`action_masks`, all agreeing with info["action_mask"] and legal_actions(), for every game."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import maquis
import maquis.dday
from maquis import ActionMaskObservation, MaquisVectorEnv, VectorActionMaskObservation, action_masks

#: Per game: its Gymnasium id, its number of actions, its native vector env.
GAMES = {
    "maquis": (maquis.ENV_ID, maquis.NUM_ACTIONS, MaquisVectorEnv),
    "dday": (maquis.dday.ENV_ID, maquis.dday.NUM_ACTIONS, maquis.dday.DDayVectorEnv),
}
EVERY_GAME = pytest.mark.parametrize("game", sorted(GAMES))


@EVERY_GAME
def test_dict_observation_wrapper_over_episodes(game):
    env_id, N, _ = GAMES[game]
    env = ActionMaskObservation(gym.make(env_id))
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


@EVERY_GAME
def test_sb3_action_masks_through_gymnasium_wrappers(game):
    env_id, N, _ = GAMES[game]
    env = gym.make(env_id)  # OrderEnforcing / PassiveEnvChecker around the single env
    env.reset(seed=1)
    m = action_masks(env)
    assert m.dtype == np.bool_ and m.shape == (N,)
    np.testing.assert_array_equal(m, env.unwrapped.action_masks())
    np.testing.assert_array_equal(env.get_wrapper_attr("action_masks")(), m)  # what MaskablePPO calls
    assert np.flatnonzero(m).tolist() == env.unwrapped.legal_actions()


@EVERY_GAME
def test_vector_dict_observation_wrapper(game):
    _, N, vector = GAMES[game]
    v = VectorActionMaskObservation(vector(4, num_threads=2))
    assert v.single_observation_space["action_mask"] == gym.spaces.MultiBinary(N)
    obs, infos = v.reset(seed=2)
    for _ in range(100):
        assert obs in v.observation_space
        np.testing.assert_array_equal(obs["action_mask"], infos["action_mask"])
        np.testing.assert_array_equal(obs["action_mask"].astype(bool), v.action_masks())
        obs, _, _, _, infos = v.step(v.unwrapped.sample_actions())

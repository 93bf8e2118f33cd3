"""The single-agent D-Day environment `maquis.dday.DDayEnv` / `maquis/DDay1944-v0` (API.md)."""

from __future__ import annotations

import pickle
import warnings

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import maquis  # noqa: E402,F401
import maquis.dday as dday  # noqa: E402
from maquis.dday import DDayEnv  # noqa: E402
from helpers import episode  # noqa: E402

ALLOCATION = {
    "caen": ["squad", "vip", "gendarme"],
    "bayeux": ["squad", "passenger"],
    "lison": ["squad", "goods"],
    "saint_lo": ["goods", "gendarme"],
    "avranches": ["gendarme", "gendarme"],
}


def test_check_env_without_warnings():
    from gymnasium.utils.env_checker import check_env

    for side, opponent in (("resistance", "random"), ("german", "random"), ("resistance", "heuristic")):
        env = DDayEnv(side=side, opponent=opponent)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_env(env, skip_render_check=True)


def test_make_and_make_vec():
    env = gym.make("maquis/DDay1944-v0", side="german", opponent="random")
    obs, info = env.reset(seed=0)
    assert env.observation_space.shape == (380,) and env.action_space.n == 191
    assert set(info) >= {"action_mask", "phase"}
    assert info["phase"] == "allocation"  # the German learner allocates first
    venv = gym.make_vec("maquis/DDay1944-v0", num_envs=3, opponent="random")
    assert isinstance(venv, dday.DDayVectorEnv)
    obs, infos = venv.reset(seed=0)
    assert obs.shape == (3, 380)


@pytest.mark.parametrize("side", ["resistance", "german"])
@pytest.mark.parametrize("opponent", ["random", "heuristic"])
def test_episodes_end_with_outcome_vp_and_table_reward(side, opponent):
    env = DDayEnv(side=side, opponent=opponent)
    actions, rewards, info = episode(env, 5)
    assert all(r == 0 for r in rewards[:-1])
    assert rewards[-1] == {"win": 1.0, "draw": 0.0, "loss": -1.0}[info["outcome"]]
    assert set(info["vp"]) == {"resistance", "german"}
    assert env.state_dict()["phase"] == "game_over"


def test_resistance_learner_starts_after_the_german_allocation():
    env = DDayEnv(side="resistance")
    obs, info = env.reset(seed=0)
    assert info["phase"] == "interrogation"
    assert env.state_dict()["to_move"] == "resistance"


def test_search_opponent_with_budget():
    env = DDayEnv(side="resistance", opponent="search", opponent_kwargs={"budget": 2})
    episode(env, 1)
    with pytest.raises(ValueError):
        DDayEnv(opponent="search", opponent_kwargs={"depth": 2})
    with pytest.raises(ValueError):
        DDayEnv(opponent="search", opponent_kwargs={"budget": 0})


def test_vp_margin_and_partial_table():
    env = DDayEnv(side="german", opponent="random", reward="vp_margin")
    _, rewards, info = episode(env, 2)
    vp = info["vp"]
    assert rewards[-1] == pytest.approx((vp["german"] - vp["resistance"]) / 150)
    env = DDayEnv(opponent="random", reward={"loss": -3.0})
    for s in range(4):
        _, rewards, info = episode(env, s)
        assert rewards[-1] == {"win": 1.0, "draw": 0.0, "loss": -3.0}[info["outcome"]]
    with pytest.raises(ValueError):
        DDayEnv(reward={"lose": 1.0})
    with pytest.raises(ValueError):
        DDayEnv(reward="margin")
    with pytest.raises(TypeError):
        DDayEnv(reward={"win": "1"})


def test_same_seed_same_trajectory_and_different_seeds_differ():
    def trace(seed):
        env = DDayEnv(opponent="heuristic")
        actions, rewards, info = episode(env, seed)
        return actions, rewards, info["outcome"], info["vp"], env.save_state()

    assert trace(11) == trace(11)
    assert trace(11) != trace(12)


def test_dice_do_not_depend_on_the_opponent():
    """Same seed, same scripted start, different opponents: the first rolls are the same."""
    logs = []
    for opponent in ("random", "heuristic"):
        env = DDayEnv(side="resistance", opponent=opponent)
        env.reset(seed=3, options={"allocation": ALLOCATION, "attack": ["caen", "bayeux"], "first": "caen"})
        logs.append(env.state_dict()["dice_log"][:1])
    assert logs[0] == logs[1] and logs[0]


def test_reset_options_apply_for_one_reset_only():
    env = DDayEnv(side="resistance", opponent="random")
    obs, info = env.reset(seed=0, options={"allocation": ALLOCATION, "attack": ["lison", "caen"], "first": "lison"})
    sd = env.state_dict()
    assert sd["order"] == ["lison", "caen"] and sd["attacked"] == ["caen", "lison"]
    assert info["phase"] == "group_size"
    obs, info = env.reset(options={"side": "german", "opponent": "heuristic"})
    assert env.side == "german" and info["phase"] == "allocation"
    obs, info = env.reset()
    assert env.side == "resistance" and info["phase"] == "interrogation"
    env.reset(seed=0, options={"allocation": ALLOCATION, "attack": ["caen", "bayeux"], "first": "caen", "dice": [6, 6, 6]})
    assert env.state_dict()["dice_log"][0]["dice"] == [6]


@pytest.mark.parametrize(
    "options",
    [
        {"bogus": 1},
        {"attack": ["caen", "lison"]},
        {"allocation": ALLOCATION, "attack": ["caen", "caen"]},
        {"allocation": ALLOCATION, "attack": ["caen", "paris"]},
        {"allocation": ALLOCATION, "first": "caen"},
        {"allocation": ALLOCATION, "attack": ["caen", "lison"], "first": "bayeux"},
        {"allocation": {**ALLOCATION, "caen": ["vip", "vip"]}},
        {"allocation": {"caen": ["squad"]}},
        {"dice": [0]},
        {"dice": [7]},
        {"dice": "66"},
        {"side": "french"},
        {"opponent": "grandmaster"},
    ],
)
def test_bad_reset_options_are_value_errors_and_change_nothing(options):
    env = DDayEnv(opponent="random")
    env.reset(seed=0)
    before = env.save_state()
    with pytest.raises(ValueError):
        env.reset(options=options)
    assert env.save_state() == before


def test_illegal_action_terminate_and_raise():
    env = DDayEnv(opponent="random")
    env.reset(seed=0)
    obs, r, term, trunc, info = env.step(dday.action_from_str("allocate:squad:caen"))
    assert term and r == -1.0 and info["outcome"] == "loss" and info["illegal_action"] is True
    env = DDayEnv(opponent="random", illegal_action="raise")
    env.reset(seed=0)
    before = env.save_state()
    with pytest.raises(ValueError, match=r"allocate:squad:caen.*interrogation"):
        env.step(dday.action_from_str("allocate:squad:caen"))
    assert env.save_state() == before
    with pytest.raises(ValueError):
        env.step(191)
    with pytest.raises(TypeError):
        env.step("guess:caen:5")


def test_action_masks_legal_actions_and_names():
    env = DDayEnv(opponent="random")
    obs, info = env.reset(seed=0)
    m = env.action_masks()
    assert m.dtype == np.bool_ and m.shape == (191,)
    assert list(np.flatnonzero(m)) == env.legal_actions() == list(np.flatnonzero(info["action_mask"]))
    assert info["action_mask"].dtype == np.int8
    assert env.action_to_str(75) == "stop_interrogation" and env.action_from_str("keep") == 92


class FirstLegal:
    """An outside opponent: the first legal action."""

    def __init__(self):
        self.calls = 0

    def act(self, obs, mask):
        self.calls += 1
        assert obs.shape == (380,)
        return int(np.flatnonzero(mask)[0])


def test_python_object_opponent_plays_inside_the_env():
    for side in ("resistance", "german"):
        opp = FirstLegal()
        env = DDayEnv(side=side, opponent=opp)
        _, rewards, info = episode(env, 0)
        assert opp.calls > 0 and info["outcome"] in ("win", "draw", "loss")
    # A bundled agent object plays as its id does.
    env = DDayEnv(opponent=dday.agents.HeuristicAgent(seed=1))
    episode(env, 0)
    with pytest.raises(TypeError):
        DDayEnv(opponent=object())


def test_an_unknown_render_mode_is_refused():
    with pytest.raises(ValueError):
        DDayEnv(render_mode="human")


def test_clone_and_pickle_with_a_bundled_agent_object_as_opponent():
    env = DDayEnv(opponent=dday.agents.HeuristicAgent(seed=3))
    env.reset(seed=1)
    twins = [env.clone(), pickle.loads(pickle.dumps(env))]
    legal = env.legal_actions()
    ref = env.step(legal[0])[0]
    for t in twins:
        np.testing.assert_array_equal(t.step(legal[0])[0], ref)


class Cheater:
    def act(self, obs, mask):
        return int(np.flatnonzero(np.asarray(mask) == 0)[0])


def test_an_outside_opponent_illegal_action_is_a_value_error_naming_it():
    env = DDayEnv(side="german", opponent="random")
    env.reset(seed=0, options={"opponent": Cheater()})
    with pytest.raises(ValueError, match="opponent's action"):
        for _ in range(20):
            env.step(env.sample_action())


def test_information_property_in_the_single_env():
    other = dict(ALLOCATION)
    other["saint_lo"], other["avranches"] = ALLOCATION["avranches"], ALLOCATION["saint_lo"]
    seen = []
    for alloc in (ALLOCATION, other):
        env = DDayEnv(side="resistance", opponent="heuristic")
        obs, _ = env.reset(seed=6, options={"allocation": alloc, "attack": ["caen", "bayeux"], "first": "caen"})
        trace = [obs]
        for i in range(30):
            legal = env.legal_actions()
            obs, r, term, _, _ = env.step(legal[(5 * i) % len(legal)])
            trace.append(obs)
            if term:
                break
        seen.append(np.stack(trace))
    np.testing.assert_array_equal(seen[0], seen[1])


def test_dday_q0_a_german_learner_makes_all_11_allocation_decisions():
    """RULES Q0's ruling (2026-11-28): the German learner is asked every allocation step, even
    one with a single legal zone."""
    env = DDayEnv(side="german", opponent="random")
    forced = 0
    for seed in range(60):
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        steps = 0
        while info["phase"] == "allocation":
            legal = np.flatnonzero(info["action_mask"])
            forced += len(legal) == 1
            obs, reward, term, trunc, info = env.step(int(rng.choice(legal)))
            steps += 1
        assert steps == 11  # the next learner decision is past the opponent's interrogation
    assert forced > 0

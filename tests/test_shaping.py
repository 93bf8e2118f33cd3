"""The `shaping` keyword: potential-based shaping that telescopes over an episode
(sum_t gamma^t F_t == -phi(s_0)), leaves rewards untouched when off, and refuses bad values."""

import gymnasium as gym
import numpy as np
import pytest

import maquis
from maquis import MaquisEnv, MaquisVectorEnv
from maquis.maquis.agents import make_agent


def _play(env, agent, seed):
    """One episode: phi(s_0), the step rewards, the shaping terms, the outcome."""
    obs, info = env.reset(seed=seed)
    phi0 = env.potential()
    rewards, terms, outcome = [], [], None
    done = False
    while not done:
        a = env.sample_action() if agent is None else agent.act(obs, info["action_mask"])
        obs, r, done, _, info = env.step(a)
        rewards.append(r)
        terms.append(info.get("shaping"))
        outcome = info.get("outcome")
    return phi0, rewards, terms, outcome


@pytest.mark.parametrize("agent_name", [None, "heuristic"])
@pytest.mark.parametrize("gamma", [0.99, 1.0, 0.9])
def test_shaping_telescopes_single_env(agent_name, gamma):
    agent = None if agent_name is None else make_agent(agent_name, seed=1)
    env = MaquisEnv(shaping={"gamma": gamma}, reward={"loss": -1.0})
    plain = MaquisEnv()
    for seed in range(4):
        phi0, rewards, terms, outcome = _play(env, agent, seed)
        assert phi0 > 0
        disc = gamma ** np.arange(len(terms))
        assert np.dot(disc, terms) == pytest.approx(-phi0, abs=1e-9)
        # reward = outcome reward (last step only) + shaping term
        outcome_r = np.zeros(len(rewards))
        outcome_r[-1] = env.unwrapped._core.reward[outcome]
        assert np.allclose(np.array(rewards) - np.array(terms), outcome_r, atol=1e-12)
        # the same game without shaping: the outcome rewards exactly, no "shaping" info
        _, plain_rewards, plain_terms, plain_outcome = _play(plain, agent, seed)
        assert plain_outcome == outcome and plain_rewards == list(outcome_r)
        assert plain_terms == [None] * len(plain_terms)
        assert env.potential() == 0.0  # phi = 0 at the end


def test_shaping_off_is_todays_rewards_exactly():
    for off in (None, False):
        a, b = MaquisEnv(shaping=off), MaquisEnv()
        for env in (a, b):
            env.reset(seed=5)
        done = False
        while not done:
            act = a.sample_action()
            assert b.sample_action() == act
            ra, rb = a.step(act), b.step(act)
            assert ra[1] == rb[1] and "shaping" not in ra[4]
            done = ra[2]
        assert a.potential() is None


def test_shaping_weights_change_the_potential():
    only_missions = MaquisEnv(shaping={"weights": {"hand": 0, "morale": 0, "workers": 0}})
    only_missions.reset(seed=0)
    assert only_missions.potential() == 0.0  # no box done yet
    morale = MaquisEnv(shaping={"weights": {"missions": 0, "hand": 0, "morale": 1, "workers": 0}})
    morale.reset(seed=0)
    assert morale.potential() == pytest.approx(morale.state_dict()["morale"] / 7)


def test_shaping_telescopes_vector_env_and_matches_single_env():
    gamma, n = 0.97, 6
    vec = MaquisVectorEnv(n, num_threads=2, shaping={"gamma": gamma})
    obs, infos = vec.reset(seed=10)
    singles = [MaquisEnv(shaping={"gamma": gamma}) for _ in range(n)]
    phi0 = []
    for i, e in enumerate(singles):
        e.reset(seed=maquis.sub_env_seed(10, i))
        phi0.append(e.potential())
    sums = np.zeros(n)
    t = np.zeros(n, dtype=int)
    finished = np.zeros(n, dtype=bool)
    while not finished.all():
        actions = vec.sample_actions()
        _, rewards, term, _, infos = vec.step(actions)
        shaping = vec.shaping_rewards()
        for i in np.flatnonzero(~finished):
            _, r, d, _, info = singles[i].step(int(actions[i]))
            assert rewards[i] == pytest.approx(r, abs=1e-5)
            assert shaping[i] == pytest.approx(info["shaping"], abs=1e-5)
            sums[i] += gamma ** t[i] * shaping[i]
            t[i] += 1
            finished[i] |= d
    assert np.allclose(sums, -np.array(phi0), atol=1e-4)


def test_vector_shaping_off_is_todays_rewards_exactly():
    a, b = MaquisVectorEnv(8, shaping=False), MaquisVectorEnv(8)
    a.reset(seed=1), b.reset(seed=1)
    for _ in range(300):
        act = a.sample_actions()
        ra, rb = a.step(act), b.step(act)
        assert np.array_equal(ra[1], rb[1])
        assert not a.shaping_rewards().any()
    assert a.shaping is None


@pytest.mark.parametrize(
    "bad, match",
    [
        (1, "shaping must be None, False, True or a dict"),
        ("on", "shaping must be None, False, True or a dict"),
        ({"gamma": 0}, "gamma must be a number in"),
        ({"gamma": 1.5}, "gamma must be a number in"),
        ({"gamma": "x"}, "gamma must be a number in"),
        ({"weights": {"luck": 1}}, "unknown potential term 'luck'"),
        ({"weights": {"hand": float("nan")}}, "weight of 'hand' must be a finite number"),
        ({"weights": [1, 2]}, "weights must be a dict"),
        ({"discount": 0.9}, "unknown key"),
    ],
)
def test_bad_shaping_raises_value_error(bad, match):
    with pytest.raises(ValueError, match=match):
        MaquisEnv(shaping=bad)
    with pytest.raises(ValueError, match=match):
        MaquisVectorEnv(2, shaping=bad)


def test_shaping_through_gym_make_and_pickle():
    import pickle

    env = gym.make("maquis/Maquis-v0", shaping=True)
    env.reset(seed=0)
    _, _, _, _, info = env.step(env.unwrapped.sample_action())
    assert "shaping" in info
    copy = pickle.loads(pickle.dumps(env.unwrapped))
    assert copy.potential() == env.unwrapped.potential()
    vec = gym.make_vec("maquis/Maquis-v0", num_envs=2, vectorization_mode="vector_entry_point", shaping=True)
    assert vec.unwrapped.shaping["gamma"] == maquis.maquis.shaping.DEFAULT_GAMMA

"""Maurice Lite's `shaping` keyword (maquis.maurice.shaping): its terms are the ground covered
and the morale margin from the learner's side, the shaping telescopes over an episode, the vector
env shapes as the single env does, and what it cannot do is refused."""

import numpy as np
import pytest

import maquis
from maquis.maurice import MauriceEnv, MauriceVectorEnv
from maquis.maurice.agents import HeuristicAgent
from maquis.maurice.shaping import POTENTIAL_TERMS


def _morale_margin(env):
    m = env.state_dict()["morale"]
    me, them = env.side, "red" if env.side == "blue" else "blue"
    return m[me]["left"] / m[me]["start"] - m[them]["left"] / m[them]["start"]


def _play(env, agent, seed, side="blue", check=None):
    """One episode from `seed` as `side`: phi(s_0), the rewards and the shaping terms."""
    obs, info = env.reset(seed=seed, options={"side": side})
    phi0 = env.potential()
    rewards, terms, done = [], [], False
    while not done:
        a = env.unwrapped._core.sample_action() if agent is None else agent.act(obs, info["action_mask"])
        obs, r, done, _, info = env.step(a)
        rewards.append(r)
        terms.append(info["shaping"])
        if check is not None and not done:
            check(env)
    return phi0, np.array(rewards), np.array(terms), info["outcome"]


@pytest.mark.parametrize("side", ["blue", "red"])
def test_morale_term_is_the_learners_morale_margin(side):
    env = MauriceEnv(opponent="heuristic", scenario="skirmish", shaping={"weights": {"advance": 0.0, "wear": 0.0}})
    seen = []

    def check(e):
        assert e.potential() == pytest.approx(_morale_margin(e), abs=1e-12)
        seen.append(e.potential())

    _play(env, HeuristicAgent(seed=1), 2, side, check)
    assert min(seen) != max(seen), "the morale margin moved during the game"


def _wear(units):
    broken_at = {"inf": 5, "cav": 5, "art": 2}  # S1
    return sum(u["disr"] / broken_at[u["type"]] if u["on_table"] else 1.0 for u in units) / len(units)


@pytest.mark.parametrize("side", ["blue", "red"])
def test_wear_term_is_the_enemys_wear_less_the_learners(side):
    env = MauriceEnv(opponent="heuristic", scenario="skirmish", shaping={"weights": {"advance": 0.0, "morale": 0.0}})
    seen = []

    def check(e):
        units = e.state_dict()["units"]
        them = "red" if e.side == "blue" else "blue"
        assert e.potential() == pytest.approx(0.5 * (_wear(units[them]) - _wear(units[e.side])), abs=1e-12)
        seen.append(e.potential())

    _play(env, HeuristicAgent(seed=1), 5, side, check)
    assert min(seen) != max(seen), "hits were taken during the game"


def test_advance_term_grows_as_the_army_closes_on_an_enemy_that_stays_home():
    # The heuristic walks towards a random enemy, which mostly stays in its deployment rows.
    env = MauriceEnv(opponent="random", shaping={"weights": {"morale": 0.0, "wear": 0.0}})
    obs, info = env.reset(seed=4)
    start = env.potential()
    assert 0.0 <= start < 1.0
    agent = HeuristicAgent(seed=1)
    best = start
    for _ in range(150):
        obs, _, done, _, info = env.step(agent.act(obs, info["action_mask"]))
        if done:
            break
        assert 0.0 <= env.potential() <= 1.0
        best = max(best, env.potential())
    assert best > start + 0.08


def _play_plain(env, seed, side):
    env.reset(seed=seed, options={"side": side})
    rewards, done, info = [], False, {}
    while not done:
        _, r, done, _, info = env.step(env.unwrapped._core.sample_action())
        rewards.append(r)
    return None, np.array(rewards), None, info["outcome"]


@pytest.mark.parametrize("gamma", [0.99, 1.0])
def test_shaping_telescopes_and_adds_to_the_outcome_reward(gamma):
    env = MauriceEnv(opponent="random", scenario="skirmish", shaping={"gamma": gamma})
    plain = MauriceEnv(opponent="random", scenario="skirmish")
    for seed, side in ((0, "blue"), (1, "red")):
        phi0, rewards, terms, outcome = _play(env, None, seed, side)
        disc = gamma ** np.arange(len(terms))
        assert np.dot(disc, terms) == pytest.approx(-phi0, abs=1e-9)
        assert env.potential() == 0.0
        outcome_r = np.zeros(len(rewards))
        outcome_r[-1] = {"win": 1.0, "draw": 0.0, "loss": -1.0}[outcome]
        assert np.allclose(rewards - terms, outcome_r, atol=1e-12)
        # The same game unshaped: the outcome rewards exactly.
        _, plain_rewards, _, plain_outcome = _play_plain(plain, seed, side)
        assert plain_outcome == outcome and np.array_equal(plain_rewards, outcome_r)


def test_shaping_off_leaves_the_rewards_and_infos_as_they_were():
    a, b = MauriceEnv(opponent="random", scenario="skirmish", shaping=False), MauriceEnv(opponent="random", scenario="skirmish")
    for e in (a, b):
        e.reset(seed=3)
    done = False
    while not done:
        act = a.unwrapped._core.sample_action()
        assert b.unwrapped._core.sample_action() == act
        ra, rb = a.step(act), b.step(act)
        assert ra[1] == rb[1] and "shaping" not in ra[4]
        done = ra[2]
    assert a.potential() is None


def test_vector_env_shapes_each_environment_as_the_single_env():
    shaping = {"gamma": 0.97, "weights": {"advance": 2.0}}
    vec = MauriceVectorEnv(3, opponent="random", scenario="skirmish", shaping=shaping, observation="compact")
    assert vec.shaping == {"gamma": 0.97, "weights": {**POTENTIAL_TERMS, "advance": 2.0}}
    vec.reset(seed=9)
    singles = [MauriceEnv(opponent="random", scenario="skirmish", shaping=shaping) for _ in range(3)]
    for i, e in enumerate(singles):
        e.reset(seed=maquis.sub_env_seed(9, i))
    for _ in range(60):
        actions = vec.sample_actions()
        _, rew, term, _, _ = vec.step(actions)
        for i, e in enumerate(singles):
            if e.unwrapped._core.done:
                continue
            _, r, _, _, _ = e.step(int(actions[i]))
            assert rew[i] == pytest.approx(r, abs=1e-6)
    vec.close()


@pytest.mark.parametrize("shaping, match", [
    ({"weights": {"missions": 1.0}}, "unknown potential term 'missions'.*advance, morale, wear"),
    ({"gamma": 0.0}, "gamma must be a number in"),
    ({"weights": {"advance": float("nan")}}, "weight of 'advance' must be a finite number"),
    ("yes", "shaping must be None, False, True or a dict"),
])
def test_bad_shaping_values_are_refused(shaping, match):
    with pytest.raises(ValueError, match=match):
        MauriceEnv(shaping=shaping)
    with pytest.raises(ValueError, match=match):
        MauriceVectorEnv(2, shaping=shaping)


def test_shaping_is_refused_with_an_object_opponent():
    class First:
        def act(self, obs, mask):
            return int(np.flatnonzero(mask)[0])

    with pytest.raises(ValueError, match="shaping needs a bundled opponent"):
        MauriceEnv(opponent=First(), shaping=True)
    env = MauriceEnv(opponent="random", shaping=True)
    env.reset(seed=1)
    before = env.state_dict()
    with pytest.raises(ValueError, match="shaping needs a bundled opponent"):
        env.reset(seed=2, options={"opponent": First()})
    assert env.state_dict() == before


def test_a_game_without_potential_terms_has_no_shaping():
    from maquis.dday import DDayEnv

    with pytest.raises(TypeError, match="shaping"):
        DDayEnv(shaping=True)
    with pytest.raises(maquis.MaquisError, match="no shaping potential"):
        DDayEnv().unwrapped._core.set_shaping("{}")

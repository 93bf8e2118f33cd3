"""Start-state curricula of the vector env: pool states are used, deterministically for any thread
count, probability 0 is no curriculum, hidden information is redrawn, bad states are refused."""

import json

import numpy as np
import pytest

from maquis import MaquisEnv, MaquisError, MaquisVectorEnv
from maquis.maquis.curriculum import record_states


@pytest.fixture(scope="module")
def pool():
    return record_states(agent="heuristic", episodes=3, every=7, min_decision=20, seed=3)


def _trajectory(vec, steps, seed=0):
    obs, _ = vec.reset(seed=seed)
    out = [obs.copy()]
    for _ in range(steps):
        obs, r, term, _, _ = vec.step(vec.sample_actions())
        out.append(np.concatenate([obs.ravel(), r, term]))
    return out


def test_record_states_are_games_in_progress(pool):
    assert len(pool) > 10
    env = MaquisEnv()
    for st in pool:
        env.load_state(st)
        assert not env.done
    assert record_states(agent="heuristic", episodes=3, every=7, min_decision=20, seed=3) == pool
    with pytest.raises(ValueError, match="every"):
        record_states(every=0)
    with pytest.raises(ValueError, match="unknown agent"):
        record_states(agent="oracle")


def test_pool_states_are_used_and_hidden_order_redrawn(pool):
    vec = MaquisVectorEnv(16, num_threads=1)
    vec.set_start_states(pool[:1], probability=1.0)
    obs, _ = vec.reset(seed=0)
    saved = json.loads(pool[0])["state"]
    ref = MaquisEnv()
    ref.load_state(pool[0])
    decks = set()
    for i in range(16):
        d = vec.state_dict(i)
        # what the player sees is the saved game's: same observation
        assert np.array_equal(obs[i], ref._core.observation())
        assert d["day"] == saved["day"] and d["phase"] == ref.state_dict()["phase"]
        decks.add(tuple(d["patrol_deck"]))
        assert sorted(d["patrol_deck"]) == sorted(ref.state_dict()["patrol_deck"])
    # the hidden order is redrawn per episode, not the saved game's future
    assert len(decks) > 1 or len(ref.state_dict()["patrol_deck"]) <= 1
    assert vec.start_states == (1, 1.0)


def test_curriculum_is_deterministic_for_any_thread_count(pool):
    runs = []
    for threads in (1, 2):
        vec = MaquisVectorEnv(8, num_threads=threads)
        vec.set_start_states(pool, weights=[1.0 + i for i in range(len(pool))], probability=0.5)
        runs.append(_trajectory(vec, 400, seed=4))
    assert all(np.array_equal(a, b) for a, b in zip(*runs))


def test_probability_zero_is_no_curriculum(pool):
    plain = MaquisVectorEnv(8, num_threads=2)
    zero = MaquisVectorEnv(8, num_threads=2)
    zero.set_start_states(pool, probability=0.0)
    a, b = _trajectory(plain, 400, seed=9), _trajectory(zero, 400, seed=9)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    # and some probability does change the episodes; annealing back to 0 stops it
    some = MaquisVectorEnv(8, num_threads=2)
    some.set_start_states(pool, probability=1.0)
    c = _trajectory(some, 10, seed=9)
    assert not np.array_equal(a[0], c[0])
    some.set_start_probability(0.0)
    some.set_start_states(None)
    assert some.start_states is None


def test_autoreset_draws_from_pool(pool):
    vec = MaquisVectorEnv(4, num_threads=1)
    vec.reset(seed=0)
    vec.set_start_states(pool, probability=1.0)
    days = []
    for _ in range(3000):
        _, _, term, _, _ = vec.step(vec.sample_actions())
        if term.any():
            break
    i = int(np.flatnonzero(term)[0])
    vec.step(vec.sample_actions())  # next-step autoreset of env i: from the pool
    days.append(vec.state_dict(i)["day"])
    assert days[0] in {json.loads(s)["state"]["day"] for s in pool}


def test_bad_start_states_name_the_index(pool):
    vec = MaquisVectorEnv(2)
    with pytest.raises(MaquisError, match="state 1"):
        vec.set_start_states([pool[0], "{not json"])
    env = MaquisEnv()
    env.reset(seed=0)
    while not env.done:
        env.step(env.sample_action())
    with pytest.raises(MaquisError, match="state 2 is a finished game"):
        vec.set_start_states([pool[0], pool[1], env.save_state()])
    with pytest.raises(MaquisError, match="probability"):
        vec.set_start_states(pool, probability=1.5)
    with pytest.raises(MaquisError, match="2 weights for"):
        vec.set_start_states(pool, weights=[1, 2])
    with pytest.raises(MaquisError, match="weight 0"):
        vec.set_start_states(pool, weights=[-1.0] + [1.0] * (len(pool) - 1))
    with pytest.raises(MaquisError, match="empty"):
        vec.set_start_states([])
    with pytest.raises(MaquisError, match="no pool"):
        vec.set_start_probability(0.5)
    with pytest.raises(TypeError):
        vec.set_start_states("abc")
    assert vec.start_states is None  # nothing changed


@pytest.mark.parametrize("threads", [1, 2])
def test_uint8_shaping_and_start_states_together_match_float32(pool, threads):
    # The three keywords act on different parts of the step: together, the uint8 run is the float32
    # run's observations in bytes, with the same shaped rewards and the same pool starts.
    from maquis import observation_float32

    def run(dtype):
        vec = MaquisVectorEnv(16, num_threads=threads, observation_dtype=dtype, shaping=True)
        vec.set_start_states(pool, probability=0.5)
        obs, _ = vec.reset(seed=11)
        rows, rewards = [obs.copy()], []
        rng = np.random.default_rng(0)
        for _ in range(300):
            masks = vec.action_masks()
            acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
            obs, r, *_ = vec.step(acts)
            rows.append(obs.copy())
            rewards.append(r.copy())
        vec.close()
        return np.stack(rows), np.stack(rewards)

    f_obs, f_rew = run("float32")
    b_obs, b_rew = run("uint8")
    assert b_obs.dtype == np.uint8 and f_obs.dtype == np.float32
    np.testing.assert_array_equal(observation_float32(b_obs), f_obs)
    np.testing.assert_array_equal(b_rew, f_rew)
    # shaping is on: some rewards are neither 0 nor an outcome reward
    assert np.any((f_rew != 0) & (np.abs(f_rew) != 1))

"""observation_dtype="uint8": the compact observation, exact, in the single and the vector env
(D-Day's and Maurice Lite's vector envs too), its spaces, and agents and policies that take either type."""

import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import maquis
from maquis import OBS_SIZE, OBSERVATION_DIVISOR, OBSERVATION_SCALE, observation_float32
from maquis.maquis.agents import make_agent
from maquis.dday import DDayVectorEnv
from maquis.maurice import MauriceVectorEnv
from maquis.maquis.policy import load_policy, save_policy

_dday = maquis._core.dday


def dday_float32(obs):
    """D-Day uint8 observations as float32: each count divided by its feature's divisor."""
    return obs.astype(np.float32) / maquis.dday.OBSERVATION_DIVISOR.astype(np.float32)


#: Per game: the vector env, its float32 conversion, its observation size, and the keywords and
#: steps of a test batch (Maurice Lite's rows are 21,334 values: fewer, quicker games).
VECTORS = {
    "maquis": (maquis.MaquisVectorEnv, observation_float32, OBS_SIZE, {"num_envs": 16}, 1500),
    "dday": (DDayVectorEnv, dday_float32, _dday.OBSERVATION_SIZE, {"num_envs": 16}, 1500),
    "maurice": (MauriceVectorEnv, maquis.maurice.observation_float32, maquis.maurice.OBSERVATION_SIZE,
                {"num_envs": 4, "opponent": "random"}, 400),
}
EVERY_GAME = pytest.mark.parametrize("game", ["maquis", "dday", "maurice"])


def same_bits(a, b):
    return np.array_equal(np.asarray(a, np.float32).view(np.uint32), np.asarray(b, np.float32).view(np.uint32))


def test_uint8_times_scale_is_the_float32_observation_in_long_playouts():
    steps = 0
    for difficulty, pool in (("normal", "second_edition"), ("very_hard", "pnp_2013"), ("very_easy", "first_edition")):
        f = maquis.MaquisEnv(difficulty=difficulty, mission_pool=pool)
        u = maquis.MaquisEnv(difficulty=difficulty, mission_pool=pool, observation_dtype="uint8")
        for seed in range(100):
            of, _ = f.reset(seed=seed)
            ou, _ = u.reset(seed=seed)
            done = False
            while True:
                assert ou.dtype == np.uint8 and of.dtype == np.float32
                assert same_bits(observation_float32(ou), of)
                shares = OBSERVATION_DIVISOR == 0
                np.testing.assert_allclose((ou * OBSERVATION_SCALE)[~shares], of[~shares], rtol=1e-6)
                assert u.observation_space.contains(ou) and f.observation_space.contains(of)
                if done:
                    break
                a = f.sample_action()
                assert u.sample_action() == a
                of, _, done, _, _ = f.step(a)
                ou, _, done_u, _, _ = u.step(a)
                assert done_u == done
                steps += 1
    assert steps > 3000


@EVERY_GAME
@pytest.mark.parametrize("mode", ["next_step", "same_step"])
@pytest.mark.parametrize("copy", [True, False])
def test_vector_uint8_matches_float32(mode, copy, game):
    vector, to_float32, size, game_kw, steps = VECTORS[game]
    kw = dict(num_threads=2, autoreset_mode=mode, copy=copy, **game_kw)
    n = kw["num_envs"]
    f = vector(**kw)
    u = vector(**kw, observation_dtype="uint8")
    of, _ = f.reset(seed=3)
    ou, _ = u.reset(seed=3)
    ended = 0
    for _ in range(steps):
        assert ou.dtype == np.uint8 and ou.shape == (n, size)
        assert same_bits(to_float32(ou), of)
        assert u.observation_space.contains(ou)
        a = f.sample_actions()
        of, rf, tf, _, inf = f.step(a)
        ou, ru, tu, _, inu = u.step(a)
        assert np.array_equal(tf, tu) and np.array_equal(rf, ru)
        np.testing.assert_array_equal(inf["action_mask"], inu["action_mask"])
        if mode == "same_step" and tf.any():
            for i in np.flatnonzero(tf):
                assert inu["final_obs"][i].dtype == np.uint8
                assert same_bits(to_float32(inu["final_obs"][i]), inf["final_obs"][i])
        ended += int(tf.sum())
    assert ended > 30 * n // 16


def test_spaces_and_check_env():
    env = maquis.MaquisEnv(observation_dtype="uint8")
    space = env.observation_space
    assert space.dtype == np.uint8 and space.shape == (OBS_SIZE,)
    assert space.low.min() == 0 and space.high.max() == 10  # 10 cards in the deck
    check_env(env, skip_render_check=True)
    vec = gym.make_vec("maquis/Maquis-v0", num_envs=3, observation_dtype="uint8")
    assert vec.single_observation_space == space
    assert vec.observation_space.shape == (3, OBS_SIZE) and vec.observation_space.dtype == np.uint8
    assert gym.make("maquis/Maquis-v0", observation_dtype="uint8").observation_space == space
    # The default is unchanged.
    assert maquis.MaquisEnv().observation_space == gym.spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)


def test_dday_vector_spaces():
    size = _dday.OBSERVATION_SIZE
    vec = gym.make_vec("maquis/DDay1944-v0", num_envs=3, observation_dtype="uint8", opponent="random")
    space = vec.single_observation_space
    assert space.dtype == np.uint8 and space.shape == (size,) and space.low.min() == 0
    np.testing.assert_array_equal(space.high, maquis.dday.OBSERVATION_DIVISOR)
    assert vec.observation_space.shape == (3, size) and vec.observation_space.dtype == np.uint8
    obs, _ = vec.reset(seed=0)
    for _ in range(200):
        assert obs in vec.observation_space
        obs, *_ = vec.step(vec.sample_actions())
    # The default is unchanged.
    assert DDayVectorEnv(2).single_observation_space == gym.spaces.Box(0.0, 1.0, (size,), np.float32)


@pytest.mark.parametrize("side", ["resistance", "german"])
def test_dday_single_env_uint8_is_the_float32_observation(side):
    """DDayEnv(observation_dtype="uint8") plays the same game as the float32 env, its rows the
    same values as counts, and its vector env's single space."""
    a = maquis.dday.DDayEnv(side=side, opponent="random", observation_dtype="uint8")
    b = maquis.dday.DDayEnv(side=side, opponent="random")
    space = a.observation_space
    assert space.dtype == np.uint8 and space == DDayVectorEnv(1, observation_dtype="uint8").single_observation_space
    check_env(a, skip_render_check=True)
    for seed in range(3):
        (oa, _), (ob, _) = a.reset(seed=seed), b.reset(seed=seed)
        done = False
        while not done:
            assert oa in space and same_bits(dday_float32(oa), ob)
            act = a.sample_action()
            oa, ra, done, _, _ = a.step(act)
            ob, rb, done_b, _, _ = b.step(act)
            assert (ra, done) == (rb, done_b)
        assert same_bits(dday_float32(oa), ob)
    with pytest.raises(ValueError, match="observation_dtype"):
        maquis.dday.DDayEnv(observation_dtype="float16")


def test_scale_per_slice_beside_the_layout():
    layout = {name: (off, n) for name, off, n in maquis.OBSERVATION_LAYOUT}
    def scale(name):
        off, n = layout[name]
        return set(OBSERVATION_SCALE[off:off + n].tolist())
    assert scale("phase") == {1.0}
    assert scale("hand") == {np.float32(0.25)}
    assert scale("workers") == {np.float32(0.2)}
    assert scale("deck_size") == {np.float32(0.1)}
    off, _ = layout["mission_a_state"]
    assert OBSERVATION_DIVISOR[off] == 0 and OBSERVATION_DIVISOR[off + 1] == 7


def test_bad_uint8_rows_are_refused():
    with pytest.raises(ValueError, match="416"):
        observation_float32(np.zeros(5, np.uint8))


def test_unknown_dtype_is_a_value_error():
    for bad in ("float64", "int8", "", None, 3):
        with pytest.raises(ValueError, match="observation_dtype"):
            maquis.MaquisEnv(observation_dtype=bad)
        with pytest.raises(ValueError, match="observation_dtype"):
            maquis.MaquisVectorEnv(2, observation_dtype=bad)
        with pytest.raises(ValueError, match="observation_dtype"):
            DDayVectorEnv(2, observation_dtype=bad)
        with pytest.raises(ValueError, match="observation_dtype"):
            MauriceVectorEnv(2, observation_dtype=bad)
    with pytest.raises(ValueError, match="observation_dtype"):
        maquis._core.maquis.Env().observation_dtype = "float16"
    # numpy spellings of the two types are accepted.
    assert maquis.MaquisEnv(observation_dtype=np.uint8).observation_dtype == "uint8"


def test_clone_and_pickle_keep_the_dtype():
    env = maquis.MaquisEnv(observation_dtype="uint8")
    env.reset(seed=1)
    for other in (env.clone(), pickle.loads(pickle.dumps(env))):
        assert other.observation_dtype == "uint8"
        o, *_ = other.step(other.sample_action())
        assert o.dtype == np.uint8


@pytest.mark.parametrize("name", ["random", "heuristic", "network"])
def test_agents_act_the_same_on_uint8(name):
    vf = maquis.MaquisVectorEnv(8, copy=False)
    vu = maquis.MaquisVectorEnv(8, copy=False, observation_dtype="uint8")
    of, _ = vf.reset(seed=5)
    ou, _ = vu.reset(seed=5)
    af, au = make_agent(name, seed=2), make_agent(name, seed=2)
    live = np.ones(8, bool)  # False for an episode that just ended: its next step is the autoreset
    for _ in range(60):
        masks = vf.action_masks()
        a = np.zeros(8, np.int64)
        a[live] = af.act_batch(of[live], masks[live])
        assert np.array_equal(au.act_batch(ou[live], masks[live]), a[live])
        i = int(np.flatnonzero(live)[0])
        assert af.act(of[i], masks[i]) == au.act(ou[i], masks[i])
        of, _, term, trunc, _ = vf.step(a)
        ou, *_ = vu.step(a)
        live = ~(term | trunc)


def test_policy_files_and_evaluate_take_uint8(tmp_path):
    rng = np.random.default_rng(0)
    weights = [rng.normal(size=(OBS_SIZE, 32)).astype(np.float32), rng.normal(size=(32, maquis.NUM_ACTIONS)).astype(np.float32)]
    biases = [np.zeros(32, np.float32), np.zeros(maquis.NUM_ACTIONS, np.float32)]
    path = tmp_path / "p.npz"
    save_policy(path, weights, biases, "tanh", {})
    policy = load_policy(path)
    vf = maquis.MaquisVectorEnv(8)
    vu = maquis.MaquisVectorEnv(8, observation_dtype="uint8")
    of, _ = vf.reset(seed=7)
    ou, _ = vu.reset(seed=7)
    masks = vf.action_masks()
    assert np.array_equal(policy(of, masks), policy(ou, masks))
    np.testing.assert_array_equal(policy.logits(of), policy.logits(ou))
    a = maquis.evaluate(str(path), "normal", episodes=16, seed=1)
    b = maquis.evaluate(str(path), "normal", episodes=16, seed=1, observation_dtype="uint8")
    assert a.rows == b.rows

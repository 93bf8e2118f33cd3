"""The bindings every game shares (src/py/common/): uint8 rows, `step_copy`, the refusal of another
game's save and `save_game`, checked on each game's `maquis._core` classes."""

import pickle

import numpy as np
import pytest

import maquis._core as core

#: Per game: its binding module, the keywords of a quick environment, its title in messages and
#: the module that loads its saves.
GAMES = {
    "maquis": (core.maquis, {}, "Maquis", "load it with maquis ("),
    "dday": (core.dday, {"opponent": "random"}, "D-Day 1944", "load it with maquis.dday ("),
    "maurice": (core.maurice, {"opponent": "random"}, "Maurice Lite", "load it with maquis.maurice ("),
}
EVERY_GAME = pytest.mark.parametrize("game", list(GAMES))
#: Per game: the batch steps and the single-env games of the uint8 tests (Maurice Lite's rows are
#: 21,334 values: fewer).
CHECKED = {"maquis": (300, 3), "dday": (300, 3), "maurice": (160, 1)}


def module(game):
    return GAMES[game][0]


def vec(game, n=8, mode="next_step", dtype="float32", **kw):
    e = module(game).VecEngine(n, 2, mode, **GAMES[game][1], **kw)
    e.observation_dtype = dtype
    return e


def env(game, dtype="float32"):
    e = module(game).Env(**GAMES[game][1])
    e.observation_dtype = dtype
    return e


def divisor(game):
    return np.array(module(game).OBSERVATION_DIVISOR)


def assert_bytes_match(game, u8, f32):
    """The uint8 values are the float32 ones times their divisor (shares, divisor 0, aside)."""
    assert u8.dtype == np.uint8 and f32.dtype == np.float32 and u8.shape == f32.shape
    d = divisor(game)
    counted = d > 0
    np.testing.assert_array_equal(np.round(f32 * d)[..., counted], u8[..., counted])
    np.testing.assert_array_equal((u8.astype(np.float32) / np.where(counted, d, 1).astype(np.float32))[..., counted],
                                  f32[..., counted])


@EVERY_GAME
def test_divisors_cover_the_observation(game):
    d = divisor(game)
    size = core.maquis.OBS_SIZE if game == "maquis" else module(game).OBSERVATION_SIZE
    assert d.shape == (size,) and d.max() <= 255


@EVERY_GAME
@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_vector_uint8_rows_are_the_float32_rows_times_their_divisor(game, mode):
    f, u = vec(game, mode=mode), vec(game, mode=mode, dtype="uint8")
    assert (f.observation_dtype, u.observation_dtype) == ("float32", "uint8")
    seeds = list(range(100, 108))
    f.reset(seeds=seeds)
    u.reset(seeds=seeds)
    ended = 0
    for _ in range(CHECKED[game][0]):
        assert_bytes_match(game, u.observations, f.observations)
        a = f.sample_actions()
        np.testing.assert_array_equal(u.sample_actions(), a)
        assert f.step(a) == u.step(a)
        for name in ("masks", "rewards", "terminated", "outcomes", "illegal"):
            np.testing.assert_array_equal(getattr(u, name), getattr(f, name))
        if mode == "same_step" and f.terminated.any():
            t = f.terminated
            assert_bytes_match(game, u.final_observations[t], f.final_observations[t])
        ended += int(f.terminated.sum())
    assert ended > 0


@EVERY_GAME
def test_single_env_uint8_observations(game):
    f, u = env(game), env(game, "uint8")
    for seed in range(CHECKED[game][1]):
        of, mf = f.reset(seed)
        ou, mu = u.reset(seed)
        np.testing.assert_array_equal(mf, mu)
        while True:
            assert_bytes_match(game, ou, of)
            assert_bytes_match(game, u.observation(), f.observation())
            if f.done:
                break
            a = f.sample_action()
            assert u.sample_action() == a
            of, *rest_f = f.step(a)
            ou, *rest_u = u.step(a)
            assert [np.asarray(x).tolist() for x in rest_f] == [np.asarray(x).tolist() for x in rest_u]


@EVERY_GAME
def test_a_bad_observation_dtype_is_a_value_error(game):
    for obj in (vec(game), env(game)):
        with pytest.raises(ValueError, match="observation_dtype"):
            obj.observation_dtype = "float64"


@EVERY_GAME
@pytest.mark.parametrize("dtype", ["float32", "uint8"])
@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_step_copy_is_step_then_copy(game, dtype, mode):
    a_eng, b_eng = vec(game, mode=mode, dtype=dtype), vec(game, mode=mode, dtype=dtype)
    a_eng.reset(seeds=list(range(8)))
    b_eng.reset(seeds=list(range(8)))
    for _ in range(200):
        actions = a_eng.sample_actions()
        np.testing.assert_array_equal(b_eng.sample_actions(), actions)
        obs, masks, ended, illegal = a_eng.step_copy(actions)
        assert b_eng.step(actions) == (ended, illegal)
        want_obs, want_masks = b_eng.observations.copy(), b_eng.masks.copy()
        assert obs.dtype == want_obs.dtype and masks.dtype == np.bool_
        np.testing.assert_array_equal(obs, want_obs)
        np.testing.assert_array_equal(masks, want_masks)
        np.testing.assert_array_equal(obs, a_eng.observations)
        # Copies: the next step does not change them.
        assert not np.shares_memory(obs, a_eng.observations)
        for name in ("rewards", "terminated", "outcomes", "illegal"):
            np.testing.assert_array_equal(getattr(a_eng, name), getattr(b_eng, name))
        assert list(a_eng.outcome_info) == list(b_eng.outcome_info)


def saves(game):
    """Every kind of save of `game`: a single env's, a batch env's, a pickle (and a two-player
    game's own)."""
    e = env(game)
    e.reset(1)
    v = vec(game, n=2)
    v.reset(seeds=[1, 2])
    out = [e.save_state(), v.save_state(1), e.__getstate__()]
    if game != "maquis":
        g = module(game).Game()
        g.reset(3)
        out.append(g.save_state())
    return out


@EVERY_GAME
def test_save_game_names_the_game(game):
    for save in saves(game):
        assert core.save_game(save) == game
    for junk in ("", "not json", "[]", "{}", '{"format": "chess"}', '{"format": 3}'):
        assert core.save_game(junk) is None


@pytest.mark.parametrize(("game", "other"), [("maquis", "dday"), ("dday", "maquis"), ("maurice", "dday"),
                                             ("dday", "maurice"), ("maquis", "maurice")])
def test_another_games_save_is_refused_naming_its_game(game, other):
    _, _, title, where = GAMES[other]
    for save in saves(other):
        e, v = env(game), vec(game, n=2)
        e.reset(0)
        v.reset(seeds=[0, 1])
        before, before_v = e.save_state(), v.save_state(0)
        for load in (e.load_state, lambda s: v.load_state(0, s), e.__setstate__):
            with pytest.raises(core.MaquisError, match=f"this is a {title} save") as info:
                load(save)
            assert where in str(info.value)
        assert (e.save_state(), v.save_state(0)) == (before, before_v)
    if game == "maquis":
        with pytest.raises(core.MaquisError, match=f"state 0: .*this is a {title} save"):
            vec(game).set_start_states([saves(other)[0]])


@EVERY_GAME
def test_own_saves_still_load(game):
    e = env(game)
    e.reset(5)
    for _ in range(3):
        e.step(e.sample_action())
    save = e.save_state()
    f = env(game)
    f.load_state(save)
    assert f.save_state() == save
    g = pickle.loads(pickle.dumps(e))
    assert g.save_state() == save
    v = vec(game, n=2)
    v.reset(seeds=[0, 1])
    v.load_state(1, save)
    assert v.save_state(1) == save


def test_dday_refuses_shaping_and_start_states_by_name():
    v = vec("dday")
    with pytest.raises(core.MaquisError, match="D-Day 1944 has no shaping potential"):
        v.set_shaping("{}")
    v.set_shaping(None)
    assert v.shaping is None
    e = env("dday")
    e.reset(0)
    with pytest.raises(core.MaquisError, match="D-Day 1944 has no start-state curricula"):
        v.set_start_states([e.save_state()])
    v.set_start_states(None)
    assert v.start_states is None
    with pytest.raises(core.MaquisError, match="no pool"):
        v.set_start_probability(0.5)


@EVERY_GAME
def test_repr_names_the_class(game):
    prefix = "" if game == "maquis" else f"{game}."
    assert repr(vec(game, n=3)).startswith(f"{prefix}VecEngine(num_envs=3, num_threads=2")

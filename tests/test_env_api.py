"""The single-environment contract of API.md: MaquisEnv, its spaces, seeding, masks, errors, state
round trips and pickling."""

from __future__ import annotations

import copy
import json
import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import maquis
from maquis import MaquisEnv

from maquis.maquis.tables import DIFFICULTIES

N = maquis.NUM_ACTIONS
D = maquis.OBS_SIZE


def illegal(e: MaquisEnv) -> int:
    legal = set(e.legal_actions())
    return next(a for a in range(N) if a not in legal)


def advance(e: MaquisEnv, steps: int) -> None:
    """A few random steps into a game that is still going on afterwards."""
    for _ in range(steps):
        e.step(e.sample_action())
    assert not e.done


def rollout(e: MaquisEnv, steps: int) -> list[tuple]:
    """`steps` steps of sample_action() play (resetting without a seed after each episode)."""
    out = []
    for _ in range(steps):
        if e.done:
            obs, info = e.reset()
            out.append(("reset", obs.tobytes(), info["action_mask"].tobytes()))
            continue
        a = e.sample_action()
        obs, r, te, tr, info = e.step(a)
        out.append((a, obs.tobytes(), r, te, tr, sorted((k, np.asarray(v).tobytes()) for k, v in info.items())))
    return out


# -- Gymnasium conformance -------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs", [{}, {"difficulty": "very_hard", "reward": {"draw": -1.0}}, {"render_mode": "ansi"}])
def test_check_env_passes_without_warnings(kwargs, no_warnings):
    check_env(gym.make(maquis.ENV_ID, **kwargs).unwrapped)


def test_registered_with_gymnasium():
    env = gym.make("maquis/Maquis-v0", difficulty="hard", missions=["sabotage", "aid_the_spy"])
    assert isinstance(env.unwrapped, MaquisEnv)
    assert env.spec.id == "maquis/Maquis-v0"
    assert env.spec.vector_entry_point == "maquis.maquis.vector:MaquisVectorEnv"
    _, _ = env.reset(seed=1)
    sd = env.unwrapped.state_dict()
    assert sd["difficulty"] == "hard"
    assert [m["id"] for m in sd["missions"]] == ["sabotage", "aid_the_spy"]


def test_spaces_and_tables():
    e = MaquisEnv()
    assert e.action_space == gym.spaces.Discrete(N)
    assert isinstance(e.observation_space, gym.spaces.Box)
    assert e.observation_space.dtype == np.float32 and e.observation_space.shape == (D,)
    assert (e.observation_space.low == 0).all() and (e.observation_space.high == 1).all()
    assert N == 217 and len(maquis.ACTION_NAMES) == N and len(set(maquis.ACTION_NAMES)) == N
    assert isinstance(maquis.ACTION_NAMES, tuple)
    for i, name in enumerate(maquis.ACTION_NAMES):
        assert e.action_to_str(i) == maquis.action_to_str(np.int64(i)) == name
        assert e.action_from_str(name) == maquis.action_from_str(name) == i
    # OBSERVATION_LAYOUT covers the vector exactly, in order.
    at = 0
    for name, offset, length in maquis.OBSERVATION_LAYOUT:
        assert isinstance(name, str) and offset == at and length > 0
        at += length
    assert at == D
    assert maquis.OUTCOMES == ("win", "major_win", "draw", "loss")


def test_reset_and_step_types(env):
    obs, info = env.reset(seed=5)
    assert obs.dtype == np.float32 and obs.shape == (D,)
    assert set(info) == {"action_mask"}
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (N,)
    obs2, r, te, tr, info = env.step(env.sample_action())
    assert type(te) is bool and type(tr) is bool and type(r) is float
    assert obs2 is not obs and info["action_mask"].dtype == np.int8
    assert tr is False


# -- Seeding ---------------------------------------------------------------------------------------


def test_same_seed_same_trajectories_across_episodes():
    a, b = MaquisEnv(), MaquisEnv()
    a.reset(seed=123)
    b.reset(seed=123)
    ra, rb = rollout(a, 600), rollout(b, 600)
    assert ra == rb
    assert sum(1 for x in ra if x[0] == "reset") >= 2, "several episodes were compared"
    c = MaquisEnv()
    c.reset(seed=124)
    assert rollout(c, 600) != ra


def test_reset_with_seed_restarts_the_streams():
    e = MaquisEnv()
    e.reset(seed=7)
    first = rollout(e, 300)
    e.reset(seed=7)
    assert rollout(e, 300) == first


def test_unseeded_first_reset_is_random():
    games = set()
    for _ in range(4):
        e = MaquisEnv()
        e.reset()
        games.add(e.save_state())
    assert len(games) > 1


def test_np_random_gives_the_stream_seed():
    # Seeding goes through self.np_random (Gymnasium): the same np_random state, the same game.
    a, b = MaquisEnv(), MaquisEnv()
    a.reset(seed=99)
    b.reset(seed=99)
    assert a.np_random.bit_generator.state == b.np_random.bit_generator.state
    assert a.save_state() == b.save_state()


# -- Masks -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_three_mask_conventions_agree_with_legal_actions(difficulty):
    e = MaquisEnv(difficulty=difficulty)
    _, info = e.reset(seed=11)
    for _ in range(3):
        while True:
            legal = e.legal_actions()
            mask_bool = e.action_masks()
            assert mask_bool.dtype == np.bool_ and mask_bool.shape == (N,)
            assert info["action_mask"].dtype == np.int8
            assert np.flatnonzero(info["action_mask"]).tolist() == legal
            assert np.flatnonzero(mask_bool).tolist() == legal
            if e.done:
                assert legal == [] and not mask_bool.any()
                break
            assert legal, "a live game always has a legal action"
            a = e.sample_action()
            assert a in legal
            _, _, terminated, _, info = e.step(a)
            assert terminated == e.done
        e.reset()
        info = {"action_mask": e.action_masks().astype(np.int8)}


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_random_playouts_stay_in_observation_space(difficulty):
    e = MaquisEnv(difficulty=difficulty)
    obs, _ = e.reset(seed=3)
    lo, hi = np.inf, -np.inf
    for _ in range(20):
        while True:
            assert obs in e.observation_space
            lo, hi = min(lo, obs.min()), max(hi, obs.max())
            if e.done:
                break
            obs, *_ = e.step(e.sample_action())
        obs, _ = e.reset()
    assert lo == 0.0 and hi == 1.0


def test_hidden_deck_order_is_not_observed():
    opts = {"missions": ["sabotage", "aid_the_spy"]}
    a, b = MaquisEnv(), MaquisEnv()
    oa, _ = a.reset(seed=1, options={**opts, "patrol_deck": list(range(10))})
    ob, _ = b.reset(seed=1, options={**opts, "patrol_deck": list(range(9, -1, -1))})
    assert a.state_dict()["patrol_deck"] != b.state_dict()["patrol_deck"]
    np.testing.assert_array_equal(oa, ob)


# -- Rewards and the end of an episode -------------------------------------------------------------


def test_terminal_reward_follows_the_outcome_and_partial_mapping():
    rewards = {"win": 1.0, "major_win": 1.0, "draw": 0.0, "loss": -3.5}
    e = MaquisEnv(reward={"loss": -3.5})
    e.reset(seed=2)
    seen = set()
    for _ in range(40):
        total = 0.0
        while True:
            _, r, te, tr, info = e.step(e.sample_action())
            total += r
            if te:
                break
            assert r == 0.0 and "outcome" not in info
        assert info["outcome"] in maquis.OUTCOMES
        assert r == rewards[info["outcome"]] == total
        assert "illegal_action" not in info
        seen.add(info["outcome"])
        e.reset()
    assert "loss" in seen


def test_illegal_action_terminates_with_loss(env):
    before = env.save_state()
    obs, r, te, tr, info = env.step(illegal(env))
    assert (r, te, tr) == (-1.0, True, False)
    assert info["outcome"] == "loss" and info["illegal_action"] is True
    assert not info["action_mask"].any() and env.legal_actions() == [] and env.done
    assert env.save_state() == before, "the game itself is untouched"
    with pytest.raises(maquis.MaquisError, match="reset"):
        env.step(0)
    env.reset()
    env.step(env.sample_action())


def test_illegal_action_raises_and_leaves_state_unchanged(raise_env):
    e = raise_env
    before, mask = e.save_state(), e.action_masks()
    a = illegal(e)
    with pytest.raises(maquis.IllegalActionError, match=rf"'{maquis.ACTION_NAMES[a]}' in phase 'placement'") as exc:
        e.step(a)
    assert isinstance(exc.value, ValueError)
    assert e.save_state() == before and (e.action_masks() == mask).all() and not e.done
    e.step(e.sample_action())  # still usable


def test_step_before_reset_and_after_the_end_raise():
    e = MaquisEnv()
    with pytest.raises(maquis.MaquisError, match="reset"):
        e.step(0)
    e.reset(seed=0)
    while not e.done:
        e.step(e.sample_action())
    with pytest.raises(maquis.MaquisError, match="reset"):
        e.step(e.legal_actions()[0] if e.legal_actions() else 0)
    with pytest.raises(maquis.MaquisError):
        e.sample_action()


# -- Bad input: a clear exception, and the env still works -----------------------------------------


@pytest.mark.parametrize(
    "action, error",
    [
        (1.0, TypeError),
        (np.float32(2), TypeError),
        ("place:fence", TypeError),
        (None, TypeError),
        (True, TypeError),
        ([0], TypeError),
        (np.array([0, 1]), TypeError),
        (-1, ValueError),
        (N, ValueError),
        (10**30, ValueError),
        (np.int64(-5), ValueError),
    ],
)
def test_bad_actions_raise_and_leave_the_env_usable(env, action, error):
    before = env.save_state()
    with pytest.raises(error, match="action"):
        env.step(action)
    assert env.save_state() == before and not env.done
    env.step(env.sample_action())


def test_numpy_integer_actions_are_accepted(env):
    a = env.legal_actions()[0]
    env.step(np.int32(a))
    env.step(np.array(env.legal_actions()[0]))  # a 0-d integer array


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"difficulty": "impossible"}, ValueError, "difficulty"),
        ({"mission_pool": "third_edition"}, ValueError, "mission_pool"),
        ({"deal": "cards"}, ValueError, "deal"),
        ({"missions": ["sabotage", "nope"]}, ValueError, "nope"),
        ({"missions": ["sabotage"]}, ValueError, "two"),
        ({"missions": ["sabotage", "sabotage"]}, ValueError, "differ"),
        ({"missions": "sabotage"}, TypeError, "missions"),
        ({"mission_pool": "pnp_2013", "missions": ["milice_hq", "sabotage"]}, ValueError, "pool"),
        ({"reward": {"victory": 1.0}}, ValueError, "victory"),
        ({"reward": {"win": "lots"}}, TypeError, "win"),
        ({"reward": {"win": float("nan")}}, ValueError, "finite"),
        ({"reward": [1, 2]}, TypeError, "reward"),
        ({"illegal_action": "ignore"}, ValueError, "illegal_action"),
        ({"render_mode": "human"}, ValueError, "render_mode"),
        ({"difficulty": 3}, TypeError, None),
    ],
)
def test_bad_constructor_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        MaquisEnv(**kwargs)


@pytest.mark.parametrize(
    "options, error, match",
    [
        ({"dificulty": "hard"}, ValueError, "dificulty"),
        ({"difficulty": "impossible"}, ValueError, "impossible"),
        ({"mission_pool": "first_edition"}, ValueError, "mission_pool"),
        ({"missions": ["sabotage", "nope"]}, ValueError, "nope"),
        ({"patrol_deck": [0, 1, 2]}, ValueError, "patrol_deck"),
        ({"patrol_deck": [0, 0, 1, 2, 3, 4, 5, 6, 7, 8]}, ValueError, "patrol_deck"),
        ({"start": {"moral": 3}}, ValueError, "moral"),
        ({"start": {"resources": {"gold": 1}}}, ValueError, "gold"),
        ({"start": {"resources": {"weapon": 5}}}, ValueError, "supply"),
        ({"start": {"morale": 0}}, ValueError, "morale"),
        ({"start": {"morale": 2.5}}, ValueError, "floating"),
        ({"start": {"workers": {"available": 0}}}, ValueError, "workers"),
        ({"start": {"day": 15}}, ValueError, "day"),
        ("difficulty=hard", TypeError, "options"),
        ({"start": {"resources": {"weapon": object()}}}, TypeError, "object"),
    ],
)
def test_bad_reset_options_raise_and_leave_the_env_usable(env, options, error, match):
    env.step(env.sample_action())
    before = env.save_state()
    with pytest.raises(error, match=match):
        env.reset(options=options)
    assert env.save_state() == before
    env.step(env.sample_action())


def test_reset_options_apply_to_one_reset():
    e = MaquisEnv(difficulty="easy")
    deck = [3, 1, 4, 0, 5, 9, 2, 6, 8, 7]
    options = {
        "difficulty": "tricky",
        "missions": np.array(["coded_messages", "sabotage"]),
        "patrol_deck": np.array(deck),
        "start": {
            "resources": {"weapon": np.int64(2), "money": 1},
            "morale": 3,
            "soldiers": 2,
            "day": 4,
            "workers": {"available": 1, "recruitable": 1},
        },
    }
    e.reset(seed=0, options=options)
    sd = e.state_dict()
    assert sd["difficulty"] == "tricky"
    assert [(m["id"], m["slot"]) for m in sd["missions"]] == [("coded_messages", "mission_a"), ("sabotage", "mission_b")]
    assert sd["patrol_deck"] == deck
    assert (sd["hand"]["weapon"], sd["hand"]["money"], sd["supply"]["weapon"]) == (2, 1, 2)
    assert (sd["morale"], sd["soldiers"], sd["day"]) == (3, 2, 4)
    assert sd["workers"]["available"] == 1 and sd["workers"]["recruitable"] == 1
    assert sd["workers"]["gone"] == 2  # tricky has 4 workers
    e.reset()
    sd = e.state_dict()
    assert sd["difficulty"] == "easy" and sd["day"] == 0 and sd["morale"] == 6
    e.reset(options={})  # check_env's empty options


# -- State: state_dict, save/load, clone, pickle ---------------------------------------------------


def test_state_dict_is_plain_data(env):
    sd = env.state_dict()
    json.dumps(sd)  # plain Python only
    for key in ("day", "pass", "phase", "morale", "soldiers", "hand", "supply", "workers", "board", "missions",
                "patrol_deck", "patrol_discard", "shot_today", "closed_roads", "dark_lady", "outcome", "difficulty"):
        assert key in sd, key
    assert len(sd["board"]) == 19
    assert sorted(sd["patrol_deck"] + sd["patrol_discard"]) == list(range(10))
    assert set(sd["workers"]) == {"available", "placed", "stuck", "recruitable", "gone"}
    assert sd["phase"] == "placement" and sd["outcome"] is None


def test_save_load_round_trip_is_exact():
    a = MaquisEnv()
    a.reset(seed=4)
    advance(a, 4)
    saved = a.save_state()
    b = MaquisEnv(difficulty="hard")
    b.reset(seed=999)
    b.load_state(saved)
    assert b.save_state() == saved and b.state_dict() == a.state_dict()
    # Same decisions from here give the same game (the deck and its RNG are in the save).
    while not a.done:
        act = a.sample_action()
        ra, rb = a.step(act), b.step(act)
        np.testing.assert_array_equal(ra[0], rb[0])
        assert ra[1:4] == rb[1:4]
    assert b.done and b.state_dict() == a.state_dict()
    # A finished game loads as a finished episode.
    c = MaquisEnv()
    c.load_state(a.save_state())
    assert c.done and c.legal_actions() == []


@pytest.mark.parametrize(
    "text",
    ["not json", "{}", '{"format": "maquis-state", "version": 99, "state": {}}', "[]"],
)
def test_malformed_saves_raise_and_leave_the_env_usable(env, text):
    before = env.save_state()
    with pytest.raises(maquis.MaquisError, match="saved state"):
        env.load_state(text)
    assert env.save_state() == before
    env.step(env.sample_action())


def test_inconsistent_saves_are_refused(env):
    doc = json.loads(env.save_state())
    doc["state"]["morale"] = 9
    with pytest.raises(ValueError, match="morale"):
        env.load_state(json.dumps(doc))
    doc = json.loads(env.save_state())
    doc["state"]["hand"][0] = 4  # 4 intel in hand and 4 in the supply: 8 tokens
    with pytest.raises(ValueError, match="intel"):
        env.load_state(json.dumps(doc))
    # P2: a deck claiming more cards than exist is refused, not a panic.
    for n in (11, 255):
        doc = json.loads(env.save_state())
        doc["state"]["deck"]["discard_len"] = n
        with pytest.raises(ValueError, match="patrol deck"):
            env.load_state(json.dumps(doc))
    with pytest.raises(TypeError):
        env.load_state(doc)


def test_clone_is_independent_and_identical():
    a = MaquisEnv(reward={"draw": 0.5})
    a.reset(seed=8)
    advance(a, 4)
    b = a.clone()
    assert b is not a and b.save_state() == a.save_state()
    b.step(b.sample_action())
    assert b.save_state() != a.save_state()
    c = a.clone()
    assert rollout(a, 300) == rollout(c, 300)  # streams and np_random copied too
    assert copy.deepcopy(a).save_state() == a.save_state()


@pytest.mark.parametrize("illegal_action", ["terminate", "raise"])
def test_pickle_round_trip_continues_identically(illegal_action):
    a = gym.make(maquis.ENV_ID, difficulty="very_easy", illegal_action=illegal_action, reward={"win": 2.0}).unwrapped
    a.reset(seed=21)
    advance(a, 4)
    b = pickle.loads(pickle.dumps(a))
    assert type(b) is MaquisEnv and b.save_state() == a.save_state()
    assert b.spec == a.spec and b._core.illegal_action == illegal_action
    assert b._core.reward == {"win": 2.0, "major_win": 1.0, "draw": 0.0, "loss": -1.0}
    assert rollout(a, 400) == rollout(b, 400)
    # A fresh env and one finished on an illegal action pickle too.
    pickle.loads(pickle.dumps(MaquisEnv()))
    if illegal_action == "terminate":
        a.step(illegal(a)) if not a.done else None
        b = pickle.loads(pickle.dumps(a))
        assert b.done == a.done


# -- Render ----------------------------------------------------------------------------------------


def test_render_modes():
    e = MaquisEnv(render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str) and text
    e = MaquisEnv(render_mode="rgb_array")
    e.reset(seed=0)
    img = e.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    e = MaquisEnv()
    e.reset(seed=0)
    with pytest.warns(UserWarning, match="render"):
        assert e.render() is None


def test_errors_are_value_errors():
    assert issubclass(maquis.MaquisError, ValueError)
    assert issubclass(maquis.IllegalActionError, maquis.MaquisError)


@pytest.mark.parametrize("make", ["maquis", "dday", "maurice"])
def test_an_out_of_range_action_names_the_last_action(make):
    """`Discrete(N)` holds 0 to N - 1: the message says so, not Rust's exclusive `0..N`."""
    import maquis.dday
    import maquis.maurice

    env = {"maquis": maquis.MaquisEnv, "dday": maquis.dday.DDayEnv, "maurice": maquis.maurice.MauriceEnv}[make]()
    env.reset(seed=0)
    n = int(env.action_space.n)
    for bad in (n, -1, 2**70):
        with pytest.raises(ValueError, match=rf"out of range: actions are 0 to {n - 1} \({n} actions\)"):
            env.step(bad)

"""The single-agent Maurice Lite environment `maquis.maurice.MauriceEnv` / `maquis/MauriceLite-v0`
(docs/api/maurice.md "Single-agent environment", "Reset options", "State, saving, seeding")."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import maquis  # noqa: E402
import maquis.dday as dday  # noqa: E402
import maquis.maurice as maurice  # noqa: E402
from maquis.maurice import MauriceEnv  # noqa: E402
from helpers import episode  # noqa: E402


def test_check_env_without_warnings():
    from gymnasium.utils.env_checker import check_env

    for kw in ({"side": "blue", "opponent": "random"}, {"side": "red", "opponent": "heuristic", "observation": "compact"},
               {"opponent": "random", "observation": "compact", "observation_dtype": "uint8"}):
        env = MauriceEnv(**kw)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_env(env, skip_render_check=True)


def test_make_and_make_vec():
    env = gym.make("maquis/MauriceLite-v0", side="red", opponent="random", observation="compact")
    obs, info = env.reset(seed=0)
    assert env.observation_space.shape == (1084,) and env.action_space.n == 1447 and obs.shape == (1084,)
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (1447,) and info["phase"] in maurice.PHASES
    venv = gym.make_vec("maquis/MauriceLite-v0", num_envs=2, opponent="random", observation="compact")
    assert isinstance(venv, maurice.MauriceVectorEnv)
    obs, infos = venv.reset(seed=0)
    assert obs.shape == (2, 1084)


def test_spaces_and_infos():
    env = MauriceEnv(opponent="random")
    assert env.observation_space == gym.spaces.Box(0, 1, (21334,), np.float32)
    assert env.action_space == gym.spaces.Discrete(1447)
    obs, info = env.reset(seed=1)
    assert obs.dtype == np.float32 and obs.shape == (21334,)
    assert set(info) == {"action_mask", "phase"}
    assert env.action_masks().dtype == np.bool_ and np.array_equal(env.action_masks(), info["action_mask"] == 1)
    assert env.legal_actions() == np.flatnonzero(info["action_mask"]).tolist()
    assert env.action_to_str(0) == "volley" and env.action_from_str("cell:0:0") == 97


@pytest.mark.parametrize("side", ["blue", "red"])
def test_episodes_end_with_outcome_morale_and_table_reward(side):
    env = MauriceEnv(side=side, opponent="random", observation="compact")
    _, rewards, info = episode(env, 2)
    assert set(rewards[:-1]) <= {0.0}
    assert rewards[-1] == {"win": 1.0, "draw": 0.0, "loss": -1.0}[info["outcome"]]
    assert set(info["morale"]) == {"blue", "red"} and info["phase"] == "game_over"
    assert env.side == side and env.done


def test_morale_margin_reward():
    env = MauriceEnv(opponent="random", observation="compact", reward="morale_margin")
    _, rewards, info = episode(env, 3)
    m = env.state_dict()["morale"]
    assert rewards[-1] == pytest.approx(m["blue"]["left"] / m["blue"]["start"] - m["red"]["left"] / m["red"]["start"])


def test_same_seed_same_trajectory_and_different_seeds_differ():
    def trace(seed):
        env = MauriceEnv(opponent="heuristic", observation="compact")
        actions, rewards, info = episode(env, seed)
        return actions, rewards, info["outcome"], env.save_state()

    assert trace(11) == trace(11)
    assert trace(11) != trace(12)


def test_dice_do_not_depend_on_the_opponent():
    # The roll-off (N2 first_player) and the setup deal come before any decision.
    starts = []
    for opponent in ("random", "heuristic"):
        env = MauriceEnv(opponent=opponent)
        env.reset(seed=3)
        sd = env.state_dict()
        starts.append([e for e in sd["dice_log"] if e["event"] == "first_player"])
    assert starts[0] == starts[1] and starts[0]


def test_reset_options_apply_for_one_reset_only():
    env = MauriceEnv(side="blue", opponent="random", scenario="skirmish")
    env.reset(seed=0, options={"first": "blue", "morale": {"blue": 2, "red": 3}, "side": "red", "opponent": "heuristic"})
    sd = env.state_dict()
    assert sd["scenario"] == "skirmish" and sd["active"] == "blue" and env.side == "red"
    assert sd["morale"]["blue"]["left"] == 2
    env.reset(seed=0)
    assert env.side == "blue" and env.state_dict()["morale"]["blue"]["left"] == env.state_dict()["morale"]["blue"]["start"]
    env.reset(seed=0, options={"scenario": "standard"})
    assert env.state_dict()["scenario"] == "standard"


@pytest.mark.parametrize(
    "options",
    [
        {"bogus": 1},
        {"first": "green"},
        {"scenario": "waterloo"},
        {"terrain": "flat"},
        {"side": "green"},
        {"opponent": "grandmaster"},
        {"morale": {"blue": 9, "red": 1}},
        {"dice": [0]},
        {"deck": ["march_4"]},
        {"units": {"blue": [{"id": 0, "type": "inf", "formation": "massed", "x": 3, "y": 3, "facing": "n"}], "red": []}},
        {"shuffles": [["march_4", "march_4"]]},
    ],
)
def test_bad_reset_options_are_value_errors_and_change_nothing(options):
    env = MauriceEnv(opponent="random")
    env.reset(seed=1)
    before = env.save_state()
    with pytest.raises(ValueError):
        env.reset(seed=2, options=options)
    assert env.save_state() == before


def test_bad_keywords():
    for kw in ({"side": "green"}, {"opponent": "grandmaster"}, {"scenario": "waterloo"}, {"terrain": "flat"},
               {"observation": "tiny"}, {"reward": "vp_margin"}, {"illegal_action": "ignore"},
               {"render_mode": "pictures"}, {"observation_dtype": "float16"}, {"opponent_kwargs": {"depth": 3}}):
        with pytest.raises(ValueError):
            MauriceEnv(**kw)
    for kw in ({"side": 1}, {"scenario": None}, {"observation": 0}, {"opponent": object()}):
        with pytest.raises(TypeError):
            MauriceEnv(**kw)


def test_illegal_action_terminate_and_raise():
    env = MauriceEnv(opponent="random")
    obs, info = env.reset(seed=4)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, r, term, trunc, info = env.step(bad)
    assert term and r == -1.0 and info["outcome"] == "loss" and info["illegal_action"] is True
    strict = MauriceEnv(opponent="random", illegal_action="raise")
    _, info = strict.reset(seed=4)
    before = strict.save_state()
    name = maurice.ACTION_NAMES[bad]
    with pytest.raises(ValueError, match=f"'{name}'.*'{info['phase']}'"):
        strict.step(bad)
    assert strict.save_state() == before
    with pytest.raises(maquis.IllegalActionError):
        strict.step(bad)
    with pytest.raises(TypeError):
        strict.step(1.5)
    with pytest.raises(ValueError):
        strict.step(-1)


class FirstLegal:
    def __init__(self):
        self.sizes = set()

    def act(self, obs, mask):
        self.sizes.add(obs.shape)
        return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("observation", ["full", "compact"])
def test_python_object_opponent_gets_the_observation_of_the_same_kind(observation):
    opp = FirstLegal()
    env = MauriceEnv(side="red", opponent=opp, observation=observation)
    _, _, info = episode(env, 0)
    assert opp.sizes == {(maurice.OBSERVATION_SIZE if observation == "full" else maurice.COMPACT_OBSERVATION_SIZE,)}
    assert info["outcome"] in ("win", "draw", "loss")
    other = FirstLegal()
    episode(env, 1, options={"opponent": other})
    assert other.sizes == opp.sizes
    # A bundled agent object plays from outside on the full observation, whatever the learner's.
    episode(MauriceEnv(opponent=maurice.agents.HeuristicAgent(seed=1), observation=observation), 0)


def test_search_opponent_with_a_small_budget():
    env = MauriceEnv(opponent="search", opponent_kwargs={"budget": 2}, observation="compact")
    env.reset(seed=0)
    for _ in range(5):
        if env.step(env.sample_action())[2]:
            break


def test_another_games_save_is_refused_changing_nothing():
    # The exact save, load, clone and pickle: tests/test_two_player_envs.py.
    loaded = MauriceEnv(side="red", opponent="heuristic", observation="compact")
    loaded.reset(seed=1)
    for _ in range(15):
        loaded.step(loaded.sample_action())
    d = dday.DDayEnv(opponent="random")
    d.reset(seed=0)
    before = loaded.save_state()
    for other in (d.save_state(), d._core.__getstate__()):
        with pytest.raises(ValueError, match="D-Day 1944 save.*maquis.dday"):
            loaded.load_state(other)
    with pytest.raises(ValueError):
        loaded.load_state("not json")
    assert loaded.save_state() == before
    assert maquis._core.save_game(before) == "maurice"


def test_uint8_observations_are_the_float32_ones_for_every_unit_id():
    # Units with every id 0-15, so that every unit row's divisors are used.
    sc = maurice.scenario("standard")
    units = {side: [dict(u, id=15 - i) for i, u in enumerate(sc["units"][side])] for side in ("blue", "red")}
    options = {"units": units, "cinc": sc["cinc"]}
    a = MauriceEnv(opponent="heuristic", observation_dtype="uint8")
    b = MauriceEnv(opponent="heuristic")
    assert a.observation_space.dtype == np.uint8
    oa, _ = a.reset(seed=5, options=options)
    ob, _ = b.reset(seed=5, options=options)
    rng = np.random.default_rng(0)
    for _ in range(60):
        assert oa in a.observation_space
        assert maurice.observation_float32(oa).tobytes() == ob.tobytes()
        legal = b.legal_actions()
        k = legal[int(rng.integers(len(legal)))]
        oa, _, ta, _, _ = a.step(k)
        ob, _, tb, _, _ = b.step(k)
        assert ta == tb
        if tb:
            break

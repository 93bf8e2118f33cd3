"""The two-player PettingZoo AEC environment of Maurice Lite (docs/api/maurice.md "Two-player
environment: PettingZoo AEC")."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import maquis.dday as dday  # noqa: E402
import maquis.maurice as maurice  # noqa: E402

# Every card of K1, one entry per copy, in type order.
DECK = [c["id"] for c in maurice.CARDS for _ in range(c["copies"])]


def final_rewards(env, rng, limit=20000):
    """Random legal decisions to the end; each agent's reward and info at its last `last()`."""
    out = {}
    for agent in env.agent_iter(limit):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            assert term and not trunc
            out[agent] = (reward, info)
            env.step(None)
            continue
        assert reward == 0
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return out


def test_metadata_spaces_and_first_decider():
    e = maurice.raw_env()
    assert e.metadata == {"name": "maurice_lite_v0", "render_modes": ["ansi", "rgb_array", "human"],
                          "is_parallelizable": False, "render_fps": 2}
    assert e.possible_agents == ["blue", "red"]
    e.reset(seed=1)
    for a in e.possible_agents:
        assert e.action_space(a).n == 1447
        sp = e.observation_space(a)
        assert sp["observation"].shape == (21334,) and sp["observation"].dtype == np.float32
        assert sp["observation"].low.min() == 0 and sp["observation"].high.max() == 1
        assert sp["action_mask"].shape == (1447,) and sp["action_mask"].dtype == np.int8
    # Setup ran inside reset: the first active side decides whether to volley.
    assert e.phase == "volley_choice" and e.agent_selection == e.state_dict()["active"]
    other = "red" if e.agent_selection == "blue" else "blue"
    assert e.observe(other)["action_mask"].sum() == 0
    m = e.observe(e.agent_selection)["action_mask"]
    assert {maurice.ACTION_NAMES[i] for i in np.flatnonzero(m)} <= {"volley", "no_volley"}
    compact = maurice.raw_env(observation="compact")
    assert compact.observation_space("red")["observation"].shape == (1084,)
    compact.reset(seed=1)
    np.testing.assert_array_equal(compact.observe("red")["observation"], e.observe("red")["observation"][:1084])


def test_rewards_zero_sum_and_end_infos():
    e = maurice.env(observation="compact")
    e.reset(seed=3)
    out = final_rewards(e, np.random.default_rng(0))
    assert e.agents == [] and set(out) == {"blue", "red"}
    (rb, ib), (rr, ir) = out["blue"], out["red"]
    assert rb == -rr and rb in (-1.0, 0.0, 1.0)
    assert {ib["outcome"], ir["outcome"]} in ({"win", "loss"}, {"draw"})
    assert ib["morale"] == ir["morale"] and set(ib["morale"]) == {"blue", "red"}
    assert all(isinstance(v, int) for v in ib["morale"].values())


def test_morale_margin_is_zero_sum():
    e = maurice.raw_env(observation="compact", reward="morale_margin")
    e.reset(seed=4)
    out = final_rewards(e, np.random.default_rng(1))
    sd = e.state_dict()
    share = {s: m["left"] / m["start"] for s, m in sd["morale"].items()}
    assert out["blue"][0] == pytest.approx(share["blue"] - share["red"])
    assert out["red"][0] == pytest.approx(-out["blue"][0])
    assert -1 <= out["blue"][0] <= 1


def test_partial_reward_table_keeps_defaults():
    e = maurice.raw_env(observation="compact", reward={"draw": 0.25})
    e.reset(seed=5)
    table = {"win": 1.0, "draw": 0.25, "loss": -1.0}
    for reward, info in final_rewards(e, np.random.default_rng(2)).values():
        assert reward == table[info["outcome"]]
    with pytest.raises(ValueError, match="tie"):
        maurice.raw_env(reward={"tie": 1.0})
    with pytest.raises(ValueError, match="morale_margin"):
        maurice.raw_env(reward="vp_margin")


def test_illegal_action_raises_in_raw_env_and_terminates_in_env():
    raw = maurice.raw_env()
    raw.reset(seed=0)
    before = raw.save_state()
    with pytest.raises(ValueError, match=r"'end_fire'.*'volley_choice'"):
        raw.step(maurice.action_from_str("end_fire"))
    assert raw.save_state() == before
    with pytest.raises(ValueError):
        raw.step(1447)
    with pytest.raises(TypeError):
        raw.step("volley")
    assert raw.save_state() == before
    wrapped = maurice.env()
    wrapped.reset(seed=0)
    offender = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(maurice.action_from_str("end_fire"))
    assert all(wrapped.terminations.values())
    other = "red" if offender == "blue" else "blue"
    assert wrapped.rewards[offender] == -1 and wrapped.rewards[other] == 0


def test_reset_options_apply_and_unknown_keys_warn():
    e = maurice.raw_env()
    with pytest.warns(UserWarning, match="'bogus'"):
        e.reset(seed=0, options={"bogus": 1, "first": "red", "morale": {"blue": 3, "red": 2}})
    sd = e.state_dict()
    assert sd["active"] == "red" and e.agent_selection == "red"
    assert sd["morale"]["blue"]["left"] == 3 and sd["morale"]["red"]["left"] == 2
    # The constructor's scenario stays under options that do not name one.
    s = maurice.raw_env(scenario="skirmish")
    s.reset(seed=0, options={"first": "blue"})
    assert s.state_dict()["scenario"] == "skirmish"
    bad = [
        {"first": "green"},
        {"scenario": "waterloo"},
        {"morale": {"blue": 0, "red": 2}},
        {"dice": [7]},
        {"hands": {"blue": [], "red": []}},  # without a deck
        {"cinc": {"blue": [45, 0], "red": [1, 1]}},
        {"terrain": {"rows": ["."] * 30, "hills": ["0"] * 30, "walls": []}},
    ]
    before = e.save_state()
    for options in bad:
        with pytest.raises(ValueError):
            e.reset(seed=1, options=options)
        assert e.save_state() == before, options
    with pytest.raises(TypeError):
        e.reset(options=[("first", "red")])


BLUE_HAND = ["march_4", "march_6", "charge_4", "rally_4", "volley_4"]


def dealt(red_hand, reverse_deck=False):
    """Reset options giving blue `BLUE_HAND`, red `red_hand` and the rest to the deck."""
    deck = list(DECK)
    for c in BLUE_HAND + red_hand:
        deck.remove(c)
    return {"first": "blue", "hands": {"blue": BLUE_HAND, "red": red_hand}, "deck": deck[::-1] if reverse_deck else deck}


def test_information_hidden_hand_and_deck_order_give_the_same_observation():
    # Red's hand (same size, other cards) and the deck's order are hidden from blue (O1-O3).
    red_a = ["bombard_4", "bombard_6", "orders_12", "thick_smoke", "march_8"]
    red_b = ["bombard_8", "rally_6", "orders_16", "first_fire", "charge_6"]
    views = []
    for options in (dealt(red_a), dealt(red_b, reverse_deck=True)):
        e = maurice.raw_env()
        e.reset(seed=0, options=options)
        views.append({s: e.observe(s)["observation"] for s in ("blue", "red")})
    np.testing.assert_array_equal(views[0]["blue"], views[1]["blue"])
    assert not np.array_equal(views[0]["red"], views[1]["red"])


def test_another_games_save_is_refused_and_leaves_the_state_alone():
    # The round trip of save, load, clone and pickle is checked for both games in test_two_player_envs.
    loaded = maurice.raw_env(observation="compact")
    loaded.reset(seed=99)
    d = dday.raw_env()
    d.reset(seed=0)
    before = loaded.save_state()
    with pytest.raises(ValueError, match="D-Day 1944 save.*maquis.dday"):
        loaded.load_state(d.save_state())
    with pytest.raises(ValueError):
        loaded.load_state('{"format": "maquis.maurice", "version": 1}')
    assert loaded.save_state() == before


def test_uint8_observations_convert_back_bit_for_bit():
    # Heuristic play on both sides reaches aim, charges and moves, whose slices are written only then.
    from maquis.maurice.agents import HeuristicAgent

    a = maurice.raw_env(observation_dtype="uint8")
    b = maurice.raw_env()
    box = a.observation_space("blue")["observation"]
    assert box.dtype == np.uint8
    np.testing.assert_array_equal(box.high, maurice.OBSERVATION_DIVISOR)
    phases = set()
    for seed in (0, 1):
        a.reset(seed=seed)
        b.reset(seed=seed)
        agents = {s: HeuristicAgent(seed=seed) for s in ("blue", "red")}
        while not b._game.is_over:
            phases.add(b.phase)
            side = b.agent_selection
            oa, ob = a.observe(side), b.observe(side)
            assert oa["observation"] in box
            assert maurice.observation_float32(oa["observation"]).tobytes() == ob["observation"].tobytes()
            k = agents[side].act(oa["observation"], oa["action_mask"])  # the agents take uint8 rows too
            a.step(k)
            b.step(k)
        assert a.save_state() == b.save_state()
    assert {"aim", "unit_move", "charge"} <= phases


def test_the_engine_game_pickles_with_its_settings():
    import maquis._core as core

    g = core.maurice.Game(scenario="skirmish", observation="compact", observation_dtype="uint8")
    g.reset(3)
    g.step(g.legal_actions()[0])
    h = pickle.loads(pickle.dumps(g))
    assert (h.observation_kind, h.observation_dtype) == ("compact", "uint8")
    assert h.save_state() == g.save_state() and h.observation("blue").tobytes() == g.observation("blue").tobytes()
    h.reset(4)
    assert h.state_dict()["scenario"] == "skirmish"
    with pytest.raises(ValueError, match="defaults"):
        core.maurice.Game().__setstate__('{"game": "x"}')
    with pytest.raises(ValueError, match="observation must be"):
        core.maurice.Game(observation="tiny")

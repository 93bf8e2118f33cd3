"""The two-player PettingZoo AEC environment of D-Day 1944 (API.md "Two-player environment")."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import maquis.dday as dday  # noqa: E402

ALLOCATION = {
    "caen": ["squad", "vip", "gendarme"],
    "bayeux": ["squad", "passenger"],
    "lison": ["squad", "goods"],
    "saint_lo": ["goods", "gendarme"],
    "avranches": ["gendarme", "gendarme"],
}


def play_out(env, rng, limit=5000):
    """Random legal decisions until the end; returns the number of decisions."""
    n = 0
    for agent in env.agent_iter(limit):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
        n += 1
    return n


def test_metadata_spaces_and_first_decider():
    e = dday.raw_env()
    assert e.metadata == {"name": "dday1944_v0", "render_modes": ["ansi", "rgb_array", "human"], "is_parallelizable": False, "render_fps": 1}
    assert e.possible_agents == ["resistance", "german"]
    e.reset(seed=1)
    assert e.agent_selection == "german"
    for a in e.possible_agents:
        assert e.action_space(a).n == 191
        sp = e.observation_space(a)
        assert sp["observation"].shape == (380,) and sp["observation"].dtype == np.float32
        assert sp["action_mask"].shape == (191,) and sp["action_mask"].dtype == np.int8
    assert e.observe("resistance")["action_mask"].sum() == 0
    m = e.observe("german")["action_mask"]
    assert m.sum() > 0 and all(dday.ACTION_NAMES[i].startswith("allocate:squad:") for i in np.flatnonzero(m))


def test_rewards_zero_sum_at_the_end_and_dead_agents_step_out():
    e = dday.env()
    e.reset(seed=3)
    totals = {a: 0.0 for a in e.possible_agents}
    rng = np.random.default_rng(0)
    for agent in e.agent_iter(5000):
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        if term or trunc:
            assert term and not trunc
            assert info["outcome"] in ("win", "draw", "loss")
            assert set(info["vp"]) == {"resistance", "german"}
            e.step(None)
            continue
        assert reward == 0
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.agents == []
    assert totals["resistance"] == -totals["german"]
    assert set(totals.values()) <= {-1.0, 0.0, 1.0}


def final_rewards(env, rng):
    """Plays randomly to the end; each agent's reward and info at its last `last()`."""
    out = {}
    for agent in env.agent_iter(5000):
        obs, reward, term, trunc, info = env.last()
        if term:
            out[agent] = (reward, info)
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return out


def test_vp_margin_is_zero_sum():
    e = dday.raw_env(reward="vp_margin")
    e.reset(seed=4)
    out = final_rewards(e, np.random.default_rng(1))
    vp = out["resistance"][1]["vp"]
    assert out["resistance"][0] == pytest.approx((vp["resistance"] - vp["german"]) / 150)
    assert out["german"][0] == pytest.approx(-out["resistance"][0])


def test_partial_table_keeps_defaults():
    e = dday.raw_env(reward={"win": 5.0})
    e.reset(seed=5)
    rng = np.random.default_rng(2)
    seen = {}
    for agent in e.agent_iter(5000):
        obs, reward, term, trunc, info = e.last()
        if term:
            seen[agent] = (info["outcome"], reward)
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    table = {"win": 5.0, "draw": 0.0, "loss": -1.0}
    for outcome, reward in seen.values():
        assert reward == table[outcome]


def test_illegal_action_raises_in_raw_env_and_terminates_in_env():
    raw = dday.raw_env()
    raw.reset(seed=0)
    before = raw.save_state()
    with pytest.raises(ValueError, match=r"guess:caen:1.*allocation"):
        raw.step(dday.action_from_str("guess:caen:1"))
    assert raw.save_state() == before
    wrapped = dday.env()
    wrapped.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(dday.action_from_str("guess:caen:1"))
    assert all(wrapped.terminations.values())
    assert wrapped.rewards["german"] == -1 and wrapped.rewards["resistance"] == 0


def test_unknown_options_warn_and_known_ones_apply():
    e = dday.raw_env()
    with pytest.warns(UserWarning, match="bogus"):
        e.reset(seed=0, options={"bogus": 1, "allocation": ALLOCATION, "attack": ["caen", "lison"]})
    sd = e.state_dict()
    assert sd["phase"] == "order" and sd["attacked"] == ["caen", "lison"]
    assert e.agent_selection == "resistance"
    with pytest.raises(ValueError):
        e.reset(options={"attack": ["caen", "lison"]})  # needs allocation
    with pytest.raises(ValueError):
        e.reset(options={"allocation": {**ALLOCATION, "caen": ["vip"]}})


def test_information_property_resistance_sees_no_unrevealed_zone():
    other = dict(ALLOCATION)
    # Swap the contents of two zones that are not attacked.
    other["saint_lo"], other["avranches"] = ALLOCATION["avranches"], ALLOCATION["saint_lo"]
    obs = []
    for alloc in (ALLOCATION, other):
        e = dday.raw_env()
        e.reset(seed=0, options={"allocation": alloc, "attack": ["caen", "bayeux"]})
        obs.append(e.observe("resistance")["observation"])
    np.testing.assert_array_equal(obs[0], obs[1])
    g = []
    for alloc in (ALLOCATION, other):
        e = dday.raw_env()
        e.reset(seed=0, options={"allocation": alloc, "attack": ["caen", "bayeux"]})
        g.append(e.observe("german")["observation"])
    assert not np.array_equal(g[0], g[1])


def test_load_state_refuses_what_is_not_a_save():
    # The round trip of save, load, clone and pickle is checked for both games in test_two_player_envs.
    loaded = dday.raw_env()
    loaded.reset(seed=99)
    with pytest.raises(ValueError):
        loaded.load_state('{"format": "nope"}')
    with pytest.raises(TypeError):
        loaded.load_state(3)


def test_state_dict_keys():
    e = dday.raw_env()
    e.reset(seed=0)
    sd = e.state_dict()
    for k in ("phase", "to_move", "allocation", "zone_values", "interrogation", "attacked", "order",
              "skirmish_index", "skirmish", "records", "vp", "dice_log", "outcome"):
        assert k in sd


def test_render_without_mode_warns_and_returns_none():
    e = dday.raw_env()
    e.reset(seed=0)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert e.render() is None
    with pytest.raises(ValueError):
        dday.raw_env(render_mode="pictures")


def test_human_render_mode_prints_the_text_view_where_a_game_lists_it(capsys):
    # The shared AEC base shows "human" as PettingZoo does (printed, None returned) for a game
    # whose metadata lists it; D-Day itself lists only "ansi" and "rgb_array".
    class HumanDDay(dday.DDayAECEnv):
        metadata = {**dday.DDayAECEnv.metadata, "render_modes": ["ansi", "rgb_array", "human"]}

    e = HumanDDay(render_mode="human")
    e.reset(seed=0)
    text = dday.raw_env(render_mode="ansi")
    text.load_state(e.save_state())
    assert e.render() is None
    assert capsys.readouterr().out == text.render() + "\n"


def test_dday_q0_the_german_decides_all_11_allocation_steps_whatever_his_allocation():
    """RULES Q0's ruling (2026-11-28): every allocation step is the German's decision, one legal
    zone or not, so the deciders the Resistance sees (`agent_selection`) are the same for every
    hidden allocation: 11 German decisions, then the Resistance's interrogation."""
    from maquis.dday.agents import HeuristicAgent

    e = dday.raw_env()
    forced, traces = 0, set()
    for seed in range(300):
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        heuristic = HeuristicAgent(seed) if seed % 2 else None
        trace = []
        while e.state_dict()["phase"] == "allocation":
            trace.append(e.agent_selection)
            obs = e.observe(e.agent_selection)
            legal = np.flatnonzero(obs["action_mask"])
            forced += len(legal) == 1
            if heuristic is not None:
                a = heuristic.act(obs["observation"], obs["action_mask"].astype(bool))
            else:
                a = int(rng.choice(legal))
            e.step(int(a))
        traces.add((tuple(trace), e.agent_selection, e.state_dict()["phase"]))
    assert traces == {(("german",) * 11, "resistance", "interrogation")}
    assert forced > 100  # allocations with one-zone steps were played, and asked all the same

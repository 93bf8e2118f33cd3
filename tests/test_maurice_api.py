"""The module-level API of `maquis.maurice` (docs/api/maurice.md "Identifiers and tables",
"Actions", "Observation"): constants, action names, layouts, divisors, cards, scenarios, and the
extension's submodule `maquis._core.maurice`."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import maquis  # noqa: E402
import maquis.maurice as maurice  # noqa: E402

LAYOUT = [
    ("self", 0, 2), ("phase", 2, 21), ("to_move", 23, 2), ("active", 25, 2), ("round", 27, 1),
    ("morale", 28, 4), ("hand", 32, 29), ("hand_new", 61, 29), ("hand_sizes", 90, 2), ("deck_size", 92, 1),
    ("discard", 93, 29), ("removed", 122, 1), ("command", 123, 6), ("activation", 129, 4),
    ("interrupt", 133, 3), ("modifiers", 136, 116), ("volley", 252, 3), ("night", 255, 1), ("cinc", 256, 4),
    ("displaced", 260, 2), ("owed", 262, 2), ("aim", 264, 8), ("moving", 272, 12), ("units", 284, 800),
    ("planes", 1084, 20250),
]


def test_constants():
    m = maurice
    assert m.SIDES == ("blue", "red")
    assert m.UNIT_TYPES == ("inf", "cav", "art")
    assert m.FORMATIONS == ("line", "column", "massed", "artillery")
    assert m.FACINGS == ("n", "e", "s", "w")
    assert m.TERRAINS == ("open", "woods", "rough", "marsh", "lake")
    assert m.COMMANDS == ("pass", "event", "march", "charge", "bombard", "rally")
    assert len(m.PHASES) == 21 and m.PHASES[0] == "volley_choice" and m.PHASES[-1] == "game_over"
    assert m.SCENARIOS == ("standard", "skirmish")
    assert len(m.PLANES) == 15 and m.PLANES[0] == "woods" and m.PLANES[-1] == "enemy_cinc"
    assert len(m.UNIT_FEATURES) == 25 and m.UNIT_FEATURES[0] == "present" and m.UNIT_FEATURES[-1] == "moving"
    assert (m.WIDTH, m.HEIGHT, m.MAX_UNITS, m.DECK_SIZE) == (45, 30, 16, 40)
    assert (m.NUM_ACTIONS, m.OBSERVATION_SIZE, m.COMPACT_OBSERVATION_SIZE) == (1447, 21334, 1084)
    assert maquis._core.maurice.NUM_ACTIONS == 1447  # the extension's own submodule


def test_action_names_follow_the_blocks():
    names = maurice.ACTION_NAMES
    assert len(names) == 1447 == len(set(names))
    assert names[:2] == ("volley", "no_volley")
    assert names[2:7] == ("pass", "march", "charge", "bombard", "rally")
    assert names[7:15] == ("confirm_force", "give_up", "decline", "end_fire", "unit_done", "unit_cancel",
                           "end_moves", "end_charges")
    assert names[15:20] == ("aim:left", "aim:right", "charge:straight", "charge:oblique_left", "charge:oblique_right")
    assert names[20] == "move:forward" and names[32] == "move:about_face"
    assert names[33] == "form:line_left" and names[51] == "form:line_rear_both"
    assert names[52] == "unit:0" and names[67] == "unit:15"
    assert names[68] == "card:unexpected_delay" and names[96] == "card:orders_16"
    assert names[97] == "cell:0:0" and names[97 + 45 * 7 + 3] == "cell:3:7" and names[-1] == "cell:44:29"
    for i in (0, 9, 52, 68, 97, 1446):
        assert maurice.action_to_str(i) == names[i] and maurice.action_from_str(names[i]) == i
        assert maurice.action_to_str(np.int64(i)) == names[i]
    with pytest.raises(ValueError, match="1447"):
        maurice.action_to_str(1447)
    with pytest.raises(ValueError):
        maurice.action_from_str("cell:45:0")
    with pytest.raises(TypeError):
        maurice.action_to_str("1")


def test_layouts():
    assert list(maurice.OBSERVATION_LAYOUT) == LAYOUT
    assert list(maurice.COMPACT_OBSERVATION_LAYOUT) == LAYOUT[:-1]
    assert maurice.observation_layout("full") is maurice.OBSERVATION_LAYOUT
    assert maurice.observation_layout("compact") is maurice.COMPACT_OBSERVATION_LAYOUT
    with pytest.raises(ValueError, match="compact"):
        maurice.observation_layout("planes")


def test_divisors_follow_the_spec():
    d = maurice.OBSERVATION_DIVISOR
    assert d.dtype == np.uint8 and d.shape == (21334,) and (d >= 1).all() and not d.flags.writeable
    at = {name: (off, n) for name, off, n in maurice.OBSERVATION_LAYOUT}

    def part(name):
        off, n = at[name]
        return d[off:off + n].tolist()

    assert part("round") == [255] and part("morale") == [8] * 4 and part("hand_sizes") == [40, 40]
    assert part("hand") == [2] * 29 and part("removed") == [2] and part("activation") == [40, 64, 1, 1]
    assert part("cinc") == [44, 29, 44, 29] and part("owed") == [10, 1]
    assert part("aim") == [1, 1, 1, 1, 44, 29, 44, 29]
    assert part("moving") == [20, 20, 1, 1, 1, 1, 1, 1, 4, 44, 29, 1]
    row = part("units")[:25]
    assert row[12:15] == [44, 29, 4] and row[23] == 64 and row.count(1) == 21
    assert part("units") == row * 32
    assert set(part("planes")) == {1} and set(part("phase")) == {1}


def test_observation_float32():
    env = maurice.MauriceEnv(opponent="random", observation_dtype="uint8")
    obs, _ = env.reset(seed=3)
    f = maurice.observation_float32(obs)
    assert f.dtype == np.float32 and f.shape == (21334,) and f.min() >= 0 and f.max() <= 1
    g = maurice.observation_float32(obs[:1084])
    assert g.shape == (1084,) and np.array_equal(g, f[:1084])
    assert maurice.observation_float32(f) is f
    with pytest.raises(ValueError, match="21334"):
        maurice.observation_float32(np.zeros(100, np.uint8))


def test_cards():
    cards = maurice.CARDS
    assert len(cards) == 30 and sum(c["copies"] for c in cards) == 40
    assert [c["index"] for c in cards] == list(range(30))
    assert all(set(c) == {"index", "id", "name", "span", "symbol", "mark", "copies", "effect"} for c in cards)
    assert cards[0]["id"] == "unexpected_delay" and cards[0]["mark"] == "interrupt"
    assert cards[-1]["id"] == "reshuffle" and cards[-1]["span"] is None and cards[-1]["effect"]
    assert [c["id"] for c in cards[:29]] == [n[len("card:"):] for n in maurice.ACTION_NAMES[68:97]]
    assert {c["symbol"] for c in cards} <= {None, "charge", "march", "bombard", "rally", "volley"}
    assert {c["mark"] for c in cards} <= {None, "interrupt", "event"}
    assert "stand-in" in maurice.__doc__


@pytest.mark.parametrize("name", ["standard", "skirmish"])
def test_scenario_data_is_reset_options(name):
    sc = maurice.scenario(name)
    assert set(sc) == {"terrain", "units", "cinc"}
    assert len(sc["terrain"]["rows"]) == 30 and all(len(r) == 45 for r in sc["terrain"]["rows"])
    blue, red = sc["units"]["blue"], sc["units"]["red"]
    assert len(blue) == len(red) and blue[0]["facing"] == "n" and red[0]["facing"] == "s"
    # S2: red is blue turned through 180 degrees.
    assert (red[0]["x"], red[0]["y"]) == (44 - blue[0]["x"], 29 - blue[0]["y"])
    assert sc["cinc"]["red"] == [44 - sc["cinc"]["blue"][0], 29 - sc["cinc"]["blue"][1]]
    # The data goes back in as reset options and gives the scenario's own game.
    a, b = maurice.raw_env(scenario=name), maurice.raw_env(scenario=name)
    a.reset(seed=5)
    b.reset(seed=5, options={"scenario": name, **sc})
    assert a.state_dict() == b.state_dict()
    with pytest.raises(ValueError, match="scenario"):
        maurice.scenario("waterloo")


def test_exports_and_registration():
    import gymnasium

    for name in maurice.__all__:
        assert getattr(maurice, name) is not None, name
    spec = gymnasium.spec("maquis/MauriceLite-v0")
    assert spec.vector_entry_point is not None
    assert maurice.sub_env_seed is maquis.sub_env_seed

"""The Maurice Lite renderers (`maquis.maurice.render`) on positions of the real engine: the text
view in RULES S3's characters, the compact terminal view, the picture and its Scene, and what one
side may see (RULES O1–O3)."""

from __future__ import annotations

import numpy as np
import pytest

maurice = pytest.importorskip("maquis.maurice")
if not hasattr(maurice, "raw_env"):
    pytest.skip("maquis.maurice has no environments in this build", allow_module_level=True)

from maquis.common.drawing import Rect, Text, scene_to_array  # noqa: E402
from maquis.maurice.render import (  # noqa: E402
    render_ansi,
    render_compact,
    render_rgb,
    render_state,
    scene,
    side_view,
    write_png,
)
from maquis.maurice.render.view import map_grid  # noqa: E402

PLAYABLE = [c["id"] for c in maurice.CARDS for _ in range(c["copies"]) if c["span"] is not None]


def start(scenario="skirmish", seed=0, options=None):
    env = maurice.raw_env()
    env.reset(seed=seed, options={"scenario": scenario, **(options or {})})
    return env


def states(scenario="skirmish", seed=1, every=7):
    """State dicts along a random game, every `every` decisions, and the last."""
    env = start(scenario, seed)
    rng = np.random.default_rng(seed)
    out, k = [], 0
    while True:
        sd = env.state_dict()
        if k % every == 0 or sd["outcome"] is not None:
            out.append(sd)
        if sd["outcome"] is not None:
            return out
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        k += 1


@pytest.fixture(scope="module")
def game_states():
    return states()


def dealt(red_hand):
    """Card options: blue holds march_4, march_6; red `red_hand`; the rest is the deck."""
    rest = list(PLAYABLE)
    for c in ["march_4", "march_6", *red_hand]:
        rest.remove(c)
    return {"hands": {"blue": ["march_4", "march_6"], "red": list(red_hand)}, "deck": rest + ["reshuffle"] * 2,
            "first": "blue"}


def test_ansi_map_is_rules_s3_with_units_walls_and_cincs():
    sd = start("standard").state_dict()
    text = render_ansi(sd)
    lines = text.splitlines()
    row = {int(line[:2]): line[4:] for line in lines if line[:2].strip().isdigit() and line[2:4] == "  "}
    assert set(row) == set(range(30)) and all(len(r) == 45 for r in row.values())
    # RULES S3's picture of the standard deployment and terrain.
    assert row[7] == "..CC.CC..IIIIAIIII.IIIIAIIII.IIIIAIIII.CC.CC."
    assert row[22] == ".cc.cc.iiiiaiiii.iiiiaiiii.iiiiaiiii..cc.cc.."
    assert row[2][22] == "B" and row[27][22] == "R"
    assert row[16] == "##..................TTTTT...%%%%..^^^^^^....."
    assert row[11] == ".....^^^^^^................~~~~.....TTTTT...."
    # The walls on the north edges of 9-13 x 15 lie between rows 16 and 15.
    at = lines.index(next(line for line in lines if line.startswith("16  ")))
    assert lines[at + 1] == " " * 13 + "====="
    assert lines[at + 2].startswith("15  ")
    for side in ("blue", "red"):
        for u in sd["units"][side]:
            assert f"{side:<4} {u['id']:>2}  {u['type']:<3} {u['formation']:<9} facing {u['facing']}" in text
    assert "army morale: blue 8/8, red 8/8" in text
    assert "stand-in deck" in text
    assert "CinCs: blue (22,2), red (22,27)" in text


def test_map_grid_matches_the_units_cells(game_states):
    for sd in game_states:
        grid = map_grid(sd)
        for side, letters in (("blue", "ICA"), ("red", "ica")):
            for u in sd["units"][side]:
                if u["on_table"]:
                    for x, y in u["cells"]:
                        assert grid[y][x] == letters["inf cav art".split().index(u["type"])]


def test_ansi_shows_every_phase_without_failing(game_states):
    phases = set()
    for sd in game_states:
        text = render_ansi(sd)
        phases.add(sd["phase"])
        assert f"phase {sd['phase']}" in text
        assert f"deck {len(sd['deck'])}, discard {len(sd['discard'])}" in text
    assert len(phases) >= 5
    assert "GAME OVER" in render_ansi(game_states[-1])


def test_a_side_sees_its_hand_only():
    sd = start(options=dealt(["first_fire", "thick_smoke", "orders_16"])).state_dict()
    full = render_ansi(sd)
    assert "hand red (3 cards): first_fire, thick_smoke, orders_16" in full
    blue = render_ansi(sd, side="blue")
    assert "hand blue (2 cards): march_4, march_6" in blue
    assert "hand red (3 cards): hidden" in blue and "first_fire" not in blue and "thick_smoke" not in blue
    red = render_ansi(sd, side="red")
    assert "hand blue (2 cards): hidden" in red and "march_6" not in red
    view = side_view(sd, "blue")
    assert view["hands"]["red"] == [None] * 3 and view["hands"]["blue"] == ["march_4", "march_6"]
    assert view["deck"] == [None] * len(sd["deck"]) and view["viewer"] == "blue"
    assert sd["hands"]["red"] == ["first_fire", "thick_smoke", "orders_16"]  # the state is untouched
    with pytest.raises(ValueError, match="unknown side"):
        side_view(sd, "green")


def test_what_blue_sees_does_not_depend_on_reds_hand_or_the_deck():
    a = start(options=dealt(["first_fire", "thick_smoke", "orders_16"])).state_dict()
    b = start(options=dealt(["rally_4", "volley_8", "charge_10"])).state_dict()
    assert a["hands"]["red"] != b["hands"]["red"] and a["deck"] != b["deck"]
    assert render_ansi(a, side="blue") == render_ansi(b, side="blue")
    assert render_compact(a, side="blue") == render_compact(b, side="blue")
    assert np.array_equal(render_rgb(a, side="blue"), render_rgb(b, side="blue"))
    assert not np.array_equal(render_rgb(a, side="red"), render_rgb(b, side="red"))


def test_compact_view_fits_a_terminal(game_states):
    for sd in game_states:
        for side in ("blue", "red", None):
            lines = render_compact(sd, 80, 14, side).splitlines()
            assert len(lines) <= 15 and all(len(line) <= 80 for line in lines), "\n".join(lines)
    last = render_compact(game_states[-1], side="blue")
    assert "GAME OVER" in last


def _shown_rows(text):
    """The map rows a compact view shows (their labels: the number, then a space or `:`)."""
    return {int(line[:2]) for line in text.splitlines() if line[:2].strip().isdigit() and line[2:4] in ("  ", ": ")}


@pytest.fixture(scope="module")
def standard_states():
    return states("standard", seed=2, every=11)


def test_compact_view_keeps_both_armies_in_view(standard_states):
    from maquis.maurice.render.ansi import view_rows

    fits = 0
    for sd in standard_states:
        for lines in (8, 11, 14):
            rows = view_rows(sd, lines)
            text = render_compact(sd, 80, lines)
            assert _shown_rows(text) == set(rows)
            assert len(text.splitlines()) <= lines + 1
            for side in ("blue", "red"):
                army = {y for u in sd["units"][side] if u["on_table"] for _, y in u["cells"]}
                if army:
                    assert army & set(rows), (side, lines, rows)
            # Every unit's and CinC's row is shown when those rows fit (a line each, a wall line
            # between two of them, the ruler).
            units = {y for side in ("blue", "red") for u in sd["units"][side] if u["on_table"] for _, y in u["cells"]}
            units |= {y for _, y in sd["cinc"].values()}
            walled = {int(y) for _, y, edge in sd["terrain"].get("walls") or () if edge == "n"}
            if len(units) + sum(1 for y in units if y in walled and y + 1 in units) + 1 <= lines:
                fits += 1
                assert units <= set(rows)
    assert fits  # the armies' rows fit at times, and are then all shown
    # A gap in the rows shown is marked by `:` after the row number below it.
    sd = standard_states[0]
    rows = view_rows(sd, 8)
    text = render_compact(sd, 80, 8)
    gaps = [y for a, y in zip(rows[1:][::-1], rows[:-1][::-1]) if a - y > 1]
    assert gaps and all(any(line.startswith(f"{y:>2}: ") for line in text.splitlines()) for y in gaps)


def test_the_whole_armies_fit_in_fourteen_lines_at_the_start():
    from maquis.maurice.render.ansi import view_rows

    sd = start("standard", 1).state_dict()
    rows = set(view_rows(sd, 14))
    for side in ("blue", "red"):
        assert {y for u in sd["units"][side] for _, y in u["cells"]} <= rows


def _moving_state(seed=3):
    env = start("skirmish", seed)
    rng = np.random.default_rng(seed)
    while env.state_dict()["round_state"]["moving"] is None:
        assert env.state_dict()["outcome"] is None
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return env.state_dict()


def test_panel_shows_the_moving_units_spent_and_remaining_allowance():
    sd = _moving_state()
    mv = sd["round_state"]["moving"]
    text = " ".join(line[49:].strip() for line in render_compact(sd).splitlines())
    assert (f"unit {mv['id']} moving" in text
            and f"spent {mv['spent']} of {mv['allowance']} BW, {mv['allowance'] - mv['spent']} left" in text), text


def test_panel_says_what_each_modifier_changed():
    import copy

    sd = copy.deepcopy(_moving_state())
    active = sd["active"]
    passive = "red" if active == "blue" else "blue"
    r = sd["round_state"]
    r["command"] = "march"
    # The passive side's march_4 cut the moving unit's allowance from 4 to 2 (RULES K8, M6).
    r["modifiers"] = {passive: {"volley": "thick_smoke", "action": "march_4"}, active: {"volley": None, "action": None}}
    r["moving"] = {**r["moving"], "spent": 1, "allowance": 2}
    mv = r["moving"]["id"]
    text = " ".join(line[49:].strip() for line in render_compact(sd, 80, 15, active).splitlines())
    assert f"{passive}: march_4, {active}'s allowance -2 BW (unit {mv}: 4 -> 2)" in text, text
    assert "spent 1 of 2 BW, 1 left march cards 4 -> 2" in text, text
    assert f"{passive}: thick_smoke, {active}'s fire -1 to hit" in text, text
    # The active side's own march card adds 2 instead.
    r["modifiers"] = {active: {"volley": None, "action": "march_8"}, passive: {"volley": None, "action": None}}
    r["moving"]["allowance"] = 6
    text = " ".join(line[49:].strip() for line in render_compact(sd, 80, 15, active).splitlines())
    assert f"{active}: march_8, {active}'s allowance +2 BW (unit {mv}: 4 -> 6)" in text, text


def test_compact_view_follows_the_moving_unit():
    env = start("skirmish", 3)
    rng = np.random.default_rng(3)
    while env.state_dict()["round_state"]["moving"] is None:
        assert env.state_dict()["outcome"] is None
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    sd = env.state_dict()
    unit = next(u for u in sd["units"][sd["active"]] if u["id"] == sd["round_state"]["moving"]["id"])
    text = render_compact(sd)
    assert {y for _, y in unit["cells"]} <= _shown_rows(text)
    assert f"moving unit {unit['id']}" in render_ansi(sd)


def test_rgb_image_shape_type_and_determinism(game_states):
    a = render_rgb(game_states[0])
    assert a.shape == (720, 960, 3) and a.dtype == np.uint8
    assert np.array_equal(a, render_rgb(game_states[0]))
    assert render_rgb(game_states[0], width=480).shape == (360, 480, 3)
    with pytest.raises(ValueError):
        render_rgb(game_states[0], width=4)
    assert not np.array_equal(a, render_rgb(game_states[-1]))


def test_scene_is_what_the_picture_draws_and_carries_the_information(game_states):
    sd = game_states[0]
    sc = scene(sd)
    assert np.array_equal(scene_to_array(sc), render_rgb(sd))
    texts = " ".join(i.text for i in sc.items if isinstance(i, Text))
    assert "MAURICE LITE" in texts and "stand-in deck" in texts and "ARMY MORALE" in texts
    titles = [i.title or "" for i in sc.items]
    for side in ("blue", "red"):
        for u in sd["units"][side]:
            assert sum(t.startswith(f"{side} {u['id']}: ") for t in titles) == len(u["cells"])
    assert any(t == "blue CinC at (22,4)" for t in titles)


def test_scene_tags_the_deciders_units_cards_and_cells():
    env = start(options=dealt(["first_fire", "thick_smoke", "orders_16"]))
    sd = env.state_dict()
    tagged = {i.action for i in scene(sd).items if i.action is not None}
    # volley_choice: blue decides; his units and his cards are tagged, red's units are not.
    assert {maurice.action_from_str(f"unit:{u['id']}") for u in sd["units"]["blue"]} <= tagged
    assert maurice.action_from_str("card:march_6") in tagged
    assert maurice.action_from_str("card:first_fire") not in tagged
    assert not any(a >= maurice.action_from_str("cell:0:0") for a in tagged)
    seen_by_blue = [i for i in scene(sd, side="blue").items if isinstance(i, Text)]
    assert not any("first_fire" in t.text for t in seen_by_blue)
    assert any("RED HAND (3)" in t.text for t in seen_by_blue)


def test_cells_are_tagged_when_the_cinc_moves():
    env = start("skirmish", 0)
    rng = np.random.default_rng(0)
    while env.state_dict()["phase"] != "cinc_move":
        assert env.state_dict()["outcome"] is None
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    sd = env.state_dict()
    cells = [i for i in scene(sd).items if isinstance(i, Rect) and i.action is not None
             and i.action >= maurice.action_from_str("cell:0:0")]
    assert len(cells) == 45 * 30
    mask = env.observe(env.agent_selection)["action_mask"]
    assert {int(i) for i in np.flatnonzero(mask) if i >= 97} <= {c.action for c in cells}


def test_render_state_modes_and_the_env_render(capsys):
    sd = start().state_dict()
    assert render_state(sd, "ansi") == render_ansi(sd)
    assert render_state(sd, "rgb_array").shape == (720, 960, 3)
    assert render_state(sd, "human") is None and "MAURICE LITE" in capsys.readouterr().out
    with pytest.raises(ValueError, match="render mode"):
        render_state(sd, "svg")
    env = maurice.raw_env(scenario="skirmish", render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == render_ansi(env.state_dict())
    env = maurice.MauriceEnv(scenario="skirmish", render_mode="rgb_array", opponent="random")
    env.reset(seed=0)
    assert env.render().shape == (720, 960, 3)


def test_png_file(tmp_path):
    path = tmp_path / "board.png"
    write_png(path, render_rgb(start().state_dict(), width=320))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_human_render_mode_of_the_aec_and_single_envs(capsys):
    # "human" prints the text view and returns None (PettingZoo's convention), in both envs.
    from pettingzoo.test import render_test

    render_test(maurice.env)  # builds the env with render_mode="human", then every listed mode
    assert "MAURICE LITE" in capsys.readouterr().out
    for env in (maurice.raw_env(scenario="skirmish", render_mode="human"),
                maurice.MauriceEnv(scenario="skirmish", opponent="random", render_mode="human")):
        assert "human" in env.metadata["render_modes"]
        env.reset(seed=3)
        assert env.render() is None
        assert capsys.readouterr().out == render_ansi(env.unwrapped.state_dict()) + "\n"
    with pytest.raises(ValueError, match="render_mode"):
        maurice.MauriceVectorEnv(2, render_mode="human")

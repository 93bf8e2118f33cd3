"""maquis.dday.render: the text view, the image and one side's view, on state dicts of real games
(tests/data/dday_states.json, dumped by `cargo run --release --example dday_states -- <seed>`)."""

from __future__ import annotations

import copy
import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import maquis.dday as dday
from maquis.common import drawing
from maquis.common.terminal import SCREEN_HEIGHT, SCREEN_WIDTH
from maquis.dday.render import render_ansi, render_rgb, render_state, scene, side_view, write_png
from maquis.dday.render.ansi import render_compact

STATES = json.loads((Path(__file__).parent / "data" / "dday_states.json").read_text())
ZONES = ("caen", "bayeux", "lison", "saint_lo", "avranches")


@pytest.fixture(params=sorted(STATES))
def sd(request):
    return copy.deepcopy(STATES[request.param])


def test_ansi_shows_the_campaign_in_every_phase(sd):
    text = render_ansi(sd)
    assert text.startswith(f"D-DAY 1944 | phase {sd['phase']}")
    for name in ("Caen", "Bayeux", "Lison", "Saint Lo", "Avranches"):
        assert name in text
    assert f"guesses left: {sd['interrogation']['guesses_left']}" in text
    assert f"VICTORY POINTS: resistance {sd['vp']['resistance']}, german {sd['vp']['german']}" in text
    assert text.isascii()


def test_ansi_skirmish_table_places_figures_markers_and_the_acting_figure():
    sd = STATES["actions_casualty_cover"]
    sk = sd["skirmish"]
    text = render_ansi(sd)
    rows = {line.split("|")[0].strip(): [c.strip() for c in line.split("|")[1:7]] for line in text.splitlines() if line.count("|") == 7}
    header = rows["section"]
    assert header[sk["task_section"] - 1] == f"{sk['task_section']}T"
    for key, cells in rows.items():
        if key in ("section",) or key.startswith("fresh"):
            continue
        unit, state = key.split(" ")
        for n, cell in enumerate(cells, 1):
            if state == "casualties":
                want = sum(1 for f in sk["figures"] if f["side"] == unit and f["state"] == "casualty" and f["section"] == n)
                assert cell == (f"x{want}" if want else "")
            else:
                want = sum(1 for f in sk["figures"] if (f["unit"], f["state"], f["section"]) == (unit, state, n))
                assert cell.rstrip("*") == (str(want) if want else "")
    acting = next(f for f in sk["figures"] if f["id"] == sk["acting"])
    assert rows[f"{acting['unit']} {acting['state']}"][acting["section"] - 1].endswith("*")
    assert f"acting: figure {acting['id']} ({acting['unit']}, section {acting['section']}" in text
    for pool, ap in sk["pools"].items():
        assert f"{pool} {ap} AP" in text
    assert f"clock {sk['clock']}" in text
    assert f"the train: vip" in text


def test_ansi_shows_the_task_sets_pending_roll_records_and_vp_lines():
    text = render_ansi(STATES["clock"])
    sk = STATES["clock"]["skirmish"]
    assert f"pending roll: clock {sk['pending']['dice']}" in text
    held = "".join(str(n) if n in sk["task"]["resistance"] else "." for n in range(1, 7))
    assert f"task sets: resistance {held}" in text
    scoring = render_ansi(STATES["scoring"])
    assert "pending roll: vp" in scoring
    end = STATES["game_over"]
    text = render_ansi(end)
    assert "THE RESISTANCE WINS" in text if end["outcome"] == "resistance" else "WINS" in text or "DRAW" in text
    for line in end["vp"]["lines"]:
        assert line["line"] in text
    for i, r in enumerate(end["records"], 1):
        assert f"{i}. " in text and f"completed by {r['completed'] or 'nobody'}" in text
    hit = render_ansi(STATES["hit"])
    p = STATES["hit"]["skirmish"]["pending"]
    assert f"pending: a hit from section {p['from']} on section {p['to']}" in hit


def test_side_view_hides_unattacked_zones_from_the_resistance(sd):
    original = copy.deepcopy(sd)
    view = side_view(sd, "resistance")
    assert sd == original, "side_view must not change its argument"
    seen = set(sd["attacked"] or ())
    assert view["hidden"] == [z for z in ZONES if z not in seen]
    for z in ZONES:
        if z in seen:
            assert view["allocation"][z] == sd["allocation"][z]
        else:
            assert view["allocation"][z] is None and view["zone_values"][z] is None
    german = side_view(sd, "german")
    assert german["allocation"] == sd["allocation"] and german["hidden"] == []


def test_side_view_of_an_unknown_side_is_refused():
    with pytest.raises(ValueError, match="unknown side 'allies'"):
        side_view(STATES["clock"], "allies")


def _with_other_hidden_contents(sd):
    """The same public state with the unattacked zones' contents swapped around (still shown to
    the German, never to the Resistance)."""
    other = copy.deepcopy(sd)
    hidden = [z for z in ZONES if z not in (sd["attacked"] or ())]
    contents = [other["allocation"][z] for z in hidden]
    values = [other["zone_values"][z] for z in hidden]
    for z, c, v in zip(hidden, contents[1:] + contents[:1], values[1:] + values[:1]):
        other["allocation"][z], other["zone_values"][z] = c, v
    return other


@pytest.mark.parametrize("name", ["interrogation", "actions_casualty_cover", "game_over"])
def test_the_resistance_view_does_not_depend_on_what_it_cannot_see(name):
    sd = STATES[name]
    other = _with_other_hidden_contents(sd)
    assert other["allocation"] != sd["allocation"]
    assert render_ansi(side_view(sd, "resistance")) == render_ansi(side_view(other, "resistance"))
    assert np.array_equal(render_rgb(side_view(sd, "resistance")), render_rgb(side_view(other, "resistance")))
    assert render_ansi(side_view(sd, "german")) != render_ansi(side_view(other, "german"))
    text = render_ansi(side_view(sd, "resistance"))
    for z in ZONES:
        if z not in (sd["attacked"] or ()):
            row = next(line for line in text.splitlines() if line.strip().startswith(z.replace("_", " ").title()))
            assert "?" in row and "squad" not in row and "gendarme" not in row


def test_rgb_image_shape_type_and_determinism(sd):
    img = render_rgb(sd)
    assert img.shape == (720, 960, 3) and img.dtype == np.uint8
    assert np.array_equal(img, render_rgb(copy.deepcopy(sd)))
    assert img.std() > 10  # something is drawn


def test_rgb_scales_and_refuses_tiny_widths():
    assert render_rgb(STATES["clock"], width=480).shape == (360, 480, 3)
    assert render_rgb(STATES["clock"], width=1920).shape == (1440, 1920, 3)
    with pytest.raises(ValueError, match="width"):
        render_rgb(STATES["clock"], width=8)


def test_rgb_draws_hidden_zones_differently_and_the_outcome_banner():
    sd = STATES["interrogation"]
    assert not np.array_equal(render_rgb(sd), render_rgb(side_view(sd, "resistance")))
    end = STATES["game_over"]
    banner = render_rgb(end)[300:360, 200:760]
    no_banner = dict(end, outcome=None)
    assert not np.array_equal(banner, render_rgb(no_banner)[300:360, 200:760])


def test_the_image_marks_casualties_cover_and_the_task_section():
    sd = STATES["actions_casualty_cover"]
    img = render_rgb(sd).astype(int)
    sk = sd["skirmish"]
    # the task section's field is drawn in its own colour
    def field(n):
        x = 8 + (n - 1) * 157 + 140
        return tuple(img[430, x])
    task = sk["task_section"]
    others = {field(n) for n in range(1, 7) if n != task}
    assert len(others) == 1 and field(task) not in others
    # moving a casualty marker to another section changes the picture there
    moved = copy.deepcopy(sd)
    fig = next(f for f in moved["skirmish"]["figures"] if f["state"] == "casualty")
    fig["section"] = 5 if fig["section"] != 5 else 4
    assert not np.array_equal(render_rgb(moved), render_rgb(sd))


def test_render_state_modes():
    sd = STATES["clock"]
    assert render_state(sd, "ansi") == render_ansi(sd)
    assert np.array_equal(render_state(sd, "rgb_array"), render_rgb(sd))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert render_state(sd, None) is None
    assert any("render mode" in str(w.message) for w in caught)
    with pytest.raises(ValueError, match="unknown render mode 'pictures'"):
        render_state(sd, "pictures")


def test_human_render_mode_prints_the_text_view(capsys):
    sd = STATES["clock"]
    assert render_state(sd, "human") is None
    assert capsys.readouterr().out == render_ansi(sd) + "\n"


def test_pettingzoo_render_test_passes(capsys):
    # PettingZoo's render_test builds the env with render_mode="human", then every listed mode.
    from pettingzoo.test import render_test

    import maquis.dday as dday

    render_test(dday.env)
    assert "D-DAY 1944" in capsys.readouterr().out
    env = dday.raw_env(render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    assert capsys.readouterr().out == render_ansi(env.state_dict()) + "\n"


def test_png_file(tmp_path):
    path = tmp_path / "board.png"
    write_png(path, render_rgb(STATES["game_over"], width=320))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _texts(sc):
    return [item.text for item in sc.items if isinstance(item, drawing.Text)]


def test_scene_is_what_the_picture_draws_and_carries_the_information(sd):
    sc = scene(sd)
    assert np.array_equal(drawing.scene_to_array(sc), render_rgb(sd))
    text = " ".join(_texts(sc))
    for name in ("CAEN", "BAYEUX", "LISON", "SAINT LO", "AVRANCHES"):
        assert name in text
    vp = sd["vp"]
    assert f"resistance {vp['resistance']}  german {vp['german']}" in text
    if sd.get("skirmish") and sd.get("outcome") is None:
        assert f"CLOCK {sd['skirmish']['clock']}" in text
    if sd.get("outcome") is not None:
        assert "wins" in text or "Draw" in text


def test_scene_of_a_side_hides_what_it_may_not_see():
    sd = STATES["interrogation"]
    assert scene(sd, side="resistance") == scene(side_view(sd, "resistance"))
    assert "HIDDEN" in _texts(scene(sd, side="resistance")) and "HIDDEN" not in _texts(scene(sd))
    other = _with_other_hidden_contents(sd)
    assert scene(sd, side="resistance") == scene(other, side="resistance")
    with pytest.raises(ValueError, match="unknown side"):
        scene(sd, side="allies")


def test_scene_tags_figures_with_their_actions():
    sd = STATES["actions_casualty_cover"]
    tags = {dday.ACTION_NAMES[item.action] for item in scene(sd).items if item.action is not None}
    assert tags and all(t.startswith("activate:") for t in tags)
    sk = sd["skirmish"]
    acting = next(f for f in sk["figures"] if f["id"] == sk["acting"])
    assert f"activate:{acting['unit']}:{acting['section']}:{acting['state']}" in tags
    # When a hit awaits, the target section's figures stand for taking it.
    hit = STATES["hit"]
    tags = {dday.ACTION_NAMES[item.action] for item in scene(hit).items if item.action is not None}
    assert tags and all(t.startswith("hit:") for t in tags)


def test_compact_view_fits_a_terminal(sd):
    for view in (sd, side_view(sd, "resistance"), side_view(sd, "german")):
        lines = render_compact(view).splitlines()
        assert len(lines) <= 20 and max(len(line) for line in lines) <= SCREEN_WIDTH
        text = "\n".join(lines)
        assert text.isascii() and f"VP {sd['vp']['resistance']}-{sd['vp']['german']}" in text
        assert f"guesses left {sd['interrogation']['guesses_left']}" in text
        for name in ("Caen", "Bayeux", "Lison", "Saint Lo", "Avranches"):
            assert name in text
    assert SCREEN_HEIGHT == 24

"""Tests of maquis.maquis.render on hand-built state dicts (API.md ``state_dict()``); the rule tables the
renderers read are the engine's (``maquis.maquis.tables``)."""

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import maquis
from maquis import render, tables
from maquis.common import drawing
from maquis.maquis.render import labels, layout
from maquis.maquis.render.ansi import render_compact
from maquis.maquis.tables import LOCATIONS, RESOURCES


def initial_state(missions=(("sabotage", 3), ("aid_the_spy", 2)), deck=(4, 1, 7, 0, 9, 2, 5, 8, 3, 6)):
    """A valid state_dict (API.md) of a normal game at the start of day 0."""
    return {
        "day": 0,
        "pass": 1,
        "phase": "placement",
        "morale": 6,
        "soldiers": 0,
        "hand": {r: 0 for r in RESOURCES},
        "supply": {r: 4 for r in RESOURCES},
        "workers": {"available": 3, "placed": 0, "stuck": 0, "recruitable": 2, "gone": 0},
        "board": {
            loc: {
                "pawn": None,
                "stuck_worker": False,
                "fake_id": False,
                "airdrop": {},
                "aa_gun": False,
                "tile": None,
                "tagged": False,
                "visited": False,
            }
            for loc in LOCATIONS
        },
        "missions": [
            {
                "id": mid,
                "slot": slot,
                "boxes_done": 0,
                "boxes": boxes,
                "complete": False,
                "failed": False,
                "tier": None,
            }
            for (mid, boxes), slot in zip(missions, ("mission_a", "mission_b"))
        ],
        "patrol_deck": list(deck),
        "patrol_discard": [],
        "shot_today": False,
        "closed_roads": [],
        "dark_lady": None,
        "outcome": None,
        "difficulty": "normal",
    }


def busy_state():
    """Day 5, action phase: pawns of every kind, a tile, an airdrop, marks, a closed bridge."""
    sd = initial_state(missions=(("infiltration", 2), ("officers_mansion", 1)), deck=(8, 2, 6, 0, 9, 1))
    sd.update(
        day=5,
        phase="action",
        morale=5,
        soldiers=1,
        shot_today=True,
        patrols_today=3,
        patrol_discard=[3, 7, 5, 4],
        closed_roads=[["black_market", "pont_du_nord"]],
        dark_lady="doctor",
        peek=8,
    )
    sd["hand"].update(intel=1, food=2, money=1, fake_id=1)
    sd["supply"].update(intel=1, food=1, money=2, weapon=3, fake_id=2)
    sd["workers"] = {"available": 1, "placed": 2, "stuck": 1, "recruitable": 1, "gone": 0}
    board = sd["board"]
    board["fence"].update(pawn="worker", fake_id=True)
    board["grocer"]["pawn"] = "worker"
    board["radio_a"]["pawn"] = "milice"
    board["pont_leveque"].update(pawn="soldier", tagged=True)
    board["mission_a"].update(stuck_worker=True)
    board["spare_room_ne"]["tile"] = "forger"
    board["field_w"]["airdrop"] = {"weapon": 1}
    board["rue_baradat"].update(tagged=True, visited=True)
    sd["missions"][0]["boxes_done"] = 1
    return sd


BUSY_ANSI = """\
MAQUIS  normal  day 5  phase action
awaiting: activate a placed worker (2 on the board)
day       START 1 2 3! 4 [5] 6! 7 8 9! 10 11 12! 13 14! END   (! morale -1)
morale    FAIL 1 2 3 4 [5] 6 7   min patrols 3
soldiers  0 [1] 2 3 4 5   milice left 4
missions
  mission_a  infiltration (1*)                boxes 1/2  in progress
  mission_b  officers_mansion (0*)            boxes 0/1  in progress
board
  mission_a      -                stuck worker
  mission_b      -
  fence          worker+fake_id
  pont_du_nord   -
  radio_b        -
  rue_baradat    -                tagged, visited
  poor_district  -
  black_market   -
  doctor         -                DARK LADY
  spare_room_ne  -                tile forger
  radio_a        milice
  pont_leveque   soldier          tagged
  grocer         worker
  spare_room_w   -
  spare_room_se  -
  field_w        -                airdrop 1 weapon
  cafe           -
  safe_house     -
  field_e        -
resources intel food medicine money weapon explosive poison fake_id
  hand        1    2        0     1      0         0      0       1
  supply      1    1        4     2      3         4      4       2
workers   available 1, placed 2, stuck 1, recruitable 1, gone 0
patrols   deck 6 (order hidden), discard 4, patrols today 3, shot today yes
  discard #3 radio_a > pont_leveque > black_market
          #7 fence > pont_du_nord > pont_leveque
          #5 pont_leveque > black_market > doctor
          #4 radio_a > rue_baradat > grocer
  top     #8 grocer > pont_du_nord > fence   (seen by the mole)
closed roads  black_market-pont_du_nord
dark lady  doctor
"""


def test_ansi_snapshot_of_a_busy_position():
    assert render.render_ansi(busy_state()) == BUSY_ANSI


def test_ansi_initial_position():
    text = render.render_ansi(initial_state())
    assert text.isascii() and "\x1b" not in text
    assert "awaiting: place a worker (3 still to place)" in text
    assert "day       [START] 1 2 3! " in text
    assert "morale    FAIL 1 2 3 4 5 [6] 7   min patrols 3" in text
    assert "  mission_a  sabotage (1*)" in text and "  mission_b  aid_the_spy (2*)" in text
    assert "deck 10 (order hidden), discard 0" in text
    assert "closed roads  none" in text


def test_ansi_color_adds_escape_codes_only_when_asked():
    sd = busy_state()
    coloured = render.render_ansi(sd, color=True)
    assert "\x1b[34mmilice" in coloured and "\x1b[31msoldier" in coloured
    plain = coloured
    for code in ("\x1b[0m", "\x1b[1m", "\x1b[2m", "\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[34m"):
        plain = plain.replace(code, "")
    assert plain == render.render_ansi(sd)


def test_ansi_game_over_and_post_action():
    sd = busy_state()
    sd.update(phase="post_action", pending="grocer")
    text = render.render_ansi(sd)
    assert "the worker at grocer is cut off: shoot a Milice or accept" in text
    assert "grocer         worker           <- route check pending" in text
    sd.update(phase="game_over", outcome="draw", day=15)
    text = render.render_ansi(sd)
    assert "GAME OVER: draw" in text and "day END" in text


def test_ansi_short_game_and_second_pass():
    sd = initial_state()
    sd["difficulty"] = "hard"
    text = render.render_ansi(sd)
    # D1: hard loses morale on triangle days and ends on day 12.
    assert "[START] 1 2! 3 4 5! 6 7 8! 9 10! 11 12!   (! morale -1, ends on day 12)" in text
    sd.update(difficulty="very_easy", day=3)
    sd["pass"] = 2
    assert "day 3 (pass 2)" in render.render_ansi(sd)


def test_renderers_hide_the_patrol_deck_order():
    # P2: the deck order is hidden; only its size may show.
    a, b = busy_state(), busy_state()
    b["patrol_deck"] = list(reversed(a["patrol_deck"]))
    assert render.render_ansi(a) == render.render_ansi(b)
    assert np.array_equal(render.render_rgb(a), render.render_rgb(b))


def test_renderers_ignore_unknown_keys():
    sd = busy_state()
    sd["something_new"] = {"x": 1}
    assert render.render_ansi(sd) == BUSY_ANSI
    assert render.render_rgb(sd).shape == (720, 960, 3)


def test_patrol_cards_and_roads_match_rules():
    # P1 and B3, as the engine plays them.
    assert len(render.PATROL_CARDS) == 10
    assert render.PATROL_CARDS[3] == ("radio_a", "pont_leveque", "black_market")
    assert len(render.ROADS) == 23
    assert {loc for road in render.ROADS for loc in road} == set(LOCATIONS)


def test_display_data_names_every_piece_of_the_engine():
    # The words and positions are the renderer's own; the set of pieces is the engine's.
    assert set(layout.LAYOUT) == set(tables.LOCATIONS) == set(labels.LABELS)
    assert layout.BOARD_ORDER == tuple(layout.LAYOUT)
    assert set(labels.TILE_LABELS) == set(tables.TILES)
    assert set(labels.MISSION_TEXT) == set(tables.MISSIONS)
    assert set(labels.RESOURCE_NAMES) == set(labels.RESOURCE_SHORT) == set(tables.RESOURCES)
    assert set(labels.SHORT) == set(tables.PATROL_LOCATIONS)


@pytest.mark.parametrize("width", [960, 640, 1280])
def test_rgb_shape_and_dtype(width):
    img = render.render_rgb(initial_state(), width=width)
    assert img.dtype == np.uint8
    assert img.shape == (round(width * 3 / 4), width, 3)


def test_rgb_changes_with_the_state():
    base = render.render_rgb(initial_state())
    assert base.std() > 20  # something is drawn

    def changed(edit):
        sd = initial_state()
        edit(sd)
        return not np.array_equal(render.render_rgb(sd), base)

    assert changed(lambda sd: sd["board"]["fence"].update(pawn="worker"))
    assert changed(lambda sd: sd["board"]["doctor"].update(pawn="milice"))
    assert changed(lambda sd: sd.update(morale=5))
    assert changed(lambda sd: sd.update(day=1))
    assert changed(lambda sd: sd["hand"].update(weapon=1))
    assert changed(lambda sd: sd["missions"][0].update(boxes_done=1))
    assert changed(lambda sd: sd.update(closed_roads=[["rue_baradat", "fence"]]))
    assert changed(lambda sd: sd["board"]["field_e"].update(airdrop={"food": 3}))


def test_rgb_pawn_colours_at_the_board_position():
    sd = initial_state()
    empty = render.render_rgb(sd).astype(int)
    sd["board"]["grocer"]["pawn"] = "soldier"
    soldier = render.render_rgb(sd).astype(int)
    diff = np.abs(soldier - empty).sum(axis=2) > 0
    ys, xs = np.nonzero(diff)
    # The soldier is drawn inside the grocer's box (BOARD_LAYOUT.md: x 71 %, y 61 % of the board).
    assert 400 < xs.mean() < 500 and 440 < ys.mean() < 530
    reds = soldier[diff]
    assert ((reds[:, 0] > 150) & (reds[:, 1] < 80)).sum() > 100


def test_rgb_game_over_banner():
    sd = busy_state()
    before = render.render_rgb(sd)
    sd.update(phase="game_over", outcome="win")
    assert not np.array_equal(render.render_rgb(sd), before)


def test_write_png_round_trip(tmp_path, read_png):
    img = render.render_rgb(busy_state(), width=320)
    path = tmp_path / "board.png"
    render.write_png(path, img)
    back = read_png(path)
    assert back.shape == (240, 320, 3)
    assert np.array_equal(back, img)


def test_write_png_rejects_bad_arrays(tmp_path):
    with pytest.raises(ValueError):
        render.write_png(tmp_path / "x.png", np.zeros((4, 4), np.uint8))


def test_write_gif(tmp_path):
    frames = [render.render_rgb(initial_state(), width=160), render.render_rgb(busy_state(), width=160)]
    render.write_gif(tmp_path / "x.gif", frames, duration_ms=200)
    with Image.open(tmp_path / "x.gif") as im:
        assert im.format == "GIF" and im.n_frames == 2 and im.size == (160, 120)
    with pytest.raises(ValueError, match="at least one frame"):
        render.write_gif(tmp_path / "y.gif", [])


def _texts(scene):
    return [item.text for item in scene.items if isinstance(item, drawing.Text)]


def test_scene_is_what_the_picture_draws():
    sd = busy_state()
    scene = render.scene(sd)
    assert (scene.width, scene.height) == (960, 720)
    assert np.array_equal(drawing.scene_to_array(scene), render.render_rgb(sd))
    for item in scene.items:  # colours are "#rrggbb" strings
        for colour in (getattr(item, "fill", None), getattr(item, "stroke", None)):
            assert colour is None or (colour.startswith("#") and len(colour) == 7)


def test_scene_shows_the_tracks_missions_pieces_and_patrols():
    # The information the picture carries, read from its drawing instead of its pixels.
    texts = _texts(render.scene(busy_state()))
    for want in ("DAY 5", "MORALE 5", "SOLDIERS 1", "MISSION A", "MISSION B", "INFILTRATION", "1/2", "0/1",
                 "FORGER", "DARK LADY", "TAGGED", "VISITED", "1 WEAPON", "HAND 2", "SUPPLY 3", "ACTION",
                 "MIN PATROLS 3", "MILICE LEFT 4", "DECK 6  DISCARD 4", "(MOLE)", "ID"):
        assert any(want in t for t in texts), want
    assert "W" in texts and "M" in texts and "S" in texts  # the pawns' letters
    assert any(t.startswith("CLOSED: BLACK MARKET") for t in texts)
    assert "WIN" in _texts(render.scene(dict(busy_state(), phase="game_over", outcome="win")))


def test_scene_tags_each_location_with_its_placement():
    scene = render.scene(initial_state())
    tagged = {item.action: item for item in scene.items if item.action is not None}
    for loc in [*layout.BOARD_ORDER]:
        if loc == "safe_house":
            continue  # home: nobody is placed there
        index = maquis.action_from_str(f"place:{loc}")
        assert index in tagged, loc
        assert tagged[index].title.startswith(labels.LABELS[loc][0])
    with pytest.raises(ValueError, match="one side"):
        render.scene(initial_state(), side="german")


def test_drawing_backend_draws_each_primitive():
    scene = drawing.Scene(100, 50, "#000000", (
        drawing.Rect(0, 0, 50, 50, fill="#ff0000"),
        drawing.Circle(75, 25, 10, fill="#00ff00", stroke="#0000ff", width=2),
        drawing.Line(0, 45, 100, 45, "#ffffff", 2, dash=(4, 4)),
        drawing.Polygon(((60, 0), (70, 0), (65, 8)), fill="#ffff00"),
        drawing.Text(25, 30, "Hi", 20, "#ffffff", "middle", bold=True),
    ))
    img = drawing.scene_to_array(scene, scale=2)
    assert img.shape == (100, 200, 3)
    assert tuple(img[10, 10]) == (255, 0, 0) and tuple(img[50, 150]) == (0, 255, 0)
    assert tuple(img[2, 130]) == (255, 255, 0)
    line = img[90, :, 0]
    assert line.max() > 200 and line.min() < 50  # dashes and gaps
    glyphs = img[30:60, 20:80]
    assert (glyphs.min(axis=2) > 200).sum() > 20  # white text on the red square
    assert 0 < (glyphs.min(axis=2) > 200).mean() < 0.5
    with pytest.raises(ValueError, match="anchor"):
        drawing.Text(0, 0, "x", anchor="left")
    assert drawing.text_width("MAQUIS", 20) > drawing.text_width("MAQUIS", 10) > 0


def test_no_hand_written_picture_code_is_left():
    # Pillow draws, writes PNG and GIF and holds the font: no rasterizer, bitmap font or chunk packing.
    package = Path(maquis.__file__).parent
    for name in ("canvas.py", "font.py", "files.py"):
        assert not (package / "render" / name).exists()
    for path in package.rglob("*.py"):
        text = path.read_text()
        assert "IHDR" not in text and "zlib.compress" not in text and "GLYPH" not in text, path


def test_compact_view_fits_a_terminal_and_keeps_the_essentials():
    for sd in (initial_state(), busy_state(), dict(busy_state(), phase="game_over", outcome="draw")):
        lines = render_compact(sd).splitlines()
        assert len(lines) <= 15 and max(len(line) for line in lines) <= 80
        text = "\n".join(lines)
        assert f"day {sd['day'] or 'START'}" in text and f"morale {sd['morale']}" in text
        for m in sd["missions"]:
            assert m["id"] in text
    text = render_compact(busy_state())
    assert "fence worker+id" in text and "radio_a milice" in text and "next #8" in text
    assert "closed roads: black_market-pont_du_nord" in text

"""`maquis serve`'s app through its JSON API (Starlette's TestClient): whole games played, recordings
replayed as their golden playthroughs tell them, 4xx answers to bad requests, and no hidden
information in anything sent to a player."""

from __future__ import annotations

import json
import random
import re
import socket
import subprocess
import sys
import time
import urllib.request
import warnings
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="httpx (Starlette's TestClient) is not installed")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # newer Starlette would rather have httpx2; httpx still works
    from starlette.testclient import TestClient

from maquis.common.drawing import Circle, Line, Polygon, Rect, Scene, Text  # noqa: E402
from maquis.web import create_app  # noqa: E402
from maquis.web.games import GAMES  # noqa: E402
from maquis.web.svg import scene_to_svg  # noqa: E402

PLAYTHROUGHS = Path(__file__).parent / "playthroughs"
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def app():
    return create_app([PLAYTHROUGHS])


@pytest.fixture
def client(app):
    with TestClient(app) as c:
        yield c


def ok(response):
    assert response.status_code == 200, response.text
    return response.json()


def refused(response, status, words):
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert re.search(words, error), error
    return error


# -- The SVG backend -------------------------------------------------------------------------------


def test_scene_to_svg_draws_every_item_tags_actions_and_escapes_text():
    scene = Scene(200, 100, "#ffffff", (
        Rect(1, 2, 30, 40, fill="#ff0000", stroke="#000000", width=2, radius=3, action=5, title="a <b> & c"),
        Circle(50, 50, 10, fill="#00ff00", action=7),
        Line(0, 0, 10, 10, "#0000ff", dash=(2, 1)),
        Polygon(((0, 0), (5, 0), (5, 5)), fill="#123456"),
        Text(10, 90, "x < y & \"z\"", size=12, anchor="middle", bold=True, action=9),
    ))
    svg = scene_to_svg(scene, legal=[5, 9])
    root = ET.fromstring(svg)  # well-formed: the text is escaped
    ns = "{http://www.w3.org/2000/svg}"
    assert root.get("viewBox") == "0 0 200 100"
    tags = [el.tag.replace(ns, "") for el in root]
    assert tags == ["rect", "rect", "circle", "line", "polygon", "text", "g"]
    marks = root[6]  # legal shapes outlined on top, out of the clicks' way
    assert marks.get("class") == "marks" and marks.get("pointer-events") == "none"
    assert [(m.tag.replace(ns, ""), m.get("data-action")) for m in marks] == [("rect", None)]
    rect, circle, text = root[1], root[2], root[5]
    assert (rect.get("data-action"), rect.get("class"), rect.get("rx")) == ("5", "legal", "3")
    assert rect.find(f"{ns}title").text == "a <b> & c"
    assert (circle.get("data-action"), circle.get("class")) == ("7", None)  # an action, not legal now
    assert root[3].get("stroke-dasharray") == "2 1" and root[3].get("data-action") is None
    assert text.text == 'x < y & "z"' and text.get("class") == "legal" and text.get("font-weight") == "bold"
    assert "legal" not in scene_to_svg(scene)


# -- Playing ---------------------------------------------------------------------------------------


def expected_svg(match):
    """The board the server must send: drawn from the viewer's view of the state it holds."""
    view = match.game.view(match.table.state(), match.viewer)
    legal = [i for i, _ in match.legal_for_viewer()]
    return scene_to_svg(match.game.scene(view, match.viewer), legal)


def test_a_whole_maquis_game_by_legal_actions(app, client):
    data = ok(client.post("/api/play", json={"game": "maquis", "settings": {"difficulty": "hard"}, "seed": 11}))
    sid, frame = data["session"], data["current"]
    assert data["frames"] == []  # Maquis has no opponent to move first
    match = app.state.sessions.get(sid)
    rng = random.Random(0)
    decisions = 0
    while frame["outcome"] is None:
        state = match.table.state()
        legal = match.table.legal()
        assert [a["index"] for a in frame["legal"]] == legal
        assert [a["name"] for a in frame["legal"]] == [match.table.name(i) for i in legal]
        assert frame["step"] == decisions and frame["svg"] == expected_svg(match)
        # Everything but the deck's order, which is never sent.
        assert frame["view"]["patrol_deck"] == [None] * len(state["patrol_deck"])
        assert {k: v for k, v in frame["view"].items() if k != "patrol_deck"} == \
            {k: v for k, v in state.items() if k != "patrol_deck"}
        action = rng.choice(frame["legal"])
        frames = ok(client.post(f"/api/session/{sid}/act", json={"action": action["index"], "step": frame["step"]}))["frames"]
        assert len(frames) == 1 and frames[0]["action"] == action["name"]
        frame = frames[0]
        decisions += 1
    assert frame["outcome"] == match.table.state()["outcome"] and frame["legal"] == []
    assert ok(client.get(f"/api/session/{sid}"))["step"] == decisions


def hidden_zones(state):
    return [z for z in state["allocation"] if z not in (state["attacked"] or ())]


def assert_nothing_hidden_sent(match, text):
    """Nothing in a response to the Resistance tells where the German put his items (O2)."""
    state = match.table.state()
    data = json.loads(text)
    assert "allocate:" not in text
    frames = data.get("frames", []) + [data[k] for k in ("current", "frame") if k in data]
    for frame in frames:
        view = frame["view"]
        seen = set(view["attacked"] or ())
        for zone in view["allocation"]:
            if zone not in seen:
                assert view["allocation"][zone] is None and view["zone_values"][zone] is None
        assert sorted(view["hidden"]) == sorted(z for z in view["allocation"] if z not in seen)
    if frames:
        # The last frame is the position now: its board is the Resistance's view of the state the
        # server holds, not the full state (which differs while a zone is unrevealed).
        last = frames[-1]
        assert last["svg"] == expected_svg(match)
        if hidden_zones(state):
            full = scene_to_svg(match.game.scene(match.game.view(state, None), None), [a["index"] for a in last["legal"]])
            assert last["svg"] != full


def test_a_dday_game_as_the_resistance_against_the_heuristic(app, client):
    response = client.post("/api/play", json={"game": "dday", "side": "resistance", "opponent": "heuristic", "seed": 3})
    data = ok(response)
    sid = data["session"]
    match = app.state.sessions.get(sid)
    assert_nothing_hidden_sent(match, response.text)
    # The German allocated first, each of his decisions a frame of its own, told without its content:
    # all 11 steps, one legal zone or not (RULES Q0), so their number tells nothing either.
    assert len(data["frames"]) == 11
    assert [f["step"] for f in data["frames"]] == list(range(1, len(data["frames"]) + 1))
    assert all(f["action"] == "german: places an item (hidden)" for f in data["frames"])
    assert all(f["legal"] == [] for f in data["frames"][:-1])  # the person's moves only once it is his turn
    frame = data["current"]
    assert frame["legal"] == data["frames"][-1]["legal"] != []
    rng = random.Random(1)
    replies = 0
    while frame["outcome"] is None:
        assert frame["to_move"] == "resistance" == match.table.to_move()
        assert [a["index"] for a in frame["legal"]] == match.table.legal()
        action = rng.choice(frame["legal"])
        response = client.post(f"/api/session/{sid}/act", json={"action": action["index"], "step": frame["step"]})
        frames = ok(response)["frames"]
        assert_nothing_hidden_sent(match, response.text)
        assert frames[0]["action"] == f"resistance: {action['name']}"
        assert [f["step"] for f in frames] == list(range(frame["step"] + 1, frame["step"] + 1 + len(frames)))
        assert all(f["action"].startswith("german: ") for f in frames[1:])
        replies += len(frames) - 1
        frame = frames[-1]
        response = client.get(f"/api/session/{sid}")  # what a reload of the page asks
        assert_nothing_hidden_sent(match, response.text)
        assert response.json()["svg"] == frame["svg"]
    assert replies > 0
    assert frame["outcome"] == match.table.state()["outcome"] in ("resistance", "german", "draw")


def test_dday_as_the_german_sees_everything_and_moves_first(app, client):
    data = ok(client.post("/api/play", json={"game": "dday", "side": "german", "opponent": "random", "seed": 4}))
    assert data["frames"] == [] and data["current"]["to_move"] == "german"
    names = [a["name"] for a in data["current"]["legal"]]
    assert names and all(n.startswith("allocate:") for n in names)
    sid = data["session"]
    frame = data["current"]
    while frame["view"]["phase"] == "allocation":
        frame = ok(client.post(f"/api/session/{sid}/act", json={"action": frame["legal"][0]["index"], "step": frame["step"]}))["frames"][-1]
    match = app.state.sessions.get(sid)
    assert frame["view"]["allocation"] == match.table.state()["allocation"] and frame["view"]["hidden"] == []


def test_several_tabs_play_at_once(client):
    a = ok(client.post("/api/play", json={"game": "maquis", "seed": 1}))
    b = ok(client.post("/api/play", json={"game": "maquis", "seed": 1}))
    assert a["session"] != b["session"]
    first = a["current"]["legal"][0]["index"]
    ok(client.post(f"/api/session/{a['session']}/act", json={"action": first, "step": 0}))
    assert ok(client.get(f"/api/session/{a['session']}"))["step"] == 1
    assert ok(client.get(f"/api/session/{b['session']}"))["step"] == 0


def test_watching_agents_play_live(client):
    data = ok(client.post("/api/watch", json={"game": "maquis", "agents": {"player": "heuristic"}, "seed": 2,
                                              "settings": {"difficulty": "easy"}}))
    sid, frame = data["session"], data["current"]
    assert frame["legal"] == []
    while frame["outcome"] is None:
        frame = ok(client.post(f"/api/session/{sid}/next", json={"step": frame["step"]}))["frame"]
    refused(client.post(f"/api/session/{sid}/next", json={"step": frame["step"]}), 409, "over")
    data = ok(client.post("/api/watch", json={"game": "dday", "agents": {"resistance": "random", "german": "heuristic"},
                                              "side": "resistance", "seed": 5}))
    frame = ok(client.post(f"/api/session/{data['session']}/next", json={"step": 0}))["frame"]
    assert frame["action"] == "german: places an item (hidden)"
    refused(client.post(f"/api/session/{data['session']}/act", json={"action": 0, "step": 1}), 409, "not your turn")


def test_a_seeded_dday_watch_hides_the_allocation_a_fresh_deal_shows_it(app, client):
    """A person's game and a watched game of the same seed: the watcher, a spectator, learns
    nothing of the German's allocation; agents alone on a deal the server drew show it all."""
    person = client.post("/api/play", json={"game": "dday", "side": "resistance", "opponent": "heuristic", "seed": 5})
    match = app.state.sessions.get(ok(person)["session"])
    assert hidden_zones(match.table.state())
    assert_nothing_hidden_sent(match, person.text)
    watcher = TestClient(app)
    response = watcher.post("/api/watch", json={"game": "dday", "seed": 5})
    sid = ok(response)["session"]
    watched = app.state.sessions.get(sid)
    assert watched.viewer == "spectator" == response.json()["current"]["viewer"]
    for _ in range(15):
        assert_nothing_hidden_sent(watched, response.text)
        frame = response.json().get("current") or response.json()["frame"]
        if frame["outcome"] is not None:
            break
        response = watcher.post(f"/api/session/{sid}/next", json={"step": frame["step"]})
        assert frame["legal"] == [] and ok(response)["frame"]["action"].startswith(("german: places an item", "resistance: "))
    fresh = ok(watcher.post("/api/watch", json={"game": "dday", "agents": {"german": "heuristic"}}))
    sid = fresh["session"]
    frame = fresh["current"]
    while frame["view"]["phase"] == "allocation":
        frame = ok(watcher.post(f"/api/session/{sid}/next", json={"step": frame["step"]}))["frame"]
        assert frame["action"].startswith("german: allocate:")
    state = app.state.sessions.get(sid).table.state()
    assert frame["view"]["allocation"] == state["allocation"] and frame["view"]["hidden"] == []


# -- Recordings ------------------------------------------------------------------------------------


def playthrough_story(path):
    """(action, narration lines) of every decision of a golden playthrough file."""
    story = []
    for line in path.read_text().splitlines():
        if line.startswith("action: "):
            story.append((line[len("action: "):], []))
        elif line.startswith("  > ") and story:
            story[-1][1].append(line[4:])
    return story


@pytest.mark.parametrize("name", ["normal_heuristic_newspaper_infiltration", "dday_random_vs_heuristic_options"])
def test_a_playthrough_replays_as_its_file_tells_it(client, name):
    listing = ok(client.get("/api/recordings"))["recordings"]
    assert {r["title"] for r in listing} >= {p.stem for p in PLAYTHROUGHS.glob("*.txt")}
    assert all("/" not in r["id"] and "." not in r["id"] for r in listing)  # ids, not paths
    rec = next(r for r in listing if r["title"] == name)
    info = ok(client.get(f"/api/recordings/{rec['id']}"))
    story = playthrough_story(PLAYTHROUGHS / f"{name}.txt")
    assert info["length"] == len(story) + 1
    outcome = None
    for step in range(info["length"]):
        frame = ok(client.get(f"/api/recordings/{rec['id']}/{step}"))
        assert frame["step"] == step and frame["legal"] == []
        if step:
            assert (frame["action"], frame["narration"]) == story[step - 1]
        outcome = frame["outcome"]
    ending = (PLAYTHROUGHS / f"{name}.txt").read_text().split("## end", 1)[1]
    assert f"outcome: {outcome} after" in ending


def test_a_dday_recording_seen_by_the_resistance_hides_the_allocation(client):
    listing = ok(client.get("/api/recordings"))["recordings"]
    rec = next(r for r in listing if r["title"] == "dday_heuristic_vs_heuristic")
    for step in (1, 8, 9):
        response = client.get(f"/api/recordings/{rec['id']}/{step}?side=resistance")
        frame = ok(response)
        assert "allocate:" not in response.text
        assert all(v is None for v in frame["view"]["allocation"].values())
    assert ok(client.get(f"/api/recordings/{rec['id']}/1"))["action"].startswith("german: allocate:")


def test_recordings_come_only_from_the_folders_given(tmp_path):
    from maquis import MaquisEnv

    env = MaquisEnv(difficulty="easy")
    env.reset(seed=9)
    actions = []
    for _ in range(5):
        a = env.legal_actions()[0]
        actions.append(env.action_to_str(a))
        env.step(a)
    (tmp_path / "game.json").write_text(json.dumps({
        "format": "maquis-episode", "version": 1, "env": {"difficulty": "easy"}, "seed": 9,
        "reset_options": None, "actions": actions, "outcome": None,
    }))
    (tmp_path / "notes.txt").write_text("not a recording\n")
    (tmp_path / "broken.json").write_text("{")
    with TestClient(create_app([tmp_path])) as c:
        listing = ok(c.get("/api/recordings"))["recordings"]
        assert [(r["title"], r["kind"], r["decisions"]) for r in listing] == [("game", "episode", 5)]
        rid = listing[0]["id"]
        last = ok(c.get(f"/api/recordings/{rid}/5"))
        assert last["action"] == actions[-1]
        assert last["view"]["day"] == env.state_dict()["day"]
        refused(c.get("/api/recordings/..%2F..%2Fetc%2Fpasswd"), 404, "no recording|Not Found")
        refused(c.get("/api/recordings/%2E%2E"), 404, "no recording")
        refused(c.get("/api/recordings/game.json"), 404, "no recording")
        refused(c.get(f"/api/recordings/{rid}/6"), 404, "no position 6")
        refused(c.get(f"/api/recordings/{rid}/x"), 400, "number")
    with TestClient(create_app()) as c:
        assert ok(c.get("/api/recordings"))["recordings"] == []
    with pytest.raises(ValueError, match="not a folder"):
        create_app([tmp_path / "missing"])


def maquis_episode(seed=9, decisions=5):
    """A recorded Maquis episode (its JSON text) of `decisions` legal decisions."""
    from maquis import MaquisEnv

    env = MaquisEnv(difficulty="easy")
    env.reset(seed=seed)
    actions = []
    for _ in range(decisions):
        a = env.legal_actions()[0]
        actions.append(env.action_to_str(a))
        env.step(a)
    return json.dumps({"format": "maquis-episode", "version": 1, "env": {"difficulty": "easy"}, "seed": seed,
                       "reset_options": None, "actions": actions, "outcome": None})


def test_recordings_are_read_only_inside_their_folder_and_links_only_to_inside(tmp_path):
    inside, outside = tmp_path / "recordings", tmp_path / "elsewhere"
    (inside / "sub").mkdir(parents=True)
    outside.mkdir()
    (inside / "sub" / "game.json").write_text(maquis_episode())
    (outside / "secret.json").write_text(maquis_episode(seed=3))
    (inside / "mirror.json").symlink_to(inside / "sub" / "game.json")  # inside: followed
    (inside / "leak.json").symlink_to(outside / "secret.json")  # outside: not
    (inside / "relative.json").symlink_to(Path("..") / "elsewhere" / "secret.json")
    (inside / "linked").symlink_to(outside, target_is_directory=True)  # a linked folder: not entered
    (inside / "broken.json").symlink_to(tmp_path / "gone.json")
    (inside / "loop.json").symlink_to(inside / "loop.json")
    app = create_app([inside])
    titles = sorted(r["title"] for r in TestClient(app).get("/api/recordings").json()["recordings"])
    assert titles == ["mirror", "sub/game"]
    assert {s.split(": ")[0].rsplit("/", 1)[1] for s in app.state.library.skipped} == \
        {"leak.json", "relative.json", "broken.json", "loop.json"}
    # The folder given through a link of its own is the folder it links to.
    (tmp_path / "alias").symlink_to(inside, target_is_directory=True)
    assert len(create_app([tmp_path / "alias"]).state.library.recordings) == 2


def test_a_malformed_recording_is_skipped_with_a_warning_and_a_4xx_never_a_crash(tmp_path, caplog):
    (tmp_path / "good.json").write_text(maquis_episode())
    (tmp_path / "deep.json").write_text('{"format": "maquis-episode", "actions": ' + "[" * 100_000 + "]" * 100_000 + "}")
    (tmp_path / "deep_options.json").write_text(maquis_episode()[:-1] + ', "reset_options": {"a": ' + "[" * 40 + "]" * 40 + "}}")
    (tmp_path / "deep_header.txt").write_text("playthrough: x\ngame: maquis/normal\nreset: seed=" + "[" * 1000 + "]" * 1000 + "\n")
    (tmp_path / "big.json").write_text(" " * 4_000_001)
    (tmp_path / "latin.txt").write_bytes(b"playthrough: \xe9t\xe9\n")
    (tmp_path / "seed.json").write_text(maquis_episode()[:-1] + ', "seed": "nine"}')
    (tmp_path / "notes.txt").write_text("not a recording\n")  # no recording at all: no warning
    (tmp_path / "other.json").write_text('{"name": "some other JSON"}')
    with caplog.at_level("WARNING", logger="maquis.web"):
        app = create_app([tmp_path])
    skipped = sorted(line.split(": ")[0].rsplit("/", 1)[1] for line in app.state.library.skipped)
    assert skipped == ["big.json", "deep.json", "deep_header.txt", "deep_options.json", "latin.txt", "seed.json"]
    assert len([r for r in caplog.records if "skipped" in r.getMessage()]) == 6
    with TestClient(app, raise_server_exceptions=False) as c:
        listing = ok(c.get("/api/recordings"))["recordings"]
        assert [r["title"] for r in listing] == ["good"]
        rid = listing[0]["id"]
        # Changed after start: deeply nested, or a link to elsewhere, it is refused when asked for.
        (tmp_path / "good.json").write_text('{"format": "maquis-episode", "actions": ' + "[" * 100_000 + "]" * 100_000 + "}")
        refused(c.get(f"/api/recordings/{rid}"), 422, "cannot be replayed: nested deeper")
        (tmp_path / "good.json").unlink()
        (tmp_path / "good.json").symlink_to("/etc/hostname")
        refused(c.get(f"/api/recordings/{rid}/0"), 422, "no longer a file inside its folder")
        (tmp_path / "good.json").unlink()
        (tmp_path / "good.json").write_text(maquis_episode())
        assert ok(c.get(f"/api/recordings/{rid}"))["length"] == 6


# -- Refusals --------------------------------------------------------------------------------------


def test_bad_requests_get_a_4xx_with_a_reason_and_the_server_keeps_going(client):
    refused(client.post("/api/play", content=b"{not json"), 400, "not JSON")
    refused(client.post("/api/play", json=[1, 2]), 400, "JSON object")
    refused(client.post("/api/play", json={"game": "chess"}), 400, "unknown game 'chess'")
    refused(client.post("/api/play", json={"game": "maquis", "settings": {"difficulty": "epic"}}), 400, "difficulty must be")
    refused(client.post("/api/play", json={"game": "maquis", "settings": {"colour": "red"}}), 400, "unknown setting")
    refused(client.post("/api/play", json={"game": "maquis", "settings": "hard"}), 400, "must be an object")
    refused(client.post("/api/play", json={"game": "dday", "side": "allies"}), 400, "side must be")
    refused(client.post("/api/play", json={"game": "dday", "side": "german", "opponent": "oracle"}), 400, "agent must be")
    refused(client.post("/api/play", json={"game": "maquis", "seed": -1}), 400, "seed")
    refused(client.post("/api/play", json={"game": "maquis", "seed": "1"}), 400, "seed")
    refused(client.post("/api/watch", json={"game": "dday", "agents": {"allies": "random"}}), 400, "per side")
    refused(client.post("/api/session/nope/act", json={"action": 0, "step": 0}), 404, "no game")
    refused(client.get("/api/session/nope"), 404, "no game")
    refused(client.get("/api/nothing"), 404, "Not Found")
    refused(client.get("/api/play"), 405, "Method Not Allowed")

    data = ok(client.post("/api/play", json={"game": "maquis", "seed": 5}))
    sid, frame = data["session"], data["current"]
    legal = {a["index"] for a in frame["legal"]}
    illegal = next(i for i in range(300) if i not in legal)
    url = f"/api/session/{sid}/act"
    refused(client.post(url, json={"action": illegal, "step": 0}), 422, f"action {illegal} is not legal")
    refused(client.post(url, json={"action": -1, "step": 0}), 422, "not legal")
    refused(client.post(url, json={"action": "place:grocer", "step": 0}), 400, "action index")
    refused(client.post(url, json={"action": True, "step": 0}), 400, "action index")
    refused(client.post(url, json={"action": frame["legal"][0]["index"]}), 400, "step")
    refused(client.post(url, json={"action": frame["legal"][0]["index"], "step": 3}), 409, "stale")
    refused(client.post(f"/api/session/{sid}/next", json={"step": 0}), 409, "played by a person")
    # Nothing refused changed the game; it goes on.
    assert ok(client.get(f"/api/session/{sid}"))["step"] == 0
    ok(client.post(url, json={"action": frame["legal"][0]["index"], "step": 0}))
    refused(client.post(url, json={"action": frame["legal"][0]["index"], "step": 0}), 409, "stale")
    assert ok(client.get("/api/games"))["games"][0]["name"] == "maquis"


JUNK_SEGMENTS = [
    "%C2%B2", "%D9%A3", "%EF%BC%91", "9" * 5000, "1" * 10, "-1", "+1", " 1", "1.0", "1e3", "0x1", "%00",
    "%2e%2e", "..%2F..%2Fetc%2Fpasswd", "%2Fetc%2Fpasswd", "%ff%fe", "%ED%A0%80", "a" * 3000, "%20", "null",
]
JUNK_BODIES = [
    b"", b"{", b"[]", b"null", b'"x"', b"1" * 5000, b"[" * 5000 + b"]" * 5000, b'{"a":' * 3000 + b"1" + b"}" * 3000,
    b"[" * 70_000, b" " * 70_000, b"\xff\xfe", b'{"game": "\\ud800"}', b'{"game": {"maquis": 1}}',
    b'{"game": "maquis", "seed": 1e400}', b'{"game": "maquis", "seed": NaN}', b'{"game": "maquis", "seed": 1' + b"0" * 4400 + b"}",
    b'{"game": "dday", "side": ["german"]}', b'{"game": "dday", "agents": {"german": {"a": [1]}}}',
    b'{"game": "dday", "agents": [["german", "random"]]}', b'{"game": "maurice", "settings": {"scenario": null}}',
    b'{"game": "maurice", "side": "blue", "seed": 4294967296}', b'{"game": "maurice", "side": "spectator"}',
    b'{"action": 1e308, "step": 0}', b'{"action": 10000000000000000000000, "step": 0}', b'{"action": 0, "step": -1}',
    b'{"action": [0], "step": [0]}', b'{"step": "0"}', b'{"action": null, "step": null}',
]


@pytest.mark.parametrize("segment", JUNK_SEGMENTS)
def test_junk_in_a_path_is_a_4xx(app, segment):
    with TestClient(app, raise_server_exceptions=False) as c:
        sid = ok(c.post("/api/play", json={"game": "maquis", "seed": 1}))["session"]
        rid = ok(c.get("/api/recordings"))["recordings"][0]["id"]
        for method, path in [
            ("GET", f"/api/session/{segment}"), ("POST", f"/api/session/{segment}/act"),
            ("POST", f"/api/session/{segment}/next"), ("GET", f"/api/recordings/{segment}"),
            ("GET", f"/api/recordings/{rid}/{segment}"), ("GET", f"/api/recordings/{segment}/0"),
            ("GET", f"/api/recordings/{rid}/0?side={segment}"), ("GET", f"/static/{segment}"),
            ("GET", f"/api/{segment}"), ("POST", f"/api/session/{sid}/{segment}"),
        ]:
            response = c.request(method, path, json={"action": 0, "step": 0} if method == "POST" else None)
            assert 400 <= response.status_code < 500, (method, path, response.text[:300])
            if path.startswith("/api/"):
                assert "error" in response.json()
        assert ok(c.get(f"/api/session/{sid}"))["step"] == 0


def test_junk_in_a_body_is_a_4xx(app):
    with TestClient(app, raise_server_exceptions=False) as c:
        play = ok(c.post("/api/play", json={"game": "maquis", "seed": 1}))["session"]
        watch = ok(c.post("/api/watch", json={"game": "maquis", "seed": 1}))["session"]
        for body in JUNK_BODIES:
            for path in ("/api/play", "/api/watch", f"/api/session/{play}/act", f"/api/session/{watch}/next"):
                response = c.post(path, content=body, headers={"content-type": "application/json"})
                if response.status_code == 200:  # junk for one route may be a fine request for another
                    assert not path.endswith("/act"), (path, body[:60])
                    continue
                assert 400 <= response.status_code < 500, (path, body[:60], response.text[:300])
                assert response.json()["error"]
        refused(c.post("/api/play", content=b" " * 70_000), 413, "over 64000 bytes")
        refused(c.post("/api/play", content=b"[" * 5000 + b"]" * 5000), 400, "nested deeper")
        refused(c.post("/api/play", content=b"1" * 5000), 400, "not JSON")
        assert ok(c.get(f"/api/session/{play}"))["step"] == 0


def test_a_client_gets_a_cookie_and_holds_its_own_games_only():
    app = create_app(per_client=3, capacity=50)
    a, b = TestClient(app), TestClient(app)
    first = a.post("/api/play", json={"game": "maquis", "seed": 1})
    cookie = first.headers["set-cookie"]
    assert cookie.startswith("maquis_client=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    mine = ok(first)["session"]
    again = a.post("/api/play", json={"game": "maquis", "seed": 2})
    assert "set-cookie" not in again.headers  # the browser keeps its token
    # The probe's attack: one client starting game after game drops its own oldest, never another's.
    theirs = [ok(b.post("/api/play", json={"game": "maquis", "seed": k}))["session"] for k in range(12)]
    assert app.state.sessions.of_client(b.cookies["maquis_client"]) == theirs[-3:]
    for sid in theirs[:-3]:
        refused(b.get(f"/api/session/{sid}"), 404, "no game")
    assert ok(a.get(f"/api/session/{mine}"))["step"] == 0
    assert len(app.state.sessions) == 5
    # A game is found by the client holding it only: to anyone else it does not exist.
    move = {"action": ok(a.get(f"/api/session/{mine}"))["legal"][0]["index"], "step": 0}
    refused(b.get(f"/api/session/{mine}"), 404, "no game")
    refused(b.post(f"/api/session/{mine}/act", json=move), 404, "no game")
    refused(TestClient(app).get(f"/api/session/{mine}"), 404, "no game")  # no cookie at all
    forged = TestClient(app, cookies={"maquis_client": "../" + "x" * 20})  # not a token: a new one
    refused(forged.get(f"/api/session/{mine}"), 404, "no game")
    ok(a.post(f"/api/session/{mine}/act", json=move))


def test_when_full_a_new_game_waits_for_an_idle_one():
    app = create_app(capacity=2, idle_s=600)
    now = [0.0]
    app.state.sessions.clock = lambda: now[0]
    a, b, c = TestClient(app), TestClient(app), TestClient(app)
    sa = ok(a.post("/api/play", json={"game": "maquis", "seed": 1}))["session"]
    sb = ok(b.post("/api/play", json={"game": "maquis", "seed": 2}))["session"]
    now[0] = 500.0
    ok(b.get(f"/api/session/{sb}"))  # b's game is in use
    full = c.post("/api/watch", json={"game": "maquis", "seed": 3})
    refused(full, 503, "most games")
    assert int(full.headers["retry-after"]) == 101
    refused(a.post("/api/play", json={"game": "maquis"}), 503, "most games")
    now[0] = 601.0  # a's game idle for the full 600 s: the one dropped
    sc = ok(c.post("/api/watch", json={"game": "maquis", "seed": 3}))["session"]
    refused(a.get(f"/api/session/{sa}"), 404, "no game")
    assert ok(b.get(f"/api/session/{sb}"))["step"] == 0 and ok(c.get(f"/api/session/{sc}"))["step"] == 0
    refused(a.post("/api/play", json={"game": "maquis"}), 503, "most games")


# -- The page and the command ----------------------------------------------------------------------


def test_the_page_and_its_files_are_served_and_fetch_nothing_from_elsewhere(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    static = resources.files("maquis.web") / "static"
    for name in ("index.html", "app.js", "style.css"):
        text = (static / name).read_text()  # in the installed package (the wheel) too
        assert client.get(f"/static/{name}").text == text
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", text, re.I), f"{name} links outside"
        assert "@import" not in text
    assert 'src="/static/app.js"' in page.text


def test_every_game_has_the_same_views():
    for game in GAMES.values():
        assert set(game.describe()) == {"name", "title", "seats", "agents", "settings"}
        table = game.start({}, 0)
        view = game.view(table.state(), game.seats[0])
        assert isinstance(scene_to_svg(game.scene(view, game.seats[0])), str)
        assert game.status(view)


def test_serve_answers_on_a_loopback_port(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # A folder holding a recording nested past any parser's stack does not stop the server.
    (tmp_path / "deep.json").write_text('{"format": "maquis-episode", "actions": ' + "[" * 100_000 + "]" * 100_000 + "}")
    proc = subprocess.Popen(
        [sys.executable, "-m", "maquis", "serve", "--port", str(port), "--recordings", str(PLAYTHROUGHS),
         "--recordings", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        deadline = time.time() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/recordings", timeout=2) as r:
                    listing = json.loads(r.read())["recordings"]
                break
            except OSError:
                assert proc.poll() is None, proc.communicate()[1].decode()
                assert time.time() < deadline, "the server did not answer"
                time.sleep(0.2)
        assert len(listing) == len(list(PLAYTHROUGHS.glob("*.txt")))
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
            assert b"app.js" in r.read()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    err = proc.stderr.read().decode()
    assert "deep.json skipped: nested deeper than" in err and "1 skipped" in err, err


def test_serve_help_has_a_line_for_every_flag():
    out = subprocess.run([sys.executable, "-m", "maquis", "serve", "--help"], capture_output=True, text=True, check=True).stdout
    for flag in ("--host", "--port", "--recordings", "--capacity", "--per-client"):
        assert re.search(rf"{flag} \S+\s+\S", out), flag
    assert "127.0.0.1" in out
    zero = subprocess.run([sys.executable, "-m", "maquis", "serve", "--per-client", "0"], capture_output=True, text=True)
    assert zero.returncode == 2 and "--per-client must be at least 1" in zero.stderr

"""Maurice Lite in `maquis serve`'s app (Starlette's TestClient): a game played as one side through
the JSON API, nothing of the enemy's hand or the deck's order in anything sent, the board an SVG
whose legal items are the legal actions, and a golden playthrough replayed as its file tells it."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="httpx (Starlette's TestClient) is not installed")
maurice = pytest.importorskip("maquis.maurice")
if not hasattr(maurice, "raw_env"):
    pytest.skip("maquis.maurice has no environments in this build", allow_module_level=True)

from maquis.web.games import GAMES  # noqa: E402
from maquis.web.svg import scene_to_svg  # noqa: E402
# The app, its client and the answer check are those of every game's web tests.
from test_web import PLAYTHROUGHS, app, client, ok  # noqa: E402,F401

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def assert_blue_sees_no_red_cards(match, text):
    """No frame sent to blue holds red's hand, the cards red drew or the deck's order (O2, O3)."""
    data = json.loads(text)
    for frame in data.get("frames", []) + [data[k] for k in ("current", "frame") if k in data]:
        view = frame["view"]
        assert all(c is None for c in view["hands"]["red"]) and all(c is None for c in view["drawn_this_round"]["red"])
        assert all(c is None for c in view["deck"])
        assert not any(line.startswith("red draws ") and line != "red draws cards" for line in frame["narration"])
    state = match.table.state()
    last = (data.get("frames") or [data.get("current")])[-1]
    if last is not None:
        view = match.game.view(state, "blue")
        assert last["svg"] == scene_to_svg(match.game.scene(view, "blue"), [i for i, _ in match.legal_for_viewer()])


def test_maurice_is_offered():
    game = GAMES["maurice"]
    assert game.describe()["seats"] == ["blue", "red"]
    assert game.describe()["settings"] == [
        {"name": "scenario", "label": "Scenario", "choices": ["skirmish", "standard"], "default": "skirmish"}
    ]


def test_a_skirmish_as_blue_against_the_heuristic(app, client):
    response = client.post("/api/play", json={"game": "maurice", "side": "blue", "opponent": "heuristic", "seed": 3})
    data = ok(response)
    sid = data["session"]
    match = app.state.sessions.get(sid)
    assert match.table.state()["scenario"] == "skirmish"
    assert_blue_sees_no_red_cards(match, response.text)
    frame = data["current"]
    rng = random.Random(2)
    decisions = 0
    while frame["outcome"] is None and decisions < 30:
        assert frame["to_move"] == "blue" == match.table.to_move()
        assert [a["index"] for a in frame["legal"]] == match.table.legal()
        # Units, cards and cells are drawn: legal ones are marked on the board.
        drawn = any(a["name"].startswith(("unit:", "card:", "cell:")) for a in frame["legal"])
        assert ('class="legal"' in frame["svg"]) == drawn
        # Prefer anything but the CinC's cells and a pass, so that the game moves on.
        choices = [a for a in frame["legal"] if not a["name"].startswith("cell:")] or frame["legal"]
        action = rng.choice(choices)
        response = client.post(f"/api/session/{sid}/act", json={"action": action["index"], "step": frame["step"]})
        frames = ok(response)["frames"]
        assert_blue_sees_no_red_cards(match, response.text)
        assert frames[0]["action"] == f"blue: {action['name']}"
        frame = frames[-1]
        decisions += 1
    assert decisions == 30 or frame["outcome"] == match.table.state()["outcome"]


def test_a_maurice_playthrough_replays_as_its_file_tells_it(client):
    name = "maurice_skirmish_heuristic_vs_random"
    listing = ok(client.get("/api/recordings"))["recordings"]
    rec = next(r for r in listing if r["title"] == name)
    info = ok(client.get(f"/api/recordings/{rec['id']}"))
    story = []
    for line in (PLAYTHROUGHS / f"{name}.txt").read_text().splitlines():
        if line.startswith("action: "):
            story.append((line[len("action: "):], []))
        elif line.startswith("  > ") and story:
            story[-1][1].append(line[4:])
    assert info["length"] == len(story) + 1
    for step in (1, len(story) // 2, len(story)):
        frame = ok(client.get(f"/api/recordings/{rec['id']}/{step}"))
        assert (frame["action"], frame["narration"]) == story[step - 1]
    last = ok(client.get(f"/api/recordings/{rec['id']}/{len(story)}?side=blue"))
    assert all(c is None for c in last["view"]["hands"]["red"])
    ending = (PLAYTHROUGHS / f"{name}.txt").read_text().split("## end", 1)[1]
    assert f"outcome: {last['outcome']} after" in ending


def maurice_secrets(data):
    """Every card named in a hand, a round's draws or the deck anywhere in `data` (a response's
    JSON): {(where, side): [cards]} for the lists that name any."""
    found = {}
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            for key in ("hands", "drawn_this_round"):
                for side, cards in (item.get(key) or {}).items() if isinstance(item.get(key), dict) else ():
                    if any(c is not None for c in cards or ()):
                        found[(key, side)] = cards
            if isinstance(item.get("deck"), list) and any(c is not None for c in item["deck"]):
                found[("deck", None)] = item["deck"]
            stack.extend(item.values())
    return found


@pytest.mark.parametrize("side", ["blue", "red"])
def test_nothing_of_a_human_game_is_sent_to_anyone_but_its_side(app, client, side):
    """The probe's pairing: a watcher who knows the seed of a person's game watches the same deal.
    Neither the person nor the watcher gets the agent's hand, its draws or the deck's order."""
    from starlette.testclient import TestClient

    enemy = "red" if side == "blue" else "blue"
    responses = []
    data = client.post("/api/play", json={"game": "maurice", "side": side, "opponent": "heuristic", "seed": 7})
    responses.append(data)
    sid = ok(data)["session"]
    match = app.state.sessions.get(sid)
    watcher = TestClient(app)
    seen = watcher.post("/api/watch", json={"game": "maurice", "seed": 7})  # no side: a spectator
    responses.append(seen)
    wid = ok(seen)["session"]
    assert ok(seen)["current"]["viewer"] == "spectator"
    enemy_hands = [list(match.table.state()["hands"][enemy])]
    rng = random.Random(5)
    frame = ok(data)["current"]
    for _ in range(25):
        if frame["outcome"] is not None:
            break
        choices = [a for a in frame["legal"] if not a["name"].startswith("cell:")] or frame["legal"]
        action = rng.choice(choices)
        responses.append(client.post(f"/api/session/{sid}/act", json={"action": action["index"], "step": frame["step"]}))
        frame = ok(responses[-1])["frames"][-1]
        responses.append(client.get(f"/api/session/{sid}"))
        responses.append(client.post(f"/api/session/{sid}/next", json={"step": frame["step"]}))  # a 409
        responses.append(watcher.get(f"/api/session/{wid}"))
        step = ok(responses[-1])["step"]
        responses.append(watcher.post(f"/api/session/{wid}/next", json={"step": step}))
        enemy_hands.append(list(match.table.state()["hands"][enemy]))
    assert any(enemy_hands) and len(responses) > 50
    for response in responses:
        secrets = maurice_secrets(response.json())
        watched = response.url.path.startswith(f"/api/session/{wid}") or response.url.path == "/api/watch"
        if watched:
            assert secrets == {}, (response.url, secrets)  # the spectator: neither hand
        assert not any(who == enemy or where == "deck" for where, who in secrets), (response.url, secrets)
        for frame in [*response.json().get("frames", []), *(response.json()[k] for k in ("current", "frame") if k in response.json())]:
            for who in (enemy, side) if watched else (enemy,):
                assert not any(line.startswith(f"{who} draws ") and line != f"{who} draws cards" for line in frame["narration"])


def test_agents_alone_on_a_fresh_deal_show_both_hands_and_never_the_deck(app, client):
    data = ok(client.post("/api/watch", json={"game": "maurice", "agents": {"blue": "random", "red": "heuristic"}}))
    sid, frame = data["session"], data["current"]
    match = app.state.sessions.get(sid)
    assert match.viewer is None and frame["viewer"] is None
    # A fresh deal each time: nobody can start the same one.
    other = ok(client.post("/api/watch", json={"game": "maurice"}))["current"]
    assert other["view"]["hands"] != frame["view"]["hands"]
    for _ in range(10):
        state = match.table.state()
        assert frame["view"]["hands"] == state["hands"] and all(c is not None for c in frame["view"]["hands"]["red"])
        assert frame["view"]["deck"] == [None] * len(state["deck"]) and len(state["deck"]) > 0
        if frame["outcome"] is not None:
            break
        frame = ok(client.post(f"/api/session/{sid}/next", json={"step": frame["step"]}))["frame"]
    # Seen from a side, a watched game hides the other's hand as a person's game does.
    blue = ok(client.post("/api/watch", json={"game": "maurice", "side": "blue", "seed": 3}))["current"]
    assert set(maurice_secrets(blue)) == {("hands", "blue")}

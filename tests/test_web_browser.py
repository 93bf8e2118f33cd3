"""`maquis serve` in a real browser: headless Chromium (Debian's `chromium`, driven by Playwright)
against the app on a loopback port. It plays a whole Maquis game by clicking, a D-Day game as the
Resistance against the heuristic, and replays a playthrough; after every move the board shown is
checked against the state the server's engine holds."""

from __future__ import annotations

import random
import shutil
import socket
import threading
import time
import warnings
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
if CHROMIUM is None:
    pytest.skip("chromium is not installed (apt-get install -y chromium)", allow_module_level=True)
try:
    from playwright.sync_api import sync_playwright
except ImportError:
    pytest.skip("playwright is not installed (pip install playwright)", allow_module_level=True)
pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")

import uvicorn  # noqa: E402

from maquis.web import create_app  # noqa: E402

PLAYTHROUGHS = Path(__file__).parent / "playthroughs"
TIMEOUT_MS = 30_000

# The board as the page shows it: the text of every label, and the actions of the clickable items.
BOARD_JS = """() => ({
  step: Number(document.getElementById('board').dataset.step),
  texts: Array.from(document.querySelectorAll('#board svg text')).map(
    (t) => Array.from(t.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent).join('')),
  clickable: Array.from(document.querySelectorAll('#board svg .legal')).map((e) => Number(e.dataset.action)),
  buttons: Array.from(document.querySelectorAll('#legal button')).map((b) => b.textContent),
})"""


@pytest.fixture(scope="module")
def server():
    """The app on a free loopback port, in this process (so that the tests see the games it holds)."""
    app = create_app([PLAYTHROUGHS])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.time() + 30
    while not srv.started:
        assert thread.is_alive() and time.time() < deadline, "the server did not start"
        time.sleep(0.05)
    yield app, f"http://127.0.0.1:{port}/"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            yield b
            b.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1500, "height": 1100})
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(server[1])
    pg.wait_for_selector("body[data-ready='1']")
    yield pg
    context.close()
    assert not errors, errors


def expected_board(game, view, seat, legal):
    """What the page must show for `view`: the labels of the scene and its clickable actions."""
    scene = game.scene(view, seat)
    texts = [item.text for item in scene.items if type(item).__name__ == "Text"]
    clickable = [item.action for item in scene.items if getattr(item, "action", None) in set(legal)]
    return texts, clickable, scene


def wait_settled(pg, step):
    pg.wait_for_function(
        "(s) => { const b = document.getElementById('board'); return b.dataset.busy === '0' && Number(b.dataset.step) === s; }",
        arg=step,
    )


def check_board(pg, match):
    """The page shows the position the server's engine is at, as the player's side sees it."""
    shown = pg.evaluate(BOARD_JS)
    assert shown["step"] == match.step
    view = match.game.view(match.table.state(), match.viewer)
    legal = [i for i, _ in match.legal_for_viewer()]
    texts, clickable, _ = expected_board(match.game, view, match.viewer, legal)
    assert shown["texts"] == texts
    assert shown["clickable"] == clickable
    assert shown["buttons"] == [match.table.name(i) for i in legal]
    return legal


def click_action(pg, index, on_board):
    """Play `index`: by a real mouse click on its board item, or on its button under the board."""
    item = pg.locator(f"#board svg .legal[data-action='{index}']").first
    if on_board and item.count():
        item.scroll_into_view_if_needed()
        box = item.bounding_box()
        pg.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        return "board"
    pg.click(f"#legal button[data-action='{index}']")
    return "button"


def session_of(pg, server):
    pg.wait_for_function("() => location.hash.includes('/')")
    sid = pg.evaluate("() => location.hash").split("/", 1)[1]
    return server[0].state.sessions.get(sid)


def play_to_the_end(pg, server, seat, rng):
    match = session_of(pg, server)
    wait_settled(pg, match.step)
    ways = set()
    while match.table.to_move() is not None:
        assert match.table.to_move() == seat
        legal = check_board(pg, match)
        index = rng.choice(legal)
        before = match.step
        ways.add(click_action(pg, index, on_board=rng.random() < 0.7))
        pg.wait_for_function("(s) => Number(document.getElementById('board').dataset.step) > s", arg=before)
        wait_settled(pg, match.step)
        assert match.last["action"].endswith(match.table.name(index)) or before + 1 < match.step
    check_board(pg, match)
    return match, ways


def test_a_whole_maquis_game_by_clicking(page, server):
    page.select_option("#play-maquis select[name='difficulty']", "easy")
    page.select_option("#speed", "0")
    page.click("#play-maquis button.start")
    match, ways = play_to_the_end(page, server, "player", random.Random(7))
    assert "board" in ways
    outcome = match.table.state()["outcome"]
    assert page.get_attribute("#board", "data-outcome") == outcome
    assert outcome in page.inner_text("#legal-title")
    # Every decision was told in the log, one entry each.
    assert page.locator("#log > li").count() == match.step


def test_a_dday_game_as_the_resistance_against_the_heuristic(page, server):
    page.select_option("#play-dday select[name='side']", "resistance")
    page.select_option("#play-dday select[name='opponent']", "heuristic")
    page.select_option("#speed", "150")
    page.click("#play-dday button.start")
    match, ways = play_to_the_end(page, server, "resistance", random.Random(3))
    assert match.viewer == "resistance"
    # The German's replies were shown one at a time: every decision's position appeared in turn.
    shown = page.evaluate("() => window.maquisPage.shown")
    in_turn = [s for k, s in enumerate(shown) if s > 0 and (k == 0 or s != shown[k - 1])]
    assert in_turn == list(range(1, match.step + 1))
    assert page.locator("#log > li").count() == match.step
    log = page.inner_text("#log")
    assert "allocate:" not in log and "places an item (hidden)" in log
    assert match.table.state()["outcome"] == page.get_attribute("#board", "data-outcome")


def test_replaying_a_playthrough(page, server):
    app = server[0]
    name = "normal_random_leader_double_agent_start"
    page.click(f"#recordings a:text-is('{name}')")
    page.wait_for_function("() => location.hash.startsWith('#replay/')")
    rid = page.evaluate("() => location.hash").split("/", 1)[1]
    replay = app.state.library.replay(rid)
    # The page is at step 0 and idle before the replay's first position is drawn: wait for it.
    page.wait_for_function("() => document.querySelectorAll('#board svg text').length > 0")
    wait_settled(page, 0)
    story = [ln[len("action: "):] for ln in (PLAYTHROUGHS / f"{name}.txt").read_text().splitlines() if ln.startswith("action: ")]
    assert len(replay.states) == len(story) + 1

    def check(step):
        wait_settled(page, step)
        view = replay.game.view(replay.states[step], None)
        texts, _, scene = expected_board(replay.game, view, None, [])
        shown = page.evaluate(BOARD_JS)
        assert (shown["step"], shown["texts"], shown["buttons"]) == (step, texts, [])
        assert page.inner_text("#position") == f"{step} / {len(story)}"
        if step:
            assert page.locator("#log > li").last.inner_text().startswith(story[step - 1])

    check(0)
    for step in range(1, 6):
        page.click("#next")
        check(step)
    page.click("#prev")
    check(4)
    page.select_option("#speed", "150")
    page.click("#run")
    check(len(story))
    assert page.get_attribute("#board", "data-outcome") == replay.states[-1]["outcome"]
    page.click("#first")
    check(0)
    # The SVG the server sent is the engine's scene of that position.
    scene = replay.game.scene(replay.game.view(replay.states[0], None), None)
    assert page.evaluate("() => document.querySelectorAll('#board svg > *').length") == len(scene.items) + 1

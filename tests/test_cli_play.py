"""`maquis play`, `maquis render`, `maquis replay` and `env.render()`, on the real engine.

The terminal game is driven by scripted standard input: a reference run of the environment with the
same seed chooses the moves, and the script answers the CLI with them (by number, by name, by
prefix), mixed with invalid input that must be refused with a message and a new prompt.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import maquis
from maquis import narrator, play
from maquis.maquis.episode import load_episode, replay_states
from maquis.cli import main
from maquis.maquis.render import render_ansi, render_rgb

MISSIONS = ["sabotage", "aid_the_spy"]


DECK = [4, 1, 7, 0, 9, 2, 5, 8, 3, 6]


# Locations with a road to the Safe House that no patrol can cut (B3, B6).
HOME = ("cafe", "grocer", "pont_leveque", "field_e", "field_w")


def cautious(legal, rng):
    """A policy that keeps its workers alive (so games last all 15 days): place next to home,
    then do something with each worker."""
    places = [a for a in legal if a.startswith("place:") and not a.endswith(":fake_id")]
    for loc in HOME:
        if f"place:{loc}" in places:
            return f"place:{loc}"
    acts = [a for a in legal if a.startswith("act:")]
    return rng.choice(acts or places or legal)


def reference_game(seed, missions=MISSIONS, limit=None):
    """Play a game with `cautious`; return, per decision, the legal names offered and the name
    chosen, and the environment at the end."""
    env = maquis.MaquisEnv(missions=list(missions))
    env.reset(seed=seed)
    rng = random.Random(seed)
    turns = []
    while env.state_dict()["outcome"] is None and (limit is None or len(turns) < limit):
        legal = [env.action_to_str(i) for i in env.legal_actions()]
        choice = cautious(legal, rng)
        turns.append((legal, choice))
        env.step(env.action_from_str(choice))
    return turns, env


def script_for(turns):
    """Answers for the CLI: numbers, names, upper-case names and unique prefixes, with invalid
    input (garbage, out-of-range numbers, empty lines, ambiguous prefixes) now and then."""
    lines = ["", "xyzzy", "0", "9999", "-2", "   ", "place", "help", "board"]
    for k, (legal, choice) in enumerate(turns):
        if k % 5 == 2:
            lines += ["not an action", str(len(legal) + 1), ""]
        mode = k % 4
        if mode == 0:
            lines.append(str(legal.index(choice) + 1))
        elif mode == 1:
            lines.append(choice)
        elif mode == 2:
            lines.append("  " + choice.upper() + "  ")
        else:  # the shortest prefix that names it alone
            prefix = next(
                choice[:n]
                for n in range(1, len(choice) + 1)
                if [x for x in legal if x.startswith(choice[:n])] == [choice]
            )
            lines.append(prefix)
    return "\n".join(lines) + "\n"


def run_cli(monkeypatch, capsys, argv, stdin_text):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin_text))
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


# ---------------------------------------------------------------------------------------------
# maquis play
# ---------------------------------------------------------------------------------------------


def test_play_a_whole_game_from_scripted_input(monkeypatch, capsys, tmp_path):
    turns, ref = reference_game(seed=11)
    record = tmp_path / "game.json"
    argv = ["play", "--seed", "11", "--missions", ",".join(MISSIONS), "--no-color", "--record", str(record)]
    rc, out, err = run_cli(monkeypatch, capsys, argv, script_for(turns))
    assert rc == 0, err
    outcome = ref.state_dict()["outcome"]
    # Every invalid answer got a message (and the game went on).
    assert "Please type a number from the list" in out
    assert "'xyzzy' is not an action or command" in out
    assert "There is no action number 0" in out and "There is no action number 9999" in out
    assert "There is no action number -2" in out
    assert "'place' is ambiguous" in out
    assert "'not an action' is not an action or command" in out
    assert "Answer with one of:" in out  # help
    assert f"GAME OVER: {narrator.outcome_text(outcome)} after {len(turns)} decisions" in out
    assert "the day is over; now day 1" in out and "patrols placed:" in out
    assert "End of input" not in out and "\x1b[" not in out
    # The record replays the game: same actions, same outcome.
    episode = json.loads(record.read_text())
    assert episode["format"] == "maquis-episode" and episode["seed"] == 11
    assert episode["env"]["missions"] == MISSIONS
    assert episode["actions"] == [choice for _, choice in turns]
    assert episode["outcome"] == outcome


def test_play_lists_numbered_legal_actions_and_what_happened(monkeypatch, capsys):
    env = maquis.MaquisEnv(missions=MISSIONS)
    env.reset(seed=5)
    legal = [env.action_to_str(i) for i in env.legal_actions()]
    first = legal[0]
    rc, out, _ = run_cli(
        monkeypatch, capsys, ["play", "--seed", "5", "--missions", ",".join(MISSIONS)], "1\nquit\n"
    )
    assert rc == 0
    # The menu groups the placements: `place: 1.rue_baradat  2.fence ...`.
    assert f"legal actions ({len(legal)}):" in out
    assert f"place: 1.{legal[0].removeprefix('place:')}" in out
    assert f"{len(legal)}.{legal[-1].removeprefix('place:')}" in out
    assert f"you chose {first}" in out
    assert "patrols placed:" in out  # F3: a patrol follows each placed worker
    assert "Quitting." in out and "GAME OVER" not in out
    assert "\x1b[" not in out  # captured output is no terminal: no colour unless asked
    rc, out, _ = run_cli(monkeypatch, capsys, ["play", "--seed", "5", "--color"], "q\n")
    assert rc == 0 and "\x1b[1m=== Maquis" in out


def test_play_quits_cleanly_at_end_of_input_and_records_the_partial_game(monkeypatch, capsys, tmp_path):
    turns, _ = reference_game(seed=3, limit=4)
    record = tmp_path / "partial.json"
    text = "\n".join(choice for _, choice in turns)  # no newline at the end, then EOF
    rc, out, _ = run_cli(
        monkeypatch,
        capsys,
        ["play", "--seed", "3", "--missions", ",".join(MISSIONS), "--record", str(record)],
        text,
    )
    assert rc == 0
    assert "End of input: quitting." in out
    episode = json.loads(record.read_text())
    assert episode["actions"] == [c for _, c in turns] and episode["outcome"] is None


def test_play_with_empty_input_and_bad_options(monkeypatch, capsys):
    rc, out, _ = run_cli(monkeypatch, capsys, ["play", "--seed", "1"], "")
    assert rc == 0 and "End of input" in out
    rc, _, err = run_cli(monkeypatch, capsys, ["play", "--missions", "sabotage,no_such_mission"], "")
    assert rc == 2 and "no_such_mission" in err
    with pytest.raises(SystemExit):
        main(["play", "--missions", "sabotage"])  # not two missions: argparse error
    with pytest.raises(SystemExit):
        main(["play", "--difficulty", "impossible"])


def test_play_undo_and_save(monkeypatch, capsys, tmp_path):
    turns, _ = reference_game(seed=8, limit=6)
    names = [c for _, c in turns]
    assert all(n.startswith("place:") for n in names[:3]) and names[3].startswith("act:")
    saved, record = tmp_path / "pos.json", tmp_path / "ep.json"
    script = names[:4] + ["undo", "undo", "save", f"save {saved}", "save /no/such/dir/x.json"]
    script += names[3:] + [f"save {saved}", "quit"]
    argv = ["play", "--seed", "8", "--missions", ",".join(MISSIONS), "--record", str(record)]
    rc, out, _ = run_cli(monkeypatch, capsys, argv, "\n".join(script) + "\n")
    assert rc == 0
    # The activation drew no card: it is taken back. The placement before it drew a patrol card,
    # and taking it back would let the player see that card again: undo stops there.
    assert f"took back {names[3]}" in out
    assert f"Nothing to undo: {names[2]} drew a hidden patrol card" in out
    assert "Usage: save FILE" in out and "Could not save to '/no/such/dir/x.json'" in out
    assert json.loads(record.read_text())["actions"] == names
    # Undo restored everything, the random generator included: the saved position is the one the
    # recorded actions reach.
    env = maquis.MaquisEnv()
    env.load_state(saved.read_text())
    *_, last = replay_states(load_episode(record))
    assert env.state_dict() == last


def test_undo_never_reveals_a_hidden_patrol_card(monkeypatch, capsys):
    # Whatever is typed, the patrol cards shown are those of the recorded game, in its order: no
    # undo lets a card be seen and the move that drew it be played differently.
    turns, _ = reference_game(seed=4, limit=3)  # the first day's placements: each draws a card
    script = []
    for _, name in turns:
        script += [name, "undo", "undo"]
    rc, out, _ = run_cli(monkeypatch, capsys, ["play", "--seed", "4", "--missions", ",".join(MISSIONS)],
                         "\n".join(script + ["quit"]) + "\n")
    assert rc == 0
    for _, name in turns:
        assert name.startswith("place:")
        assert out.count(f"Nothing to undo: {name} drew a hidden patrol card") == 2
    assert "took back" not in out


def _screens(out: str) -> list[list[str]]:
    """Each screen of a transcript: from a decision's header line to the prompt after it."""
    screens = []
    for chunk in out.split("=== Maquis, decision ")[1:]:
        lines = ("=== Maquis, decision " + chunk).splitlines()
        prompt = next(k for k, line in enumerate(lines) if line.startswith("your choice"))
        screens.append(lines[: prompt + 1])
    return screens


@pytest.mark.parametrize("options", [None, {"start": {"resources": {"fake_id": 2, "money": 3, "food": 2}}}])
def test_every_screen_fits_80_by_24(monkeypatch, capsys, options):
    turns, _ = reference_game(seed=12, limit=None if options is None else 3)
    argv = ["play", "--seed", "12", "--missions", ",".join(MISSIONS), "--no-color"]
    if options:
        argv += ["--options", json.dumps(options)]
    script = "\n".join([c for _, c in turns] + ["quit"]) + "\n"
    rc, out, _ = run_cli(monkeypatch, capsys, argv, script if options is None else "\n".join(["1", "2", "3", "quit"]))
    assert rc == 0
    screens = _screens(out)
    assert len(screens) >= (len(turns) if options is None else 3)
    for screen in screens:
        assert len(screen) <= 24, "\n".join(screen)
        assert max(len(line) for line in screen) <= 80, "\n".join(screen)
        text = "\n".join(screen)
        # Day, morale and the missions are always on the screen.
        assert " | day " in text and " | morale " in text and "mission a:" in text and "mission b:" in text
    if options:  # a Fake ID in hand doubles the placements: the second half is one menu line
        assert any("the same with :fake_id" in line for screen in screens for line in screen)
    else:
        final = out.split("=" * 52)[-1].splitlines()
        assert any(line.startswith("GAME OVER") for line in final)


def test_board_legal_and_news_commands_show_everything_on_request(monkeypatch, capsys):
    argv = ["play", "--seed", "5", "--missions", ",".join(MISSIONS), "--no-color"]
    rc, out, _ = run_cli(monkeypatch, capsys, argv, "1\nboard\nlegal\nnews\nquit\n")
    assert rc == 0
    assert "closed roads  none" in out  # the full board
    env = maquis.MaquisEnv(missions=MISSIONS)
    env.reset(seed=5)
    env.step(env.legal_actions()[0])
    legal = [env.action_to_str(i) for i in env.legal_actions()]
    assert all(f"{k:>3}. {name}" in out for k, name in enumerate(legal, 1))
    assert out.count("  > you chose") >= 2  # once on the screen, once for `news`


def test_play_with_reset_options_shoot_and_replay(monkeypatch, capsys, tmp_path):
    # Fixed deck and a starting hand (API.md reset options): a Milice to shoot on day 0 (F8).
    options = {"patrol_deck": DECK, "start": {"resources": {"money": 2, "weapon": 1}}}
    record = tmp_path / "ep.json"
    argv = ["play", "--missions", "officers_mansion,aid_the_spy", "--options", json.dumps(options)]
    argv += ["--record", str(record), "--seed", "0"]
    moves = ["place:rue_baradat", "place:fence", "place:cafe", "act:rue_baradat:graffiti", "act:fence:weapon"]
    rc, out, _ = run_cli(
        monkeypatch, capsys, argv, "\n".join(moves + ["shoot", "shoot:radio_a", "quit"]) + "\n"
    )
    assert rc == 0
    assert "rue_baradat tagged" in out and "hand: +1 weapon, -1 money" in out
    assert "'shoot' is ambiguous" in out
    assert "Milice shot on radio_a" in out and "soldier track 0 -> 1" in out and "morale 6 -> 5" in out
    episode = load_episode(record)
    assert episode["reset_options"] == options and episode["actions"] == moves + ["shoot:radio_a"]
    *_, last = replay_states(episode)
    assert last["soldiers"] == 1 and last["board"]["radio_a"]["pawn"] is None
    with pytest.raises(SystemExit):
        main(["play", "--options", "[1, 2]"])  # not a JSON object


def test_python_dash_m_maquis_play_in_a_subprocess(tmp_path):
    turns, ref = reference_game(seed=21)
    script = "garbage\n\n" + "\n".join(choice for _, choice in turns) + "\n"
    proc = subprocess.run(
        [sys.executable, "-m", "maquis", "play", "--seed", "21", "--missions", ",".join(MISSIONS)],
        input=script,
        capture_output=True,
        check=False,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "'garbage' is not an action or command" in proc.stdout
    assert f"GAME OVER: {narrator.outcome_text(ref.state_dict()['outcome'])}" in proc.stdout
    assert "\x1b[" not in proc.stdout  # no colour when the output is not a terminal


def test_action_matching():
    env = maquis.MaquisEnv(missions=MISSIONS)
    env.reset(seed=0)
    legal = [(i, env.action_to_str(i)) for i in env.legal_actions()]
    names = [n for _, n in legal]
    assert play._match("1", legal, env)[0] == legal[0][0]
    place = next(n for n in names if n.startswith("place:") and n.count(":") == 1)
    assert play._match(place, legal, env)[0] == env.action_from_str(place)
    assert play._match(place.split(":")[1], legal, env)[0] == env.action_from_str(place)  # location alone
    assert play._match(place.upper(), legal, env)[0] == env.action_from_str(place)
    raise_env = maquis.MaquisEnv(missions=MISSIONS, illegal_action="raise")
    raise_env.reset(seed=0)
    index, why = play._match("accept", legal, raise_env)
    assert index is None and why.startswith("Not allowed: illegal action 'accept' in phase 'placement'")
    assert play._match("\u00b2", legal, env)[0] is None  # a superscript digit is no number
    assert play._match("place:", legal, env)[0] is None


# ---------------------------------------------------------------------------------------------
# maquis render and maquis replay
# ---------------------------------------------------------------------------------------------


def mid_game(seed=2, steps=9):
    env = maquis.MaquisEnv(missions=MISSIONS)
    env.reset(seed=seed)
    for _ in range(steps):
        env.step(env.legal_actions()[0])
    return env


def test_render_writes_the_png_of_a_saved_state(tmp_path, capsys, read_png):
    env = mid_game()
    state = tmp_path / "state.json"
    state.write_text(env.save_state())
    out = tmp_path / "board.png"
    assert main(["render", str(state), "-o", str(out), "--width", "480"]) == 0
    assert np.array_equal(read_png(out), render_rgb(env.state_dict(), 480))
    assert f"wrote {out} (480x360)" in capsys.readouterr().out
    # Default output name and width; a plain state_dict as JSON is drawn too.
    assert main(["render", str(state)]) == 0
    assert read_png(tmp_path / "state.png").shape == (720, 960, 3)
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(env.state_dict()))
    assert main(["render", str(plain), "-o", str(tmp_path / "plain.png"), "--width", "480"]) == 0
    assert np.array_equal(read_png(tmp_path / "plain.png"), read_png(out))


def test_render_reports_bad_input(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["render", str(bad), "-o", str(tmp_path / "x.png")]) == 2
    assert "not JSON" in capsys.readouterr().err
    assert main(["render", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad.write_text('{"hello": 1}')
    assert main(["render", str(bad), "-o", str(tmp_path / "x.png")]) == 2
    assert "not a saved position" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()
    # A save of another game names that game and its command instead of failing on its contents.
    from maquis import dday

    other = dday.raw_env()
    other.reset(seed=0)
    bad.write_text(other.save_state())
    assert main(["render", str(bad), "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "this is a D-Day 1944 save" in err and "use `maquis dday render`" in err
    bad.write_text(json.dumps(other.state_dict()))
    assert main(["maquis", "render", str(bad), "-o", str(tmp_path / "x.png")]) == 2
    assert "this is a D-Day 1944 save" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_render_text_prints_the_board_instead_of_a_png(tmp_path, capsys):
    env = mid_game()
    state = tmp_path / "state.json"
    state.write_text(env.save_state())
    assert main(["render", str(state), "--text"]) == 0
    assert capsys.readouterr().out == render_ansi(env.state_dict())
    assert not (tmp_path / "state.png").exists()


def record_game(tmp_path, seed=11, limit=None):
    turns, env = reference_game(seed=seed, limit=limit)
    episode = {
        "format": "maquis-episode",
        "version": 1,
        "env": {"difficulty": "normal", "missions": MISSIONS},
        "seed": seed,
        "reset_options": None,
        "actions": [c for _, c in turns],
        "outcome": env.state_dict()["outcome"],
    }
    path = tmp_path / "episode.json"
    path.write_text(json.dumps(episode))
    return path, episode, env


def test_replay_writes_one_png_per_step(tmp_path, capsys, read_png):
    path, episode, env = record_game(tmp_path, limit=12)
    frames = tmp_path / "frames"
    assert main(["replay", str(path), "-o", str(frames), "--width", "320"]) == 0
    files = sorted(os.listdir(frames))
    assert files == [f"step_{k:03d}.png" for k in range(len(episode["actions"]) + 1)]
    assert np.array_equal(read_png(frames / files[-1]), render_rgb(env.state_dict(), 320))
    assert "13 PNG files" in capsys.readouterr().out


def test_replay_reproduces_a_game_played_in_the_terminal(monkeypatch, capsys, tmp_path):
    turns, ref = reference_game(seed=17)
    record = tmp_path / "game.json"
    argv = ["play", "--seed", "17", "--missions", ",".join(MISSIONS), "--record", str(record)]
    rc, _, _ = run_cli(monkeypatch, capsys, argv, "\n".join(c for _, c in turns) + "\n")
    assert rc == 0
    states = list(replay_states(load_episode(record)))
    assert len(states) == len(turns) + 1
    assert states[-1] == ref.state_dict()
    assert main(["replay", str(record), "-o", str(tmp_path / "frames"), "--width", "160"]) == 0
    assert f"outcome {ref.state_dict()['outcome']}" in capsys.readouterr().out


def test_replay_gif(tmp_path, capsys):
    pytest.importorskip("PIL")
    from PIL import Image

    path, episode, _ = record_game(tmp_path, limit=5)
    gif = tmp_path / "game.gif"
    assert main(["replay", str(path), "-o", str(gif), "--width", "160", "--duration", "100"]) == 0
    with Image.open(gif) as im:
        assert im.size == (160, 120) and im.n_frames == len(episode["actions"]) + 1


def test_replay_refuses_an_episode_that_does_not_replay(tmp_path, capsys):
    path, episode, _ = record_game(tmp_path, limit=5)
    episode["actions"][3] = "accept"  # never legal in the placement phase of day 0
    path.write_text(json.dumps(episode))
    assert main(["replay", str(path), "-o", str(tmp_path / "f")]) == 2
    assert "action 4 (accept) is not legal" in capsys.readouterr().err
    episode["actions"][3] = "fly:to_the_moon"
    path.write_text(json.dumps(episode))
    assert main(["replay", str(path), "-o", str(tmp_path / "f")]) == 2
    assert "action 4 ('fly:to_the_moon') is unknown" in capsys.readouterr().err
    path.write_text(json.dumps({"format": "something else"}))
    assert main(["replay", str(path), "-o", str(tmp_path / "f")]) == 2
    assert "not a maquis episode" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------
# env.render()
# ---------------------------------------------------------------------------------------------


def known_position(render_mode, seed=0):
    """Fixed missions, patrol deck and starting hand (reset options): the same position whatever
    the seed. Day 0, action phase: a tag at rue_baradat, a weapon bought at the fence."""
    env = maquis.MaquisEnv(render_mode=render_mode, missions=["officers_mansion", "aid_the_spy"])
    options = {"patrol_deck": DECK, "start": {"resources": {"money": 2, "weapon": 1}}}
    env.reset(seed=seed, options=options)
    for name in [
        "place:rue_baradat",
        "place:fence",
        "place:cafe",
        "act:rue_baradat:graffiti",
        "act:fence:weapon",
    ]:
        env.step(env.action_from_str(name))
    return env


KNOWN_ANSI = """\
MAQUIS  normal  day START  phase action
awaiting: activate a placed worker (1 on the board)
day       [START] 1 2 3! 4 5 6! 7 8 9! 10 11 12! 13 14! END   (! morale -1)
morale    FAIL 1 2 3 4 5 [6] 7   min patrols 3
soldiers  [0] 1 2 3 4 5   milice left 5
missions
  mission_a  officers_mansion (0*)            boxes 1/4  in progress
  mission_b  aid_the_spy (2*)                 boxes 0/2  in progress
board
  mission_a      -
  mission_b      -
  fence          -
  pont_du_nord   milice
  radio_b        milice
  rue_baradat    -                tagged
  poor_district  -
  black_market   -
  doctor         -
  spare_room_ne  -
  radio_a        milice
  pont_leveque   -
  grocer         -
  spare_room_w   -
  spare_room_se  -
  field_w        -
  cafe           worker
  safe_house     -
  field_e        -
resources intel food medicine money weapon explosive poison fake_id
  hand        0    0        0     1      2         0      0       0
  supply      4    4        4     3      2         4      4       4
workers   available 2, placed 1, stuck 0, recruitable 2, gone 0
patrols   deck 7 (order hidden), discard 3, patrols today 3, shot today no
  discard #4 radio_a > rue_baradat > grocer
          #1 radio_b > grocer > black_market
          #7 fence > pont_du_nord > pont_leveque
closed roads  none
"""


def test_env_render_ansi_snapshot_of_a_known_position():
    env = known_position("ansi")
    assert env.render() == KNOWN_ANSI
    assert known_position("ansi", seed=99).render() == KNOWN_ANSI  # the options fix everything
    assert env.render() == render_ansi(env.state_dict())


def test_env_render_rgb_array_shape_and_change_after_a_step():
    env = known_position("rgb_array")
    img = env.render()
    assert isinstance(img, np.ndarray) and img.shape == (720, 960, 3) and img.dtype == np.uint8
    assert np.array_equal(img, render_rgb(env.state_dict()))
    env.step(env.action_from_str("shoot:radio_a"))  # F8: the Milice leaves, the soldier track moves
    after = env.render()
    assert after.shape == img.shape and after.dtype == np.uint8
    assert not np.array_equal(after, img)


def test_env_render_through_gymnasium_make():
    import gymnasium

    for mode, kind in (("ansi", str), ("rgb_array", np.ndarray)):
        env = gymnasium.make("maquis/Maquis-v0", render_mode=mode)
        env.reset(seed=0)
        assert isinstance(env.render(), kind)
        env.close()


def test_record_video(tmp_path):
    pytest.importorskip("moviepy")
    import gymnasium
    from gymnasium.wrappers import RecordVideo

    env = gymnasium.make("maquis/Maquis-v0", render_mode="rgb_array", missions=MISSIONS)
    env = RecordVideo(
        env, video_folder=str(tmp_path / "videos"), episode_trigger=lambda e: True, disable_logger=True
    )
    env.reset(seed=3)
    done = False
    while not done:
        _, _, terminated, truncated, _ = env.step(env.unwrapped.sample_action())
        done = terminated or truncated
    env.close()
    videos = list((tmp_path / "videos").glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000


def test_the_readme_picture_still_replays(read_png):
    # docs/board.png is the last position of docs/board_episode.json; regenerate it with
    # `python -m maquis replay docs/board_episode.json -o /tmp/frames` (the last frame) if the engine or the
    # renderer changes.
    path = Path(__file__).resolve().parents[1] / "docs" / "board_episode.json"
    *_, last = replay_states(load_episode(path))
    assert last["phase"] == "action" and last["outcome"] is None
    assert read_png(path.with_name("board.png")).shape == (720, 960, 3)

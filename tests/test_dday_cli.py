"""`maquis dday play | eval | bench | render` and `maquis.dday.evaluate`, on the real engine.

The terminal game is driven by scripted input: the script reads the menu the game offers and
answers by menu number, by name, by prefix and by `#index`, mixed with bad input that must be
refused with a message and a new prompt; end of input quits cleanly.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pytest

dday = pytest.importorskip("maquis.dday")
if not hasattr(dday, "raw_env"):
    pytest.skip("maquis.dday has no environments in this build", allow_module_level=True)

import play_script  # noqa: E402
from maquis.cli import main  # noqa: E402
from maquis.dday import evaluation  # noqa: E402
from maquis.dday.play import Game, match_action  # noqa: E402

BAD = ["", "zzz", "999", "#500", "#abc", "guess:paris:3", "help", "legal", "board", "a"]


def scripted(game: Game, seed: int, bad_every: int = 5):
    """An `ask` for `game`: mostly legal choices in every accepted form, sometimes bad input."""
    return play_script.scripted(game, seed, BAD, bad_every)


def play(side: str, opponent: str, seed: int, bad_every: int = 5):
    out: list[str] = []
    game = Game(side, opponent, seed, budget=20, out=out.append)
    game.ask_line = scripted(game, seed, bad_every)
    code = game.run()
    return code, "\n".join(out), game


@pytest.mark.parametrize("side,opponent,seed", [("resistance", "random", 1), ("german", "heuristic", 2), ("both", "random", 3)])
def test_a_whole_game_with_scripted_input_never_crashes(side, opponent, seed):
    code, text, game = play(side, opponent, seed)
    assert code == 0
    assert game.over() and "GAME OVER" in text
    assert "is not an action, a menu number or a command" in text  # zzz
    assert "There is no entry 999" in text
    assert "There is no action with index 500" in text
    sd = game.env.state_dict()
    assert f"{sd['vp']['resistance']}-{sd['vp']['german']} VP" in text


def test_the_resistance_player_never_sees_the_hidden_allocation():
    code, text, game = play("resistance", "heuristic", 4)
    sd = game.env.state_dict()
    assert "allocate:" not in text
    assert "places an item (hidden)" in text
    for z in sd["allocation"]:
        if z in sd["attacked"]:
            continue
        name = z.replace("_", " ").title()
        assert re.search(rf"^\s*{name}\s+\?\s+\?", text, re.M)  # its row: items ? value ?
        assert not re.search(rf"^\s*{name}\s+(squad|goods|passenger|vip|gendarme)", text, re.M)
        assert not re.search(rf"{name} \d+ \(", text.replace("Saint Lo 8 (", ""))  # nor its value


def test_the_german_player_sees_his_allocation():
    code, text, game = play("german", "random", 5, bad_every=1000)
    assert "german: allocate:" in text or "allocate:" in text


def test_hot_seat_passes_the_terminal():
    code, text, _ = play("both", "heuristic", 6, bad_every=1000)
    assert "pass the terminal to the german player" in text
    assert "pass the terminal to the resistance player" in text


def _run_with(answers, side="resistance"):
    answers = iter(answers)
    out: list[str] = []

    def ask(prompt):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    game = Game(side, "heuristic", 7, out=out.append, ask=ask)
    assert game.run() == 0
    return "\n".join(out), game


def test_save_writes_what_the_player_sees_and_the_hint_keeps_his_side(tmp_path):
    view, full = tmp_path / "view.json", tmp_path / "full.json"
    text, game = _run_with(["stop_interrogation", "save", f"save {view}", f"save --full {full}",
                            f"save {tmp_path}/no/such/dir/x.json"])
    assert "Usage: save FILE" in text and "Could not save" in text
    # The default save holds only the Resistance's view: the zones it has not attacked are empty.
    assert f"Saved the position as the resistance sees it to {view}" in text
    assert f"`maquis dday render {view} --side resistance -o board.png`" in text
    saved = json.loads(view.read_text())
    assert saved["viewer"] == "resistance" and set(saved["hidden"]) == set(dday.ZONES)
    assert all(v is None for v in saved["allocation"].values())
    assert main(["dday", "render", str(view), "-o", str(tmp_path / "view.png")]) == 0
    assert main(["dday", "render", str(view), "--side", "german", "-o", str(tmp_path / "g.png")]) == 2
    # save --full: the whole position, which loads back; its hint still draws the player's side.
    assert f"Saved the whole position to {full}" in text
    assert f"`maquis dday render {full} --side resistance -o board.png`" in text
    env = dday.raw_env()
    env.reset(seed=0)
    env.load_state(full.read_text())
    assert env.state_dict() == game.env.state_dict()
    assert main(["dday", "render", str(full), "--side", "resistance", "--text"]) == 0


def test_the_german_save_is_the_whole_position(tmp_path):
    path = tmp_path / "german.json"
    text, game = _run_with([f"save {path}"], side="german")
    assert f"Saved the whole position to {path}" in text and "--side german" in text
    env = dday.raw_env()
    env.reset(seed=0)
    env.load_state(path.read_text())
    assert env.state_dict() == game.env.state_dict()


def _screens(lines: list[str]) -> list[list[str]]:
    """Each screen of a transcript: the lines from one blank line up to the next PROMPT."""
    screens, screen = [], []
    for line in "\n".join(lines).splitlines():
        if line == "":
            screen = []
        else:
            screen.append(line)
        if line == "PROMPT":
            screens.append(screen)
            screen = []
    return screens


@pytest.mark.parametrize("side,seed", [("resistance", 8), ("german", 9), ("both", 10)])
def test_every_screen_fits_80_by_24(side, seed):
    out: list[str] = []
    game = Game(side, "heuristic", seed, budget=20, out=out.append)
    inner = scripted(game, seed, bad_every=1000)
    shown: list[list[str]] = []

    def ask(prompt):
        out.append("PROMPT")  # where the player types: the screen's last line
        return inner(prompt)

    game.ask_line = ask
    assert game.run() == 0
    for screen in _screens(out):
        shown.append(screen)
        assert len(screen) <= 24, "\n".join(screen)
        assert max(len(line) for line in screen) <= 80, "\n".join(screen)
    assert len(shown) > 10 and any(any(line.startswith("section") for line in s) for s in shown)
    last = "\n".join(out).split("\n\n")[-1].splitlines()  # the game-over screen
    assert last[-1].startswith("GAME OVER") and len(last) <= 24 and max(map(len, last)) <= 80
    # The guess menu (51 entries) leaves the campaign and the guesses on the screen.
    first = next(s for s in shown if any("guess:caen:1..10" in line for line in s)) if side != "german" else None
    if first is not None:
        assert any(line.startswith("Caen") for line in first) and any("guesses left" in line for line in first)



def test_end_of_input_quits_cleanly():
    out: list[str] = []

    def eof(prompt):
        raise EOFError

    game = Game("resistance", "random", 0, out=out.append, ask=eof)
    assert game.run() == 0
    assert "End of input: quitting." in out


@pytest.mark.parametrize("argv", [["dday", "--help"], ["dday", "eval", "--help"], ["dday", "play", "--help"]])
def test_help_of_every_level(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 0
    assert "usage: maquis dday" in capsys.readouterr().out


def test_play_command_refuses_a_bad_budget(capsys):
    assert main(["dday", "play", "--budget", "0"]) == 2
    assert "--budget must be at least 1" in capsys.readouterr().out


def test_match_action_forms():
    legal = [(75, "stop_interrogation"), (25, "guess:caen:1"), (26, "guess:caen:2")]
    f = dday.action_from_str
    assert match_action("1", legal, f) == (75, "")
    assert match_action("stop", legal, f) == (75, "")
    assert match_action("#26", legal, f) == (26, "")
    assert match_action("GUESS:CAEN:2", legal, f) == (26, "")
    index, why = match_action("guess:caen", legal, f)
    assert index is None and "matches 2 legal actions" in why
    index, why = match_action("#27", legal, f)
    assert index is None and "guess:caen:3" in why and "not legal" in why
    index, why = match_action("end_turn", legal, f)
    assert index is None and "not legal now" in why


def test_play_command_line_with_scripted_stdin():
    proc = subprocess.run(
        [sys.executable, "-m", "maquis", "dday", "play", "--seed", "3", "--opponent", "random"],
        input="help\nzzz\n1\nstop_interrogation\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "How to play D-Day 1944" in proc.stdout
    assert "End of input: quitting." in proc.stdout
    assert "Traceback" not in proc.stderr


# -- evaluate ------------------------------------------------------------------------------------


def test_evaluate_table_per_side_and_opponent():
    result = evaluation.evaluate("random", side="both", opponents=("random", "heuristic"), episodes=6, seed=3)
    assert [(r.side, r.opponent) for r in result.rows] == [
        ("resistance", "random"), ("resistance", "heuristic"), ("german", "random"), ("german", "heuristic")
    ]
    for r in result.rows:
        assert r.episodes == 6 and sum(r.counts.values()) == 6
        for o in ("win", "draw", "loss"):
            lo, hi = r.interval(o)
            assert 0 <= lo <= r.rate(o) + 1e-12 and r.rate(o) <= hi + 1e-12 and hi <= 1  # the interval holds the rate
        assert r.mean_vp >= 0 and r.mean_opponent_vp >= 0
    again = evaluation.evaluate("random", side="both", opponents=("random", "heuristic"), episodes=6, seed=3)
    assert again.to_dict() == result.to_dict()
    text = result.to_text()
    assert "resistance" in text and "heuristic" in text and "%" in text
    assert json.loads(result.to_json())["rows"][0]["ci95"]["win"]


def test_evaluate_a_policy_object():
    class First:
        name = "first_legal"

        def act(self, obs, mask):
            assert obs.shape == (380,)
            return int(np.flatnonzero(mask)[0])

    result = evaluation.evaluate(First(), side="german", opponents=("random",), episodes=3, seed=0)
    assert result.rows[0].policy == "first_legal" and result.rows[0].side == "german"


def _first_legal_policy_file(path, obs_size=380, num_actions=191):
    """A `maquis-mlp-v1` file whose logits are -index: its masked argmax is the first legal action."""
    from maquis.common.policy import save_policy

    save_policy(path, [np.zeros((obs_size, num_actions), np.float32)],
                [-np.arange(num_actions, dtype=np.float32)], "tanh", {"game": "dday1944"})
    return path


def test_evaluate_a_saved_policy_file(tmp_path, capsys):
    class First:
        def act(self, obs, mask):
            return int(np.flatnonzero(mask)[0])

    path = _first_legal_policy_file(tmp_path / "first.npz")
    from_file = evaluation.evaluate(str(path), side="both", opponents=("heuristic",), episodes=4, seed=5)
    direct = evaluation.evaluate(First(), side="both", opponents=("heuristic",), episodes=4, seed=5)
    assert [r.counts for r in from_file.rows] == [r.counts for r in direct.rows]
    assert [r.mean_vp for r in from_file.rows] == [r.mean_vp for r in direct.rows]
    assert from_file.rows[0].policy == str(path)
    out = tmp_path / "eval.json"
    code = main(["dday", "eval", "--policy", str(path), "--opponents", "random", "--side", "german",
                 "--episodes", "2", "--json", str(out)])
    assert code == 0
    assert json.loads(out.read_text())["rows"][0]["policy"] == str(path)
    capsys.readouterr()


def test_evaluate_refuses_bad_policy_files(tmp_path, capsys):
    from maquis.dday.policy import load_policy

    maquis_sized = _first_legal_policy_file(tmp_path / "maquis.npz", obs_size=100, num_actions=50)
    with pytest.raises(ValueError, match="observations of 100 and 50 actions; this game has 380 and 191"):
        load_policy(maquis_sized)
    with pytest.raises(ValueError, match="missing.npz"):
        evaluation.evaluate(str(tmp_path / "missing.npz"), opponents=("random",), episodes=1)
    junk = tmp_path / "junk.npz"
    junk.write_text("not a policy")
    with pytest.raises(ValueError, match="junk.npz"):
        load_policy(junk)
    assert main(["dday", "eval", "--policy", str(junk), "--opponents", "random", "--episodes", "1"]) == 2
    assert "junk.npz" in capsys.readouterr().err


def test_evaluate_refuses_bad_arguments():
    with pytest.raises(ValueError, match="unknown side"):
        evaluation.evaluate("random", side="allies", episodes=1)
    with pytest.raises(ValueError, match="unknown opponent 'grandmaster'"):
        evaluation.evaluate("random", opponents=("grandmaster",), episodes=1)
    with pytest.raises(ValueError, match="episodes"):
        evaluation.evaluate("random", episodes=0)
    with pytest.raises(TypeError, match="act"):
        evaluation.evaluate(42, opponents=("random",), episodes=1)


def test_eval_command(capsys, tmp_path):
    out = tmp_path / "eval.json"
    code = main(["dday", "eval", "--agents", "random", "--opponents", "random", "--side", "resistance",
                 "--episodes", "3", "--json", str(out)])
    assert code == 0
    assert "random" in capsys.readouterr().out
    assert json.loads(out.read_text())["rows"][0]["episodes"] == 3
    assert main(["dday", "eval", "--opponents", "nobody", "--episodes", "1"]) == 2


def test_bench_command(capsys, tmp_path):
    out = tmp_path / "bench.json"
    code = main(["dday", "bench", "--quick", "--envs", "8", "--threads", "1,2", "--seconds", "0.1", "--repeats", "2",
                 "--json", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "engine, random play, 1 thread" in text and "vector env, 8 envs x 2 threads" in text
    assert "ladder of random,heuristic,network, 20 deals (120 games), 2 threads" in text
    figures = json.loads(out.read_text())
    # the ladder's cost: the fast levels' ladder, and each search level's seconds a game
    assert figures["ladder"]["fast_ladder"]["games"] == 120 and figures["ladder"]["fast_ladder"]["seconds"] > 0
    assert [r["agent"] for r in figures["ladder"]["levels"]] == ["search", "network_search"]
    assert all(r["games"] == 2 and r["seconds_per_game"] > 0 for r in figures["ladder"]["levels"])
    assert figures["engine"]["games_per_s"] > 0
    assert [(v["envs"], v["threads"]) for v in figures["vector"]] == [(8, 1), (8, 2)]
    assert all(v["learner_steps_per_s"] > 0 for v in figures["vector"])
    # --json alone: the figures on stdout, nothing else.
    assert main(["dday", "bench", "--quick", "--envs", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["settings"]["quick"] is True


# -- render a saved state ------------------------------------------------------------------------


def _saved_position(tmp_path):
    env = dday.raw_env()
    env.reset(seed=8)
    rng = np.random.default_rng(0)
    for _ in range(60):
        if env.state_dict()["outcome"] is not None:
            break
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    path = tmp_path / "save.json"
    path.write_text(env.save_state())
    return path, env.state_dict()


def test_render_command_from_a_save(tmp_path, capsys):
    path, sd = _saved_position(tmp_path)
    png = tmp_path / "board.png"
    assert main(["dday", "render", str(path), "-o", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["dday", "render", str(path), "--side", "resistance", "--text"]) == 0
    text = capsys.readouterr().out
    assert f"phase {sd['phase']}" in text and "seen by resistance" in text
    dumped = tmp_path / "sd.json"
    dumped.write_text(json.dumps(sd))
    assert main(["dday", "render", str(dumped), "-o", str(tmp_path / "b2.png")]) == 0


def test_render_command_refuses_a_bad_file(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["dday", "render", str(bad)]) == 2
    assert "not JSON" in capsys.readouterr().err
    assert main(["dday", "render", str(tmp_path / "missing.json")]) == 2


def test_render_names_the_game_of_a_maquis_save(tmp_path, capsys):
    import maquis

    env = maquis.MaquisEnv()
    env.reset(seed=0)
    save = tmp_path / "maquis_save.json"
    save.write_text(env.save_state())
    dumped = tmp_path / "maquis_sd.json"
    dumped.write_text(json.dumps(env.state_dict()))
    for path in (save, dumped):
        assert main(["dday", "render", str(path), "-o", str(tmp_path / "x.png")]) == 2
        err = capsys.readouterr().err
        assert "this is a Maquis save" in err and "use `maquis render`" in err
        assert "phase" not in err
    assert not (tmp_path / "x.png").exists()


def test_play_record_then_replay(tmp_path, capsys):
    record = tmp_path / "game.json"
    proc = subprocess.run(
        [sys.executable, "-m", "maquis", "dday", "play", "--seed", "4", "--opponent", "random", "--side", "both",
         "--record", str(record)],
        input="1\n1\n1\n2\n1\n", capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(record.read_text())
    assert data["format"] == "maquis.dday1944-episode" and data["seed"] == 4 and len(data["actions"]) == 5
    frames = tmp_path / "frames"
    assert main(["dday", "replay", str(record), "-o", str(frames), "--width", "160"]) == 0
    assert sorted(p.name for p in frames.iterdir()) == [f"step_{k:03d}.png" for k in range(6)]
    assert "6 PNG files" in capsys.readouterr().out
    # The last frame is the position the game reached.
    from maquis.dday.snapshot import VERBS

    states = list(VERBS.replay_states(data))
    env = dday.raw_env()
    env.reset(seed=4)
    for name in data["actions"]:
        env.step(env.action_from_str(name))
    assert states[-1] == env.state_dict()
    # An action that is not legal where it is played is refused, naming it.
    data["actions"][0] = "end_turn"
    record.write_text(json.dumps(data))
    assert main(["dday", "replay", str(record), "-o", str(frames)]) == 2
    assert "action 1 (end_turn) is not legal" in capsys.readouterr().err
    # An episode given to render says which command draws it.
    assert main(["dday", "render", str(record)]) == 2
    assert "use `maquis dday replay`" in capsys.readouterr().err


def test_eval_json_alone_prints_json(capsys):
    code = main(["dday", "eval", "--agents", "random", "--opponents", "random", "--side", "german",
                 "--episodes", "2", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert [(r["policy"], r["side"], r["opponent"], r["episodes"]) for r in data["rows"]] == [
        ("random", "german", "random", 2)
    ]


def test_env_render_modes_use_the_renderer():
    env = dday.raw_env(render_mode="ansi")
    env.reset(seed=1)
    assert env.render().startswith("D-DAY 1944 | phase allocation")
    env = dday.raw_env(render_mode="rgb_array")
    env.reset(seed=1)
    img = env.render()
    assert img.shape == (720, 960, 3) and img.dtype == np.uint8

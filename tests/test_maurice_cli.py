"""`maquis maurice play | render | replay | bench` on the real engine.

The terminal game is driven by scripted input: the script reads the menu the game offers and
answers by menu number, by name, by prefix and by `#index`, mixed with bad input that must be
refused with a message and a new prompt; end of input quits cleanly."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

maurice = pytest.importorskip("maquis.maurice")
if not hasattr(maurice, "raw_env"):
    pytest.skip("maquis.maurice has no environments in this build", allow_module_level=True)

import play_script  # noqa: E402
from maquis.cli import main  # noqa: E402
from maquis.common.terminal import SCREEN_HEIGHT, SCREEN_WIDTH, match_action  # noqa: E402
from maquis.maurice.play import Game  # noqa: E402

BAD = ["", "zzz", "9999", "#5000", "#abc", "cell:99:99", "help", "legal", "board", "c"]


def scripted(game: Game, seed: int, bad_every: int = 6):
    """An `ask` for `game`: mostly legal choices in every accepted form, sometimes bad input."""
    return play_script.scripted(game, seed, BAD, bad_every, menu_form=True)


def play(side: str, opponent: str, seed: int, bad_every: int = 6, screens=None):
    out: list[str] = []
    game = Game(side, opponent, seed, budget=10, scenario="skirmish", out=out.append)
    game.ask_line = scripted(game, seed, bad_every)
    if screens is not None:
        show = game.show

        def record():
            screens.append(game.screen())
            show()

        game.show = record
    code = game.run()
    return code, "\n".join(out), game


@pytest.mark.parametrize("side,opponent,seed", [("blue", "random", 1), ("red", "heuristic", 2), ("both", "random", 3)])
def test_a_whole_game_with_scripted_input_never_crashes(side, opponent, seed):
    screens: list = []
    code, text, game = play(side, opponent, seed, screens=screens)
    assert code == 0
    assert game.over() and "GAME OVER" in text
    assert "is not an action, a menu number or a command" in text  # zzz
    assert "There is no entry 9999" in text
    assert "There is no action with index 5000" in text
    # Every screen fits 80 x 24 with the prompt.
    for screen in screens:
        assert len(screen) <= SCREEN_HEIGHT - 1 and all(len(line) <= SCREEN_WIDTH for line in screen), "\n".join(screen)
    sd = game.env.state_dict()
    assert f"round {sd['round']}" in text.splitlines()[-1]


def test_a_player_sees_only_his_hand():
    screens: list = []
    code, text, game = play("blue", "heuristic", 4, screens=screens)
    assert screens
    for screen in screens:
        joined = "\n".join(screen)
        assert "blue hand:" in joined and "red hand:" not in joined
    # `board` shows the whole position as blue sees it: red's hand hidden.
    assert "hand red (" in text and ": hidden" in text


def test_hot_seat_shows_the_mover_his_hand_and_passes_the_terminal():
    screens: list = []
    code, text, game = play("both", "random", 5, screens=screens)
    assert "=== BLUE to play: pass the terminal to the blue player ===" in text
    assert "=== RED to play: pass the terminal to the red player ===" in text
    for screen in screens:
        mover = screen[-1 - next(k for k, line in enumerate(reversed(screen)) if "to decide (" in line)].split()[0]
        joined = "\n".join(screen)
        assert f"{mover} hand:" in joined
        assert f"{'red' if mover == 'blue' else 'blue'} hand:" not in joined


def test_end_of_input_quits_cleanly():
    out: list[str] = []

    def ask(prompt):
        raise EOFError

    game = Game("blue", "random", 1, scenario="skirmish", out=out.append, ask=ask)
    assert game.run() == 0
    assert "End of input: quitting." in out


def test_save_writes_what_the_player_sees_and_the_whole_position(tmp_path, capsys):
    out: list[str] = []
    answers = iter([f"save {tmp_path / 'mine.json'}", f"save --full {tmp_path / 'all.json'}", "save", "quit"])
    game = Game("blue", "random", 7, scenario="skirmish", out=out.append, ask=lambda p: next(answers))
    assert game.run() == 0
    mine = json.loads((tmp_path / "mine.json").read_text())
    assert mine["viewer"] == "blue" and all(c is None for c in mine["hands"]["red"])
    assert any("--side blue" in line for line in out)
    assert any(line.startswith("Usage: save FILE") for line in out)
    whole = (tmp_path / "all.json").read_text()
    env = maurice.raw_env()
    env.reset(seed=0)
    env.load_state(whole)
    assert env.state_dict() == game.env.state_dict()
    # Both draw; the view of blue refuses to be drawn as red.
    assert main(["maurice", "render", str(tmp_path / "mine.json"), "--text"]) == 0
    assert "hand red (" in capsys.readouterr().out
    assert main(["maurice", "render", str(tmp_path / "mine.json"), "--side", "red", "--text"]) == 2
    assert "--side blue" in capsys.readouterr().err
    assert main(["maurice", "render", str(tmp_path / "all.json"), "--side", "red", "-o", str(tmp_path / "r.png"), "--width", "320"]) == 0
    assert (tmp_path / "r.png").read_bytes()[:4] == b"\x89PNG"


def test_match_action_forms():
    legal = [(0, "volley"), (1, "no_volley")]
    assert match_action("1", legal, maurice.action_from_str, maurice.ACTION_NAMES) == (0, "")
    assert match_action("#1", legal, maurice.action_from_str, maurice.ACTION_NAMES) == (1, "")
    assert match_action("no", legal, maurice.action_from_str, maurice.ACTION_NAMES) == (1, "")
    assert match_action("VOLLEY", legal, maurice.action_from_str, maurice.ACTION_NAMES) == (0, "")
    assert "not legal now" in match_action("march", legal, maurice.action_from_str, maurice.ACTION_NAMES)[1]
    assert "(march)" in match_action("#3", legal, maurice.action_from_str, maurice.ACTION_NAMES)[1]
    assert "0-1446" in match_action("#x", legal, maurice.action_from_str, maurice.ACTION_NAMES)[1]
    assert "There is no entry 3" in match_action("3", legal, maurice.action_from_str, maurice.ACTION_NAMES)[1]


def test_play_command_line_with_scripted_stdin(tmp_path):
    record = tmp_path / "game.json"
    lines = "\n".join(["help", "legal", "zzz", "1", "board"] + ["1"] * 3000) + "\n"
    run = subprocess.run(
        [sys.executable, "-m", "maquis", "maurice", "play", "--scenario", "skirmish", "--opponent", "random",
         "--seed", "3", "--record", str(record)],
        input=lines, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "How to play Maurice Lite" in run.stdout and "Recorded" in run.stdout
    assert "unexpected_delay (span 4, x2, interrupt): the activation distance grows by 8 BW" in run.stdout
    data = json.loads(record.read_text())
    assert data["format"] == "maquis.maurice-episode" and data["reset_options"] == {"scenario": "skirmish"}
    assert data["seed"] == 3 and data["actions"]


def test_play_record_then_replay(tmp_path, capsys):
    out: list[str] = []
    game = Game("blue", "heuristic", 11, scenario="skirmish", out=out.append)
    game.ask_line = scripted(game, 11, bad_every=1000)
    game.run()
    from maquis.maurice.snapshot import VERBS

    path = tmp_path / "episode.json"
    whole = VERBS.episode(11, game.actions, game.env.state_dict()["outcome"], game.options)
    assert list(VERBS.replay_states(whole))[-1] == game.env.state_dict()  # the whole game replays exactly
    # Drawn: the first 12 positions (an unfinished game has no outcome to compare).
    path.write_text(json.dumps(VERBS.episode(11, game.actions[:12], None, game.options)))
    gif = tmp_path / "game.gif"
    assert main(["maurice", "replay", str(path), "-o", str(gif), "--width", "160", "--side", "blue"]) == 0
    assert gif.read_bytes()[:3] == b"GIF"
    assert "12 actions, outcome none (unfinished)" in capsys.readouterr().out
    frames = tmp_path / "frames"
    assert main(["maurice", "replay", str(path), "-o", str(frames), "--width", "160"]) == 0
    assert len(list(frames.glob("step_*.png"))) == 13
    # An episode with an illegal action is refused by name.
    bad = json.loads(path.read_text())
    bad["actions"][0] = "cell:0:0"
    path.write_text(json.dumps(bad))
    assert main(["maurice", "replay", str(path), "-o", str(tmp_path / "bad")]) == 2
    assert "action 1 (cell:0:0) is not legal" in capsys.readouterr().err


def test_render_refuses_bad_files_and_other_games_saves(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["maurice", "render", str(bad)]) == 2
    assert "not JSON" in capsys.readouterr().err
    assert main(["maurice", "render", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    from maquis import dday

    env = dday.raw_env()
    env.reset(seed=0)
    other = tmp_path / "dday.json"
    other.write_text(env.save_state())
    assert main(["maurice", "render", str(other)]) == 2
    assert "D-Day 1944 save, not a Maurice Lite one" in capsys.readouterr().err
    menv = maurice.raw_env()
    menv.reset(seed=0)
    mine = tmp_path / "maurice.json"
    mine.write_text(menv.save_state())
    assert main(["dday", "render", str(mine)]) == 2
    assert "Maurice Lite save" in capsys.readouterr().err
    dumped = tmp_path / "maurice_state.json"  # a state_dict, known by its keys
    dumped.write_text(json.dumps(menv.state_dict()))
    assert main(["dday", "render", str(dumped)]) == 2
    assert "Maurice Lite save" in capsys.readouterr().err
    assert main(["maurice", "render", str(dumped), "--text"]) == 0
    assert "MAURICE LITE" in capsys.readouterr().out


@pytest.mark.parametrize("verb", ["play", "render", "replay", "docs", "playthrough", "bench", "eval", "serve"])
def test_help_of_every_verb(verb, capsys):
    with pytest.raises(SystemExit) as e:
        main(["maurice", verb, "--help"])
    assert e.value.code == 0
    assert "usage: maquis maurice" in capsys.readouterr().out


def test_play_command_refuses_a_bad_budget(capsys):
    assert main(["maurice", "play", "--budget", "0"]) == 2
    assert "--budget must be at least 1" in capsys.readouterr().err


def test_bench_command(capsys, tmp_path):
    out = tmp_path / "bench.json"
    assert main(["maurice", "bench", "--quick", "--scenario", "skirmish", "--observation", "compact",
                 "--envs", "8", "--threads", "1", "--seconds", "0.01", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "engine, random play, 1 thread" in text and "vector env, 8 envs x 1 threads" in text
    data = json.loads(out.read_text())
    assert data["engine"]["games_per_s"] > 0 and data["engine"]["decisions_per_game"] > 10
    assert data["vector"][0]["learner_steps_per_s"] > 0 and data["settings"]["scenario"] == "skirmish"
    # the rated ladder's cost: the fast levels' ladder, then each slower level's seconds a game
    assert "ladder of random,heuristic, 5 deals (10 games), 1 thread" in text
    assert data["ladder"]["fast_ladder"]["seconds"] > 0
    assert [r["agent"] for r in data["ladder"]["levels"]] == ["search", "network", "network_search"]
    assert all(r["games"] == 2 and r["seconds_per_game"] > 0 for r in data["ladder"]["levels"])


def _modifier_game(side: str, seed: int, scenario: str = "standard"):
    """A game whose human plays a modifier card whenever one is legal (else a random legal
    action), to the end; its output lines and the (screen, state) before each decision."""
    import random

    out: list[str] = []
    seen: list[tuple[list[str], dict]] = []
    game = Game(side, "random", seed, budget=10, scenario=scenario, out=out.append)
    rng = random.Random(seed)

    def ask(prompt: str) -> str:
        seen.append((game.screen(), game.state()))
        legal = game.legal()
        phase = game.state()["phase"]
        cards = [name for _, name in legal if name.startswith("card:")]
        if phase in ("volley_modifier", "action_modifier") and cards:
            return rng.choice(cards)
        return legal[rng.randrange(len(legal))][1]

    game.ask_line = ask
    assert game.run() == 0
    return out, seen, game


def test_the_screen_keeps_both_armies_in_view():
    out, seen, game = _modifier_game("blue", 6)
    assert len(seen) > 20
    for screen, sd in seen:
        rows = {int(line[:2]) for line in screen if line[:2].strip().isdigit() and line[2:4] in ("  ", ": ")}
        for side in ("blue", "red"):
            army = {y for u in sd["units"][side] if u["on_table"] for _, y in u["cells"]}
            if army:
                assert army & rows, (side, sorted(rows), "\n".join(screen))
        mv = sd["round_state"]["moving"]
        if mv:
            joined = "\n".join(screen)
            assert f"unit {mv['id']} moving" in joined
            assert f"spent {mv['spent']} of {mv['allowance']} BW, {mv['allowance'] - mv['spent']} left" in joined


def test_a_modifier_card_says_what_it_changed():
    # The news of a modifier card, in this round's terms (RULES K8).
    text = ""
    for seed in range(1, 8):
        out, seen, game = _modifier_game("both", seed, "skirmish")
        text = "\n".join(out)
        if "BW to the allowance of each unit of" in text:
            break
    assert "BW to the allowance of each unit of" in text
    line = next(line for line in text.splitlines() if "BW to the allowance of each unit of" in line)
    # "  > red: card:march_4 (-2 BW to the allowance of each unit of blue's force)"
    mover, card = line.split("> ", 1)[1].split(": card:", 1)
    owner = line.rsplit(" of ", 1)[1].split("'s force")[0]
    sign = "+2" if owner == mover else "-2"
    assert f"({sign} BW to the allowance of each unit of {owner}'s force)" in line
    # The panel names it too, with the allowance it changed once a unit moves.
    panels = [("\n".join(s), sd) for s, sd in seen if sd["round_state"]["moving"] and
              any((m or {}).get("action", "") and m["action"].startswith("march_")
                  for m in sd["round_state"]["modifiers"].values())]
    assert panels
    for joined, sd in panels:
        net = sum((2 if side == sd["active"] else -2) for side, m in sd["round_state"]["modifiers"].items()
                  if (m or {}).get("action") and m["action"].startswith("march_"))
        allowance = sd["round_state"]["moving"]["allowance"]
        assert net == 0 or f"march cards {allowance - net} -> {allowance}" in joined


def test_narration_of_each_modifier_kind():
    game = Game("blue", "random", 1, budget=10, scenario="skirmish", out=lambda line: None)
    dice = len(game.state()["dice_log"])
    game._before = {"phase": "action_modifier", "active": "blue"}
    assert game.narrate("red", "card:march_4", dice) == [
        "red: card:march_4 (-2 BW to the allowance of each unit of blue's force)"]
    assert game.narrate("blue", "card:march_8", dice) == [
        "blue: card:march_8 (+2 BW to the allowance of each unit of blue's force)"]
    assert game.narrate("red", "card:bombard_4", dice) == [
        "red: card:bombard_4 (-1 to hit on every die of blue's bombardment)"]
    game._before = {"phase": "volley_modifier", "active": "blue"}
    assert game.narrate("red", "card:thick_smoke", dice) == [
        "red: card:thick_smoke (-1 to hit on every die of blue's fire this volley phase)"]
    # A card played for span or as a command is only named.
    game._before = {"phase": "span", "active": "blue"}
    assert game.narrate("blue", "card:march_4", dice) == ["blue: card:march_4"]


def test_help_says_what_every_card_does():
    game = Game("blue", "random", 1, budget=10, scenario="skirmish", out=lambda line: None)
    text = "\n".join(game.help_lines())
    flat = " ".join(text.split())
    for c in maurice.CARDS:
        span = "no span" if c["span"] is None else f"span {c['span']}"
        assert f"{c['id']} ({span}, x{c['copies']}" in flat
        assert " ".join(c["effect"].split()) in flat
    table = text[text.index("Cards ("):].splitlines()
    assert len(table) > len(maurice.CARDS) and all(len(line) <= SCREEN_WIDTH for line in table)

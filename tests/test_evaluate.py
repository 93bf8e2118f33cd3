"""maquis.evaluate and `maquis eval`: Wilson intervals, determinism, any policy on every level."""

import json
import subprocess
import sys

import numpy as np
import pytest

import maquis
from maquis.cli import main
from maquis.maquis.evaluation import DIFFICULTIES, OUTCOMES, EvalResult, wilson_interval


@pytest.mark.parametrize(
    "k, n, lo, hi",
    [
        # Known values (e.g. Wilson 1927; Newcombe 1998, Table I, 95%).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (20, 20, 0.8389, 1.0),
        (50, 100, 0.4038, 0.5962),
    ],
)
def test_wilson_interval_known_counts(k, n, lo, hi):
    got = wilson_interval(k, n)
    assert got == pytest.approx((lo, hi), abs=6e-4)


def test_wilson_interval_edges_and_errors():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(5, 3)
    lo, hi = wilson_interval(30, 100)
    assert lo < 0.3 < hi


def first_legal(obs, mask):
    return int(np.flatnonzero(mask)[0])


def test_first_legal_policy_runs_on_every_level():
    result = maquis.evaluate(first_legal, DIFFICULTIES, episodes=12, seed=3)
    assert [r.difficulty for r in result.overall()] == list(DIFFICULTIES)
    for row in result.overall():
        assert row.episodes == 12
        assert sum(row.counts[o] for o in OUTCOMES) == 12
        assert 0 <= row.mean_days <= 30
    # Per-star rows partition the episodes of each level.
    for d in DIFFICULTIES:
        assert sum(r.episodes for r in result.by_stars() if r.difficulty == d) == 12


def test_evaluation_is_deterministic_for_a_seed():
    a = maquis.evaluate("heuristic", ["normal"], episodes=40, seed=7).to_dict()
    b = maquis.evaluate("heuristic", ["normal"], episodes=40, seed=7).to_dict()
    assert a == b
    c = maquis.evaluate("random", ["hard"], episodes=40, seed=7, num_threads=1).to_dict()
    d = maquis.evaluate("random", ["hard"], episodes=40, seed=7, num_threads=2).to_dict()
    assert c["rows"] == d["rows"]


def test_policy_forms_agree():
    """An agent object, its name, and a plain per-observation callable give the same table."""
    agent = maquis.maquis.agents.HeuristicAgent(seed=1)  # evaluate() seeds a named agent with its seed
    by_name = maquis.evaluate("heuristic", ["normal"], episodes=16, seed=1).rows
    by_object = maquis.evaluate(agent, ["normal"], episodes=16, seed=1).rows
    by_callable = maquis.evaluate(lambda o, m: agent.act(o, m), ["normal"], episodes=16, seed=1).rows
    assert [r.counts for r in by_name] == [r.counts for r in by_object] == [r.counts for r in by_callable]


def test_heuristic_beats_random_on_normal():
    h = maquis.evaluate("heuristic", ["normal"], episodes=100, seed=0).row("normal")
    r = maquis.evaluate("random", ["normal"], episodes=100, seed=0).row("normal")
    assert h.mean_missions > r.mean_missions + 0.3
    assert h.counts["loss"] < r.counts["loss"]


def test_fixed_missions_and_pools():
    res = maquis.evaluate("random", ["easy"], episodes=10, seed=0, missions=["sabotage", "aid_the_spy"])
    assert [r.stars for r in res.by_stars()] == [3]
    res = maquis.evaluate("random", ["easy"], episodes=10, seed=0, mission_pool="pnp_2013", deal="grouped_2013")
    assert res.row("easy").episodes == 10
    with pytest.raises(ValueError):
        maquis.evaluate("random", ["impossible"], episodes=5)
    with pytest.raises(ValueError):
        maquis.evaluate("random", ["normal"], episodes=0)


def test_saved_policy_file_is_evaluated(tmp_path):
    from maquis.maquis.policy import save_policy

    rng = np.random.default_rng(0)
    w = [rng.normal(size=(maquis.OBS_SIZE, 16)).astype(np.float32), rng.normal(size=(16, maquis.NUM_ACTIONS)).astype(np.float32)]
    b = [np.zeros(16, np.float32), np.zeros(maquis.NUM_ACTIONS, np.float32)]
    path = tmp_path / "p.npz"
    save_policy(path, w, b, "tanh", {"note": "test"})
    res = maquis.evaluate(str(path), ["normal"], episodes=8, seed=0)
    assert res.row("normal").episodes == 8
    # A file for another observation size is refused with a clear message.
    bad = tmp_path / "bad.npz"
    save_policy(bad, [np.zeros((3, maquis.NUM_ACTIONS), np.float32)], [np.zeros(maquis.NUM_ACTIONS, np.float32)], "tanh", {})
    with pytest.raises(ValueError, match="observations of 3"):
        maquis.evaluate(str(bad), ["normal"], episodes=2)


def test_cli_eval_json(capsys):
    assert main(["eval", "--agents", "random,heuristic", "--difficulties", "normal,tricky", "--episodes", "6",
                 "--json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    rows = [r for r in data["rows"] if r["stars"] is None]
    assert {(r["agent"], r["difficulty"]) for r in rows} == {
        (a, d) for a in ("random", "heuristic") for d in ("normal", "tricky")
    }
    for r in rows:
        assert set(r["ci95"]) == set(OUTCOMES)


def test_cli_eval_table_and_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "bars.png"
    assert main(["eval", "--agents", "random", "--difficulties", "normal", "--episodes", "4", "--plot", str(out),
                 "--no-progress"]) == 0
    assert "random" in capsys.readouterr().out
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_eval_bad_input(capsys):
    assert main(["eval", "--agents", "nobody", "--episodes", "2"]) == 2
    assert "unknown agent" in capsys.readouterr().err
    assert main(["eval", "--agents", "random", "--difficulties", "legendary", "--episodes", "2", "--no-progress"]) == 2
    assert main(["eval", "--agents", "", "--policy", "/nonexistent.npz", "--episodes", "2"]) == 2


def test_result_text_has_every_level():
    res = EvalResult()
    assert "agent" in res.to_text()


def test_decision_time_times_agents_on_real_decisions():
    from maquis.maquis.evaluation import decision_time

    calls = []

    def policy(obs, mask):
        calls.append(int(mask.sum()))
        return int(np.flatnonzero(mask)[0])

    ms = decision_time(policy, "hard", positions=30, seed=4)
    assert ms > 0
    # one warm-up call, then the timed decisions, each with a real choice to make
    assert len(calls) == 31 and min(calls) > 1
    assert decision_time("heuristic", "normal", positions=5) > 0
    with pytest.raises(ValueError, match="positions"):
        decision_time("random", "normal", positions=0)
    with pytest.raises(ValueError, match="difficulty"):
        decision_time("random", "impossible")


def test_cli_eval_timing_prints_and_records_ms_per_decision():
    out = subprocess.run([sys.executable, "-m", "maquis", "eval", "--agents", "random", "--difficulties", "easy",
                          "--episodes", "4", "--timing", "5", "--json"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    times = json.loads(out.stdout)["settings"]["ms_per_decision"]
    assert set(times) == {"random"} and set(times["random"]) == {"easy"} and times["random"]["easy"] > 0


def test_cli_eval_table_is_one_row_per_agent_and_level_unless_by_stars(capsys):
    argv = ["eval", "--agents", "random,heuristic", "--difficulties", "easy,hard", "--episodes", "12", "--no-progress"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["agent", "difficulty", "games"]
    assert [line.split()[:2] for line in lines[2:]] == [
        ["random", "easy"], ["random", "hard"], ["heuristic", "easy"], ["heuristic", "hard"]
    ]
    assert main([*argv, "--by-stars"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:4] == ["agent", "difficulty", "stars", "games"]
    assert len(lines) > 6 and {line.split()[2] for line in lines[2:]} > {"all"}


def test_cli_eval_json_file_is_written_beside_the_table(tmp_path, capsys):
    out = tmp_path / "eval.json"
    assert main(["eval", "--agents", "random", "--difficulties", "easy", "--episodes", "4", "--json", str(out),
                 "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("agent") and f"wrote {out}" in text
    assert json.loads(out.read_text())["rows"][0]["episodes"] == 4


def test_both_games_print_rates_and_intervals_alike():
    import re

    from maquis.dday import evaluation as dday_evaluation

    cell = re.compile(r"\d+\.\d% \[\d+\.\d, \d+\.\d\]")
    maquis_text = maquis.evaluate("random", ["easy"], episodes=5, seed=0).to_text()
    dday_text = dday_evaluation.evaluate("random", side="german", opponents=("random",), episodes=2).to_text()
    assert len(cell.findall(maquis_text.splitlines()[2])) == len(OUTCOMES)
    assert len(cell.findall(dday_text.splitlines()[2])) == 3


def test_progress_is_a_bar_on_a_terminal_and_silent_otherwise(monkeypatch):
    import io

    from maquis.common.progress import progress_bar

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    tty = Terminal()
    monkeypatch.setattr(sys, "stderr", tty)
    bar = progress_bar(10)
    bar.update(10)
    bar.close()
    assert "0/10" in tty.getvalue() and "game" in tty.getvalue()
    tty.truncate(0)
    bar = progress_bar(10, enabled=False)  # --no-progress
    bar.update(10)
    bar.close()
    assert tty.getvalue() == ""
    log = io.StringIO()  # a redirected log: no carriage-return frames
    monkeypatch.setattr(sys, "stderr", log)
    bar = progress_bar(10)
    bar.update(10)
    bar.close()
    assert log.getvalue() == ""


def test_cli_eval_writes_nothing_on_a_redirected_stderr():
    out = subprocess.run([sys.executable, "-m", "maquis", "eval", "--agents", "random", "--difficulties", "easy",
                          "--episodes", "30"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stderr == ""

"""`maquis bench`: the command runs and reports sane numbers. No timing assertions: speed targets
belong in benchmarks (docs/performance.md), never in tests, which run on loaded machines."""

from __future__ import annotations

import json
import math
import statistics
import subprocess
import sys

import maquis
import pytest
from maquis._core import maquis as _core


@pytest.fixture(scope="module")
def report():
    """One `python -m maquis bench --quick --json` run, parsed."""
    out = subprocess.run(
        [sys.executable, "-m", "maquis", "bench", "--quick", "--json"],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return json.loads(out.stdout)


def test_bench_reports_every_kind_with_positive_finite_rates(report):
    kinds = {r["kind"] for r in report["rows"]}
    assert {"engine", "engine_observe", "single", "vector"} <= kinds
    for r in report["rows"]:
        assert r["steps_per_s"] > 0 and math.isfinite(r["steps_per_s"]), r
        assert r["us_per_step"] == pytest.approx(1e6 / r["steps_per_s"]), r
        assert r["num_envs"] >= 1 and r["threads"] >= 1, r
        assert r["repeats"] and all(x > 0 for x in r["repeats"]), r
        assert r["steps_per_cpu_s"] > 0, r


def test_bench_vector_rows_follow_the_settings_and_carry_a_ratio(report):
    settings = report["settings"]
    assert settings["quick"] is True
    vector = [r for r in report["rows"] if r["kind"] == "vector"]
    assert sorted({r["num_envs"] for r in vector}) == sorted(settings["envs"])
    for r in vector + [r for r in report["rows"] if r["kind"] == "engine_observe"]:
        # Each repeat against the engine run just before it; the ratio is the median pair.
        assert len(r["ratios"]) == len(r["paired_engine"]) == len(r["repeats"]) == settings["repeats"]
        for rate, engine, ratio in zip(r["repeats"], r["paired_engine"], r["ratios"]):
            assert ratio == pytest.approx(rate / (engine * r["threads"]), rel=1e-3)
        assert r["ratio"] == pytest.approx(statistics.median(r["ratios"]))
        assert r["ratio"] > 0


def test_bench_reports_memory_per_environment(report):
    mem = report["memory"]
    assert mem == _core.env_memory()
    assert mem["observation"] == 4 * maquis.OBS_SIZE
    assert mem["state"] > 0 and mem["env"] >= mem["state"]
    assert mem["outputs"] >= maquis.NUM_ACTIONS
    assert mem["total_beyond_observations"] == mem["env"] + mem["outputs"]
    assert report["machine"]["nproc"] >= 1


def test_bench_table_is_printed_without_json(capsys):
    from maquis.cli import main

    assert main(["bench", "--quick", "--envs", "2", "--threads", "1", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    assert "engine (Rust, random play)" in out
    assert "MaquisVectorEnv" in out
    assert "bytes" in out


def test_core_bench_functions_count_steps():
    steps, games, secs = _core.bench_engine(0.01)
    assert steps >= games >= 1 and secs > 0
    steps, games, secs = _core.bench_engine(0.01, "hard", 3, True)
    assert steps >= games >= 1 and secs > 0
    steps, games, secs = _core.bench_engine(0.01, "normal", 0, False, 2)
    assert steps >= games >= 2 and secs >= 0.01
    with pytest.raises(ValueError, match="copies"):
        _core.bench_engine(0.01, "normal", 0, False, 0)
    steps, secs = _core.bench_vector(4, 1, 0.01)
    assert steps > 0 and steps % 4 == 0 and secs > 0
    with pytest.raises(maquis.MaquisError):
        _core.bench_engine(0.01, "impossible")


def test_bench_rejects_bad_lists():
    from maquis.cli import main

    with pytest.raises(SystemExit):
        main(["bench", "--quick", "--envs", "0"])
    with pytest.raises(SystemExit):
        main(["bench", "--quick", "--threads", "x"])


def test_bench_with_two_threads_reports_the_engine_on_two_cores_at_once():
    out = subprocess.run(
        [sys.executable, "-m", "maquis", "bench", "--quick", "--json", "--threads", "1,2", "--envs", "2"],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    rows = json.loads(out.stdout)["rows"]
    (both,) = [r for r in rows if r["kind"] == "engine_parallel"]
    assert both["threads"] == 2 and both["steps_per_s"] > 0
    # Against one core × 2, each repeat paired with a one-core run just before it.
    for rate, engine, ratio in zip(both["repeats"], both["paired_engine"], both["ratios"]):
        assert ratio == pytest.approx(rate / (engine * 2), rel=1e-3)
    assert {r["threads"] for r in rows if r["kind"] == "vector"} == {1, 2}


def test_bench_train_reports_the_learner_rate_or_says_why_not():
    out = subprocess.run(
        [sys.executable, "-m", "maquis", "bench", "--quick", "--json", "--train", "--envs", "8"],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    rows = [r for r in json.loads(out.stdout)["rows"] if r["kind"] == "train"]
    try:
        import torch  # noqa: F401
    except ImportError:
        assert rows == [] and "torch is not installed" in out.stderr
        return
    assert [r["observation_dtype"] for r in rows] == ["float32", "uint8"]
    for r in rows:
        assert math.isfinite(r["steps_per_s"]) and r["steps_per_s"] > 0
        assert 0 < r["env_share"] < 1


def test_bench_times_the_default_path_the_copy_alone_and_uint8(report):
    big = max(report["settings"]["envs"])
    vec = [(r["name"], r["num_envs"]) for r in report["rows"] if r["kind"] in ("vector", "vector_copy")]
    names = [name for name, n in vec if n == big]
    assert names[0] == "MaquisVectorEnv copy=True float32"  # the default path leads
    for dtype in ("float32", "uint8"):
        assert f"MaquisVectorEnv copy=False {dtype}" in names
        assert f"  the copy alone ({dtype}, numpy, one thread)" in names

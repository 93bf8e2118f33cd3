"""Smoke tests of the D-Day training example (examples/dday_ppo.py): a few hundred learner steps.

The example runs in a subprocess, as a user would run it, with a tiny budget; the test checks that it
exits cleanly and writes what it promises: a `maquis-mlp-v1` policy.npz that `maquis.dday.evaluate`
and `maquis dday eval --policy` play, the learning curve, the final evaluation and a checkpoint that
`--resume` continues from. Without torch (`pip install torch`) these tests are SKIPPED.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import DEVICES, device_args

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

dday = pytest.importorskip("maquis.dday")
if importlib.util.find_spec("torch") is None:
    pytest.skip("torch is not installed (pip install torch): the training example is not run", allow_module_level=True)

TINY = ["--num-envs", "8", "--num-steps", "32", "--total-steps", "500", "--eval-every", "1", "--eval-episodes", "4",
        "--final-eval-episodes", "6", "--baselines", "heuristic", "--epochs", "1", "--hidden", "32"]


def _run(args: list[str], cwd: Path) -> str:
    env = dict(os.environ, PYTHONUNBUFFERED="1", OMP_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, str(EXAMPLES / "dday_ppo.py"), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"dday_ppo.py exited {proc.returncode}:\n{out[-4000:]}"
    return out


def _curve(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(open(path)))


@pytest.mark.parametrize("device", list(DEVICES))
def test_dday_ppo_trains_saves_and_resumes(tmp_path, device):
    from maquis.dday.policy import load_policy

    out = tmp_path / "run"
    on = device_args(device)
    log = _run([*TINY, *on, "--out", str(out)], tmp_path)
    assert "final ppo" in log
    for name in ("policy.npz", "checkpoint.pt", "curve.csv", "final_eval.json", "args.json"):
        assert (out / name).exists(), name
    rows = _curve(out / "curve.csv")
    assert len(rows) >= 2
    steps = [int(r["env_steps"]) for r in rows]
    assert steps == sorted(steps) and steps[-1] >= 500
    for r in rows:
        assert 0.0 <= float(r["eval_win_lo"]) <= float(r["eval_win"]) <= float(r["eval_win_hi"]) <= 1.0
    final = json.loads((out / "final_eval.json").read_text())
    assert final["episodes"] == 6 and set(final["results"]) == {"ppo", "heuristic"}

    # The saved policy plays legal moves as the Resistance, through evaluate and the command line.
    policy = load_policy(out / "policy.npz")
    assert policy.meta["game"] == "dday1944" and policy.meta["side"] == "resistance"
    env = dday.DDayEnv(side="resistance", opponent="heuristic")
    obs, info = env.reset(seed=3)
    for _ in range(40):
        a = policy.act(obs, info["action_mask"])
        assert info["action_mask"][a] == 1
        obs, _, terminated, _, info = env.step(a)
        if terminated:
            break
    result = dday.evaluate(str(out / "policy.npz"), side="resistance", opponents=("heuristic",), episodes=3, seed=0)
    assert sum(result.rows[0].counts.values()) == 3
    proc = subprocess.run([sys.executable, "-m", "maquis", "dday", "eval", "--policy", str(out / "policy.npz"),
                           "--side", "resistance", "--opponents", "heuristic", "--episodes", "2"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "policy.npz" in proc.stdout

    # --resume continues the count of steps and appends to the curve.
    log = _run([*TINY, *on, "--total-steps", "1000", "--out", str(out), "--resume", str(out / "checkpoint.pt")], tmp_path)
    assert "resumed from" in log
    again = _curve(out / "curve.csv")
    assert len(again) > len(rows)
    assert int(again[-1]["env_steps"]) >= 1000 and int(again[len(rows)]["env_steps"]) > steps[-1]


@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_dday_ppo_imitation_warm_start(tmp_path, device):
    out = tmp_path / "imitate"
    _run([*TINY, *device_args(device), "--out", str(out), "--imitate", "heuristic", "--imitate-minutes", "0.05",
          "--imitate-steps", "2", "--imitate-minibatch", "64", "--imitate-buffer", "1000"], tmp_path)
    phases = [r["phase"] for r in _curve(out / "curve.csv")]
    assert phases[0] == "imitate"
    w = np.load(out / "policy.npz")
    assert w["w0"].shape == (380, 32) and w[f"w{int(w['num_layers']) - 1}"].shape[1] == 191


def test_dday_ppo_against_a_cheap_search_imitating_a_given_network(tmp_path):
    """`--opponent-budget` sets the search opponent's simulations (training and evaluation) and is
    recorded in the policy; `--network FILE` is the network that `--imitate network` copies, and a
    file of another game is refused."""
    from maquis.dday.network import shipped_network_path
    from maquis.dday.policy import load_policy

    shipped = shipped_network_path()
    if shipped is None:
        pytest.skip("this maquis ships no D-Day network")
    out = tmp_path / "cheap"
    _run([*TINY, "--total-steps", "300", "--final-eval-episodes", "2", "--baselines", "", "--eval-episodes", "2",
          "--opponent", "search", "--opponent-budget", "4", "--network", str(shipped), "--imitate", "network",
          "--imitate-minutes", "0.02", "--imitate-steps", "1", "--imitate-minibatch", "32", "--imitate-buffer", "500",
          "--out", str(out)], tmp_path)
    assert load_policy(out / "policy.npz").meta["opponent_budget"] == 4
    assert json.loads((out / "args.json").read_text())["network"] == str(shipped)
    maquis_net = tmp_path / "maquis.safetensors"
    import maquis

    maquis_net.write_bytes(maquis._core.maquis.Network.random([4], 0).to_bytes())
    proc = subprocess.run([sys.executable, str(EXAMPLES / "dday_ppo.py"), *TINY, "--network", str(maquis_net),
                           "--out", str(tmp_path / "bad")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "--network" in proc.stderr and "dday1944" in proc.stderr, proc.stderr[-2000:]


def test_dday_ppo_trains_against_a_pool_of_weight_files(tmp_path):
    """`--train-opponents heuristic,network@FILE`: a weight file of one's own among the training
    opponents (its path made absolute in the record)."""
    from maquis.dday.network import shipped_network_path
    from maquis.dday.policy import load_policy

    pool = tmp_path / "pool"
    pool.mkdir()
    (pool / "past.safetensors").write_bytes(shipped_network_path().read_bytes())
    out = tmp_path / "pool_run"
    _run([*TINY, "--total-steps", "300", "--final-eval-episodes", "2", "--baselines", "", "--eval-episodes", "2",
          "--train-opponents", "heuristic,network@past.safetensors", "--out", str(out)], pool)
    assert load_policy(out / "policy.npz").meta["train_opponents"] == f"heuristic,network@{pool / 'past.safetensors'}"


def test_dday_ppo_shares_its_training_games_out_among_opponents(tmp_path):
    """`--train-opponents heuristic,network`: half the training environments face each (both
    recorded in the policy); the curve's evaluation stays against `--opponent`; an unknown
    opponent, or environments that do not share out equally, are clear errors."""
    from maquis.dday.policy import load_policy
    from maquis.dday.train.ppo import parse_args

    out = tmp_path / "pool"
    _run([*TINY, "--total-steps", "300", "--final-eval-episodes", "2", "--baselines", "", "--eval-episodes", "2",
          "--train-opponents", "heuristic, network", "--out", str(out)], tmp_path)
    meta = load_policy(out / "policy.npz").meta
    assert (meta["opponent"], meta["train_opponents"]) == ("heuristic", "heuristic,network")
    assert json.loads((out / "args.json").read_text())["train_opponents"] == "heuristic,network"
    assert parse_args([]).train_opponents == "heuristic"
    for argv, message in ((["--train-opponents", "heuristic,nobody"], "expected some of"),
                          (["--train-opponents", "heuristic,random,search", "--num-envs", "8"], "multiple of 3"),
                          (["--train-opponents", "heuristic,network@nowhere.safetensors"], "no such file"),
                          (["--train-opponents", "search@nowhere.safetensors"], "weight file is played by")):
        proc = subprocess.run([sys.executable, str(EXAMPLES / "dday_ppo.py"), *argv, "--out", str(tmp_path / "bad")],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2 and message in proc.stderr, proc.stderr[-2000:]

"""Smoke tests of the training examples (examples/*.py): a few hundred environment steps each.

Each example runs in a subprocess, as a user would run it, with a tiny budget; the test checks that it
exits cleanly and writes what it promises (a `maquis-mlp-v1` policy.npz that plays legal moves, the
learning-curve CSV). The training libraries are optional (`pip install ".[train]"`): without them
these tests are reported as SKIPPED, with the missing module named.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import DEVICES, device_args

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _has(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _needs(*modules: str):
    missing = [m for m in modules if not _has(m)]
    if "maquis" in missing:
        reason = "the maquis package is not built (pip install . or maturin develop)"
    else:
        reason = f"training extra not installed (no module {', '.join(missing)}): pip install '.[train]'"
    return pytest.mark.skipif(bool(missing), reason=reason)


def _run(script: str, args: list[str], tmp_path: Path, timeout: float = 240) -> str:
    env = dict(os.environ, PYTHONUNBUFFERED="1", OMP_NUM_THREADS="1", RAY_AUTH_MODE="disabled")
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=timeout,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"{script} exited {proc.returncode}:\n{out[-4000:]}"
    return out


def _load_example_policy(path: Path):
    """The numpy loader that examples/train_ppo.py names as the reference one (no torch needed)."""
    from maquis.maquis.policy import load_policy

    return load_policy(path)


def _masked_ppo():
    """maquis.train.ppo, the masked-PPO core the training examples import (torch only inside)."""
    from maquis.train import ppo

    return ppo


@pytest.mark.parametrize("script", ["train_ppo.py", "dday_ppo.py", "sb3_maskable_ppo.py", "rllib_ppo.py"])
def test_example_command_lines_need_no_training_library(script, tmp_path):
    out = _run(script, ["--help"], tmp_path, timeout=60)
    assert "--eval-episodes" in out and "--eval-seed" in out


def test_the_phase_schedule_imitates_then_decays_the_bc_term():
    from types import SimpleNamespace

    core = _masked_ppo()
    args = SimpleNamespace(lr=1e-3, anneal_lr=1, imitate_beta_end=0.3, imitate_lr=5e-4, bc_coef=0.5, bc_decay_minutes=1.0)
    start = core.phase_at(args, run_s=0.0, frac=0.0, imitate_s=60.0, has_expert=True)
    assert (start.imitating, start.beta, start.lr, start.need_expert) == (True, 1.0, 5e-4, True)
    late = core.phase_at(args, run_s=45.0, frac=0.5, imitate_s=60.0, has_expert=True)
    assert late.imitating and abs(late.beta - (1.0 - 0.7 * 0.75)) < 1e-12
    after = core.phase_at(args, run_s=90.0, frac=0.5, imitate_s=60.0, has_expert=True)
    assert (after.imitating, after.beta, after.bc_coef, after.lr) == (False, 0.0, 0.25, 5e-4)
    done = core.phase_at(args, run_s=200.0, frac=1.0, imitate_s=60.0, has_expert=True)
    assert (done.bc_coef, done.need_expert) == (0.0, False) and abs(done.lr - 1e-3 * 0.05) < 1e-15
    plain = core.phase_at(args, run_s=0.0, frac=0.0, imitate_s=0.0, has_expert=False)
    assert (plain.imitating, plain.bc_coef, plain.lr) == (False, 0.0, 1e-3)


def test_a_batch_expert_asks_its_agent_only_about_decisions():
    core = _masked_ppo()
    asked = []

    class Agent:
        def act_batch(self, obs, masks):
            asked.append(obs[:, 0].tolist())
            return masks.argmax(axis=1)

    expert = core.batch_expert(Agent())
    obs = np.arange(4, dtype=np.float32)[:, None]
    masks = np.array([[0, 1, 0], [1, 0, 0], [1, 1, 1], [0, 0, 1]], bool)
    valid = np.array([True, False, False, True])  # row 2 awaits its autoreset (every action in its row)
    assert expert(obs, masks, valid).tolist() == [1, 0, 0, 2]
    assert asked == [[0.0, 3.0]]


def _check_policy_plays_legal_moves(path: Path) -> None:
    import maquis

    policy = _load_example_policy(path)
    env = maquis.MaquisEnv(difficulty="normal", illegal_action="raise")
    obs, _ = env.reset(seed=3)
    assert policy.obs_size == obs.shape[0]
    assert policy.num_actions == env.action_space.n
    for _ in range(300):
        a = policy(obs, env.action_masks())
        assert env.action_masks()[a]
        obs, _, term, trunc, _ = env.step(a)
        if term or trunc:
            obs, _ = env.reset()
    # the same file through the package's loader, when it exists (`maquis eval --policy FILE`)
    try:
        import maquis.maquis.agents as agents
    except ImportError:
        return
    if hasattr(agents, "load_policy"):
        loaded = agents.load_policy(str(path))
        obs, _ = env.reset(seed=4)
        mask = env.action_masks()
        act = loaded.act(obs, mask) if hasattr(loaded, "act") else loaded(obs, mask)
        assert mask[int(act)]


# A tiny train_ppo.py run: 8 games of 32 steps a rollout, a small network, an evaluation per update.
TINY_PPO = ["--num-envs", "8", "--num-steps", "32", "--epochs", "1", "--hidden", "32", "--eval-every", "1",
            "--eval-episodes", "4", "--threads", "1", "--no-progress", "--out", "run"]


@_needs("maquis", "torch")
@pytest.mark.parametrize("device", list(DEVICES))
def test_train_ppo_smoke(tmp_path, device):
    args = ["--total-steps", "512", "--final-eval-episodes", "4", "--baselines", "random", *device_args(device)]
    out = _run("train_ppo.py", [*TINY_PPO, *args], tmp_path)
    run = tmp_path / "run"
    rows = list(csv.DictReader(open(run / "curve.csv")))
    assert len(rows) >= 2, out
    assert all(0.0 <= float(r["eval_win"]) <= 1.0 for r in rows)
    assert int(rows[-1]["env_steps"]) >= 512
    assert (run / "checkpoint.pt").exists() and (run / "final_eval.json").exists()
    _check_policy_plays_legal_moves(run / "policy.npz")


@_needs("maquis", "torch")
@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_train_ppo_imitation_smoke(tmp_path, device):
    """The imitation warm start (DAgger on the heuristic), then PPO with the decaying BC term."""
    args = ["--total-steps", "768", "--imitate", "heuristic", "--imitate-minutes", "0.002", "--bc-decay-minutes", "10",
            "--imitate-steps", "2", "--imitate-minibatch", "64", "--imitate-buffer", "2000", "--final-eval-episodes", "0",
            *device_args(device)]
    _run("train_ppo.py", [*TINY_PPO, *args], tmp_path)
    rows = list(csv.DictReader(open(tmp_path / "run" / "curve.csv")))
    assert rows[0]["phase"] == "imitate" and rows[-1]["phase"] == "ppo"
    assert float(rows[-1]["bc_coef"]) > 0
    _check_policy_plays_legal_moves(tmp_path / "run" / "policy.npz")


@_needs("maquis", "torch")
@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_train_ppo_curriculum_smoke(tmp_path, device):
    """A start-state curriculum recorded from heuristic games, annealed; the env's shaping off
    (on CUDA the start states go to both halves of the environments)."""
    args = ["--total-steps", "768", "--curriculum", "heuristic:2", "--curriculum-every", "8", "--curriculum-prob", "1.0",
            "--shaping", "off", "--final-eval-episodes", "4", "--baselines", "", *device_args(device)]
    _run("train_ppo.py", [*TINY_PPO, *args], tmp_path)
    rows = list(csv.DictReader(open(tmp_path / "run" / "curve.csv")))
    probs = [float(r["start_prob"]) for r in rows]
    assert probs[0] > probs[-1] >= 0.0
    assert all(0.0 <= float(r["eval_mission"]) <= 1.0 for r in rows)
    summary = json.loads((tmp_path / "run" / "final_eval.json").read_text())["results"]["ppo"]
    assert 0.0 <= summary["mission"] <= 1.0
    _check_policy_plays_legal_moves(tmp_path / "run" / "policy.npz")


@_needs("maquis", "torch", "sb3_contrib", "stable_baselines3")
def test_sb3_maskable_ppo_smoke(tmp_path):
    _run(
        "sb3_maskable_ppo.py",
        ["--total-steps", "256", "--num-envs", "2", "--n-steps", "128", "--batch-size", "64",
         "--eval-episodes", "2", "--threads", "1", "--verbose", "0", "--shaping", "--out", "run"],
        tmp_path,
    )
    assert (tmp_path / "run" / "model.zip").exists()
    _check_policy_plays_legal_moves(tmp_path / "run" / "policy.npz")


@_needs("maquis", "torch", "sb3_contrib", "stable_baselines3")
def test_sb3_maskable_ppo_stops_at_its_minutes(tmp_path):
    # --minutes alone: no step limit, the wall-clock budget ends the training.
    out = _run(
        "sb3_maskable_ppo.py",
        ["--minutes", "0.03", "--num-envs", "2", "--n-steps", "64", "--batch-size", "64",
         "--eval-episodes", "0", "--threads", "1", "--verbose", "0", "--out", "run"],
        tmp_path,
    )
    steps = int(re.search(r"trained (\d+) steps in ([\d.]+) min", out).group(1))
    assert 0 < steps < 1_000_000
    _check_policy_plays_legal_moves(tmp_path / "run" / "policy.npz")


@_needs("maquis", "torch", "ray.rllib")
def test_rllib_ppo_smoke(tmp_path):
    _run(
        "rllib_ppo.py",
        ["--iterations", "1", "--train-batch", "256", "--minibatch", "128", "--epochs", "1",
         "--envs-per-runner", "2", "--hidden", "32", "--num-cpus", "2", "--eval-episodes", "2", "--shaping",
         "--out", "run"],
        tmp_path,
    )
    assert (tmp_path / "run" / "checkpoint").is_dir()
    _check_policy_plays_legal_moves(tmp_path / "run" / "policy.npz")


def test_policy_format_round_trip(tmp_path):
    """The numpy policy format (maquis.maquis.policy) needs numpy only: save, load, masked argmax."""
    import maquis
    from maquis.maquis.policy import NumpyMLPPolicy, load_policy, save_policy

    rng = np.random.default_rng(0)
    ws = [rng.normal(size=(6, 5)).astype(np.float32), rng.normal(size=(5, 4)).astype(np.float32)]
    bs = [np.zeros(5, np.float32), np.zeros(4, np.float32)]
    pol = NumpyMLPPolicy(ws, bs, "tanh", meta={"note": "test"})
    x = rng.normal(size=(3, 6)).astype(np.float32)
    np.testing.assert_allclose(pol.logits(x), np.tanh(x @ ws[0]) @ ws[1], rtol=1e-5)
    mask = np.array([[True, False, False, False], [False, True, True, False], [False, False, False, True]])
    acts = pol(x, mask)
    assert all(mask[i, a] for i, a in enumerate(acts))
    assert pol(x[0], mask[0]) == 0
    # Saved and loaded at the real sizes, the same policy comes back.
    ws = [rng.normal(size=(maquis.OBS_SIZE, 8)).astype(np.float32), rng.normal(size=(8, maquis.NUM_ACTIONS)).astype(np.float32)]
    bs = [np.zeros(8, np.float32), np.zeros(maquis.NUM_ACTIONS, np.float32)]
    save_policy(tmp_path / "p.npz", ws, bs, "tanh", {"note": "test"})
    loaded = load_policy(tmp_path / "p.npz")
    assert loaded.meta == {"note": "test"}
    obs = rng.random((2, maquis.OBS_SIZE)).astype(np.float32)
    np.testing.assert_allclose(loaded.logits(obs), NumpyMLPPolicy(ws, bs).logits(obs), rtol=1e-6)


@pytest.mark.parametrize("script", ["train_ppo", "maquis.dday.train.ppo"])
def test_the_learning_curve_is_drawn_from_the_csv(script, tmp_path, monkeypatch):
    """Both learners' `plot_curve` (examples/train_ppo.py's, D-Day's in the package) through the
    shared `CurvePlot`, on a stand-in for matplotlib (the drawing calls are recorded, not rendered)."""
    import importlib
    import types
    from unittest import mock

    plt = mock.MagicMock()
    left, right = mock.MagicMock(), mock.MagicMock()
    plt.subplots.return_value = (mock.MagicMock(), (left, right))
    fake = types.ModuleType("matplotlib")
    fake.use = lambda backend: None
    fake.pyplot = plt
    monkeypatch.setitem(sys.modules, "matplotlib", fake)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", plt)
    monkeypatch.syspath_prepend(str(EXAMPLES))
    example = importlib.import_module(script)
    fields = ["env_steps", "minutes", "phase", "train_return", "train_win", "entropy", "eval_mission"]
    fields += [f"eval_{k}{s}" for k in ("win", "draw", "loss") for s in ("", "_lo", "_hi")]
    path = tmp_path / "curve.csv"
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fields)
        w.writeheader()
        for i, phase in enumerate(["imitate", "imitate", "ppo"]):
            w.writerow({k: 0.5 for k in fields} | {"env_steps": 1000 * (i + 1), "minutes": i, "phase": phase})
    baselines = {"heuristic": {"win": 0.3, "draw": 0.2}}
    assert example.plot_curve(path, tmp_path / "curve.png", baselines, "title") is True
    assert left.axvline.call_args[0][0] == pytest.approx(0.002)  # the last imitation update
    assert [c.kwargs["label"] for c in left.axhline.call_args_list][0].startswith("heuristic")
    assert right.plot.call_count >= 2
    plt.close.assert_called_once()


# -- The collection loop of the training examples and `maquis bench --train` (maquis.train.rollout) --


def _rollout():
    pytest.importorskip("torch")
    import maquis.train.rollout as rollout

    return rollout


def _test_devices():
    import torch

    return ["cpu", "cuda"] if torch.cuda.is_available() else ["cpu"]


@pytest.mark.parametrize("game", ["maquis", "dday"])
def test_uint8_observations_become_the_float32_rows_on_the_device(game):
    rollout = _rollout()
    import torch

    if game == "maquis":
        import maquis as g

        make, divisor = g.MaquisVectorEnv, g.OBSERVATION_DIVISOR
    else:
        g = pytest.importorskip("maquis.dday")
        make, divisor = g.DDayVectorEnv, g.OBSERVATION_DIVISOR
    f32, u8 = make(16, observation_dtype="float32"), make(16, observation_dtype="uint8")
    rows = [f32.reset(seed=4)[0]], [u8.reset(seed=4)[0]]
    for _ in range(30):
        a = f32.sample_actions()
        rows[0].append(f32.step(a)[0])
        rows[1].append(u8.step(a)[0])
    want, raw = np.concatenate(rows[0]), np.concatenate(rows[1])
    np.testing.assert_array_equal(rollout.host_float32(raw, divisor), want)
    for device in _test_devices():
        dev = torch.device(device)
        got = rollout.ObservationDecoder(divisor, dev)(torch.as_tensor(raw, device=dev)).cpu().numpy()
        np.testing.assert_array_equal(got, want)  # bit for bit


def test_a_learner_on_cuda_gets_awake_workers_and_halves_from_16384_envs():
    rollout = _rollout()
    assert rollout.default_worker_spin("cpu") is None and rollout.default_worker_spin("cuda") == 0.002
    assert [rollout.default_halves("cpu", 65536), rollout.default_halves("cuda", 16383)] == [1, 1]
    assert rollout.default_halves("cuda:0", 16384) == 2


def test_vector_halves_play_the_environments_of_one_vector_env():
    rollout = _rollout()
    import maquis

    whole = maquis.MaquisVectorEnv(7)
    halves = rollout.VectorHalves(lambda n: maquis.MaquisVectorEnv(n, num_threads=3), 7, 2, worker_spin=0.001)
    assert [s.stop - s.start for s in halves.slices] == [4, 3]
    # The halves take turns on the first half's threads, which spin as asked.
    assert halves.shared_threads and [e.num_threads for e in halves.envs] == [3, 3]
    assert [e.worker_spin for e in halves.envs] == [0.001, 0.001]
    apart = rollout.VectorHalves(lambda n: maquis.MaquisVectorEnv(n, num_threads=2), 7, 2, share_threads=False)
    assert not apart.shared_threads and [e.worker_spin for e in apart.envs] == [0.0002, 0.0002]
    apart.close()
    obs = whole.reset(seed=21)[0]
    parts = halves.reset(seed=21)
    np.testing.assert_array_equal(np.concatenate([o for o, _ in parts]), obs)
    rng = np.random.default_rng(0)
    for _ in range(40):
        masks = whole.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks], np.int64)
        want = whole.step(actions)
        for h, sl in enumerate(halves.slices):
            halves.send(h, actions[sl])
        got = [halves.recv(h) for h in range(len(halves))]
        for k in (0, 1, 2, 3):
            np.testing.assert_array_equal(np.concatenate([g[k] for g in got]), want[k])
    halves.close()


def test_masked_sampling_draws_legal_actions_by_their_probabilities():
    rollout = _rollout()
    import torch

    torch.manual_seed(0)
    for device in _test_devices():
        logits = torch.tensor([[0.0, 1.0, 2.0, 3.0], [5.0, -1.0, 0.5, 0.0]], device=device).repeat(20000, 1)
        mask = torch.tensor([[True, False, True, True], [False, False, True, True]], device=device).repeat(20000, 1)
        actions, logp = rollout.masked_sample(logits, mask)
        assert bool(mask.gather(1, actions[:, None]).all())
        expected = torch.log_softmax(logits.masked_fill(~mask, float("-inf")), -1)
        torch.testing.assert_close(logp, expected.gather(1, actions[:, None]).squeeze(1))
        for row in (0, 1):
            counts = torch.bincount(actions[row::2], minlength=4).float().cpu() / 20000
            np.testing.assert_allclose(counts.numpy(), expected[row].exp().cpu().numpy(), atol=0.015)


def test_a_bad_device_is_refused_with_its_name():
    rollout = _rollout()
    import torch

    with pytest.raises(ValueError, match="'tpu'"):
        rollout.resolve_device("tpu")
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="no CUDA device"):
            rollout.resolve_device("cuda")
    assert rollout.resolve_device("auto").type in ("cpu", "cuda")


@pytest.mark.parametrize("halves", [1, 2])
def test_the_bench_rollout_row_says_where_its_time_goes(halves):
    _rollout()
    from maquis.maquis.bench_train import bench_train

    row = bench_train(0.05, 1, "normal", 1, "uint8", num_envs=8, steps=4, halves=halves)
    assert row["halves"] == halves and row["device"] == "cpu" and row["steps_per_s"] > 0
    t = row["timers"]
    shares = [v for k, v in t.items() if k.endswith("_share")]
    assert 0.0 <= row["env_share"] <= 1.0 and 0.0 <= t["env_wait_share"] <= 1.0
    assert all(v >= 0 for v in shares) and sum(shares) == pytest.approx(1.0, abs=0.02)


def test_the_staging_copies_the_envs_own_rows_once_they_stay_put():
    rollout = _rollout()
    import torch

    import maquis

    if not torch.cuda.is_available():
        pytest.skip("page-locking the env's rows is CUDA's")
    dev = torch.device("cuda")
    env = maquis.MaquisVectorEnv(512, observation_dtype="uint8", copy=False)  # rows above the locking size
    staging = rollout.Staging(512, maquis.OBS_SIZE, maquis.NUM_ACTIONS, "uint8", dev)
    obs, info = env.reset(seed=3)
    for step in range(6):
        o, m = staging.upload(obs, info["action_mask"])
        torch.testing.assert_close(o.cpu(), torch.from_numpy(np.array(obs)))
        torch.testing.assert_close(m.cpu(), torch.from_numpy(np.array(info["action_mask"], dtype=bool)))
        actions = staging.download(rollout.masked_sample(torch.zeros(m.shape, device=dev), m)[0])
        obs, _, _, _, info = env.step(actions)
        if step >= 2:  # the env's own arrays, met twice at the same address (both, unless they share a page)
            assert "obs" in staging.locked
    # Rows that are new arrays every step (copy=True) go through the pinned buffers.
    fresh = np.array(obs)
    o, _ = staging.upload(fresh, np.array(info["action_mask"]))
    assert staging.locked == ()
    torch.testing.assert_close(o.cpu(), torch.from_numpy(fresh))
    staging.close()
    env.close()


@pytest.mark.parametrize("halves", [1, 2])
def test_the_bench_rollout_replays_a_cuda_graph(halves):
    _rollout()
    import torch

    from maquis.maquis.bench_train import bench_train

    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="CUDA"):
            bench_train(0.05, 1, "normal", 1, "uint8", num_envs=8, steps=4, graph=True)
        return
    row = bench_train(0.05, 1, "normal", 2, "uint8", num_envs=64, steps=4, device="cuda", halves=halves, graph=True)
    assert row["graph"] and row["halves"] == halves and row["steps_per_s"] > 0


def test_bench_graph_needs_cuda():
    r = subprocess.run(
        [sys.executable, "-m", "maquis", "bench", "--quick", "--train", "--graph"], capture_output=True, text=True
    )
    if "torch is not installed" in r.stderr:
        pytest.skip("torch not installed")
    assert r.returncode != 0 and "--graph" in r.stderr and "cuda" in r.stderr


@_needs("maquis", "torch")
def test_train_ppo_graph_needs_cuda(tmp_path):
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / "train_ppo.py"), "--graph", "--device", "cpu", "--total-steps", "256"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode != 0 and "--graph: CUDA graphs need --device cuda" in proc.stderr

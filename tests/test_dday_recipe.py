"""`maquis dday train --recipe shipped`: the shipped D-Day network's whole chain from one command
(expert iteration, a PPO German, a PPO Resistance, a distillation), run here at a tiny scale; each
step's result feeds the next, a finished step is skipped and a stopped one resumes."""

from __future__ import annotations

import csv
import json
import subprocess
import sys

import pytest

pytest.importorskip("torch")

from maquis._core import dday as _dday  # noqa: E402
from maquis.dday import network as dnet  # noqa: E402
from maquis.dday.agents import load_network  # noqa: E402
from maquis.dday.policy import load_policy  # noqa: E402
from maquis.train import dday_recipe  # noqa: E402


def _recipe(out, *extra):
    return subprocess.run([sys.executable, "-m", "maquis", "dday", "train", "--recipe", "shipped", "--out", str(out),
                           "--threads", "1", *extra], capture_output=True, text=True, timeout=900)


def test_the_recipe_chains_its_steps_skips_finished_ones_and_resumes_a_stopped_one(tmp_path):
    out = tmp_path / "recipe"
    first = _recipe(out, "--recipe-scale", "0.0005")
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    expert = out / "1_expert_iteration" / "chosen.safetensors"
    assert load_network(expert)["observation"] == _dday.OBSERVATION_FINGERPRINT
    # Step 1's network is the generation that won most against the heuristic, both seats measured.
    with open(out / "1_expert_iteration" / "choice.csv") as f:
        choice = list(csv.DictReader(f))
    assert [int(r["generation"]) for r in choice] == list(range(6))
    best = max(choice, key=lambda r: (float(r["mean"]), int(r["generation"])))
    assert [r["chosen"] for r in choice].count("True") == 1 and best["chosen"] == "True"
    chosen_gen = out / "1_expert_iteration" / f"net_gen{best['generation']}.safetensors"
    assert expert.read_bytes() == chosen_gen.read_bytes()
    german, resistance = (load_policy(out / step / "policy.npz") for step in ("2_ppo_german", "3_ppo_resistance"))
    assert (german.meta["side"], german.meta["opponent"]) == ("german", "search")
    assert (resistance.meta["side"], resistance.meta["opponent"]) == ("resistance", "heuristic")
    # The Resistance imitated step 1's network, and the distillation started from it, with both PPO learners.
    assert json.loads((out / "3_ppo_resistance" / "args.json").read_text())["network"] == str(expert)
    training = json.loads(load_network(out / "dday.safetensors")["training"])
    assert training["init"] == str(expert)
    assert training["teacher"] == (f"distill german={out / '2_ppo_german' / 'policy.npz'} "
                                   f"resistance={out / '3_ppo_resistance' / 'policy.npz'} with the --init network")
    assert (out / "dday.safetensors").read_bytes() == (out / "4_distill" / "net_gen0.safetensors").read_bytes()

    # Stopped before step 1's choice, during step 2 (its checkpoint kept, no final evaluation) and
    # before step 4: the same command chooses again without replaying a generation, resumes step 2
    # from its checkpoint and runs step 4 again, step 3 skipped.
    expert.unlink()
    generations = {p: p.stat().st_mtime_ns for p in (out / "1_expert_iteration").glob("net_gen*.safetensors")}
    (out / "2_ppo_german" / "final_eval.json").unlink()
    for f in (out / "4_distill").rglob("*"):
        if f.is_file():
            f.unlink()
    again = _recipe(out, "--recipe-scale", "0.0005")
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
    assert "choice: generation" in again.stdout
    assert {p: p.stat().st_mtime_ns for p in generations} == generations
    assert expert.read_bytes() == chosen_gen.read_bytes()
    assert "step 3/4 3_ppo_resistance: done already" in again.stdout
    assert f"resumed from {out / '2_ppo_german' / 'checkpoint.pt'}" in again.stdout
    assert (out / "2_ppo_german" / "final_eval.json").exists() and (out / "4_distill" / "net_gen0.safetensors").exists()
    shipped = dnet.shipped_network_path()
    if shipped is not None:
        load_network(shipped)


def test_the_recipe_scales_its_counts_and_resumes_a_ppo_step_from_its_checkpoint(tmp_path):
    n = dday_recipe.scaled(0.01)
    assert (n(300), n(64, 4), n(45.0), n(3.0)) == ("3", "4", "0.45", "0.03")
    full = dday_recipe.scaled(1.0)
    assert (full(400_000), full(45.0)) == ("400000", "45")
    ppo = next(s for s in dday_recipe.STEPS if s.folder == "3_ppo_resistance")
    argv = dday_recipe.step_arguments(ppo, tmp_path, 1.0, 2)
    assert argv[:2] == ["--out", str(tmp_path / "3_ppo_resistance")] and "--resume" not in argv
    assert argv[argv.index("--minutes") + 1] == "45" and argv[argv.index("--env-threads") + 1] == "2"
    (tmp_path / "3_ppo_resistance").mkdir()
    (tmp_path / "3_ppo_resistance" / "checkpoint.pt").write_bytes(b"")
    argv = dday_recipe.step_arguments(ppo, tmp_path, 1.0, 2)
    assert argv[-2:] == ["--resume", str(tmp_path / "3_ppo_resistance" / "checkpoint.pt")]


@pytest.mark.parametrize("extra, message", [(["--recipe-scale", "0"], "--recipe-scale must be positive"),
                                            (["--recipe", "other"], "invalid choice")])
def test_a_bad_recipe_argument_is_a_clear_error(tmp_path, extra, message):
    bad = _recipe(tmp_path / "bad", *extra)
    assert bad.returncode == 2 and message in bad.stderr, bad.stderr

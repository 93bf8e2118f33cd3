"""`maquis maurice train --recipe shipped`: Maurice Lite's shipped network from one command (two
expert-iteration runs with the gate, the second from the first's kept network, PPO on the
second's network, then the walk: imitation against the levels, PPO against `random`, and a
distillation of the two PPO networks), run here at a tiny scale: the chain, a stopped step resumed, and the same bytes
from the same command run twice."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from maquis._core import maurice as _maurice  # noqa: E402
from maquis.common.network_file import read_network_file  # noqa: E402
from maquis.maurice.agents import load_network  # noqa: E402
from maquis.maurice.train import recipe  # noqa: E402

SCALE = "0.01"


def _recipe(cwd, *extra):
    """The recipe with a relative `--out`, so that two runs in two folders name the same paths."""
    return subprocess.run([sys.executable, "-m", "maquis", "maurice", "train", "--recipe", "shipped", "--out",
                           "recipe", "--threads", "1", *extra], cwd=cwd, capture_output=True, text=True, timeout=900)


def _networks(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*.safetensors"))}


def test_the_recipe_chains_resumes_and_makes_the_same_bytes_twice(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    run = _recipe(first, "--recipe-scale", SCALE)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    out = first / "recipe"
    expert, margin, ppo = out / "1_expert_iteration", out / "2_margin", out / "3_ppo"
    assert load_network(out / "maurice.safetensors")["observation"] == _maurice.OBSERVATION_FINGERPRINT
    # Each expert-iteration step's result is its last kept generation; the second step starts from
    # the first's, and PPO from the second's.
    assert (expert / "expert.safetensors").read_bytes() == (expert / "best.safetensors").read_bytes()
    # Then the walk: search against the levels from PPO's network, PPO kept by its games against
    # `random`, and the two PPO networks distilled into the shipped one.
    levels, walk, distill = out / "4_levels", out / "5_walk", out / "6_distill"
    assert (out / "maurice.safetensors").read_bytes() == (distill / "distill.safetensors").read_bytes()
    assert (walk / "walk.safetensors").read_bytes() == (walk / "best_network.safetensors").read_bytes()
    record = lambda path: json.loads(load_network(path)["training"])  # noqa: E731
    assert record(levels / "levels.safetensors")["init"] == "recipe/3_ppo/ppo.safetensors"
    assert record(levels / "levels.safetensors")["teacher"] == "search@1 against random,heuristic,search"
    assert record(walk / "walk.safetensors")["init"] == "recipe/4_levels/levels.safetensors"
    assert record(distill / "distill.safetensors")["teacher"] == (
        "network@recipe/3_ppo/ppo.safetensors against heuristic (12 games) + "
        "network@recipe/5_walk/walk.safetensors against random (6 games)")
    # PPO's result is the network of the evaluation its gate kept last (the starting one when none
    # passed), tested through the heuristic against the one kept before.
    assert (ppo / "ppo.safetensors").read_bytes() == (ppo / "best_network.safetensors").read_bytes()
    trained = json.loads(load_network(ppo / "ppo.safetensors")["training"])
    assert trained["init"] == "recipe/2_margin/margin.safetensors"
    with open(ppo / "curve.csv") as f:
        curve = list(csv.DictReader(f))
    assert int(curve[-1]["env_steps"]) >= 5_000 and int(curve[0]["update"]) == 0
    with open(ppo / "gate.csv") as f:
        gates = list(csv.DictReader(f))
    tested = [int(r["update"]) for r in curve[1:]]
    assert [int(r["update"]) for r in gates] == sorted(set(tested)) and {r["through"] for r in gates} == {"heuristic"}
    kept = int(gates[-1]["kept"])
    assert (ppo / "ppo.safetensors").read_bytes() == (ppo / "gate" / f"update{kept}.safetensors").read_bytes()
    assert trained["env_steps"] == int(next(r for r in curve if int(r["update"]) == kept)["env_steps"])
    assert json.loads(load_network(margin / "net_gen0.safetensors")["training"])["init"] == \
        "recipe/1_expert_iteration/expert.safetensors"
    for step, generations in ((expert, 4), (margin, 3)):
        with open(step / "gate.csv") as f:
            rows = list(csv.DictReader(f))
        assert [int(r["generation"]) for r in rows] == list(range(1, generations))
        kept = int(rows[-1]["kept"])
        assert (step / "best.safetensors").read_bytes() == (step / f"net_gen{kept}.safetensors").read_bytes()

    # The same command in another folder: the same network files, byte for byte, and the same
    # gate decisions (their `seconds` aside).
    again = _recipe(second, "--recipe-scale", SCALE)
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
    assert _networks(second / "recipe") == _networks(out)
    assert _decisions(second / "recipe" / "2_margin") == _decisions(margin)

    # Stopped in step 2 after its generation 1 (its command run for two generations, step 1 done):
    # the same recipe command skips step 1, resumes step 2 after generation 1 with its kept
    # network, and makes the same weights and decisions (the files' training record names the
    # command that made each generation, here not the same for all).
    third = tmp_path / "third"
    shutil.copytree(expert, third / "recipe" / "1_expert_iteration")
    step2 = recipe.step_arguments(recipe.STEPS[1], Path("recipe"), float(SCALE), 1)
    step2[step2.index("--generations") + 1] = "2"
    stopped = subprocess.run([sys.executable, "-m", "maquis", "maurice", "train", *step2], cwd=third,
                             capture_output=True, text=True, timeout=900)
    assert stopped.returncode == 0, stopped.stdout[-3000:] + stopped.stderr[-3000:]
    resumed = _recipe(third, "--recipe-scale", SCALE)
    assert resumed.returncode == 0, resumed.stdout[-3000:] + resumed.stderr[-3000:]
    assert "step 1/6 1_expert_iteration: done already" in resumed.stdout
    assert "after generation 1" in resumed.stdout
    for name in ("net_gen0", "net_gen1", "net_gen2", "best"):
        mine, theirs = (read_network_file(str(root / f"{name}.safetensors"))[0] for root in (third / "recipe" / "2_margin", margin))
        assert all(np.array_equal(mine[k], theirs[k]) for k in theirs), name
    assert _decisions(third / "recipe" / "2_margin") == _decisions(margin)


def _decisions(step):
    with open(step / "gate.csv") as f:
        return [(r["generation"], r["against"], r["through"], r["pairs"], r["counts"], r["llr"], r["decision"], r["kept"])
                for r in csv.DictReader(f)]


def test_the_recipe_scales_its_counts():
    n = recipe.scaled(0.01)
    step1, step2, step3, step4, step5, step6 = recipe.STEPS
    argv = recipe.step_arguments(step1, Path("DIR"), 0.01, 2)
    assert argv[:2] == ["--out", "DIR/1_expert_iteration"]
    assert argv[argv.index("--games0") + 1] == n(300) == "3" and argv[argv.index("--gate-max-pairs") + 1] == "20"
    assert "--gate" in argv and argv[argv.index("--threads") + 1] == "2"
    full = recipe.step_arguments(step2, Path("DIR"), 1.0, 2)
    assert full[full.index("--init") + 1] == "DIR/1_expert_iteration/expert.safetensors"
    assert [full[full.index(k) + 1] for k in ("--generations", "--games0", "--teacher0-budget", "--games", "--budget",
                                              "--seed")] == ["3", "200", "100", "150", "50", "2"]
    ppo = recipe.step_arguments(step3, Path("DIR"), 1.0, 2)
    assert ppo[ppo.index("--init-network") + 1] == "DIR/2_margin/margin.safetensors"
    assert [ppo[ppo.index(k) + 1] for k in ("--total-steps", "--threads", "--env-threads", "--train-opponents")] == \
        ["500000", "1", "2", "heuristic,random"]
    assert "--minutes" not in ppo, "a budget of minutes would not make the same bytes twice"
    assert "--keep-best" not in ppo and ppo[ppo.index("--eval-episodes") + 1] == "100"
    for argv in (recipe.step_arguments(step, Path("DIR"), 1.0, 2) for step in (step1, step2, step3)):
        assert "--gate" in argv and argv[argv.index("--gate-against") + 1] == "heuristic"
    levels = recipe.step_arguments(step4, Path("DIR"), 1.0, 2)
    assert [levels[levels.index(k) + 1] for k in ("--init", "--generations", "--games0", "--opponents0")] == \
        ["DIR/3_ppo/ppo.safetensors", "1", "1200", "random,heuristic,search"]
    walk = recipe.step_arguments(step5, Path("DIR"), 1.0, 2)
    assert [walk[walk.index(k) + 1] for k in ("--init-network", "--opponent", "--total-steps", "--threads")] == \
        ["DIR/4_levels/levels.safetensors", "random", "200000", "1"]
    assert "--keep-best" in walk and "--minutes" not in walk
    distill = recipe.step_arguments(step6, Path("DIR"), 1.0, 2)
    teachers = [distill[i + 1] for i, a in enumerate(distill) if a == "--teacher0"]
    assert teachers == ["network@DIR/3_ppo/ppo.safetensors:heuristic:1200",
                        "network@DIR/5_walk/walk.safetensors:random:600"]


@pytest.mark.parametrize("extra, message", [(["--recipe-scale", "0"], "--recipe-scale must be positive"),
                                            (["--recipe", "other"], "invalid choice")])
def test_a_bad_recipe_argument_is_a_clear_error(tmp_path, extra, message):
    bad = _recipe(tmp_path, *extra)
    assert bad.returncode == 2 and message in bad.stderr, bad.stderr

"""Every registered maquis Gymnasium id made as `gymnasium.make("maquis:<id>")` in a fresh
process that has not imported maquis (an RLlib env runner, a multiprocessing worker): the
`module:` prefix makes Gymnasium import maquis, which registers the ids. The plain id fails
there with Gymnasium's NamespaceNotFound, which is why docs/training.md says to use the prefix.
Also: importing maquis and `maquis.integrations.rllib` imports no Ray."""

from __future__ import annotations

import subprocess
import sys

import pytest

maquis = pytest.importorskip("maquis")

import gymnasium  # noqa: E402

IDS = sorted(i for i in gymnasium.registry if i.startswith("maquis/"))


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_the_ids_are_the_registered_games():
    from maquis.common.registry import games

    assert IDS == sorted(game.gym_id for game in games())
    assert {"maquis/DDay1944-v0", "maquis/Maquis-v0", "maquis/MauriceLite-v0"} <= set(IDS)


@pytest.mark.parametrize("env_id", IDS)
def test_module_prefixed_id_works_in_a_fresh_process(env_id):
    code = (
        "import sys, gymnasium as gym\n"
        "assert 'maquis' not in sys.modules\n"
        f"env = gym.make('maquis:{env_id}')\n"
        "obs, info = env.reset(seed=1)\n"
        "assert env.observation_space.contains(obs) and 'action_mask' in info\n"
        f"vec = gym.make_vec('maquis:{env_id}', num_envs=2, vectorization_mode='vector_entry_point')\n"
        "vobs, _ = vec.reset(seed=1)\n"
        "assert len(vobs) == 2\n"
        "print('ok', type(env.unwrapped).__name__)\n"
    )
    done = _run(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok ")


def test_the_plain_id_fails_in_a_fresh_process():
    done = _run("import gymnasium as gym\ngym.make('maquis/Maquis-v0')\n")
    assert done.returncode != 0 and "NamespaceNotFound" in done.stderr


def test_importing_the_integration_imports_no_ray():
    done = _run("import sys, maquis, maquis.integrations.rllib\nassert 'ray' not in sys.modules, 'ray imported'\n")
    assert done.returncode == 0, done.stderr

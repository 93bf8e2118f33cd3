"""The documentation site (mkdocs.yml, docs/): `mkdocs build --strict` must pass, so that every page
in the nav exists, every link and anchor between pages resolves, and the API reference renders
from the docstrings and the stubs (mkdocstrings reads python/maquis statically: no build needed)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("mkdocs", reason="the docs site needs the docs extra: pip install '.[docs]'")
pytest.importorskip("material", reason="the docs site needs the docs extra: pip install '.[docs]'")
pytest.importorskip("mkdocstrings_handlers.python", reason="the docs site needs the docs extra: pip install '.[docs]'")

ROOT = Path(__file__).resolve().parents[1]


def test_mkdocs_build_strict(tmp_path):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    start = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, f"mkdocs build --strict failed:\n{run.stdout}\n{run.stderr}"
    assert time.monotonic() - start < 120, "the docs build should take seconds (about 5 s on 2 cores)"
    site = tmp_path / "site"
    # the API reference rendered the public classes of every game from the sources and stubs
    for page, anchor in [
        ("reference/maquis/index.html", 'id="maquis.MaquisEnv"'),
        ("reference/maquis/index.html", 'id="maquis.MaquisVectorEnv"'),
        ("reference/maquis/index.html", 'id="maquis.MaquisEnv.reset"'),  # inherited from the shared base
        ("reference/core/index.html", 'id="maquis._core_maquis.VecEngine"'),  # from the stubs
        ("reference/train/index.html", 'id="maquis.train.model.PolicyValueNet"'),
        ("reference/maquis_agents/index.html", 'id="maquis.maquis.agents.HeuristicAgent"'),
        ("reference/dday/index.html", 'id="maquis.dday.DDayEnv"'),
        ("reference/maurice/index.html", 'id="maquis.maurice.MauriceVectorEnv"'),
        ("reference/rllib/index.html", 'id="maquis.integrations.rllib.make_env"'),
    ]:
        assert anchor in (site / page).read_text(), f"{page} lacks {anchor}"

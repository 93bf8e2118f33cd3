"""Every dotted `maquis.…` name the README and the docs show (in code blocks and inline code)
resolves: the module imports and each attribute after it exists. A module that moves, or a name
that is renamed, fails here until the docs follow."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The user docs; docs/notes/ and the changelog are history and may name what no longer exists.
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "api").glob("*.md")),
         *sorted((ROOT / "docs" / "reference").glob("*.md"))]
PAGES = [p for p in PAGES if p.name != "changelog.md"]

CODE = re.compile(r"```.*?```|`[^`\n]+`", re.S)
# A dotted name starting at the package; not a file name (`docs/maquis.md`), a save format tag
# (`maquis.dday1944`, `maquis.maurice-episode`) or a path (`maquis/…`).
NAME = re.compile(r"(?<![\w./-])maquis(?:\.[A-Za-z_]\w*)+(?![\w/-])")
NOT_NAMES = re.compile(r"\.(md|png|json|npz|safetensors|gif|py|txt|toml|yml|html)$|^maquis\.(dday1944|maurice)$")


def documented_names() -> dict[str, str]:
    """name -> the first page that shows it."""
    names: dict[str, str] = {}
    for page in PAGES:
        for block in CODE.findall(page.read_text()):
            for name in NAME.findall(block):
                if not NOT_NAMES.search(name):
                    names.setdefault(name, page.relative_to(ROOT).as_posix())
    return names


def resolve(name: str) -> object:
    """The object `name` names: attributes from the package down, a submodule imported where an
    attribute is missing."""
    parts = name.split(".")
    obj: object = importlib.import_module(parts[0])
    for i, part in enumerate(parts[1:], start=1):
        if hasattr(obj, part):
            obj = getattr(obj, part)
        else:
            obj = importlib.import_module(".".join(parts[: i + 1]))
    return obj


NAMES = documented_names()


def test_the_docs_name_the_public_names() -> None:
    assert {"maquis.MaquisEnv", "maquis.MaquisVectorEnv", "maquis.agents", "maquis.evaluate", "maquis.dday",
            "maquis.maurice.MauriceEnv"} <= set(NAMES)


@pytest.mark.parametrize("name", sorted(NAMES))
def test_documented_name_resolves(name: str) -> None:
    try:
        resolve(name)
    except (ImportError, AttributeError) as e:
        pytest.fail(f"{NAMES[name]} shows `{name}`, which does not resolve: {type(e).__name__}: {e}")


# The solitaire's modules lived at the package root and the trainers in `maquis.train`: user code
# and pickles (which name a class by its module) keep finding them at their old paths.
MOVED = {
    "maquis.env": "maquis.maquis.env",
    "maquis.agents": "maquis.maquis.agents",
    "maquis.policy": "maquis.maquis.policy",
    "maquis.render.ansi": "maquis.maquis.render.ansi",
    "maquis.wrappers": "maquis.common.wrappers",
    "maquis.train.expert": "maquis.maquis.train.expert",
    "maquis.train.dday": "maquis.dday.train.expert",
    "maquis.train.dday_ppo": "maquis.dday.train.ppo",
}


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_module_path_is_the_moved_module(old: str) -> None:
    if old.startswith("maquis.train."):
        pytest.importorskip("torch")
    assert importlib.import_module(old) is importlib.import_module(MOVED[old])


def test_a_pickle_naming_the_old_module_loads() -> None:
    import pickle

    import maquis

    env = maquis.MaquisEnv()
    env.reset(seed=3)
    old = pickle.dumps(env, protocol=0).replace(b"cmaquis.maquis.env\n", b"cmaquis.env\n")
    assert b"cmaquis.env\n" in old
    again = pickle.loads(old)
    assert type(again) is maquis.MaquisEnv and again.state_dict() == env.state_dict()

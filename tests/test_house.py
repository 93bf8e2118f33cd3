"""The house: every game a folder above the shared layers, declared once.

(a) the shared layers (`maquis.common`, the training core `maquis.train`, `maquis.web`, the
command line) import no game package; (b) no shared file holds a game's key as a string (the
package's `GAMES` tuple is the one list of games); (c) what every game declares resolves: its
verbs, Gymnasium id, save kinds, renderers, web adapter; (d) its envs' `__init__` is made from the
declared keywords by the shared layer (names, defaults, kinds), and their docstrings name them all; (e) one game's package loads no other game's."""

from __future__ import annotations

import ast
import inspect
import json
import subprocess
import sys
from pathlib import Path

import gymnasium
import pytest

import maquis
from maquis.common import cli, keywords, registry

PACKAGE = Path(maquis.__file__).resolve().parent
# The repository (docs, git): not PACKAGE's parent when the tests run against an installed wheel.
REPO = Path(__file__).resolve().parents[1]
SHARED = [
    *sorted((PACKAGE / "common").rglob("*.py")),
    *sorted((PACKAGE / "train").rglob("*.py")),
    *sorted((PACKAGE / "web").rglob("*.py")),
    PACKAGE / "cli.py",
    PACKAGE / "__main__.py",
]
GAME_PACKAGES = tuple(f"maquis.{key}" for key in maquis.GAMES)


def _module_of(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in `path`, relative ones resolved."""
    module = _module_of(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]  # `from maquis import dday`
    return found


def _names_a_game(module: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in GAME_PACKAGES)


def test_the_shared_layers_import_no_game():
    bad = [f"{path.relative_to(PACKAGE.parent)}:{line}: {module}"
           for path in SHARED for line, module in _imports(path) if _names_a_game(module)]
    assert not bad, "shared files importing a game:\n" + "\n".join(bad)


def test_no_shared_file_holds_a_game_key():
    keys = set(maquis.GAMES)
    bad = []
    for path in [*SHARED, PACKAGE / "__init__.py"]:
        tree = ast.parse(path.read_text())
        allowed: set[int] = set()
        for node in ast.walk(tree):  # the root's `GAMES = (...)`, the one list of games
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "GAMES" for t in node.targets):
                allowed |= {id(c) for c in ast.walk(node.value)}
        bad += [f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {node.value!r}" for node in ast.walk(tree)
                if isinstance(node, ast.Constant) and node.value in keys and id(node) not in allowed]
    assert not bad, "shared files naming a game:\n" + "\n".join(bad)


def test_the_registry_lists_the_packages_games():
    assert tuple(g.key for g in registry.games()) == maquis.GAMES
    assert [g.key for g in registry.games() if g.short_form] == [maquis.GAMES[0]]
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        registry.game("chess")


GAMES = registry.games()
EACH = pytest.mark.parametrize("game", GAMES, ids=[g.key for g in GAMES])


@EACH
def test_every_declared_target_loads(game):
    for what, target in game.lazy_targets().items():
        assert registry.load(target) is not None, f"{game.key} {what}: {target}"
    assert (REPO / game.docs_page).is_file()
    assert list(registry.load(game.agents)) and list(registry.load(game.levels))


@EACH
def test_every_verb_resolves(game):
    assert set(game.verbs) <= set(cli.VERBS)
    for verb, spec in game.verbs.items():
        add, run = cli._verb_functions(spec)
        assert callable(add) and callable(run), f"{game.command(verb)}: {run}"


@EACH
def test_the_gym_id_makes_the_declared_envs(game):
    spec = gymnasium.spec(game.gym_id)
    assert (spec.entry_point, spec.vector_entry_point) == (game.single_env, game.vector_env)
    env = gymnasium.make(game.gym_id)
    assert type(env.unwrapped) is registry.load(game.single_env)
    env.close()


@EACH
def test_the_save_kinds_are_the_games(game):
    env = registry.load(game.single_env)()
    env.reset(seed=1)
    saved = json.loads(env.save_state())
    assert saved["format"] in game.saves.env_formats
    inner = saved.get("game", saved)
    assert inner["format"] in game.saves.state_formats
    assert set(game.saves.state_keys) <= set(env.state_dict())
    from maquis.common.render_verbs import save_game

    assert save_game(json.dumps(env.state_dict())) == game.key
    for mode, target in game.renderers.items():
        assert registry.load(target)(env.state_dict()) is not None, mode


@EACH
def test_the_web_adapter_is_the_games(game):
    from maquis.web.games import GAMES as WEB_GAMES, WebGame

    adapter = registry.load(game.web)()
    assert isinstance(adapter, WebGame) and (adapter.name, adapter.title) == (game.key, game.title)
    assert set(adapter.episode_formats) == set(game.saves.episode_formats)
    assert type(WEB_GAMES[game.key]) is type(adapter)


def _keywords(cls) -> list[tuple[str, object, object]]:
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    return [(p.name, getattr(p.default, "value", p.default), p.kind) for p in params]


@EACH
def test_the_envs_take_the_declared_keywords(game):
    # One declaration: each env's `__init__` is made from it by the shared layer (not written in
    # the game's file), its names, defaults and kinds are the declared ones, and the class
    # docstring names every keyword.
    P = inspect.Parameter
    single = [(k.name, k.default, P.POSITIONAL_OR_KEYWORD) for k in game.keywords]
    vector = [(k.name, k.default, P.POSITIONAL_OR_KEYWORD if i == 0 else P.KEYWORD_ONLY)
              for i, k in enumerate((*registry.VECTOR_KEYWORDS, *game.keywords))]
    for target, declared, expected in ((game.single_env, game.keywords, single),
                                       (game.vector_env, (*registry.VECTOR_KEYWORDS, *game.keywords), vector)):
        cls = registry.load(target)
        assert cls.__init__.__module__ == keywords.__name__, f"{target} writes its own __init__"
        assert _keywords(cls) == expected, target
        assert not keywords.documents_keywords(cls.__doc__, declared), \
            f"{target}'s docstring does not name {keywords.documents_keywords(cls.__doc__, declared)}"
    assert all(k.doc for k in game.keywords)


def test_a_declared_init_is_the_declaration():
    declared = (registry.Keyword("side", "a", "the side"), registry.Keyword("budget", 3, "the budget"))

    class Made:
        __init__ = keywords.declared_init("Made", declared, positional=1)

        def _construct(self, **values):
            self.values = values

    assert Made("b", budget=4).values == {"side": "b", "budget": 4}
    assert Made().values == {"side": "a", "budget": 3}
    with pytest.raises(TypeError, match=r"^Made.__init__\(\) got an unexpected keyword argument 'other'"):
        Made(other=1)
    with pytest.raises(TypeError, match=r"^Made.__init__\(\) takes from 1 to 2 positional"):
        Made("b", 4)
    assert keywords.documents_keywords("`side` only", declared) == ["budget"]
    with pytest.raises(ValueError, match="distinct public identifiers"):
        keywords.declared_init("Made", declared * 2)


@pytest.mark.parametrize("key", maquis.GAMES)
def test_a_games_package_loads_no_other_game(key):
    others = [f"maquis.{k}" for k in maquis.GAMES if k != key]
    code = (f"import sys, maquis.{key}\n"
            f"loaded = [m for m in sys.modules if any(m == o or m.startswith(o + '.') for o in {others!r})"
            " and not m.endswith('.game')]\n"
            "assert not loaded, loaded\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


#: The worked example of docs/adding_a_game.md: what adding it cost outside its own folders.
EXAMPLE = "kuhn"


def _own_files(key: str) -> tuple[str, ...]:
    """The paths (glob patterns) a game owns: its folders on each side, its tests, pages and stub."""
    return (f"src/{key}/*", f"src/py/{key}/*", f"python/maquis/{key}/*", f"tests/{key}_*.rs", f"tests/test_{key}*.py",
            f"tests/playthroughs/{key}_*", f"docs/{key}.md", f"docs/rules/{key}.md", f"docs/api/{key}.md",
            f"python/maquis/_core_{key}.pyi")


#: Every file outside the example's own that names it: the one registration line a side, the stub
#: index, the docs' navigation, indexes and history, and the page that tells how. A shared file
#: that must name a game is a fault of the house: fix the house rather than grow this list.
OUTSIDE_ITS_FOLDERS = {
    "src/lib.rs",  # `pub mod kuhn;`
    "src/py/mod.rs",  # `games!(…, kuhn)`: the bindings' registration and save kinds
    "tests/conformance.rs",  # the Rust conformance suite's settings of it (its Config, good and bad options)
    "python/maquis/__init__.py",  # the one line in `GAMES`
    "python/maquis/_core.pyi",  # the stub index re-exports `_core_kuhn.pyi` (a stub package cannot nest)
    "mkdocs.yml",  # the site's navigation
    "docs/rules/README.md",  # the index of the rules
    "docs/adding_a_game.md",  # the page that uses it as its worked example
    "README.md",  # the games list
    "CHANGELOG.md",
}


def test_adding_the_worked_example_cost_only_the_listed_lines_outside_its_folders():
    import fnmatch

    root = REPO
    listed = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    own = _own_files(EXAMPLE)
    me = str(Path(__file__).resolve().relative_to(root))  # this test names it to measure it
    naming = set()
    for path in listed.stdout.split():
        if path == me or any(fnmatch.fnmatch(path, pattern) for pattern in own):
            continue
        try:
            text = (root / path).read_text(errors="ignore")
        except (OSError, IsADirectoryError):
            continue
        if EXAMPLE in text.lower():
            naming.add(path)
    assert not naming - OUTSIDE_ITS_FOLDERS, f"new files outside {EXAMPLE}'s folders name it: {sorted(naming - OUTSIDE_ITS_FOLDERS)}"
    assert not OUTSIDE_ITS_FOLDERS - naming, f"no longer naming {EXAMPLE} (drop them from the list): {sorted(OUTSIDE_ITS_FOLDERS - naming)}"

"""What a game's package registers: its Gymnasium id, one call per game, for `gymnasium.make`
(its single-agent env) and `gymnasium.make_vec` (its native vector env); and the attributes it
loads on first use (its module `__getattr__`); and the old paths of modules that moved."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Callable, Mapping
from typing import Any

import gymnasium


def entry_point(target: str | type) -> str:
    """"module:Class" for a class, or the string as it is (its module imported on first use)."""
    if isinstance(target, str):
        return target
    return f"{target.__module__}:{target.__qualname__}"


def register_game(env_id: str, single: str | type, vector: str | type) -> None:
    """Registers `env_id` once: `single` is the `gymnasium.Env` of `gymnasium.make`, `vector` the
    `gymnasium.vector.VectorEnv` of `gymnasium.make_vec`, each a class or a "module:Class" string
    (a string keeps the game's modules from loading until the id is made)."""
    if env_id in gymnasium.registry:
        return
    gymnasium.register(id=env_id, entry_point=entry_point(single), vector_entry_point=entry_point(vector))


def register_games() -> None:
    """Registers the Gymnasium id of every game of the registry."""
    from .registry import games

    for game in games():
        register_game(game.gym_id, game.single_env, game.vector_env)


def lazy_attributes(package: str, attributes: Mapping[str, str]) -> Callable[[str], Any]:
    """A module `__getattr__` for `package` that imports each of `attributes` on first use:
    name -> ".module" (the submodule) or ".module:name" (an attribute of it). Plain attributes,
    not submodules of the same name, so that an import elsewhere cannot rebind them."""

    def __getattr__(name: str) -> Any:
        target = attributes.get(name)
        if target is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attribute = target.partition(":")
        loaded = importlib.import_module(module, package)
        return getattr(loaded, attribute) if attribute else loaded

    return __getattr__


class _MovedModuleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds a module under the path it had before it moved: the module at its new path, imported
    once and bound to both names (its classes keep one `__module__`, the new one)."""

    def __init__(self, moved: Mapping[str, str]) -> None:
        self.moved = dict(moved)

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        return None if self.new_path(fullname) is None else importlib.util.spec_from_loader(fullname, self)

    def new_path(self, fullname: str) -> str | None:
        """The new path of `fullname`, a moved module or a submodule of a moved package."""
        head, rest = fullname, ""
        while head not in self.moved:
            head, dot, tail = head.rpartition(".")
            if not dot:
                return None
            rest = f".{tail}{rest}"
        return self.moved[head] + rest

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Any:
        return importlib.import_module(self.new_path(spec.name))

    def exec_module(self, module: Any) -> None:
        pass  # the module at its new path is already executed


def alias_moved_modules(moved: Mapping[str, str]) -> None:
    """Lets `import old.path` (and pickles, which import by path) find each module of `moved`
    (old dotted path -> new one) at its new path, submodules of a moved package included. First
    in `sys.meta_path`: the path finder would load a moved package's submodule a second time."""
    sys.meta_path.insert(0, _MovedModuleFinder(moved))

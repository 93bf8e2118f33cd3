"""What a game's package registers: its Gymnasium id, one call per game, for `gymnasium.make`
(its single-agent env) and `gymnasium.make_vec` (its native vector env); and the attributes it
loads on first use (its module `__getattr__`)."""

from __future__ import annotations

import importlib
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

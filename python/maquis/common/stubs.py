"""The blocks of the extension's type stubs that each game's stub must repeat, generated.

What every game's module shares is declared once in `_core_common.pyi` (its constants, and the
stub-only bases of `Env`, `VecEngine`, `Game` and `Agent`). What cannot be shared is written here
from the compiled module, in each `_core_<game>.pyi`: its `__all__`, and the constructors of
`Env` and `VecEngine`, whose keywords are the binding's (`#[pyo3(signature = ...)]`, the one
declaration of an engine's keywords), typed by `KEYWORD_TYPES` or their default's type.

    python -m maquis.common.stubs           # rewrite the generated blocks
    python -m maquis.common.stubs --check   # exit 1, naming each stub that differs

tests/test_stubs.py fails when a stub differs from what this writes.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["GENERATED_CLASSES", "KEYWORD_TYPES", "game_stubs", "render", "main"]

STUB_DIR = Path(__file__).resolve().parent.parent
#: The classes whose constructor is generated: those that take the game's keywords.
GENERATED_CLASSES = ("Env", "VecEngine")
#: The stub type of an engine keyword whose default does not say it (None, or no default).
KEYWORD_TYPES = {
    "num_envs": "int",
    "missions": "list[str] | None",
    "reward": "dict[str, float] | None",
}
WIDTH = 110
INDENT = "    "


def game_stubs() -> Iterator[tuple[types.ModuleType, Path]]:
    """Each game's module of the extension (its submodules, in `_core.__all__` order) and its stub."""
    from .. import _core

    for name in _core.__all__:
        module = getattr(_core, name)
        if isinstance(module, types.ModuleType):
            yield module, STUB_DIR / f"_core_{name}.pyi"


def _literal(value: Any) -> str:
    return json.dumps(value) if isinstance(value, str) else repr(value)


def _annotation(param: inspect.Parameter, owner: str) -> str:
    if param.name in KEYWORD_TYPES:
        return KEYWORD_TYPES[param.name]
    default = param.default
    if isinstance(default, (bool, int, float, str)):
        return type(default).__name__
    raise ValueError(f"{owner}: give the stub type of keyword {param.name!r} in KEYWORD_TYPES")


def _packed(parts: list[str], indent: str) -> list[str]:
    """`parts` joined by ", " on as few lines as fit in WIDTH, each line ending in a comma."""
    lines, line = [], ""
    for part in parts:
        if line and len(indent) + len(line) + len(part) + 2 > WIDTH:
            lines.append(indent + line)
            line = ""
        line += ("" if not line else " ") + part + ","
    return [*lines, indent + line]


def constructor(cls: type) -> list[str]:
    """The stub lines of `cls.__new__`, from the signature PyO3 recorded."""
    owner = f"{cls.__module__}.{cls.__name__}"
    parts, star = ["cls"], False
    for param in inspect.signature(cls).parameters.values():
        if param.kind is param.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        part = f"{param.name}: {_annotation(param, owner)}"
        if param.default is not param.empty:
            part += f" = {_literal(param.default)}"
        parts.append(part)
    return [f"{INDENT}def __new__(", *_packed(parts, INDENT * 2), f"{INDENT}) -> {cls.__name__}: ..."]


def all_block(names: list[str]) -> list[str]:
    return ["__all__ = [", *_packed([json.dumps(n) for n in names], INDENT), "]"]


def render(text: str, module: types.ModuleType) -> str:
    """`text`, the stub of `module`, with its generated blocks written from `module`."""
    lines = text.splitlines()
    blocks: list[tuple[int, int, list[str]]] = []  # (first line, last line, 1-based) -> new lines
    for stmt in ast.parse(text).body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets):
            blocks.append((stmt.lineno, stmt.end_lineno or stmt.lineno, all_block(list(module.__all__))))
        elif isinstance(stmt, ast.ClassDef) and stmt.name in GENERATED_CLASSES:
            new = next((s for s in stmt.body if isinstance(s, ast.FunctionDef) and s.name == "__new__"), None)
            if new is None:
                raise ValueError(f"{module.__name__}.{stmt.name}: the stub needs a `def __new__` to generate")
            blocks.append((new.lineno, new.end_lineno or new.lineno, constructor(getattr(module, stmt.name))))
    for first, last, new_lines in sorted(blocks, reverse=True):
        lines[first - 1 : last] = new_lines
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m maquis.common.stubs", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a stub differs")
    args = parser.parse_args(argv)
    stale = []
    for module, path in game_stubs():
        text = path.read_text(encoding="utf-8")
        new = render(text, module)
        if new != text:
            stale.append(path.name)
            if not args.check:
                path.write_text(new, encoding="utf-8")
    if args.check and stale:
        print(f"stubs differ from what the generator writes: {', '.join(stale)} "
              "(run python -m maquis.common.stubs)", file=sys.stderr)
        return 1
    print("the stubs are up to date" if args.check else f"rewrote: {', '.join(stale) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

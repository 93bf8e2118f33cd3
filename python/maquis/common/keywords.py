"""Env constructors made from a game's declaration: `GameSpec.keywords` (after `VECTOR_KEYWORDS`
for the vector env) is the one list of an env's keywords, defaults and docs.

`declared_init(keywords, ...)` writes the `__init__` from that list as `dataclasses` writes
its own: Python source compiled once. A real signature keeps Python's own argument errors
(`DDayEnv.__init__() got an unexpected keyword argument 'x'`), `inspect.signature` and `help()`
exact and costs nothing per call, where `**kwargs` behind a `__signature__` would not. The
generated `__init__` hands every value, by name, to the class's `_construct(**values)`.
"""

from __future__ import annotations

import keyword
from collections.abc import Mapping, Sequence
from typing import Any, Callable

from gymnasium.vector import AutoresetMode

from .registry import Keyword

__all__ = ["declared_init", "documents_keywords"]


def declared_init(owner: str, keywords: Sequence[Keyword], *, positional: int | None = None) -> Callable[..., None]:
    """`__init__(self, <keywords>)` calling `self._construct(name=value, ...)`. The first
    `positional` keywords may be given by position, the others only by name (None: all may).
    `owner` is the class's qualified name, for Python's argument errors."""
    names = [k.name for k in keywords]
    bad = [n for n in names if not n.isidentifier() or keyword.iskeyword(n) or n.startswith("_")]
    if bad or len(set(names)) != len(names):
        raise ValueError(f"{owner}: keywords must be distinct public identifiers, got {names}")
    params = [f"{n}=_defaults[{i}]" for i, n in enumerate(names)]
    if positional is not None and positional < len(params):
        params.insert(positional, "*")
    source = (f"def __init__(self, {', '.join(params)}):\n"
              f"    self._construct({', '.join(f'{n}={n}' for n in names)})\n")
    # The names the annotations use, so that `typing.get_type_hints` resolves them.
    namespace: dict[str, Any] = {"__name__": __name__, "_defaults": tuple(k.default for k in keywords),
                                 "Any": Any, "Mapping": Mapping, "Sequence": Sequence, "AutoresetMode": AutoresetMode}
    exec(source, namespace)  # noqa: S102 - the source is made of checked identifiers only
    init = namespace["__init__"]
    init.__qualname__ = f"{owner}.__init__"
    # Strings, as `from __future__ import annotations` leaves a written signature's.
    init.__annotations__ = {**{k.name: k.annotation for k in keywords}, "return": "None"}
    init.__doc__ = "Keywords (the game's declaration):\n" + "\n".join(
        f"- `{k.name}={k.default!r}`: {k.doc}" for k in keywords)
    return init


def documents_keywords(doc: str | None, keywords: Sequence[Keyword]) -> list[str]:
    """The declared keywords a class docstring does not name (as `` `name`` or `name=`)."""
    text = doc or ""
    return [k.name for k in keywords if f"`{k.name}" not in text and f"{k.name}=" not in text]

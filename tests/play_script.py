"""Scripted input for the two-player games' terminal play (`maquis <game> play`), shared by their
tests: mostly legal choices in every form a player may type, sometimes bad input."""

from __future__ import annotations

import random
from collections.abc import Sequence


def scripted(game, seed: int, bad: Sequence[str], bad_every: int, menu_form: bool = False):
    """An `ask` for `game`: every `bad_every`-th answer is one of `bad`, the others a legal action
    by menu number, by `#index` or by name (some in capitals), and with `menu_form` as the menu
    shows it (`game.menu_names`)."""
    rng = random.Random(seed)
    count = [0]

    def ask(prompt: str) -> str:
        count[0] += 1
        if count[0] % bad_every == 0:
            return bad[(count[0] // bad_every) % len(bad)]
        legal = game.legal()
        k = rng.randrange(len(legal))
        index, name = legal[k]
        form = rng.randrange(4 if menu_form else 3)
        if form == 0:
            return str(k + 1)
        if form == 1:
            return f"#{index}"
        if form == 2 and menu_form:
            return game.menu_names(legal)[k]  # as the menu shows it, e.g. unit:3(I14,7)
        return name.upper() if rng.random() < 0.2 else name

    return ask

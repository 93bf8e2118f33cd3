"""A seat's observation, mask, infos, side view and renders never depend on the other seat's secret
(Maurice Lite RULES O1–O3, D-Day G4): along random games, each position is saved, the other
seat's secret is redrawn in the save in a way consistent with everything public, and both saves are
loaded into fresh envs whose views for the seat must be identical.

- Maurice Lite: the enemy's hand and the deck's order (the enemy's hand and the deck dealt again
  from the same cards, `reshuffle` cards kept in the deck), at positions where the enemy has drawn
  nothing this round (what he drew is public as a count).
- D-Day 1944: the German's allocation, before the attacked zones are revealed: the contents of two
  zones that no guess has named swapped (the answers given stay true).

`MAQUIS_FUZZ_CASES` scales the number of games (long runs, docs/reliability.md)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import maquis.dday as dday  # noqa: E402
import maquis.maurice as maurice  # noqa: E402
from maquis.dday.render import render_ansi as dday_ansi  # noqa: E402
from maquis.dday.render import render_rgb as dday_rgb  # noqa: E402
from maquis.dday.render import side_view as dday_side_view  # noqa: E402
from maquis.maurice.render import render_ansi as maurice_ansi  # noqa: E402
from maquis.maurice.render import render_rgb as maurice_rgb  # noqa: E402
from maquis.maurice.render import side_view as maurice_side_view  # noqa: E402

GAMES = int(os.environ.get("MAQUIS_FUZZ_CASES", "0")) or None
CARD_IDS = [c["id"] for c in maurice.CARDS]


def _views(module, save: str, seat: str, side_view, ansi, rgb, pixels: bool):
    """Everything `seat` is shown of the game in `save`, from a fresh env that loaded it."""
    env = module.raw_env()
    env.reset(seed=0)
    env.load_state(save)
    seen = env.observe(seat)
    sd = env.state_dict()
    view = side_view(sd, seat)
    out = {
        "observation": np.asarray(seen["observation"]).tobytes(),
        "mask": np.asarray(seen["action_mask"]).tobytes(),
        "infos": repr(env.infos.get(seat)),
        "to_move": env.agent_selection,
        "side_view": json.dumps(view, sort_keys=True),
        "ansi": ansi(view),
    }
    if pixels:
        out["rgb"] = rgb(view, width=320).tobytes()
    env.close()
    return out


def _maurice_other_hidden(save: str, seat: str, rng: np.random.Generator) -> str | None:
    """`save` with the hand of `seat`'s enemy and the deck dealt again from the same cards; None
    where the enemy drew this round (the count drawn is public) or holds nothing to redraw."""
    doc = json.loads(save)
    s = doc["state"]
    enemy = s["armies"][1 if seat == "blue" else 0]
    if any(enemy["drawn"]) or not s["deck"]:
        return None
    pool = [CARD_IDS[i] for i, n in enumerate(enemy["hand"]) for _ in range(n)] + list(s["deck"])
    size = sum(enemy["hand"])
    rng.shuffle(pool)
    pool.sort(key=lambda c: c == "reshuffle")  # a reshuffle card is never held
    hand, deck = pool[:size], pool[size:]
    counts = [0] * len(enemy["hand"])  # every kind but `reshuffle`, which is never held
    for c in hand:
        counts[CARD_IDS.index(c)] += 1
    enemy["hand"] = counts
    rng.shuffle(deck)
    s["deck"] = deck
    out = json.dumps(doc)
    return None if out == save else out


def _dday_other_hidden(save: str, rng: np.random.Generator) -> str | None:
    """`save` with the German's items in two zones no guess has named swapped, before the reveal;
    None where no such pair differs."""
    doc = json.loads(save)
    s = doc["state"]
    if s["phase"] not in ("allocation", "interrogation", "attack"):
        return None
    named = {g["zone"] for g in s["interrogation"]["log"] if g}
    free = [z for z, name in enumerate(dday.ZONES) if name not in named]
    if len(free) < 2:
        return None
    a, b = rng.choice(free, size=2, replace=False)
    placed = s["placed"]
    swap = {int(a): int(b), int(b): int(a)}
    s["placement"] = [swap.get(z, z) if k < placed else z for k, z in enumerate(s["placement"])]
    out = json.dumps(doc)
    return None if out == save else out


def _play(module, seed: int, steps: int, every: int):
    """Saves of a random game every `every` decisions."""
    env = module.raw_env()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for t in range(steps):
        if not env.agents or env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        if t % every == 0:
            yield env.save_state()
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    env.close()


def test_o1_o3_maurice_views_never_depend_on_the_enemy_hand_or_the_deck_order():
    games = GAMES or 6
    rng = np.random.default_rng(7)
    compared = 0
    for g in range(games):
        for k, save in enumerate(_play(maurice, 100 + g, 700, 9)):
            for seat in ("blue", "red"):
                other = _maurice_other_hidden(save, seat, rng)
                if other is None:
                    continue
                pixels = compared % 8 == 0
                try:
                    b = _views(maurice, other, seat, maurice_side_view, maurice_ansi, maurice_rgb, pixels)
                except ValueError:
                    continue  # a hand that could not be the enemy's (e.g. one that cannot pay the span, A6)
                a = _views(maurice, save, seat, maurice_side_view, maurice_ansi, maurice_rgb, pixels)
                for key in a:
                    assert a[key] == b[key], f"game {g}, save {k}: {seat}'s {key} shows the enemy's hand or the deck"
                compared += 1
    assert compared >= 20 * games // 6, compared


def test_g4_dday_resistance_views_never_depend_on_the_unnamed_zones_of_the_allocation():
    games = GAMES or 60
    rng = np.random.default_rng(11)
    compared = refused = 0
    for g in range(games):
        for k, save in enumerate(_play(dday, 500 + g, 40, 1)):
            other = _dday_other_hidden(save, rng)
            if other is None:
                continue
            try:
                b = _views(dday, other, "resistance", dday_side_view, dday_ansi, dday_rgb, compared % 8 == 0)
            except ValueError:
                refused += 1  # a swap the allocation's rules (G3) do not allow
                continue
            a = _views(dday, save, "resistance", dday_side_view, dday_ansi, dday_rgb, compared % 8 == 0)
            for key in a:
                assert a[key] == b[key], f"game {g}, save {k}: the Resistance's {key} shows the hidden allocation"
            compared += 1
    assert compared >= games, (compared, refused)

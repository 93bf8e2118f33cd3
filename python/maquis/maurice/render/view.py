"""What a Maurice Lite state_dict says, read for the renderers, and what one side may see of it
(RULES O1–O3).

The renderers read only the plain-Python ``state_dict()`` of docs/api/maurice.md (hand-built or
from the engine); the card table and the action names come from ``maquis.maurice``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

SIDES = ("blue", "red")
WIDTH, HEIGHT = 45, 30  # RULES G1: the table's cells, the map rows of a state_dict


@lru_cache(maxsize=1)
def _actions() -> dict[str, int]:
    """Action name -> index (``maquis.maurice.ACTION_NAMES``)."""
    from .. import ACTION_NAMES

    return {name: i for i, name in enumerate(ACTION_NAMES)}


@lru_cache(maxsize=1)
def card_types() -> tuple[str, ...]:
    """The playable card types in K1 order (``maquis.maurice.CARDS`` less ``reshuffle``)."""
    from .. import CARDS

    return tuple(c["id"] for c in CARDS if c["span"] is not None)


@lru_cache(maxsize=1)
def card_spans() -> dict[str, int]:
    from .. import CARDS

    return {c["id"]: c["span"] for c in CARDS if c["span"] is not None}


#: RULES S3's map characters: terrain, units by type (capitals blue, small red), the CinCs.
TERRAIN_CHARS = {".": "open", "T": "woods", "%": "rough", "~": "marsh", "#": "lake"}
UNIT_LETTERS = {"inf": "I", "cav": "C", "art": "A"}
CINC_LETTERS = {"blue": "B", "red": "R"}
HILL_CHAR = "^"

#: Each phase's decision, in words (after the deciding side's name).
PHASE_WORDS = {
    "volley_choice": "calls a volley phase or not",
    "volley_interrupt": "may interrupt the volley (first_fire)",
    "volley_modifier": "may play a volley modifier",
    "fire": "names a unit to fire",
    "aim": "aims the lanes",
    "command": "chooses the command",
    "force": "names the force",
    "span": "plays cards for span",
    "activation_interrupt": "may interrupt the activation",
    "action_modifier": "may play an action modifier",
    "move": "names a unit to move",
    "unit_move": "moves the unit",
    "charge": "names a unit to charge",
    "charge_lead": "chooses the charge's lead-in",
    "king_target": "names the For the King unit",
    "cinc_move": "may move the CinC",
    "cinc_pay": "pays a card for the CinC move",
    "displace": "places the displaced CinC",
    "penalty_discard": "discards for a displaced CinC",
    "hand_limit": "discards down to 10 cards",
}


def action(name: str) -> int | None:
    """The index of the action ``name`` (``unit:3``, ``card:march_8``, ``cell:4:12``), or None."""
    return _actions().get(name)


def other(side: str) -> str:
    return "red" if side == "blue" else "blue"


def side_view(sd: Mapping, side: str) -> dict:
    """A view of ``sd`` holding only what ``side`` may see (RULES O1–O3): the enemy's hand and
    the cards it drew this round become ``None`` entries (their number is public), and the deck's
    order is hidden from both (``None`` entries, its size kept). ``viewer`` names the side."""
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r}: expected one of {SIDES}")
    # A new dict whose hidden parts are replaced; the rest is shared with `sd`, never changed.
    view = dict(sd)
    view["viewer"] = side
    enemy = other(side)
    for key in ("hands", "drawn_this_round"):
        cards = dict(view.get(key) or {})
        if enemy in cards:
            cards[enemy] = [None] * len(cards[enemy] or ())
        view[key] = cards
    view["deck"] = [None] * len(view.get("deck") or ())
    return view


def hand_counts(cards) -> list[tuple[str | None, int]]:
    """(card, copies) in K1 order; hidden cards (None) last, as one entry."""
    counts: dict = {}
    for c in cards or ():
        counts[c] = counts.get(c, 0) + 1
    order = {c: i for i, c in enumerate(card_types())}
    return sorted(counts.items(), key=lambda kv: (kv[0] is None, order.get(kv[0], 99), str(kv[0])))


def hand_words(cards) -> str:
    """``march_8, orders_16 x2`` (hidden cards as ``? x6``); ``-`` for none."""
    parts = [f"{'?' if c is None else c}{' x' + str(n) if n > 1 else ''}" for c, n in hand_counts(cards)]
    return ", ".join(parts) or "-"


def map_grid(sd: Mapping) -> list[list[str]]:
    """The map as rows of characters, ``grid[y][x]`` (RULES S3): terrain (a hill ``^`` on open
    ground), then the CinCs, then units on the table (they cover what lies under them)."""
    terrain = sd.get("terrain") or {}
    rows = list(terrain.get("rows") or ["." * WIDTH] * HEIGHT)
    hills = list(terrain.get("hills") or ["0" * WIDTH] * HEIGHT)
    grid = [[ch if ch != "." or hills[y][x] != "1" else HILL_CHAR for x, ch in enumerate(row)]
            for y, row in enumerate(rows)]
    for side, (x, y) in (sd.get("cinc") or {}).items():
        grid[y][x] = CINC_LETTERS.get(side, "?")
    for side, units in (sd.get("units") or {}).items():
        for u in units:
            if not u.get("on_table", True):
                continue
            letter = UNIT_LETTERS.get(u["type"], "?")
            letter = letter if side == "blue" else letter.lower()
            for x, y in u["cells"]:
                grid[y][x] = letter
    return grid


def walls(sd: Mapping) -> tuple[set, set]:
    """(north-edge walls, east-edge walls) as sets of (x, y)."""
    north, east = set(), set()
    for x, y, edge in (sd.get("terrain") or {}).get("walls") or ():
        (north if edge == "n" else east).add((int(x), int(y)))
    return north, east


def awaiting(sd: Mapping) -> str:
    """The decision awaited, in words."""
    if sd.get("outcome") is not None or sd.get("phase") == "game_over":
        return "game over"
    who = sd.get("to_move") or "nobody"
    return f"{who} {PHASE_WORDS.get(sd.get('phase'), sd.get('phase'))}"


def outcome_line(sd: Mapping) -> str | None:
    outcome = sd.get("outcome")
    if outcome is None:
        return None
    morale = sd.get("morale") or {}
    score = ", ".join(f"{s} morale {morale.get(s, {}).get('left', '?')}/{morale.get(s, {}).get('start', '?')}" for s in SIDES)
    if outcome == "draw":
        return f"Nightfall: a draw ({score})"
    return f"{outcome.capitalize()} wins: {other(outcome)}'s army morale broke ({score})"


def round_words(sd: Mapping) -> list[str]:
    """The round state in short phrases (only what is set)."""
    r = sd.get("round_state") or {}
    out = []
    if r.get("volley"):
        first = r.get("first_shooter")
        out.append("volley" + (f" ({first} fires first)" if first else ""))
    if r.get("command"):
        out.append(f"command {r['command']}")
    if r.get("interrupt"):
        out.append(f"interrupt {r['interrupt']}")
    if r.get("force"):
        out.append("force " + ",".join(map(str, r["force"])))
    if r.get("distance") is not None:
        out.append(f"distance {r['distance']}")
    if r.get("span_played"):
        out.append("span " + "+".join(r["span_played"]))
    if r.get("delayed"):
        out.append("delayed")
    if r.get("activated"):
        out.append("activated")
    if r.get("rough_going"):
        out.append("rough going")
    mods = []
    for side in SIDES:
        m = (r.get("modifiers") or {}).get(side) or {}
        mods += [f"{side} {kind} {m[kind]}" for kind in ("volley", "action") if m.get(kind)]
    if mods:
        out.append("modifiers " + "; ".join(mods))
    if r.get("done"):
        out.append("done " + ",".join(map(str, r["done"])))
    if r.get("charged"):
        out.append("charged " + ",".join(map(str, r["charged"])))
    for side in SIDES:
        eng = (r.get("engaged") or {}).get(side) or {}
        if eng:
            out.append(f"{side} engaged " + " ".join(f"{k}:{'/'.join(map(str, v))}" for k, v in eng.items()))
        sc = (r.get("scores") or {}).get(side) or {}
        if sc:
            out.append(f"{side} scores " + " ".join(f"{k}={v}" for k, v in sc.items()))
    shifted = [s for s in SIDES if (r.get("displaced") or {}).get(s)]
    if shifted:
        out.append("displaced " + ",".join(shifted))
    mv = r.get("moving")
    if mv:
        mode = f", {mv['mode']}" if mv.get("mode") else ""
        out.append(f"moving unit {mv['id']} ({mv['spent']}/{mv['allowance']} BW{mode})")
    if sd.get("night_pass_last_round"):
        out.append("last round was a night pass")
    return out


@lru_cache(maxsize=1)
def card_effects() -> dict[str, str]:
    """Card id -> what it does (the ``effect`` of ``maquis.maurice.CARDS``, RULES K8)."""
    from .. import CARDS

    return {c["id"]: c["effect"] for c in CARDS}


def march_modifier(sd: Mapping) -> int:
    """The BW the ``march`` modifiers of this round add to the moving force's allowance: +2 for
    the active side's card, -2 for the passive side's (RULES K8, M6)."""
    r = sd.get("round_state") or {}
    if r.get("command") != "march":
        return 0
    active = sd.get("active")
    net = 0
    for side, m in (r.get("modifiers") or {}).items():
        card = (m or {}).get("action") or ""
        if card.startswith("march_"):
            net += 2 if side == active else -2
    return net


def modifier_effect(card: str, by: str, active: str | None) -> str:
    """What modifier ``card`` played by ``by`` does, in the terms of this round (``active`` the
    active side): e.g. ``-2 BW to the allowance of each unit of blue's force``."""
    mine = by == active
    enemy = other(by)
    acting = active or by
    if card.startswith("march_"):
        return f"{'+2' if mine else '-2'} BW to the allowance of each unit of {acting}'s force"
    if card.startswith("volley_"):
        return f"+1 to hit on every die of {by}'s fire this volley phase"
    if card == "thick_smoke":
        return f"-1 to hit on every die of {enemy}'s fire this volley phase"
    if card.startswith("bombard_"):
        return f"{'+1' if mine else '-1'} to hit on every die of {acting}'s bombardment"
    if card.startswith("rally_"):
        return f"{'+1' if mine else '-1'} on every die of {acting}'s rally"
    if card.startswith("charge_"):
        return f"+1 to the combat score of each engaged {by} unit"
    if card == "thunderous":
        return f"+2 to the combat score of each engaged {by} cav unit"
    if card == "for_the_king":
        return f"+2 to the combat score of one engaged {by} inf unit"
    return card_effects().get(card, "")


def _short_effect(card: str, by: str, active: str | None) -> str:
    """`modifier_effect` in a few words, for the panel."""
    mine = by == active
    acting = active or by
    sign = "+1" if mine else "-1"
    if card.startswith("march_"):
        return f"{acting}'s allowance {'+2' if mine else '-2'} BW"
    if card.startswith("volley_"):
        return f"{by}'s fire +1 to hit"
    if card == "thick_smoke":
        return f"{other(by)}'s fire -1 to hit"
    if card.startswith("bombard_"):
        return f"{acting}'s bombardment {sign} to hit"
    if card.startswith("rally_"):
        return f"{acting}'s rally dice {sign}"
    if card.startswith("charge_"):
        return f"+1 combat, each engaged {by} unit"
    if card == "thunderous":
        return f"+2 combat, each engaged {by} cav"
    if card == "for_the_king":
        return f"+2 combat, one engaged {by} inf"
    return modifier_effect(card, by, active)


def modifier_words(sd: Mapping) -> list[str]:
    """One line per modifier card played this round: who played it and what it changed, e.g.
    ``red: march_4, blue's allowance -2 BW (unit 3: 4 -> 2)`` (the numbers while a unit moves)."""
    r = sd.get("round_state") or {}
    active = sd.get("active")
    mv = r.get("moving")
    out = []
    for side in SIDES:
        m = (r.get("modifiers") or {}).get(side) or {}
        for kind in ("volley", "action"):
            card = m.get(kind)
            if not card:
                continue
            text = f"{side}: {card}, {_short_effect(card, side, active)}"
            if card.startswith("march_") and mv:
                text += f" (unit {mv['id']}: {mv['allowance'] - march_modifier(sd)} -> {mv['allowance']})"
            out.append(text)
    return out


def moving_words(sd: Mapping) -> list[str]:
    """The moving unit's allowance in short lines: ``unit 3 moving``, ``spent 1 of 2 BW, 1 left``
    and, when march cards changed it, ``march cards 4 -> 2``; [] when no unit moves."""
    mv = (sd.get("round_state") or {}).get("moving")
    if not mv:
        return []
    allowance, spent = mv["allowance"], mv["spent"]
    net = march_modifier(sd)
    mode = f" ({mv['mode']})" if mv.get("mode") else ""
    out = [f"unit {mv['id']} moving{mode}", f"spent {spent} of {allowance} BW, {max(0, allowance - spent)} left"]
    if net:
        out.append(f"march cards {allowance - net} -> {allowance}")
    return out


def card_table(width: int = 80) -> list[str]:
    """Every card type, its span and what it does (``maquis.maurice.CARDS``), wrapped to
    ``width``: the `help` of the terminal game."""
    from ...common.terminal import wrap
    from .. import CARDS

    out = ["Cards (id, span, copies, mark: what it does):"]
    for c in CARDS:
        span = "no span" if c["span"] is None else f"span {c['span']}"
        mark = f", {c['mark']}" if c.get("mark") else ""
        out += wrap(f"{c['id']} ({span}, x{c['copies']}{mark}): {c['effect']}", width, "    ")
    return out


def pending_words(sd: Mapping) -> str | None:
    p = sd.get("pending")
    if not p:
        return None
    kind = p.get("kind")
    if kind == "aim":
        return f"aim: unit {p.get('unit')} base {p.get('base')}, left lane at {tuple(p['left'])}, right at {tuple(p['right'])}"
    if kind == "displace":
        return f"displace: {p.get('side')} CinC to one of {len(p.get('cells') or ())} cells"
    if kind == "hand_limit":
        return f"hand limit: {p.get('side')} discards {p.get('count')}"
    if kind == "penalty":
        return f"penalty: {p.get('side')} discards a card (CinC displaced)"
    if kind == "king_target":
        units = p.get("unit") or []
        return f"for the king: {p.get('side')} names one of units {','.join(map(str, units))}"
    return kind


#: Named in every rendering: the deck is not the publisher's (RULES K1).
DECK_NOTE = "cards: the library's stand-in deck (RULES K1), not the publisher's card text"

"""Renderers of a Maquis position: a text board (``render_ansi``) and a board image (``render_rgb``).

Both read only the plain-Python ``state_dict()`` of API.md, so they draw any state, hand-built or
from the engine, and never show the hidden order of the patrol deck (only its size). Unknown keys
are ignored. The image is drawn with numpy alone (rectangles, anti-aliased discs and lines, the
bitmap font of ``_font.py``); ``write_png`` needs only the standard library, and ``write_gif`` uses
Pillow when it is installed. Positions come from BOARD_LAYOUT.md; the roads, patrol cards and other
tables below are copies of RULES.md kept here as display data (the engine owns the rules).
"""

from __future__ import annotations

import itertools
import struct
import zlib
from collections.abc import Iterable, Mapping

import numpy as np

from . import _font

__all__ = ["PATROL_CARDS", "ROADS", "render_ansi", "render_rgb", "write_gif", "write_png"]

# ---------------------------------------------------------------------------------------------
# Display data (RULES.md and BOARD_LAYOUT.md)
# ---------------------------------------------------------------------------------------------

# fmt: off
# BOARD_LAYOUT.md: (x, y) in percent of the printed board, rows in the layout's order (north first).
LAYOUT = {
    "mission_a": (35, -12), "mission_b": (60, -12),
    "fence": (35, 13), "pont_du_nord": (60, 13), "radio_b": (86, 14), "rue_baradat": (16, 27),
    "poor_district": (52, 37), "black_market": (71, 36), "doctor": (33, 38),
    "spare_room_ne": (89, 40), "radio_a": (16, 51), "pont_leveque": (52, 62), "grocer": (71, 61),
    "spare_room_w": (32, 63), "spare_room_se": (89, 66), "field_w": (17, 86), "cafe": (39, 86),
    "safe_house": (58, 86), "field_e": (77, 86),
}
LOCATIONS = tuple(LAYOUT)
SLOTS = ("mission_a", "mission_b")

# BOARD_LAYOUT.md: the river's course, entering at the top edge and leaving at the left edge.
RIVER = ((68, 0), (65, 20), (62, 35), (60, 55), (57, 68), (52, 75), (40, 74), (25, 71), (10, 69),
         (0, 68))

# B3. Roads, in the spec's order, then the road from each mission slot.
ROADS = (
    ("rue_baradat", "fence"), ("rue_baradat", "doctor"), ("fence", "poor_district"),
    ("pont_du_nord", "poor_district"), ("pont_du_nord", "black_market"),
    ("poor_district", "black_market"), ("poor_district", "pont_leveque"),
    ("doctor", "radio_a"), ("doctor", "spare_room_w"), ("doctor", "pont_leveque"),
    ("radio_a", "spare_room_w"), ("radio_b", "black_market"), ("radio_b", "spare_room_ne"),
    ("black_market", "spare_room_ne"), ("black_market", "grocer"), ("grocer", "spare_room_se"),
    ("grocer", "safe_house"), ("pont_leveque", "safe_house"), ("cafe", "safe_house"),
    ("field_w", "cafe"), ("safe_house", "field_e"),
    ("mission_a", "fence"), ("mission_b", "pont_du_nord"),
)

# P1. The ten patrol cards: card id -> its three locations, in order.
PATROL_CARDS = (
    ("pont_leveque", "pont_du_nord", "doctor"),
    ("radio_b", "grocer", "black_market"),
    ("grocer", "poor_district", "doctor"),
    ("radio_a", "pont_leveque", "black_market"),
    ("radio_a", "rue_baradat", "grocer"),
    ("pont_leveque", "black_market", "doctor"),
    ("radio_b", "rue_baradat", "pont_leveque"),
    ("fence", "pont_du_nord", "pont_leveque"),
    ("grocer", "pont_du_nord", "fence"),
    ("fence", "rue_baradat", "poor_district"),
)

# T4. The eight resources, four tokens each.
RESOURCES = ("intel", "food", "medicine", "money", "weapon", "explosive", "poison", "fake_id")
TOKENS_PER_RESOURCE = 4

# T1, T2, D1: the tracks as printed, and which difficulties change them.
END_DAY = 15
ORANGE_DAYS = (3, 6, 9, 12, 14)
TRIANGLE_DAYS = (2, 5, 8, 10, 12)
MIN_PATROLS = {1: 5, 2: 4, 3: 4, 4: 4, 5: 3, 6: 3, 7: 2}
SHORT_GAME = ("tricky", "hard", "very_hard")  # the game ends on day 12
TRIANGLE_MORALE = ("hard", "very_hard")  # morale -1 on triangle days instead of orange

# B1 (and A5 for built tiles): locations whose action is safe.
SAFE_LOCATIONS = ("poor_district", "spare_room_ne", "spare_room_w", "spare_room_se")
SAFE_TILES = ("propagandist",)

# §6: mission id -> (title, stars, what to do, in a few words for the image).
MISSIONS = {
    "milice_parade_day": ("Milice Parade Day", 0, "RUE BARADAT: 1 WEAPON"),
    "officers_mansion": ("Officer's Mansion", 0, "TAG 3 PLACES, COMPLETE"),
    "sabotage": ("Sabotage", 1, "INFILTRATE X2, 1 EXPL"),
    "underground_newspaper": ("Underground Newspaper", 1, "3 DAYS: 2 INTEL"),
    "infiltration": ("Infiltration", 1, "MOLE 2 INTEL; WPN+EXPL"),
    "german_shepherds": ("German Shepherds", 1, "3 DAYS: MED + FOOD"),
    "double_agent": ("Double Agent", 1, "VISIT 6, FIND DARK LADY"),
    "aid_the_spy": ("Aid the Spy", 2, "2 WPN; LATER $ + 2 FOOD"),
    "assassination": ("Assassination", 2, "SHOOT ALL MILICE, LAST"),
    "destroy_the_train": ("Destroy the Train", 2, "DAYS 6-9: 3 EXPL"),
    "liberate_the_town": ("Liberate the Town", 2, "END: 3 WPN, MORALE 4+"),
    "coded_messages": ("Coded Messages", 2, "BY DAY 6: $+FOOD+WPN"),
    "take_out_the_bridges": ("Take Out the Bridges", 2, "BLACK MKT: 2 EXPL X2"),
    "bomb_for_the_officer": ("Bomb for the Officer", 2, "MORALE 5+: WPN + EXPL"),
    "milice_hq": ("Milice HQ", 3, "RECORDS; 2 POISON"),
    "bomb_the_barracks": ("Bomb the Barracks", 3, "RECON X2; ID + 2 EXPL"),
    "free_the_resistance_leader": ("Free the Resistance Leader", 3, "BRIBE; POISON/RESCUE"),
    "destroy_aa_guns": ("Destroy AA Guns", 3, "DESTROY 3 AA GUNS"),
}

# Image labels: location -> (name, what its action does).
LABELS = {
    "mission_a": ("MISSION A", ""), "mission_b": ("MISSION B", ""),
    "safe_house": ("SAFE HOUSE", "HOME"),
    "rue_baradat": ("RUE BARADAT", "(MISSIONS)"),
    "fence": ("FENCE", "MONEY > WEAPON"),
    "pont_du_nord": ("PONT DU NORD", "(MISSIONS)"),
    "radio_b": ("RADIO B", "INTEL / AIRDROP"),
    "doctor": ("DOCTOR", "+1 MEDICINE"),
    "poor_district": ("POOR DISTRICT", "FOOD+MED>MORALE"),
    "black_market": ("BLACK MARKET", "FOOD/MED>$,-MOR"),
    "spare_room_ne": ("SPARE ROOM NE", "2 MONEY > BUILD"),
    "radio_a": ("RADIO A", "INTEL / AIRDROP"),
    "spare_room_w": ("SPARE ROOM W", "2 MONEY > BUILD"),
    "pont_leveque": ("PONT LEVEQUE", "(MISSIONS)"),
    "grocer": ("GROCER", "+1 FOOD"),
    "spare_room_se": ("SPARE ROOM SE", "2 MONEY > BUILD"),
    "field_w": ("FIELD W", "PICK UP AIRDROP"),
    "cafe": ("CAFE", "FOOD > RECRUIT"),
    "field_e": ("FIELD E", "PICK UP AIRDROP"),
}
# A5: tile -> (name, what its action does).
TILES = {
    "informant": ("INFORMANT", "+1 INTEL"),
    "counterfeiter": ("COUNTERFEITER", "+1 MONEY"),
    "safe_house": ("SAFE HOUSE TILE", "2ND SAFE HOUSE"),
    "chemists_lab": ("CHEMIST'S LAB", "MED > EXPLOSIVE"),
    "smuggler": ("SMUGGLER", "+3 MED/+3 FOOD"),
    "propagandist": ("PROPAGANDIST", "+1 MORALE"),
    "fixer": ("FIXER", "$ > ANY TILE"),
    "pharmacist": ("PHARMACIST", "2 MED > POISON"),
    "forger": ("FORGER", "INT+2$>FAKE ID"),
}
# Short location names for patrol-card lines in the side panel.
SHORT = {
    "rue_baradat": "RUE BARADAT", "fence": "FENCE", "pont_du_nord": "PONT NORD",
    "radio_b": "RADIO B", "doctor": "DOCTOR", "poor_district": "POOR DIST",
    "black_market": "BLACK MKT", "radio_a": "RADIO A", "pont_leveque": "PONT LEVEQUE",
    "grocer": "GROCER",
}
RESOURCE_NAMES = {
    "intel": "INTEL", "food": "FOOD", "medicine": "MEDICINE", "money": "MONEY",
    "weapon": "WEAPON", "explosive": "EXPLOSIVE", "poison": "POISON", "fake_id": "FAKE ID",
}
RESOURCE_SHORT = {
    "intel": "INTEL", "food": "FOOD", "medicine": "MED", "money": "MONEY", "weapon": "WEAPON",
    "explosive": "EXPL", "poison": "POISON", "fake_id": "ID",
}

# fmt: on

# ---------------------------------------------------------------------------------------------
# Helpers shared by both renderers
# ---------------------------------------------------------------------------------------------


def _day_name(day: int) -> str:
    return "START" if day == 0 else "END" if day == END_DAY else str(day)


def _morale_days(sd: Mapping) -> tuple[int, ...]:
    return TRIANGLE_DAYS if sd.get("difficulty") in TRIANGLE_MORALE else ORANGE_DAYS


def _last_day(sd: Mapping) -> int:
    return 12 if sd.get("difficulty") in SHORT_GAME else END_DAY


def _show_pass(sd: Mapping) -> bool:
    return sd.get("difficulty") == "very_easy" or sd.get("pass", 1) != 1


def _cell(sd: Mapping, loc: str) -> Mapping:
    return sd.get("board", {}).get(loc) or {}


def _mission_in(sd: Mapping, slot: str) -> Mapping | None:
    return next((m for m in sd.get("missions", ()) if m.get("slot") == slot), None)


def _card_locs(card) -> tuple[str, ...]:
    known = isinstance(card, (int, np.integer)) and 0 <= card < len(PATROL_CARDS)
    return PATROL_CARDS[card] if known else ()


def _mission_status(m: Mapping) -> str:
    if m.get("failed"):
        return "failed"
    status = "complete" if m.get("complete") else "in progress"
    return f"{status}, {m['tier']}" if m.get("tier") else status


def _awaiting(sd: Mapping) -> str:
    """The decision the player is asked for, in words."""
    phase = sd.get("phase")
    workers = sd.get("workers", {})
    if sd.get("outcome") is not None or phase == "game_over":
        return f"nothing: the game is over ({sd.get('outcome')})"
    if phase == "placement":
        return f"place a worker ({workers.get('available', 0)} still to place)"
    if phase == "action":
        return f"activate a placed worker ({workers.get('placed', 0)} on the board)"
    if phase == "post_action":
        where = sd.get("pending")
        who = f"the worker at {where}" if where else "the worker"
        return f"{who} is cut off: shoot a Milice or accept"
    return f"unknown phase {phase!r}"


# ---------------------------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------------------------

_ANSI = {
    "head": "1",
    "worker": "1",
    "milice": "34",
    "soldier": "31",
    "good": "32",
    "bad": "31",
    "mark": "33",
    "dim": "2",
}


def render_ansi(sd: Mapping, color: bool = False) -> str:
    """A plain-text board of the position: tracks, missions, every location, resources, patrols.

    Deterministic and plain ASCII; ``color=True`` adds ANSI colour codes (pawns, headings, results).
    """

    def paint(text: str, style: str) -> str:
        return f"\x1b[{_ANSI[style]}m{text}\x1b[0m" if color and text else text

    def track(values: Iterable, current, names=str, marked=()) -> str:
        cells = []
        for v in values:
            name = names(v) + ("!" if v in marked else "")
            cells.append(paint(f"[{name}]", "mark") if v == current else name)
        return " ".join(cells)

    out = []
    day, morale, soldiers = sd.get("day", 0), sd.get("morale", 0), sd.get("soldiers", 0)
    head = f"MAQUIS  {sd.get('difficulty', '?')}  day {_day_name(day)}"
    if _show_pass(sd):
        head += f" (pass {sd.get('pass', 1)})"
    out.append(paint(head + f"  phase {sd.get('phase', '?')}", "head"))
    out.append(f"awaiting: {_awaiting(sd)}")
    if sd.get("outcome") is not None:
        win = sd["outcome"] in ("win", "major_win")
        out.append(paint(f"GAME OVER: {sd['outcome']}", "good" if win else "bad"))

    last = _last_day(sd)
    days = track(range(last + 1), day, _day_name, _morale_days(sd))
    ending = "" if last == END_DAY else f", ends on day {last}"
    out.append(f"day       {days}   (! morale -1{ending})")
    min_patrols = MIN_PATROLS.get(morale)
    patrols = f"   min patrols {min_patrols}" if min_patrols else ""
    out.append(f"morale    {track(range(8), morale, lambda v: str(v) if v else 'FAIL')}{patrols}")
    out.append(f"soldiers  {track(range(6), soldiers)}   milice left {max(0, 5 - soldiers)}")

    out.append(paint("missions", "head"))
    for m in sorted(sd.get("missions", ()), key=lambda m: str(m.get("slot"))):
        stars = MISSIONS.get(m.get("id"), ("", None))[1]
        name = f"{m.get('id')} ({stars}*)" if stars is not None else str(m.get("id"))
        status = _mission_status(m)
        style = "bad" if m.get("failed") else "good" if m.get("complete") else "dim"
        boxes = f"boxes {m.get('boxes_done', 0)}/{m.get('boxes', 0)}"
        out.append(f"  {m.get('slot', '?'):<10} {name:<32} {boxes:<10} {paint(status, style)}")

    out.append(paint("board", "head"))
    for loc in LOCATIONS:
        cell = _cell(sd, loc)
        pawn = cell.get("pawn")
        text = pawn or "-"
        if pawn and cell.get("fake_id"):
            text += "+fake_id"
        extras = []
        if cell.get("stuck_worker"):
            extras.append("stuck worker")
        if cell.get("fake_id") and not pawn:
            extras.append("fake_id")
        if cell.get("tile"):
            extras.append(f"tile {cell['tile']}")
        drop = ", ".join(f"{n} {r}" for r, n in (cell.get("airdrop") or {}).items() if n)
        if drop:
            extras.append(f"airdrop {drop}")
        extras += [flag for flag in ("aa_gun", "tagged", "visited") if cell.get(flag)]
        if sd.get("dark_lady") == loc:
            extras.append(paint("DARK LADY", "mark"))
        if sd.get("pending") == loc:
            extras.append(paint("<- route check pending", "mark"))
        line = f"  {loc:<14} {paint(text, pawn) if pawn else text}{' ' * (16 - len(text))} "
        out.append((line + ", ".join(extras)).rstrip())

    hand, supply = sd.get("hand", {}), sd.get("supply", {})
    widths = [max(len(r), 2) for r in RESOURCES]
    out.append(paint("resources ", "head") + " ".join(f"{r:>{w}}" for r, w in zip(RESOURCES, widths)))
    out.append("  hand    " + " ".join(f"{hand.get(r, 0):>{w}}" for r, w in zip(RESOURCES, widths)))
    out.append("  supply  " + " ".join(f"{supply.get(r, 0):>{w}}" for r, w in zip(RESOURCES, widths)))

    workers = sd.get("workers", {})
    counts = ", ".join(
        f"{k} {workers.get(k, 0)}" for k in ("available", "placed", "stuck", "recruitable", "gone")
    )
    out.append(paint("workers", "head") + f"   {counts}")

    discard = sd.get("patrol_discard", [])
    info = f"deck {len(sd.get('patrol_deck', []))} (order hidden), discard {len(discard)}"
    if sd.get("patrols_today") is not None:
        info += f", patrols today {sd['patrols_today']}"
    info += f", shot today {'yes' if sd.get('shot_today') else 'no'}"
    out.append(paint("patrols", "head") + f"   {info}")
    for i, card in enumerate(discard):
        label = "  discard " if i == 0 else "          "
        out.append(f"{label}#{card} {' > '.join(_card_locs(card))}")
    if sd.get("peek") is not None:
        out.append(f"  top     #{sd['peek']} {' > '.join(_card_locs(sd['peek']))}   (seen by the mole)")
    closed = ", ".join("-".join(road) for road in sd.get("closed_roads", []))
    out.append(paint("closed roads", "head") + f"  {closed or 'none'}")
    if sd.get("dark_lady") is not None:
        out.append(paint("dark lady", "head") + f"  {sd['dark_lady']}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# Image: drawing primitives
# ---------------------------------------------------------------------------------------------

BASE_WIDTH, BASE_HEIGHT = 960, 720  # the frame is laid out in these units, then scaled

_GLYPHS: dict[str, np.ndarray] = {}


def _glyph(ch: str) -> np.ndarray:
    """The glyph of ``ch`` and its spacing column, as a bool array (GLYPH_HEIGHT, CELL_WIDTH)."""
    if ch not in _GLYPHS:
        rows = _font.glyph_rows(ch)
        spacing = _font.CELL_WIDTH - _font.GLYPH_WIDTH
        bits = [
            [r >> (_font.GLYPH_WIDTH - 1 - x) & 1 for x in range(_font.GLYPH_WIDTH)] + [0] * spacing
            for r in rows
        ]
        _GLYPHS[ch] = np.array(bits, dtype=bool)
    return _GLYPHS[ch]


class _Canvas:
    """A float RGB image of the 960 x 720 base frame, ``u`` (a whole number) pixels per base unit."""

    def __init__(self, u: int):
        self.img = np.zeros((BASE_HEIGHT * u, BASE_WIDTH * u, 3), np.float32)
        self.u = u
        self.dot = u  # pixels per font dot at text scale 1

    def _span(self, a: float, b: float, limit: int) -> tuple[int, int]:
        return max(0, round(a * self.u)), min(limit, round(b * self.u))

    def rect(self, x0, y0, x1, y1, color) -> None:
        h, w = self.img.shape[:2]
        (c0, c1), (r0, r1) = self._span(x0, x1, w), self._span(y0, y1, h)
        if c0 < c1 and r0 < r1:
            self.img[r0:r1, c0:c1] = color

    def frame(self, x0, y0, x1, y1, color, t=1.0) -> None:
        self.rect(x0, y0, x1, y0 + t, color)
        self.rect(x0, y1 - t, x1, y1, color)
        self.rect(x0, y0, x0 + t, y1, color)
        self.rect(x1 - t, y0, x1, y1, color)

    def _coverage(self, bx0, by0, bx1, by1, alpha_of, color) -> None:
        """Blend ``color`` into the pixel box [bx0, bx1) x [by0, by1) (base units) with the coverage
        ``alpha_of(xs, ys)`` computed at pixel centres, in pixels."""
        h, w = self.img.shape[:2]
        (c0, c1), (r0, r1) = self._span(bx0, bx1, w), self._span(by0, by1, h)
        if c0 >= c1 or r0 >= r1:
            return
        ys, xs = np.mgrid[r0:r1, c0:c1].astype(np.float32) + 0.5
        alpha = alpha_of(xs, ys)[..., None]
        region = self.img[r0:r1, c0:c1]
        region += (np.asarray(color, np.float32) - region) * alpha

    def disc(self, cx, cy, r, color) -> None:
        px, py, pr = cx * self.u, cy * self.u, r * self.u
        self._coverage(
            cx - r - 1,
            cy - r - 1,
            cx + r + 1,
            cy + r + 1,
            lambda xs, ys: np.clip(pr + 0.5 - np.hypot(xs - px, ys - py), 0, 1),
            color,
        )

    def line(self, x0, y0, x1, y1, color, width, dash=0.0) -> None:
        """A straight stroke with round caps; ``dash`` > 0 draws dashes and gaps of that length."""
        length = float(np.hypot(x1 - x0, y1 - y0))
        if dash > 0 and length > dash:
            steps = int(length // dash)
            for i in range(0, steps + 1, 2):
                t0, t1 = i * dash / length, min(1.0, (i + 1) * dash / length)
                self.line(
                    x0 + (x1 - x0) * t0,
                    y0 + (y1 - y0) * t0,
                    x0 + (x1 - x0) * t1,
                    y0 + (y1 - y0) * t1,
                    color,
                    width,
                )
            return
        u, r = self.u, width / 2
        ax, ay, dx, dy, pr = x0 * u, y0 * u, (x1 - x0) * u, (y1 - y0) * u, r * u
        norm = max(dx * dx + dy * dy, 1e-9)

        def alpha(xs, ys):
            t = np.clip(((xs - ax) * dx + (ys - ay) * dy) / norm, 0, 1)
            return np.clip(pr + 0.5 - np.hypot(xs - ax - t * dx, ys - ay - t * dy), 0, 1)

        self._coverage(
            min(x0, x1) - r - 1, min(y0, y1) - r - 1, max(x0, x1) + r + 1, max(y0, y1) + r + 1, alpha, color
        )

    def text_width(self, s: str, scale: int = 1) -> float:
        """Width of ``s`` in base units."""
        return (len(s) * _font.CELL_WIDTH - 1) * self.dot * scale / self.u if s else 0.0

    def text(self, x, y, s: str, color, scale: int = 1, align: str = "left", middle=False) -> float:
        """Write ``s`` with its top-left (or top-centre, top-right) at (x, y); ``middle`` centres the
        capitals on y instead. Returns the width in base units."""
        if not s:
            return 0.0
        width = self.text_width(s, scale)
        if align == "center":
            x -= width / 2
        elif align == "right":
            x -= width
        if middle:
            y -= (_font.GLYPH_HEIGHT - 1) * self.dot * scale / self.u / 2
        mask = np.concatenate([_glyph(ch) for ch in s], axis=1)[:, :-1]
        mask = mask.repeat(self.dot * scale, axis=0).repeat(self.dot * scale, axis=1)
        h, w = self.img.shape[:2]
        r0, c0 = round(y * self.u), round(x * self.u)
        rr0, cc0 = max(0, r0), max(0, c0)
        rr1, cc1 = min(h, r0 + mask.shape[0]), min(w, c0 + mask.shape[1])
        if rr0 < rr1 and cc0 < cc1:
            sub = mask[rr0 - r0 : rr1 - r0, cc0 - c0 : cc1 - c0]
            self.img[rr0:rr1, cc0:cc1][sub] = color
        return width


# ---------------------------------------------------------------------------------------------
# Image: the frame
# ---------------------------------------------------------------------------------------------

# Frame layout in base units: the town (mission cards above it) on the left, a panel on the right.
BOARD = (8, 126, 632, 712)
CARD_TOP, CARD_W, CARD_H = 6, 148, 104
BOX_W, BOX_H = 100, 60
PANEL = (644, 952)
PAWN_R = 12

BACKGROUND = (28, 31, 38)
PARCHMENT = (214, 203, 170)
INK = (40, 32, 24)
INK_DIM = (112, 98, 80)
BOX_FILL = (247, 241, 225)
BOX_FILLS = {"field_w": (205, 226, 170), "field_e": (205, 226, 170), "safe_house": (214, 228, 246)}
TILE_FILL = (228, 216, 245)
UNBUILT_FILL = (226, 221, 210)
SAFE_BORDER = (226, 120, 20)
ROAD = (104, 88, 70)
BRIDGE = (120, 80, 40)
CLOSED = (210, 30, 30)
WATER = (72, 132, 204)
HIGHLIGHT = (255, 214, 0)
PANEL_TEXT = (232, 232, 236)
PANEL_DIM = (150, 152, 164)
HEADING = (250, 208, 90)
CELL = (58, 62, 72)
PAWNS = {  # fill, letter ink, letter
    "worker": ((250, 238, 196), INK, "W"),
    "milice": ((40, 92, 210), (255, 255, 255), "M"),
    "soldier": ((206, 36, 36), (255, 255, 255), "S"),
}
RESOURCE_COLORS = {
    "intel": (96, 170, 236),
    "food": (122, 194, 82),
    "medicine": (240, 134, 176),
    "money": (232, 192, 60),
    "weapon": (168, 170, 182),
    "explosive": (242, 122, 40),
    "poison": (60, 180, 160),
    "fake_id": (176, 110, 230),
}
FAKE_ID = RESOURCE_COLORS["fake_id"]
CRATE = (146, 96, 48)
OUTCOMES = {
    "win": ("WIN", (40, 150, 60)),
    "major_win": ("MAJOR WIN", (200, 150, 20)),
    "draw": ("DRAW", (110, 110, 120)),
    "loss": ("LOSS", (190, 30, 30)),
}


def _pos(loc: str) -> tuple[float, float]:
    """Centre of ``loc`` in base units (mission cards: centre of the card)."""
    x, y = LAYOUT[loc]
    bx0, by0, bx1, by1 = BOARD
    if loc in SLOTS:
        return bx0 + x * (bx1 - bx0) / 100, CARD_TOP + CARD_H / 2
    return bx0 + x * (bx1 - bx0) / 100, by0 + y * (by1 - by0) / 100


def _board_xy(p) -> tuple[float, float]:
    bx0, by0, bx1, by1 = BOARD
    return bx0 + p[0] * (bx1 - bx0) / 100, by0 + p[1] * (by1 - by0) / 100


def _road_ends(a: str, b: str):
    """Road end points: a mission road leaves from the bottom edge of its card."""
    (ax, ay), (bx, by) = _pos(a), _pos(b)
    if a in SLOTS:
        ay = CARD_TOP + CARD_H
    return ax, ay, bx, by


def _crossing(p0, p1, q0, q1):
    """Where segment p0-p1 crosses segment q0-q1, or None."""
    rx, ry, sx, sy = p1[0] - p0[0], p1[1] - p0[1], q1[0] - q0[0], q1[1] - q0[1]
    den = rx * sy - ry * sx
    if abs(den) < 1e-9:
        return None
    t = ((q0[0] - p0[0]) * sy - (q0[1] - p0[1]) * sx) / den
    v = ((q0[0] - p0[0]) * ry - (q0[1] - p0[1]) * rx) / den
    return (p0[0] + t * rx, p0[1] + t * ry) if 0 <= t <= 1 and 0 <= v <= 1 else None


def _is_closed(sd: Mapping, a: str, b: str) -> bool:
    return any(set(road) == {a, b} for road in sd.get("closed_roads", []))


def _pawn(c: _Canvas, cx, cy, kind: str, r=PAWN_R) -> None:
    fill, ink, letter = PAWNS.get(kind, ((128, 128, 128), INK, "?"))
    c.disc(cx, cy + 1.5, r + 1, (60, 50, 40))  # shadow, so pawns stand out on any fill
    c.disc(cx, cy, r + 1.5, (30, 24, 20))
    c.disc(cx, cy, r, fill)
    c.text(cx + 0.5, cy, letter, ink, align="center", middle=True)


def _stuck(c: _Canvas, cx, cy, r=PAWN_R - 1) -> None:
    """A stuck worker: a worker disc behind bars."""
    c.disc(cx, cy, r + 1.5, (30, 24, 20))
    c.disc(cx, cy, r, PAWNS["worker"][0])
    for dx in (-4, 0, 4):
        c.line(cx + dx, cy - r + 2, cx + dx, cy + r - 2, (60, 50, 40), 1.6)


def _badge(c: _Canvas, x, y, text: str, fill, ink=(255, 255, 255)) -> float:
    w = c.text_width(text) + 4
    c.rect(x, y, x + w, y + 10, fill)
    c.text(x + 2, y + 1, text, ink)
    return w


def _fake_id(c: _Canvas, cx, cy) -> None:
    """The Fake ID badge, pinned to the top right of a pawn at (cx, cy)."""
    x, y = cx + PAWN_R - 8, cy - PAWN_R - 5
    c.rect(x - 1, y - 1, x + 16, y + 10, (255, 255, 255))
    _badge(c, x, y, "ID", FAKE_ID)


def _draw_town(c: _Canvas, sd: Mapping) -> None:
    bx0, by0, bx1, by1 = BOARD
    c.rect(bx0, by0, bx1, by1, PARCHMENT)
    c.frame(bx0, by0, bx1, by1, (90, 76, 56), 2)
    river = [_board_xy(p) for p in RIVER]
    for p, q in itertools.pairwise(river):
        c.line(p[0], p[1], q[0], q[1], WATER, 16)
    crosses = []
    for a, b in ROADS:
        ax, ay, bx, by = _road_ends(a, b)
        crossings = [x for p, q in itertools.pairwise(river) if (x := _crossing((ax, ay), (bx, by), p, q))]
        for x, y in crossings:  # a bridge deck where the road crosses the river
            n = float(np.hypot(bx - ax, by - ay))
            ux, uy = (bx - ax) / n * 16, (by - ay) / n * 16
            c.line(x - ux, y - uy, x + ux, y + uy, BRIDGE, 12)
        if _is_closed(sd, a, b):
            c.line(ax, ay, bx, by, CLOSED, 4, dash=9)
            crosses.append(crossings[0] if crossings else ((ax + bx) / 2, (ay + by) / 2))
        else:
            c.line(ax, ay, bx, by, ROAD, 4)
    for loc in LOCATIONS:
        if loc not in SLOTS:
            _draw_location(c, sd, loc)
    for x, y in crosses:
        for d in (-1, 1):
            c.line(x - 8, y - 8 * d, x + 8, y + 8 * d, (255, 255, 255), 7)
        for d in (-1, 1):
            c.line(x - 8, y - 8 * d, x + 8, y + 8 * d, CLOSED, 4)
    c.text(bx0 + 6, by1 - 13, "W WORKER  M MILICE  S SOLDIER   ORANGE FRAME: SAFE ACTION", INK_DIM)


def _draw_location(c: _Canvas, sd: Mapping, loc: str) -> None:
    cell = _cell(sd, loc)
    cx, cy = _pos(loc)
    x0, y0, x1, y1 = cx - BOX_W / 2, cy - BOX_H / 2, cx + BOX_W / 2, cy + BOX_H / 2
    name, hint = LABELS[loc]
    fill = BOX_FILLS.get(loc, BOX_FILL)
    tile = cell.get("tile")
    safe = loc in SAFE_LOCATIONS
    if loc.startswith("spare_room"):
        fill = TILE_FILL if tile else UNBUILT_FILL
        if tile:
            name, hint = TILES.get(tile, (str(tile).upper(), ""))
            safe = tile in SAFE_TILES
    c.rect(x0 + 2, y0 + 3, x1 + 2, y1 + 3, (150, 138, 110))  # drop shadow
    c.rect(x0, y0, x1, y1, fill)
    if sd.get("pending") == loc:
        c.frame(x0 - 4, y0 - 4, x1 + 4, y1 + 4, HIGHLIGHT, 4)
    c.frame(x0, y0, x1, y1, SAFE_BORDER if safe else (70, 60, 48), 3 if safe else 1)
    c.text(x0 + 5, y0 + 5, name, INK)
    c.text(x0 + 5, y0 + 15, hint, INK_DIM)

    pawn = cell.get("pawn")
    px, py = x1 - 16, y1 - 16
    if pawn:
        _pawn(c, px, py, pawn)
        if cell.get("fake_id"):
            _fake_id(c, px, py)
    badges = []
    for res, n in (cell.get("airdrop") or {}).items():
        if n:
            badges.append((f"{n} {RESOURCE_SHORT.get(res, res.upper())}", CRATE, (255, 255, 255)))
    if cell.get("aa_gun"):
        badges.append(("AA GUN", (70, 74, 84), (255, 255, 255)))
    if cell.get("tagged"):
        badges.append(("TAGGED", (240, 200, 30), INK))
    if cell.get("visited"):
        badges.append(("VISITED", (60, 150, 80), (255, 255, 255)))
    if sd.get("dark_lady") == loc:
        badges.append(("DARK LADY", (170, 30, 140), (255, 255, 255)))
    if cell.get("fake_id") and not pawn:
        badges.append(("FAKE ID", FAKE_ID, (255, 255, 255)))
    right = x1 - (34 if pawn else 4)
    bx, by = x0 + 5, y0 + 28
    for text, bg, ink in badges:
        w = c.text_width(text) + 4
        if bx + w > right and bx > x0 + 5:
            bx, by = x0 + 5, by + 12
        _badge(c, bx, by, text, bg, ink)
        bx += w + 3


def _wrap(text: str, chars: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > chars:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + ([line] if line else [])


def _draw_card(c: _Canvas, sd: Mapping, slot: str) -> None:
    m = _mission_in(sd, slot)
    cell = _cell(sd, slot)
    cx = _pos(slot)[0]
    x0, y0, x1, y1 = cx - CARD_W / 2, CARD_TOP, cx + CARD_W / 2, CARD_TOP + CARD_H
    failed, complete = bool(m and m.get("failed")), bool(m and m.get("complete"))
    fill = (222, 242, 214) if complete else (236, 214, 210) if failed else (250, 246, 234)
    c.rect(x0, y0, x1, y1, fill)
    c.frame(x0, y0, x1, y1, (20, 20, 20), 1)
    if sd.get("pending") == slot:
        c.frame(x0 - 3, y0 - 3, x1 + 3, y1 + 3, HIGHLIGHT, 3)
    c.rect(x0, y0, x1, y0 + 13, (70, 58, 46))
    c.text(x0 + 4, y0 + 3, LABELS[slot][0], (255, 255, 255))
    if m is None:
        c.text(cx, y0 + 40, "NO MISSION", INK_DIM, align="center")
        return
    title, stars, goal = MISSIONS.get(m.get("id"), (str(m.get("id")).replace("_", " "), None, ""))
    if stars:
        c.text(x1 - 4, y0 + 3, "*" * stars, HEADING, align="right")
    for i, line in enumerate(_wrap(title.upper(), 23)[:2]):
        c.text(x0 + 5, y0 + 18 + 10 * i, line, INK)
    c.text(x0 + 5, y0 + 40, goal, INK_DIM)

    boxes, done = int(m.get("boxes", 0)), int(m.get("boxes_done", 0))
    for i in range(boxes):
        bx = x0 + 5 + i * 15
        c.rect(bx, y0 + 54, bx + 13, y0 + 67, (40, 40, 40))
        c.rect(bx + 1.5, y0 + 55.5, bx + 11.5, y0 + 65.5, (60, 170, 70) if i < done else (255, 255, 255))
    c.text(x0 + 6 + boxes * 15, y0 + 57, f"{done}/{boxes}", INK)

    if failed:
        status, ink = "FAILED", (180, 30, 30)
    elif complete:
        status, ink = "COMPLETE", (30, 130, 50)
    else:
        status, ink = "IN PROGRESS", INK_DIM
    c.text(x0 + 5, y0 + 76, status, ink)
    if m.get("tier"):
        c.text(x0 + 5, y0 + 88, "MAJOR SUCCESS" if m["tier"] == "major" else "SUCCESS", ink)

    px, py = x1 - 16, y1 - 16
    if cell.get("pawn"):
        _pawn(c, px, py, cell["pawn"])
        if cell.get("fake_id"):
            _fake_id(c, px, py)
        px -= 26
    if cell.get("stuck_worker"):
        _stuck(c, px, py)
    if cell.get("aa_gun"):
        _badge(c, x1 - 44, y0 + 56, "AA GUN", (70, 74, 84))


def _track(c: _Canvas, x, y, values, current, names, loss=(), last=None, colors=None) -> None:
    """Cells of a track, eight to a row; the current value filled, ``loss`` days in orange."""
    for i, v in enumerate(values):
        cx, cy = x + (i % 8) * 38, y + (i // 8) * 22
        beyond = last is not None and v > last
        fill = CELL if not beyond else (40, 43, 50)
        if v in loss and not beyond:
            fill = (150, 84, 24)
        ink = PANEL_DIM if beyond else PANEL_TEXT
        if v == current:
            fill, ink = (colors(v) if colors else HEADING), (20, 20, 20)
        c.rect(cx, cy, cx + 35, cy + 19, fill)
        c.text(cx + 17.5, cy + 10, names(v), ink, align="center", middle=True)


def _morale_color(v: int):
    return (230, 60, 50) if v <= 2 else (240, 200, 60) if v <= 4 else (90, 200, 100)


def _draw_panel(c: _Canvas, sd: Mapping) -> None:
    x0, x1 = PANEL
    day, morale, soldiers = sd.get("day", 0), sd.get("morale", 0), sd.get("soldiers", 0)
    c.text(x0, 8, "MAQUIS", HEADING, 2)
    c.text(x1, 12, str(sd.get("difficulty", "")).upper().replace("_", " "), PANEL_DIM, align="right")

    title = f"DAY {_day_name(day)}" + (f"  PASS {sd.get('pass', 1)}" if _show_pass(sd) else "")
    c.text(x0, 36, title, PANEL_TEXT, 2)
    note = "ORANGE: MORALE -1" + (", ENDS ON 12" if _last_day(sd) != END_DAY else "")
    c.text(x1, 41, note, PANEL_DIM, align="right")
    _track(c, x0, 56, range(END_DAY + 1), day, _day_name, _morale_days(sd), _last_day(sd))

    c.text(x0, 106, f"MORALE {morale}", PANEL_TEXT, 2)
    if MIN_PATROLS.get(morale):
        c.text(x1, 111, f"MIN PATROLS {MIN_PATROLS[morale]}", PANEL_DIM, align="right")
    _track(c, x0, 126, range(8), morale, lambda v: str(v) if v else "FAIL", colors=_morale_color)

    c.text(x0, 154, f"SOLDIERS {soldiers}", PANEL_TEXT, 2)
    c.text(x1, 159, f"MILICE LEFT {max(0, 5 - soldiers)}", PANEL_DIM, align="right")
    _track(c, x0, 174, range(6), soldiers, str, colors=lambda v: (230, 70, 60))

    hand, supply = sd.get("hand", {}), sd.get("supply", {})
    c.text(x0, 204, "RESOURCES", PANEL_TEXT, 2)
    c.text(x1, 209, "HAND / SUPPLY", PANEL_DIM, align="right")
    for i, res in enumerate(RESOURCES):
        y = 224 + i * 15
        color = RESOURCE_COLORS[res]
        c.rect(x0, y, x0 + 10, y + 10, color)
        c.text(x0 + 15, y + 2, RESOURCE_NAMES[res], PANEL_TEXT)
        n_hand, n_supply = hand.get(res, 0), supply.get(res, 0)
        for k in range(TOKENS_PER_RESOURCE):
            tx, ty = x0 + 92 + k * 14, y + 5
            if k < n_hand:
                c.disc(tx, ty, 5.5, color)
            elif k < n_hand + n_supply:
                c.disc(tx, ty, 5.5, color)
                c.disc(tx, ty, 3.5, BACKGROUND)
            else:  # elsewhere: on a field or carried by a placed worker
                c.disc(tx, ty, 1.5, PANEL_DIM)
        c.text(x0 + 158, y + 2, f"HAND {n_hand}", PANEL_TEXT if n_hand else PANEL_DIM)
        c.text(x0 + 222, y + 2, f"SUPPLY {n_supply}", PANEL_DIM)

    workers = sd.get("workers", {})
    c.text(x0, 350, "WORKERS", PANEL_TEXT, 2)
    wx = x0 + 6
    kinds = (
        ("available", "AVAIL"),
        ("placed", "PLACED"),
        ("stuck", "STUCK"),
        ("recruitable", "RECRUIT"),
        ("gone", "GONE"),
    )
    for key, _ in kinds:
        for _ in range(int(workers.get(key, 0))):
            if key == "stuck":
                _stuck(c, wx, 378, 7)
            elif key == "recruitable":
                c.disc(wx, 378, 7.5, PANEL_DIM)
                c.disc(wx, 378, 6, BACKGROUND)
            elif key == "gone":
                c.line(wx - 5, 373, wx + 5, 383, (200, 60, 60), 2.5)
                c.line(wx - 5, 383, wx + 5, 373, (200, 60, 60), 2.5)
            else:
                c.disc(wx, 378, 7.5, PAWNS["worker"][0])
                if key == "placed":
                    c.disc(wx, 378, 3, (40, 92, 210))
            wx += 20
    counts = "  ".join(f"{label} {workers.get(key, 0)}" for key, label in kinds)
    c.text(x0, 392, counts, PANEL_DIM)

    discard = list(sd.get("patrol_discard", []))
    c.text(x0, 412, "PATROLS", PANEL_TEXT, 2)
    c.text(
        x1, 417, f"DECK {len(sd.get('patrol_deck', []))}  DISCARD {len(discard)}", PANEL_DIM, align="right"
    )
    info = f"SHOT TODAY: {'YES' if sd.get('shot_today') else 'NO'}"
    if sd.get("patrols_today") is not None:
        info = f"PATROLS TODAY: {sd['patrols_today']}   " + info
    c.text(x0, 434, info, PANEL_TEXT)
    y = 448
    for i, card in enumerate(discard[-10:]):  # ten cards at most, newest last
        newest = i == len(discard[-10:]) - 1
        line = f"#{card} " + " > ".join(SHORT.get(l, l) for l in _card_locs(card))
        c.text(x0 + 6, y, line, PANEL_TEXT if newest else PANEL_DIM)
        y += 11
    if sd.get("peek") is not None:
        peek = sd["peek"]
        c.text(x0, y + 2, f"NEXT #{peek} " + " > ".join(SHORT.get(l, l) for l in _card_locs(peek)), HEADING)
        c.text(x1, y + 2, "(MOLE)", PANEL_DIM, align="right")
    y = 576
    for a, b in sd.get("closed_roads", []):
        c.text(x0, y, f"CLOSED: {LABELS.get(a, (a,))[0]} - {LABELS.get(b, (b,))[0]}", (240, 90, 80))
        y -= 11

    c.rect(x0 - 4, 592, x1 + 4, 712, (44, 49, 60))
    over = sd.get("outcome") is not None
    c.text(x0 + 4, 600, "GAME OVER" if over else "PHASE", PANEL_DIM)
    phase = str(sd.get("outcome") if over else sd.get("phase", "?")).upper().replace("_", " ")
    c.text(x0 + 4, 614, phase, OUTCOMES.get(sd.get("outcome"), (0, HEADING))[1] if over else HEADING, 3)
    for i, line in enumerate(_wrap(_awaiting(sd).upper().replace("_", " "), 49)[:4]):
        c.text(x0 + 4, 648 + 12 * i, line, PANEL_TEXT)


def _draw_outcome(c: _Canvas, sd: Mapping) -> None:
    text, color = OUTCOMES.get(sd["outcome"], (str(sd["outcome"]).upper(), (110, 110, 120)))
    bx0, by0, bx1, by1 = BOARD
    cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2 - 30
    w = c.text_width(text, 5) + 60
    c.rect(cx - w / 2 + 4, cy - 36, cx + w / 2 + 4, cy + 44, (40, 30, 20))
    c.rect(cx - w / 2, cy - 40, cx + w / 2, cy + 40, color)
    c.frame(cx - w / 2, cy - 40, cx + w / 2, cy + 40, (255, 255, 255), 3)
    c.text(cx, cy, text, (255, 255, 255), 5, align="center", middle=True)


def _resize_axis(img: np.ndarray, n_out: int, axis: int) -> np.ndarray:
    """Resample ``img`` to ``n_out`` pixels along ``axis``: each output pixel is the mean of the
    input pixels under its footprint, weighted by how much of each it covers."""
    a = np.moveaxis(img, axis, 0)
    n_in = a.shape[0]
    scale = n_in / n_out
    start = np.arange(n_out) * scale
    first = start.astype(int)
    out = np.zeros((n_out, *a.shape[1:]), np.float32)
    for k in range(int(np.ceil(scale)) + 1):  # the input pixels one footprint can touch
        j = first + k
        cover = np.clip(np.minimum(start + scale, j + 1) - np.maximum(start, j), 0, None) / scale
        out += cover.astype(np.float32).reshape(-1, *([1] * (a.ndim - 1))) * a[np.minimum(j, n_in - 1)]
    return np.moveaxis(out, 0, axis)


def render_rgb(sd: Mapping, width: int = 960) -> np.ndarray:
    """An image of the position, shape (round(width * 3 / 4), width, 3), dtype uint8.

    The town with its roads, river and bridges at the BOARD_LAYOUT.md positions, the two mission
    cards above it, and a side panel with the tracks, resources, workers, patrols and phase. The
    layout is made for 960 pixels wide (sharpest at multiples of 960); other widths are drawn at
    the next multiple and scaled down by area averaging.
    """
    if width < 16:
        raise ValueError(f"width must be at least 16 pixels, got {width}")
    c = _Canvas(-(-width // BASE_WIDTH))
    c.rect(0, 0, BASE_WIDTH, BASE_HEIGHT, BACKGROUND)
    _draw_town(c, sd)
    for slot in SLOTS:
        _draw_card(c, sd, slot)
    _draw_panel(c, sd)
    if sd.get("outcome") is not None:
        _draw_outcome(c, sd)
    img = c.img
    height = round(BASE_HEIGHT * width / BASE_WIDTH)
    if img.shape[:2] != (height, width):
        img = _resize_axis(_resize_axis(img, height, 0), width, 1)
    return np.clip(img + 0.5, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------------------------


def write_png(path, rgb: np.ndarray) -> None:
    """Write an (H, W, 3) uint8 image as an 8-bit RGB PNG, with zlib and struct only."""
    rgb = np.asarray(rgb)
    if rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.dtype != np.uint8:
        raise ValueError(f"expected an (H, W, 3) uint8 array, got {rgb.shape} {rgb.dtype}")
    height, width = rgb.shape[:2]
    # Each scanline starts with filter type 0 (none).
    raw = np.concatenate([np.zeros((height, 1), np.uint8), rgb.reshape(height, -1)], axis=1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw.tobytes(), 6))
        + chunk(b"IEND", b"")
    )
    with open(path, "wb") as f:
        f.write(png)


def write_gif(path, frames: Iterable[np.ndarray], duration_ms: int = 500) -> None:
    """Write frames ((H, W, 3) uint8 images) as a looping animated GIF. Needs Pillow."""
    try:
        from PIL import Image
    except ImportError as err:
        raise RuntimeError(
            "write_gif needs Pillow: `pip install pillow` (or save the frames with write_png)"
        ) from err
    images = [Image.fromarray(np.asarray(f, dtype=np.uint8)) for f in frames]
    if not images:
        raise ValueError("write_gif needs at least one frame")
    images[0].save(path, save_all=True, append_images=images[1:], duration=duration_ms, loop=0)

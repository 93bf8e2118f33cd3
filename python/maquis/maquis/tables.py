"""The rule tables of *Maquis* (docs/rules/maquis.md), as the Rust engine holds them.

Every name here comes from the compiled engine (``maquis._core.maquis``, src/py/maquis/tables.rs), so Python code
that draws or describes a game reads the same roads, cards and tracks the rules play with, and
never a copy. Ids are docs/rules/maquis.md's strings; sequences are tuples and mappings read-only.

- Board (B1–B6): ``LOCATIONS`` (B1 order), ``SLOTS``, ``SPARE_ROOMS``, ``FIELDS``,
  ``PATROL_LOCATIONS``, ``WEST_BANK``, ``SAFE_LOCATIONS``, ``ROADS`` (B3 order, then the two
  mission roads), ``PATROL_CARDS`` (card id -> its three locations, P1).
- Tracks (T1–T5): ``END_DAY``, ``LAST_DAY``, ``ORANGE_DAYS``, ``TRIANGLE_DAYS``, ``MAX_MORALE``,
  ``START_MORALE``, ``MIN_PATROLS`` (indexed by morale), ``MAX_SOLDIERS``, ``TOKENS_PER_RESOURCE``,
  ``MAX_WORKERS``.
- Pieces: ``RESOURCES``, ``TILES``, ``SAFE_TILES``, ``MISSIONS`` (id -> stars, shield, boxes),
  ``PHASES``, ``OUTCOMES``.
- Options (D1–D3): ``DIFFICULTIES`` and ``DIFFICULTY_SETTINGS`` (final_day, passes, morale_days,
  starting_workers, arrest_costs_morale, airdrop), ``MISSION_POOLS`` and ``POOL_SETTINGS``
  (missions, tiles, tokens), ``DEALS``.
"""

from __future__ import annotations

from .._core.maquis import (
    DEALS,
    DIFFICULTIES,
    DIFFICULTY_SETTINGS,
    END_DAY,
    FIELDS,
    LAST_DAY,
    LOCATIONS,
    MAX_MORALE,
    MAX_SOLDIERS,
    MAX_WORKERS,
    MIN_PATROLS,
    MISSION_POOLS,
    MISSIONS,
    ORANGE_DAYS,
    OUTCOMES,
    PATROL_CARDS,
    PATROL_LOCATIONS,
    PHASES,
    POOL_SETTINGS,
    RESOURCES,
    ROADS,
    SAFE_LOCATIONS,
    SAFE_TILES,
    SLOTS,
    SPARE_ROOMS,
    START_MORALE,
    TILES,
    TOKENS_PER_RESOURCE,
    TRIANGLE_DAYS,
    WEST_BANK,
)

__all__ = [
    "DEALS",
    "DIFFICULTIES",
    "DIFFICULTY_SETTINGS",
    "END_DAY",
    "FIELDS",
    "LAST_DAY",
    "LOCATIONS",
    "MAX_MORALE",
    "MAX_SOLDIERS",
    "MAX_WORKERS",
    "MIN_PATROLS",
    "MISSIONS",
    "MISSION_POOLS",
    "ORANGE_DAYS",
    "OUTCOMES",
    "PATROL_CARDS",
    "PATROL_LOCATIONS",
    "PHASES",
    "POOL_SETTINGS",
    "RESOURCES",
    "ROADS",
    "SAFE_LOCATIONS",
    "SAFE_TILES",
    "SLOTS",
    "SPARE_ROOMS",
    "START_MORALE",
    "TILES",
    "TOKENS_PER_RESOURCE",
    "TRIANGLE_DAYS",
    "WEST_BANK",
]

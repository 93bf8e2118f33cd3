"""`maquis.maquis.tables`: the rule tables exported by the engine agree with the games the engine plays."""

from __future__ import annotations

import pytest

import maquis
from maquis import tables


def test_tables_are_read_only():
    with pytest.raises(TypeError):
        tables.DIFFICULTY_SETTINGS["normal"] = {}  # type: ignore[index]
    with pytest.raises(TypeError):
        tables.MISSIONS["sabotage"]["boxes"] = 9  # type: ignore[index]
    assert isinstance(tables.ROADS, tuple) and isinstance(tables.PATROL_CARDS[0], tuple)


def test_board_tables_name_only_locations():
    locations = set(tables.LOCATIONS)
    assert len(tables.LOCATIONS) == 19 and tables.SLOTS == ("mission_a", "mission_b")
    for group in (
        tables.SLOTS,
        tables.SPARE_ROOMS,
        tables.FIELDS,
        tables.PATROL_LOCATIONS,
        tables.SAFE_LOCATIONS,
    ):
        assert set(group) <= locations
    assert {loc for road in tables.ROADS for loc in road} == locations
    assert {loc for card in tables.PATROL_CARDS for loc in card} == set(tables.PATROL_LOCATIONS)
    placeable = {name.split(":")[1] for name in maquis.ACTION_NAMES if name.startswith("place:")}
    assert placeable <= locations


def test_tracks():
    assert tables.END_DAY == tables.LAST_DAY + 1
    assert set(tables.ORANGE_DAYS) | set(tables.TRIANGLE_DAYS) <= set(range(1, tables.END_DAY))
    assert len(tables.MIN_PATROLS) == tables.MAX_MORALE + 1
    assert tables.OUTCOMES == maquis.OUTCOMES


@pytest.mark.parametrize("difficulty", tables.DIFFICULTIES)
def test_d1_difficulty_settings_are_the_ones_the_engine_starts_with(difficulty):
    settings = tables.DIFFICULTY_SETTINGS[difficulty]
    env = maquis.MaquisEnv(difficulty=difficulty, missions=["sabotage", "aid_the_spy"])  # no M-milice_hq
    env.reset(seed=1)
    sd = env.state_dict()
    assert sd["morale"] == tables.START_MORALE
    assert sd["workers"]["available"] == settings["starting_workers"]["safe_house"]
    assert sd["workers"]["recruitable"] == settings["starting_workers"]["cafe"]
    assert settings["final_day"] in (tables.END_DAY, 12)
    assert settings["morale_days"] in (tables.ORANGE_DAYS, tables.TRIANGLE_DAYS)
    assert sd["phase"] in tables.PHASES


@pytest.mark.parametrize("pool", tables.MISSION_POOLS)
def test_d2_pool_settings_are_the_ones_the_engine_deals_from(pool):
    settings = tables.POOL_SETTINGS[pool]
    dealt = set()
    for seed in range(12):
        env = maquis.MaquisEnv(mission_pool=pool)
        env.reset(seed=seed)
        sd = env.state_dict()
        for m in sd["missions"]:
            dealt.add(m["id"])
            assert m["boxes"] == tables.MISSIONS[m["id"]]["boxes"]
        in_game = {r: sd["supply"][r] + sd["hand"][r] for r in tables.RESOURCES}
        assert in_game == dict(settings["tokens"])
    assert dealt <= set(settings["missions"])
    assert set(settings["tiles"]) <= set(tables.TILES) and set(tables.SAFE_TILES) <= set(tables.TILES)

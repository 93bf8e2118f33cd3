"""`docs/maquis.md`, the environment's reference page, generated from the package itself.

The action table comes from `maquis.ACTION_NAMES`, the observation table from
`maquis.OBSERVATION_LAYOUT` (with the index order of every one-hot read from the engine), and the
prose sections from the docstrings of `MaquisEnv` and `MaquisVectorEnv`; so the page cannot say
something the package does not. `tests/test_docs.py` regenerates it and fails if the file differs.

    python -m maquis docs --output docs/maquis.md     # write it
    python -m maquis docs --check docs/maquis.md      # exit 1 with a diff if it is out of date
"""

from __future__ import annotations

import argparse
import inspect
import re
from collections.abc import Sequence

from ..common import docs as common_docs
from ..common.docs import Page, action_blocks, add_arguments, ranges, require_descriptions

__all__ = ["SLICES", "add_arguments", "render", "run"]

# What each slice of OBSERVATION_LAYOUT holds and how it is scaled. A slice missing here (a new
# one) makes `render` fail, so the page cannot leave a slice out.
SLICES: dict[str, tuple[str, str]] = {
    "day": ("the day marker's space: 0 = START, 1-14, 15 = END (T1)", "one-hot"),
    "second_pass": ("very_easy's second pass over the day track (D1)", "flag"),
    "phase": ("the phase: {phases}", "one-hot"),
    "difficulty": ("the difficulty level: {difficulties}", "one-hot"),
    "mission_pool": ("the mission pool: {pools}", "one-hot"),
    "morale": ("the morale track, 0-{max}", "one-hot"),
    "soldiers": ("the soldier track, 0-{max}", "one-hot"),
    "hand": ("the player's tokens, per resource", "count / 4"),
    "supply": ("the tokens left in the supply, per resource", "count / 4"),
    "workers": ("workers available (at home), placed, stuck, recruitable, gone (T5)", "count / 5"),
    "patrols": ("patrols to place today, patrols drawn so far today (P1-P3)", "count / 5"),
    "pawn_worker": ("a worker on the location", "0/1 per location"),
    "pawn_milice": ("a Milice patrol on the location", "0/1 per location"),
    "pawn_soldier": ("a soldier patrol on the location", "0/1 per location"),
    "stuck_worker": ("a worker kept on the location (a mole, a cryptographer)", "0/1 per location"),
    "fake_id": ("the worker there was placed with a Fake ID (F5)", "0/1 per location"),
    "airdrop_field_w": ("the airdrop lying on field_w, per resource", "count / 4"),
    "airdrop_field_e": ("the airdrop lying on field_e, per resource", "count / 4"),
    "airdrop_at_day_start": ("field_w, field_e held an airdrop when the day began", "2 flags"),
    "aa_gun": ("an AA gun on the location (M-destroy_aa_guns)", "0/1 per location"),
    "tagged": ("the location is tagged (graffiti, M-officers_mansion)", "0/1 per location"),
    "visited": ("the location is visited (M-double_agent)", "0/1 per location"),
    "dark_lady": ("where the Dark Lady is (M-double_agent)", "one-hot over locations, or zeros"),
    "tile_spare_room_ne": ("the tile built in spare_room_ne: {tiles}", "one-hot, or zeros"),
    "tile_spare_room_w": ("the tile built in spare_room_w", "one-hot, or zeros"),
    "tile_spare_room_se": ("the tile built in spare_room_se", "one-hot, or zeros"),
    "closed_roads": ("road i of docs/rules/maquis.md B3 is closed (bridges, M-milice_parade_day)", "0/1 per road"),
    "bridges_chosen": ("bridge_north, bridge_south chosen (M-take_out_the_bridges)", "2 flags"),
    "mission_a_id": ("the mission on mission_a: {missions}", "one-hot"),
    "mission_a_state": (
        "mission_a's progress: boxes done / its boxes, boxes done / 7, complete, failed, "
        "success tier, major tier, a box done today",
        "fractions and flags",
    ),
    "mission_b_id": ("the mission on mission_b (the same order)", "one-hot"),
    "mission_b_state": ("mission_b's progress (as mission_a_state)", "fractions and flags"),
    "patrol_discard": ("patrol card i (0-9) is in the open discard", "0/1 per card"),
    "deck_size": ("the cards left in the patrol deck (never their order)", "count / 10"),
    "peek": ("the top card seen by an Infiltration mole (M-infiltration)", "one-hot over cards, or zeros"),
    "shot_today": ("the Milice was shot today (F8)", "flag"),
    "distracted_today": ("a patrol was distracted today (field `distract`)", "flag"),
    "pending_location": (
        "the location of the activation waiting in post_action for its route check (F8)",
        "one-hot over locations, or zeros",
    ),
    "pending_tokens": ("the tokens that activation brings home, per resource", "count / 4"),
    "pending_reward": (
        "what else it does if its worker gets home: morale up, morale down, recruit, a mission "
        "box, a distraction, with the mole, an airdrop on field_w, on field_e",
        "8 flags",
    ),
}

# The action blocks of docs/api/maquis.md, by the verb of the name.
BLOCKS: dict[str, tuple[str, str]] = {
    "place": ("placement", "place the next worker on `<loc>` (`:fake_id`: with a Fake ID, F5)"),
    "act": ("action", "activate the worker on `<loc>` and perform `<option>`"),
    "skip": ("action", "activate the worker on `<loc>` without an action (route check only)"),
    "shoot": ("action, post_action", "shoot the Milice on `<loc>` (F8)"),
    "accept": ("post_action", "do not shoot: the cut-off worker's route is checked (F8)"),
}


# ---------------------------------------------------------------------------------------------
# What the engine says about its own orders
# ---------------------------------------------------------------------------------------------


def _hot(obs, name: str) -> int:
    from . import OBSERVATION_LAYOUT

    for n, off, length in OBSERVATION_LAYOUT:
        if n == name:
            row = list(obs[off : off + length])
            return row.index(max(row))
    raise KeyError(name)


def _in_order(found: dict[int, str], what: str) -> list[str]:
    if sorted(found) != list(range(len(found))):
        raise ValueError(f"the probe of the {what}' order found indices {sorted(found)} only")
    return [found[i] for i in range(len(found))]


def _orders() -> dict[str, list[str]]:
    """The index order of the one-hot slices, read from observations of real games."""
    from . import ACTION_NAMES, MaquisEnv

    env = MaquisEnv()
    env.reset(seed=0)
    board = list(env.state_dict()["board"])
    # The placements name the locations in their index order; the probes say where it starts.
    placeable = [n.split(":")[1] for n in ACTION_NAMES if n.startswith("place:") and not n.endswith(":fake_id")]
    offsets = set()
    for name in ACTION_NAMES[: len(placeable)]:
        if env.action_from_str(name) in env.legal_actions():
            e = env.clone()
            o, *_ = e.step(env.action_from_str(name))
            offsets.add(_hot(o, "pawn_worker") - placeable.index(name.split(":")[1]))
    others = [loc for loc in board if loc not in placeable]
    if len(offsets) != 1 or len(others) != offsets.copy().pop():
        raise ValueError(f"cannot tell the locations' order (offsets {offsets}, unplaceable {others})")
    locations = dict(enumerate(others + placeable))
    resources: dict[int, str] = {}
    for res in env.state_dict()["hand"]:
        o, _ = MaquisEnv().reset(seed=0, options={"start": {"resources": {res: 1}}})
        resources[_hot(o, "hand")] = res
    orders: dict[str, list[str]] = {
        "locations": _in_order(locations, "locations"),
        "resources": _in_order(resources, "resources"),
        "tiles": [n.split(":build_")[1] for n in ACTION_NAMES if n.startswith("act:spare_room_ne:build_")],
    }

    def probe(kind: str, values: Sequence[str], slice_name: str, **fixed) -> list[str]:
        at = {}
        for value in values:
            o, _ = MaquisEnv(**{**fixed, kind: value}).reset(seed=0)
            at[_hot(o, slice_name)] = value
        return [at[i] for i in sorted(at)]

    from .tables import DIFFICULTIES, MISSION_POOLS  # the ids to probe (their order is the engine's)

    orders["difficulties"] = probe("difficulty", DIFFICULTIES, "difficulty")
    orders["pools"] = probe("mission_pool", MISSION_POOLS, "mission_pool")
    missions: dict[int, str] = {}
    for pool in MISSION_POOLS:  # every id appears in some game of the second edition's pool
        e = MaquisEnv(mission_pool=pool)
        for seed in range(400):
            o, _ = e.reset(seed=seed)
            for slot in e.state_dict()["missions"]:
                missions[_hot(o, f"{slot['slot']}_id")] = slot["id"]
    orders["missions"] = _in_order(missions, "missions")
    phases: dict[int, str] = {}
    e = MaquisEnv()
    o, info = e.reset(seed=1)
    for _ in range(5000):
        phases[_hot(o, "phase")] = e.state_dict()["phase"]
        if e.done:
            o, info = e.reset()
            continue
        o, *_ = e.step(e.sample_action())
        if e.done:
            phases[_hot(o, "phase")] = e.state_dict()["phase"]
    orders["phases"] = _in_order(phases, "phases")
    return orders


# ---------------------------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------------------------


def _doc_sections(cls: type) -> dict[str, str]:
    """The `## Title` sections of a class docstring, dedented."""
    doc = inspect.cleandoc(cls.__doc__ or "")
    sections: dict[str, str] = {}
    title = ""
    for line in doc.splitlines():
        m = re.fullmatch(r"## (.+)", line)
        if m:
            title = m.group(1).strip()
            sections[title] = ""
        else:
            sections[title] = sections.get(title, "") + line + "\n"
    return {k: v.strip("\n") for k, v in sections.items()}


def _block(name: str) -> str:
    """The block of an action name: its verb, with `place:…:fake_id` apart."""
    verb = name.split(":")[0]
    return "place … :fake_id" if verb == "place" and name.endswith(":fake_id") else verb


def _divisors(off: int, length: int) -> str:
    """The uint8 divisors of a slice: one value if all agree, else each in order."""
    from .observation import OBSERVATION_DIVISOR

    d = [int(x) for x in OBSERVATION_DIVISOR[off : off + length]]
    return str(d[0]) if len(set(d)) == 1 else ", ".join(map(str, d))


def render() -> str:
    """The text of docs/maquis.md."""
    from . import ACTION_NAMES, ENV_ID, NUM_ACTIONS, OBS_SIZE, OBSERVATION_LAYOUT, OUTCOMES
    from .env import MaquisEnv
    from .vector import MaquisVectorEnv

    require_descriptions("docs.SLICES", "observation slices", (n for n, _, _ in OBSERVATION_LAYOUT), SLICES)
    env_doc = _doc_sections(MaquisEnv)
    vec_doc = _doc_sections(MaquisVectorEnv)
    orders = _orders()
    page = Page()
    w = page.w

    w(f"# Maquis (`{ENV_ID}`)")
    w("")
    page.generated_note(
        "maquis docs", "docs/maquis.md", "maquis", "the docstrings of MaquisEnv and MaquisVectorEnv", "tests/test_docs.py"
    )
    w("")
    w("| | |")
    w("|---|---|")
    w(f"| id | `{ENV_ID}` (`gymnasium.make`, `gymnasium.make_vec`) |")
    w("| version | v0 (see [Version history](#version-history)) |")
    w("| classes | `maquis.MaquisEnv` (one game), `maquis.MaquisVectorEnv` (a batch stepped in Rust) |")
    w("| players | 1 (solitaire) |")
    w(f"| action space | `Discrete({NUM_ACTIONS})`, with a legal-action mask |")
    w(f"| observation space | `Box(0.0, 1.0, ({OBS_SIZE},), float32)` |")
    w(f"| outcomes | {', '.join(f'`{o}`' for o in OUTCOMES)} |")
    w("| rules | [docs/rules/maquis.md](rules/maquis.md) (rule ids B1, P3, F7, M-<mission> …) |")
    w("")
    w("## Description")
    w("")
    w(env_doc.get("", "").split("\n\n", 1)[0].replace("\n", " "))
    w("")
    w(env_doc["Description"])
    w("")

    page.section("Actions", env_doc["Action Space"])
    blocks = list(action_blocks(ACTION_NAMES, _block))
    rows = []
    for block, idx in blocks:
        verb = block.split(" ")[0]
        phase, meaning = BLOCKS[verb]
        if block != verb:
            meaning = "place the next worker on `<loc>` together with a Fake ID (F5)"
        elif verb == "place":
            meaning = "place the next worker on `<loc>`"
        rows.append((block, idx, phase, meaning))
    page.block_table(rows)
    w("The `act` block by location (options in the order of the names below):")
    w("")
    w("| location | indices | options |")
    w("|---|---:|---|")
    by_loc: dict[str, list[int]] = {}
    for i, name in enumerate(ACTION_NAMES):
        if name.startswith("act:"):
            by_loc.setdefault(name.split(":")[1], []).append(i)
    for loc, idx in by_loc.items():
        options = ", ".join(ACTION_NAMES[i].split(":")[2] for i in idx)
        w(f"| `{loc}` | {ranges(idx)} | {options} |")
    w("")
    page.every_name(
        ACTION_NAMES,
        blocks,
        intro="`maquis.ACTION_NAMES[i]`, `env.action_to_str(i)`; `env.action_from_str(name)` goes back.",
    )

    page.section("Observation", env_doc["Observation Space"])
    w(f"`maquis.OBSERVATION_LAYOUT` in order ({len(OBSERVATION_LAYOUT)} slices, {OBS_SIZE} values):")
    w("")
    fill = {key: ", ".join(orders[key]) for key in ("phases", "difficulties", "pools", "tiles", "missions")}

    def cells(name: str, off: int, length: int) -> tuple[str, str, str]:
        holds, enc = SLICES[name]
        return holds.format(max=length - 1, **fill), enc, _divisors(off, length)

    page.observation_table(OBSERVATION_LAYOUT, ("holds", "encoding", "uint8 divisor"), cells)
    w("Index orders:")
    w("")
    w(f"- per location (19): {', '.join(orders['locations'])}")
    w(f"- per resource (8): {', '.join(orders['resources'])}")
    w("- per road: the roads of docs/rules/maquis.md B3, in its order; per card: patrol cards 0-9")
    w("- counts are divided by their maximum (4 tokens of a resource, 5 workers or patrols, 10 cards),")
    w("  so that every value lies in [0, 1]")
    w("")
    w('With `observation_dtype="uint8"` every value is its count instead (flags 0/1, a quarter of')
    w("the bytes): the float32 value is the uint8 value divided by the slice's divisor")
    w("(`maquis.OBSERVATION_DIVISOR`, per value; `maquis.OBSERVATION_SCALE` is 1 / divisor). The")
    w("first value of each mission's state, the share of the card's boxes done, has no fixed divisor")
    w("(cards have 1 to 7 boxes): its uint8 value is the card's box count (divisor 0 above), and the")
    w("float32 value is the next value (boxes done) divided by it. `maquis.observation_float32(obs)`")
    w("converts uint8 rows bit for bit; the bundled agents and policy files take either type.")
    w("")

    for title in ("Rewards", "Episode End", "Information", "Arguments"):
        page.section(title, env_doc[title])
    page.section("Vector environment", vec_doc.get("", ""))
    page.section("Version history", env_doc["Version History"])
    return page.text()


# ---------------------------------------------------------------------------------------------
# maquis docs
# ---------------------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    return common_docs.run(args, render, "maquis docs")

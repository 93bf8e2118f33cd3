"""``docs/dday.md``, the reference page of the D-Day 1944 environments, generated from the package.

The action tables come from ``maquis.dday.ACTION_NAMES``, the observation table from
``maquis.dday.OBSERVATION_LAYOUT`` and the id orders from the module's constants; the prose is the
contract of docs/api/dday1944.md. ``tests/test_dday_docs.py`` regenerates the page and fails if the
file differs, so the page cannot drift from the package.

    python -m maquis dday docs --output docs/dday.md     # write it
    python -m maquis dday docs --check docs/dday.md      # exit 1 with a diff if out of date
"""

from __future__ import annotations

import argparse

from ..common import docs as common_docs
from ..common.docs import Page, action_blocks, add_arguments, require_descriptions

__all__ = ["BLOCKS", "SLICES", "add_arguments", "render", "run"]

# What each slice of OBSERVATION_LAYOUT holds and its scale (docs/api/dday1944.md "Observation"). A slice
# missing here makes `render` fail, so the page cannot leave one out.
SLICES: dict[str, tuple[str, str]] = {
    "self": ("the observing side: resistance, german", "one-hot"),
    "phase": ("the phase: {phases}", "one-hot"),
    "to_move": ("the side to decide; zeros at `game_over`", "one-hot"),
    "allocation": ("zone x kind ({zones} x {items}): items placed there; only zones whose contents the observer sees, else 0", "count / 3"),
    "allocation_known": ("1 for each zone whose contents the observer sees", "flag per zone"),
    "next_item": ("in `allocation`, German observer only: the kind of the next item (G2)", "one-hot"),
    "interrogation": ("7 rows in guess order x [zone one-hot (5), value, `too_high`, `too_low`, `correct`]; unused rows 0", "one-hot, value / 10, flags"),
    "guesses_left": ("guesses left (I1)", "count / 7"),
    "zone_open": ("in `interrogation`: 1 for each zone that may be guessed (I3)", "flag per zone"),
    "value_bounds": ("per zone (low, high): the tightest bounds within 1-10 from that zone's answers; exact for zones the observer sees", "value / 10"),
    "attacked": ("1 for each attacked zone (C1)", "flag per zone"),
    "play_order": ("first zone, then second zone (C3)", "2 one-hots"),
    "skirmish": ("the skirmish being played (first, second); zeros outside skirmishes", "one-hot"),
    "zone_items": ("the current skirmish's zone: items per kind", "count / 3"),
    "task_section": ("the task section 1-6, once rolled (S4)", "one-hot"),
    "clock": ("the game clock, max(clock, 0) (L1)", "/ 30"),
    "turn": ("the skirmish's turn player", "one-hot"),
    "figures": ("per section 1-6, 12 counts: Resistance standing, in_cover, casualty; squad standing, in_cover; gendarme_1, gendarme_2, gendarme_3 each standing, in_cover; German casualty", "count / 12"),
    "fresh": ("section x unit ({units}) x state: the turn player's fresh figures (T2); zeros outside its `actions` and `hit` phases", "count / 12"),
    "acting": ("the acting figure (T3): section one-hot (6), unit one-hot (5), state one-hot (2), moves, shots, cover change used; zeros when none", "one-hots, moves / 2, shots / 2, flag"),
    "pools": ("AP left in the pools resistance, squad, gendarme_1, gendarme_2, gendarme_3, shared (A1)", "AP / 12"),
    "task_sets": ("faces 1-6 held by the Resistance, then by the German (K1)", "flag per face"),
    "task_rolled": ("the turn player has rolled task this turn (K2)", "flag"),
    "holds_task_section": ("the Resistance holds its task section (K3)", "flag"),
    "pending": ("the roll awaiting `reroll`/`keep`: kind one-hot (8: group_size, action_points, clock, german_task, no_train, squad_present, resistance_task, train), up to 4 dice (for action_points the two squad dice), zone one-hot (2: first / second played, for VP lines)", "one-hots, die / 6"),
    "shot": ("in `hit`: shooter's section one-hot, target section one-hot (F3)", "2 one-hots"),
    "flee": ("in `morale` choices: section one-hot (6), runaways still to take (R3)", "one-hot, count / 12"),
    "losses": ("this skirmish: Resistance ran_away, evacuated; German ran_away, evacuated", "count / 12"),
    "records": ("per finished skirmish in play order x [Resistance completed, German completed, Resistance faces, German faces, Resistance killed + ran away, German killed] (E1)", "flags, faces / 6, count / 9, count / 12"),
    "vp": ("victory points scored so far: Resistance, German (V5)", "VP / 150"),
}

# verb -> (phase, meaning) of each action block (docs/api/dday1944.md "Actions").
BLOCKS: dict[str, tuple[str, str]] = {
    "allocate": ("allocation", "put the next item (G2) into `<zone>`; only the next item's five names can be legal (G3)"),
    "guess": ("interrogation", "guess that `<zone>` is worth `<value>` (I2)"),
    "stop_interrogation": ("interrogation", "stop guessing, forfeiting the guesses left (I4)"),
    "attack": ("attack", "attack zones `<a>` and `<b>` (C1), which are revealed (C2)"),
    "first": ("order", "play the skirmish at `<zone>` first (C3)"),
    "reroll": ("group_size, action_points, clock, scoring", "re-roll the pending roll (S1, A2, L1, V4)"),
    "keep": ("group_size, action_points, clock, scoring", "keep the pending roll"),
    "activate": ("actions", "make a fresh own figure of that unit, section and state the acting figure (T3)"),
    "move": ("actions", "the acting figure moves to the adjacent section `<to>` (M1)"),
    "shoot": ("actions", "the acting figure shoots at section `<to>` (F1, F2)"),
    "cover": ("actions", "the acting figure goes into cover or stands up (P1)"),
    "rescue": ("actions", "the acting figure tries to evacuate an own casualty in its section (H1)"),
    "task": ("actions", "roll `<n>` task dice (K2)"),
    "end_turn": ("actions", "end the turn (T4)"),
    "hit": ("hit", "the target's owner picks the class of the figure hit (F3)"),
    "flee": ("morale", "the class of the figure that runs away (R3)"),
}

DESCRIPTION = """\
*French Resistance D-Day 1944* as a two-player, zero-sum game with hidden information and chance.
On the night of 5 June 1944 the German commander secretly spreads four trains and his troops over
five rail zones (6,600 valid allocations). The Resistance interrogates him with higher/lower
guesses (7 in all), attacks two zones, which are revealed, and chooses the order. Each attack is a
dice skirmish on a six-section table: morale, action points, one figure at a time moving,
shooting along the line of fire, taking cover and rescuing casualties, and a race to roll the task
set 1-6 before the game clock runs out. Victory points, some of them dice with re-roll decisions,
decide the game. A step is one decision of one side; chance events, automatic steps and decisions
with a single legal action run inside it, except the allocation's: all 11 of its steps are the
German's (RULES Q0)."""

ENVIRONMENTS = """\
| | |
|---|---|
| PettingZoo AEC | `maquis.dday.env(**kw)` (wrapped as PettingZoo's classic games) / `maquis.dday.raw_env(**kw)`; `metadata["name"] = "dday1944_v0"`; agents `["resistance", "german"]` |
| Gymnasium | `maquis.dday.DDayEnv(side=, opponent=, …)`, registered as `gymnasium.make("maquis/DDay1944-v0")`: the learner plays one side, a bundled opponent the other |
| vector | `maquis.dday.DDayVectorEnv(num_envs=, num_threads=, …)`, also `gymnasium.make_vec("maquis/DDay1944-v0", num_envs=…)`: stepped in Rust, opponents inside, the GIL released |
| opponents | `random` < `heuristic` < `search` (RULES D1), `maquis.dday.agents` |
| action space | `Discrete({num_actions})`, the same for both sides and every phase, with a legal-action mask |
| observation | `Box(0.0, 1.0, ({obs_size},), float32)`: exactly what the observing side may see (RULES O1-O4) |
| rules | [docs/rules/dday1944.md](rules/dday1944.md) (rule ids G3, I2, F1, V4 …) |"""

REWARDS = """\
Rewards are 0 until the step that ends the game, which gives both sides (the learner, in
`DDayEnv`) the final reward: by default win 1, draw 0, loss -1. `reward=` takes a mapping
`{"win", "draw", "loss"}` -> float (missing keys keep the defaults) or `"vp_margin"`: (own VP -
opponent VP) / 150. Both defaults and `"vp_margin"` are zero-sum. The side with more victory
points wins; equal totals are a draw (RULES E3, V5)."""

EPISODE_END = """\
The game ends after the second skirmish and its scoring (`phase == "game_over"`). Every skirmish
ends when a task set is completed or the clock falls to 0 or below; each turn takes at least 1 off
the clock of 30, so a game's length is bounded and `truncated` is never `True` (RULES L2). At the
end `info` holds `"outcome"` (`"win"`, `"draw"` or `"loss"`, from that side's view) and `"vp"`
(`{"resistance": int, "german": int}`). An illegal action: `raw_env` and
`DDayEnv(illegal_action="raise")` raise `ValueError` naming the action and the phase and leave the
state unchanged; `env()` applies PettingZoo's convention (the offender -1, the other 0, game over);
`DDayEnv(illegal_action="terminate")` ends the episode with the loss reward and
`info["illegal_action"] = True`."""

OPTIONS = """\
`reset(seed=None, options=None)`; the options hold for that reset only. Bad ids and impossible
values are a `ValueError`; unknown keys are a `ValueError` in `DDayEnv` and the vector env and a
`UserWarning` in the AEC env (PettingZoo's `api_test` resets with `options={"options": 1}`).

| key | value | effect |
|---|---|---|
| `allocation` | `{zone: [item, …]}`, all five zones | the German allocation (RULES G1); the allocation phase is skipped |
| `attack` | `[zone, zone]` | needs `allocation`; the interrogation is skipped, these zones are attacked and revealed |
| `first` | an attacked zone | needs `attack`; play starts at the first skirmish's `group_size` decision |
| `dice` | list of ints 1-6 | the next dice drawn take these values, then the seeded stream continues |
| `side`, `opponent` | as the constructor | `DDayEnv` only |

Seeding: `reset(seed=s)` seeds the dice stream (ChaCha) and, derived from `s`, the streams of the
bundled opponent and of `sample_action`; the dice never depend on the opponent's draws (RULES N1,
D3). `state_dict()` shows the full state; `save_state()` / `load_state()` round-trip exactly,
`clone()` copies, and the environments pickle."""

RENDERING = """\
`render_mode="ansi"`: a text view (the zones and the interrogation, the skirmish table with
figures by unit and state, casualty markers, the task section, the train, clock, pools, task sets,
the pending roll, records and VP lines). `"rgb_array"`: the same as a 960 x 720 image.
`maquis.dday.render.side_view(state_dict, side)` keeps only one side's information (the
Resistance never sees the zones it did not attack); `python -m maquis dday play` shows a human
only his side's view, and `python -m maquis dday render SAVE --side resistance -o board.png` draws a
saved state as that side sees it."""

ACTIONS = """\
One flat `Discrete({num_actions})` for both sides and every phase. Every index has a name,
`maquis.dday.ACTION_NAMES[i]` (`action_to_str(i)`, `action_from_str(name)`, also env methods);
the mask says which are legal now (the observation's side never has the other side's units legal)."""

OBSERVATION = """\
`Box(0.0, 1.0, ({obs_size},), float32)` per side, every value in [0, 1], holding exactly
what the observing side may see: from it and the rules the public state can be rebuilt, and two
states differing only in what is hidden from the observer give the same vector. The Resistance
never sees the unrevealed zones nor the German's placing order; neither side sees the dice to come.
`maquis.dday.OBSERVATION_LAYOUT` in order ({slices} slices, {obs_size} values):"""

VERSIONS = """\
- v0 (`maquis/DDay1944-v0`, `dday1944_v0`): the rules of `docs/rules/dday1944.md` as first written;
  191 actions, 380 observation values."""


def render() -> str:
    """The text of docs/dday.md."""
    from . import ACTION_NAMES, ITEMS, NUM_ACTIONS, OBSERVATION_LAYOUT, OBSERVATION_SIZE, PHASES, STATES, UNITS, ZONES

    require_descriptions("dday.docs.SLICES", "observation slices", (n for n, _, _ in OBSERVATION_LAYOUT), SLICES)
    blocks = list(action_blocks(ACTION_NAMES))
    require_descriptions("dday.docs.BLOCKS", "action blocks", (verb for verb, _ in blocks), BLOCKS)
    page = Page()
    page.head(
        "French Resistance D-Day 1944 (`maquis.dday`)",
        ("maquis dday docs", "docs/dday.md", "maquis.dday", "the id constants of maquis.dday", "tests/test_dday_docs.py"),
        ENVIRONMENTS.format(num_actions=NUM_ACTIONS, obs_size=OBSERVATION_SIZE),
        DESCRIPTION,
        (("ZONES", ZONES), ("ITEMS", ITEMS), ("UNITS", UNITS), ("STATES", STATES), ("PHASES", PHASES)),
    )
    page.section("Actions", ACTIONS.format(num_actions=NUM_ACTIONS))
    page.block_table(
        (ACTION_NAMES[idx[0]] if len(idx) == 1 else _pattern(verb, ACTION_NAMES[idx[0]]), idx, *BLOCKS[verb])
        for verb, idx in blocks
    )
    page.every_name(ACTION_NAMES, blocks)
    page.section("Observation", OBSERVATION.format(obs_size=OBSERVATION_SIZE, slices=len(OBSERVATION_LAYOUT)))
    fill = {
        "phases": ", ".join(PHASES),
        "zones": ", ".join(ZONES),
        "items": ", ".join(ITEMS),
        "units": ", ".join(UNITS),
    }
    page.slice_table(OBSERVATION_LAYOUT, SLICES, fill)
    page.closing(REWARDS, EPISODE_END, OPTIONS, RENDERING, VERSIONS)
    return page.text()


def _pattern(verb: str, first: str) -> str:
    """The name pattern of a block, from its verb and arity (`guess:<zone>:<value>`)."""
    fields = {
        "allocate": "allocate:<item>:<zone>",
        "guess": "guess:<zone>:<value>",
        "attack": "attack:<a>:<b>",
        "first": "first:<zone>",
        "activate": "activate:<unit>:<section>:<state>",
        "move": "move:<to>",
        "shoot": "shoot:<to>",
        "task": "task:<n>",
        "hit": "hit:<unit>:<state>",
        "flee": "flee:<unit>:<state>",
    }
    return fields.get(verb, first)


def run(args: argparse.Namespace) -> int:
    return common_docs.run(args, render, "maquis dday docs")

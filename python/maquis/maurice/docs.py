"""``docs/maurice.md``, the reference page of the Maurice Lite environments, generated from the
package.

The action tables come from ``maquis.maurice.ACTION_NAMES``, the observation table from
``maquis.maurice.OBSERVATION_LAYOUT``, the card table from ``maquis.maurice.CARDS`` and the id
orders from the module's constants; the prose is the contract of docs/api/maurice.md.
``tests/test_docs.py`` regenerates the page and fails if the file differs.

    python -m maquis maurice docs --output docs/maurice.md     # write it
    python -m maquis maurice docs --check docs/maurice.md      # exit 1 with a diff if out of date
"""

from __future__ import annotations

import argparse

from ..common import docs as common_docs
from ..common.docs import Page, action_blocks, add_arguments, require_descriptions

__all__ = ["BLOCKS", "SLICES", "add_arguments", "block_of", "render", "run"]

# What each slice of OBSERVATION_LAYOUT holds and its scale (docs/api/maurice.md "Observation").
# A slice missing here makes `render` fail, so the page cannot leave one out.
SLICES: dict[str, tuple[str, str]] = {
    "self": ("the observing side (absolute: blue, red)", "one-hot"),
    "phase": ("the phase: {phases}", "one-hot"),
    "to_move": ("the side to decide (absolute); zeros at `game_over`", "one-hot"),
    "active": ("this round's active side (absolute)", "one-hot"),
    "round": ("min(round, 255)", "/ 255"),
    "morale": ("army morale left, own then enemy, then their starting values", "/ 8"),
    "hand": ("own hand: copies per playable card type (K1 order)", "count / 2"),
    "hand_new": ("of those, copies drawn this round (not playable as modifiers, R5)", "count / 2"),
    "hand_sizes": ("cards in hand, own then enemy", "count / 40"),
    "deck_size": ("cards in the deck", "count / 40"),
    "discard": ("the discard pile: copies per playable type", "count / 2"),
    "removed": ("`reshuffle` cards removed from the game", "count / 2"),
    "command": ("this round's command (`pass`, `event`, `march`, `charge`, `bombard`, `rally`); zeros before it is chosen", "one-hot"),
    "activation": ("span played this round; activation distance min(d, 64) (0 until `confirm_force`); `unexpected_delay` played; activation succeeded", "/ 40, / 64, flags"),
    "interrupt": ("the interrupt played this round: `unexpected_delay`, `first_fire`, `rough_going`", "one-hot"),
    "modifiers": ("4 x 29: the card type played as own volley, enemy volley, own action, enemy action modifier", "one-hots"),
    "volley": ("volley called this round; own side firing now; enemy firing now", "flags"),
    "night": ("the previous round's command was a night pass (R8)", "flag"),
    "cinc": ("CinC cells: own x, y, enemy x, y", "x / 44, y / 29"),
    "displaced": ("CinC displaced this round, own then enemy", "flags"),
    "owed": ("own cards still to discard for the hand limit; own penalty discard pending", "/ 10, flag"),
    "aim": ("in `aim`: the base's index (one-hot of 4); left lane's target x, y; right lane's target x, y", "one-hot, x / 44, y / 29"),
    "moving": ("the unit taking its move: spent, allowance, retrograde, has been near the enemy, passed difficult terrain, about-faced, changed formation, move over, units interpenetrated, start x, start y, non-charging unit of a charge", "/ 20, flags, / 4, x / 44, y / 29"),
    "units": ("32 rows x 25 `UNIT_FEATURES`: own units by id 0-15, then the enemy's; zeros for an id not in play or broken", "one-hots, flags, x / 44, y / 29, DISR / 4, distance / 64"),
    "planes": ("15 `PLANES` x 30 rows x 45 columns, 0/1 per cell (`obs[1084:].reshape(15, 30, 45)`, row y = 0 first); not in the compact observation", "flags"),
}

# block -> (phase, meaning) of each action block (docs/api/maurice.md "Actions").
BLOCKS: dict[str, tuple[str, str]] = {
    "volley_choice": ("volley_choice", "call a volley phase or not (R3)"),
    "command": ("command", "the round's command (R4); an event is `card:<type>`"),
    "confirm_force": ("force", "the named units are the force (A6)"),
    "give_up": ("span", "give up a delayed activation (A8)"),
    "decline": ("volley_interrupt, volley_modifier, activation_interrupt, action_modifier, cinc_move", "play no card (K6, K7); leave the CinC where it is (H2)"),
    "end_fire": ("fire", "no more units fire (F6)"),
    "unit_done": ("unit_move", "the unit's move ends here (M9)"),
    "unit_cancel": ("unit_move", "the unit goes back to where it started (M10)"),
    "end_moves": ("move", "no more units move (M2, C6)"),
    "end_charges": ("charge", "no more units charge (C5)"),
    "aim": ("aim", "the firing base's lane (F5)"),
    "charge_lead": ("charge_lead", "the charge's lead-in (C3)"),
    "move": ("unit_move", "one step of the moving unit (M3, M12)"),
    "form": ("unit_move", "a formation change of the moving unit (M11)"),
    "unit": ("force, fire, move, charge, king_target", "name one of the decider's units (A6, F6, M2, C5, K8)"),
    "card": ("command, span, card windows, cinc_pay, penalty_discard, hand_limit", "play or discard one copy of that card type, as the phase says (R4, A7, K6-K8, H2, H4, R9)"),
    "cell": ("cinc_move, displace", "the cell the CinC goes to (H2, H3); index 97 + 45 y + x"),
}

PATTERNS = {
    "volley_choice": "volley, no_volley",
    "command": "pass, march, charge, bombard, rally",
    "aim": "aim:<lane>",
    "charge_lead": "charge:<lead-in>",
    "move": "move:<step>",
    "form": "form:<change>",
    "unit": "unit:<id>",
    "card": "card:<type>",
    "cell": "cell:<x>:<y>",
}


def block_of(name: str) -> str:
    """The block of an action name (the API's table): the commands and the volley choice are one
    block each; `charge:<lead-in>` is not the command `charge`."""
    if name in ("volley", "no_volley"):
        return "volley_choice"
    if name in ("pass", "march", "charge", "bombard", "rally"):
        return "command"
    verb = name.split(":")[0]
    if ":" in name:
        return "charge_lead" if verb == "charge" else verb
    return name


DESCRIPTION = """\
*Maurice Lite* (Sam A. Mustafa, 2011), the free introduction to his horse-and-musket miniatures
rules, as a two-player, zero-sum game with hidden hands and dice. Two armies of infantry, cavalry
and artillery face each other on a 45 x 30 grid of base-width cells with woods, rough ground,
marshes, lakes, hills and walls. Each round the active side may call a volley phase, then passes
or, paying the command distance in card span, activates one force to march, charge, bombard or
rally; cards also modify fire, movement and combat or interrupt the enemy. A side whose army morale
runs out loses; two night passes with an empty deck end the game in a draw. A step is one decision
of one side; chance, automatic steps and single-option decisions run inside it (RULES Q0, with its
hidden-hand exception). The card deck is the library's own stand-in (RULES K1), not the publisher's
card text."""

ENVIRONMENTS = """\
| | |
|---|---|
| PettingZoo AEC | `maquis.maurice.env(**kw)` (wrapped as PettingZoo's classic games) / `maquis.maurice.raw_env(**kw)`; `metadata["name"] = "maurice_lite_v0"`; agents `["blue", "red"]` |
| Gymnasium | `maquis.maurice.MauriceEnv(side=, opponent=, …)`, registered as `gymnasium.make("maquis/MauriceLite-v0")`: the learner plays one side, a bundled opponent the other |
| vector | `maquis.maurice.MauriceVectorEnv(num_envs=, num_threads=, …)`, also `gymnasium.make_vec("maquis/MauriceLite-v0", num_envs=…)`: stepped in Rust, opponents inside, the GIL released |
| opponents | `random` < `heuristic` < `search` (RULES D1), and the trained `network` and `network_search` ([maurice_training.md](maurice_training.md)), `maquis.maurice.agents` |
| action space | `Discrete({num_actions})`, the same for both sides and every phase, with a legal-action mask |
| observation | `Box(0.0, 1.0, ({obs_size},), float32)` (`observation="compact"`: {compact_size}, no map planes): exactly what the observing side may see (RULES O1-O3) |
| rules | [docs/rules/maurice.md](rules/maurice.md) (rule ids G4, A7, F6, C11 …) |"""

ACTIONS = """\
One flat `Discrete({num_actions})` for both sides and every phase. Every index has a name,
`maquis.maurice.ACTION_NAMES[i]` (`action_to_str(i)`, `action_from_str(name)`, also env methods);
the mask says which are legal now (RULES Q2). The meaning of `unit:<id>` and `card:<type>` is fixed
by the phase; `unit:<id>` always names a unit of the deciding side."""

OBSERVATION = """\
`Box(0.0, 1.0, ({obs_size},), float32)` per side, every value in [0, 1], holding exactly what the
observing side may see: two states that differ only in the enemy's hand (its size is public), the
deck's order or the RNG states give the same vector. Side slices marked absolute list (blue, red);
the others the observer's side first. With `observation="compact"` the vector stops before
`planes` ({compact_size} values, `COMPACT_OBSERVATION_LAYOUT`): it suits fixed terrain only.
With `observation_dtype="uint8"` every entry is its numerator in one byte
(`OBSERVATION_DIVISOR`, `observation_float32(obs)`).
`maquis.maurice.OBSERVATION_LAYOUT` in order ({slices} slices, {obs_size} values):"""

REWARDS = """\
Rewards are 0 until the step that ends the game, which gives both sides (the learner, in
`MauriceEnv`) the final reward: by default win 1, draw 0, loss -1. `reward=` takes a mapping
`{"win", "draw", "loss"}` -> float (missing keys keep the defaults) or `"morale_margin"`: own morale
left / own starting morale minus the same for the enemy, in [-1, 1]. Both are zero-sum.

`MauriceEnv` and `MauriceVectorEnv` also take `shaping` (off by default): potential-based shaping
computed in the Rust step, `gamma * phi(s') - phi(s)` added to each of the learner's rewards
(`info["shaping"]` alone in the single env), with `phi = 0` once the game is over, so that for a
learner discounting by the same `gamma` the best policy is unchanged. `phi` weighs three terms
from the learner's side (`maquis.maurice.shaping.POTENTIAL_TERMS`): `advance` (0.5), 1 minus the
ground its army has still to cover to come within the heuristic's halt of the enemy, 0..1;
`morale` (1.0), the morale margin above at this moment; `wear` (0.5), the enemy's wear minus its
own, an army's wear being its units' DISR over the DISR that breaks each (a broken unit 1), averaged. `shaping=True` takes these weights with gamma 0.99;
`{"gamma": 0.997, "weights": {"advance": 1.0}}` gives others. It needs a bundled opponent (an
object opponent is a `ValueError`). [training.md](training.md#shaping-potential-based-reward-shaping)
says how the terms telescope."""

EPISODE_END = """\
The game ends the moment a side's army morale reaches 0 (that side loses, RULES E1) or at nightfall
(two consecutive night passes, a draw, E2); a game's length is bounded (E4), so `truncated` is never
`True`. At the end `info` holds `"outcome"` (`"win"`, `"draw"` or `"loss"`, from that side's view)
and `"morale"` (`{"blue": int, "red": int}`). An illegal action: `raw_env` and
`MauriceEnv(illegal_action="raise")` raise `ValueError` naming the action and the phase and leave
the state unchanged; `env()` applies PettingZoo's convention (the offender -1, the other 0, game
over); `MauriceEnv(illegal_action="terminate")` ends the episode with the loss reward and
`info["illegal_action"] = True`."""

OPTIONS = """\
`reset(seed=None, options=None)`; the options hold for that reset only. Bad ids, impossible positions
and inconsistent card lists are a `ValueError`; unknown keys are a `ValueError` in `MauriceEnv` and
the vector env and a `UserWarning` in the AEC env.

| key | value | effect |
|---|---|---|
| `scenario` | `"standard"`, `"skirmish"` | the scenario (S2-S4) |
| `terrain` | `"scenario"`, `"random"` or a map `{"rows", "hills", "walls"}` | the terrain (S5 for random) |
| `units` | `{side: [{"id", "type", "formation", "x", "y", "facing", "disr", "smoke"}, …]}` | both armies instead of the scenario's |
| `cinc` | `{side: [x, y]}` | the CinCs' cells |
| `morale` | `{side: int}` | army morale left |
| `first` | a side | the first active side; the roll-off is skipped |
| `hands`, `deck`, `discard`, `removed` | lists of card ids, given together | the cards instead of the deal (exactly the 40 cards of K1) |
| `shuffles` | lists of card ids | the results of the next shuffles (K3, N3) |
| `dice` | list of ints 1-6 | the next dice drawn take these values, then the seeded stream continues |
| `side`, `opponent` | as the constructor | `MauriceEnv` only |

Seeding: `reset(seed=s)` seeds the dice, cards and terrain streams (ChaCha) and, derived from `s`,
the streams of the bundled opponent and of `sample_action`; the dice and shuffles never depend on
the opponent's draws (RULES N1, D3). `state_dict()` shows the full state; `save_state()` /
`load_state()` round-trip exactly, `clone()` copies, and the environments pickle."""

RENDERING = """\
`render_mode="ansi"`: a text view — the map in the characters of RULES S3 (units by type letter,
capitals blue, small red; `=` a wall between two rows), a line per unit, the CinCs, army morale, the
hands, deck and discard counts, the round state and the last dice. `"rgb_array"`: a 960 x 720 image
of the same (terrain colours, hills, walls, bases with their front edge, DISR pips, smoke, the
CinCs, a panel of morale and cards). `"human"` (the AEC and single envs) prints the `"ansi"` text
and returns None, as PettingZoo's `render_test` expects. All show the full state;
`maquis.maurice.render.side_view(state_dict, side)` (or `side=` of `render_ansi`, `render_rgb`,
`scene`) keeps only one side's information. `python -m maquis maurice play` shows a human only his
side's view, and `python -m maquis maurice render SAVE --side blue -o board.png` draws a saved state
as that side sees it.

The terminal game (`python -m maquis maurice play`) shows each decision on one 80 x 24 screen. Its
map keeps both armies in view: every row holding a unit or a CinC when they fit beside the menu
(with the rows between them when those fit too); otherwise the rows of the decision (the moving
unit, the lanes being aimed, the force) and then each army's rows from its front line back, taken
in turn, with the empty rows left out. A row number followed by `:` has rows left out above it;
`board` shows every row. The panel beside the map shows the moving unit's allowance (`unit 3
moving`, `spent 2 of 4 BW, 2 left`, and how the march cards changed it, `march cards 6 -> 4`), and
each modifier card played this round with what it changed (`red: march_4, blue's allowance -2 BW
(unit 3: 6 -> 4)`, `blue: volley_8, blue's fire +1 to hit`); the news line of a modifier card says
it in full (`red: card:march_4 (-2 BW to the allowance of each unit of blue's force)`). `help` lists every card with its span, copies and
what it does."""

VERSIONS = """\
- v0 (`maquis/MauriceLite-v0`, `maurice_lite_v0`): the rules of `docs/rules/maurice.md` as first
  written; {num_actions} actions, {obs_size} observation values ({compact_size} compact)."""


def render() -> str:
    """The text of docs/maurice.md."""
    from . import (
        ACTION_NAMES, CARDS, COMMANDS, COMPACT_OBSERVATION_SIZE, FACINGS, FORMATIONS, NUM_ACTIONS,
        OBSERVATION_LAYOUT, OBSERVATION_SIZE, PHASES, PLANES, SCENARIOS, SIDES, TERRAINS, UNIT_FEATURES,
        UNIT_TYPES,
    )

    require_descriptions("maurice.docs.SLICES", "observation slices", (n for n, _, _ in OBSERVATION_LAYOUT), SLICES)
    blocks = list(action_blocks(ACTION_NAMES, block_of))
    require_descriptions("maurice.docs.BLOCKS", "action blocks", (b for b, _ in blocks), BLOCKS)
    sizes = {"num_actions": NUM_ACTIONS, "obs_size": OBSERVATION_SIZE, "compact_size": COMPACT_OBSERVATION_SIZE}
    page = Page()
    w = page.w
    page.head(
        "Maurice Lite (`maquis.maurice`)",
        ("maquis maurice docs", "docs/maurice.md", "maquis.maurice", "maquis.maurice.CARDS with the id constants",
         "tests/test_docs.py"),
        ENVIRONMENTS.format(**sizes),
        DESCRIPTION,
        (("SIDES", SIDES), ("UNIT_TYPES", UNIT_TYPES), ("FORMATIONS", FORMATIONS), ("FACINGS", FACINGS),
         ("TERRAINS", TERRAINS), ("COMMANDS", COMMANDS), ("SCENARIOS", SCENARIOS), ("PHASES", PHASES),
         ("PLANES", PLANES), ("UNIT_FEATURES", UNIT_FEATURES)),
    )
    w("## Cards")
    w("")
    w("`maquis.maurice.CARDS`: the library's stand-in deck of RULES K1 (not the publisher's card text), 40 cards.")
    w("")
    w("| index | id | name | span | symbol | mark | copies | effect |")
    w("|---:|---|---|---:|---|---|---:|---|")
    for c in CARDS:
        cells = [str(c["index"]), f"`{c['id']}`", c["name"], "-" if c["span"] is None else str(c["span"]),
                 c["symbol"] or "-", c["mark"] or "-", str(c["copies"]), c["effect"]]
        w("| " + " | ".join(cells) + " |")
    w("")
    page.section("Actions", ACTIONS.format(**sizes))
    page.block_table(
        (PATTERNS.get(block, ACTION_NAMES[idx[0]]) if len(idx) > 1 else ACTION_NAMES[idx[0]], idx, *BLOCKS[block])
        for block, idx in blocks
    )
    page.every_name(ACTION_NAMES, blocks)
    page.section("Observation", OBSERVATION.format(**sizes, slices=len(OBSERVATION_LAYOUT)))
    page.slice_table(OBSERVATION_LAYOUT, SLICES, {"phases": ", ".join(PHASES)})
    page.closing(REWARDS, EPISODE_END, OPTIONS, RENDERING, VERSIONS.format(**sizes))
    return page.text()


def run(args: argparse.Namespace) -> int:
    return common_docs.run(args, render, "maquis maurice docs")

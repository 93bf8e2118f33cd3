"""``docs/kuhn.md``, the reference page of the Kuhn poker environments, generated from the package
(the shared skeleton of ``maquis.common.docs``): the action table from ``maquis.kuhn.ACTION_NAMES``,
the observation table from ``maquis.kuhn.OBSERVATION_LAYOUT``, the information sets and the
equilibrium from the engine. ``tests/test_kuhn.py`` fails when the file and the package differ.

    python -m maquis kuhn docs --output docs/kuhn.md     # write it
    python -m maquis kuhn docs --check docs/kuhn.md      # exit 1 with a diff if out of date
"""

from __future__ import annotations

import argparse

from ..common import docs as common_docs
from ..common.docs import Page, action_blocks, add_arguments, require_descriptions

__all__ = ["BLOCKS", "SLICES", "add_arguments", "render", "run"]

# What each slice of OBSERVATION_LAYOUT holds and its scale (RULES O1). A slice missing here makes
# `render` fail, so the page cannot leave one out.
SLICES: dict[str, tuple[str, str]] = {
    "self": ("the observing side: {sides}", "one-hot"),
    "card": ("the observer's own card: {cards} (never the other's, O1)", "one-hot"),
    "to_move": ("the side to decide; zeros once the hand is over", "one-hot"),
    "history": ("3 move slots in order x [pass, bet]; unused slots 0", "one-hot per slot"),
}

# action -> (phase, meaning) (RULES B1).
BLOCKS: dict[str, tuple[str, str]] = {
    "pass": ("betting", "check; or fold after a bet (B1, B3, B4)"),
    "bet": ("betting", "bet 1 chip; or call after a bet (B1, B3, B4)"),
}

ENVIRONMENTS = """\
| | |
|---|---|
| PettingZoo AEC | `maquis.kuhn.env(**kw)` (wrapped as PettingZoo's classic games) / `maquis.kuhn.raw_env(**kw)`; `metadata["name"] = "kuhn_poker_v0"`; agents `["first", "second"]` |
| Gymnasium | `maquis.kuhn.KuhnEnv(side=, opponent=, …)`, registered as `gymnasium.make("maquis/KuhnPoker-v0")`: the learner plays one seat, a bundled opponent the other |
| vector | `maquis.kuhn.KuhnVectorEnv(num_envs=, num_threads=, …)`, also `gymnasium.make_vec("maquis/KuhnPoker-v0", num_envs=…)`: stepped in Rust, opponents inside, the GIL released |
| opponents | `random` < `heuristic` (Kuhn's equilibrium, RULES A1), `maquis.kuhn.agents` |
| exact analysis | `maquis.kuhn.best_response`, `expected_payoff`, `equilibrium`; `maquis kuhn exploit` |
| action space | `Discrete({num_actions})`: `pass`, `bet`, both legal at every decision |
| observation | `Box(0.0, 1.0, ({obs_size},), float32)`: the side's seat, its card, who moves, the moves (RULES O1) |
| rules | [docs/rules/kuhn.md](rules/kuhn.md) (rule ids K1, B3, P2 …) |"""

DESCRIPTION = """\
*Kuhn poker* (H. W. Kuhn, 1950): three cards J < Q < K, one dealt face down to each side, the
third unseen; each side antes 1 chip; `first` passes or bets 1, and one round of betting follows;
a showdown or a fold decides, for ±1 or ±2 chips. A game is one hand of 2 or 3 decisions. It is
the smallest game with hidden information and chance that is worth playing, and maquis keeps it
as the worked example of adding a game (docs/adding_a_game.md) and ships it: it runs every
shared path (single, AEC and vector envs, agents, CLI verbs, the web app, the ladder) in
microseconds, and its exact best response (`maquis kuhn exploit`) is an exploitability check
users can run their own training code against — the equilibrium's value for `first` is −1/18."""

ACTIONS = """\
`Discrete({num_actions})` for both sides; the indices are OpenSpiel's (`kuhn_poker`). Both actions
are legal at every decision; none once the hand is over."""

OBSERVATION = """\
`Box(0.0, 1.0, ({obs_size},), float32)` per side, all flags, the same with
`observation_dtype="uint8"`. It never holds the other side's card, not even after a showdown
(RULES O1): the 12 information sets (`maquis.kuhn.INFOSETS`: card x moves so far) are exactly the
distinct observations of a side to move. `maquis.kuhn.OBSERVATION_LAYOUT` in order ({slices} slices):"""

ANALYSIS = """\
A behaviour strategy is the probability of `bet` at each of the 12 information sets
({infosets}), as a dict by name or 12 numbers in that order.

- `maquis.kuhn.expected_payoff(a, b)`: `first`'s exact expected chips when `first` plays `a` and
  `second` plays `b` (the mean over the 6 deals).
- `maquis.kuhn.best_response(strategy, side=None)`: `(value, best response)`; the value is the
  best response's expected chips in seat `side`, or with `side=None` the mean of the two seats:
  the strategy's exploitability (OpenSpiel's NashConv / 2), 0 exactly at an equilibrium.
- `maquis.kuhn.equilibrium(alpha=1/3)`: Kuhn's equilibrium for alpha in [0, 1/3] (RULES V1); the
  `heuristic` level plays alpha = 1/3:

{equilibrium}

`maquis kuhn exploit --level heuristic --side first` prints −0.0556 (−1/18, the game's value)
and exploitability 0; `--level random` gives exploitability 11/24. `--policy FILE|module:attr`
reads a policy at every information set (its `act(obs, mask)`; a stochastic saved policy's own
probabilities) and `--strategy FILE.json` takes the 12 probabilities; `--json` prints the result
as JSON (`against`, `strategy`, `best_response`, `value` per seat, `exploitability`).

`maquis kuhn ladder` (10,000 deals by default, in seconds) rates hands won, as the other games'
ladders rate games won: a hand's size in chips does not count, so `random` and the equilibrium
`heuristic` rate about the same (the equilibrium wins as many hands as it loses against `random`,
and 1/6 of a chip a hand from it, the mean of the two seats' `expected_payoff`). For chips, use
the exact tools above."""

REWARDS = """\
Rewards are 0 until the hand ends. By default (`reward=None`) the final reward is the learner's
payoff in chips divided by 2 (±0.5 or ±1, RULES P2), so that what is learned is the game's own
payoff; `reward={{"win": w, "loss": l}}` pays by outcome instead. The AEC env pays win 1 / loss −1
by default and the payoff / 2 with `reward="payoff"`. Zero-sum; there is no draw."""

EPISODE_END = """\
The hand ends after two passes, a call or a fold (2 or 3 decisions); `truncated` is never `True`.
At the end `info` holds `"outcome"` (`"win"` or `"loss"`, from that side's view) and `"payoff"`
(`{"first": int, "second": int}`, chips). An illegal action: `raw_env` and
`KuhnEnv(illegal_action="raise")` raise `maquis.IllegalActionError`; `KuhnEnv(illegal_action=
"terminate")` ends the episode with −1 and `info["illegal_action"] = True`."""

OPTIONS = """\
`reset(seed=None, options=None)`; options for that reset only: `cards` (`[first's, second's]`, two
different cards of `CARDS`: the deal, RULES N2), and in `KuhnEnv` `side` and `opponent`. Unknown
keys are a `ValueError` in `KuhnEnv` and the vector env and a `UserWarning` in the AEC env.
Seeding (RULES N1): a game seed picks one of the six deals; the opponent's stream is its own.
`state_dict()` shows the whole hand; `save_state()` / `load_state()` round-trip exactly, `clone()`
copies, and the environments pickle."""

RENDERING = """\
`render_mode="ansi"`: a text view (each card, the pot, the moves, who is to move or who won);
`"rgb_array"`: a 480 x 300 picture of the table, the cards face up or face down as the side shown
may see them, the pot's chips and the moves. `maquis.kuhn.render.side_view(state_dict, side)`
hides the other card; `maquis kuhn render SAVE --side first` draws a save as that side sees it."""

VERSIONS = """\
- v0 (`maquis/KuhnPoker-v0`, `kuhn_poker_v0`): the rules of `docs/rules/kuhn.md` as first written;
  2 actions, 13 observation values."""


def render() -> str:
    """The text of docs/kuhn.md."""
    from . import ACTION_NAMES, CARDS, INFOSETS, NUM_ACTIONS, OBSERVATION_LAYOUT, OBSERVATION_SIZE, PHASES, SIDES, equilibrium

    require_descriptions("kuhn.docs.SLICES", "observation slices", (n for n, _, _ in OBSERVATION_LAYOUT), SLICES)
    blocks = list(action_blocks(ACTION_NAMES))
    require_descriptions("kuhn.docs.BLOCKS", "action blocks", (b for b, _ in blocks), BLOCKS)
    page = Page()
    page.head(
        "Kuhn poker (`maquis.kuhn`)",
        ("maquis kuhn docs", "docs/kuhn.md", "maquis.kuhn", "the id constants and the analysis of maquis.kuhn",
         "tests/test_kuhn.py"),
        ENVIRONMENTS.format(num_actions=NUM_ACTIONS, obs_size=OBSERVATION_SIZE),
        DESCRIPTION,
        (("CARDS", CARDS), ("SIDES", SIDES), ("PHASES", PHASES), ("INFOSETS", INFOSETS)),
    )
    page.section("Actions", ACTIONS.format(num_actions=NUM_ACTIONS))
    page.block_table((ACTION_NAMES[idx[0]], idx, *BLOCKS[b]) for b, idx in blocks)
    page.every_name(ACTION_NAMES, blocks)
    page.section("Observation", OBSERVATION.format(obs_size=OBSERVATION_SIZE, slices=len(OBSERVATION_LAYOUT)))
    page.slice_table(OBSERVATION_LAYOUT, SLICES, {"sides": ", ".join(SIDES), "cards": ", ".join(CARDS)})
    eq = equilibrium()
    table = "\n".join(["| information set | " + " | ".join(f"`{i}`" for i in INFOSETS) + " |",
                       "|---|" + "---:|" * len(INFOSETS),
                       "| P(bet) | " + " | ".join(f"{eq[i]:.3g}" for i in INFOSETS) + " |"])
    page.section("Exact analysis", ANALYSIS.format(infosets=", ".join(f"`{i}`" for i in INFOSETS), equilibrium=table))
    page.closing(REWARDS.format(), EPISODE_END, OPTIONS, RENDERING, VERSIONS)
    return page.text()


def run(args: argparse.Namespace) -> int:
    return common_docs.run(args, render, "maquis kuhn docs")

"""Kuhn poker golden playthroughs: whole hands between bundled agents through the AEC env, traced
in the format of ``maquis.common.playthrough`` (kept with every game's in tests/playthroughs/)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping
from typing import Any

from ..common.playthrough import Decision, Playthroughs, Scenario, two_player_decisions, two_player_trace
from .agents import make_agent
from .render import history_words, status_line

SIDES = ("first", "second")


def status(sd: Mapping[str, Any]) -> list[str]:
    """What the state shows before a decision: the cards (the trace sees both), the moves."""
    cards = sd["cards"]
    return [f"cards first {cards['first']} second {cards['second']} | {status_line(sd)}",
            f"moves: {history_words(sd)}"]


def events(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """What one decision changed: chips into the pot, and how the hand ended."""
    out = []
    if after["pot"] != before["pot"]:
        out.append(f"pot {before['pot']} -> {after['pot']}")
    if after.get("winner") and not before.get("winner"):
        payoff = after["payoff"]
        out.append(f"{after['winner']} takes the pot: first {payoff['first']:+d}, second {payoff['second']:+d}")
    return out


def decisions(scenario: Scenario, result: dict[str, Any]) -> Iterator[Decision]:
    from . import ACTION_NAMES, raw_env

    return two_player_decisions(scenario, result, raw_env(), make_agent, SIDES, 1, ACTION_NAMES, status, events)


def ending(final: Mapping[str, Any], steps: int) -> list[str]:
    payoff = final["payoff"]
    return [*status(final), f"outcome: {final['outcome']} after {steps} decisions, "
            f"payoff first {payoff['first']:+d} second {payoff['second']:+d}"]


def trace(scenario: Scenario) -> str:
    """The text of a Kuhn playthrough."""
    return two_player_trace(scenario, "kuhn_poker_v0 (maquis.kuhn.raw_env)", SIDES, decisions, ending)


def _kuhn(name: str, seed: int, first: str, second: str, notes: str = "", options=None) -> Scenario:
    return Scenario(name, {"first": first, "second": second}, seed, first, seed, options, "kuhn", notes)


SCENARIOS = (
    _kuhn("kuhn_heuristic_vs_heuristic", 1, "heuristic", "heuristic"),
    _kuhn("kuhn_random_vs_heuristic", 2, "random", "heuristic"),
    _kuhn("kuhn_heuristic_vs_random_cards", 3, "heuristic", "random", options={"cards": ["K", "Q"]},
          notes="reset options: first holds K, second Q"),
)

PLAYTHROUGHS = Playthroughs(SCENARIOS, {"kuhn": trace}, "maquis kuhn playthrough")


def add_arguments(p: argparse.ArgumentParser) -> None:
    Playthroughs.add_arguments(p)


def run(args: argparse.Namespace) -> int:
    return PLAYTHROUGHS.run(args)

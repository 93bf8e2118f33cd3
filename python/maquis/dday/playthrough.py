"""D-Day 1944 golden playthroughs: whole games between bundled agents through the AEC env, traced
in the format of ``maquis.common.playthrough`` (``maquis.maquis.playthrough`` keeps them with Maquis's).

Each decision shows the state (phase, who decides, the skirmish), the legal action names, the
action, and what happened: the dice rolled (RULES N2 events) and the changes they made.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping
from typing import Any

from ..common.playthrough import Decision, Playthroughs, Scenario, two_player_decisions, two_player_trace
from .opponents import make_agent
from .render.view import ZONE_NAMES, faces


def status(sd: Mapping[str, Any]) -> list[str]:
    """What the state shows before a decision, in a few lines."""
    vp = sd["vp"]
    lines = [f"phase {sd['phase']} | {sd['to_move'] or 'nobody'} decides | VP {vp['resistance']}-{vp['german']}"]
    sk = sd.get("skirmish")
    if sk:
        figs = sk["figures"]
        by_section = []
        for n in range(1, 7):
            here = [f for f in figs if f["section"] == n]
            words = []
            for side, tag in (("resistance", "R"), ("german", "G")):
                st = sum(1 for f in here if f["side"] == side and f["state"] == "standing")
                cv = sum(1 for f in here if f["side"] == side and f["state"] == "in_cover")
                ca = sum(1 for f in here if f["side"] == side and f["state"] == "casualty")
                words += [f"{st}{tag}"] * bool(st) + [f"{cv}{tag}c"] * bool(cv) + [f"{ca}{tag}x"] * bool(ca)
            by_section.append(f"{n}{'T' if n == sk['task_section'] else ''}:" + (",".join(words) or "-"))
        pools = " ".join(f"{k}={v}" for k, v in sk["pools"].items()) or "-"
        lines.append(
            f"skirmish {2 if sd['skirmish_index'] is None else sd['skirmish_index'] + 1} at {sk['zone']} | turn {sk['turn_number']} {sk['turn']} | "
            f"clock {sk['clock']} | task R {faces(sk['task']['resistance'])} G {faces(sk['task']['german'])} | AP {pools}"
        )
        lines.append("table " + " ".join(by_section) + (f" | acting {sk['acting']}" if sk["acting"] is not None else ""))
    return lines


def events(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """What one decision changed, in words: dice, answers, reveals, figures, records, VP."""
    out = []
    for roll in after["dice_log"][len(before["dice_log"]) :]:
        out.append(f"dice {roll['event']}: {' '.join(map(str, roll['dice']))}")
    for g in after["interrogation"]["log"][len(before["interrogation"]["log"]) :]:
        out.append(f"answer: {ZONE_NAMES[g['zone']]} {g['value']} is {g['answer']}")
    if after["attacked"] and not before["attacked"]:
        for z in after["attacked"]:
            out.append(f"revealed {z}: {', '.join(after['allocation'][z])} (value {after['zone_values'][z]})")
    b, a = before.get("skirmish"), after.get("skirmish")
    if b and a and b["zone"] == a["zone"]:
        old = {f["id"]: f for f in b["figures"]}
        for f in a["figures"]:
            o = old.get(f["id"])
            if o and (o["section"], o["state"]) != (f["section"], f["state"]):
                where = f"section {o['section']} -> {f['section']}" if o["section"] != f["section"] else f"section {f['section']}"
                state = f"{o['state']} -> {f['state']}" if o["state"] != f["state"] else f["state"]
                out.append(f"figure {f['id']} ({f['unit']}): {where}, {state}")
    elif a and (not b or b["zone"] != a["zone"]) and after["phase"] != "scoring":
        units: dict[str, int] = {}
        for f in a["figures"]:
            units[f["unit"]] = units.get(f["unit"], 0) + 1
        out.append(f"skirmish at {a['zone']} set up: " + ", ".join(f"{n} {u}" for u, n in units.items()))
    for r in after["records"][len(before["records"]) :]:
        out.append(
            f"skirmish at {r['zone']} ends: completed by {r['completed'] or 'nobody'}; Resistance lost "
            f"{r['resistance']['killed']} killed, {r['resistance']['ran_away']} ran away; German lost "
            f"{r['german']['killed']} killed, {r['german']['ran_away']} ran away"
        )
    for ln in after["vp"]["lines"][len(before["vp"]["lines"]) :]:
        dice = f" (dice {' '.join(map(str, ln['dice']))}{', re-rolled' if ln['rerolled'] else ''})" if ln["dice"] else ""
        out.append(f"VP {ln['side']} {ln['line']} at {ln['zone']}: {ln['points']}{dice}")
    if before["phase"] != after["phase"]:
        out.append(f"phase {before['phase']} -> {after['phase']}")
    return out


def decisions(scenario: Scenario, result: dict[str, Any]) -> Iterator[Decision]:
    """Play ``scenario`` (env: the agent id per side and the search budget) to its end."""
    from . import ACTION_NAMES, raw_env

    return two_player_decisions(
        scenario, result, raw_env(), make_agent, ("resistance", "german"), 200, ACTION_NAMES, status, events
    )


def ending(final: Mapping[str, Any], steps: int) -> list[str]:
    """How a game ended: the last state, the allocation and its values, the outcome and the VP."""
    alloc = final["allocation"]
    lines = status(final)
    lines.append("allocation: " + "; ".join(f"{z} {'+'.join(alloc[z])} ({final['zone_values'][z]})" for z in alloc))
    vp = final["vp"]
    lines.append(f"outcome: {final['outcome']} after {steps} decisions, VP {vp['resistance']}-{vp['german']}")
    return lines


def trace(scenario: Scenario) -> str:
    """The text of a D-Day playthrough."""
    return two_player_trace(scenario, "dday1944_v0 (maquis.dday.raw_env)", ("resistance", "german"), decisions, ending)


def _dday(name: str, seed: int, resistance: str, german: str, notes: str = "", options=None, **env) -> Scenario:
    """A D-Day game: the agent id per side (seeded `seed`, `seed + 1`), `budget` for search; the
    scenario's `agent` is the Resistance's, as `maquis playthrough` lists it."""
    return Scenario(name, {"resistance": resistance, "german": german, **env}, seed, resistance, seed, options, "dday", notes)


SCENARIOS = (
    _dday("dday_heuristic_vs_heuristic", 1, "heuristic", "heuristic"),
    _dday(
        "dday_search_vs_random", 2, "search", "random", budget=40,
        notes="the search agent as the Resistance, with a small budget to keep the test fast",
    ),
    _dday("dday_random_vs_search", 3, "random", "search", budget=40),
    _dday(
        "dday_random_vs_heuristic_options", 4, "random", "heuristic",
        options={
            "allocation": {
                "caen": ["squad", "vip"],
                "bayeux": ["squad", "goods"],
                "lison": ["squad", "goods", "gendarme"],
                "saint_lo": ["passenger", "gendarme"],
                "avranches": ["gendarme", "gendarme"],
            },
            "attack": ["caen", "saint_lo"],
            "first": "saint_lo",
            "dice": [6, 5],
        },
        notes="reset options: a fixed allocation, attack, order and the first dice",
    ),
)

PLAYTHROUGHS = Playthroughs(SCENARIOS, {"dday": trace}, "maquis dday playthrough")


def add_arguments(p: argparse.ArgumentParser) -> None:
    Playthroughs.add_arguments(p)


def run(args: argparse.Namespace) -> int:
    return PLAYTHROUGHS.run(args)

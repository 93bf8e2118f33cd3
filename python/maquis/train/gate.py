"""The gate, written once for the learners of the two-player games: a new network is kept only if
the rated ladder's sequential test says it is stronger than the last kept one.

Expert iteration gates its generations (`maquis.train.iteration`), masked PPO on a bundled network
its evaluations (`maquis.maurice.train.ppo --gate`). The test is `maquis.common.rate`'s
pentanomial GSPRT on pairs of duplicate deals played in both seats by the game's Rust ladder
runner (`network@FILE` agents):

* head-to-head (the default): the candidate against the kept network (`sprt_agents`);
* `--gate-against LEVEL`: each of the two plays LEVEL on the same deals, and a pair scores the
  candidate's points less the kept network's (`sprt_through`). For networks that draw every game
  against each other (Maurice Lite's), where a drawn pair says nothing of strength.

A decision is a row of `OUT/gate.csv`; H0 or no decision after `--gate-max-pairs` pairs rejects
the candidate.
"""

from __future__ import annotations

import csv
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["BATCH", "DECISION_FIELDS", "add_gate_arguments", "check_gate", "decide", "describe", "write_rows"]

#: Pairs of deals the gate plays at once (it stops at the first pair that decides).
BATCH = 32
#: What every gate row holds beside its learner's own fields (`decide`'s keys).
DECISION_FIELDS = ["agent", "through", "pairs", "counts", "score", "llr", "lower", "upper", "decision", "seconds"]


def add_gate_arguments(p: Any, budget: int, what: str = "generation", first: str = "generation 0") -> None:
    """`--gate` and its settings; `what` names the candidates, `first` the one kept untested."""
    g = p.add_argument_group(
        "gate", f"each {what} after {first} kept only if the rated ladder's sequential test (pentanomial GSPRT on "
        f"duplicate deals, both seats) says it is stronger than the last kept one; decisions in OUT/gate.csv")
    g.add_argument("--gate", action="store_true",
                   help=f"gate the {what}s (off by default). Cost: with --gate-agent network a game is a forward "
                        "pass a move (1-13 ms a game on 2 busy cores for the games' shipped networks, so the "
                        "2000-pair cap is under a minute, twice that with --gate-against); network_search costs "
                        "about a search game a game instead")
    g.add_argument("--gate-agent", choices=("network", "network_search"), default="network",
                   help="what of each network the gate plays: network (default: the network alone, cheap and "
                        "deterministic, the deal's luck the only luck) or network_search (at --gate-budget "
                        "simulations a decision: about a search game a move dearer)")
    g.add_argument("--gate-against", default=None, metavar="LEVEL",
                   help="test through a level instead of head-to-head: both networks play LEVEL on the same deals, "
                        "a pair scoring the new one's points less the kept one's (for networks that draw every game "
                        "against each other, as Maurice Lite's do; default: head-to-head)")
    g.add_argument("--gate-elo0", type=float, default=0.0, help=f"H0: the new {what} is at most this many Elo "
                                                                "stronger (default 0)")
    g.add_argument("--gate-elo1", type=float, default=20.0, help="H1: at least this many Elo stronger (default 20)")
    g.add_argument("--gate-alpha", type=float, default=0.05, help=f"chance of keeping a {what} no stronger (H0 true)")
    g.add_argument("--gate-beta", type=float, default=0.05, help="chance of rejecting one --gate-elo1 stronger")
    g.add_argument("--gate-max-pairs", type=int, default=2000,
                   help=f"pairs of deals at most; undecided then, the {what} is rejected (default 2000)")
    g.add_argument("--gate-budget", type=int, default=budget,
                   help="simulations a decision of --gate-agent network_search (and of a searching --gate-against)")
    g.add_argument("--gate-seed", type=int, default=1000,
                   help=f"ladder seed of the gate's deals: this + the {what}'s number (default 1000; the ladder "
                        "measures on seed 0)")


def check_gate(ladder: Any, args: Any) -> str | None:
    """What is wrong with the gate's flags for a game of `ladder` (None: no ladder runner), or None."""
    from maquis.common.rate import sprt_bounds

    if not getattr(args, "gate", False):
        return None
    if ladder is None:
        return "--gate: this game has no ladder runner to play two networks"
    for name in ("gate_max_pairs", "gate_budget"):
        if getattr(args, name) < 1:
            return f"--{name.replace('_', '-')} must be at least 1"
    against = getattr(args, "gate_against", None)
    if against is not None and against not in ladder.agents:
        return f"--gate-against: unknown level {against!r} of {ladder.name} (one of {', '.join(ladder.agents)})"
    try:
        sprt_bounds(args.gate_elo0, args.gate_elo1, args.gate_alpha, args.gate_beta)
    except ValueError as e:
        return f"--gate: {e}".replace("--sprt needs ELO0 < ELO1", "needs --gate-elo0 < --gate-elo1")
    return None


def decide(ladder: Any, args: Any, candidate: Path, kept: Path, number: int, threads: int | None = None
           ) -> dict[str, Any]:
    """The sequential test of the network file `candidate` against `kept` on the deals of seed
    `args.gate_seed + number`, its games on `threads` threads (default `args.threads`; the
    decision is the same for any number): `DECISION_FIELDS` (`decision` "H1" keeps the candidate)."""
    from maquis.common.rate import sprt_agents, sprt_through

    t = time.perf_counter()
    agent = args.gate_agent
    against = getattr(args, "gate_against", None)
    a, b = f"{agent}@{candidate}", f"{agent}@{kept}"
    settings = (args.gate_elo0, args.gate_elo1, args.gate_alpha, args.gate_beta, args.gate_max_pairs,
                args.gate_seed + number, BATCH, args.gate_budget, max(1, threads or args.threads))
    r = sprt_through(ladder, a, b, against, *settings) if against else sprt_agents(ladder, a, b, *settings)
    return {"agent": agent, "through": against or "", "pairs": r.pairs, "counts": " ".join(str(c) for c in r.counts),
            "score": round(r.score, 4), "llr": r.llr, "lower": r.bounds[0], "upper": r.bounds[1],
            "decision": r.decision, "seconds": round(time.perf_counter() - t, 1)}


def describe(row: dict[str, Any]) -> str:
    """A decision in words, for the learners' logs."""
    how = f"through {row['through']}, pair scores 0..1 in eighths" if row["through"] else "pair scores 0..1 in quarters"
    return (f"LLR {row['llr']:.2f} in [{row['lower']:.2f}, {row['upper']:.2f}] after {row['pairs']} pairs ({how}: "
            f"{row['counts']}; score {100 * row['score']:.1f}%) in {row['seconds']:.0f} s: {row['decision']}")


def write_rows(path: Path, fields: Sequence[str], rows: Sequence[dict[str, Any]]) -> None:
    """`gate.csv` from all the run's rows (rewritten whole: a resumed run has them all)."""
    partial = path.with_suffix(".partial")
    with open(partial, "w", newline="") as f:
        w = csv.DictWriter(f, fields)
        w.writeheader()
        w.writerows(rows)
    os.replace(partial, path)

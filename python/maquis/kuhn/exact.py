"""``maquis.kuhn.exploit`` (this module's ``exploit``) and ``maquis kuhn exploit``: the exact best response to a strategy and
its exploitability (rules V1), where the other games can only train a best response
(``maquis.common.exploit``) and report a lower bound.

The strategy answered is a bundled level's (``--level``: ``heuristic`` is Kuhn's equilibrium, so a
best response gains nothing; ``random`` bets half the time everywhere), a policy's (``--policy``:
a saved ``.npz``, ``module:attribute`` or anything ``maquis kuhn rate`` plays) read at each of the
12 information sets, or the 12 probabilities themselves (``--strategy FILE.json``). The analysis
is exact (``maquis._core.kuhn.best_response``, in Rust): no sampling, no interval.

Known values, the checks the tests make: against ``heuristic`` the best response earns −1/18 chip
a hand as ``first`` and +1/18 as ``second`` (the game's value), exploitability 0; against
``random`` it earns 1/2 as ``first``, 5/12 as ``second``, exploitability 11/24.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np

from .._core import kuhn as _kuhn
from ..common.cli import add_json, write_json
from ._common import OPPONENTS

__all__ = ["exploit", "infoset_views", "strategy_of", "add_arguments", "run"]


def infoset_views() -> tuple[np.ndarray, np.ndarray]:
    """The observation (float32 (12, 13)) and mask (int8 (12, 2)) a side has at each of
    `INFOSETS`, in that order, read off the engine (the other card does not change them, O1)."""
    obs, masks = [], []
    for name in _kuhn.INFOSETS:
        card, moves = name[0], name[1:]
        side = _kuhn.SIDES[len(moves) % 2]
        other = next(c for c in _kuhn.CARDS if c != card)
        game = _kuhn.Game()
        game.reset(0, json.dumps({"cards": [card, other] if side == "first" else [other, card]}))
        for m in moves:
            game.step(_kuhn.action_from_str("bet" if m == "b" else "pass"))
        obs.append(np.asarray(game.observation(side), dtype=np.float32))
        masks.append(np.asarray(game.action_mask(), dtype=np.int8))
    return np.stack(obs), np.stack(masks)


def strategy_of(policy: Any, samples: int = 1, seed: int = 0) -> dict[str, float]:
    """The probability of `bet` of `policy` at each information set: a stochastic saved policy's
    own softmax (exact); any other policy's share of `bet` over `samples` calls at each (exact for
    a deterministic policy, an estimate otherwise)."""
    from ..common.policies import as_actor, resolve
    from ..common.policy import NumpyMLPPolicy, masked_probabilities

    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    obs, masks = infoset_views()
    bet = _kuhn.action_from_str("bet")
    obj = resolve(policy, "kuhn", seed)
    if isinstance(obj, NumpyMLPPolicy) and not obj.deterministic:
        p = masked_probabilities(obj.logits(obs), masks.astype(bool))[:, bet]
    else:
        _, act = as_actor(obj, "kuhn", seed)
        actions = act(np.repeat(obs, samples, axis=0), np.repeat(masks, samples, axis=0)).reshape(len(obs), samples)
        p = (actions == bet).mean(axis=1)
    return {name: float(v) for name, v in zip(_kuhn.INFOSETS, p)}


def _read_strategy(path: str) -> dict[str, float]:
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: not a strategy file ({type(e).__name__}: {e})") from e
    if not isinstance(data, (dict, list)):
        raise ValueError(f"{path}: a strategy is a JSON object {{information set: probability of bet}} or 12 numbers")
    return data


def _fraction(x: float) -> str:
    f = Fraction(x).limit_denominator(1000)
    return str(f) if abs(float(f) - x) < 1e-9 else f"{x:.6f}"


def exploit(level: str | None = None, policy: Any = None, strategy: Mapping[str, float] | str | None = None,
            samples: int = 1, seed: int = 0) -> dict[str, Any]:
    """The exact best response to one strategy: a bundled `level`'s, a `policy`'s (read at every
    information set by `strategy_of`) or `strategy` (12 probabilities of bet, a dict by
    information set, or a JSON file of them); exactly one of the three.

    Returns `{"against", "strategy", "best_response", "value": {"first", "second"},
    "exploitability"}`: the best response's expected chips a hand in each seat, and their mean
    (0 exactly at an equilibrium). A ValueError names bad input."""
    given = [x is not None for x in (level, policy, strategy)]
    if sum(given) != 1:
        raise ValueError("give exactly one of level, policy and strategy")
    if level is not None:
        if level not in OPPONENTS:
            raise ValueError(f"unknown level {level!r}: Kuhn poker's levels are {', '.join(OPPONENTS)}")
        from .agents import STRATEGIES

        against, sigma = level, dict(STRATEGIES[level])
    elif policy is not None:
        against, sigma = str(policy if isinstance(policy, (str, os.PathLike)) else type(policy).__name__), strategy_of(policy, samples, seed)
    else:
        against = strategy if isinstance(strategy, str) else "strategy"
        sigma = _read_strategy(strategy) if isinstance(strategy, str) else strategy
    value = {side: _kuhn.best_response(sigma, side)[0] for side in _kuhn.SIDES}
    exploitability, br = _kuhn.best_response(sigma)
    if isinstance(sigma, Mapping):
        sigma = {k: float(v) for k, v in sigma.items()}
    else:
        sigma = dict(zip(_kuhn.INFOSETS, map(float, sigma)))
    return {"against": against, "strategy": sigma, "best_response": br, "value": value,
            "exploitability": exploitability}


def to_text(r: Mapping[str, Any], side: str | None = None) -> str:
    """The result in a few lines (`side`: only that seat's value)."""
    sides = (side,) if side else _kuhn.SIDES
    lines = [f"exact best response to {r['against']} (chips a hand):"]
    for s in sides:
        v = r["value"][s]
        lines.append(f"  as {s:<6} {v:+.4f}  ({_fraction(v)})")
    e = r["exploitability"]
    lines.append(f"  exploitability (mean of the seats) {e:+.4f}  ({_fraction(e)}); 0 at an equilibrium")
    bets = [k for k, v in r["best_response"].items() if v]
    lines.append(f"  the best response bets at: {', '.join(bets) or 'nowhere'}")
    return "\n".join(lines)


def add_arguments(p: argparse.ArgumentParser) -> None:
    what = p.add_mutually_exclusive_group()
    what.add_argument("--level", choices=OPPONENTS, help="a bundled level (default: heuristic)")
    what.add_argument("--policy", metavar="FILE|module:attr",
                      help="a policy (.npz, module:attribute, an act(obs, mask) callable) read at each information set")
    what.add_argument("--strategy", metavar="FILE", help="a JSON strategy: {information set: probability of bet}")
    p.add_argument("--side", choices=_kuhn.SIDES, default=None,
                   help="print the best response's value in this seat only (default: both)")
    p.add_argument("--samples", type=int, default=1,
                   help="calls of a stochastic policy's act at each information set (default 1: a deterministic policy)")
    p.add_argument("--seed", type=int, default=0, help="the policy's seed")
    # `--steps` is the trained exploiter's flag in the other games: accepted, so that one command
    # line serves every game, and ignored.
    p.add_argument("--steps", type=int, default=None,
                   help="the other games' training steps: ignored here (the best response is exact)")
    add_json(p, "the result")


def run(args: argparse.Namespace) -> int:
    try:
        level = args.level if args.level or args.policy or args.strategy else "heuristic"
        r = exploit(level, args.policy, args.strategy, args.samples, args.seed)
    except ValueError as err:
        print(f"maquis kuhn exploit: {err}", file=sys.stderr)
        return 2
    if args.side:
        r = {**r, "side": args.side}
    if args.json:
        write_json(r, args.json)
    if args.json != "-":
        print(to_text(r, args.side))
    return 0

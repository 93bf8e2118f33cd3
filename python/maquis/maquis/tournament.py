"""``maquis.ladder`` and ``maquis ladder``: the solitaire's ladder, its levels the difficulties.

Each agent plays the same ``deals`` deals at every difficulty (deal ``k``'s game seed is
``maquis.common.ladder.deal_seed(seed, k)`` at every level and for every agent). The result, in the
JSON shape of the two-player ladders (``maquis.common.ladder``):

- ``agents``: per agent its win rate (a win or a major win) and score rate (a win 1, a draw a
  half, a loss 0) per difficulty with 95 % Wilson intervals, and its ``rating``: the difficulty at
  which it wins half its games, interpolated linearly between the levels' indices (0 very_easy … 5
  very_hard; None when it wins at least half at every level or at none), with a 95 % interval
  from ``bootstrap`` resamples of the deals;
- ``pairings``: per pair of agents, on every (difficulty, deal) both played, how often ``a`` won
  where ``b`` did not (``wins``), the reverse (``losses``), the same result (``draws``), and the
  paired difference of their win rates with its bootstrap interval.

The games run on the vector env (in Rust, ``threads`` threads), ``min(deals, 64)`` at a time; an
agent's stream is seeded with ``seed``, so results are deterministic for a given ``seed`` and
``deals``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from ..common.evaluation import wilson_interval
from ..common.ladder import RatingTable, add_output_arguments, bootstrap_indices, check_agents, deal_seed, report
from ..common.rate import print_result
from ..common.progress import progress_bar
from .tables import DIFFICULTIES

__all__ = ["DEFAULT_AGENTS", "MaquisLadderResult", "ladder", "half_win_level", "add_arguments", "run"]

#: The agents a ladder plays unless told: the search levels are slower (add them by name).
DEFAULT_AGENTS = ("random", "heuristic", "network")
WINS = ("win", "major_win")
SCORE = {"win": 1.0, "major_win": 1.0, "draw": 0.5, "loss": 0.0}


def half_win_level(rates: Sequence[float]) -> float | None:
    """The level index at which the win rate crosses one half, interpolated linearly between the
    last level won at least half the time and the next; None when it never drops below a half or
    starts below it.

    >>> half_win_level([0.9, 0.7, 0.3])
    1.5
    """
    r = list(rates)
    if not r or r[0] < 0.5:
        return None
    for x in range(len(r) - 1):
        if r[x] >= 0.5 > r[x + 1]:
            return x + (r[x] - 0.5) / (r[x] - r[x + 1])
    return None


def _level_text(level: float | None, rates: Sequence[float], levels: Sequence[str] = DIFFICULTIES) -> str:
    """`level` (an index into the `levels` played, as `half_win_level` gives it) in words."""
    if level is None:
        return f"below {levels[0]}" if rates and rates[0] < 0.5 else f"above {levels[len(rates) - 1]}"
    lo = int(level)
    if lo >= len(levels) - 1 or level == lo:
        return levels[lo]
    return f"{levels[lo]}-{levels[lo + 1]}"


@dataclass
class MaquisLadderResult(RatingTable):
    """A solitaire ladder's outcome: `agents` (per difficulty figures, the half-win level as
    `rating`), `pairings` (paired differences) and the settings."""

    def csv_rows(self) -> list[dict[str, Any]]:
        return [{"agent": a["agent"], "difficulty": d["difficulty"], "games": d["games"], "win_rate": d["win_rate"],
                 "win_ci95_low": d["win_ci95"][0], "win_ci95_high": d["win_ci95"][1], "score": d["score"],
                 "half_win_level": a["rating"]} for a in self.agents for d in a["difficulties"]]

    def to_text(self) -> str:
        levels = self.settings["difficulties"]
        head = f"{'agent':<16}" + "".join(f"{d:>11}" for d in levels) + f"  {'50% level':<26}"
        lines = [head, "-" * len(head)]
        for a in self.agents:
            lo, hi = a["ci95"]
            ci = "" if a["rating"] is None else f" [{'below' if lo is None else _fmt(lo)}, {'above' if hi is None else _fmt(hi)}]"
            lines.append(f"{a['agent']:<16}" + "".join(f"{100 * d['win_rate']:>10.1f}%" for d in a["difficulties"])
                         + f"  {_fmt(a['rating'])} {a['half_win_difficulty']}{ci}")
        lines += ["", f"{'pairing':<32}{'games':>7}{'a only':>8}{'same':>7}{'b only':>8}  win-rate difference [95% CI]"]
        lines.append("-" * len(lines[-1]))
        for p in self.pairings:
            lo, hi = p["ci95"]
            lines.append(f"{p['a'] + ' v ' + p['b']:<32}{p['games']:>7}{p['wins']:>8}{p['draws']:>7}{p['losses']:>8}"
                         f"  {100 * p['difference']:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}] points")
        s = self.settings
        lines += ["", f"win rates (win or major win) on {s['deals']} common deals per difficulty, seed {s['seed']}; "
                      f"50% level: the difficulty index (0 {levels[0]} ... {len(levels) - 1} {levels[-1]}) at which the "
                      f"agent wins half its games; 95% CI: {s['bootstrap']} bootstrap resamples of the deals"]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def _play(agent: Any, difficulty: str, deals: int, seed: int, threads: int | None, update: Any, first: int = 0) -> list[str]:
    """The outcome of each of `deals` deals (from deal `first`) of `agent` (a bundled agent's name,
    or a checked batch function `act(obs, masks)` of `maquis.common.policies.as_actor`) at
    `difficulty`, in deal order."""
    from maquis import MaquisVectorEnv, agents
    from maquis.maquis.evaluation import _as_batch_policy

    n = min(deals, 64)
    vec = MaquisVectorEnv(n, num_threads=threads, difficulty=difficulty, copy=False)
    if isinstance(agent, str):
        _, act = _as_batch_policy(agents.make_agent(agent, seed=seed), seed)
    else:
        act = _live_rows(agent)
    outcomes: list[str] = [""] * deals
    for start in range(0, deals, n):
        batch = list(range(start, min(start + n, deals)))
        # The envs past the last deal replay its first deal, unrecorded.
        seeds = [deal_seed(seed, first + (batch[i] if i < len(batch) else batch[0])) for i in range(n)]
        obs, _ = vec.reset(seed=seeds)
        live = np.ones(n, dtype=bool)
        while live[: len(batch)].any():
            actions = np.asarray(act(vec, obs, vec.action_masks(), live), dtype=np.int64)
            obs, _, terminated, truncated, infos = vec.step(actions)
            ended = (terminated | truncated) & live
            for i in np.flatnonzero(ended):
                if i < len(batch):
                    outcomes[batch[i]] = str(infos["outcome"][i])
                    update(1)
            live &= ~ended
    vec.close()
    return outcomes


def _live_rows(fn: Any) -> Any:
    """`fn(obs, masks)` on the live rows as the ladder's `act(vec, obs, masks, live)`; the other
    rows get any legal action (their games are over: the action is not played)."""

    def act(vec: Any, obs: Any, masks: Any, live: np.ndarray) -> np.ndarray:
        m = np.asarray(masks).astype(bool)
        out = m.argmax(1).astype(np.int64)
        idx = np.flatnonzero(live)
        if len(idx):
            out[idx] = fn(np.asarray(obs)[idx], m[idx])
        return out

    return act


def ladder(
    agents: str | Sequence[str] | None = None,
    deals: int = 200,
    seed: int = 0,
    threads: int | None = None,
    difficulties: str | Sequence[str] | None = None,
    bootstrap: int = 200,
    progress: bool = False,
    players: dict[str, Any] | None = None,
) -> MaquisLadderResult:
    """The solitaire ladder of `agents` (default random, heuristic, network; any of
    `maquis.maquis.agents.AGENT_NAMES`) on `deals` common deals at each of `difficulties` (default all);
    see the module. A ValueError names bad input."""
    from maquis.maquis.agents import AGENT_NAMES

    from ..common.ladder import _check_count

    players = dict(players or {})
    names = check_agents(agents, AGENT_NAMES, () if players else DEFAULT_AGENTS, least=0 if players else 1)
    for extra in players:
        if extra in names:
            raise ValueError(f"the policy's name {extra!r} is an agent's")
    names += list(players)
    levels = list(DIFFICULTIES) if difficulties is None else (
        [d.strip() for d in difficulties.split(",") if d.strip()] if isinstance(difficulties, str) else list(difficulties))
    for d in levels:
        if d not in DIFFICULTIES:
            raise ValueError(f"unknown difficulty {d!r} (choose from {', '.join(DIFFICULTIES)})")
    if not levels:
        raise ValueError("no difficulty given")
    levels = [d for d in DIFFICULTIES if d in levels]  # easiest first
    deals = _check_count("deals", deals)
    seed = _check_count("seed", seed, 0)
    bootstrap = _check_count("bootstrap", bootstrap)
    if threads is not None:
        _check_count("threads", threads)
    bar = progress_bar(len(names) * len(levels) * deals, enabled=progress, desc="maquis ladder")
    # outcome[agent]: (levels, deals) of outcome names
    outcome = {a: np.array([_play(players.get(a, a), d, deals, seed, threads, bar.update) for d in levels]) for a in names}
    bar.close()
    win = {a: np.isin(o, WINS).astype(np.float64) for a, o in outcome.items()}
    score = {a: np.vectorize(SCORE.__getitem__, otypes=[np.float64])(o) for a, o in outcome.items()}
    resamples = bootstrap_indices(deals, bootstrap, seed)

    def interval(values: np.ndarray) -> list[float | None]:
        """The 2.5th and 97.5th percentiles (nearest rank) of bootstrap `values`, None where that is
        beyond the levels (-inf: below the easiest, +inf: above the hardest)."""
        v = np.sort(values)
        ends = [v[int(round(q * (len(v) - 1)))] for q in (0.025, 0.975)]
        return [round(float(x), 3) if np.isfinite(x) else None for x in ends]

    def level_or_end(rates: np.ndarray) -> float:
        x = half_win_level(rates)
        return x if x is not None else (-np.inf if rates[0] < 0.5 else np.inf)

    agents_out = []
    for a in names:
        rates = win[a].mean(axis=1)
        level = half_win_level(rates)
        boot = np.array([level_or_end(win[a][:, idx].mean(axis=1)) for idx in resamples])
        agents_out.append({
            "agent": a,
            "rating": None if level is None else round(level, 3),
            "ci95": interval(boot) if level is not None else [None, None],
            "half_win_difficulty": _level_text(level, list(rates), levels),
            "games": int(win[a].size),
            "win_rate": round(float(win[a].mean()), 4),
            "score": round(float(score[a].mean()), 4),
            "difficulties": [
                {"difficulty": d, "games": deals, "win_rate": round(float(rates[i]), 4),
                 "win_ci95": [round(x, 4) for x in wilson_interval(int(win[a][i].sum()), deals)],
                 "score": round(float(score[a][i].mean()), 4),
                 "counts": {o: int((outcome[a][i] == o).sum()) for o in SCORE}}
                for i, d in enumerate(levels)
            ],
        })
    agents_out.sort(key=lambda x: (-(x["rating"] if x["rating"] is not None else
                                     (len(levels) if x["difficulties"][0]["win_rate"] >= 0.5 else -1)), -x["win_rate"]))
    pairings = []
    for a, b in combinations(names, 2):
        d = win[a] - win[b]
        boot = np.array([d[:, idx].mean() for idx in resamples])
        lo, hi = np.percentile(boot, [2.5, 97.5])
        wins, losses = int((d > 0).sum()), int((d < 0).sum())
        pairings.append({
            "a": a, "b": b, "deals": deals, "games": int(d.size), "wins": wins, "draws": int(d.size) - wins - losses,
            "losses": losses, "score": round((wins + (d.size - wins - losses) / 2) / d.size, 4),
            "difference": round(float(d.mean()), 4), "ci95": [round(float(lo), 4), round(float(hi), 4)],
        })
    settings = {"deals": deals, "seed": seed, "bootstrap": bootstrap, "difficulties": levels,
                "rating": "difficulty index at which the win rate is one half"}
    return MaquisLadderResult("maquis", agents_out, pairings, settings)


def add_arguments(p: argparse.ArgumentParser) -> None:
    from maquis.maquis.agents import AGENT_NAMES

    extra = [a for a in AGENT_NAMES if a not in DEFAULT_AGENTS]
    p.add_argument("--agents", default=None, metavar="A,B,C",
                   help=f"comma-separated agents: {', '.join(AGENT_NAMES)} (default: {','.join(DEFAULT_AGENTS)}; "
                   f"{', '.join(extra)} left out by default: slower)")
    p.add_argument("--difficulties", default=None, metavar="D,D",
                   help=f"comma-separated levels (default: all: {', '.join(DIFFICULTIES)})")
    add_output_arguments(p, 200)


def run(args: argparse.Namespace) -> int:
    try:
        result = ladder(args.agents, args.deals, args.seed, args.threads, args.difficulties, args.bootstrap,
                        progress=not args.no_progress)
    except (ValueError, OSError, ImportError) as e:
        print(f"maquis ladder: {e}", file=sys.stderr)
        return 2
    return report("maquis ladder", args, result, xlabel="difficulty index where it wins half its games")


# -- maquis rate: a user's policy on the difficulty ladder ------------------------------------


def rate(
    policy: Any,
    ladder_json: Any = None,
    agents: str | Sequence[str] | None = None,
    deals: int = 200,
    seed: int = 0,
    threads: int | None = None,
    difficulties: str | Sequence[str] | None = None,
    bootstrap: int = 200,
    device: str = "cpu",
    progress: bool = False,
) -> MaquisLadderResult:
    """`policy` (a saved `.npz`, `"module:attr"`, a torch module, or an object with `act` /
    `act_batch`; see `maquis.common.policies`) on the solitaire's ladder: its win rate per
    difficulty on the ladder's deals (deal k: `deal_seed(seed, k)` at every level), its 50 %
    difficulty with a bootstrap interval, and, with `agents`, the paired differences with those
    bundled agents played on the same deals. `ladder_json`: a `maquis ladder -o FILE.json`
    result whose agents are listed with the policy (its deals and seed should be these for the
    rows to be comparable: a mismatch is noted in `settings["pool_note"]`)."""
    from ..common.policies import as_actor

    from maquis.maquis.agents import AGENT_NAMES

    name, act = as_actor(policy, "maquis", seed, device)
    if name in AGENT_NAMES:
        name = f"{name} (policy)"
    result = ladder(agents if agents is not None else [], deals, seed, threads, difficulties, bootstrap, progress,
                    players={name: act})
    result.settings["policy"] = name
    if ladder_json is not None:
        where = str(ladder_json)
        try:
            with open(ladder_json) as f:
                pool = json.load(f)
            rows = [a for a in pool["agents"] if a["agent"] != name and "difficulties" in a]
            ps = pool.get("settings", {})
        except json.JSONDecodeError as e:
            raise ValueError(f"{where}: not JSON ({e.msg})") from None
        except (KeyError, TypeError) as e:
            raise ValueError(f"{where}: not a Maquis ladder's JSON ({type(e).__name__}: {e})") from None
        if ps.get("difficulties") != result.settings["difficulties"]:
            raise ValueError(f"{where}: a ladder of difficulties {ps.get('difficulties')}, these are "
                             f"{result.settings['difficulties']} (--difficulties)")
        have = {a["agent"] for a in result.agents}
        result.agents += [a for a in rows if a["agent"] not in have]
        result.settings["pool"] = where
        if (ps.get("deals"), ps.get("seed")) != (deals, seed):
            result.settings["pool_note"] = (f"{where} was played on {ps.get('deals')} deals, seed {ps.get('seed')}; "
                                            f"the policy on {deals}, seed {seed}")
    return result


def sprt(policy: Any, against: str, elo0: float, elo1: float, difficulty: str = "normal", alpha: float = 0.05,
         beta: float = 0.05, max_pairs: int = 20_000, seed: int = 0, batch: int = 64, threads: int | None = None,
         device: str = "cpu") -> Any:
    """The trinomial GSPRT of `policy` against the bundled agent `against` at `difficulty`: a pair is
    one deal (`deal_seed(seed, k)`) played by both; its score is 1 when only the policy wins, 0
    when only the agent does, 1/2 when both or neither do. The LLR, bounds and stopping rule are
    those of `maquis.common.rate.sprt` (`llr_pentanomial` on the scores 0, 1/2, 1): H1, the
    policy is `elo1` Elo above the agent on that pair-score scale, against H0, `elo0` above."""
    from maquis.maquis.agents import AGENT_NAMES

    from ..common import rate as R
    from ..common.policies import as_actor

    if against not in AGENT_NAMES:
        raise ValueError(f"unknown level {against!r} (choose from {', '.join(AGENT_NAMES)})")
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r} (choose from {', '.join(DIFFICULTIES)})")
    lower, upper = R.sprt_bounds(elo0, elo1, alpha, beta)
    name, act = as_actor(policy, "maquis", seed, device)
    counts = np.zeros(3, dtype=np.int64)
    pairs, llr, decision = 0, 0.0, "none"
    scores = (0.0, 0.5, 1.0)
    while pairs < max_pairs and decision == "none":
        k = min(batch, max_pairs - pairs)
        mine = _play(act, difficulty, k, seed, threads, lambda n: None, first=pairs)
        theirs = _play(against, difficulty, k, seed, threads, lambda n: None, first=pairs)
        for a, b in zip(mine, theirs):
            counts[int(a in WINS) - int(b in WINS) + 1] += 1
            pairs += 1
            llr = R.llr_pentanomial(counts, elo0, elo1, scores)
            decision = "H1" if llr >= upper else "H0" if llr <= lower else "none"
            if decision != "none":
                break
    return R.SprtResult("maquis", name, against, float(elo0), float(elo1), alpha, beta, round(llr, 4),
                        [round(lower, 4), round(upper, 4)], pairs, [int(c) for c in counts], decision,
                        {"seed": seed, "max_pairs": max_pairs, "difficulty": difficulty,
                         "test": "trinomial GSPRT on paired deals (logistic Elo, normal approximation)",
                         "prior_per_bin": R.PRIOR})


def add_rate_arguments(p: argparse.ArgumentParser) -> None:
    from maquis.maquis.agents import AGENT_NAMES

    p.add_argument("--policy", required=True, metavar="FILE|module:attr",
                   help="the policy: a saved .npz, or module:attr naming a torch module (forward: float32 observations "
                        "to logits), an object with act(obs, mask) / act_batch(obs, masks), or a callable")
    p.add_argument("--ladder", metavar="JSON", default=None, help="a ladder's JSON (maquis ladder -o FILE.json) to list "
                   "its agents with the policy")
    p.add_argument("--agents", default=None, metavar="A,B",
                   help=f"bundled agents played now on the same deals, for paired differences: {', '.join(AGENT_NAMES)}")
    p.add_argument("--difficulties", default=None, metavar="D,D",
                   help=f"comma-separated levels (default: all: {', '.join(DIFFICULTIES)})")
    p.add_argument("--device", default="cpu", help="where a torch policy runs (default cpu)")
    add_output_arguments(p, 200)
    g = p.add_argument_group("sequential test (instead of the rating)")
    g.add_argument("--sprt", type=_elo_pair, default=None, metavar="ELO0,ELO1",
                   help="trinomial GSPRT on paired deals: H0 the policy is ELO0 above --against, H1 ELO1 above")
    g.add_argument("--against", default=None, metavar="AGENT", help=f"the bundled agent of --sprt: {', '.join(AGENT_NAMES)}")
    g.add_argument("--difficulty", default="normal", choices=DIFFICULTIES, help="the level of --sprt's deals (default normal)")
    g.add_argument("--alpha", type=float, default=0.05, help="chance of accepting H1 when H0 holds (default 0.05)")
    g.add_argument("--beta", type=float, default=0.05, help="chance of accepting H0 when H1 holds (default 0.05)")
    g.add_argument("--max-pairs", type=int, default=20_000, metavar="N", help="stop undecided after N pairs (default 20000)")


def _elo_pair(text: str) -> tuple[float, float]:
    from ..common.rate import _elo_pair as parse

    return parse(text)


def run_rate(args: argparse.Namespace) -> int:
    if args.sprt is not None or args.against is not None:
        try:
            if args.sprt is None or args.against is None:
                raise ValueError("--sprt ELO0,ELO1 and --against AGENT go together")
            result = sprt(args.policy, args.against, args.sprt[0], args.sprt[1], args.difficulty, args.alpha, args.beta,
                          args.max_pairs, args.seed, 64, args.threads, args.device)
        except (ValueError, OSError, ImportError) as e:
            print(f"maquis rate: {e}", file=sys.stderr)
            return 2
        return print_result(result, args)
    try:
        result = rate(args.policy, args.ladder, args.agents, args.deals, args.seed, args.threads, args.difficulties,
                      args.bootstrap, args.device, progress=not args.no_progress)
    except (ValueError, OSError, ImportError) as e:
        print(f"maquis rate: {e}", file=sys.stderr)
        return 2
    return report("maquis rate", args, result, xlabel="difficulty index where it wins half its games")

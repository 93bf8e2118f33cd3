"""The rated ladder every game shares (`maquis <game> ladder`, `maquis.<game>.ladder`): Bradley–Terry
ratings on the Elo scale, bootstrap intervals by resampling deals, the resumable two-player
round robin on duplicate deals, and the verb's flags, outputs and chart.

A two-player game's ladder plays every pair of the chosen agents on the same `deals` deals, each
deal twice with the seats swapped (the agent in a seat gets the same stream seed whoever it is), so
that the luck of a deal and of a seat cancels within a pairing. The games run in Rust on threads
(`maquis._core.<game>.play_games`); a game's adapter (`maquis.dday.ladder`, …) names its agents
and that function. The ratings are the Bradley–Terry maximum-likelihood fit of every game (a draw
half a win each way) by `choix`, on the Elo scale (400·log10 of the odds), `random` at 0 (else the
first agent). Their 95 % intervals are percentiles of the fits of `bootstrap` resamples of the deals
(every pairing's games of a drawn deal together).

Ratings by seat: with three agents or more, the same games are also fitted with each agent twice,
once in each seat, every game a comparison between the agent in the first seat and the one in the
second. Each seat's ratings are shifted to the mean of the overall ratings, so two agents' ratings
in one seat compare how they play that seat against the same opponents, the seat's own advantage
left out. (Not an anchor agent per seat: D-Day's random Resistance wins almost never, and a
rating pinned to it would carry its noise into every other. Two agents alone meet only each
other, which leaves the seats' scales apart: no ratings by seat then.)

The solitaire Maquis has no opponents: its ladder (`maquis.ladder`) uses the JSON shape and the
deal bootstrap of this module with difficulties for levels.
"""

from __future__ import annotations

import csv
import json
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from .cli import add_no_progress, add_seed, comma_list
from .progress import progress_bar

__all__ = [
    "ELO", "LadderGame", "LadderResult", "RatingTable", "bootstrap_indices", "bt_elo", "deal_seed", "play_ladder",
    "seat_elo", "seat_ratings", "add_seat_score",
    "add_ladder_arguments", "run_ladder", "write_output",
]

#: Elo points per natural-log unit of Bradley–Terry strength (400 points: odds of 10 to 1).
ELO = 400 / math.log(10)
#: The rate every pair of agents is given in choix's LSR chain before the games (its
#: regularisation): a tiny prior that keeps an unbeaten agent's rating finite.
ALPHA = 1e-3
BOOTSTRAP = 200
ANCHOR = "random"


def bt_elo(names: Sequence[str], score: np.ndarray, anchor: str | None = ANCHOR, alpha: float = ALPHA) -> np.ndarray:
    """Bradley–Terry ratings on the Elo scale of `score[i, j]` (what `names[i]` scored against
    `names[j]`: a win 1, a draw a half, so a draw counts as half a win each way), with `anchor`
    (default `random`; the first name when it is absent) at 0. Fitted by `choix.ilsr_pairwise_dense`.

    >>> round(float(bt_elo(["random", "x"], np.array([[0.0, 25.0], [75.0, 0.0]]))[1]), 1)
    190.8
    """
    try:
        import choix
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ImportError("the ladder's ratings need choix: pip install 'maquis[ladder]'") from e

    n = len(names)
    score = np.asarray(score, dtype=np.float64)
    if score.shape != (n, n):
        raise ValueError(f"score must be {n}x{n}, got {score.shape}")
    if n == 1:
        return np.zeros(1)
    params = choix.ilsr_pairwise_dense(score, alpha=alpha, max_iter=10_000)
    elo = params * ELO
    ref = names.index(anchor) if anchor in names else 0
    return elo - elo[ref]


def seat_elo(names: Sequence[str], score: np.ndarray, centre: float = 0.0) -> np.ndarray:
    """Ratings by seat, shape (len(names), 2): the Bradley–Terry fit (`bt_elo`) of `score[s, i, j]`,
    what `names[i]` in seat `s` scored against `names[j]` in the other seat, with each agent in
    each seat an entrant; each seat's ratings shifted so that their mean is `centre`. A ValueError
    when the games leave some entrants unconnected to the others (nothing compares them).

    >>> s = np.zeros((2, 3, 3)); s[0] = [[0, 40, 60], [60, 0, 75], [40, 25, 0]]  # 100 games each
    >>> s[1] = 100 - s[0].T; np.fill_diagonal(s[1], 0)  # the same results seen from the other seat
    >>> [round(float(x)) for x in seat_elo(["random", "a", "b"], s)[:, 0]]
    [0, 86, -86]
    """
    n = len(names)
    score = np.asarray(score, dtype=np.float64)
    if score.shape != (2, n, n):
        raise ValueError(f"score must be 2x{n}x{n}, got {score.shape}")
    if n < 3:
        raise ValueError(f"ratings by seat need three agents or more, got {n}")
    both = np.zeros((2 * n, 2 * n))
    both[:n, n:] = score[0]  # first seat (rows 0..n-1) against the second (columns n..2n-1)
    both[n:, :n] = score[1]
    if not _connected((both + both.T) > 0):
        raise ValueError("the games leave some agent-seats unconnected to the others: no ratings by seat")
    elo = bt_elo([f"{k}" for k in range(2 * n)], both, anchor=None).reshape(2, n)
    return (elo - elo.mean(axis=1, keepdims=True) + centre).T


def _connected(adjacent: np.ndarray) -> bool:
    """Whether the graph of the boolean matrix `adjacent` is connected (a fit compares only
    entrants joined by games)."""
    seen, todo = {0}, [0]
    while todo:
        for j in np.flatnonzero(adjacent[todo.pop()]):
            if int(j) not in seen:
                seen.add(int(j))
                todo.append(int(j))
    return len(seen) == len(adjacent)


def deal_seed(seed: int, deal: int, *key: int) -> int:
    """The seed of deal `deal` of a ladder seeded `seed` (`key` () the game's, (seat,) the agent's
    in that seat): a 63-bit word of `numpy.random.SeedSequence(seed, spawn_key=(deal, *key))`."""
    word = np.random.SeedSequence(seed, spawn_key=(deal, *key)).generate_state(1, np.uint64)[0]
    return int(word) >> 1


def deal_games(a: str, b: str, seed: int, deal: int) -> list[tuple[str, int, str, int, int]]:
    """Deal `deal`'s two games between agents `a` and `b`, as `LadderGame.play_games` takes them:
    `a` in the first seat, then `b`; each seat's agent seed and the game seed are the deal's,
    whoever sits there."""
    g, s0, s1 = deal_seed(seed, deal), deal_seed(seed, deal, 0), deal_seed(seed, deal, 1)
    return [(a, s0, b, s1, g), (b, s0, a, s1, g)]


def bootstrap_indices(deals: int, resamples: int, seed: int) -> np.ndarray:
    """`resamples` rows of `deals` deal indices drawn with replacement (seeded)."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0xB007,))).integers(
        0, deals, size=(resamples, deals))


# -- Two-player games ----------------------------------------------------------------------------


@dataclass(frozen=True)
class LadderGame:
    """What the ladder needs of a two-player game: its name, its agents (and the default set),
    its search budget, the Rust runner `play_games(games, budget, threads)` (games: (first-side
    agent, its seed, second-side agent, its seed, game seed); results 1 / 0 / -1 from the first
    side's view), and `prepare(agents)`, called before any game (a network loaded, ...)."""

    name: str
    agents: tuple[str, ...]
    default_agents: tuple[str, ...]
    default_budget: int
    play_games: Callable[[list[tuple[str, int, str, int, int]], int, int], list[int]]
    prepare: Callable[[Sequence[str]], None] = lambda agents: None
    default_deals: int = 100
    #: said after the agents in `--help` (which are slow, ...)
    agents_note: str = ""
    #: the game's sides, the first first: the names of `by_seat`'s entries
    sides: tuple[str, str] = ("first", "second")
    #: levels that also play a weight file of one's own, as the agent `LEVEL@FILE`
    file_agents: tuple[str, ...] = ()


@dataclass
class RatingTable:
    """What every game's ladder returns, one JSON shape: `agents` (one entry an agent),
    `pairings` (one entry a pair of agents) and the settings."""

    game: str
    agents: list[dict[str, Any]]
    pairings: list[dict[str, Any]]
    settings: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "agents": self.agents, "pairings": self.pairings, "settings": self.settings}

    def to_json(self, **kw: Any) -> str:
        return json.dumps(self.to_dict(), **kw)


@dataclass
class LadderResult(RatingTable):
    """A two-player ladder's outcome: `agents` (agent, rating, ci95, games, score, and with three
    agents or more `by_seat`: each seat's side, rating and ci95; best first), `pairings` (a, b,
    deals, games, wins, draws, losses, score of `a`, `by_seat` W-D-L) and the settings."""

    def rating(self, agent: str) -> float:
        """`agent`'s rating; a KeyError for an agent not in the ladder."""
        for a in self.agents:
            if a["agent"] == agent:
                return a["rating"]
        raise KeyError(f"no agent {agent!r} in this ladder")

    def seat_rating(self, agent: str, side: str) -> tuple[float, list[float]]:
        """`agent`'s rating in the seat of `side` and its 95 % interval (see the module); a KeyError
        for an agent not in the ladder or a side not the game's, a ValueError for a ladder of two
        agents (no ratings by seat)."""
        for a in self.agents:
            if a["agent"] == agent:
                if "by_seat" not in a:
                    raise ValueError("ratings by seat need three agents or more")
                for s in a["by_seat"]:
                    if s["side"] == side:
                        return s["rating"], s["ci95"]
                raise KeyError(f"no side {side!r}: the sides are {', '.join(s['side'] for s in a['by_seat'])}")
        raise KeyError(f"no agent {agent!r} in this ladder")

    def to_text(self) -> str:
        lines = [f"{'agent':<16}{'rating':>8}  {'95% CI':<18}{'games':>7}{'score':>8}"]
        lines.append("-" * len(lines[0]))
        for a in self.agents:
            lo, hi = a["ci95"]
            lines.append(f"{a['agent']:<16}{a['rating']:>8.1f}  {f'[{lo:.1f}, {hi:.1f}]':<18}{a['games']:>7}"
                         f"{100 * a['score']:>7.1f}%")
        if self.agents and "by_seat" in self.agents[0]:
            head = "".join(f"  {'as ' + s['side']:>8}  {'95% CI':<18}" for s in self.agents[0]["by_seat"])
            lines += ["", f"{'by seat':<16}{head}".rstrip(), "-" * (16 + len(head.rstrip()))]
            for a in self.agents:
                lines.append((f"{a['agent']:<16}" + "".join(
                    f"  {s['rating']:>8.1f}  {'[{:.1f}, {:.1f}]'.format(*s['ci95']):<18}" for s in a["by_seat"])).rstrip())
        seats = [s["side"] for s in self.pairings[0]["by_seat"]] if self.pairings else []
        head = "".join(f"  {'a as ' + side + ' W-D-L':>22}" for side in seats)
        lines += ["", f"{'pairing':<32}{'games':>7}{'wins':>7}{'draws':>7}{'losses':>7}{'score':>8}{head}"]
        lines.append("-" * len(lines[-1]))
        for p in self.pairings:
            by_seat = "".join(f"  {'{wins}-{draws}-{losses}'.format(**s):>22}" for s in p["by_seat"])
            lines.append(f"{p['a'] + ' v ' + p['b']:<32}{p['games']:>7}{p['wins']:>7}{p['draws']:>7}{p['losses']:>7}"
                         f"{100 * p['score']:>7.1f}%{by_seat}")
        s = self.settings
        if "deals" in s:
            lines += ["", f"{s['deals']} duplicate deals per pairing (each played with the seats swapped), seed "
                          f"{s['seed']}; Bradley-Terry on the Elo scale, {s['anchor']} at 0; 95% CI: "
                          f"{s['bootstrap']} bootstrap resamples of the deals"
                          + ("; by seat: each agent in each seat an entrant, each seat centred on the "
                             "overall mean" if self.agents and "by_seat" in self.agents[0] else "")]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()


def check_agents(agents: str | Sequence[str] | None, known: Sequence[str], default: Sequence[str],
                 least: int = 2, file_agents: Sequence[str] = ()) -> list[str]:
    """The agent names of `agents` (a comma-separated string, a sequence, or None: `default`); a
    ValueError naming an unknown one, a repeated one, or fewer than two. `LEVEL@FILE` names a
    level of `file_agents` playing the weight file FILE, which must exist."""
    names = list(default) if agents is None else comma_list(agents) if isinstance(agents, str) else list(agents)
    for name in names:
        level, at, path = name.partition("@")
        if at and level in file_agents:
            if not os.path.isfile(path):
                raise ValueError(f"agent {name!r}: no weight file {path!r}")
        elif name not in known:
            files = f"; {' or '.join(f'{a}@FILE' for a in file_agents)} for a weight file of your own" if file_agents else ""
            raise ValueError(f"unknown agent {name!r} (choose from {', '.join(known)}{files})")
    if len(set(names)) != len(names):
        raise ValueError(f"an agent is named twice in {', '.join(names)}")
    if len(names) < least:
        raise ValueError(f"a ladder needs at least {least} agent{'s' * (least > 1)}, got {', '.join(names) or 'none'}")
    return names


def _check_count(name: str, value: int, least: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
        raise ValueError(f"{name} must be an int of at least {least}, got {value!r}")
    return int(value)


def _read_resume(path: str, header: dict[str, Any]) -> dict[tuple[str, str, int], tuple[int, int]]:
    """The finished (a, b, deal) -> (a's result with the first side, with the second) of a resume
    file written with the same `header` (game, seed, budget); a ValueError naming the file and line
    of anything else. A last line cut short (a run killed while writing it: no newline at the end)
    is dropped from the file, its games played again."""
    done: dict[tuple[str, str, int], tuple[int, int]] = {}
    with open(path) as f:
        text = f.read()
    if text and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]
        with open(path, "w") as f:
            f.write(text)
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"resume file {path}, line {number}"
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"{where}: not JSON ({e.msg})") from None
        if not isinstance(rec, dict):
            raise ValueError(f"{where}: expected a JSON object")
        if number == 1:
            if rec.get("ladder") != header["ladder"]:
                raise ValueError(f"{where}: not a {header['ladder']} ladder's resume file")
            for key in ("seed", "budget"):
                if rec.get(key) != header[key]:
                    raise ValueError(f"{where}: written with {key} {rec.get(key)!r}, this ladder has {header[key]!r}")
            continue
        try:
            a, b, deal, results = rec["a"], rec["b"], rec["deal"], rec["results"]
            ok = (isinstance(a, str) and isinstance(b, str) and isinstance(deal, int) and deal >= 0
                  and isinstance(results, list) and len(results) == 2 and all(r in (-1, 0, 1) for r in results))
        except (KeyError, TypeError):
            ok = False
        if not ok:
            raise ValueError(f"{where}: expected {{\"a\", \"b\", \"deal\", \"results\": [r, r]}} with results in -1, 0, 1")
        done[(a, b, deal)] = (int(results[0]), int(results[1]))
    return done


def play_ladder(
    game: LadderGame,
    agents: str | Sequence[str] | None = None,
    deals: int | None = None,
    seed: int = 0,
    threads: int | None = None,
    budget: int | None = None,
    resume: str | os.PathLike[str] | None = None,
    bootstrap: int = BOOTSTRAP,
    progress: bool = False,
) -> LadderResult:
    """The round robin of `agents` on `deals` duplicate deals and its ratings (see the module).

    `threads`: games played at once (default: all cores). `resume`: a JSONL file each finished
    (pairing, deal) is appended to; the ones it holds already are not played again (a file of
    another game, seed or budget, or a malformed line, is a ValueError). Deterministic for a given
    `seed`, whatever `threads` and resuming."""
    names = check_agents(agents, game.agents, game.default_agents, file_agents=game.file_agents)
    deals = _check_count("deals", game.default_deals if deals is None else deals)
    seed = _check_count("seed", seed, 0)
    budget = _check_count("budget", game.default_budget if budget is None else budget)
    bootstrap = _check_count("bootstrap", bootstrap)
    threads = _check_count("threads", threads if threads is not None else (os.cpu_count() or 1))
    header = {"ladder": game.name, "seed": seed, "budget": budget}
    done: dict[tuple[str, str, int], tuple[int, int]] = {}
    if resume is not None:
        resume = os.fspath(resume)
        if os.path.exists(resume) and os.path.getsize(resume) > 0:
            done = _read_resume(resume, header)
        if not os.path.exists(resume) or os.path.getsize(resume) == 0:
            with open(resume, "w") as f:
                f.write(json.dumps(header) + "\n")

    def known(a: str, b: str, k: int) -> tuple[int, int] | None:
        if (a, b, k) in done:
            return done[(a, b, k)]
        if (b, a, k) in done:  # the same games from the other agent's view
            r1, r2 = done[(b, a, k)]
            return (-r2, -r1)
        return None

    pairs = list(combinations(names, 2))
    results = {p: np.zeros((deals, 2), dtype=np.int8) for p in pairs}
    todo: list[tuple[tuple[str, str], int]] = []
    for p in pairs:
        for k in range(deals):
            r = known(*p, k)
            if r is None:
                todo.append((p, k))
            else:
                results[p][k] = r
    if todo:
        game.prepare(names)
    bar = progress_bar(2 * len(todo), enabled=progress, desc=f"{game.name} ladder")
    # (pairing, deal)s per call: from one per thread, doubled while a call takes under a quarter
    # second, so that slow games still move the bar and reach the resume file often, and fast
    # ones are not held up by the calls (the results do not depend on it: each game has its seeds).
    # A call holds one pairing, and a new pairing starts again from one a thread: a chunk grown on
    # fast agents would otherwise hold the next pairing's searches for many minutes.
    chunk, start = threads, 0
    while start < len(todo):
        pairing = todo[start][0]
        units = [u for u in todo[start:start + chunk] if u[0] == pairing]
        start += len(units)
        began = time.perf_counter()
        specs = [game for (a, b), k in units for game in deal_games(a, b, seed, k)]
        out = game.play_games(specs, budget, threads)
        lines = []
        for i, ((a, b), k) in enumerate(units):
            r = (int(out[2 * i]), -int(out[2 * i + 1]))
            results[(a, b)][k] = r
            lines.append(json.dumps({"a": a, "b": b, "deal": k, "results": list(r)}))
        if resume is not None:
            with open(resume, "a") as f:
                f.write("\n".join(lines) + "\n")
        bar.update(2 * len(units))
        if start < len(todo) and todo[start][0] != pairing:
            chunk = threads
        elif time.perf_counter() - began < 0.25:
            chunk = min(2 * chunk, 4096)
    bar.close()
    return _rate(game.name, names, pairs, results, deals, seed, budget, bootstrap, game.sides)


def add_seat_score(score: np.ndarray, i: int, j: int, seat: int, won: float, games: int) -> None:
    """Adds to `score[s, i, j]` (`seat_elo`'s) `games` between entrant `i` in `seat` and `j` in the
    other, of which `i` scored `won` (a draw a half) and `j` the rest."""
    score[seat, i, j] += won
    score[1 - seat, j, i] += games - won


def _seat_scores(names: Sequence[str], pairs: Sequence[tuple[str, str]], results: dict[Any, np.ndarray],
                 idx: np.ndarray | None = None) -> np.ndarray:
    """score[s, i, j]: what `names[i]` in seat `s` scored against `names[j]` in the other, on the
    deals `idx` (default all); summed over the seats, what `names[i]` scored against `names[j]`."""
    m = np.zeros((2, len(names), len(names)))
    for a, b in pairs:
        r = results[(a, b)] if idx is None else results[(a, b)][idx]
        i, j = names.index(a), names.index(b)
        for s in (0, 1):  # column s: a in seat s, b in the other
            add_seat_score(m, i, j, s, float(((r[:, s] + 1) / 2).sum()), r.shape[0])
    return m


def seat_ratings(point: np.ndarray, fits: np.ndarray, sides: Sequence[str]) -> list[list[dict[str, Any]]]:
    """Each entrant's `by_seat` entries (side, rating, ci95) from `seat_elo`'s fit `point` and its
    bootstrap `fits` (resamples × entrants × 2): the intervals their 2.5th and 97.5th percentiles."""
    lo, hi = np.percentile(fits, [2.5, 97.5], axis=0)
    # (+ 0.0: a centred rating can round to -0.0)
    return [[{"side": side, "rating": round(float(point[i, s]), 2) + 0.0,
              "ci95": [round(float(lo[i, s]), 2) + 0.0, round(float(hi[i, s]), 2) + 0.0]}
             for s, side in enumerate(sides)] for i in range(len(point))]


def _rate(game: str, names: list[str], pairs: list[tuple[str, str]], results: dict[Any, np.ndarray], deals: int,
          seed: int, budget: int, bootstrap: int, sides: tuple[str, str]) -> LadderResult:
    anchor = ANCHOR if ANCHOR in names else names[0]
    by_seat = len(names) >= 3  # two agents alone leave the seats' scales apart (seat_elo)
    seat_score = _seat_scores(names, pairs, results)
    score = seat_score.sum(axis=0)
    elo = bt_elo(names, score, anchor)
    centre = float(elo.mean())
    fits, seat_fits = [], []
    for idx in bootstrap_indices(deals, bootstrap, seed):
        resampled = _seat_scores(names, pairs, results, idx)
        fits.append(bt_elo(names, resampled.sum(axis=0), anchor))
        if by_seat:
            seat_fits.append(seat_elo(names, resampled, centre))
    lo, hi = np.percentile(np.array(fits), [2.5, 97.5], axis=0)
    games = 2 * deals * (len(names) - 1)
    agents = [
        {"agent": n, "rating": round(float(elo[i]), 2), "ci95": [round(float(lo[i]), 2), round(float(hi[i]), 2)],
         "games": games, "score": round(float(score[i].sum() / games), 4)}
        for i, n in enumerate(names)
    ]
    if by_seat:
        for a, entries in zip(agents, seat_ratings(seat_elo(names, seat_score, centre), np.array(seat_fits), sides)):
            a["by_seat"] = entries
    agents.sort(key=lambda a: -a["rating"])
    pairings = []
    for a, b in pairs:
        r = results[(a, b)]
        wins, draws, losses = int((r == 1).sum()), int((r == 0).sum()), int((r == -1).sum())
        pairings.append({
            "a": a, "b": b, "deals": deals, "games": int(r.size), "wins": wins, "draws": draws, "losses": losses,
            "score": round((wins + draws / 2) / r.size, 4),
            # a's results with the game's first side, then with the second
            "by_seat": [{"side": sides[s], "wins": int((r[:, s] == 1).sum()), "draws": int((r[:, s] == 0).sum()),
                         "losses": int((r[:, s] == -1).sum())} for s in (0, 1)],
        })
    settings = {"deals": deals, "seed": seed, "budget": budget, "bootstrap": bootstrap, "anchor": anchor,
                "scale": "elo", "fit": "bradley-terry (choix.ilsr_pairwise_dense)"}
    return LadderResult(game, agents, pairings, settings)


# -- Outputs ---------------------------------------------------------------------------------------


def write_output(result: Any, path: str) -> None:
    """`-o FILE`: the JSON (a `.json` name) or the ratings as CSV (any other name)."""
    if path.lower().endswith(".json"):
        with open(path, "w") as f:
            f.write(json.dumps(result.to_dict(), indent=2) + "\n")
        return
    rows = result.csv_rows() if hasattr(result, "csv_rows") else [
        {"agent": a["agent"], "rating": a["rating"], "ci95_low": a["ci95"][0], "ci95_high": a["ci95"][1],
         "games": a["games"], "score": a["score"],
         **{f"{k}_as_{s['side']}": v for s in a.get("by_seat", ())
            for k, v in (("rating", s["rating"]), ("ci95_low", s["ci95"][0]), ("ci95_high", s["ci95"][1]))}}
        for a in result.agents]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def plot_ratings(result: Any, path: str, xlabel: str = "rating (Elo, random = 0)") -> None:
    """The ratings with their 95 % intervals, best on top (PNG; needs matplotlib, `maquis[plot]`)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise RuntimeError("--plot needs matplotlib: pip install 'maquis[plot]'") from e
    rows = [a for a in result.agents if a.get("rating") is not None][::-1]
    fig, ax = plt.subplots(figsize=(6, 0.5 * len(rows) + 1.2))
    y = np.arange(len(rows))
    x = np.array([a["rating"] for a in rows], dtype=float)
    err = np.array([[a["rating"] - (a["ci95"][0] if a["ci95"][0] is not None else a["rating"]),
                     (a["ci95"][1] if a["ci95"][1] is not None else a["rating"]) - a["rating"]] for a in rows],
                   dtype=float).reshape(-1, 2).T
    ax.errorbar(x, y, xerr=err if len(rows) else None, fmt="o", capsize=3)
    ax.set_yticks(y, [a["agent"] for a in rows])
    ax.set_xlabel(xlabel)
    ax.set_title(f"{result.game} ladder")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# -- The verb --------------------------------------------------------------------------------------


def add_output_arguments(p: Any, deals_default: int) -> None:
    """The flags every game's `ladder` has."""
    p.add_argument("--deals", type=int, default=deals_default, metavar="N",
                   help=f"deals played (default {deals_default})")
    add_seed(p, "seed of the deals and the agents' streams")
    p.add_argument("--threads", type=int, default=None, metavar="T", help="games played at once (default: all cores)")
    p.add_argument("--bootstrap", type=int, default=BOOTSTRAP, metavar="N",
                   help=f"bootstrap resamples of the deals for the 95%% intervals (default {BOOTSTRAP})")
    p.add_argument("--json", action="store_true", help="print the JSON instead of the tables")
    p.add_argument("-o", "--output", metavar="FILE", default=None, help="also write the result: JSON (.json) or CSV")
    p.add_argument("--plot", metavar="PNG", default=None,
                   help="also write a chart of the ratings (needs matplotlib: maquis[plot])")
    add_no_progress(p)


def add_ladder_arguments(p: Any, game: LadderGame) -> None:
    """`maquis <game> ladder`'s flags for a two-player game."""
    extra = [a for a in game.agents if a not in game.default_agents]
    p.add_argument(
        "--agents", default=None, metavar="A,B,C",
        help=f"comma-separated agents: {', '.join(game.agents)} (default: {','.join(game.default_agents)}"
        + (f"; {', '.join(extra)} left out by default: slow)" if extra else ")")
        + (f"; {game.agents_note}" if game.agents_note else "")
        + (f"; {' and '.join(f'{a}@FILE' for a in game.file_agents)} play a weight file of your own"
           if game.file_agents else ""),
    )
    add_output_arguments(p, game.default_deals)
    p.add_argument("--budget", type=int, default=game.default_budget, metavar="B",
                   help=f"simulations per decision of the search levels (default {game.default_budget})")
    p.add_argument("--resume", metavar="FILE", default=None,
                   help="JSONL file of finished (pairing, deal) results: appended to, and those it holds not replayed")


def report(prog: str, args: Any, result: Any, xlabel: str = "rating (Elo, random = 0)") -> int:
    """Prints the tables (or `--json`), writes `-o` and `--plot`; an error of theirs exits 2."""
    try:
        if args.plot:
            plot_ratings(result, args.plot, xlabel)
        if args.output:
            write_output(result, args.output)
    except (OSError, RuntimeError) as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    if args.json:
        sys.stdout.write(result.to_json(indent=2) + "\n")
    else:
        print(result.to_text())
        for path in (args.output, args.plot):
            if path:
                print(f"wrote {path}")
    return 0


def run_ladder(args: Any, game: LadderGame) -> int:
    """`maquis <game> ladder`: a ValueError (an unknown agent, `--deals 0`, a bad resume file) is a
    usage error, exit 2."""
    from .registry import game as declared

    prog = declared(game.name).command("ladder")
    try:
        result = play_ladder(game, args.agents, args.deals, args.seed, args.threads, args.budget, args.resume,
                             args.bootstrap, progress=not args.no_progress)
    except (ValueError, OSError, ImportError) as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    return report(prog, args, result)

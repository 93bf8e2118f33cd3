"""Putting a user's policy on a two-player game's ladder (`maquis <game> rate`), and the
sequential test of it against one level (`--sprt ELO0,ELO1 --against LEVEL`).

The policy plays in Python (`maquis.common.policies.as_actor`), so its games run on the game's
vector env with the bundled opponent inside (`opponent=`, `side=`), `num_envs` games at a time.
Deal `k` is the environment reset with `maquis.common.ladder.deal_seed(seed, k)` (the ladder's
deal seeds), played once in each seat: the same deal, the policy on one side and then the other,
so that the luck of the deal and of the seat cancels within a pair, as in the ladder. (The
ladder's Rust runner seeds the game and each agent's stream separately; the vector env draws the
opponent's stream from the same seed, so a deal here is the ladder's deal index, not its exact
dice.)

Rating: the policy's results against every agent of the pool are added to the pool's own games
(its pairings from a ladder JSON, `--ladder FILE`, or played on the fly by the ladder's Rust
runner) and the whole is fitted by the ladder's Bradley–Terry fit (`bt_elo`, Elo scale, random at
0). The 95 % interval: percentiles of `bootstrap` refits, the policy's deals resampled (both games
of a deal together) and each pool pairing's wins, draws and losses redrawn from their observed
frequencies (a ladder JSON keeps totals only, not its deals).

By seat: when the games join every entrant's two seats (a pool of three agents or more, or two
opponents or more played) and the pool gives its W-D-L by seat, the policy is also rated in each
seat (`maquis.common.ladder.seat_elo`: each entrant once in each seat, each seat centred on the
mean of the overall ratings), with the same kind of interval: what a policy trained for one side
is worth on that side.

SPRT: see `sprt`; between two agents of the ladder's Rust runner (two networks: the training's
gate, `maquis.train.iteration`), `sprt_agents`.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .ladder import ANCHOR, BOOTSTRAP, LadderGame, add_seat_score, bt_elo, deal_games, deal_seed, seat_elo, seat_ratings
from .policies import PolicyError, as_actor

__all__ = ["VersusGame", "RateResult", "SprtResult", "play_policy", "rate", "sprt", "llr_pentanomial",
           "add_rate_arguments", "run_rate"]

OUTCOME = {"win": 1, "draw": 0, "loss": -1}


@dataclass(frozen=True)
class VersusGame:
    """What rating a policy needs of a two-player game: its ladder (`LadderGame`, which names the
    sides) and `make_env(n, side, opponent, budget, threads)`: a vector env of `n` games of the
    learner on `side` against the bundled `opponent`."""

    ladder: LadderGame
    make_env: Callable[[int, str, str, int, int | None], Any]
    #: the agents a pool played on the fly has by default (the fast ones)
    fast_agents: tuple[str, ...] = ("random", "heuristic")

    @property
    def name(self) -> str:
        return self.ladder.name

    @property
    def sides(self) -> tuple[str, str]:
        """The game's sides, the ladder's first side first."""
        return self.ladder.sides


def check_level(game: VersusGame, level: str) -> str:
    if level not in game.ladder.agents:
        raise ValueError(f"unknown level {level!r} (choose from {', '.join(game.ladder.agents)})")
    return level


def play_policy(game: VersusGame, act: Callable[[np.ndarray, np.ndarray], np.ndarray], opponent: str, deals: Sequence[int],
                seed: int, side: str, budget: int | None = None, num_envs: int = 64, threads: int | None = None,
                update: Callable[[int], Any] = lambda n: None) -> np.ndarray:
    """The policy's result (1 / 0 / -1) on `side` against `opponent` on each deal of `deals` (deal
    `k` reset with `deal_seed(seed, k)`), in that order. `num_envs` games at a time: an
    environment whose game ends is reset at once with the next deal (so no environment plays a
    game that is not counted, which matters against the slow search levels); a deal's result
    does not depend on `num_envs` for a policy without a stream of its own."""
    check_level(game, opponent)
    deals = list(deals)
    out = np.zeros(len(deals), dtype=np.int8)
    if not deals:
        return out
    n = max(1, min(num_envs, len(deals)))
    vec = game.make_env(n, side, opponent, game.ladder.default_budget if budget is None else budget, threads)
    try:
        obs, info = vec.reset(seed=[deal_seed(seed, deals[i]) for i in range(n)])
        obs, masks = np.array(obs), np.asarray(info["action_mask"]).astype(bool)
        playing = np.arange(n)  # the index in `deals` each environment plays, -1 when it is done
        nxt = n
        while (playing >= 0).any():
            live = playing >= 0
            actions = masks.argmax(1).astype(np.int64)  # the rows done: any action (their steps are not counted)
            idx = np.flatnonzero(live)
            actions[idx] = act(obs[idx], masks[idx])
            o, _, terminated, truncated, infos = vec.step(actions)
            obs, masks = np.array(o), np.asarray(infos["action_mask"]).astype(bool)
            ended = (terminated | truncated) & live
            if not ended.any():
                continue
            refill = np.zeros(n, dtype=bool)
            for i in np.flatnonzero(ended):
                out[playing[i]] = OUTCOME[str(infos["outcome"][i])]
                if nxt < len(deals):
                    playing[i], refill[i] = nxt, True
                    nxt += 1
                else:
                    playing[i] = -1
            update(int(ended.sum()))
            if refill.any():
                seeds = [deal_seed(seed, deals[playing[i]]) if refill[i] else None for i in range(n)]
                o, info = vec.reset(seed=seeds, options={"reset_mask": refill})
                obs[refill] = np.asarray(o)[refill]
                masks[refill] = np.asarray(info["action_mask"])[refill].astype(bool)
    finally:
        vec.close()
    return out


def play_pairs(game: VersusGame, act: Callable, opponent: str, deals: Sequence[int], seed: int, **kw: Any) -> np.ndarray:
    """(len(deals), 2): the policy's results on each deal with the first side, then the second."""
    return np.stack([play_policy(game, act, opponent, deals, seed, s, **kw) for s in game.sides], axis=1)


# -- Rating --------------------------------------------------------------------------------------


@dataclass
class RateResult:
    """`rate`'s outcome: the policy's `rating` and `ci95`, its ratings by seat (`by_seat`: side,
    rating, ci95 for each side; empty when the games do not join the two seats), its results per opponent, and the
    ratings of the whole pool refitted with it (`agents`, best first, each with its `by_seat`)."""

    game: str
    policy: str
    rating: float
    ci95: list[float]
    opponents: list[dict[str, Any]]
    agents: list[dict[str, Any]]
    settings: dict[str, Any] = field(default_factory=dict)
    by_seat: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "policy": self.policy, "rating": self.rating, "ci95": self.ci95,
                "by_seat": self.by_seat, "opponents": self.opponents, "agents": self.agents, "settings": self.settings}

    def to_json(self, **kw: Any) -> str:
        return json.dumps(self.to_dict(), **kw)

    def to_text(self) -> str:
        lo, hi = self.ci95
        lines = [f"{self.policy}: rating {self.rating:.1f} [{lo:.1f}, {hi:.1f}] (Elo, {self.settings['anchor']} = 0, 95% CI)"]
        lines += [f"  as {b['side']}: {b['rating']:.1f} [{b['ci95'][0]:.1f}, {b['ci95'][1]:.1f}] (by seat, each seat "
                  "centred on the overall mean)" for b in self.by_seat]
        lines.append("")
        head = f"{'against':<16}{'games':>7}{'wins':>7}{'draws':>7}{'losses':>7}{'score':>8}"
        lines += [head, "-" * len(head)]
        for o in self.opponents:
            lines.append(f"{o['agent']:<16}{o['games']:>7}{o['wins']:>7}{o['draws']:>7}{o['losses']:>7}"
                         f"{100 * o['score']:>7.1f}%")
        w = max(16, *(len(a["agent"]) + 2 for a in self.agents))
        head = f"{'agent':<{w}}{'rating':>8}  {'95% CI':<18}" + "".join(
            f"  {'as ' + b['side']:>10}  {'95% CI':<18}" for b in self.by_seat)
        lines += ["", head.rstrip(), "-" * len(head.rstrip())]
        for a in self.agents:
            lo, hi = a["ci95"]
            lines.append((f"{a['agent']:<{w}}{a['rating']:>8.1f}  {f'[{lo:.1f}, {hi:.1f}]':<18}" + "".join(
                f"  {b['rating']:>10.1f}  {'[{:.1f}, {:.1f}]'.format(*b['ci95']):<18}" for b in a.get("by_seat", ())
            )).rstrip())
        s = self.settings
        lines += ["", f"{s['deals']} deals per opponent, each played in both seats, seed {s['seed']}; pool: {s['pool']}; "
                      f"Bradley-Terry on the Elo scale; 95% CI: {s['bootstrap']} bootstrap refits"]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()


def _pool_pairings(pool: Any, game: str | None = None) -> tuple[list[str], list[dict[str, Any]], str, dict[str, Any]]:
    """(agent names, pairings {a, b, wins, draws, losses}, description, settings) of a ladder JSON
    path, a dict of one, or a `LadderResult`; a ValueError naming a file that is not a two-player
    ladder (of `game`, when given)."""
    where = "the pool"
    if isinstance(pool, (str, os.PathLike)):
        where = os.fspath(pool)
        try:
            with open(pool) as f:
                pool = json.load(f)
        except json.JSONDecodeError as e:
            raise ValueError(f"{where}: not JSON ({e.msg})") from None
    if hasattr(pool, "to_dict"):
        pool = pool.to_dict()
    if game is not None and isinstance(pool, dict) and pool.get("game", game) != game:
        raise ValueError(f"{where}: a ladder of {pool.get('game')!r}, not of {game!r}")
    try:
        names = [a["agent"] for a in pool["agents"]]
        pairings = [{k: (p[k] if k in ("a", "b") else int(p[k])) for k in ("a", "b", "wins", "draws", "losses")}
                    for p in pool["pairings"]]
        for p, q in zip(pairings, pool["pairings"]):
            # a's W-D-L in each seat, when the ladder says (the ratings by seat need them)
            if isinstance(q.get("by_seat"), list) and len(q["by_seat"]) == 2:
                p["seats"] = [tuple(int(b[k]) for k in ("wins", "draws", "losses")) for b in q["by_seat"]]
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"{where}: not a two-player ladder's JSON (expected agents and pairings with wins, "
                         f"draws, losses; {type(e).__name__}: {e})") from None
    for p in pairings:
        if p["a"] not in names or p["b"] not in names:
            raise ValueError(f"{where}: pairing {p['a']} v {p['b']} names an agent not in its agents")
    settings = pool.get("settings") if isinstance(pool.get("settings"), dict) else {}
    return names, pairings, where, settings


def _fit(names: list[str], pool: list[dict[str, Any]], mine: dict[str, np.ndarray], me: str) -> np.ndarray:
    """Bradley–Terry of the pool's pairings (w, d, l) plus the policy's games `mine[agent]` (deals, 2)."""
    allnames = names + [me]
    score = np.zeros((len(allnames), len(allnames)))
    for p in pool:
        i, j = allnames.index(p["a"]), allnames.index(p["b"])
        games = p["wins"] + p["draws"] + p["losses"]
        s = p["wins"] + p["draws"] / 2
        score[i, j] += s
        score[j, i] += games - s
    k = len(names)
    for a, r in mine.items():
        j = allnames.index(a)
        s = float(((r + 1) / 2).sum())
        score[k, j] += s
        score[j, k] += r.size - s
    return bt_elo(allnames, score, ANCHOR if ANCHOR in allnames else allnames[0])


def _seat_fit(names: list[str], pool: list[dict[str, Any]], mine: dict[str, np.ndarray], me: str,
              centre: float) -> np.ndarray:
    """`seat_elo` of the pool's pairings' W-D-L by seat (`seats`) plus the policy's games
    `mine[agent]` (deals, 2: column s the policy in seat s): shape (len(names) + 1, 2)."""
    allnames = names + [me]
    score = np.zeros((2, len(allnames), len(allnames)))
    for p in pool:
        i, j = allnames.index(p["a"]), allnames.index(p["b"])
        for seat, (w, d, l_) in enumerate(p["seats"]):
            add_seat_score(score, i, j, seat, w + d / 2, w + d + l_)
    k = len(names)
    for a, r in mine.items():
        for seat in (0, 1):
            add_seat_score(score, k, allnames.index(a), seat, float(((r[:, seat] + 1) / 2).sum()), r.shape[0])
    return seat_elo(allnames, score, centre)


def _redraw(rng: np.random.Generator, wdl: tuple[int, int, int]) -> tuple[int, int, int]:
    """W-D-L redrawn from their own frequencies (a pool pairing's bootstrap: the JSON has no deals)."""
    g = sum(wdl)
    return tuple(int(x) for x in rng.multinomial(g, [x / g for x in wdl])) if g else (0, 0, 0)


def rate(game: VersusGame, policy: Any, pool: Any = None, agents: str | Sequence[str] | None = None, deals: int = 100,
         seed: int = 0, threads: int | None = None, budget: int | None = None, bootstrap: int = BOOTSTRAP,
         num_envs: int = 64, device: str = "cpu", progress: bool = False) -> RateResult:
    """`policy` (see `maquis.common.policies`) on `game`'s ladder: it plays every agent of the
    pool on `deals` deals in both seats and is fitted with the pool's games (see the module).

    `pool`: a ladder JSON (path, dict or `LadderResult`); None plays the ladder of `agents`
    (default the game's fast ones) on the fly on the same deals. `agents` with a pool: the agents
    the policy plays (default all of the pool's). `budget`: the search levels' simulations (default
    the pool's, else the game's). A ValueError names bad input."""
    from .ladder import _check_count, check_agents, play_ladder
    from .progress import progress_bar

    deals = _check_count("deals", deals)
    seed = _check_count("seed", seed, 0)
    bootstrap = _check_count("bootstrap", bootstrap)
    if pool is None:
        budget = _check_count("budget", game.ladder.default_budget if budget is None else budget)
        names = check_agents(agents, game.ladder.agents, game.fast_agents, least=1)
        ladder = play_ladder(game.ladder, names, deals, seed, threads, budget, bootstrap=1) if len(names) > 1 else None
        pairings = [] if ladder is None else _pool_pairings(ladder)[1]
        where = f"{', '.join(names)} played now"
        opponents = names
    else:
        names, pairings, where, pool_settings = _pool_pairings(pool, game.name)
        # the search levels play at the pool's budget unless told
        budget = _check_count("budget", budget if budget is not None else pool_settings.get(
            "budget", game.ladder.default_budget))
        for n in names:
            check_level(game, n)
        opponents = check_agents(agents, names, names, least=1)
    name, act = as_actor(policy, game.name, seed, device)
    me = name if name not in names else f"{name} (policy)"
    bar = progress_bar(2 * deals * len(opponents), enabled=progress, desc=f"{game.name} rate")
    mine = {a: play_pairs(game, act, a, range(deals), seed, budget=budget, num_envs=num_envs, threads=threads,
                          update=bar.update) for a in opponents}
    bar.close()
    elo = _fit(names, pairings, mine, me)
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0x4A7E,)))
    fits = []
    for _ in range(bootstrap):
        idx = rng.integers(0, deals, size=deals)
        boot_pool = []
        for p in pairings:
            g = p["wins"] + p["draws"] + p["losses"]
            w, d, l_ = rng.multinomial(g, [p["wins"] / g, p["draws"] / g, p["losses"] / g]) if g else (0, 0, 0)
            boot_pool.append({**p, "wins": int(w), "draws": int(d), "losses": int(l_)})
        fits.append(_fit(names, boot_pool, {a: r[idx] for a, r in mine.items()}, me))
    lo, hi = np.percentile(np.array(fits), [2.5, 97.5], axis=0)
    allnames = names + [me]
    rows = [{"agent": n, "rating": round(float(elo[i]), 2), "ci95": [round(float(lo[i]), 2), round(float(hi[i]), 2)]}
            for i, n in enumerate(allnames)]
    seat_rows: list[list[dict[str, Any]]] = [[] for _ in allnames]
    centre, seat = float(elo.mean()), None
    if len(allnames) >= 3 and all("seats" in p for p in pairings):
        try:
            seat = _seat_fit(names, pairings, mine, me, centre)
        except ValueError:  # opponents too few to join the seats (seat_elo): none by seat
            pass
    if seat is not None:
        # its own stream: the overall intervals stay what they were
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0x5EA7,)))
        seat_fits = []
        for _ in range(bootstrap):
            idx = rng.integers(0, deals, size=deals)
            boot_pool = [{**p, "seats": [_redraw(rng, wdl) for wdl in p["seats"]]} for p in pairings]
            seat_fits.append(_seat_fit(names, boot_pool, {a: r[idx] for a, r in mine.items()}, me, centre))
        seat_rows = seat_ratings(seat, np.array(seat_fits), game.sides)
        for row, by in zip(rows, seat_rows):
            row["by_seat"] = by
    rows.sort(key=lambda r: -r["rating"])
    opp_rows = []
    for a, r in mine.items():
        wins, draws, losses = int((r == 1).sum()), int((r == 0).sum()), int((r == -1).sum())
        opp_rows.append({"agent": a, "games": int(r.size), "wins": wins, "draws": draws, "losses": losses,
                         "score": round((wins + draws / 2) / r.size, 4),
                         "by_seat": [{"side": s, "wins": int((r[:, k] == 1).sum()), "draws": int((r[:, k] == 0).sum()),
                                      "losses": int((r[:, k] == -1).sum())} for k, s in enumerate(game.sides)]})
    k = len(names)
    settings = {"deals": deals, "seed": seed, "budget": budget, "bootstrap": bootstrap, "pool": where,
                "anchor": ANCHOR if ANCHOR in allnames else allnames[0], "scale": "elo",
                "fit": "bradley-terry (choix.ilsr_pairwise_dense)"}
    return RateResult(game.name, me, round(float(elo[k]), 2), [round(float(lo[k]), 2), round(float(hi[k]), 2)],
                      opp_rows, rows, settings, seat_rows[k])


# -- SPRT ----------------------------------------------------------------------------------------


def expected_score(elo: float) -> float:
    """The score of a player `elo` points above its opponent (logistic Elo)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


#: The pentanomial bins of a pair's score (the two games' points over 2).
BINS = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
#: Pseudo-pairs added to every bin for the variance only (a run of identical pairs would have
#: none, and its LLR no bound).
PRIOR = 0.5


def llr_pentanomial(counts: Sequence[float], elo0: float, elo1: float, scores: Sequence[float] = BINS) -> float:
    """The GSPRT log-likelihood ratio of H1 (the policy is `elo1` above the level) against H0
    (`elo0` above) after pairs of pentanomial `counts` (pair scores 0, 1/4, 1/2, 3/4, 1): the
    normal approximation Fishtest uses, N (s1 - s0) (2 m - s0 - s1) / (2 v), with m the mean pair
    score, v its variance (counts plus `PRIOR` per bin) and s0, s1 the expected scores. `scores`:
    the pair scores of the bins (the trinomial test of the solitaire: 0, 1/2, 1).

    >>> round(llr_pentanomial([0, 0, 10, 0, 0], 0, 50), 3) < 0
    True
    """
    c = np.asarray(counts, dtype=np.float64)
    x = np.asarray(scores, dtype=np.float64)
    if c.shape != x.shape:
        raise ValueError(f"{len(x)} counts expected, got {c.shape}")
    n = c.sum()
    if n == 0:
        return 0.0
    m = float((c * x).sum() / n)
    r = c + PRIOR
    mr = float((r * x).sum() / r.sum())
    v = float((r * (x - mr) ** 2).sum() / r.sum())
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v)


@dataclass
class SprtResult:
    """A sequential test's outcome: `decision` ("H1": the policy is at least `elo1` above the
    level, "H0": at most `elo0`, or "none" when `max_pairs` ran out), the `llr` and its `bounds`,
    the `pairs` played and their pentanomial counts."""

    game: str
    policy: str
    against: str
    elo0: float
    elo1: float
    alpha: float
    beta: float
    llr: float
    bounds: list[float]
    pairs: int
    counts: list[int]
    decision: str
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def score(self) -> float:
        """The mean pair score, 0..1: the bins' scores (pentanomial, trinomial or `THROUGH_BINS`,
        by the number of counts) weighted by the counts."""
        bins = BINS if len(self.counts) == 5 else np.linspace(0, 1, len(self.counts))
        return float((np.array(self.counts) * bins).sum() / max(self.pairs, 1))

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("game", "policy", "against", "elo0", "elo1", "alpha", "beta", "llr",
                                              "bounds", "pairs", "counts", "decision", "settings")}

    def to_json(self, **kw: Any) -> str:
        return json.dumps(self.to_dict(), **kw)

    def to_text(self) -> str:
        said = {"H1": f"H1 accepted: {self.policy} is stronger than {self.against} by at least {self.elo1:g} Elo",
                "H0": f"H0 accepted: {self.policy} is not {self.elo1:g} Elo stronger than {self.against} "
                      f"(at most {self.elo0:g})",
                "none": f"no decision after {self.pairs} pairs (--max-pairs)"}[self.decision]
        through = self.settings.get("through")
        kind = (f"through {through}" if through else
                {5: "pentanomial", 3: "trinomial"}.get(len(self.counts), f"{len(self.counts)} bins"))
        return "\n".join([
            f"SPRT {self.policy} v {self.against}: elo0 {self.elo0:g}, elo1 {self.elo1:g}, alpha {self.alpha:g}, "
            f"beta {self.beta:g}",
            f"LLR {self.llr:.3f}  bounds [{self.bounds[0]:.3f}, {self.bounds[1]:.3f}]  pairs {self.pairs}  "
            f"pair score {100 * self.score:.1f}%  {kind} {self.counts}",
            said,
        ])

    def __str__(self) -> str:
        return self.to_text()


def sprt_bounds(elo0: float, elo1: float, alpha: float, beta: float) -> tuple[float, float]:
    """Wald's (lower, upper) LLR bounds; a ValueError for ELO0 >= ELO1 or an error rate outside (0, 0.5)."""
    if not elo1 > elo0:
        raise ValueError(f"--sprt needs ELO0 < ELO1, got {elo0:g}, {elo1:g}")
    for what, x in (("alpha", alpha), ("beta", beta)):
        if not 0 < x < 0.5:
            raise ValueError(f"{what} must be in (0, 0.5), got {x}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _pentanomial_bin(r: np.ndarray) -> int:
    """A head-to-head pair's bin: (r0 + 1)/2 + (r1 + 1)/2 over 2, in quarters."""
    return int(r[0] + r[1] + 2)


def _through_bin(r: np.ndarray) -> int:
    """A pair's bin through a reference (`THROUGH_BINS`): 4 + the candidate's two results less
    the other's, on the same deal and seats."""
    return int(r[0] + r[1] - r[2] - r[3] + 4)


#: The bins of a pair played through a reference (`sprt_through`): ½ + (the candidate's points
#: − the other's points) / 4, in eighths.
THROUGH_BINS = np.linspace(0.0, 1.0, 9)


def sequential_test(play: Callable[[range], np.ndarray], elo0: float, elo1: float, alpha: float = 0.05,
                    beta: float = 0.05, max_pairs: int = 20_000, batch: int = 64, scores: np.ndarray = BINS,
                    bin_of: Callable[[np.ndarray], int] = _pentanomial_bin
                    ) -> tuple[float, tuple[float, float], int, np.ndarray, str]:
    """The pentanomial GSPRT's loop over pairs of games: `play(deals)` gives the tested side's
    results (1 / 0 / -1) on each deal of `deals` in both seats, shape (len(deals), 2). Returns
    (LLR, bounds, pairs, pentanomial counts, decision "H1" / "H0" / "none"); see `sprt`. `scores`
    and `bin_of` (a row of `play`'s to its bin) test pairs of another shape (`sprt_through`)."""
    lower, upper = sprt_bounds(elo0, elo1, alpha, beta)
    counts = np.zeros(len(scores), dtype=np.int64)
    pairs, llr, decision = 0, 0.0, "none"
    while pairs < max_pairs and decision == "none":
        res = play(range(pairs, min(pairs + batch, max_pairs)))
        for r in res:
            counts[bin_of(r)] += 1
            pairs += 1
            llr = llr_pentanomial(counts, elo0, elo1, scores)
            if llr >= upper:
                decision = "H1"
            elif llr <= lower:
                decision = "H0"
            if decision != "none":
                break
    return llr, (lower, upper), pairs, counts, decision


def _sprt_result(game: str, name: str, against: str, elo0: float, elo1: float, alpha: float, beta: float,
                 test: tuple[float, tuple[float, float], int, np.ndarray, str], settings: dict[str, Any]) -> SprtResult:
    llr, (lower, upper), pairs, counts, decision = test
    return SprtResult(game, name, against, float(elo0), float(elo1), alpha, beta, round(llr, 4),
                      [round(lower, 4), round(upper, 4)], pairs, [int(c) for c in counts], decision,
                      {**settings, "test": "pentanomial GSPRT (logistic Elo, normal approximation)",
                       "prior_per_bin": PRIOR})


def sprt(game: VersusGame, policy: Any, against: str, elo0: float, elo1: float, alpha: float = 0.05,
         beta: float = 0.05, max_pairs: int = 20_000, seed: int = 0, batch: int = 64, budget: int | None = None,
         threads: int | None = None, device: str = "cpu") -> SprtResult:
    """The pentanomial GSPRT of `policy` against the level `against`: pairs are deals played in
    both seats (deal k: `deal_seed(seed, k)`), a pair's score the policy's points over 2 (0, 1/4,
    1/2, 3/4, 1). After each pair the LLR (`llr_pentanomial`) is compared with the bounds
    log(beta / (1 - alpha)) and log((1 - beta) / alpha): above the upper, H1 (the policy is
    `elo1` Elo above the level) is accepted, below the lower H0 (`elo0` above); `alpha` is the
    chance of accepting H1 when the truth is elo0, `beta` that of accepting H0 when it is elo1.
    Pairs are played `batch` at a time and examined in deal order, so the test stops at the first
    pair that crosses a bound (the rest of that batch is not counted)."""
    check_level(game, against)
    sprt_bounds(elo0, elo1, alpha, beta)
    name, act = as_actor(policy, game.name, seed, device)

    def play(deals: range) -> np.ndarray:
        return play_pairs(game, act, against, deals, seed, budget=budget, num_envs=batch, threads=threads)

    test = sequential_test(play, elo0, elo1, alpha, beta, max_pairs, batch)
    return _sprt_result(game.name, name, against, elo0, elo1, alpha, beta, test,
                        {"seed": seed, "max_pairs": max_pairs})


def agent_pairs(ladder: LadderGame, a: str, b: str, deals: Sequence[int], seed: int, budget: int,
                threads: int = 1) -> np.ndarray:
    """(len(deals), 2): agent `a`'s results against agent `b` (ids of `ladder.play_games`, which
    for a game with a network include `network@FILE`) on each deal, `a` in the first seat and then
    in the second; the ladder's deals (`deal_games`), played in Rust."""
    specs = [g for k in deals for g in deal_games(a, b, seed, k)]
    out = np.asarray(ladder.play_games(specs, budget, threads), dtype=np.int8).reshape(-1, 2)
    return np.stack([out[:, 0], -out[:, 1]], axis=1)  # the second game's first seat is b's


def sprt_agents(ladder: LadderGame, a: str, b: str, elo0: float, elo1: float, alpha: float = 0.05,
                beta: float = 0.05, max_pairs: int = 20_000, seed: int = 0, batch: int = 64, budget: int | None = None,
                threads: int = 1) -> SprtResult:
    """`sprt` between two agents played by the ladder's Rust runner (`agent_pairs`): H1 `a` is
    `elo1` Elo above `b`, H0 `elo0` above. Both agents are ids of `ladder.play_games`; levels
    with a stream draw it from the deal (`deal_games`), so a test is the same for any `threads`."""
    budget = ladder.default_budget if budget is None else budget
    sprt_bounds(elo0, elo1, alpha, beta)

    def play(deals: range) -> np.ndarray:
        return agent_pairs(ladder, a, b, deals, seed, budget, threads)

    test = sequential_test(play, elo0, elo1, alpha, beta, max_pairs, batch)
    return _sprt_result(ladder.name, a, b, elo0, elo1, alpha, beta, test,
                        {"seed": seed, "max_pairs": max_pairs, "budget": budget})


def sprt_through(ladder: LadderGame, a: str, b: str, reference: str, elo0: float, elo1: float,
                 alpha: float = 0.05, beta: float = 0.05, max_pairs: int = 20_000, seed: int = 0, batch: int = 64,
                 budget: int | None = None, threads: int = 1) -> SprtResult:
    """As `sprt_agents`, for two agents that draw every game against each other (Maurice Lite's
    networks): `a` and `b` each play `reference` on the same deal from both seats, and the pair's
    score is ½ + (a's points − b's points) / 4 (nine bins, `THROUGH_BINS`). The GSPRT is the same
    normal approximation on that score, so H1 says `a`'s points against the reference exceed
    `b`'s by at least what `elo1` Elo are worth head-to-head: 4 × (expected_score(elo1) − ½) a
    pair (20 Elo: 0.115 points, 2.9 points in a hundred a game)."""
    budget = ladder.default_budget if budget is None else budget
    sprt_bounds(elo0, elo1, alpha, beta)

    def play(deals: range) -> np.ndarray:
        return np.concatenate([agent_pairs(ladder, a, reference, deals, seed, budget, threads),
                               agent_pairs(ladder, b, reference, deals, seed, budget, threads)], axis=1)

    test = sequential_test(play, elo0, elo1, alpha, beta, max_pairs, batch, THROUGH_BINS, _through_bin)
    return _sprt_result(ladder.name, a, b, elo0, elo1, alpha, beta, test,
                        {"seed": seed, "max_pairs": max_pairs, "budget": budget, "through": reference})


# -- The verb ------------------------------------------------------------------------------------


def _elo_pair(text: str) -> tuple[float, float]:
    import argparse

    try:
        a, b = (float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected ELO0,ELO1 (two numbers), got {text!r}") from None
    return a, b


def add_rate_arguments(p: Any, game: VersusGame) -> None:
    """`maquis <game> rate`'s flags for a two-player game."""
    from .cli import add_no_progress, add_seed

    p.add_argument("--policy", required=True, metavar="FILE|module:attr",
                   help="the policy: a saved .npz, or module:attr naming a torch module (forward: float32 observations "
                        "to logits), an object with act(obs, mask) / act_batch(obs, masks), or a callable")
    p.add_argument("--ladder", metavar="JSON", default=None,
                   help=f"the pool: a ladder's JSON (maquis {game.name} ladder -o FILE.json); default: the ladder of "
                        f"--agents played now")
    p.add_argument("--agents", default=None, metavar="A,B",
                   help=f"the agents the policy plays (default: the --ladder's, else {','.join(game.fast_agents)})")
    p.add_argument("--deals", type=int, default=100, metavar="N", help="deals per opponent, each in both seats (default 100)")
    add_seed(p, "seed of the deals")
    p.add_argument("--budget", type=int, default=None, metavar="B",
                   help=f"simulations per decision of the search levels (default: the --ladder's, else "
                        f"{game.ladder.default_budget}; --sprt: {game.ladder.default_budget})")
    p.add_argument("--threads", type=int, default=None, metavar="T", help="threads of the vector env (default: all cores)")
    p.add_argument("--num-envs", type=int, default=64, metavar="N", help="games played at once (default 64)")
    p.add_argument("--bootstrap", type=int, default=BOOTSTRAP, metavar="N", help=f"bootstrap refits (default {BOOTSTRAP})")
    p.add_argument("--device", default="cpu", help="where a torch policy runs (default cpu)")
    g = p.add_argument_group("sequential test (instead of the rating)")
    g.add_argument("--sprt", type=_elo_pair, default=None, metavar="ELO0,ELO1",
                   help="GSPRT on deal pairs: H0 the policy is ELO0 above --against, H1 ELO1 above")
    g.add_argument("--against", default=None, metavar="LEVEL", help=f"the level of --sprt: {', '.join(game.ladder.agents)}")
    g.add_argument("--alpha", type=float, default=0.05, help="chance of accepting H1 when H0 holds (default 0.05)")
    g.add_argument("--beta", type=float, default=0.05, help="chance of accepting H0 when H1 holds (default 0.05)")
    g.add_argument("--max-pairs", type=int, default=20_000, metavar="N", help="stop undecided after N pairs (default 20000)")
    p.add_argument("--json", action="store_true", help="print the JSON instead of the text")
    p.add_argument("-o", "--output", metavar="FILE", default=None, help="also write the JSON there")
    add_no_progress(p)


def run_rate(args: Any, game: VersusGame) -> int:
    """`maquis <game> rate`: bad input (an unknown level, a bad policy or ladder file) exits 2."""
    prog = f"maquis {game.name} rate"
    try:
        if args.sprt is not None:
            if args.against is None:
                raise ValueError("--sprt needs --against LEVEL")
            result: Any = sprt(game, args.policy, args.against, args.sprt[0], args.sprt[1], args.alpha, args.beta,
                               args.max_pairs, args.seed, min(args.num_envs, 64), args.budget, args.threads, args.device)
        else:
            if args.against is not None:
                raise ValueError("--against goes with --sprt")
            result = rate(game, args.policy, args.ladder, args.agents, args.deals, args.seed, args.threads, args.budget,
                          args.bootstrap, args.num_envs, args.device, progress=not args.no_progress)
    except (ValueError, OSError, ImportError) as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    return print_result(result, args)


def print_result(result: Any, args: argparse.Namespace) -> int:
    """Writes `result` to `args.output` as JSON if asked, prints it (JSON with `--json`, else its
    text) and returns the exit status 0."""
    if args.output:
        with open(args.output, "w") as f:
            f.write(result.to_json(indent=2) + "\n")
    print(result.to_json(indent=2) if args.json else result.to_text())
    return 0


__all__ += ["PolicyError", "check_level", "play_pairs", "expected_score", "sprt_bounds", "print_result",
            "sequential_test", "agent_pairs", "sprt_agents", "sprt_through", "THROUGH_BINS"]


def vector_env_maker(module: str, cls: str, budget: bool = True) -> Callable[[int, str, str, int, int | None], Any]:
    """`VersusGame.make_env` for the vector env class `module.cls` (imported when first called);
    `budget=False` for a game whose levels have no search (its env takes no `opponent_kwargs`)."""

    def make_env(n: int, side: str, opponent: str, search_budget: int, threads: int | None) -> Any:
        import importlib

        env = getattr(importlib.import_module(module), cls)
        more = {"opponent_kwargs": {"budget": search_budget}} if budget else {}
        return env(n, num_threads=threads, side=side, opponent=opponent, copy=False, **more)

    return make_env


@dataclass(frozen=True)
class Verbs:
    """A two-player game's `ladder` and `rate` functions and their CLI verbs, made once for every
    game by `verbs`."""

    ladder: Callable[..., Any]
    rate: Callable[..., RateResult]
    add_arguments: Callable[[Any], None]
    run: Callable[[Any], int]
    add_rate_arguments: Callable[[Any], None]
    run_rate: Callable[[Any], int]


def verbs(game: VersusGame) -> Verbs:
    """`maquis.<game>.ladder` / `rate` and the `ladder` / `rate` verbs of `game`."""
    from .ladder import add_ladder_arguments, play_ladder, run_ladder

    ladder_game = game.ladder

    def ladder(agents=None, deals: int = ladder_game.default_deals, seed: int = 0, threads: int | None = None,
               budget: int = ladder_game.default_budget, resume=None, bootstrap: int = BOOTSTRAP,
               progress: bool = False):
        return play_ladder(ladder_game, agents, deals, seed, threads, budget, resume, bootstrap, progress)

    ladder.__doc__ = f"""Bradley–Terry ratings (Elo scale, ``random`` at 0, 95 % bootstrap intervals) of ``agents``
    (default: {", ".join(ladder_game.default_agents)}) from every pairing played on ``deals`` deals, each twice
    with the seats swapped. ``budget``: the search levels' simulations per decision; ``threads``: games at
    once (default all cores); ``resume``: a JSONL file of finished games, appended to and not replayed. A
    ValueError names bad input.

    ``result.to_dict()`` is ``{{"game", "agents": [{{"agent", "rating", "ci95", ...}}], "pairings":
    [{{"a", "b", "wins", "draws", "losses", "score", ...}}], "settings"}}``."""

    def rate_policy(policy, ladder=None, agents=None, deals: int = 100, seed: int = 0, **kw) -> RateResult:
        """``policy`` (a saved ``.npz``, ``"module:attr"``, a torch module, or an object with ``act`` /
        ``act_batch``) rated on the ladder's scale: see ``maquis.common.rate.rate``."""
        return rate(game, policy, ladder, agents, deals, seed, **kw)

    return Verbs(
        ladder=ladder,
        rate=rate_policy,
        add_arguments=lambda p: add_ladder_arguments(p, ladder_game),
        run=lambda args: run_ladder(args, ladder_game),
        add_rate_arguments=lambda p: add_rate_arguments(p, game),
        run_rate=lambda args: run_rate(args, game),
    )


__all__ += ["vector_env_maker", "Verbs", "verbs"]

"""Evaluation: how good is a policy at each difficulty level?

`evaluate(policy, difficulties, episodes, seed, ...)` plays `episodes` games per level on the
vector environment and returns an `EvalResult`: outcome rates (win, major_win, draw, loss) with 95%
Wilson intervals per difficulty level and per star total of the dealt missions (docs/rules/maquis.md D4), plus
mean days survived and missions completed. `maquis eval` is its command line.

A policy is any of:
- a bundled agent name: "random", "heuristic", "search", "network", "network_search" (all but the
  first run in Rust);
- a callable `policy(obs, mask) -> action` on one observation (np.float32 (D,)) and mask
  (np.bool_ (N,)); if it has an attribute `batched = True` it is called once per step with
  (num_envs, D) observations and (num_envs, N) masks and returns num_envs actions;
- an object with `act(obs, mask)` (and optionally `act_batch(obs, masks)`), e.g. `maquis.maquis.agents.*`;
- a path to a saved policy file (see `maquis.maquis.agents.load_policy`).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterable, Sequence

import numpy as np

from ..common.cli import add_num_envs, add_threads, comma_list
from ..common.evaluation import (
    Column, OutcomeRates, ResultTable, add_eval_arguments, count_outcomes, eval_agent_names, report, wilson_interval,
)
from ..common.evaluation import plot as plot_rates
from ..common.progress import progress_bar
from .tables import DEALS, DIFFICULTIES, MISSION_POOLS, OUTCOMES

__all__ = [
    "CEILING_NAME", "DIFFICULTIES", "OUTCOMES", "EvalResult", "OutcomeRates", "Row", "add_arguments", "ceiling",
    "decision_time", "evaluate", "plot", "run", "run_episodes", "wilson_interval",
]


@dataclass
class Row(OutcomeRates):
    """Results of one group of episodes (a difficulty level, optionally one star total)."""

    agent: str
    difficulty: str
    stars: int | None  # None: all star totals together
    episodes: int
    counts: dict[str, int]
    mean_days: float
    mean_missions: float

    outcomes: ClassVar[tuple[str, ...]] = OUTCOMES


@dataclass
class EvalResult(ResultTable):
    """The table of an evaluation: one row per (agent, difficulty) and per star total."""

    outcomes: ClassVar[tuple[str, ...]] = OUTCOMES
    key_columns: ClassVar[tuple[Column, ...]] = (
        Column("agent", 12, lambda r: r.agent, left=True),
        Column("difficulty", 10, lambda r: r.difficulty, left=True),
        Column("stars", 5, lambda r: "all" if r.stars is None else str(r.stars)),
    )
    stat_columns: ClassVar[tuple[Column, ...]] = (
        Column("days", 5, lambda r: f"{r.mean_days:.2f}"),
        Column("missions", 8, lambda r: f"{r.mean_missions:.2f}"),
    )

    def overall(self) -> list[Row]:
        return [r for r in self.rows if r.stars is None]

    def by_stars(self) -> list[Row]:
        return [r for r in self.rows if r.stars is not None]

    def row(self, difficulty: str, agent: str | None = None, stars: int | None = None) -> Row:
        for r in self.rows:
            if r.difficulty == difficulty and r.stars == stars and (agent is None or r.agent == agent):
                return r
        raise KeyError(f"no row for difficulty={difficulty!r}, agent={agent!r}, stars={stars!r}")

    def to_text(self, stars: bool = True) -> str:  # type: ignore[override]
        """The table; `stars=False` leaves out the rows per star total (and the stars column)."""
        return super().to_text(self.rows) if stars else super().to_text(self.overall(), hide=("stars",))

    def merge(self, other: "EvalResult") -> "EvalResult":
        return EvalResult(self.rows + other.rows, self.seed, {**self.settings, **other.settings})


# -- Policies ------------------------------------------------------------------------------------

# (vec_env, obs, masks, live) -> actions; `live` is False for the environments awaiting their autoreset
BatchPolicy = Callable[[Any, np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def _on_live_rows(fn: Callable[[np.ndarray, np.ndarray], Any]) -> BatchPolicy:
    """Calls a batch policy on the live environments; the others (an episode just ended: NEXT_STEP
    autoreset restarts them whatever they get) are given action 0."""

    def act(vec: Any, obs: np.ndarray, masks: np.ndarray, live: np.ndarray) -> np.ndarray:
        actions = np.zeros(len(masks), dtype=np.int64)
        if live.all():
            # A writable copy: copy=False observations are read-only views, which torch warns about.
            actions[:] = fn(np.array(obs), masks)
        elif live.any():
            actions[live] = fn(obs[live], masks[live])
        return actions

    return act


def _resolve(policy: Any, seed: int) -> Any:
    """A bundled agent's name or a policy file's path as the agent itself; anything else as it is."""
    from maquis import agents

    if isinstance(policy, str):
        return agents.make_agent(policy, seed=seed) if policy in agents.AGENT_NAMES else agents.load_policy(policy)
    return policy


def _as_batch_policy(policy: Any, seed: int) -> tuple[str, BatchPolicy]:
    """A name for the table and a function giving one action per environment."""
    path = policy if isinstance(policy, str) else None
    policy = _resolve(policy, seed)
    name = getattr(policy, "name", None) or path or getattr(policy, "__name__", None) or type(policy).__name__
    if hasattr(policy, "act_vector_env"):
        return name, lambda vec, obs, masks, live: policy.act_vector_env(vec)
    if hasattr(policy, "act_batch"):
        return name, _on_live_rows(policy.act_batch)
    fn = policy.act if hasattr(policy, "act") else policy
    if not callable(fn):
        raise TypeError(f"policy must be an agent name, a policy file, an agent or a callable, got {policy!r}")
    if getattr(policy, "batched", False) or getattr(fn, "batched", False):
        return name, _on_live_rows(fn)
    return name, _on_live_rows(
        lambda obs, masks: np.fromiter((fn(o, m) for o, m in zip(obs, masks)), dtype=np.int64, count=len(masks))
    )


# -- Running episodes ----------------------------------------------------------------------------


def _episode_record(sd: dict[str, Any], outcome: str) -> tuple[str, int, int, int]:
    """(outcome, days survived, missions completed, star total) of a finished game."""
    days = sd["day"] + (sd["pass"] - 1) * 15
    completed = sum(1 for m in sd["missions"] if m["complete"])
    stars = sum(m["stars"] for m in sd["missions"])
    return outcome, days, completed, stars


def run_episodes(
    policy: Any,
    difficulty: str = "normal",
    episodes: int = 100,
    seed: int = 0,
    *,
    missions: Sequence[str] | None = None,
    mission_pool: str = "second_edition",
    deal: str = "uniform",
    num_envs: int | None = None,
    num_threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    observation_dtype: str = "float32",
) -> tuple[str, list[tuple[str, int, int, int]]]:
    """Plays `episodes` games at one level; returns the policy's name and one record per game.

    Each environment plays a fixed quota of episodes, so the result depends only on `seed` and
    `num_envs` (not on thread counts or timing), and long games are not under-sampled.
    """
    from maquis import MaquisVectorEnv

    if episodes < 1:
        raise ValueError(f"episodes must be >= 1, got {episodes}")
    n = int(num_envs or min(episodes, 64))
    quota = np.full(n, episodes // n, dtype=np.int64)
    quota[: episodes % n] += 1
    vec = MaquisVectorEnv(
        n,
        num_threads=num_threads,
        difficulty=difficulty,
        mission_pool=mission_pool,
        missions=missions,
        deal=deal,
        copy=False,
        observation_dtype=observation_dtype,
    )
    name, act = _as_batch_policy(policy, seed)
    obs, _ = vec.reset(seed=seed)
    done = np.zeros(n, dtype=np.int64)
    records: list[list[tuple[str, int, int, int]]] = [[] for _ in range(n)]
    live = np.ones(n, dtype=bool)
    while (done < quota).any():
        actions = np.asarray(act(vec, obs, vec.action_masks(), live), dtype=np.int64)
        # Environments that met their quota keep playing (the batch steps together) unrecorded.
        obs, _, terminated, truncated, infos = vec.step(actions)
        live = ~(terminated | truncated)
        for i in np.flatnonzero(terminated | truncated):
            if done[i] < quota[i]:
                records[i].append(_episode_record(vec.state_dict(int(i)), str(infos["outcome"][i])))
                done[i] += 1
                if progress is not None:
                    progress(1)
        # NEXT_STEP autoreset: the ended environments restart on the next step, whatever action.
    vec.close()
    return name, [r for env_records in records for r in env_records]


def _rows(agent: str, difficulty: str, records: list[tuple[str, int, int, int]]) -> list[Row]:
    def row(stars: int | None, recs: list[tuple[str, int, int, int]]) -> Row:
        counts = count_outcomes([r[0] for r in recs], OUTCOMES)
        return Row(
            agent=agent,
            difficulty=difficulty,
            stars=stars,
            episodes=len(recs),
            counts=counts,
            mean_days=float(np.mean([r[1] for r in recs])) if recs else 0.0,
            mean_missions=float(np.mean([r[2] for r in recs])) if recs else 0.0,
        )

    rows = [row(None, records)]
    for stars in sorted({r[3] for r in records}):
        rows.append(row(stars, [r for r in records if r[3] == stars]))
    return rows


def evaluate(
    policy: Any,
    difficulties: str | Iterable[str] = DIFFICULTIES,
    episodes: int = 1000,
    seed: int = 0,
    missions: Sequence[str] | None = None,
    mission_pool: str = "second_edition",
    *,
    deal: str = "uniform",
    num_envs: int | None = None,
    num_threads: int | None = None,
    progress: bool = False,
    observation_dtype: str = "float32",
) -> EvalResult:
    """Evaluates `policy` for `episodes` games at each difficulty level.

    Returns an `EvalResult` whose rows give, per level (and per star total of the dealt missions),
    the rates of win / major_win / draw / loss with 95% Wilson intervals, the mean days survived
    and the mean number of missions completed. Deterministic for a given `seed` and `num_envs`.
    `observation_dtype="uint8"` hands the policy uint8 observations (the bundled agents and
    policy files take either, with the same actions).
    """
    levels = [difficulties] if isinstance(difficulties, str) else list(difficulties)
    for d in levels:
        if d not in DIFFICULTIES:
            raise ValueError(f"unknown difficulty {d!r}: expected one of {', '.join(DIFFICULTIES)}")
    bar = progress_bar(len(levels) * episodes, enabled=progress)
    result = EvalResult(
        seed=seed,
        settings={"episodes": episodes, "missions": list(missions) if missions else None,
                  "mission_pool": mission_pool, "deal": deal},
    )
    for d in levels:
        bar.set_description(d)
        name, records = run_episodes(
            policy, d, episodes, seed, missions=missions, mission_pool=mission_pool, deal=deal,
            num_envs=num_envs, num_threads=num_threads, progress=bar.update,
            observation_dtype=observation_dtype,
        )
        result.rows.extend(_rows(name, d, records))
    bar.close()
    return result


def decision_time(policy: Any, difficulty: str = "normal", positions: int = 200, seed: int = 0) -> float:
    """Mean milliseconds an agent takes per decision, one decision at a time on the calling thread:
    `positions` decisions with more than one legal action, taken evenly from heuristic games on
    `difficulty` (game seeds `seed`, `seed + 1`, ...; a decision with a single legal action costs
    the agents nothing, so it is left out)."""
    from maquis._core import maquis as _core

    if positions < 1:
        raise ValueError(f"positions must be at least 1, got {positions}")
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}: expected one of {', '.join(DIFFICULTIES)}")
    policy = _resolve(policy, seed)
    if hasattr(policy, "act_batch"):
        act = policy.act_batch
    else:
        one = policy.act if hasattr(policy, "act") else policy
        act = lambda obs, masks: [one(obs[0], masks[0])]  # noqa: E731
    games = max(2, positions // 20)
    while True:
        data = _core.selfplay("heuristic", games, seed, difficulties=[difficulty], threads=1)
        choice = np.flatnonzero(data["masks"].sum(axis=1) > 1)
        if len(choice) >= positions:
            break
        games *= 2
    rows = choice[np.linspace(0, len(choice) - 1, positions).round().astype(np.int64)]
    obs, masks = data["obs"][rows], data["masks"][rows]
    act(obs[:1], masks[:1])  # warm-up: lazy loads and first-call allocations are not decisions
    t = time.perf_counter()
    for i in range(positions):
        act(obs[i : i + 1], masks[i : i + 1])
    return 1000 * (time.perf_counter() - t) / positions


CEILING_NAME = "clairvoyant"


def ceiling(
    difficulties: str | Iterable[str] = DIFFICULTIES,
    episodes: int = 200,
    seed: int = 0,
    mission_pool: str = "second_edition",
    *,
    candidates: int = 4,
    rollouts: int = 2,
    num_threads: int = 1,
) -> EvalResult:
    """The clairvoyant ceiling: a MEASUREMENT, not an agent. A search that sees the hidden deck
    order and every future reshuffle (nested heuristic rollouts on the true future, keeping the best
    line found) plays `episodes` games per level (game seeds `seed + i`, so not the deals of
    `evaluate`'s vector environments). No fair agent sees what it sees: its win rate bounds what
    fair play can be expected to reach (it is itself a lower bound of the perfect-information
    optimum)."""
    from maquis._core import maquis as _core

    levels = [difficulties] if isinstance(difficulties, str) else list(difficulties)
    result = EvalResult(seed=seed, settings={"episodes": episodes, "mission_pool": mission_pool,
                                             "ceiling": {"candidates": candidates, "rollouts": rollouts}})
    for d in levels:
        if d not in DIFFICULTIES:
            raise ValueError(f"unknown difficulty {d!r}: expected one of {', '.join(DIFFICULTIES)}")
        records = _core.clairvoyant_games(d, episodes, seed, mission_pool=mission_pool, candidates=candidates,
                                          rollouts=rollouts, threads=num_threads or 1)
        result.rows.extend(_rows(CEILING_NAME, d, [tuple(r) for r in records]))
    return result


# -- Plot and command line -------------------------------------------------------------------------


def plot(result: EvalResult, path: str) -> None:
    """A bar chart of outcome rates per difficulty level, one panel per agent (PNG)."""
    plot_rates(result.overall(), OUTCOMES, lambda r: r.agent, lambda r: r.difficulty, path)


def add_arguments(p: Any) -> None:
    from maquis.maquis.agents import AGENT_NAMES

    add_eval_arguments(p, AGENT_NAMES, "per agent and level")
    p.add_argument("--difficulties", default="all", metavar="D,D", help="comma-separated levels, or 'all' (default)")
    p.add_argument("--by-stars", action="store_true",
                   help="also a row per star total of the dealt missions under each level (the JSON always has them)")
    p.add_argument("--pool", "--mission-pool", dest="pool", default="second_edition", choices=MISSION_POOLS,
                   help="the mission pool dealt from (default second_edition)")
    p.add_argument("--deal", default="uniform", choices=DEALS, help="how the two missions are dealt (default uniform)")
    p.add_argument("--missions", default=None, metavar="A,B", help="two fixed mission ids, comma-separated")
    p.add_argument("--simulations", type=int, default=None, help="search, network_search: simulations per move")
    p.add_argument("--network", default=None, metavar="NAME|FILE",
                   help="network, network_search: a shipped network's name or a .safetensors file (default: the shipped baseline)")
    p.add_argument("--ceiling", action="store_true",
                   help="also the clairvoyant ceiling (a measurement that sees the deck order, not an agent)")
    p.add_argument("--ceiling-episodes", type=int, default=None, help="games per level for --ceiling (default: --episodes)")
    add_num_envs(p)
    add_threads(p)
    p.add_argument("--timing", type=int, default=0, metavar="N",
                   help="also time each agent on N decisions per level, one at a time (ms per decision)")


def run(args: Any) -> int:
    from maquis import agents

    levels = list(DIFFICULTIES) if args.difficulties == "all" else comma_list(args.difficulties)
    policies: list[Any] = []
    try:
        names = eval_agent_names(args, agents.AGENT_NAMES)
    except ValueError as e:
        print(f"maquis eval: {e}", file=sys.stderr)
        return 2
    for name in names:
        kw: dict[str, Any] = {}
        if name in ("search", "network_search") and args.simulations:
            kw["simulations"] = args.simulations
        if name in ("network", "network_search") and args.network:
            kw["network"] = args.network
        try:
            policies.append(agents.make_agent(name, seed=args.seed, **kw))
        except (OSError, ValueError) as e:  # a missing or mismatched network file (MaquisError is a ValueError)
            print(f"maquis eval: cannot make agent {name!r}: {e}", file=sys.stderr)
            return 2
    for path in args.policy:
        try:
            policies.append(agents.load_policy(path))
        except (OSError, ValueError) as e:
            print(f"maquis eval: cannot load policy {path!r}: {e}", file=sys.stderr)
            return 2
    missions = comma_list(args.missions) if args.missions else None
    result = EvalResult(seed=args.seed)
    for pol in policies:
        try:
            r = evaluate(pol, levels, args.episodes, args.seed, missions, args.pool, deal=args.deal,
                         num_envs=args.num_envs, num_threads=args.threads, progress=not args.no_progress)
        except ValueError as e:
            print(f"maquis eval: {e}", file=sys.stderr)
            return 2
        result = result.merge(r) if result.rows else r
    notes: list[str] = []
    if args.ceiling:
        games = args.ceiling_episodes or args.episodes
        r = ceiling(levels, games, args.seed, args.pool, num_threads=args.threads or 1)
        result = result.merge(r) if result.rows else r
        notes.append(f"{CEILING_NAME}: a measurement, not an agent: it sees the hidden deck order (and its own "
                     f"deals: game seeds {args.seed}..{args.seed + games - 1})")
    notes.append(result.to_text(stars=args.by_stars))
    if args.timing:
        times: dict[str, dict[str, float]] = {}
        for pol in policies:
            name = _as_batch_policy(pol, args.seed)[0]
            times[name] = {d: decision_time(pol, d, args.timing, args.seed) for d in levels}
        result.settings["ms_per_decision"] = times
        result.settings["timing_positions"] = args.timing
        notes.append(f"ms per decision (one at a time, {args.timing} decisions with more than one legal action "
                     "from heuristic games per level):")
        notes += [f"  {name:<14} " + "  ".join(f"{d} {ms:.3f}" for d, ms in per.items()) for name, per in times.items()]
    report(args, result, "\n".join(notes), lambda path: plot(result, path))
    return 0

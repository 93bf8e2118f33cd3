"""What every game's evaluation shares: Wilson intervals, rows of outcome counts, the result table
(text and JSON), the `--json [FILE]` output and the bar chart.

A game's evaluation module defines its row (a dataclass with `OutcomeRates`: the counts of its
outcomes and its own statistics), its table (a `ResultTable` naming the columns) and how its games
are played; the rest is here. A two-player game's rows are (learner side, opponent): `VersusRow`,
`VersusResult`, and the checks, loop, flags and command line around them.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from .cli import add_episodes, add_json, add_no_progress, add_plot, add_seed, add_side, comma_list, write_json
from .progress import progress_bar

Z95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be within 0..n, got {successes} of {n}")
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate_cell(rate: float, interval: tuple[float, float]) -> str:
    """A rate and its interval in percent, as every game's table prints them: `43.2% [40.2, 46.3]`."""
    lo, hi = interval
    return f"{100 * rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


RATE_CELL_WIDTH = len(rate_cell(1.0, (1.0, 1.0)))


class OutcomeRates:
    """Rates and Wilson intervals of a row's outcome `counts` over its `episodes`, for the
    outcome names of its game (`outcomes`)."""

    outcomes: ClassVar[tuple[str, ...]]
    counts: dict[str, int]
    episodes: int

    def rate(self, outcome: str) -> float:
        return self.counts[outcome] / self.episodes if self.episodes else 0.0

    def interval(self, outcome: str) -> tuple[float, float]:
        return wilson_interval(self.counts[outcome], self.episodes)

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)  # type: ignore[call-overload]
        d["rates"] = {o: self.rate(o) for o in self.outcomes}
        d["ci95"] = {o: list(self.interval(o)) for o in self.outcomes}
        return d


def count_outcomes(outcomes: Sequence[str], names: Sequence[str]) -> dict[str, int]:
    """How many of `outcomes` are each of `names` (every name present, zeros included)."""
    return {n: sum(1 for o in outcomes if o == n) for n in names}


@dataclass(frozen=True)
class Column:
    """A column of the text table: its title, width, and the text of a row's cell."""

    title: str
    width: int
    cell: Callable[[Any], str]
    left: bool = False  # names are left-aligned, figures right-aligned


@dataclass
class ResultTable:
    """The rows of an evaluation with its seed and settings; a game's table names its columns:
    `key_columns` (which group of games a row is), one rate cell per outcome of `row_type`, then
    `stat_columns` (its mean statistics)."""

    rows: list[Any] = field(default_factory=list)
    seed: int = 0
    settings: dict[str, Any] = field(default_factory=dict)

    key_columns: ClassVar[tuple[Column, ...]] = ()
    stat_columns: ClassVar[tuple[Column, ...]] = ()
    outcomes: ClassVar[tuple[str, ...]] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "settings": self.settings, "rows": [r.as_dict() for r in self.rows]}

    def to_json(self, **kw: Any) -> str:
        return json.dumps(self.to_dict(), **kw)

    def text_rows(self) -> list[Any]:
        """The rows the text table shows (all of them unless a game hides some by default)."""
        return self.rows

    def to_text(self, rows: Sequence[Any] | None = None, hide: Sequence[str] = ()) -> str:
        """The table of `rows` (default: `text_rows()`), without the columns titled in `hide`."""
        columns = [
            *(c for c in self.key_columns if c.title not in hide),
            Column("games", 6, lambda r: str(r.episodes)),
            *(Column(o, RATE_CELL_WIDTH, lambda r, o=o: rate_cell(r.rate(o), r.interval(o))) for o in self.outcomes),
            *self.stat_columns,
        ]

        def line(cells: Sequence[str]) -> str:
            return "  ".join(
                (c.ljust(col.width) if col.left else c.rjust(col.width)) for c, col in zip(cells, columns)
            ).rstrip()

        head = line([c.title for c in columns])
        body = [line([c.cell(r) for c in columns]) for r in (self.text_rows() if rows is None else rows)]
        return "\n".join([head, "-" * len(head), *body])

    def __str__(self) -> str:
        return self.to_text()


OUTCOME_COLORS = {
    "win": "#2e7d32",
    "major_win": "#1565c0",
    "draw": "#f9a825",
    "loss": "#c62828",
}


def plot(
    rows: Sequence[Any],
    outcomes: Sequence[str],
    panel: Callable[[Any], str],
    group: Callable[[Any], str],
    path: str,
) -> None:
    """A bar chart of outcome rates with their 95% intervals (PNG): one panel per `panel(row)`
    (the agent), one group of bars per `group(row)` (a level, a side against an opponent)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import numpy as np
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise RuntimeError("--plot needs matplotlib: pip install matplotlib (or maquis[plot])") from e
    panels = list(dict.fromkeys(panel(r) for r in rows))
    groups = list(dict.fromkeys(group(r) for r in rows))
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels) + 1, 4), sharey=True, squeeze=False)
    width = 0.8 / max(1, len(outcomes))
    for ax, name in zip(axes[0], panels):
        x = np.arange(len(groups))
        for k, o in enumerate(outcomes):
            rates, errs = [], [[], []]
            for g in groups:
                r = next((r for r in rows if panel(r) == name and group(r) == g), None)
                rate = r.rate(o) if r else 0.0
                lo, hi = r.interval(o) if r else (0.0, 0.0)
                rates.append(rate)
                errs[0].append(rate - lo)
                errs[1].append(hi - rate)
            offset = (k - (len(outcomes) - 1) / 2) * width
            ax.bar(x + offset, rates, width, yerr=errs, label=o, color=OUTCOME_COLORS.get(o), capsize=2)
        ax.set_xticks(x, groups, rotation=30, ha="right")
        ax.set_title(name)
        ax.set_ylim(0, 1)
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].set_ylabel("rate (95% Wilson CI)")
    axes[0][-1].legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# -- The `eval` verb ---------------------------------------------------------------------------------


def add_eval_arguments(p: Any, agent_names: Sequence[str], per: str) -> None:
    """The flags every game's `eval` has; `per` says what one group of `--episodes` games is."""
    p.add_argument(
        "--agents", default=None, metavar="A,B",
        help=f"comma-separated bundled agents evaluated: {', '.join(agent_names)} "
        "(default: random,heuristic, or none when --policy is given)",
    )
    p.add_argument(
        "--policy", action="append", default=[], metavar="FILE",
        help="a saved policy file evaluated (repeatable), after the --agents",
    )
    add_episodes(p, per)
    add_seed(p, "seed of the games (and of the agents)")
    add_json(p, "the table")
    add_plot(p)
    add_no_progress(p)


def eval_agent_names(args: Any, agent_names: Sequence[str]) -> list[str]:
    """The names of `--agents`; ValueError naming the first unknown one."""
    agents = args.agents if args.agents is not None else "" if args.policy else "random,heuristic"
    names = [a.strip() for a in agents.split(",") if a.strip()]
    for name in names:
        if name not in agent_names:
            raise ValueError(f"unknown agent {name!r} (choose from {', '.join(agent_names)})")
    return names


def report(args: Any, result: ResultTable, text: str, plot_to: Callable[[str], None]) -> None:
    """Prints `text` (the table and its notes) or, for `--json` alone, the JSON; writes `--json FILE`
    and `--plot PNG`."""
    if args.json == "-":
        write_json(result, "-")
    else:
        print(text)
        if args.json:
            write_json(result, args.json)
            print(f"wrote {args.json}")
    if args.plot:
        plot_to(args.plot)
        if args.json != "-":
            print(f"wrote {args.plot}")


# -- Two-player games: one row per (learner side, opponent) --------------------------------------

#: The learner's outcomes in a two-player game.
VERSUS_OUTCOMES = ("win", "draw", "loss")


@dataclass
class VersusRow(OutcomeRates):
    """One learner side against one opponent; a game's row adds its mean statistics (`stat_fields`,
    in the order of its episode records after the outcome)."""

    policy: str
    side: str
    opponent: str
    episodes: int
    counts: dict[str, int]

    outcomes: ClassVar[tuple[str, ...]] = VERSUS_OUTCOMES
    stat_fields: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def of_records(cls, policy: str, side: str, opponent: str, records: Sequence[tuple[Any, ...]]) -> Any:
        """The row of `records` ((outcome, statistic, …) per game): outcome counts and the mean
        of each statistic."""
        n = len(records)
        means = {f: sum(r[i + 1] for r in records) / n for i, f in enumerate(cls.stat_fields)}
        return cls(policy=policy, side=side, opponent=opponent, episodes=n,
                   counts=count_outcomes([r[0] for r in records], cls.outcomes), **means)


def versus_key_columns(side_width: int) -> tuple[Column, ...]:
    """The key columns of a two-player table: policy, side (`side_width` wide), opponent."""
    return (
        Column("policy", 10, lambda r: r.policy, left=True),
        Column("side", side_width, lambda r: r.side, left=True),
        Column("opponent", 9, lambda r: r.opponent, left=True),
    )


@dataclass
class VersusResult(ResultTable):
    """The table of a two-player evaluation: one row per (learner side, opponent)."""

    outcomes: ClassVar[tuple[str, ...]] = VERSUS_OUTCOMES

    def row(self, side: str, opponent: str) -> Any:
        for r in self.rows:
            if r.side == side and r.opponent == opponent:
                return r
        raise KeyError(f"no row for side={side!r}, opponent={opponent!r}")


def check_versus(
    side: str, sides: Sequence[str], opponents: Any, known: Sequence[str], episodes: int
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the learner sides, the opponents) of an evaluation's `side` ("both" or one of `sides`) and
    `opponents` (each one of `known`, or `network@FILE` / `network_search@FILE` where `known` has
    that level: FILE made absolute); a ValueError naming what is wrong (FileNotFoundError for a
    missing FILE)."""
    from .single import file_opponent_id

    if side not in (*sides, "both"):
        raise ValueError(f"unknown side {side!r}: expected {', '.join(sides)} or both")
    opponents = tuple(file_opponent_id(o, tuple(known)) if isinstance(o, str) and "@" in o else o for o in opponents)
    for o in opponents:
        if o not in known and "@" not in o:
            raise ValueError(f"unknown opponent {o!r}: expected one of {', '.join(known)}")
    if episodes < 1:
        raise ValueError(f"episodes must be at least 1, got {episodes}")
    return (tuple(sides) if side == "both" else (side,)), opponents


def play_games(
    env: Any, policy: Any, episodes: int, seed: int, record: Callable[[Any, dict[str, Any]], tuple[Any, ...]],
    progress: Callable[[int], None] | None = None,
) -> list[tuple[Any, ...]]:
    """`record(env, last info)` of `episodes` games of `policy` (`act(obs, mask) -> int`) in the
    single env `env`, game `k` reset with `seed + k`; `progress(1)` after each game. Closes `env`."""
    records = []
    for k in range(episodes):
        obs, info = env.reset(seed=seed + k)
        terminated = False
        while not terminated:
            obs, _, terminated, truncated, info = env.step(int(policy.act(obs, info["action_mask"])))
            terminated = terminated or truncated
        records.append(record(env, info))
        if progress is not None:
            progress(1)
    env.close()
    return records


def play_versus(
    result: VersusResult,
    row_type: type[VersusRow],
    policy_of: Callable[[], tuple[str, Any]],
    play: Callable[[Any, str, str, Callable[[int], None]], Sequence[tuple[Any, ...]]],
    sides: Sequence[str],
    opponents: Sequence[str],
    episodes: int,
    progress: bool,
) -> VersusResult:
    """Fills `result` with one row per (side, opponent): `policy_of()` gives (name, agent) afresh
    for each row; `play(agent, side, opponent, update)` the records of its games."""
    bar = progress_bar(len(sides) * len(opponents) * episodes, enabled=progress)
    for s in sides:
        for o in opponents:
            name, agent = policy_of()
            bar.set_description(f"{s} v {o}")
            result.rows.append(row_type.of_records(name, s, o, play(agent, s, o, bar.update)))
    bar.close()
    return result


def plot_versus(result: VersusResult, path: str) -> None:
    """A bar chart of outcome rates per side and opponent, one panel per policy (PNG)."""
    plot(result.rows, result.outcomes, lambda r: r.policy, lambda r: f"{r.side} v {r.opponent}", path)


def add_versus_arguments(p: Any, opponents: Sequence[str], sides: Sequence[str]) -> None:
    """The `eval` flags every two-player game has: the shared ones, `--side`, `--opponents`."""
    add_eval_arguments(p, opponents, "per side and opponent")
    add_side(p, (*sides, "both"), "both", "the learner's side, or both in turn (default: both)")
    p.add_argument("--opponents", default="random,heuristic", metavar="A,B",
                   help="comma-separated opponents (default: random,heuristic; add search, slower)")


def run_versus(
    args: Any,
    prog: str,
    result_type: type[VersusResult],
    policies_of: Callable[[Any], Sequence[Any]],
    evaluate_one: Callable[[Any, list[str]], VersusResult],
) -> int:
    """`maquis <game> eval`: `evaluate_one(policy, opponents)` for each of `policies_of(args)`, one
    table of all their rows reported; a ValueError is a usage error (exit 2) printed after `prog`."""
    try:
        policies = policies_of(args)
        opponents = comma_list(args.opponents)
        total = result_type(seed=args.seed)
        for a in policies:
            r = evaluate_one(a, opponents)
            total.rows += r.rows
            total.settings = r.settings | {"agents": [str(a) for a in policies]}
    except ValueError as err:
        print(f"{prog}: {err}", file=sys.stderr)
        return 2
    report(args, total, total.to_text(), lambda path: plot_versus(total, path))
    return 0

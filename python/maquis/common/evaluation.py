"""What every game's evaluation shares: Wilson intervals, rows of outcome counts, the result table
(text and JSON), the `--json [FILE]` output and the bar chart.

A game's evaluation module defines its row (a dataclass with `OutcomeRates`: the counts of its
outcomes and its own statistics), its table (a `ResultTable` naming the columns) and how its games
are played; the rest is here.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from .cli import add_episodes, add_json, add_no_progress, add_plot, add_seed, write_json

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

"""Expert iteration for a two-player game, written once (`maquis dday train`, `maquis maurice train`).

Generation 0: the game's `search` plays both sides of `--games0` games; the network learns to
imitate its moves for both seats (one-hot policy targets: the observation says which side moves)
and to predict the result for the side to move. Generation g >= 1: `network_search` with the
network of generation g-1 plays both sides, and the network learns its moves and results in the
same way, over the last `--window` generations of data. The games are played in Rust (the game's
`selfplay`, `--threads` threads, GIL released); torch only trains (`maquis.train.common`'s loop,
checkpoint and curve).

Each generation: data in `OUT/data/gen<g>.npz`, the network in `OUT/net_gen<g>.safetensors` (the
game's fingerprint), a checkpoint (`OUT/checkpoint.pt`; a second run with the same OUT continues
after the last finished generation), and rows of `OUT/curve.csv` + `OUT/curve.png`: the win rate
with its 95% Wilson interval of `network` (and, with `--eval-search-episodes`, of
`network_search`) against each of `--eval-opponents`, from both seats, on the fixed evaluation
deals `--eval-seed`.. (never those of the training games, whose seeds start at `--seed` * 1,000,003).

The gate (`--gate`, off by default; `maquis.train.gate`): after generation g >= 1 is trained, the
rated ladder's sequential test (`maquis.common.rate.sprt_agents`: the pentanomial GSPRT on pairs of
duplicate deals, both seats, played by the game's Rust ladder runner) plays `network` of
`net_gen<g>` against `network` of the last kept generation (`--gate-agent network_search`: the
searches; `--gate-against LEVEL`: both against that level, `sprt_through`). H1
(at least `--gate-elo1` Elo stronger) keeps generation g: it becomes the teacher of the next
generation. H0, or no decision after `--gate-max-pairs` pairs, rejects it: the next generation is
taught again by the last kept network. Training goes on from the newest weights either way (as in
AlphaGo Zero: the optimiser's state and the steps taken stay; the gate decides who teaches and
what ships, not where the learner is). Each decision is a row of `OUT/gate.csv`; the kept
generation is in the checkpoint, so a resumed run keeps its teacher; `OUT/best.safetensors` is
always the last kept network (without the gate, the last generation): the run's result.

A game describes itself with an `ExpertGame`: its names, its network's sizes and file metadata,
its games (`play`), its evaluation (`evaluate`) and its ladder (for the gate).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # spinning OpenMP threads stall a busy 2-core machine

import numpy as np

from maquis.train import common
from maquis.train.gate import DECISION_FIELDS, add_gate_arguments, check_gate, decide, describe, write_rows

__all__ = ["CURVE_FIELDS", "GATE_FIELDS", "BEST_NET", "ExpertGame", "add_arguments", "one_hot", "training_seed",
           "initial_model", "evaluate_generation", "gate", "run", "opponents", "OPPONENT_LEVELS", "Lesson",
           "parse_lesson", "lessons0", "play_lessons", "map_rows"]

CURVE_FIELDS = ["generation", "agent", "side", "opponent", "games", "win_rate", "ci_low", "ci_high", "draw_rate",
                "loss_rate", "samples", "policy_loss", "value_loss", "minutes"]
GATE_FIELDS = ["generation", "against", *DECISION_FIELDS[:-1], "kept", "seconds"]
#: The run's result: the last kept generation's network.
BEST_NET = "best.safetensors"


@dataclass(frozen=True)
class ExpertGame:
    """What expert iteration needs of a game.

    `play(args, generation, net_path, model)`: the generation's samples (`obs`, `masks`, `policy`
    targets, `outcome`, `weight`, `game_outcomes`; `net_path` the previous generation's file);
    `evaluate(agent, opponents, episodes, seed, budget)`: the game's `evaluate` of a level from
    both seats (rows with `side`, `opponent`, `episodes`, `counts`, `rate`); `load_network(path)`
    registers a weight file (checking it is this game's); `file_metadata()` is what its files carry;
    `ladder` is its `LadderGame`, whose `play_games` takes `network@FILE` agents (`--gate`);
    `new_model(args, hidden)`, where the game has other networks than the MLP over its observation
    (Maurice Lite's map stem), the fresh model of the run's flags. Samples with `maps` (packed map
    planes, `selfplay(..., maps=True)`) are trained on as their observation followed by the planes.
    """

    prog: str  # "maquis dday train"
    game: str  # the checkpoint's game name ("dday1944")
    sides: tuple[str, str]  # the side names, index order (game outcome 1 + index)
    obs_size: int
    num_actions: int
    play: Callable[[Any, int, Path | None, Any], dict[str, np.ndarray]]
    evaluate: Callable[[str, Sequence[str], int, int, int], Any]
    load_network: Callable[[Any], Any]
    file_metadata: Callable[[], dict[str, str]]
    teacher_name: Callable[[Any, int], str] | None = None
    ladder: Any = None
    # Flags that must be at least 1 beside the shared ones.
    positive: tuple[str, ...] = field(default=())
    new_model: Callable[[Any, tuple[int, ...]], Any] | None = None


def add_arguments(p: Any, *, games0: int, games: int, teacher0_budget: int, budget: int, eval_budget: int,
                  eval_episodes: int, epochs: int = 6, batch_size: int = 256,
                  extra: Callable[[Any], None] | None = None) -> None:
    """The flags of a game's `train` verb with its defaults; `extra(p)` adds the game's own after
    `--init`."""
    p.add_argument("--out", required=True, help="run folder (created; an existing one is resumed)")
    p.add_argument("--generations", type=int, default=3, help="generations in all, generation 0 included")
    p.add_argument("--hidden", default="256,256", help="hidden widths of the MLP trunk")
    p.add_argument("--games0", type=int, default=games0, help="games of generation 0 (search against search)")
    p.add_argument("--teacher0-budget", type=int, default=teacher0_budget,
                   help="generation 0's search: simulations per searched decision")
    p.add_argument("--games", type=int, default=games, help="games per later generation (network_search against itself)")
    p.add_argument("--budget", type=int, default=budget, help="network_search in self-play: simulations per searched decision")
    p.add_argument("--opponents0", default=None, metavar="A,B",
                   help="bundled levels generation 0's search plays against in turn, from both seats, only its own "
                        "moves learned (default: it plays both sides)")
    p.add_argument("--opponents", default=None, metavar="A,B",
                   help="the same for the later generations' network_search (default: it plays both sides)")
    p.add_argument("--teacher0", action="append", default=None, metavar="TEACHER[@FILE]:LEVELS:GAMES",
                   help="generation 0's teachers in place of search: TEACHER (search, heuristic, network@FILE, "
                        "network_search@FILE) plays GAMES games against LEVELS (comma-separated; 'self': both "
                        "sides), e.g. network@a.safetensors:heuristic:600; repeated, the samples are all of theirs")
    p.add_argument("--window", type=int, default=3, help="generations of data each training uses")
    p.add_argument("--init", default=None, metavar="FILE",
                   help="a weight file of the game the network starts from (its hidden widths replace --hidden)")
    if extra is not None:
        extra(p)
    common.add_training_arguments(p, epochs=epochs, batch_size=batch_size)
    p.add_argument("--eval-opponents", default="random,heuristic", help="comma-separated opponents of the curve")
    p.add_argument("--eval-episodes", type=int, default=eval_episodes, help="games per seat and opponent of the network alone")
    p.add_argument("--eval-search-episodes", type=int, default=0,
                   help="games per seat and opponent of network_search (0: skip; it costs a search game each)")
    p.add_argument("--eval-budget", type=int, default=eval_budget, help="the evaluated searches' simulations per decision")
    p.add_argument("--eval-seed", type=int, default=2025, help="first deal of the evaluation games (the same every generation)")
    p.add_argument("--seed", type=int, default=1, help="seed of the self-play games and of torch")
    p.add_argument("--threads", type=int, default=2, help="threads for the games and for torch")
    add_gate_arguments(p, budget)


def training_seed(args: Any, generation: int) -> int:
    """The first game seed of a generation (never an evaluation deal's)."""
    return args.seed * 1_000_003 + generation * 100_000


def one_hot(data: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """`selfplay`'s samples with one-hot policy targets (the teacher's action) and unit weights."""
    policy = np.zeros(data["masks"].shape, np.float32)
    policy[np.arange(len(policy)), data["action"]] = 1.0
    return {**data, "policy": policy, "weight": np.ones(len(policy), np.float32)}


def initial_model(game: ExpertGame, path: str) -> Any:
    """The network of `--init` as a torch model, or None (after saying why) when it is not a weight
    file of `game`."""
    from maquis.train.model import model_from_file

    try:
        game.load_network(path)  # checks the file is the game's (its fingerprint) before torch reads it
        return model_from_file(path)
    except (OSError, ValueError, RuntimeError, KeyError) as e:
        print(f"{game.prog}: --init {path}: {e}", file=sys.stderr)
        return None


#: The bundled levels a teacher may play against (`--opponents0`, `--opponents`).
OPPONENT_LEVELS = ("random", "heuristic", "search", "network", "network_search")


def _levels(text: str | None) -> list[str]:
    """The comma-separated names of `text` (none for None)."""
    return [s.strip() for s in (text or "").split(",") if s.strip()]


def _all_known(names: list[str]) -> bool:
    """Whether `names` name at least one level and only levels of `OPPONENT_LEVELS`."""
    return bool(names) and all(n in OPPONENT_LEVELS for n in names)


def opponents(args: Any, generation: int) -> list[str] | None:
    """The levels generation `generation`'s teacher plays against in turn (`--opponents0` for
    generation 0, `--opponents` after), or None when it plays both sides."""
    return _levels(getattr(args, "opponents0" if generation == 0 else "opponents", None)) or None


@dataclass(frozen=True)
class Lesson:
    """One `--teacher0`: a teacher (its weight file where it plays one) against levels (None:
    itself, both sides) for a number of games."""

    teacher: str
    network: str | None
    opponents: list[str] | None
    games: int

    def __str__(self) -> str:
        who = f"{self.teacher}@{self.network}" if self.network else self.teacher
        against = ",".join(self.opponents) if self.opponents else "itself"
        return f"{who} against {against} ({self.games} games)"


def parse_lesson(text: str) -> Lesson:
    """`TEACHER[@FILE]:LEVELS:GAMES` as a `Lesson`; ValueError naming what is wrong."""
    parts = text.rsplit(":", 2)
    if len(parts) != 3:
        raise ValueError(f"--teacher0 {text!r}: expected TEACHER[@FILE]:LEVELS:GAMES")
    who, levels, games = parts
    teacher, _, network = who.partition("@")
    if teacher not in ("search", "heuristic", "network", "network_search"):
        raise ValueError(f"--teacher0 {text!r}: the teacher must be search, heuristic, network@FILE or "
                         f"network_search@FILE")
    if teacher.startswith("network") != bool(network):
        raise ValueError(f"--teacher0 {text!r}: network and network_search, and only they, take @FILE")
    names = _levels(levels)
    if names == ["self"]:
        names = []
    elif not _all_known(names):
        raise ValueError(f"--teacher0 {text!r}: LEVELS must be 'self' or levels among {', '.join(OPPONENT_LEVELS)}")
    if not games.isdigit() or int(games) < 1:
        raise ValueError(f"--teacher0 {text!r}: GAMES must be a positive int")
    return Lesson(teacher, network or None, names or None, int(games))


def lessons0(args: Any) -> list[Lesson] | None:
    """Generation 0's `--teacher0` lessons, or None when generation 0 is `search`'s."""
    specs = getattr(args, "teacher0", None)
    return [parse_lesson(t) for t in specs] if specs else None


def play_lessons(lessons: Sequence[Lesson], seed: int, budget: int, selfplay: Callable[..., Any]) -> dict[str, np.ndarray]:
    """Each lesson's games (`selfplay(teacher, games, seed, budget=, network=, opponents=,
    opponent_budget=)`, lesson i from seed `seed + i * 10,000,000`), their samples together, the
    game indices running on from one lesson to the next."""
    parts = []
    for i, lesson in enumerate(lessons):
        parts.append(dict(selfplay(lesson.teacher, lesson.games, seed + i * 10_000_000, budget=budget,
                                   network=lesson.network, opponents=lesson.opponents, opponent_budget=budget)))
    out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    offsets = np.cumsum([0] + [len(p["game_outcomes"]) for p in parts[:-1]])
    out["game"] = np.concatenate([p["game"] + off for p, off in zip(parts, offsets)])
    return out


def _check_opponents(args: Any) -> str | None:
    if getattr(args, "teacher0", None):
        if getattr(args, "opponents0", None) is not None:
            return "--teacher0 names its own levels: give it or --opponents0, not both"
        try:
            lessons0(args)
        except ValueError as e:
            return str(e)
    for flag in ("opponents0", "opponents"):
        text = getattr(args, flag, None)
        if text is None:
            continue
        if not _all_known(_levels(text)):
            return f"--{flag} must name levels among {', '.join(OPPONENT_LEVELS)}, got {text!r}"
    return None


def _teacher_name(game: ExpertGame, args: Any, generation: int) -> str:
    lessons = lessons0(args) if generation == 0 else None
    if lessons:
        return " + ".join(str(lesson) for lesson in lessons)
    if game.teacher_name is not None:
        name = game.teacher_name(args, generation)
    else:
        name = f"network_search@{args.budget}" if generation > 0 else f"search@{args.teacher0_budget}"
    levels = opponents(args, generation)
    return f"{name} against {','.join(levels)}" if levels else name


def evaluate_generation(game: ExpertGame, args: Any, net_path: Path) -> list[dict[str, Any]]:
    """`network` (and `network_search`) of `net_path` against each evaluation opponent, both seats."""
    from maquis.common.evaluation import wilson_interval

    game.load_network(net_path)
    opponents = [o.strip() for o in args.eval_opponents.split(",") if o.strip()]
    agents = [("network", args.eval_episodes)]
    if args.eval_search_episodes > 0:
        agents.append(("network_search", args.eval_search_episodes))
    rows = []
    for agent, episodes in agents:
        result = game.evaluate(agent, opponents, episodes, args.eval_seed, args.eval_budget)
        for r in result.rows:
            lo, hi = wilson_interval(r.counts["win"], r.episodes)
            rows.append({"agent": agent, "side": r.side, "opponent": r.opponent, "games": r.episodes,
                         "win_rate": r.counts["win"] / r.episodes, "ci_low": lo, "ci_high": hi,
                         "draw_rate": r.rate("draw"), "loss_rate": r.rate("loss")})
    return rows


def gate(game: ExpertGame, args: Any, generation: int, candidate: Path, kept: int, kept_path: Path) -> dict[str, Any]:
    """The sequential test of `candidate` (generation `generation`) against the kept generation
    `kept` (`kept_path`): a row of `gate.csv`, its `kept` the generation kept after it."""
    row = decide(game.ladder, args, candidate, kept_path, generation)
    return {"generation": generation, "against": kept, **row, "kept": generation if row["decision"] == "H1" else kept}


def _maps_of(model: Any) -> str | None:
    """A model's map stem as its file records it (layout and channels), or None for an MLP."""
    stem = getattr(model, "maps", None)
    if stem is None:
        return None
    return f"{stem.metadata()} channels {[conv.out_channels for conv in stem]}"


def _with_stem(game: ExpertGame, args: Any, model: Any) -> Any:
    """The `--init` network, with the stem the game's flags ask for (Maurice's `--maps`) grafted on
    when it has none: the trunk's weights from the stem start at zero, so training starts from what
    the file computes. None (after saying why) when the file has another stem."""
    import torch

    from maquis.train.model import graft_map_stem

    if game.new_model is None:
        return model
    torch.manual_seed(args.seed)  # the stem's weights, drawn the same on every run
    fresh = game.new_model(args, model.hidden)
    wanted, has = _maps_of(fresh), _maps_of(model)
    if wanted is None or wanted == has:
        return model
    if has is not None:
        print(f"{game.prog}: --init {args.init} has the map stem {has}, not the {wanted} of the flags", file=sys.stderr)
        return None
    return graft_map_stem(model, fresh)


def map_rows(model: Any, data: dict[str, np.ndarray]) -> Callable[[Any], Any]:
    """The input rows of samples `idx` for a model with a map stem: each sample's observation
    followed by its map planes, unpacked from `data["maps"]` (`numpy.packbits` of the planes)."""
    import torch

    obs, packed, n = data["obs"], data["maps"], model.maps.planes_len

    def rows(idx: Any) -> Any:
        i = np.asarray(idx)
        planes = np.unpackbits(packed[i], axis=1, count=n).astype(np.float32)
        return torch.from_numpy(np.concatenate([obs[i], planes], axis=1))

    return rows


def run(game: ExpertGame, args: Any, model: Any = None) -> int:
    """The generations of `args` not yet done in `args.out` (`model`: the `--init` network's, or
    None for a fresh one of `--hidden`); 0 when they are."""
    try:
        import torch

        from maquis.train.model import PolicyValueNet, save_network
    except ImportError as e:
        print(f"{game.prog}: needs torch (pip install \"maquis[train]\"): {e}", file=sys.stderr)
        return 2
    for name in ("generations", "games0", "games", "teacher0_budget", "budget", "epochs", "batch_size", "window",
                 *game.positive):
        if getattr(args, name) < 1:
            print(f"{game.prog}: --{name.replace('_', '-')} must be at least 1", file=sys.stderr)
            return 2
    bad = _check_opponents(args) or check_gate(game.ladder, args)
    if bad is not None:
        print(f"{game.prog}: {bad}", file=sys.stderr)
        return 2
    torch.set_num_threads(max(1, args.threads))
    out = Path(args.out)
    if args.init and model is None:
        model = initial_model(game, args.init)
        if model is None:
            return 2
    if model is not None:
        hidden = model.hidden
        model = _with_stem(game, args, model)
        if model is None:
            return 2
    else:
        hidden = common.hidden_widths(args.hidden, game.prog)
        # Seeded before its weights are drawn, so that a run is the same bytes again (a resumed
        # run reads them from its checkpoint instead).
        torch.manual_seed(args.seed)
        model = (game.new_model(args, hidden) if game.new_model is not None
                 else PolicyValueNet(hidden, "observation", game.obs_size, game.num_actions))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    # The gate's state: the kept generation (None before generation 0) and its decisions so far.
    state: dict[str, Any] = {"kept": None, "gate": []}
    maps = _maps_of(model)
    match = {"hidden": hidden, "game": game.game, **({"maps": maps} if maps else {})}
    start = common.open_run(out, model, opt, args, game.prog, CURVE_FIELDS, match, restore=state)
    if start is None:
        return 2
    if start > 0 and state["kept"] is None:  # a run from before the gate: every generation was kept
        state["kept"] = start - 1
    t0 = time.perf_counter()
    for g in range(start, args.generations):
        data_path = out / "data" / f"gen{g}.npz"
        if not data_path.exists():
            t = time.perf_counter()
            teacher = out / f"net_gen{state['kept']}.safetensors" if g > 0 else None
            data = game.play(args, g, teacher, model)
            np.savez_compressed(data_path, **data)
            outcomes = np.bincount(data["game_outcomes"], minlength=3)
            print(f"generation {g}: {len(data['game_outcomes'])} games (draw {outcomes[0]}, {game.sides[0]} "
                  f"{outcomes[1]}, {game.sides[1]} {outcomes[2]}), {len(data['obs'])} samples in "
                  f"{time.perf_counter() - t:.0f} s", flush=True)
        window = [np.load(out / "data" / f"gen{k}.npz") for k in range(max(0, g - args.window + 1), g + 1)]
        keys = ("obs", "masks", "policy", "outcome", "weight", *(("maps",) if maps else ()))
        missing = [k for k in keys for w in window if k not in w]
        if missing:
            print(f"{game.prog}: the window's data lack {sorted(set(missing))} (a run folder of another network?)",
                  file=sys.stderr)
            return 2
        train = {k: np.concatenate([w[k] for w in window]) for k in keys}
        t = time.perf_counter()
        pl, vl = common.train_on(model, opt, train, args, np.random.default_rng(args.seed + g),
                                 rows=map_rows(model, train) if maps else None)
        print(f"generation {g}: trained on {len(train['obs'])} samples in {time.perf_counter() - t:.0f} s "
              f"(policy loss {pl:.3f}, value loss {vl:.3f})", flush=True)
        net_path = out / f"net_gen{g}.safetensors"
        info = {"generation": g, "hidden": list(hidden), **({"maps": maps} if maps else {}),
                "samples": int(len(train["obs"])),
                "teacher": _teacher_name(game, args, g), "init": args.init,
                **({"teacher_generation": state["kept"]} if g > 0 else {}),
                "seed": args.seed, "command": f"{game.prog} " + " ".join(sys.argv[3:])}
        save_network(model, str(net_path), info, game.file_metadata(), dtype=args.storage)
        kept = g
        if g > 0 and getattr(args, "gate", False):
            row = gate(game, args, g, net_path, state["kept"], out / f"net_gen{state['kept']}.safetensors")
            kept = row["kept"]
            state["gate"].append(row)
            write_rows(out / "gate.csv", GATE_FIELDS, state["gate"])
            print(f"generation {g}: gate: {row['agent']} of generation {g} v generation {row['against']}: "
                  f"{describe(row)}, generation {kept} kept", flush=True)
        state["kept"] = kept
        common.copy_whole(out / f"net_gen{kept}.safetensors", out / BEST_NET)
        common.save_checkpoint(out, g, model, opt, hidden=list(hidden), game=game.game, kept=kept,
                               gate=state["gate"], **({"maps": maps} if maps else {}))
        rows = evaluate_generation(game, args, net_path)
        minutes = round((time.perf_counter() - t0) / 60, 2)
        common.append_curve(out / "curve.csv", CURVE_FIELDS, [
            {"generation": g, **r, "samples": len(train["obs"]), "policy_loss": round(pl, 4),
             "value_loss": round(vl, 4), "minutes": minutes} for r in rows])
        for r in rows:
            print(f"generation {g}: {r['agent']} as {r['side']} vs {r['opponent']} wins {100 * r['win_rate']:.1f}% "
                  f"[{100 * r['ci_low']:.1f}, {100 * r['ci_high']:.1f}] over {r['games']} games", flush=True)
        common.plot_curve(out / "curve.csv", out / "curve.png", ("agent", "side", "opponent"),
                          "wins, % (95% CI), fixed evaluation deals")
    if state["kept"] is not None:
        print(f"{out / BEST_NET}: generation {state['kept']}", flush=True)
    return 0

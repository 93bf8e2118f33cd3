"""`maquis bench`: how fast the engine, the single environment and the vector environment run,
and (`--peers`) how comparable environments run on this machine, in the same run.

Every figure is the median of several timed repeats (`--repeats`) of about `--seconds` each:

- engine: random legal play in Rust on one core (new game, legal mask, uniform sample, apply; no
  observation), timed in Rust with the GIL released: the ceiling of everything below. The next
  row adds what every environment step must also do: write the observation and the mask bytes.
- single env: `gymnasium.make("maquis/Maquis-v0")` stepped with
  `env.unwrapped.sample_action()`; each step returns the observation and `info["action_mask"]`.
- vector env: `MaquisVectorEnv(num_envs, num_threads=...)` stepped with `env.step(env.sample_actions())`
  (observations, masks, rewards and flags written by Rust into numpy arrays). `copy=False` returns
  those arrays themselves; `copy=True` (Gymnasium's default) copies them every step.
- vector (Rust): the same loop driven from Rust, without Python (the binding's overhead is the gap).
- engine, N copies at once: N independent engine loops on N threads (N the most threads asked
  for), their steps summed: what N cores of this machine give with nothing shared between them;
  its ratio to the one-core engine × N is the machine's own scaling, which no vector figure can
  beat.
- ratio: env steps/s ÷ (engine steps/s × threads), each repeat paired with an engine run taken
  just before it (the median of the pairs' ratios: the machine's speed drifts between rows).
- peers (`--peers`, those installed): OpenSpiel random play with the observation tensor, Pgx random
  play in batches (JAX on CPU), EnvPool and Gymnasium CartPole.

`--quick` runs a few tiny measurements (for tests); `--json` prints one JSON document instead of the
table, `--json FILE` writes it there.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ..common.cli import add_bench_arguments, bench_settings, int_list, write_json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_bench_arguments(parser)
    parser.add_argument(
        "--peers", action="store_true", help="also time OpenSpiel, Pgx, EnvPool, Gymnasium where installed"
    )
    parser.add_argument("--difficulty", default="normal", help="difficulty of the games (default normal)")
    parser.add_argument(
        "--train",
        action="store_true",
        help="also time a PPO-style rollout loop with a 2x256 torch MLP (needs torch): the rate a learner sees",
    )
    parser.add_argument(
        "--device", default="cpu",
        help="--train: where the network and the rollout buffers are: cpu (default), cuda, cuda:N, auto",
    )
    parser.add_argument(
        "--halves", type=int_list, default=None, metavar="N,N",
        help="--train: the environments as N vector envs stepped in turn, one stepped while the network acts on "
        "another (default 1: no overlap)",
    )
    parser.add_argument(
        "--worker-spin", type=float, default=None, metavar="SECONDS",
        help="--train: the envs' worker_spin (default: 0.002 on cuda, the env's 0.0002 on the cpu)",
    )
    parser.add_argument(
        "--graph", action=argparse.BooleanOptionalAction, default=None,
        help="--train on cuda: the forward pass and the sampling replayed as one CUDA graph per half (default: on "
        "with cuda)",
    )


# -- Measurement helpers --------------------------------------------------------------------------


def _median_rate(
    run_once: Callable[[], tuple[float, float]],
    repeats: int,
    engine_once: Callable[[], tuple[float, float]] | None = None,
    threads: int = 1,
) -> dict[str, Any]:
    """`run_once()` → (steps, wall seconds); the median steps/s over `repeats` runs after one
    warm-up, and the median steps per CPU-second of this process (all its threads): on a machine
    busy with other work, the wall-clock rate drops and the CPU rate much less.

    With `engine_once` (the raw engine's run), each repeat is paired with an engine run just
    before it, and `ratio` is the median of rate / (engine rate × `threads`) over the pairs: the
    machine's speed drifts (other tenants), and a ratio of two rates measured minutes apart
    mostly measures the drift."""
    run_once()
    rates, cpu_rates, ratios, engine_rates = [], [], [], []
    for _ in range(repeats):
        engine_rate = None
        if engine_once is not None:
            steps, secs = engine_once()
            engine_rate = steps / secs
        cpu = time.process_time()
        steps, secs = run_once()
        cpu = time.process_time() - cpu
        rates.append(steps / secs)
        cpu_rates.append(steps / cpu if cpu > 0 else float("nan"))
        if engine_rate:
            engine_rates.append(engine_rate)
            ratios.append(rates[-1] / (engine_rate * threads))
    rate = statistics.median(rates)
    out = {
        "steps_per_s": rate,
        "us_per_step": 1e6 / rate,
        "steps_per_cpu_s": statistics.median(cpu_rates),
        "repeats": [round(r) for r in rates],
    }
    if ratios:
        out["ratio"] = statistics.median(ratios)
        out["ratios"] = ratios
        out["paired_engine"] = [round(e) for e in engine_rates]
    return out


def _timed(step: Callable[[], Any], seconds: float, per_call: int = 1, check_every: int = 1) -> tuple[float, float]:
    """Calls `step()` in a loop for about `seconds` (the clock read every `check_every` calls)."""
    calls = 0
    start = time.perf_counter()
    while True:
        for _ in range(check_every):
            step()
        calls += check_every
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls * per_call, elapsed


# -- maquis ---------------------------------------------------------------------------------------


def engine_run(
    seconds: float, difficulty: str, observe: bool = False, copies: int = 1
) -> Callable[[], tuple[float, float]]:
    """One timed run of the raw engine (random play in Rust, one core; `copies` independent loops
    on as many threads at once): → (steps, seconds)."""
    from .._core import maquis as _core

    def once() -> tuple[float, float]:
        steps, _games, secs = _core.bench_engine(seconds, difficulty, 0, observe, copies)
        return steps, secs

    return once


def bench_engine(
    seconds: float, repeats: int, difficulty: str, observe: bool = False, copies: int = 1
) -> dict[str, Any]:
    if copies > 1:
        # Paired with the raw engine × copies: what the machine's cores give together, with
        # nothing shared between them (the vector figures' ceiling on this machine).
        name, kind = f"engine, {copies} copies at once (Rust, one per core)", "engine_parallel"
        once = engine_run(seconds, difficulty, copies=copies)
        rate = _median_rate(once, repeats, engine_run(seconds, difficulty), copies)
        return {"name": name, "kind": kind, "num_envs": copies, "threads": copies, **rate}
    if observe:
        name, kind = "engine + observation + mask bytes (Rust)", "engine_observe"
        # Paired with the raw engine: the ratio is what writing the observation costs.
        rate = _median_rate(engine_run(seconds, difficulty, True), repeats, engine_run(seconds, difficulty))
    else:
        name, kind = "engine (Rust, random play)", "engine"
        rate = _median_rate(engine_run(seconds, difficulty), repeats)
    return {"name": name, "kind": kind, "num_envs": 1, "threads": 1, **rate}


def bench_single(seconds: float, repeats: int, difficulty: str) -> list[dict[str, Any]]:
    import gymnasium as gym

    from . import ENV_ID

    rows = []
    for wrapped in (True, False):
        env = gym.make(ENV_ID, difficulty=difficulty)
        env.reset(seed=0)
        target = env if wrapped else env.unwrapped
        sample = env.unwrapped.sample_action
        step_env = target.step
        reset = target.reset

        def step(step_env: Any = step_env, sample: Any = sample, reset: Any = reset) -> None:
            if step_env(sample())[2]:
                reset()

        name = "MaquisEnv via gymnasium.make" if wrapped else "MaquisEnv (unwrapped)"
        rate = _median_rate(lambda: _timed(step, seconds, check_every=200), repeats)
        rows.append({"name": name, "kind": "single", "num_envs": 1, "threads": 1, **rate})
        if not wrapped:
            # The rows above include this call; subtract it for the step alone.
            rate = _median_rate(lambda: _timed(sample, seconds, check_every=200), repeats)  # noqa: B023
            rows.append(
                {"name": "  of which sample_action()", "kind": "single_sample", "num_envs": 1, "threads": 1, **rate}
            )
        env.close()
    return rows


def bench_vector(envs: list[int], threads: list[int], seconds: float, repeats: int, difficulty: str) -> list[dict[str, Any]]:
    from .._core import maquis as _core
    from . import MaquisVectorEnv

    engine = engine_run(seconds, difficulty)
    rows = []
    big = max(envs)
    for n in envs:
        for t in threads:
            if t > n:
                continue
            # The default path (copy=True, float32) first, then copy=False and uint8 beside it;
            # the smaller batches copy=False float32 only.
            cases = [(True, "float32"), (False, "float32"), (True, "uint8"), (False, "uint8")]
            for copy, dtype in cases if n == big else [(False, "float32")]:
                env = MaquisVectorEnv(n, num_threads=t, copy=copy, difficulty=difficulty, observation_dtype=dtype)
                env.reset(seed=0)
                sample, step_env = env.sample_actions, env.step

                def step(step_env: Any = step_env, sample: Any = sample) -> None:
                    step_env(sample())

                calls = max(1, 4096 // n)
                rate = _median_rate(
                    lambda: _timed(step, seconds, per_call=n, check_every=calls),  # noqa: B023
                    repeats,
                    engine,
                    env.num_threads,
                )
                rows.append(
                    {
                        "name": f"MaquisVectorEnv copy={copy} {dtype}",
                        "kind": "vector",
                        "num_envs": n,
                        "threads": env.num_threads,
                        "copy": copy,
                        "observation_dtype": dtype,
                        **rate,
                    }
                )
                if copy:
                    rows.append(_copy_alone(env, n, t, seconds, repeats, engine, dtype))
                env.close()
    # The same loop driven from Rust, for every size and thread count: the gap to the rows above
    # is the binding's, and its ratio's fall with the threads is the batch path's own.
    for n in [x for x in envs if x >= 1024]:
        for t in threads:

            def once(n: int = n, t: int = t) -> tuple[float, float]:
                steps, secs = _core.bench_vector(n, t, seconds, difficulty)
                return steps, secs

            rate = _median_rate(once, repeats, engine, min(t, n))
            rows.append(
                {
                    "name": "VecEngine from Rust (no Python)",
                    "kind": "vector_rust",
                    "num_envs": n,
                    "threads": min(t, n),
                    **rate,
                }
            )
    return rows


def _copy_alone(env: Any, n: int, t: int, seconds: float, repeats: int, engine: Any, dtype: str) -> dict[str, Any]:
    """What copy=True adds to a step, timed alone: numpy copies of the arrays it returns
    (observations, rewards, terminated, truncated, the int8 masks), as rows of env-steps/s."""
    core = env._core
    arrays = (core.observations, core.rewards, core.terminated, core.truncated, core.masks.view(np.int8))

    def copy(arrays: tuple = arrays) -> None:
        for a in arrays:
            a.copy()

    calls = max(1, 4096 // n)
    rate = _median_rate(lambda: _timed(copy, seconds, per_call=n, check_every=calls), repeats, engine, t)
    return {
        "name": f"  the copy alone ({dtype}, numpy, one thread)",
        "kind": "vector_copy",
        "num_envs": n,
        "threads": t,
        "observation_dtype": dtype,
        **rate,
    }


# -- Peers ----------------------------------------------------------------------------------------


def bench_openspiel(seconds: float, repeats: int) -> list[dict[str, Any]]:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return []
    rows = []
    for game_name in ("tic_tac_toe", "connect_four", "othello"):
        game = pyspiel.load_game(game_name)
        rng = np.random.default_rng(0)
        state = [game.new_initial_state()]

        def step(game: Any = game, state: list = state, rng: Any = rng) -> None:
            s = state[0]
            legal = s.legal_actions()
            s.apply_action(legal[int(rng.integers(len(legal)))])
            if s.is_terminal():
                state[0] = game.new_initial_state()
                s = state[0]
            s.observation_tensor(s.current_player())

        rate = _median_rate(lambda: _timed(step, seconds, check_every=100), repeats)
        rows.append(
            {
                "name": f"OpenSpiel {game_name} (+ observation tensor)",
                "kind": "peer",
                "num_envs": 1,
                "threads": 1,
                **rate,
            }
        )
    return rows


def bench_pgx(seconds: float, repeats: int, batch: int) -> list[dict[str, Any]]:
    try:
        import jax  # type: ignore[import-not-found]
        import jax.numpy as jnp  # type: ignore[import-not-found]
        import pgx  # type: ignore[import-not-found]
        from pgx.experimental import auto_reset  # type: ignore[import-not-found]
    except ImportError:
        return []
    rows = []
    for game_name in ("tic_tac_toe", "connect_four", "othello"):
        env = pgx.make(game_name)
        init = jax.jit(jax.vmap(env.init))
        step_fn = jax.vmap(auto_reset(env.step, env.init))

        @jax.jit
        def play(state: Any, key: Any, step_fn: Any = step_fn) -> tuple[Any, Any]:
            key, k_act, k_reset = jax.random.split(key, 3)
            logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
            action = jax.random.categorical(k_act, logits, axis=-1)
            return step_fn(state, action, jax.random.split(k_reset, batch)), key

        key = jax.random.PRNGKey(0)
        box = [init(jax.random.split(key, batch)), key]

        def step(box: list = box, play: Any = play) -> None:
            box[0], box[1] = play(box[0], box[1])

        def once(box: list = box, step: Any = step) -> tuple[float, float]:
            steps, secs = _timed(step, seconds, per_call=batch, check_every=10)
            jax.block_until_ready(box[0])
            return steps, secs

        rate = _median_rate(once, repeats)
        rows.append(
            {
                "name": f"Pgx {game_name} (JAX CPU, batch {batch})",
                "kind": "peer",
                "num_envs": batch,
                "threads": os.cpu_count() or 1,
                **rate,
            }
        )
    return rows


def bench_cartpole(seconds: float, repeats: int) -> list[dict[str, Any]]:
    rows = []
    import gymnasium as gym

    env = gym.make("CartPole-v1")
    env.reset(seed=0)
    space = env.action_space

    def step() -> None:
        if env.step(space.sample())[2]:
            env.reset()

    rate = _median_rate(lambda: _timed(step, seconds, check_every=200), repeats)
    rows.append(
        {"name": "Gymnasium CartPole-v1 via gymnasium.make", "kind": "peer", "num_envs": 1, "threads": 1, **rate}
    )
    try:
        import envpool  # type: ignore[import-not-found]
    except ImportError:
        return rows
    n = 1024
    pool = envpool.make_gymnasium("CartPole-v1", num_envs=n, num_threads=os.cpu_count() or 1)
    pool.reset()
    actions = np.zeros(n, dtype=np.int32)

    def pool_step() -> None:
        pool.step(actions)

    rate = _median_rate(lambda: _timed(pool_step, seconds, per_call=n, check_every=10), repeats)
    rows.append(
        {
            "name": f"EnvPool CartPole-v1 (batch {n})",
            "kind": "peer",
            "num_envs": n,
            "threads": os.cpu_count() or 1,
            **rate,
        }
    )
    return rows


# -- Report ---------------------------------------------------------------------------------------


def train_rows(
    seconds: float, repeats: int, difficulty: str, threads: int, quick: bool, progress: Callable[[str], None],
    device: str = "cpu", envs: list[int] | None = None, halves: list[int] | None = None, graph: bool | None = None,
    worker_spin: float | None = None,
) -> list[dict[str, Any]]:
    """`--train`: the rollout loop with float32 and uint8 observations (for each of `envs`, by
    default the training example's 128, and each of `halves`), or no rows (and a message saying
    why) without torch."""
    from .bench_train import TRAIN_ENVS, bench_train, torch_or_none

    if torch_or_none() is None:
        # Said even with --json (on stderr): the rows are missing for this reason.
        print("training loop: skipped, torch is not installed (pip install torch)", file=sys.stderr, flush=True)
        return []
    check_train_device(device)
    from ..train.rollout import resolve_device

    if graph and resolve_device(device).type != "cuda":
        raise SystemExit("maquis bench --graph: CUDA graphs need --device cuda")
    # At least one whole pass of a few rollouts per repeat.
    secs = seconds if quick else max(seconds, 2.0)
    rows = []
    for n in ([8] if quick else envs or [TRAIN_ENVS]):
        kw = {"num_envs": n, "steps": 4} if quick else {"num_envs": n}
        for k in halves or [1]:
            for dtype in ("float32", "uint8"):
                progress(f"training loop: {n} envs, {dtype}, {device}" + (f", {k} halves" if k > 1 else ""))
                rows.append(
                    bench_train(secs, repeats, difficulty, threads, dtype, device=device, halves=k, graph=graph,
                                worker_spin="auto" if worker_spin is None else worker_spin, **kw)
                )
    return rows


def check_train_device(device: str) -> None:
    """Exits naming the problem when `--device` is unusable (CUDA asked for and missing); nothing
    without torch (the rows are skipped then)."""
    from .bench_train import torch_or_none

    if torch_or_none() is None:
        return
    from ..train.rollout import resolve_device

    try:
        resolve_device(device)
    except ValueError as e:
        raise SystemExit(f"maquis bench --device: {e}") from None


def train_timers_lines(rows: list[dict[str, Any]]) -> list[str]:
    """Where the PPO rollout rows' time goes: one line per row."""
    lines = []
    for r in rows:
        t = r.get("timers")
        if not t:
            continue
        host = ", ".join(f"{k[:-6].replace('_', ' ')} {v:.1%}" for k, v in t.items() if k.endswith("_share"))
        line = f"  {r['num_envs']} envs, {r['observation_dtype']}, {r.get('halves', 1)} half(s): {host}"
        if "device_us_per_step" in t:
            dev = ", ".join(f"{k} {v * 1e3:.1f}" for k, v in t["device_us_per_step"].items())
            line += f"; device ns per env-step: {dev}"
        lines.append(line)
    if lines:
        lines.insert(0, "PPO rollout, share of the loop's time per stage (env wait: blocked on the environment):")
    return lines


def machine() -> dict[str, Any]:
    import gymnasium

    from .. import __version__

    return {
        "nproc": os.cpu_count(),
        "cpu": _cpu_name(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "gymnasium": gymnasium.__version__,
        "maquis": __version__,
        "platform": platform.platform(),
        # Other work on the machine slows every figure: the 1-minute load average at the end.
        "load_average": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
    }


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def table(results: dict[str, Any]) -> str:
    rows = results["rows"]
    head = f"{'benchmark':<48} {'envs':>5} {'thr':>3} {'steps/s':>12} {'µs/step':>9} {'ratio':>6} {'steps/cpu-s':>12}"
    lines = [head, "-" * len(head)]
    for r in rows:
        ratio = f"{r['ratio']:.2f}" if "ratio" in r else f"{r['env_share']:.2f}" if "env_share" in r else ""
        lines.append(
            f"{r['name']:<48} {r['num_envs']:>5} {r['threads']:>3} {r['steps_per_s']:>12,.0f} "
            f"{r['us_per_step']:>9.3f} {ratio:>6} {r['steps_per_cpu_s']:>12,.0f}"
        )
    lines += train_timers_lines(rows)
    mem = results["memory"]
    m = results["machine"]
    lines += [
        "",
        (
            f"memory per environment beyond its observation rows: {mem['total_beyond_observations']} bytes "
            f"(game state {mem['state']}, env with mask and RNG streams {mem['env']}, other output rows "
            f"{mem['outputs']} on {mem['num_threads']} threads); observation row {mem['observation']} bytes "
            f"(+ {mem['final_observation']} final_obs)"
        ),
        (
            f"machine: {m['nproc']} cores, {m['cpu']}, load average {m['load_average']}; "
            f"Python {m['python']}, numpy {m['numpy']}, gymnasium {m['gymnasium']}"
        ),
        (
            "ratio = steps/s ÷ (engine steps/s × threads), each repeat against an engine run just before "
            "it (median of the pairs); for the PPO rollout rows, the column is the environment's share of the "
            "loop's time; steps/cpu-s = steps per CPU-second of this "
            f"process (all threads); medians of {results['settings']['repeats']} repeats of "
            f"{results['settings']['seconds']} s"
        ),
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from .._core import maquis as _core

    settings = bench_settings(args)
    quick, repeats, seconds = settings["quick"], settings["repeats"], settings["seconds"]
    envs, threads = settings["envs"], settings["threads"]
    settings["difficulty"] = args.difficulty

    def progress(msg: str) -> None:
        if args.json != "-":
            print(msg, file=sys.stderr, flush=True)

    if getattr(args, "train", False):
        check_train_device(getattr(args, "device", "cpu"))  # before the minutes of the other rows
    progress("engine ...")
    rows = [bench_engine(seconds, repeats, args.difficulty)]
    rows.append(bench_engine(seconds, repeats, args.difficulty, observe=True))
    if max(threads) > 1:
        rows.append(bench_engine(seconds, repeats, args.difficulty, copies=max(threads)))
    progress("single env ...")
    rows += bench_single(seconds, repeats, args.difficulty)
    progress("vector env ...")
    rows += bench_vector(envs, threads, seconds, repeats, args.difficulty)
    if args.peers:
        progress("peers ...")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the peers' own deprecation and dtype warnings
            rows += bench_openspiel(seconds, repeats)
            rows += bench_pgx(seconds, repeats, batch=64 if quick else 4096)
            rows += bench_cartpole(seconds, repeats)
    if getattr(args, "train", False):
        progress("training loop ...")
        rows += train_rows(seconds, repeats, args.difficulty, max(threads), quick, progress,
                           device=getattr(args, "device", "cpu"), envs=args.envs, halves=getattr(args, "halves", None),
                           graph=getattr(args, "graph", None), worker_spin=getattr(args, "worker_spin", None))
    results = {"machine": machine(), "settings": settings, "memory": dict(_core.env_memory()), "rows": rows}
    if args.json != "-":
        print(table(results))
    if args.json:
        write_json(results, args.json)
    return 0


if __name__ == "__main__":
    p = argparse.ArgumentParser(prog="maquis bench", description=__doc__.splitlines()[0])
    add_arguments(p)
    sys.exit(run(p.parse_args()))

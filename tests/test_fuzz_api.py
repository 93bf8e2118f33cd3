"""Fuzz tests of the Python API: junk arguments to the public methods of `MaquisEnv` and
`MaquisVectorEnv` and to their constructors.

Every call either succeeds or raises a documented exception (`TypeError` or `ValueError`, which
`MaquisError` and `IllegalActionError` subclass; `IndexError` for an env index) — never a Rust
panic (`PanicException` derives from `BaseException`, so it is caught here explicitly) — and a call
that raises leaves the environment unchanged and usable.

`MAQUIS_FUZZ_CASES` scales the number of cases (default: a short run for CI); `MAQUIS_FUZZ_SEED`
changes the stream. `MAQUIS_FUZZ_CASES=100000 pytest -q tests/test_fuzz_api.py` is the long run.
"""

from __future__ import annotations

import copy
import json
import os

import numpy as np

import maquis
from maquis import MaquisEnv, MaquisVectorEnv

CASES = int(os.environ.get("MAQUIS_FUZZ_CASES", "400"))
SEED = int(os.environ.get("MAQUIS_FUZZ_SEED", "0"))
DOCUMENTED = (TypeError, ValueError)

# Values that break naive conversions: wrong types, non-integers, NaN and infinities, huge and
# negative integers, numpy scalars and arrays of odd shapes and dtypes.
JUNK = [
    None, True, False, 0, 1, -1, 2, 3, 15, 16, 255, 256, 65535, 65536, 2**31 - 1, 2**31, 2**32, 2**63 - 1,
    2**63, 2**64, -(2**63), 10**30, -(10**30), 0.0, 0.5, 1.5, -0.0, float("nan"), float("inf"), float("-inf"),
    "", "0", "x", "place:fence", "normal", "nan", b"0", [], [0], [0, 1], [[0]], {}, {"a": 1}, (), object(),
    np.int8(-1), np.uint8(255), np.int64(2**62), np.uint64(2**64 - 1), np.float32("nan"), np.float64(1.0),
    np.bool_(True), np.array(3), np.array([]), np.zeros((2, 2)), np.array(["a"]), np.zeros(3, dtype=np.complex64),
    complex(1, 2), slice(1), range(3),
]


def junk(rng: np.random.Generator):
    return JUNK[int(rng.integers(len(JUNK)))]


def panics(exc: BaseException) -> bool:
    return type(exc).__name__ == "PanicException"


def call(fn, *args, documented=DOCUMENTED, **kwargs):
    """Calls fn; returns the exception it raised (documented ones only) or None."""
    try:
        fn(*args, **kwargs)
    except documented as e:
        return e
    except BaseException as e:  # noqa: BLE001 — a panic or an undocumented exception fails the test
        kind = "a Rust panic" if panics(e) else f"undocumented {type(e).__name__}"
        raise AssertionError(f"{fn.__name__}{args!r:.200}{kwargs!r:.200} raised {kind}: {e}") from e
    return None


def junk_options(rng: np.random.Generator):
    keys = ["difficulty", "missions", "patrol_deck", "start", "mission_pool", "reset_mask", "bogus"]
    start_keys = ["resources", "morale", "soldiers", "day", "workers", "bogus"]
    opts: dict = {}
    for _ in range(int(rng.integers(1, 3))):
        k = keys[int(rng.integers(len(keys)))]
        if k == "start":
            sk = start_keys[int(rng.integers(len(start_keys)))]
            v = junk(rng)
            if sk == "resources":
                v = {["intel", "weapon", "gold"][int(rng.integers(3))]: junk(rng)}
            elif sk == "workers":
                v = {["available", "recruitable", "x"][int(rng.integers(3))]: junk(rng)}
            opts["start"] = {sk: v}
        elif k == "patrol_deck" and rng.random() < 0.5:
            deck = list(rng.permutation(10))
            deck[int(rng.integers(10))] = junk(rng)
            opts[k] = deck
        else:
            opts[k] = junk(rng)
    return opts if rng.random() < 0.9 else junk(rng)


def fuzz_single_call(env: MaquisEnv, rng: np.random.Generator) -> None:
    before = env.save_state()
    kind = int(rng.integers(7))
    if kind == 0:
        err = call(env.step, junk(rng))
    elif kind == 1:
        err = call(env.reset, seed=junk(rng))
    elif kind == 2:
        err = call(env.reset, options=junk_options(rng))
    elif kind == 3:
        err = call(env.action_to_str, junk(rng))
    elif kind == 4:
        err = call(env.action_from_str, junk(rng))
    elif kind == 5:
        err = call(env.load_state, junk(rng))
    else:
        err = call(env.determinize, seed=junk(rng))
    if err is not None:
        assert env.save_state() == before, f"a failed call ({err}) changed the state"
    # Whatever happened, the environment plays on.
    if env.done:
        env.reset()
    else:
        obs, *_ = env.step(env.sample_action())
        assert env.observation_space.contains(obs)


def test_junk_calls_to_the_single_env_raise_documented_errors_and_change_nothing():
    rng = np.random.default_rng(SEED)
    env = MaquisEnv(illegal_action="raise")
    env.reset(seed=SEED)
    for _ in range(CASES):
        fuzz_single_call(env, rng)


def test_junk_constructor_keywords_raise_documented_errors():
    rng = np.random.default_rng(SEED + 1)
    names = ["difficulty", "mission_pool", "missions", "deal", "reward", "illegal_action", "render_mode"]
    for _ in range(max(CASES // 4, 50)):
        kwargs = {names[int(rng.integers(len(names)))]: junk(rng) for _ in range(int(rng.integers(1, 3)))}
        if "reward" in kwargs and rng.random() < 0.5:
            kwargs["reward"] = {["win", "loss", "draw", "major_win", "x"][int(rng.integers(5))]: junk(rng)}
        err = call(MaquisEnv, **kwargs)
        vkwargs = dict(kwargs)
        vkwargs["num_threads"] = junk(rng) if rng.random() < 0.3 else 1
        verr = call(MaquisVectorEnv, junk(rng) if rng.random() < 0.3 else 2, **vkwargs)
        if err is None:
            # What the single env accepts plays.
            e = MaquisEnv(**kwargs)
            e.reset(seed=0)
            e.step(e.sample_action())
        del verr


def test_junk_calls_to_the_vector_env_raise_documented_errors_and_change_nothing():
    rng = np.random.default_rng(SEED + 2)
    n = 3
    v = MaquisVectorEnv(n, num_threads=2, illegal_action="raise")
    v.reset(seed=SEED)
    for _ in range(max(CASES // 2, 50)):
        # Drawn before the states are taken: a draw moves the sampling streams the saves hold.
        drawn = v.sample_actions()
        before = [v.save_state(i) for i in range(n)]
        kind = int(rng.integers(6))
        if kind == 0:
            actions = drawn.copy()
            if rng.random() < 0.5:
                actions = actions.astype(object)
                actions[int(rng.integers(n))] = junk(rng)
            else:
                actions = junk(rng)
            err = call(v.step, actions)
        elif kind == 1:
            err = call(v.reset, seed=junk(rng) if rng.random() < 0.7 else [junk(rng) for _ in range(n)])
        elif kind == 2:
            opts = junk_options(rng)
            err = call(v.reset, options=opts)
        elif kind == 3:
            dtypes = (np.int8, np.int16, np.int32, np.uint8, np.uint32, np.uint64, np.float32, object, np.bool_)
            err = call(v.step, drawn.astype(dtypes[int(rng.integers(len(dtypes)))]))
        elif kind == 4:
            err = call(v.save_state, junk(rng), documented=DOCUMENTED + (IndexError,))
        else:
            err = call(v.state_dict, junk(rng), documented=DOCUMENTED + (IndexError,))
        if err is not None:
            assert [v.save_state(i) for i in range(n)] == before, f"a failed call ({err}) changed a state"
        v.step(v.sample_actions())


# ---- saved states with one field changed -------------------------------------------------------


def saved_states(count: int, seed: int) -> list[str]:
    """Saves taken along random games, every difficulty, in every phase."""
    rng = np.random.default_rng(seed)
    out = []
    diffs = ("very_easy", "easy", "normal", "tricky", "hard", "very_hard")
    g = 0
    while len(out) < count:
        env = MaquisEnv(difficulty=diffs[g % len(diffs)])
        env.reset(seed=seed + g)
        g += 1
        while not env.done:
            if rng.random() < 0.08:
                out.append(env.save_state())
            env.step(env.sample_action())
        out.append(env.save_state())
    return out[:count]


def leaves(node, path=()):
    """Every (path, value) of a JSON document, containers included."""
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from leaves(v, path + (i,))


def set_at(doc, path, value):
    for p in path[:-1]:
        doc = doc[p]
    doc[path[-1]] = value


MUTATIONS = [-1, 0, 1, 2, 3, 4, 5, 7, 9, 10, 11, 12, 14, 15, 16, 17, 31, 32, 63, 64, 127, 128, 255, 256, 65535,
             2**31, 2**32, 2**64 - 1, 2**64, -(2**63), 1.5, None, True, False, "x", "game_over", [], {}]


def mutations(value, rng: np.random.Generator):
    vals = [MUTATIONS[int(i)] for i in rng.choice(len(MUTATIONS), 4, replace=False)]
    if isinstance(value, int) and not isinstance(value, bool):
        vals += [value + 1, value - 1, value ^ (1 << int(rng.integers(16)))]
    if isinstance(value, list):
        vals += [value[:-1], value + value[-1:], list(reversed(value))] if value else [[0], [None]]
    return vals


def play_to_the_end(env: MaquisEnv, max_steps: int = 3000) -> None:
    steps = 0
    while not env.done and steps < max_steps:
        mask = env.action_masks()
        assert mask.any(), "a live game with no legal action"
        obs, _, _, _, _ = env.step(env.sample_action())
        assert obs.shape == (maquis.OBS_SIZE,) and obs.dtype == np.float32
        assert np.all(obs >= 0.0) and np.all(obs <= 1.0) and not np.isnan(obs).any()
        steps += 1
    assert env.done, "a loaded game did not end"


def test_load_state_refuses_what_it_cannot_play_and_plays_what_it_accepts():
    rng = np.random.default_rng(SEED + 3)
    saves = saved_states(max(CASES // 40, 8), SEED)
    env = MaquisEnv()
    env.reset(seed=0)
    tried = accepted = 0
    budget = CASES * 4
    for text in saves:
        doc = json.loads(text)
        paths = [p for p, _ in leaves(doc["state"])]
        for i in rng.permutation(len(paths))[: max(budget // len(saves), 1)]:
            path = ("state",) + paths[int(i)]
            original = doc
            for p in path:
                original = original[p]
            for value in mutations(original, rng):
                mutated = copy.deepcopy(doc)
                set_at(mutated, path, value)
                fresh = MaquisEnv()
                fresh.reset(seed=0)
                before = fresh.save_state()
                tried += 1
                err = call(fresh.load_state, json.dumps(mutated))
                if err is not None:
                    assert isinstance(err, ValueError), f"{path} = {value!r}: {type(err).__name__} {err}"
                    assert fresh.save_state() == before
                    continue
                accepted += 1
                try:
                    fresh.state_dict()
                    play_to_the_end(fresh)
                except BaseException as e:  # noqa: BLE001
                    kind = "panicked" if panics(e) else f"raised {type(e).__name__}"
                    raise AssertionError(f"accepted {'.'.join(map(str, path))} = {value!r}, then play {kind}: {e}") from e
    assert tried > 0 and accepted < tried


def test_vector_load_state_refuses_what_single_env_refuses_and_changes_nothing():
    rng = np.random.default_rng(SEED + 4)
    saves = saved_states(max(CASES // 80, 6), SEED + 1)
    venv = MaquisVectorEnv(3)
    venv.reset(seed=SEED)
    tried = accepted = 0
    for text in saves:
        doc = json.loads(text)
        paths = [p for p, _ in leaves(doc["state"])]
        for i in rng.permutation(len(paths))[: max(CASES // len(saves), 1)]:
            path = ("state",) + paths[int(i)]
            original = doc
            for p in path:
                original = original[p]
            value = mutations(original, rng)[0]
            mutated = copy.deepcopy(doc)
            set_at(mutated, path, value)
            before = [venv.save_state(k) for k in range(3)], venv._obs.copy(), venv.action_masks()
            single = MaquisEnv()
            single.reset(seed=0)
            single_err = call(single.load_state, json.dumps(mutated))
            err = call(venv.load_state, 1, json.dumps(mutated))
            tried += 1
            assert (err is None) == (single_err is None), f"{path} = {value!r}: {err} vs {single_err}"
            if err is not None:
                assert isinstance(err, ValueError), f"{path} = {value!r}: {type(err).__name__} {err}"
                after = [venv.save_state(k) for k in range(3)], venv._obs, venv.action_masks()
                assert after[0] == before[0]
                assert np.array_equal(after[1], before[1]) and np.array_equal(after[2], before[2])
                continue
            accepted += 1
            # The loaded row is the single env's observation and mask of the same game.
            assert np.array_equal(venv._obs[1], single._core.observation())
            if single.action_masks().any():
                assert np.array_equal(venv.action_masks()[1], single.action_masks())
            else:  # a finished game: the vector's row awaits its autoreset, every action in it
                assert venv.action_masks()[1].all()
            # The same game (each env keeps its own streams: the mutated save holds none).
            strip = lambda s: {k: v for k, v in json.loads(s).items() if k != "env_streams"}  # noqa: E731
            assert strip(venv.save_state(1)) == strip(single.save_state())
            for _ in range(50):
                obs, *_ = venv.step(venv.sample_actions())
                assert np.all(obs >= 0.0) and np.all(obs <= 1.0)
    assert tried > 0 and 0 < accepted < tried

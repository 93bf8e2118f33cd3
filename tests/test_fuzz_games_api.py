"""Fuzz tests of the two-player games' Python API (D-Day 1944 and Maurice Lite) as
tests/test_fuzz_api.py fuzzes Maquis: junk and illegal calls to the single, AEC and vector envs,
and saves taken along real games with fields changed. Every call succeeds or raises a documented
exception, never a Rust panic; a refused call changes nothing; an accepted save plays on with
valid observations. Also, for every game: the env's save holds every stream it draws from
(`sample_action(s)` included), stream positions a save could not hold again are refused, and a
save of the earlier layout (no env streams) still loads.

`MAQUIS_FUZZ_CASES` scales the number of cases (default: a short run for CI).
"""

from __future__ import annotations

import copy
import json
import os
import pathlib

import numpy as np
import pytest

import maquis
import maquis.dday as dday
import maquis.maurice as maurice
from test_fuzz_api import DOCUMENTED, call, junk, leaves, mutations, panics, set_at

CASES = int(os.environ.get("MAQUIS_FUZZ_CASES", "200"))
SEED = int(os.environ.get("MAQUIS_FUZZ_SEED", "0"))
FIXTURES = pathlib.Path(__file__).parent / "fixtures"

GAMES = {
    "dday": dict(single=lambda: dday.DDayEnv(opponent="random", illegal_action="raise"),
                 vector=lambda n: dday.DDayVectorEnv(n, opponent="random", illegal_action="raise"),
                 aec=lambda: dday.raw_env()),
    "maurice": dict(single=lambda: maurice.MauriceEnv(opponent="random", scenario="skirmish", illegal_action="raise"),
                    vector=lambda n: maurice.MauriceVectorEnv(n, opponent="random", scenario="skirmish",
                                                              illegal_action="raise"),
                    aec=lambda: maurice.raw_env(scenario="skirmish")),
}
TWO = sorted(GAMES)


def game_part(text: str) -> str:
    """A save without the env's own streams (what two envs with other streams share)."""
    doc = json.loads(text)
    doc.pop("env_streams", None)
    return json.dumps(doc, sort_keys=True)


def valid_obs(obs) -> None:
    arr = np.asarray(obs["observation"] if isinstance(obs, dict) else obs)
    assert np.all(arr >= 0) and not np.isnan(arr.astype(np.float64)).any()


@pytest.mark.parametrize("game", TWO)
def test_junk_calls_to_the_single_env_raise_documented_errors_and_change_nothing(game):
    rng = np.random.default_rng(SEED)
    env = GAMES[game]["single"]()
    env.reset(seed=SEED)
    for _ in range(CASES):
        before = env.save_state()
        kind = int(rng.integers(6))
        if kind == 0:
            err = call(env.step, junk(rng))
        elif kind == 1:
            # An illegal action (raise): refused.
            illegal = np.flatnonzero(env.action_masks() == 0)
            err = call(env.step, int(illegal[int(rng.integers(len(illegal)))])) if len(illegal) else None
        elif kind == 2:
            err = call(env.reset, seed=junk(rng))
        elif kind == 3:
            err = call(env.reset, options={["scenario", "side", "dice", "bogus"][int(rng.integers(4))]: junk(rng)})
        elif kind == 4:
            err = call(env.load_state, junk(rng))
        else:
            err = call(env.action_to_str, junk(rng))
        if err is not None:
            assert env.save_state() == before, f"a failed call ({err}) changed the state"
        if env.done:
            env.reset()
        else:
            obs, *_ = env.step(env.sample_action())
            valid_obs(obs)


@pytest.mark.parametrize("game", TWO)
def test_junk_calls_to_the_vector_env_raise_documented_errors_and_change_nothing(game):
    rng = np.random.default_rng(SEED + 1)
    n = 3
    v = GAMES[game]["vector"](n)
    v.reset(seed=SEED)
    for _ in range(max(CASES // 2, 30)):
        # Drawn first: a draw moves the sampling streams, which the saves hold.
        actions = v.sample_actions().astype(object)
        before = [v.save_state(i) for i in range(n)]
        kind = int(rng.integers(4))
        if kind == 0:
            actions[int(rng.integers(n))] = junk(rng)
            err = call(v.step, actions)
        elif kind == 1:
            err = call(v.load_state, junk(rng), junk(rng), documented=DOCUMENTED + (IndexError,))
        elif kind == 2:
            err = call(v.save_state, junk(rng), documented=DOCUMENTED + (IndexError,))
        else:
            err = call(v.reset, seed=junk(rng))
        if err is not None:
            assert [v.save_state(i) for i in range(n)] == before, f"a failed call ({err}) changed a state"
        obs, *_ = v.step(v.sample_actions())
        valid_obs(obs)


@pytest.mark.parametrize("game", TWO)
def test_junk_calls_to_the_aec_env_raise_documented_errors_and_change_nothing(game):
    rng = np.random.default_rng(SEED + 2)
    env = GAMES[game]["aec"]()
    env.reset(seed=SEED)
    for _ in range(CASES):
        before = env.save_state()
        kind = int(rng.integers(3))
        if kind == 0:
            err = call(env.step, junk(rng))
        elif kind == 1:
            err = call(env.load_state, junk(rng))
        else:
            mask = env.observe(env.agent_selection)["action_mask"]
            illegal = np.flatnonzero(mask == 0)
            err = call(env.step, int(illegal[int(rng.integers(len(illegal)))])) if len(illegal) else None
        if err is not None:
            assert env.save_state() == before, f"a failed call ({err}) changed the state"
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            env.reset()
            continue
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(legal[int(rng.integers(len(legal)))]))


def saved_states(game: str, count: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    out = []
    g = 0
    while len(out) < count:
        env = GAMES[game]["single"]()
        env.reset(seed=seed + g)
        g += 1
        while not env.done:
            if rng.random() < 0.1:
                out.append(env.save_state())
            env.step(env.sample_action())
        out.append(env.save_state())
    return out[:count]


def play_on(env, max_steps: int = 200) -> None:
    steps = 0
    while not env.done and steps < max_steps:
        assert env.action_masks().any(), "a live game with no legal action"
        obs, *_ = env.step(env.sample_action())
        valid_obs(obs)
        steps += 1


@pytest.mark.parametrize("game", TWO)
def test_mutated_saves_are_refused_or_play_on_in_single_and_vector_envs(game):
    rng = np.random.default_rng(SEED + 3)
    saves = saved_states(game, max(CASES // 40, 5), SEED)
    venv = GAMES[game]["vector"](2)
    venv.reset(seed=SEED)
    tried = accepted = 0
    for text in saves:
        doc = json.loads(text)
        paths = [p for p, _ in leaves(doc)]
        for i in rng.permutation(len(paths))[: max(CASES // len(saves), 1)]:
            path = paths[int(i)]
            if not path:
                continue
            original = doc
            for p in path:
                original = original[p]
            value = mutations(original, rng)[int(rng.integers(3))]
            mutated = copy.deepcopy(doc)
            set_at(mutated, path, value)
            single = GAMES[game]["single"]()
            single.reset(seed=0)
            before = single.save_state()
            vbefore = [venv.save_state(k) for k in range(2)]
            tried += 1
            err = call(single.load_state, json.dumps(mutated))
            verr = call(venv.load_state, 1, json.dumps(mutated))
            assert (err is None) == (verr is None), f"{path} = {value!r}: {err} vs {verr}"
            if err is not None:
                assert isinstance(err, ValueError), f"{path} = {value!r}: {type(err).__name__} {err}"
                assert single.save_state() == before
                assert [venv.save_state(k) for k in range(2)] == vbefore
                continue
            accepted += 1
            try:
                single.state_dict()
                assert venv.save_state(1) == single.save_state()
                play_on(single)
                for _ in range(20):
                    obs, *_ = venv.step(venv.sample_actions())
                    valid_obs(obs)
            except BaseException as e:  # noqa: BLE001
                kind = "panicked" if panics(e) else f"raised {type(e).__name__}"
                raise AssertionError(f"accepted {path} = {value!r}, then play {kind}: {e}") from e
    assert tried > 0 and 0 < accepted < tried


@pytest.mark.parametrize("game", TWO)
def test_mutated_game_saves_are_refused_or_play_on_in_the_aec_env(game):
    rng = np.random.default_rng(SEED + 4)
    env = GAMES[game]["aec"]()
    env.reset(seed=SEED)
    saves = []
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        if rng.random() < 0.15:
            saves.append(env.save_state())
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(legal[int(rng.integers(len(legal)))]))
    tried = accepted = 0
    for text in saves[:10]:
        doc = json.loads(text)
        paths = [p for p, _ in leaves(doc) if p]
        for i in rng.permutation(len(paths))[: max(CASES // 10, 1)]:
            path = paths[int(i)]
            original = doc
            for p in path:
                original = original[p]
            mutated = copy.deepcopy(doc)
            set_at(mutated, path, mutations(original, rng)[0])
            fresh = GAMES[game]["aec"]()
            fresh.reset(seed=1)
            before = fresh.save_state()
            tried += 1
            err = call(fresh.load_state, json.dumps(mutated))
            if err is not None:
                assert isinstance(err, ValueError) and fresh.save_state() == before
                continue
            accepted += 1
            for _ in range(100):
                a = fresh.agent_selection
                if fresh.terminations[a] or fresh.truncations[a]:
                    break
                o = fresh.observe(a)
                valid_obs(o)
                legal = np.flatnonzero(o["action_mask"])
                assert len(legal), "a live game with no legal action"
                fresh.step(int(legal[int(rng.integers(len(legal)))]))
    assert tried > 0 and accepted < tried


# ---- streams -------------------------------------------------------------------------------------

SINGLE = {
    "maquis": lambda: maquis.MaquisEnv(),
    "dday": GAMES["dday"]["single"],
    "maurice": GAMES["maurice"]["single"],
}
VECTOR = {
    "maquis": lambda n: maquis.MaquisVectorEnv(n),
    "dday": GAMES["dday"]["vector"],
    "maurice": GAMES["maurice"]["vector"],
}
ALL = sorted(SINGLE)


def streams_in(doc, path=()):
    """The paths of every ChaCha stream of a save."""
    for p, v in leaves(doc):
        if isinstance(v, dict) and {"seed", "stream", "word_pos"} <= set(v):
            yield p


@pytest.mark.parametrize("game", ALL)
def test_stream_positions_a_save_cannot_hold_are_refused(game):
    env = SINGLE[game]()
    env.reset(seed=4)
    for _ in range(3):
        env.step(env.sample_action())
    doc = json.loads(env.save_state())
    paths = list(streams_in(doc))
    # The game's, the env's two, and the opponent's in the two-player games.
    assert len(paths) >= (3 if game == "maquis" else 4), paths
    if game != "maquis":
        assert any(p[0] == "opponent" for p in paths), paths
    for p in paths:
        for bad in (2**64, 2**64 - 1, -1):
            d = copy.deepcopy(doc)
            set_at(d, p + ("word_pos",), bad)
            fresh = SINGLE[game]()
            fresh.reset(seed=0)
            before = fresh.save_state()
            with pytest.raises(ValueError, match="word_pos"):
                fresh.load_state(json.dumps(d))
            assert fresh.save_state() == before
            v = VECTOR[game](2)
            v.reset(seed=0)
            with pytest.raises(ValueError, match="word_pos"):
                v.load_state(1, json.dumps(d))


@pytest.mark.parametrize("game", ALL)
def test_sample_actions_go_on_the_same_after_save_and_load(game):
    env = SINGLE[game]()
    env.reset(seed=7)
    for _ in range(4):
        env.step(env.sample_action())
    text = env.save_state()
    other = SINGLE[game]()
    other.reset(seed=123)
    other.load_state(text)
    assert other.save_state() == text

    def run(e):
        out = []
        for _ in range(60):
            if e.done:
                e.reset()
            a = e.sample_action()
            out.append(a)
            e.step(a)
        return out, e.save_state()

    assert run(env) == run(other)
    # The vector env: per index, its samples and resets go on as the saved env's.
    v = VECTOR[game](2)
    v.reset(seed=3)
    for _ in range(3):
        v.step(v.sample_actions())
    w = VECTOR[game](2)
    w.reset(seed=99)
    w.load_state(0, v.save_state(0))
    assert w.save_state(0) == v.save_state(0)
    for _ in range(40):
        a, b = v.sample_actions(), w.sample_actions()
        assert a[0] == b[0]
        v.step(a)
        w.step(np.array([a[0], b[1]]))
        assert game_part(v.save_state(0)) == game_part(w.save_state(0))
    # A single env's save into a vector env: the same samples.
    single = SINGLE[game]()
    single.reset(seed=11)
    u = VECTOR[game](2)
    u.reset(seed=5)
    u.load_state(1, single.save_state())
    for _ in range(20):
        if single.done:
            break
        a = single.sample_action()
        acts = u.sample_actions()
        assert acts[1] == a
        single.step(a)
        u.step(acts)


@pytest.mark.parametrize("game", ALL)
def test_a_save_without_env_streams_still_loads(game):
    # Saves of the layout before the env's streams were saved (a fixture): the game loads, and the
    # env's own streams go on as they were.
    text = (FIXTURES / f"{game}_env_save_no_streams.json").read_text()
    assert "env_streams" not in text
    env = SINGLE[game]()
    env.reset(seed=21)
    twin = SINGLE[game]()
    twin.reset(seed=21)
    env.load_state(text)
    assert game_part(env.save_state()) == game_part(text)
    assert json.loads(env.save_state())["env_streams"] == json.loads(twin.save_state())["env_streams"]
    if not env.done:
        env.step(env.sample_action())
    v = VECTOR[game](2)
    v.reset(seed=2)
    v.load_state(0, text)
    assert game_part(v.save_state(0)) == game_part(text)


# ---- reported bad saves ----------------------------------------------------------------------------


def test_dday_guesses_left_past_the_guesses_is_refused():
    env = dday.DDayEnv(side="resistance", opponent="random")
    env.reset(seed=5)
    for _ in range(500):
        doc = json.loads(env.save_state())
        i = doc["game"]["state"]["interrogation"]
        if doc["game"]["state"]["phase"] == "interrogation" and i["n"] >= 1:
            break
        env.step(env.sample_action())
        if env.done:
            env.reset()
    else:
        pytest.skip("no interrogation reached")
    for left in (8, 200, 255):
        d = copy.deepcopy(doc)
        d["game"]["state"]["interrogation"]["guesses_left"] = left
        with pytest.raises(ValueError, match="guesses_left"):
            env.load_state(json.dumps(d))


def maurice_positions():
    env = maurice.MauriceEnv(opponent="random", scenario="skirmish")
    env.reset(seed=3)
    out = []
    while not env.done:
        out.append(json.loads(env.save_state()))
        env.step(env.sample_action())
    return out


@pytest.mark.parametrize(
    "field,value,named",
    [
        (("armies", 0, "cinc"), {"x": 3, "y": 64}, "cinc"),
        (("armies", 0, "cinc"), {"x": 3, "y": -1}, "cinc"),
        (("armies", 1, "cinc"), {"x": 99, "y": 99}, "cinc"),
        (("armies", 0, "units", 0, "at", "y"), 31, "at"),
        (("armies", 0, "units", 0, "at", "y"), 32, "at"),
        (("armies", 0, "units", 0, "at", "y"), -1, "at"),
        (("armies", 0, "units", 0, "at", "x"), 45, "at"),
        (("armies", 0, "units", 0, "cells", "n"), 5, "cells"),
        (("armies", 0, "units", 0, "cells", "n"), 255, "cells"),
        (("round", "modifiers", 0, 1), "reshuffle", "round.modifiers"),
        (("round", "modifiers", 1, 0), "reshuffle", "round.modifiers"),
        (("round", "distance"), 65535, "round.distance"),
    ],
)
def test_maurice_reported_bad_saves_are_refused_naming_the_field(field, value, named):
    doc = maurice_positions()[0]
    set_at(doc["game"]["state"], field, value)
    env = maurice.MauriceEnv(opponent="random", scenario="skirmish")
    env.reset(seed=0)
    before = env.save_state()
    with pytest.raises(ValueError, match=named.replace(".", r"\.")):
        env.load_state(json.dumps(doc))
    assert env.save_state() == before


def test_maurice_reported_round_states_are_refused_or_playable():
    positions = maurice_positions()
    moving = next(p for p in positions if p["game"]["state"]["round"]["moving"] is not None)
    for key, value in (("id", 16), ("id", 255)):
        d = copy.deepcopy(moving)
        d["game"]["state"]["round"]["moving"][key] = value
        with pytest.raises(ValueError, match=r"round\.moving\.id"):
            maurice.MauriceEnv(opponent="random", scenario="skirmish").load_state(json.dumps(d))
    d = copy.deepcopy(moving)
    d["game"]["state"]["round"]["moving"]["start"]["id"] = 19
    with pytest.raises(ValueError, match=r"round\.moving\.start"):
        maurice.MauriceEnv(opponent="random", scenario="skirmish").load_state(json.dumps(d))
    # Distances, a missing command, a unit off the table: refused, or a game with a legal action.
    for p in positions[::5]:
        edits = []
        for dist in (64, 191, 65535):
            d = copy.deepcopy(p)
            d["game"]["state"]["round"]["distance"] = dist
            edits.append(d)
        d = copy.deepcopy(p)
        d["game"]["state"]["round"]["command"] = None
        edits.append(d)
        for u in range(16):
            if p["game"]["state"]["armies"][0]["units"][u]["on_table"]:
                d = copy.deepcopy(p)
                d["game"]["state"]["armies"][0]["units"][u]["on_table"] = False
                edits.append(d)
        for d in edits:
            env = maurice.MauriceEnv(opponent="random", scenario="skirmish")
            env.reset(seed=0)
            if call(env.load_state, json.dumps(d)) is None:
                play_on(env, 30)

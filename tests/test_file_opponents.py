"""`opponent="network@FILE"` / `"network_search@FILE"`: a network level of D-Day or Maurice Lite
playing a weight file of the user's in the single and the vector env (docs/api/dday1944.md,
docs/api/maurice.md), as an opponent pool does."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import struct

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import maquis.dday as dday  # noqa: E402
import maquis.maurice as maurice  # noqa: E402
from maquis import MaquisError  # noqa: E402
from maquis.dday.network import shipped_network_path as dday_shipped  # noqa: E402
from maquis.maurice.network import NETWORK as MAURICE_NETWORK  # noqa: E402

GAMES = {
    "dday": (dday.DDayEnv, dday.DDayVectorEnv, dday_shipped, ("resistance", "german"), {}),
    "maurice": (maurice.MauriceEnv, maurice.MauriceVectorEnv, MAURICE_NETWORK.shipped_path, ("blue", "red"),
                {"observation": "compact", "scenario": "skirmish"}),
}


@pytest.fixture(params=sorted(GAMES))
def game(request, tmp_path):
    env, vector, shipped, sides, keywords = GAMES[request.param]
    path = shipped()
    if path is None:
        pytest.skip("no shipped network")
    copy = tmp_path / "opponent.safetensors"
    shutil.copyfile(path, copy)
    return request.param, env, vector, copy, sides, keywords


def play(venv, steps, seed=3):
    """Observations and rewards of `steps` steps of seeded random legal actions."""
    out = [venv.reset(seed=seed)[0]]
    rng = np.random.default_rng(0)
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        obs, reward, *_ = venv.step(actions)
        out += [obs, reward]
    return out


def same(a, b):
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


def rewrite_policy_bias(path):
    """Rewrites the file's policy biases (same size, a later modification time): another network."""
    raw = bytearray(path.read_bytes())
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    entry = header["policy.bias"]
    start, end = (8 + n + o for o in entry["data_offsets"])
    dtype = {"F32": np.float32, "F16": np.float16, "BF16": None}[entry["dtype"]]
    bias = np.frombuffer(bytes(raw[start:end]), dtype=dtype).copy()
    bias[:] = np.linspace(30, -30, bias.size).astype(dtype)  # the lowest legal index always wins
    raw[start:end] = bias.tobytes()
    path.write_bytes(bytes(raw))
    later = os.stat(path).st_mtime + 10
    os.utime(path, (later, later))


def with_training_record(raw, training):
    """A weight file's bytes with its metadata's `training` record replaced (the same weights)."""
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    header["__metadata__"]["training"] = training
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + raw[8 + n:]


@pytest.mark.parametrize("level", ["network", "network_search"])
def test_a_file_opponent_plays_the_games_of_the_level_on_that_network(game, level):
    name, _, vector, path, sides, keywords = game
    steps = 120 if level == "network" else 8
    kw = dict(keywords, opponent_kwargs={"budget": 4}) if level == "network_search" else keywords
    for side in sides:
        shipped = play(vector(4, side=side, opponent=level, num_threads=1, **kw), steps)
        on_file = play(vector(4, side=side, opponent=f"{level}@{path}", num_threads=1, **kw), steps)
        assert same(shipped, on_file), (name, side)


def test_pickles_and_saves_name_the_file_and_play_on_from_any_directory(game, tmp_path, monkeypatch):
    name, env_class, _, path, sides, keywords = game
    monkeypatch.chdir(path.parent)
    env = env_class(side=sides[1], opponent=f"network@{path.name}", **keywords)
    assert env._core.opponent == f"network@{path}"  # made absolute
    env.reset(seed=5)
    for _ in range(4):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    monkeypatch.chdir(tmp_path.parent)
    copy = pickle.loads(pickle.dumps(env))
    save = env.save_state()
    assert str(path) in save
    other = env_class(side=sides[1], opponent="heuristic", **keywords)
    other.reset(seed=0)
    other.load_state(save)
    for _ in range(40):
        a = int(np.flatnonzero(env.action_masks())[0])
        results = [e.step(a) for e in (env, copy, other)]
        assert all(np.array_equal(results[0][0], r[0]) and results[0][1:4] == r[1:4] for r in results[1:])
        if results[0][2]:
            break


def test_a_rewritten_file_is_read_again_by_environments_made_afterwards(game):
    name, _, vector, path, sides, keywords = game
    side = sides[0]
    steps = 200  # Maurice Lite's opponent first decides after some 90 learner steps
    before = vector(2, side=side, opponent=f"network@{path}", num_threads=1, **keywords)
    first = play(before, steps)
    rewrite_policy_bias(path)
    after = play(vector(2, side=side, opponent=f"network@{path}", num_threads=1, **keywords), steps)
    assert not same(first, after)
    assert same(first, play(before, steps))  # an env made before keeps the network it had


def test_a_save_whose_file_holds_another_network_is_refused(game, tmp_path):
    name, env_class, _, path, sides, keywords = game
    env = env_class(side=sides[1], opponent=f"network@{path}", **keywords)
    env.reset(seed=2)
    save = env.save_state()
    retrained = tmp_path / "retrained.safetensors"
    retrained.write_bytes(with_training_record(path.read_bytes(), "another run"))
    with pytest.raises(MaquisError, match="another network than the file"):
        env_class(side=sides[1], opponent="heuristic", **keywords).load_state(save.replace(str(path), str(retrained)))


def test_reset_options_take_a_file_opponent(game):
    name, env_class, _, path, sides, keywords = game
    env = env_class(side=sides[1], opponent="random", **keywords)
    env.reset(seed=4, options={"opponent": f"network@{path}"})
    with pytest.raises(ValueError, match="weight file is played by"):
        env.reset(seed=4, options={"opponent": f"search@{path}"})


@pytest.mark.parametrize("make", ["single", "vector"])
def test_bad_file_opponents_are_clear_errors(game, tmp_path, make):
    name, env_class, vector, path, sides, keywords = game
    build = (lambda o: env_class(opponent=o, **keywords)) if make == "single" else (
        lambda o: vector(2, opponent=o, num_threads=1, **keywords))
    with pytest.raises(ValueError, match="'network@FILE' and 'network_search@FILE'"):
        build(f"heuristic@{path}")
    with pytest.raises(ValueError, match="no file after '@'"):
        build("network@")
    with pytest.raises(FileNotFoundError, match="no such file"):
        build(f"network@{tmp_path / 'missing.safetensors'}")
    junk = tmp_path / "junk.safetensors"
    junk.write_bytes(b"not a network")
    with pytest.raises(MaquisError, match="not a safetensors file"):
        build(f"network@{junk}")
    other = MAURICE_NETWORK.shipped_path() if name == "dday" else dday_shipped()
    with pytest.raises(MaquisError, match="observation layout"):
        build(f"network@{other}")


def test_evaluate_plays_against_a_file_opponent_as_against_its_level(game):
    name, _, _, path, sides, _ = game
    module = dday if name == "dday" else maurice
    kwargs = {} if name == "dday" else {"scenario": "skirmish"}
    level = module.evaluate("random", side=sides[1], opponents=("network",), episodes=4, seed=3, **kwargs)
    on_file = module.evaluate("random", side=sides[1], opponents=(f"network@{path}",), episodes=4, seed=3, **kwargs)
    assert [r.opponent for r in on_file.rows] == [f"network@{path}"]
    assert [r.counts for r in on_file.rows] == [r.counts for r in level.rows]
    with pytest.raises(ValueError, match="weight file is played by"):
        module.evaluate("random", side=sides[1], opponents=(f"heuristic@{path}",), episodes=1, **kwargs)

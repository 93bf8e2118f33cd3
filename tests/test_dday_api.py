"""The module-level API of `maquis.dday` (constants, names, allocations, agents) and a fuzz of
junk arguments: every call succeeds or raises TypeError/ValueError — never a Rust panic — and a
call that raises leaves the environment as it was."""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import maquis  # noqa: E402
import maquis.dday as dday  # noqa: E402
from maquis.dday.agents import HeuristicAgent, RandomAgent, SearchAgent  # noqa: E402

CASES = int(os.environ.get("MAQUIS_FUZZ_CASES", "300"))


def test_constants():
    assert dday.ZONES == ("caen", "bayeux", "lison", "saint_lo", "avranches")
    assert dday.ITEMS == ("squad", "goods", "passenger", "vip", "gendarme")
    assert dday.UNITS == ("resistance", "squad", "gendarme_1", "gendarme_2", "gendarme_3")
    assert dday.STATES == ("standing", "in_cover")
    assert dday.PHASES[0] == "allocation" and dday.PHASES[-1] == "game_over" and len(dday.PHASES) == 12
    assert dday.NUM_ACTIONS == 191 == len(dday.ACTION_NAMES) and dday.OBSERVATION_SIZE == 380
    assert dday.ACTION_NAMES[0] == "allocate:squad:caen" and dday.ACTION_NAMES[75] == "stop_interrogation"
    assert dday.ACTION_NAMES[76] == "attack:caen:bayeux" and dday.ACTION_NAMES[190] == "flee:gendarme_3:in_cover"
    offset = 0
    for name, off, length in dday.OBSERVATION_LAYOUT:
        assert off == offset
        offset += length
    assert offset == 380 and dday.OBSERVATION_LAYOUT[-1] == ("vp", 378, 2)
    for i, name in enumerate(dday.ACTION_NAMES):
        assert dday.action_to_str(i) == name and dday.action_from_str(name) == i
    with pytest.raises(ValueError):
        dday.action_to_str(191)
    with pytest.raises(ValueError):
        dday.action_from_str("jump")
    with pytest.raises(TypeError):
        dday.action_to_str("1")


def test_valid_allocations():
    allocs = dday.valid_allocations()
    assert len(allocs) == 6600
    a = allocs[0]
    assert list(a) == list(dday.ZONES)
    assert all(isinstance(v, tuple) for v in a.values())
    assert sum(len(v) for v in a.values()) == 11
    # Lexicographic order of the decision sequences: squads in zone order come first.
    def seq(alloc):
        order = ["squad"] * 3 + ["goods"] * 2 + ["passenger", "vip"] + ["gendarme"] * 4
        zones = []
        for kind in dict.fromkeys(order):
            zones += sorted(dday.ZONES.index(z) for z, items in alloc.items() for it in items if it == kind)
        return zones

    seqs = [seq(x) for x in allocs[:200]]
    assert seqs == sorted(seqs)
    # Every one is accepted as a reset option.
    env = dday.raw_env()
    env.reset(seed=0, options={"allocation": {z: list(v) for z, v in allocs[1234].items()}})
    assert env.state_dict()["phase"] == "interrogation"


@pytest.mark.parametrize("cls", [RandomAgent, HeuristicAgent, lambda seed=None: SearchAgent(budget=3, seed=seed)])
def test_agents_act_legally_on_either_side_and_in_batches(cls):
    env = dday.raw_env()
    env.reset(seed=2)
    agents = {"resistance": cls(seed=1), "german": cls(seed=2)}
    for agent in env.agent_iter(3000):
        obs, r, term, trunc, info = env.last()
        if term:
            env.step(None)
            continue
        a = agents[agent].act(obs["observation"], obs["action_mask"])
        assert obs["action_mask"][a] == 1
        env.step(a)
    venv = dday.DDayVectorEnv(3, opponent="random")
    obs, infos = venv.reset(seed=0)
    acts = cls(seed=0).act_batch(obs, infos["action_mask"])
    assert acts.dtype == np.int64 and all(infos["action_mask"][i, acts[i]] for i in range(3))
    a1 = cls(seed=5).act_batch(obs, venv.action_masks())
    a2 = cls(seed=5).act_batch(obs, venv.action_masks())
    np.testing.assert_array_equal(a1, a2)


def test_agents_refuse_bad_input():
    agent = HeuristicAgent(seed=0)
    with pytest.raises(ValueError):
        agent.act(np.zeros(380, np.float32), np.zeros(191, np.int8))  # no legal action
    with pytest.raises(ValueError):
        agent.act(np.zeros(10, np.float32), np.ones(191, np.int8))
    with pytest.raises(TypeError):
        agent.act("obs", np.ones(191, np.int8))
    with pytest.raises(ValueError):
        SearchAgent(budget=0)
    with pytest.raises(TypeError):
        RandomAgent(seed="x")
    rng = np.random.default_rng(0)
    for _ in range(50):  # junk observations: an error or a legal action, never a panic
        obs = rng.random(380, dtype=np.float32)
        mask = (rng.random(191) < 0.2).astype(np.int8)
        mask[0] = 1
        try:
            a = agent.act(obs, mask)
        except ValueError:
            continue
        assert mask[a] == 1


JUNK = [
    None, True, 0, 1, -1, 190, 191, 2**31, 2**63, 2**64, -(2**63), 0.5, float("nan"), "", "x", "keep",
    b"0", [], [0], {}, {"a": 1}, (), object(), np.int8(-1), np.uint64(2**64 - 1), np.float32(1.0),
    np.array(3), np.zeros((2, 2)), complex(1, 2), "vp_margin", {"win": "1"}, {"win": float("inf")},
]
OPTION_KEYS = ["allocation", "attack", "first", "dice", "side", "opponent", "bogus"]


def junk(rng):
    return JUNK[int(rng.integers(len(JUNK)))]


def call(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except (TypeError, ValueError) as e:
        return e
    except BaseException as e:  # noqa: BLE001
        kind = "a Rust panic" if type(e).__name__ == "PanicException" else f"undocumented {type(e).__name__}"
        raise AssertionError(f"{getattr(fn, '__name__', fn)}{args!r:.200}{kwargs!r:.200} raised {kind}: {e}") from e
    return None


def test_fuzz_single_env_and_vector_env():
    rng = np.random.default_rng(int(os.environ.get("MAQUIS_FUZZ_SEED", "0")))
    env = dday.DDayEnv(opponent="random", illegal_action="raise")
    env.reset(seed=0)
    venv = dday.DDayVectorEnv(2, opponent="random", illegal_action="raise")
    venv.reset(seed=0)
    for _ in range(CASES):
        kind = int(rng.integers(6))
        if kind == 0:
            before = env.save_state()
            if call(env.step, junk(rng)) is not None:
                assert env.save_state() == before
        elif kind == 1:
            opts = {str(OPTION_KEYS[int(rng.integers(len(OPTION_KEYS)))]): junk(rng) for _ in range(int(rng.integers(1, 3)))}
            before = env.save_state()
            if call(env.reset, options=opts) is not None:
                assert env.save_state() == before
        elif kind == 2:
            kw = {k: junk(rng) for k in rng.choice(["side", "opponent", "opponent_kwargs", "reward", "illegal_action", "render_mode"], 2)}
            call(dday.DDayEnv, **kw)
            call(dday.DDayVectorEnv, 2, **kw)
        elif kind == 3:
            call(venv.step, np.array([junk(rng), junk(rng)], dtype=object))
            call(venv.reset, options={"dice": junk(rng)})
        elif kind == 4:
            call(dday.raw_env, reward=junk(rng))
            call(env.load_state, junk(rng))
        else:
            call(dday.action_to_str, junk(rng))
            call(dday.action_from_str, junk(rng))
        if env.done:
            env.reset()
        legal = env.legal_actions()
        if legal:
            env.step(legal[int(rng.integers(len(legal)))])
        else:
            env.reset()


def test_fuzz_aec_env():
    rng = np.random.default_rng(1)
    env = dday.raw_env()
    env.reset(seed=0)
    for _ in range(CASES // 2):
        before = env.save_state()
        if call(env.step, junk(rng)) is not None:
            assert env.save_state() == before
        if env._game.is_over:
            env.reset()
        legal = env.legal_actions()
        env.step(legal[int(rng.integers(len(legal)))])
        if env._game.is_over:
            env.reset()


def test_maquis_package_exposes_dday_and_registers_the_env():
    import gymnasium as gym

    assert maquis.dday is dday
    assert "maquis/DDay1944-v0" in gym.registry

"""What every two-player game's environments promise, checked once for each (D-Day 1944, Maurice
Lite): PettingZoo's api_test and seed_test, the vector env's determinism over thread counts and
its sub-env seeding and reset masks, the AEC and single envs' exact save, load, clone and pickle,
and the single env's rendering. Each game's own
behaviour stays in its tests/test_<game>_*.py."""

from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import maquis.dday as dday  # noqa: E402
import maquis.maurice as maurice  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402


@dataclass(frozen=True)
class Game:
    name: str
    package: Any
    single: Callable[..., Any]
    vector: Callable[..., Any]
    #: The learner side played against the heuristic in the seeding and save tests.
    side: str
    #: Keywords of both envs in those tests (Maurice: compact rows, to keep them quick).
    kw: dict[str, Any] = field(default_factory=dict)
    #: api_test on env(**aec_kw) and raw_env(): the cycles of each.
    aec_kw: dict[str, Any] = field(default_factory=dict)
    api_cycles: tuple[int, int] = (200, 200)
    seed_cycles: int = 200
    #: Thread-count determinism: envs, thread counts, steps.
    threads: tuple[int, tuple[int, ...], int] = (6, (1, 2, 3), 300)
    #: Steps of the vector env against single envs; steps before a save.
    sub_env_steps: int = 400
    save_after: int = 20
    #: Random steps of the AEC env before its save, clone and pickle.
    aec_save_after: int = 40
    #: An action illegal for env 0 of a vector env reset with seed 0 (its infos given).
    illegal: Callable[[dict[str, Any]], int] = lambda infos: int(np.flatnonzero(infos["action_mask"][0] == 0)[0])


GAMES = [
    # The Resistance learner never allocates.
    Game("dday", dday, dday.DDayEnv, dday.DDayVectorEnv, side="german",
         illegal=lambda infos: dday.action_from_str("allocate:squad:caen")),
    Game("maurice", maurice, maurice.MauriceEnv, maurice.MauriceVectorEnv, side="red",
         kw={"observation": "compact"}, aec_kw={"observation": "compact"}, api_cycles=(100, 30), seed_cycles=100,
         threads=(4, (1, 2), 150), sub_env_steps=300, save_after=15, aec_save_after=30),
]


@pytest.fixture(params=GAMES, ids=[g.name for g in GAMES])
def game(request: pytest.FixtureRequest) -> Game:
    return request.param


def rollout(venv, steps, seed=0):
    obs, infos = venv.reset(seed=seed)
    trace = [obs.tobytes()]
    for _ in range(steps):
        a = venv.sample_actions()
        obs, r, term, trunc, infos = venv.step(a)
        trace.append((a.tobytes(), obs.tobytes(), r.tobytes(), term.tobytes()))
    return trace


def test_api_test_passes(game):
    wrapped, raw = game.api_cycles
    api_test(game.package.env(**game.aec_kw), num_cycles=wrapped)
    api_test(game.package.raw_env(), num_cycles=raw)


def test_seed_test_passes(game):
    seed_test(lambda: game.package.env(**game.aec_kw), num_cycles=game.seed_cycles)


def test_same_trajectories_for_any_thread_count(game):
    n, threads, steps = game.threads
    kw = {"opponent": "heuristic", **game.kw}
    ref = rollout(game.vector(n, num_threads=threads[0], **kw), steps)
    for t in threads[1:]:
        assert rollout(game.vector(n, num_threads=t, **kw), steps) == ref
    assert rollout(game.vector(n, num_threads=threads[0], **kw), steps, seed=1) != ref


def test_env_i_equals_a_single_env_seeded_with_sub_env_seed(game):
    n, s = 3, 40
    kw = {"side": game.side, "opponent": "heuristic", **game.kw}
    venv = game.vector(n, num_threads=2, **kw)
    obs, infos = venv.reset(seed=s)
    singles = [game.single(**kw) for _ in range(n)]
    sobs = [e.reset(seed=game.package.sub_env_seed(s, i))[0] for i, e in enumerate(singles)]
    for i in range(n):
        np.testing.assert_array_equal(obs[i], sobs[i])
    rng = np.random.default_rng(0)
    done = np.zeros(n, bool)
    for _ in range(game.sub_env_steps):
        masks = venv.action_masks()
        a = np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks])
        obs, r, term, _, infos = venv.step(a)
        for i, e in enumerate(singles):
            if done[i]:
                continue
            o, sr, st, _, sinfo = e.step(int(a[i]))
            np.testing.assert_array_equal(obs[i], o)
            assert r[i] == np.float32(sr) and term[i] == st
            if st:
                assert infos["outcome"][i] == sinfo["outcome"]
                done[i] = True
        if done.all():
            break


def test_save_load_clone_pickle_exact(game):
    kw = {"side": game.side, "opponent": "heuristic", **game.kw}
    env = game.single(**kw)
    env.reset(seed=8)
    for _ in range(game.save_after):
        env.step(env.sample_action())
    saved = env.save_state()
    twins = [env.clone(), copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    loaded = game.single(**kw)
    loaded.reset(seed=1)
    loaded.load_state(saved)

    def run(e, k=40):
        out = []
        for i in range(k):
            legal = e.legal_actions()
            if not legal:
                break
            o, r, t, _, _ = e.step(legal[(7 * i) % len(legal)])
            out.append((o.tobytes(), r, t))
            if t:
                break
        return out

    ref = run(env)
    for t in twins + [loaded]:
        assert run(t) == ref
    before = loaded.save_state()
    with pytest.raises(ValueError):
        loaded.load_state("not json")
    assert loaded.save_state() == before


def test_aec_save_load_clone_pickle_round_trip(game):
    e = game.package.raw_env(**game.aec_kw)
    e.reset(seed=7)
    rng = np.random.default_rng(3)
    for _ in range(game.aec_save_after):
        obs, *_ = e.last()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    saved = e.save_state()
    loaded = game.package.raw_env(**game.aec_kw)
    loaded.reset(seed=99)
    loaded.load_state(saved)
    twins = [e.clone(), pickle.loads(pickle.dumps(e)), loaded]
    for side in e.possible_agents:  # the observation kind (Maurice: compact) survives a pickle
        assert twins[1].observation_space(side) == e.observation_space(side)
    picks = [int(x) for x in np.random.default_rng(4).integers(0, 10**9, size=60)]

    def run(env):
        out = []
        for k in picks:
            if env._game.is_over:
                break
            legal = env.legal_actions()
            env.step(legal[k % len(legal)])
            out.append((env.save_state(), env.observe(env.agent_selection)["observation"].tobytes()))
        return out

    ref = run(e)
    for t in twins:
        assert run(t) == ref


def test_illegal_actions_in_the_vector_env(game):
    venv = game.vector(2, opponent="random")
    _, infos = venv.reset(seed=0)
    illegal = game.illegal(infos)
    assert infos["action_mask"][0, illegal] == 0
    obs, r, term, _, infos = venv.step(np.array([illegal, venv.sample_actions()[1]]))
    assert term[0] and r[0] == -1.0 and infos["illegal_action"][0] and infos["outcome"][0] == "loss"
    venv = game.vector(2, opponent="random", illegal_action="raise")
    venv.reset(seed=0)
    with pytest.raises(ValueError, match="env 0"):
        venv.step(np.array([illegal, venv.sample_actions()[1]]))


def test_reset_mask_resets_a_subset(game):
    venv = game.vector(3, opponent="random", **game.kw)
    venv.reset(seed=0)
    for _ in range(5):
        venv.step(venv.sample_actions())
    before = [venv.save_state(i) for i in range(3)]
    venv.reset(options={"reset_mask": np.array([False, True, False])})
    after = [venv.save_state(i) for i in range(3)]
    assert after[0] == before[0] and after[2] == before[2] and after[1] != before[1]


def test_render_goes_to_the_renderer_or_says_not_implemented(game):
    env = game.single(render_mode="ansi", opponent="random", **game.kw)
    env.reset(seed=0)
    try:
        out = env.render()
    except NotImplementedError as e:
        assert "render" in str(e)
    else:
        assert isinstance(out, str) and out

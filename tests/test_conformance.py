"""What every registered game's environments promise, checked once for each game of
`maquis.common.registry.games()`: reset masks, every render mode, save/load, clone and pickle
round trips, seeding and the vector env's sub-env seeds, its determinism over thread counts and
its reset masks, illegal actions, bad options, next-step autoreset; and for the two-player games
PettingZoo's api_test and seed_test and the AEC env's exact save, load, clone and pickle. A new
game gets these by registering (its test settings below default to quick ones). Each game's own
behaviour stays in its tests/test_<game>_*.py."""

from __future__ import annotations

import copy
import importlib
import pickle
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pytest

import maquis
from maquis.common.registry import games, load

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402


@dataclass(frozen=True)
class Settings:
    """How the checks play a game."""

    #: The learner side played in the seeding and save tests (a two-player game's).
    learner: dict[str, Any] = field(default_factory=dict)
    #: Whether its envs take `opponent=` (a two-player game's single and vector envs).
    opponents: bool = False
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
    #: An action illegal for env 0 of a vector env reset with seed 0 (its infos given), or None
    #: for a game that has none there (one whose actions are all legal at every decision).
    illegal: Callable[[dict[str, Any]], int | None] = lambda infos: next(
        (int(i) for i in np.flatnonzero(infos["action_mask"][0] == 0)), None)

    def opponent(self, name: str) -> dict[str, Any]:
        return {"opponent": name} if self.opponents else {}


SETTINGS: dict[str, Settings] = {
    # A random solitaire game can be over in 18 decisions: saved earlier.
    "maquis": Settings(save_after=8),
    # The Resistance learner never allocates.
    "dday": Settings(learner={"side": "german"}, opponents=True,
                     illegal=lambda infos: maquis.dday.action_from_str("allocate:squad:caen")),
    "maurice": Settings(learner={"side": "red"}, opponents=True, kw={"observation": "compact"},
                        aec_kw={"observation": "compact"}, api_cycles=(100, 30), seed_cycles=100,
                        threads=(4, (1, 2), 150), sub_env_steps=300, save_after=15, aec_save_after=30),
}


def settings(game) -> Settings:
    """A game's settings: its own above, else the quick defaults, with `opponent=` passed where
    its declared keywords have it (a newly registered game needs no line here)."""
    return SETTINGS.get(game.key) or Settings(opponents=any(k.name == "opponent" for k in game.keywords))

GAMES = games()
EACH = pytest.mark.parametrize("game", GAMES, ids=[g.key for g in GAMES])
TWO_PLAYER = pytest.mark.parametrize("game", [g for g in GAMES if g.aec_env], ids=[g.key for g in GAMES if g.aec_env])


def package(game):
    return importlib.import_module(game.package)


def single(game, **kw):
    return load(game.single_env)(**kw)


def vector(game, num_envs, **kw):
    return load(game.vector_env)(num_envs, **kw)


def rollout(venv, steps, seed=0):
    obs, infos = venv.reset(seed=seed)
    trace = [obs.tobytes()]
    for _ in range(steps):
        a = venv.sample_actions()
        obs, r, term, trunc, infos = venv.step(a)
        trace.append((a.tobytes(), obs.tobytes(), r.tobytes(), term.tobytes()))
    return trace


@TWO_PLAYER
def test_api_test_passes(game):
    s = settings(game)
    wrapped, raw = s.api_cycles
    api_test(package(game).env(**s.aec_kw), num_cycles=wrapped)
    api_test(package(game).raw_env(), num_cycles=raw)


@TWO_PLAYER
def test_seed_test_passes(game):
    s = settings(game)
    seed_test(lambda: package(game).env(**s.aec_kw), num_cycles=s.seed_cycles)


@EACH
def test_same_trajectories_for_any_thread_count(game):
    s = settings(game)
    n, threads, steps = s.threads
    kw = {**s.opponent("heuristic"), **s.kw}
    ref = rollout(vector(game, n, num_threads=threads[0], **kw), steps)
    for t in threads[1:]:
        assert rollout(vector(game, n, num_threads=t, **kw), steps) == ref
    assert rollout(vector(game, n, num_threads=threads[0], **kw), steps, seed=1) != ref


@EACH
def test_env_i_equals_a_single_env_seeded_with_sub_env_seed(game):
    s = settings(game)
    n, seed = 3, 40
    kw = {**s.learner, **s.opponent("heuristic"), **s.kw}
    venv = vector(game, n, num_threads=2, **kw)
    obs, infos = venv.reset(seed=seed)
    singles = [single(game, **kw) for _ in range(n)]
    sobs = [e.reset(seed=maquis.sub_env_seed(seed, i))[0] for i, e in enumerate(singles)]
    for i in range(n):
        np.testing.assert_array_equal(obs[i], sobs[i])
    rng = np.random.default_rng(0)
    done = np.zeros(n, bool)
    for _ in range(s.sub_env_steps):
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


@EACH
def test_save_load_clone_pickle_exact(game):
    s = settings(game)
    kw = {**s.learner, **s.opponent("heuristic"), **s.kw}
    env = single(game, **kw)
    env.reset(seed=8)
    for _ in range(s.save_after):  # saved mid-game: before the step that would end it (a short game's)
        action = env.sample_action()
        ahead = env.clone()
        ahead.step(action)
        if ahead.done:
            break
        env.step(action)
    saved = env.save_state()
    twins = [env.clone(), copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    loaded = single(game, **kw)
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


@TWO_PLAYER
def test_aec_save_load_clone_pickle_round_trip(game):
    s = settings(game)
    e = package(game).raw_env(**s.aec_kw)
    e.reset(seed=7)
    rng = np.random.default_rng(3)
    for _ in range(s.aec_save_after):  # saved mid-game, as the single env's test does
        obs, *_ = e.last()
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        ahead = e.clone()
        ahead.step(action)
        if ahead._game.is_over:
            break
        e.step(action)
    saved = e.save_state()
    loaded = package(game).raw_env(**s.aec_kw)
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


@EACH
def test_illegal_actions_in_the_vector_env(game):
    s = settings(game)
    venv = vector(game, 2, **s.opponent("random"))
    _, infos = venv.reset(seed=0)
    illegal = s.illegal(infos)
    if illegal is None:
        # A game where every action is legal at every decision: that is checked along
        # its episodes, and an action out of range is still refused.
        for _ in range(20):
            assert infos["action_mask"].all(), f"{game.title} declared no illegal action"
            _, _, _, _, infos = venv.step(venv.sample_actions())
        with pytest.raises(ValueError, match="env 0"):
            venv.step(np.array([venv.single_action_space.n, 0]))
        return
    assert infos["action_mask"][0, illegal] == 0
    obs, r, term, _, infos = venv.step(np.array([illegal, venv.sample_actions()[1]]))
    assert term[0] and r[0] == -1.0 and infos["illegal_action"][0] and infos["outcome"][0] == "loss"
    venv = vector(game, 2, **s.opponent("random"), illegal_action="raise")
    venv.reset(seed=0)
    with pytest.raises(ValueError, match="env 0"):
        venv.step(np.array([illegal, venv.sample_actions()[1]]))


@EACH
def test_reset_mask_resets_a_subset(game):
    s = settings(game)
    venv = vector(game, 3, **s.opponent("random"), **s.kw)
    venv.reset(seed=0)
    for _ in range(5):
        venv.step(venv.sample_actions())
    before = [venv.save_state(i) for i in range(3)]
    venv.reset(options={"reset_mask": np.array([False, True, False])})
    after = [venv.save_state(i) for i in range(3)]
    assert after[0] == before[0] and after[2] == before[2] and after[1] != before[1]


@EACH
def test_render_goes_to_the_renderer_or_says_not_implemented(game):
    s = settings(game)
    env = single(game, render_mode="ansi", **s.opponent("random"), **s.kw)
    env.reset(seed=0)
    try:
        out = env.render()
    except NotImplementedError as e:
        assert "render" in str(e)
    else:
        assert isinstance(out, str) and out


@EACH
def test_reset_gives_the_mask_of_the_legal_actions(game):
    env = single(game)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    mask = info["action_mask"]
    assert mask.shape == (env.action_space.n,) and mask.any()
    np.testing.assert_array_equal(mask.astype(bool), env.action_masks())
    assert sorted(env.legal_actions()) == np.flatnonzero(mask).tolist()


@EACH
def test_every_render_mode_renders(game, capsys):
    for mode in load(game.single_env).metadata["render_modes"]:
        env = single(game, render_mode=mode)
        env.reset(seed=1)
        out = env.render()
        if mode == "ansi":
            assert isinstance(out, str) and out
        elif mode == "rgb_array":
            assert out.dtype == np.uint8 and out.ndim == 3 and out.shape[2] == 3
        else:
            assert out is None and capsys.readouterr().out
    with pytest.raises(ValueError, match="render_mode"):
        single(game, render_mode="no_such_mode")


@EACH
def test_the_same_seed_replays_the_same_game(game):
    a, b = single(game), single(game)
    oa, _ = a.reset(seed=7)
    ob, _ = b.reset(seed=7)
    np.testing.assert_array_equal(oa, ob)
    assert a.state_dict() == b.state_dict()


@EACH
def test_an_illegal_action_raises_or_ends_the_game(game):
    env = single(game, illegal_action="raise")
    env.reset(seed=4)
    illegal = np.flatnonzero(~env.action_masks())
    if len(illegal):
        before = env.save_state()
        with pytest.raises(maquis.IllegalActionError):
            env.step(int(illegal[0]))
        assert env.save_state() == before
        ending = single(game)
        ending.reset(seed=4)
        _, _, terminated, truncated, info = ending.step(int(illegal[0]))
        assert terminated and not truncated and info.get("illegal_action") is True
    with pytest.raises((ValueError, IndexError)):
        env.step(env.action_space.n)
    with pytest.raises(ValueError, match="illegal_action"):
        single(game, illegal_action="no_such_policy")


@EACH
def test_bad_reset_options_are_refused_by_name(game):
    env = single(game)
    with pytest.raises(ValueError, match="no_such_option"):
        env.reset(seed=0, options={"no_such_option": 1})
    env.reset(seed=0)  # still usable


@EACH
def test_next_step_autoreset(game):
    vec = vector(game, 2)
    rng = np.random.default_rng(5)
    vec.reset(seed=5)
    ended = None
    for _ in range(5000):
        masks = vec.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        if ended is not None:
            obs, rewards, terminated, truncated, _ = vec.step(actions)
            # The step after an episode's end resets that env: no reward, not done, a fresh mask.
            assert rewards[ended] == 0 and not terminated[ended] and not truncated[ended]
            assert vec.action_masks()[ended].any()
            break
        _, _, terminated, truncated, _ = vec.step(actions)
        done = np.flatnonzero(terminated | truncated)
        if len(done):
            ended = int(done[0])
    assert ended is not None, "no episode ended"
    vec.close()

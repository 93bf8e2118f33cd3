"""Seeds of the native vector envs, for every game: sub-env i of a vector reset with `seed` plays the
streams of a single env reset with `sub_env_seed(seed, i)` (a hash of both, NumPy's SeedSequence
spawning), so that vectors seeded seed, seed + 1, ... (RLlib's env runners) or Gymnasium's
per-env sums never replay each other's deals."""

from __future__ import annotations

import importlib
from typing import Any, Callable, NamedTuple

import numpy as np
import pytest

import maquis
import maquis.dday


class Game(NamedTuple):
    name: str
    package: Any  # the game's package (its `sub_env_seed`)
    vector: Callable[..., Any]
    single: Callable[..., Any]


GAMES = [
    Game("maquis", maquis, maquis.MaquisVectorEnv, maquis.MaquisEnv),
    Game("dday", maquis.dday, lambda *a, **k: maquis.dday.DDayVectorEnv(*a, opponent="heuristic", **k),
         lambda: maquis.dday.DDayEnv(opponent="heuristic")),
]
try:  # Maurice Lite, where its package is built
    _maurice = importlib.import_module("maquis.maurice")
    GAMES.append(Game("maurice", _maurice, _maurice.MauriceVectorEnv, _maurice.MauriceEnv))
except ImportError:
    pass

EVERY_GAME = pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])


def test_sub_env_seed_is_the_seed_sequence_spawn_of_seed_and_index():
    for seed, i in [(0, 0), (7, 3), (2**40 + 5, 1000)]:
        expected = int(np.random.SeedSequence(seed, spawn_key=(i,)).generate_state(1, np.uint64)[0])
        assert maquis.sub_env_seed(seed, i) == expected
        assert isinstance(maquis.sub_env_seed(seed, i), int)
    # Not a sum: (seed + 1, i) and (seed, i + 1) differ.
    assert maquis.sub_env_seed(6, 0) != maquis.sub_env_seed(5, 1)
    assert maquis.sub_env_seed is maquis.dday.sub_env_seed


@pytest.mark.parametrize("seed, index, error", [
    (-1, 0, ValueError), (0, -2, ValueError), (1.5, 0, TypeError), (0, "1", TypeError), (True, 0, TypeError),
    (None, 0, TypeError),
])
def test_sub_env_seed_refuses_what_is_not_a_non_negative_int(seed, index, error):
    with pytest.raises(error, match="seed|index"):
        maquis.sub_env_seed(seed, index)


@EVERY_GAME
@pytest.mark.parametrize("threads", [1, 2])
def test_sub_env_i_replays_the_single_env_seeded_with_sub_env_seed(game, threads):
    n, seed = 3, 40
    v = game.vector(n, num_threads=threads)
    obs, infos = v.reset(seed=seed)
    singles = [game.single() for _ in range(n)]
    for i, e in enumerate(singles):
        o, info = e.reset(seed=game.package.sub_env_seed(seed, i))
        np.testing.assert_array_equal(obs[i], o)
        np.testing.assert_array_equal(infos["action_mask"][i], info["action_mask"])
        assert v.save_state(i) == e.save_state()
    # The sampling streams too: the same actions, the same games, across episodes.
    for _ in range(60):
        actions = v.sample_actions()
        v.step(actions)
        for i, e in enumerate(singles):
            if e.done:
                e.reset()
            else:
                assert e.sample_action() == actions[i]
                e.step(int(actions[i]))
    for i, e in enumerate(singles):
        if not e.done:
            assert v.save_state(i) == e.save_state()


def deals(vector_env: Any) -> list[str]:
    """What each sub-env's first game was dealt: its saved state right after the reset (the game,
    its RNG and the streams it was drawn from)."""
    return [vector_env.save_state(i) for i in range(vector_env.num_envs)]


@EVERY_GAME
def test_runners_seeded_seed_plus_w_play_runners_times_envs_distinct_streams(game):
    # RLlib seeds env runner w with seed + w; each runner runs one native vector env of E envs.
    runners, envs, seed = 4, 3, 100
    seen = []
    played = []
    for w in range(runners):
        v = game.vector(envs, num_threads=1)
        obs, _ = v.reset(seed=seed + w)
        seen += deals(v)
        # What each env observes over its first steps of its own sampled play (chance draws and
        # sampling streams both).
        trace = [[o.tobytes()] for o in obs]
        for _ in range(12):
            obs, *_ = v.step(v.sample_actions())
            for i in range(envs):
                trace[i].append(obs[i].tobytes())
        played += [b"".join(t) for t in trace]
    assert len(set(seen)) == runners * envs
    assert len(set(played)) == runners * envs


def test_gymnasium_sums_overlap_where_the_native_vector_env_does_not():
    """What the hash prevents: Gymnasium's SyncVectorEnv seeds env j with seed + j, so runners
    seeded seed + w replay each other's envs (runners + envs - 1 streams); the native vector env
    gives runners x envs."""
    from gymnasium.vector import SyncVectorEnv

    runners, envs, seed = 3, 4, 7
    summed = []
    for w in range(runners):
        sync = SyncVectorEnv([maquis.MaquisEnv for _ in range(envs)])
        sync.reset(seed=seed + w)
        summed += [sync.envs[j].unwrapped.save_state() for j in range(envs)]
    assert len(set(summed)) == runners + envs - 1
    native = []
    for w in range(runners):
        v = maquis.MaquisVectorEnv(envs, num_threads=1)
        v.reset(seed=seed + w)
        native += deals(v)
    assert len(set(native)) == runners * envs


@EVERY_GAME
def test_a_list_of_seeds_still_gives_env_i_seed_i(game):
    v = game.vector(2, num_threads=1)
    v.reset(seed=[11, None])
    e = game.single()
    e.reset(seed=11)
    assert v.save_state(0) == e.save_state()


def test_the_rust_derivation_is_numpys():
    """The vector envs take their stream seeds from Rust (`crate::env::seeding`, also
    `VecEngine::seed_all`'s): the ones a single env reset with `sub_env_seed(seed, i)` draws."""
    from gymnasium.utils import seeding

    from maquis.common.single import stream_seed

    for seed in (0, 1, 41, 2**32 + 7, 2**64 - 1):
        expected = [stream_seed(seeding.np_random(maquis.sub_env_seed(seed, i))[0]) for i in range(5)]
        assert maquis._core.maquis.VecEngine.stream_seeds(seed, 5) == expected
        assert maquis.dday._dday.VecEngine.stream_seeds(seed, 5) == expected


@EVERY_GAME
def test_seeds_past_64_bits_follow_the_same_rule(game):
    seed = 2**70 + 3
    v = game.vector(2, num_threads=1)
    v.reset(seed=seed)
    e = game.single()
    e.reset(seed=game.package.sub_env_seed(seed, 1))
    assert v.save_state(1) == e.save_state()

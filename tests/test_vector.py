"""MaquisVectorEnv: Gymnasium's vector contract, thread-count independence, equality with single
environments (and with gymnasium's SyncVectorEnv over MaquisEnv), autoreset modes, bad input. The
tests of the shared batch layer (`maquis.common.vector`) run for D-Day's `DDayVectorEnv` too."""

from __future__ import annotations

import json

from typing import Any, Callable, NamedTuple

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.vector.utils import batch_space

import maquis
from maquis import MaquisEnv, MaquisVectorEnv
from maquis.dday import DDayEnv, DDayVectorEnv

N = maquis.NUM_ACTIONS
D = maquis.OBS_SIZE


class Game(NamedTuple):
    vector: Callable[..., Any]  # the native vector env class
    single: Callable[..., Any]  # the single env class
    tables: Any  # the game's module of the extension (NUM_ACTIONS, OUTCOMES, ACTION_NAMES)


MAQUIS = Game(MaquisVectorEnv, MaquisEnv, maquis._core.maquis)
DDAY = Game(DDayVectorEnv, DDayEnv, maquis._core.dday)
#: The tests of the shared batch layer, for every game.
EVERY_GAME = pytest.mark.parametrize("game", [MAQUIS, DDAY], ids=["maquis", "dday"])


def illegal_for(masks: np.ndarray, i: int) -> int:
    """An illegal action of env `i`; 0 for one awaiting its autoreset (its row allows every action,
    and the action is ignored)."""
    illegal = np.flatnonzero(~masks[i])
    return int(illegal[0]) if len(illegal) else 0


def record(v: MaquisVectorEnv, steps: int, seed: int = 5) -> list:
    """Everything a seeded vector returns over `steps` steps of sample_actions() play."""
    out = [v.reset(seed=seed)]
    for t in range(steps):
        actions = v.sample_actions()
        if t % 23 == 7:  # now and then an illegal action
            actions[t % v.num_envs] = illegal_for(v.action_masks(), t % v.num_envs)
        out.append((actions, v.step(actions)))
    return out


def test_make_vec_returns_the_native_vector_env():
    v = gym.make_vec("maquis/Maquis-v0", num_envs=3, difficulty="hard")
    assert isinstance(v, MaquisVectorEnv)
    assert v.num_envs == 3 and v.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert v.single_observation_space == gym.spaces.Box(0, 1, (D,), np.float32)
    assert v.single_action_space == gym.spaces.Discrete(N)
    assert v.observation_space == batch_space(v.single_observation_space, 3)
    assert v.action_space == batch_space(v.single_action_space, 3)
    obs, infos = v.reset(seed=0)
    assert obs.shape == (3, D) and obs.dtype == np.float32
    assert v.state_dict(0)["difficulty"] == "hard"
    same = gym.make_vec("maquis/Maquis-v0", num_envs=2, autoreset_mode=AutoresetMode.SAME_STEP, num_threads=2)
    assert same.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP and same.num_threads == 2
    v.close()


@EVERY_GAME
@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_same_seed_same_trajectories_for_1_2_4_threads(mode, game):
    runs = [record(game.vector(6, num_threads=k, autoreset_mode=mode), 250) for k in (1, 2, 4)]
    assert data_equivalence(runs[0], runs[1], exact=True)
    assert data_equivalence(runs[0], runs[2], exact=True)
    ended = sum(int(step[1][2].sum()) for step in runs[0][1:])
    assert ended > 10, "many episodes ended (and were autoreset) during the comparison"
    other = record(game.vector(6, num_threads=2, autoreset_mode=mode), 250, seed=6)
    assert not data_equivalence(runs[0], other)


@pytest.mark.parametrize("threads", [1, 3])
def test_env_i_equals_a_single_env_seeded_with_sub_env_seed(threads):
    n, seed = 4, 40
    v = MaquisVectorEnv(n, num_threads=threads, reward={"loss": -2.0})
    singles = [MaquisEnv(reward={"loss": -2.0}) for _ in range(n)]
    obs, infos = v.reset(seed=seed)
    for i, e in enumerate(singles):
        o, info = e.reset(seed=maquis.sub_env_seed(seed, i))
        np.testing.assert_array_equal(obs[i], o)
        np.testing.assert_array_equal(infos["action_mask"][i], info["action_mask"])
    episodes = 0
    for _ in range(400):
        actions = v.sample_actions()
        obs, rewards, terminated, truncated, infos = v.step(actions)
        for i, e in enumerate(singles):
            if e.done:  # NEXT_STEP: the vector resets it now
                o, info = e.reset()
                r, te, tr = 0.0, False, False
            else:
                a = e.sample_action()
                assert a == actions[i]
                o, r, te, tr, info = e.step(a)
                episodes += te
            np.testing.assert_array_equal(obs[i], o)
            if te or tr:  # the single env has no action left; the vector's row awaits its autoreset
                assert not info["action_mask"].any() and infos["action_mask"][i].all() and v.action_masks()[i].all()
            else:
                np.testing.assert_array_equal(infos["action_mask"][i], info["action_mask"])
                np.testing.assert_array_equal(v.action_masks()[i], e.action_masks())
            assert (rewards[i], terminated[i], truncated[i]) == (np.float32(r), te, tr)
            assert ("outcome" in infos and infos["_outcome"][i]) == ("outcome" in info)
            if "outcome" in info:
                assert infos["outcome"][i] == info["outcome"]
            assert v.save_state(i) == e.save_state()
    assert episodes > 10


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_equals_gymnasium_sync_vector_env_of_single_envs(mode):
    n, seed = 3, 17
    kwargs = dict(difficulty="easy", reward={"draw": 0.25})
    v = MaquisVectorEnv(n, num_threads=2, autoreset_mode=mode, **kwargs)
    sync = SyncVectorEnv([lambda: MaquisEnv(**kwargs) for _ in range(n)], autoreset_mode=mode)
    # SyncVectorEnv gives env i seed + i; the native env, sub_env_seed(seed, i).
    seeds = [maquis.sub_env_seed(seed, i) for i in range(n)]
    assert data_equivalence(v.reset(seed=seed), sync.reset(seed=seeds), exact=True)
    finals = 0
    for t in range(300):
        actions = v.sample_actions()
        if t % 31 == 3:
            actions[1] = illegal_for(v.action_masks(), 1)
        obs, rew, term, trunc, infos = v.step(actions)
        obs2, rew2, term2, trunc2, infos2 = sync.step(actions)
        np.testing.assert_array_equal(rew, rew2.astype(np.float32))
        if mode == AutoresetMode.NEXT_STEP:
            # An env awaiting its autoreset: every action in the native row (API ruling), none in
            # the finished single env's.
            ended = term | trunc
            assert infos["action_mask"][ended].all() and not infos2["action_mask"][ended].any()
            infos2["action_mask"][ended] = 1
        assert data_equivalence((obs, term, trunc, infos), (obs2, term2, trunc2, infos2), exact=True), (t, infos, infos2)
        finals += "final_obs" in infos
    assert mode == AutoresetMode.NEXT_STEP or finals > 5


def test_reset_with_a_mask_resets_only_those_envs():
    v = MaquisVectorEnv(4, num_threads=2)
    v.reset(seed=1)
    for _ in range(3):
        v.step(v.sample_actions())
    kept = [v.save_state(i) for i in range(4)]
    mask = np.array([False, True, False, True])
    obs, infos = v.reset(seed=50, options={"reset_mask": mask, "difficulty": "hard"})
    for i in range(4):
        if mask[i]:
            assert v.state_dict(i)["difficulty"] == "hard" and v.state_dict(i)["day"] == 0
        else:
            assert v.save_state(i) == kept[i]
    np.testing.assert_array_equal(infos["_action_mask"], mask)
    assert not infos["action_mask"][~mask].any()
    # The masked envs got the streams of single envs seeded sub_env_seed(50, i).
    e = MaquisEnv()
    e.reset(seed=maquis.sub_env_seed(50, 3), options={"difficulty": "hard"})
    assert v.save_state(3) == e.save_state()
    # Later autoresets go back to the constructor's settings.
    v.reset(options={"reset_mask": np.array([True, False, False, False])})
    assert v.state_dict(0)["difficulty"] == "normal"


@EVERY_GAME
@pytest.mark.parametrize(
    "mask, error",
    [
        ([True, False], TypeError),
        (np.array([1, 0]), TypeError),
        (np.array([True, False, True]), ValueError),
        (np.array([False, False]), ValueError),
    ],
)
def test_bad_reset_masks(mask, error, game):
    v = game.vector(2)
    v.reset(seed=0)
    with pytest.raises(error, match="reset_mask"):
        v.reset(options={"reset_mask": mask})


def test_bad_reset_seeds_and_options():
    v = MaquisVectorEnv(2)
    v.reset(seed=0)
    before = [v.save_state(i) for i in range(2)]
    with pytest.raises(ValueError, match="num_envs"):
        v.reset(seed=[1, 2, 3])
    with pytest.raises(TypeError, match="seed"):
        v.reset(seed="1")
    with pytest.raises(ValueError, match="dificulty"):
        v.reset(options={"dificulty": "hard"})
    with pytest.raises(ValueError, match="env 0: .*supply"):
        v.reset(options={"start": {"resources": {"weapon": 5}}})
    assert [v.save_state(i) for i in range(2)] == before
    v.step(v.sample_actions())


@EVERY_GAME
def test_seed_as_a_list_with_none(game):
    v = game.vector(2)
    v.reset(seed=[7, None])
    e = game.single()
    e.reset(seed=7)
    assert v.save_state(0) == e.save_state()


@EVERY_GAME
@pytest.mark.parametrize(
    "actions, error, match",
    [
        (np.zeros(3, dtype=np.float64), TypeError, "dtype"),
        (np.zeros(3, dtype=bool), TypeError, "dtype"),
        (["a", "b", "c"], TypeError, "dtype"),
        (np.zeros(4, dtype=np.int64), ValueError, r"shape \(3,\)"),
        (np.zeros((3, 1), dtype=np.int64), ValueError, "shape"),
        (5, ValueError, "shape"),
        ("out of range", ValueError, "env 1: action {n} is out of range"),
        (np.array([0, 0, -3]), ValueError, "env 2: action -3 is out of range"),
    ],
)
def test_bad_actions_raise_naming_the_env_and_change_nothing(actions, error, match, game):
    n = game.tables.NUM_ACTIONS
    if isinstance(actions, str):  # the first index past the game's actions
        actions, match = np.array([0, n, 0]), match.format(n=n)
    v = game.vector(3, num_threads=2)
    v.reset(seed=2)
    before = [v.save_state(i) for i in range(3)]
    obs = v._obs.copy()
    with pytest.raises(error, match=match):
        v.step(actions)
    assert [v.save_state(i) for i in range(3)] == before
    np.testing.assert_array_equal(v._obs, obs)
    v.step(v.sample_actions())


@EVERY_GAME
def test_illegal_action_raise_names_the_env_and_changes_nothing(game):
    v = game.vector(3, num_threads=2, illegal_action="raise")
    v.reset(seed=3)
    actions = v.sample_actions()
    # Taken after the draw: the saves hold the sampling streams.
    before = [v.save_state(i) for i in range(3)]
    actions[2] = illegal_for(v.action_masks(), 2)
    with pytest.raises(maquis.IllegalActionError, match=rf"env 2: illegal action '{game.tables.ACTION_NAMES[actions[2]]}'"):
        v.step(actions)
    assert [v.save_state(i) for i in range(3)] == before
    v.step(v.sample_actions())


@EVERY_GAME
def test_illegal_action_terminate_then_next_step_autoreset(game):
    v = game.vector(3, reward={"loss": -4.0})
    v.reset(seed=3)
    actions = v.sample_actions()
    actions[0] = illegal_for(v.action_masks(), 0)
    obs, rew, term, trunc, infos = v.step(actions)
    assert term[0] and rew[0] == -4.0 and not trunc.any()
    assert infos["illegal_action"][0] and infos["_illegal_action"][0] and not infos["_illegal_action"][1:].any()
    assert infos["outcome"][0] == "loss" and infos["_outcome"][0]
    assert infos["action_mask"][0].all() and v.action_masks()[0].all()  # awaiting its autoreset
    actions = v.sample_actions()
    assert 0 <= actions[0] < game.tables.NUM_ACTIONS
    actions[0] = 10**6  # ignored: env 0 is being reset
    obs, rew, term, trunc, infos = v.step(actions)
    assert not term[0] and rew[0] == 0 and infos["action_mask"][0].any() and "outcome" not in infos


@EVERY_GAME
def test_same_step_final_obs_and_info(game):
    v = game.vector(2, autoreset_mode="same_step")
    v.reset(seed=3)
    actions = v.sample_actions()
    last_obs = v._obs[0].copy()
    actions[0] = illegal_for(v.action_masks(), 0)
    obs, rew, term, trunc, infos = v.step(actions)
    assert term[0] and infos["_final_obs"][0] and not infos["_final_obs"][1]
    np.testing.assert_array_equal(infos["final_obs"][0], last_obs)  # the game was left unchanged
    assert infos["final_obs"][1] is None
    fi = infos["final_info"]
    assert fi["outcome"][0] == "loss" and fi["illegal_action"][0] and not fi["action_mask"][0].any()
    assert infos["action_mask"][0].any(), "env 0 already holds its next episode"
    if game is MAQUIS:
        assert v.state_dict(0)["day"] == 0 and v.state_dict(0)["phase"] == "placement"


@EVERY_GAME
def test_disabled_autoreset_refuses_finished_envs(game):
    v = game.vector(2, autoreset_mode=AutoresetMode.DISABLED)
    v.reset(seed=3)
    actions = v.sample_actions()
    actions[1] = illegal_for(v.action_masks(), 1)
    v.step(actions)
    with pytest.raises(maquis.MaquisError, match="env 1: the game is over"):
        v.step(v.sample_actions())
    v.reset(options={"reset_mask": np.array([False, True])})
    v.step(v.sample_actions())


@EVERY_GAME
def test_masks_and_samples_agree(game):
    v = game.vector(8, num_threads=2)
    _, infos = v.reset(seed=4)
    for _ in range(200):
        masks = v.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (8, game.tables.NUM_ACTIONS)
        np.testing.assert_array_equal(masks, infos["action_mask"].astype(bool))
        actions = v.sample_actions()
        assert actions.dtype == np.int64 and actions.shape == (8,)
        # Every row allows its sample: an env awaiting its autoreset allows every action.
        assert masks[np.arange(8), actions].all()
        obs, _, _, _, infos = v.step(actions)
        assert obs in v.observation_space


def test_observations_stay_in_the_space():
    for difficulty in ("very_easy", "very_hard"):
        v = MaquisVectorEnv(16, num_threads=2, difficulty=difficulty, autoreset_mode="same_step")
        obs, _ = v.reset(seed=9)
        for _ in range(300):
            assert obs in v.observation_space
            obs, *_ = v.step(v.sample_actions())


@EVERY_GAME
@pytest.mark.parametrize("n", [16, 21])
def test_step_counts_the_episodes_that_ended_for_the_infos(n, game):
    # The core's step returns (ended, illegal), from which the infos skip the end-of-episode
    # entries on most steps; the counts must match the flags, and the infos with them (Rust
    # counts eight flags at a time: 21 leaves a partial word).
    v = game.vector(n, copy=False)
    v.reset(seed=1)
    rng = np.random.default_rng(0)
    seen_end = seen_illegal = 0
    for _ in range(300):
        actions = v.sample_actions()
        actions[rng.random(n) < 0.02] = 0  # now and then an action that may be illegal
        ended, illegal = v._core.step(actions)
        assert ended == int(v._terminated.sum()) and illegal == int(v._illegal.sum())
        infos = v._step_infos(ended, illegal)
        assert ("outcome" in infos) == (ended > 0) and ("illegal_action" in infos) == (illegal > 0)
        assert infos["_action_mask"].all() and not infos["_action_mask"].flags.writeable
        seen_end += ended
        seen_illegal += illegal
    assert seen_end > 0 and seen_illegal > 0


@EVERY_GAME
def test_copy_false_returns_the_internal_arrays(game):
    v = game.vector(2, copy=False)
    obs, _ = v.reset(seed=0)
    obs2, rew, term, trunc, infos = v.step(v.sample_actions())
    assert obs2 is obs and rew is v._rewards
    w = game.vector(2)
    obs, _ = w.reset(seed=0)
    obs2, *_ = w.step(w.sample_actions())
    assert obs2 is not obs and not np.shares_memory(obs2, w._obs)
    # `copy` is read at every step.
    v.copy = True
    obs3, *_, infos = v.step(v.sample_actions())
    assert not np.shares_memory(obs3, v._obs) and not np.shares_memory(infos["action_mask"], v._masks)


def _same_step_result(ra, rb) -> None:
    for x, y in zip(ra[:4], rb[:4]):
        assert x.dtype == y.dtype and np.array_equal(x, y)
    assert ra[4].keys() == rb[4].keys()
    for key, x in ra[4].items():
        y = rb[4][key]
        assert x.dtype == y.dtype and x.tolist() == y.tolist(), key


@EVERY_GAME
def test_plain_steps_equal_the_checked_path(game):
    # copy=False without same-step autoreset: `_core.step_plain` returns the whole step (the
    # arrays themselves and the infos). With it switched off, the Python path must return the
    # same values, illegal actions and ended episodes included.
    a, b = game.vector(12, copy=False), game.vector(12, copy=False)
    b._core.set_plain_outputs(None)
    a.reset(seed=2)
    b.reset(seed=2)
    ends = illegal = 0
    for t in range(200):
        actions = a.sample_actions()
        b.sample_actions()
        if t % 9 == 4:
            actions[t % 12] = illegal_for(a.action_masks(), t % 12)
        assert a._core.step_plain(actions.astype(np.int32)) is None  # not int64: the checked path
        assert a._core.step_plain(actions[:-1]) is None  # the checked path names the shape
        ra, rb = a.step(actions), b.step(actions.copy())
        assert all(x is y for x, y in zip(ra[:4], (a._obs, a._rewards, a._terminated, a._truncated)))
        assert ra[4]["action_mask"] is a._masks_i8 and ra[4]["_action_mask"] is a._all_true
        _same_step_result(ra, rb)
        ends += "outcome" in ra[4]
        illegal += "illegal_action" in ra[4]
    assert ends > 20 and illegal > 10


@EVERY_GAME
def test_copy_true_copies_in_the_rust_step_and_equals_copy_false(game):
    # copy=True: `_core.step_copy` returns the step's observations and masks as copies made by
    # the worker threads as they write each row; everything equals copy=False's arrays.
    a, b = game.vector(8, num_threads=2), game.vector(8, num_threads=2, copy=False)
    calls, step_copy = [0], a._step_copy

    def counted(actions):
        calls[0] += 1
        return step_copy(actions)

    a._step_copy = counted
    a.reset(seed=4)
    b.reset(seed=4)
    for t in range(100):
        actions = a.sample_actions()
        b.sample_actions()
        if t % 13 == 5:
            actions[t % 8] = illegal_for(a.action_masks(), t % 8)
        ra, rb = a.step(actions), b.step(actions)
        _same_step_result(ra, rb)
        assert not np.shares_memory(ra[0], a._obs) and not np.shares_memory(ra[4]["action_mask"], a._masks)
    assert calls[0] == 100


@EVERY_GAME
def test_plain_steps_only_where_they_apply(game):
    v = game.vector(3, copy=False)
    actions = np.zeros(3, dtype=np.int64)
    assert v._core.step_plain(actions) is None  # never reset: the checked path says so
    with pytest.raises(maquis.MaquisError, match="never reset"):
        v.step(actions)
    v.reset(seed=0)
    assert v._core.step_plain(v.sample_actions()) is not None
    v.copy = True  # copies from the checked path
    assert v._core.step_plain(v.sample_actions()) is None
    obs, *_ = v.step(v.sample_actions())
    assert not np.shares_memory(obs, v._obs)
    v.copy = False
    obs, *_ = v.step(v.sample_actions())
    assert obs is v._obs
    for w in (game.vector(3), game.vector(3, copy=False, autoreset_mode="same_step")):
        w.reset(seed=0)
        assert w._core.step_plain(w.sample_actions()) is None


@EVERY_GAME
def test_observation_rows_start_on_cache_lines(game):
    # Rows of 416 floats are 26 cache lines: a buffer 64-byte aligned keeps each row on its own
    # lines (numpy's large arrays start 16 bytes past a page).
    for n in (1, 3, 1024):
        v = game.vector(n, copy=False, autoreset_mode="same_step")
        obs, _ = v.reset(seed=0)
        for rows in (obs, v._final_obs):
            assert rows.ctypes.data % 64 == 0
            assert rows.shape == (n, v.single_observation_space.shape[0]) and rows.flags.c_contiguous
        obs2, *_ = v.step(v.sample_actions())
        assert obs2 is obs and np.all((obs >= 0) & (obs <= 1))


@EVERY_GAME
def test_copy_false_observations_are_read_only_and_match_whole_writes(game):
    # A step rewrites only the parts of each observation row that changed, so the rows must
    # hold what it wrote: copy=False hands them out read-only. Each row still equals the
    # observation of its environment's state written whole (the single env writes whole rows).
    v = game.vector(6, num_threads=2, copy=False)
    obs, _ = v.reset(seed=3)
    assert not obs.flags.writeable
    with pytest.raises(ValueError):
        obs[0, 0] = 1.0
    singles = [game.single() for _ in range(6)]
    for _ in range(200):
        obs, *_ = v.step(v.sample_actions())
        for i, e in enumerate(singles):
            e.load_state(v.save_state(i))
            assert np.array_equal(obs[i], e._core.observation()), f"env {i}"
    v.reset(seed=4, options={"reset_mask": np.array([True, False] * 3)})
    obs, *_ = v.step(v.sample_actions())
    for i, e in enumerate(singles):
        e.load_state(v.save_state(i))
        assert np.array_equal(obs[i], e._core.observation()), f"env {i} after a partial reset"


@EVERY_GAME
@pytest.mark.parametrize("n", [32, 29])
def test_copy_false_outcome_infos_match_copy_true(n, game):
    # copy=False keeps one outcome array and clears the entries of the previous end each step
    # (from the lists of ended episodes the threads keep; 29 envs split unevenly).
    a, b = game.vector(n, copy=False), game.vector(n)
    a.reset(seed=8)
    b.reset(seed=8)
    ends = 0
    for t in range(150):
        actions = a.sample_actions()
        b.sample_actions()
        if t % 10 == 3:
            actions[t % n] = illegal_for(a.action_masks(), t % n)  # ends that episode at once
        *_, ia = a.step(actions)
        *_, ib = b.step(actions)
        assert ia.keys() == ib.keys()
        if "illegal_action" in ia:
            assert np.array_equal(ia["illegal_action"], ib["illegal_action"]) and ia["illegal_action"].any()
            assert np.array_equal(ia["_illegal_action"], ib["_illegal_action"])
        assert ("outcome" in ia) == ("outcome" in ib)
        if "outcome" in ia:
            assert ia["outcome"].tolist() == ib["outcome"].tolist()
            assert np.array_equal(ia["_outcome"], ib["_outcome"])
            ends += int(ib["_outcome"].sum())
            # A name exactly where an episode ended on this step, the one of its outcome code.
            codes = a._core.outcomes
            want = [game.tables.OUTCOMES[c] if c >= 0 else None for c in codes]
            assert ia["outcome"].tolist() == want
            assert [o is not None for o in ia["outcome"]] == ia["_outcome"].tolist()
    assert ends > 50


@EVERY_GAME
def test_outcome_infos_keep_every_reference_count_right(game):
    # Rust moves the references of the outcome entries in bulk, once per object and step: each
    # name is held by exactly the entries showing it (plus a constant number of other holders),
    # and an object Python code put in the array is let go once its entry is replaced.
    import sys

    v = game.vector(64, num_threads=2, copy=False)
    v.reset(seed=2)
    info = v._core.outcome_info
    names = [sys.intern(o) for o in game.tables.OUTCOMES]

    def others() -> list[int]:
        # (`info == name` holds no reference to the entries once it returns.)
        return [sys.getrefcount(name) - int((info == name).sum()) for name in names]

    base = others()
    mine = object()
    info[5] = mine
    assert sys.getrefcount(mine) == 3  # `mine`, the entry, getrefcount's argument
    shown, freed = 0, False
    for _ in range(300):
        v.step(v.sample_actions())
        shown = max(shown, int(sum((info == name).sum() for name in names)))
        assert others() == base
        if info[5] is not mine:
            freed = freed or sys.getrefcount(mine) == 2
    assert freed and shown > 0


@EVERY_GAME
def test_core_step_takes_strided_actions_like_contiguous_ones(game):
    # The wrapper passes contiguous int64 arrays; the engine itself also copies a strided view.
    a, b = game.vector(6, copy=False), game.vector(6, copy=False)
    a.reset(seed=5)
    b.reset(seed=5)
    for _ in range(40):
        actions = a.sample_actions()
        b.sample_actions()
        strided = np.repeat(actions, 2)[::2]
        assert not strided.flags.c_contiguous
        assert a._core.step(actions) == b._core.step(strided)
        np.testing.assert_array_equal(a._obs, b._obs)
        assert [a.save_state(i) for i in range(6)] == [b.save_state(i) for i in range(6)]


@EVERY_GAME
def test_unseeded_reset_continues_the_streams(game):
    v = game.vector(2)
    v.reset(seed=12)
    v.reset()
    e = game.single()
    e.reset(seed=maquis.sub_env_seed(12, 1))
    e.reset()
    # The same game and episode stream (the vector env drew an action ahead for each reset from
    # its sampling stream, which the single env did not).
    saved = [json.loads(x) for x in (v.save_state(1), e.save_state())]
    assert [s["env_streams"]["episode"] for s in saved] == [saved[0]["env_streams"]["episode"]] * 2
    assert [{k: x for k, x in s.items() if k != "env_streams"} for s in saved] == [
        {k: x for k, x in saved[1].items() if k != "env_streams"}
    ] * 2


@EVERY_GAME
def test_bad_constructor_arguments(game):
    with pytest.raises(ValueError, match="num_envs"):
        game.vector(0)
    with pytest.raises(ValueError, match="num_threads"):
        game.vector(2, num_threads=0)
    with pytest.raises(TypeError, match="num_envs"):
        game.vector("2")
    with pytest.raises(TypeError, match="num_threads"):
        game.vector(2, num_threads=1.5)
    with pytest.raises(ValueError, match="autoreset_mode"):
        game.vector(2, autoreset_mode="sometimes")
    with pytest.raises(ValueError, match="illegal_action"):
        game.vector(2, illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        game.vector(2, render_mode="human")
    if game is MAQUIS:
        with pytest.raises(ValueError, match="difficulty"):
            game.vector(2, difficulty="impossible")


@EVERY_GAME
def test_render_and_state_access(game):
    v = game.vector(2, render_mode="ansi")
    v.reset(seed=0)
    frames = v.render()
    assert isinstance(frames, tuple) and len(frames) == 2 and all(isinstance(f, str) for f in frames)
    with pytest.raises(IndexError, match="env index 2"):
        v.state_dict(2)
    e = game.single()
    e.load_state(v.save_state(1))
    assert e.state_dict() == v.state_dict(1)


@EVERY_GAME
def test_step_releases_the_gil(game):
    import threading

    v = game.vector(8000, num_threads=1, copy=False)
    v.reset(seed=0)
    actions = v.sample_actions()
    count, stop = [0], [False]

    def spin():
        while not stop[0]:
            count[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        during = 0
        for _ in range(10):
            before = count[0]
            v._core.step(actions)  # one long call: only a released GIL lets spin() run meanwhile
            during += count[0] - before
    finally:
        stop[0] = True
        t.join()
    assert during > 0


@EVERY_GAME
def test_step_before_reset_raises(game):
    v = game.vector(3)
    with pytest.raises(maquis.MaquisError, match="reset"):
        v.step(np.zeros(3, dtype=np.int64))
    v.reset(seed=0, options={"reset_mask": np.array([True, False, True])})
    with pytest.raises(maquis.MaquisError, match=r"\[1\] were never reset"):
        v.step(v.sample_actions())
    v.reset(options={"reset_mask": np.array([False, True, False])})
    v.step(v.sample_actions())

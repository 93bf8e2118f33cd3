"""The asynchronous step of the native vector envs (EnvPool's `send` / `recv`), for every game:
`recv()` returns exactly what `step(actions)` would have, for any thread count and output mode;
misuse raises RuntimeError naming the problem; the step's errors come out of `recv` with nothing
changed; the arrays are not written once `recv` has returned."""

from __future__ import annotations

import copy as copy_module
import gc
import importlib
import time
from typing import Any, Callable

import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence

import maquis
import maquis.dday

GAMES: dict[str, Callable[..., Any]] = {
    "maquis": lambda n, **k: maquis.MaquisVectorEnv(n, **k),
    "dday": lambda n, **k: maquis.dday.DDayVectorEnv(n, opponent="heuristic", **k),
}
try:  # Maurice Lite, where its package is built
    _maurice = importlib.import_module("maquis.maurice")
    GAMES["maurice"] = lambda n, **k: _maurice.MauriceVectorEnv(n, observation="compact", **k)
except ImportError:
    pass

MODES = {
    "copy": {},
    "no-copy": {"copy": False},
    "uint8-same-step": {"observation_dtype": "uint8", "autoreset_mode": "same_step"},
}


def play(v: Any, steps: int, sent: bool, seed: int = 3) -> list:
    """Everything `v` returns over `steps` steps of sampled play (with an illegal action now and
    then), stepped by `step` or by `send` then `recv`; copies, since copy=False hands out the
    arrays themselves."""
    out = [copy_module.deepcopy(v.reset(seed=seed))]
    for t in range(steps):
        actions = v.sample_actions()
        if t % 17 == 5:
            masks = v.action_masks()
            i = t % v.num_envs
            if not masks[i].all():  # not awaiting its autoreset
                actions[i] = int(np.flatnonzero(~masks[i])[0])
        if sent:
            v.send(actions)
            assert v.pending
            result = v.recv()
            assert not v.pending
        else:
            result = v.step(actions)
        out.append((actions, copy_module.deepcopy(result)))
    return out


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_send_recv_returns_what_step_returns_for_any_thread_count(game, mode):
    steps = 60 if game == "maurice" else 150
    reference = play(GAMES[game](5, num_threads=1, **MODES[mode]), steps, sent=False)
    ended = sum(int(np.asarray(r[1][2]).sum()) for r in reference[1:])
    assert ended > 0, "episodes ended (and were autoreset) during the comparison"
    for threads in (1, 2, 3):
        run = play(GAMES[game](5, num_threads=threads, **MODES[mode]), steps, sent=True)
        assert data_equivalence(run, reference, exact=True), threads


@pytest.mark.parametrize("game", sorted(GAMES))
def test_send_recv_and_step_interleave(game):
    a, b = GAMES[game](4, num_threads=2, copy=False), GAMES[game](4, num_threads=1, copy=False)
    a.reset(seed=1)
    b.reset(seed=1)
    for t in range(40):
        actions = a.sample_actions()
        np.testing.assert_array_equal(actions, b.sample_actions())
        if t % 3:
            a.send(actions)
            ra = copy_module.deepcopy(a.recv())
        else:
            ra = copy_module.deepcopy(a.step(actions))
        assert data_equivalence(ra, copy_module.deepcopy(b.step(actions)), exact=True)


def test_the_returned_arrays_are_the_envs_own_and_not_written_after_recv():
    v = maquis.MaquisVectorEnv(256, num_threads=2, copy=False)
    v.reset(seed=0)
    v.send(v.sample_actions())
    obs, rewards, terminated, truncated, infos = v.recv()
    assert obs.base is not None and np.shares_memory(obs, v._obs)
    assert rewards is v._rewards and terminated is v._terminated
    kept = [np.array(x) for x in (obs, rewards, terminated, truncated, infos["action_mask"])]
    time.sleep(0.05)
    for x, y in zip(kept, (obs, rewards, terminated, truncated, infos["action_mask"])):
        np.testing.assert_array_equal(x, y)
    # copy=True: new arrays each step, left alone by the next one.
    v.copy = True
    v.send(v.sample_actions())
    first = v.recv()
    before = [np.array(x) for x in first[:4]]
    v.send(v.sample_actions())
    v.recv()
    for x, y in zip(before, first[:4]):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_misuse_raises_runtime_error_naming_the_problem(game):
    v = GAMES[game](3, num_threads=2)
    v.reset(seed=0)
    with pytest.raises(RuntimeError, match=r"recv\(\) called without a pending send"):
        v.recv()
    actions = v.sample_actions()
    v.send(actions)
    calls = {
        r"send\(\)": lambda: v.send(actions),
        r"step\(\)": lambda: v.step(actions),
        r"reset\(\)": lambda: v.reset(seed=1),
        r"sample_actions\(\)": v.sample_actions,
        r"action_masks\(\)": v.action_masks,
        r"save_state\(\)": lambda: v.save_state(0),
        r"state_dict\(\)": lambda: v.state_dict(0),
        r"load_state\(\)": lambda: v.load_state(0, "{}"),
        "setting copy": lambda: setattr(v, "copy", False),
        "pickling": lambda: copy_module.deepcopy(v),
    }
    for name, call in calls.items():
        with pytest.raises(RuntimeError, match=name + " called while a send"):
            call()
        assert v.pending
    assert v.copy
    # None of them changed anything: the step sent is the step received.
    reference = GAMES[game](3, num_threads=1)
    reference.reset(seed=0)
    expected = reference.step(reference.sample_actions())
    assert data_equivalence(v.recv(), expected, exact=True)
    with pytest.raises(RuntimeError, match="without a pending send"):
        v.recv()


def test_bad_actions_are_refused_by_send_and_nothing_is_pending():
    v = maquis.MaquisVectorEnv(3)
    with pytest.raises(maquis.MaquisError, match="never reset"):
        v.send(np.zeros(3, dtype=np.int64))
    v.reset(seed=0)
    with pytest.raises(ValueError, match="shape"):
        v.send(np.zeros(4, dtype=np.int64))
    with pytest.raises(TypeError, match="integer"):
        v.send(np.zeros(3, dtype=np.float32))
    assert not v.pending
    v.send([0, 0, 0])  # converted and checked as step does
    v.recv()


def test_the_steps_own_errors_come_from_recv_and_change_nothing():
    v = maquis.MaquisVectorEnv(3, num_threads=2, illegal_action="raise")
    v.reset(seed=4)
    actions = v.sample_actions()
    # Taken after the draw, which moves the sampling streams the saves hold.
    saves = [v.save_state(i) for i in range(3)]
    actions[1] = int(np.flatnonzero(~v.action_masks()[1])[0])
    v.send(actions)
    with pytest.raises(maquis.IllegalActionError, match="env 1"):
        v.recv()
    assert not v.pending and [v.save_state(i) for i in range(3)] == saves
    bad = np.array([0, maquis.NUM_ACTIONS + 5, 0])
    v.send(bad)
    with pytest.raises(maquis.MaquisError, match="env 1"):
        v.recv()
    # The env goes on as if nothing had been sent.
    w = maquis.MaquisVectorEnv(3, num_threads=1, illegal_action="raise")
    w.reset(seed=4)
    w.sample_actions()  # as v drew the actions it sent
    actions = w.sample_actions()
    np.testing.assert_array_equal(v.sample_actions(), actions)
    v.send(actions)
    assert data_equivalence(v.recv(), w.step(actions), exact=True)


def test_an_env_dropped_with_a_step_pending_waits_for_it():
    v = maquis.MaquisVectorEnv(512, num_threads=2, copy=False)
    v.reset(seed=0)
    v.send(v.sample_actions())
    del v
    gc.collect()
    w = maquis.MaquisVectorEnv(2)
    w.reset(seed=0)
    w.send(w.sample_actions())
    w.recv()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_envs_sharing_threads_take_turns_and_play_as_alone(game):
    """Two batches on one pool (the second steps on the first's threads, of another game too):
    sends queue in turn on the shared driver thread, and each batch plays what it plays alone."""
    make, other_game = GAMES[game], GAMES["maquis" if game != "maquis" else "dday"]
    alone = [play(make(5, num_threads=1), 12, sent=False, seed=s) for s in (3, 4)]
    a, b = make(5, num_threads=3), make(5, num_threads=2)
    b.share_threads(a)
    c = other_game(4, num_threads=1)
    c.share_threads(a)
    assert (a.num_threads, b.num_threads, c.num_threads) == (3, 3, 3)
    got = [[copy_module.deepcopy(a.reset(seed=3))], [copy_module.deepcopy(b.reset(seed=4))]]
    c.reset(seed=5)
    for t in range(12):
        acts = [alone[0][t + 1][0], alone[1][t + 1][0]]
        a.send(acts[0])
        b.send(acts[1])  # queued behind a's step
        c.send(c.sample_actions())
        assert a.pending and b.pending
        for i, v in enumerate((b, a)):  # received out of order
            got[1 - i].append((acts[1 - i], copy_module.deepcopy(v.recv())))
        c.recv()
    for mine, theirs in zip(got, alone):
        assert data_equivalence(mine, theirs)


def test_share_threads_refuses_what_it_cannot_share():
    a, b = maquis.MaquisVectorEnv(4, num_threads=4), maquis.MaquisVectorEnv(2, num_threads=1)
    with pytest.raises(ValueError, match="4 threads cannot step a batch of 2"):
        b.share_threads(a)
    assert b.num_threads == 1
    with pytest.raises(TypeError, match="maquis vector env"):
        b.share_threads(object())
    a.reset(seed=0)
    b.reset(seed=0)
    a.send(a.sample_actions())
    with pytest.raises(RuntimeError, match="share_threads.*pending"):
        b.share_threads(a)
    a.recv()
    b.send(b.sample_actions())
    with pytest.raises(RuntimeError, match="share_threads.*pending"):
        a.share_threads(b)
    b.recv()


def test_a_batch_sharing_threads_pickles_with_its_own_and_outlives_the_other():
    import pickle

    a, b = maquis.MaquisVectorEnv(6, num_threads=3), maquis.MaquisVectorEnv(6, num_threads=1)
    b.share_threads(a)
    b.reset(seed=1)
    a.reset(seed=2)
    del a
    gc.collect()
    b.send(b.sample_actions())  # on the pool a made, which b keeps alive
    b.recv()
    c = pickle.loads(pickle.dumps(b))
    assert c.num_threads == 1  # asked for at construction; a new batch has its own threads
    acts = b.sample_actions()
    assert data_equivalence(b.step(acts), c.step(acts))

"""The mask row of an env awaiting its next-step autoreset marks every action legal (each game's
API "Vector env"): the step that restarts it ignores its action, and an all-zero row made masked
softmaxes NaN and masked samplers crash. Same-step autoreset shows the new episode's legal actions;
with autoreset disabled a finished env has none (it must be reset)."""

from __future__ import annotations

import numpy as np
import pytest

import maquis
from maquis.dday import DDayVectorEnv
from maquis.maurice import MauriceVectorEnv

GAMES = {
    "maquis": (maquis.MaquisVectorEnv, {}),
    "dday": (DDayVectorEnv, {"opponent": "random"}),
    "maurice": (MauriceVectorEnv, {"opponent": "random", "scenario": "skirmish"}),
}


def _end_env_zero(v):
    """Steps every env, env 0 with an illegal action (which ends its episode at once)."""
    actions = v.sample_actions()
    actions[0] = int(np.flatnonzero(~v.action_masks()[0])[0])
    return actions, v.step(actions)


@pytest.mark.parametrize("game", GAMES)
def test_a_row_awaiting_its_autoreset_allows_every_action(game):
    cls, kwargs = GAMES[game]
    v = cls(4, autoreset_mode="next_step", **kwargs)
    v.reset(seed=3)
    _, (obs, reward, term, trunc, info) = _end_env_zero(v)
    assert term[0] and info["illegal_action"][0]
    masks = v.action_masks()
    assert masks[0].all() and info["action_mask"][0].all()
    assert info["action_mask"].dtype == np.int8
    # The live envs' rows are their legal actions (each of these games has an illegal one).
    assert not masks[1:].all(axis=1).any()
    # A masked softmax over the row is finite; the sampler gives an action in range.
    logits = np.zeros(masks.shape[1])
    p = np.exp(np.where(masks[0], logits, -np.inf))
    assert np.isfinite(p / p.sum()).all()
    sample = v.sample_actions()
    assert 0 <= sample[0] < masks.shape[1]
    # Whatever action it gets, the next step restarts it: a new episode with its legal actions.
    sample[0] = masks.shape[1] - 1
    obs, reward, term, trunc, info = v.step(sample)
    assert not term[0] and reward[0] == 0
    assert 0 < v.action_masks()[0].sum() < masks.shape[1]
    v.close()


@pytest.mark.parametrize("game", GAMES)
def test_the_row_matches_for_every_observation_dtype_and_copy(game):
    cls, kwargs = GAMES[game]
    for dtype in ("float32", "uint8"):
        for copy in (True, False):
            v = cls(3, autoreset_mode="next_step", observation_dtype=dtype, copy=copy, **kwargs)
            v.reset(seed=1)
            _, (_, _, term, _, info) = _end_env_zero(v)
            assert term[0] and np.asarray(info["action_mask"][0]).all() and v.action_masks()[0].all()
            v.close()


@pytest.mark.parametrize("game", GAMES)
def test_same_step_and_disabled_autoreset_keep_their_rows(game):
    cls, kwargs = GAMES[game]
    same = cls(3, autoreset_mode="same_step", **kwargs)
    same.reset(seed=2)
    _, (_, _, term, _, _) = _end_env_zero(same)
    row = same.action_masks()[0]
    assert term[0] and 0 < row.sum() < len(row)  # the new episode's legal actions
    same.close()
    off = cls(3, autoreset_mode="disabled", **kwargs)
    off.reset(seed=2)
    _, (_, _, term, _, _) = _end_env_zero(off)
    assert term[0] and not off.action_masks()[0].any()  # no action: it must be reset
    off.close()

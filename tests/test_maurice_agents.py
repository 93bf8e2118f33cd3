"""`maquis.maurice.agents` (docs/api/maurice.md "Agents and evaluation", RULES D1-D3): the bundled
agents act on a side's observation and mask only, with their own seeded streams."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import maquis.maurice as maurice  # noqa: E402
from maquis.maurice.agents import HeuristicAgent, RandomAgent, SearchAgent  # noqa: E402

DECK = [c["id"] for c in maurice.CARDS for _ in range(c["copies"])]


def positions(n=40, seed=0):
    """(observation, mask) pairs of the side to move along a random game."""
    e = maurice.raw_env()
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n and not e._game.is_over:
        side = e.agent_selection
        o = e.observe(side)
        out.append((o["observation"], o["action_mask"]))
        legal = e.legal_actions()
        e.step(legal[int(rng.integers(len(legal)))])
    return out


@pytest.mark.parametrize("make", [lambda s: RandomAgent(seed=s), lambda s: HeuristicAgent(seed=s),
                                  lambda s: SearchAgent(budget=2, seed=s)])
def test_legal_seeded_batched_and_copyable(make):
    pos = positions(25 if make(0)._id != "search" else 6)
    a, b = make(7), make(7)
    acts = [a.act(o, m) for o, m in pos]
    assert all(m[x] == 1 for x, (_, m) in zip(acts, pos)) and all(type(x) is int for x in acts)
    assert [b.act(o, m.astype(bool)) for o, m in pos] == acts  # the mask as int8 or bool
    batch = make(7).act_batch(np.stack([o for o, _ in pos]), np.stack([m for _, m in pos]))
    assert batch.dtype == np.int64 and batch.tolist() == acts
    c = make(3)
    c.act(*pos[0])
    twins = [copy.deepcopy(c), pickle.loads(pickle.dumps(c))]
    ref = [c.act(o, m) for o, m in pos[1:]]
    for t in twins:
        assert [t.act(o, m) for o, m in pos[1:]] == ref


def test_agents_take_uint8_observations_and_refuse_bad_inputs():
    a = maurice.raw_env(observation_dtype="uint8")
    b = maurice.raw_env()
    a.reset(seed=2)
    b.reset(seed=2)
    side = b.agent_selection
    oa, ob = a.observe(side), b.observe(side)
    assert HeuristicAgent(seed=1).act(oa["observation"], oa["action_mask"]) == HeuristicAgent(seed=1).act(
        ob["observation"], ob["action_mask"])
    h = HeuristicAgent(seed=0)
    with pytest.raises(ValueError, match="21334"):
        h.act(ob["observation"][:1084], ob["action_mask"])  # the compact observation is not enough
    with pytest.raises(ValueError, match="1447"):
        h.act(ob["observation"], ob["action_mask"][:10])
    with pytest.raises(ValueError, match="no legal action"):
        h.act(ob["observation"], np.zeros(1447, np.int8))
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        h.act(ob["observation"] * 2 + 0.5, ob["action_mask"])
    with pytest.raises(TypeError):
        h.act(np.array(["x"] * 21334), ob["action_mask"])
    with pytest.raises(ValueError, match="rows"):
        h.act_batch(np.stack([ob["observation"]] * 2), ob["action_mask"][None])
    for bad, err in ((0, ValueError), (1.5, TypeError), (True, TypeError)):
        with pytest.raises(err):
            SearchAgent(budget=bad)
    with pytest.raises(TypeError):
        RandomAgent(seed="x")
    assert repr(SearchAgent(budget=5)) == "SearchAgent(budget=5)" and SearchAgent().budget == 100


def test_agents_see_only_the_observation():
    # Two deals that differ only in what blue cannot see: red's hand, and so the bottom of the
    # deck (the cards swapped with it); blue's agents, seeded alike, decide alike while blue moves.
    blue = ["march_4", "march_6", "charge_4", "rally_4", "volley_4"]
    red_a = ["bombard_4", "bombard_6", "orders_12", "thick_smoke", "march_8"]
    red_b = ["bombard_8", "rally_6", "orders_16", "first_fire", "charge_6"]
    common = list(DECK)
    for c in blue + red_a + red_b:
        common.remove(c)
    deals = [{"first": "blue", "hands": {"blue": blue, "red": red}, "deck": common + bottom}
             for red, bottom in ((red_a, red_b), (red_b, red_a))]
    envs = [maurice.raw_env() for _ in deals]
    for e, d in zip(envs, deals):
        e.reset(seed=4, options=d)
    agents = [HeuristicAgent(seed=9), HeuristicAgent(seed=9)]
    decided = 0
    while envs[0].agent_selection == "blue" and envs[1].agent_selection == "blue" and decided < 10:
        views = [e.observe("blue") for e in envs]
        np.testing.assert_array_equal(views[0]["observation"], views[1]["observation"])
        acts = [a.act(v["observation"], v["action_mask"]) for a, v in zip(agents, views)]
        assert acts[0] == acts[1]
        for e in envs:
            e.step(acts[0])
        decided += 1
    assert decided > 0


def test_make_agent():
    assert isinstance(maurice.agents.make_agent("heuristic", seed=1), HeuristicAgent)
    assert maurice.agents.make_agent("search", budget=3).budget == 3
    with pytest.raises(ValueError, match="grandmaster"):
        maurice.agents.make_agent("grandmaster")

"""maquis.maquis.agents: legal actions from (obs, mask) alone, batched forms, bad input."""

import numpy as np
import pytest

import maquis
from maquis.maquis.agents import AGENT_NAMES, HeuristicAgent, RandomAgent, SearchAgent, make_agent


@pytest.mark.parametrize("name", AGENT_NAMES)
def test_agents_play_legal_actions_to_the_end(name):
    kw = {"simulations": 8} if name == "search" else {}
    agent = make_agent(name, seed=1, **kw)
    for difficulty in ("normal", "very_hard"):
        env = maquis.MaquisEnv(difficulty=difficulty, illegal_action="raise")
        obs, info = env.reset(seed=4)
        done, steps = False, 0
        while not done and steps < (40 if name == "search" else 500):
            mask = env.action_masks()
            a = agent.act(obs, mask)
            assert mask[a], f"{name} chose an illegal action {maquis.action_to_str(a)}"
            obs, _, done, _, info = env.step(a)
            steps += 1


def test_batched_form_matches_single():
    vec = maquis.MaquisVectorEnv(6, difficulty="normal")
    obs, _ = vec.reset(seed=2)
    masks = vec.action_masks()
    h = HeuristicAgent(seed=0)
    batch = h.act_batch(obs, masks)
    assert batch.dtype == np.int64 and batch.shape == (6,)
    assert [h.act(o, m) for o, m in zip(obs, masks)] == list(batch)
    r = RandomAgent(seed=0).act_batch(obs, masks)
    assert all(masks[i, a] for i, a in enumerate(r))


def test_heuristic_ranked_lists_its_choice_first():
    vec = maquis.MaquisVectorEnv(8, difficulty="normal")
    obs, _ = vec.reset(seed=3)
    h = HeuristicAgent(seed=0)
    padded = 0
    live = np.ones(8, bool)  # False for a game that just ended: it waits for its autoreset step
    for _ in range(60):
        masks = vec.action_masks()
        actions, scores = h.ranked(obs[live], masks[live], k=3)
        assert actions.shape == scores.shape == (live.sum(), 3)
        assert actions.dtype == np.int64 and scores.dtype == np.float32
        assert np.array_equal(actions[:, 0], h.act_batch(obs[live], masks[live]))
        for row, s, m in zip(actions, scores, masks[live]):
            n = min(3, int(m.sum()))
            padded += n < 3
            assert all(m[a] for a in row[:n]) and len(set(row[:n])) == n
            assert (row[n:] == -1).all() and np.isnan(s[n:]).all()
            assert (np.diff(s[:n]) <= 0).all()
        step = np.zeros(8, dtype=np.int64)
        step[live] = actions[:, 0]
        obs, _, term, trunc, _ = vec.step(step)
        live = ~(term | trunc)
    assert padded > 0
    with pytest.raises(ValueError, match="k must be"):
        h.ranked(obs[:1], vec.action_masks()[:1], k=0)


def test_agents_never_see_the_deck_order():
    """Two games that differ only in the hidden deck order get the same decisions."""
    env_a = maquis.MaquisEnv(missions=["sabotage", "aid_the_spy"])
    env_b = maquis.MaquisEnv(missions=["sabotage", "aid_the_spy"])
    obs_a, _ = env_a.reset(seed=0, options={"patrol_deck": list(range(10))})
    obs_b, _ = env_b.reset(seed=0, options={"patrol_deck": list(range(10))[::-1]})
    # Before any patrol is drawn the two observations are identical, and so are the choices.
    assert np.array_equal(obs_a, obs_b)
    for agent in (HeuristicAgent(seed=3), SearchAgent(simulations=16, seed=3)):
        assert agent.act(obs_a, env_a.action_masks()) == agent.act(obs_b, env_b.action_masks())


def test_bad_input_is_refused():
    env = maquis.MaquisEnv()
    obs, _ = env.reset(seed=0)
    mask = env.action_masks()
    h = HeuristicAgent()
    with pytest.raises(ValueError, match="shape"):
        h.act(obs[:10], mask)
    with pytest.raises(ValueError, match="shape"):
        h.act(obs, mask[:5])
    with pytest.raises(ValueError, match="no legal action"):
        h.act(obs, np.zeros_like(mask))
    wrong = mask.copy()
    wrong[np.flatnonzero(~mask)[0]] = True
    with pytest.raises(ValueError, match="mask does not match"):
        h.act(obs, wrong)
    with pytest.raises(ValueError):
        h.act(np.full_like(obs, 3.0), mask)
    with pytest.raises(ValueError):
        SearchAgent(simulations=0)
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("oracle")


def test_determinize_keeps_what_the_player_sees():
    env = maquis.MaquisEnv(missions=["infiltration", "sabotage"])
    obs, _ = env.reset(seed=5)
    decks = set()
    for seed in range(20):
        d = env.determinize(seed)
        assert np.array_equal(d._core.observation(), env._core.observation())
        assert np.array_equal(d.action_masks(), env.action_masks())
        sd, dd = env.state_dict(), d.state_dict()
        assert sorted(sd["patrol_deck"]) == sorted(dd["patrol_deck"])
        assert sd["patrol_discard"] == dd["patrol_discard"]
        decks.add(tuple(dd["patrol_deck"]))
    assert len(decks) > 10  # the hidden order really is resampled
    assert env.determinize(3).state_dict() == env.determinize(3).state_dict()

"""The Kuhn poker bindings (`maquis._core.kuhn`) from Python: the environment against each level,
an external opponent, pickling, the tables, and the exact analysis with its errors. The game's
rules and analysis are tested in Rust (tests/kuhn_*.rs); here what the bindings add."""

import pickle

import numpy as np
import pytest

kuhn = pytest.importorskip("maquis._core").kuhn


def test_env_plays_hands_against_each_level_with_the_margin_reward():
    for side in kuhn.SIDES:
        for opponent in ("random", "heuristic"):
            env = kuhn.Env(side=side, opponent=opponent)
            obs, mask = env.reset(stream_seed=1)
            assert obs.shape == (kuhn.OBSERVATION_SIZE,) and obs.dtype == np.float32
            done = False
            while not done:
                obs, mask, reward, done, _, outcome, illegal = env.step(env.sample_action())
            assert reward == env.payoff() / 2 and outcome in ("win", "loss") and not illegal
            assert env.state_dict()["payoff"][side] == env.payoff()


def test_reward_table_external_opponent_options_and_pickle():
    env = kuhn.Env(side="second", opponent="external", reward={"win": 1.0, "loss": -1.0})
    env.reset(5, '{"cards": ["J", "K"]}')
    assert env.opponent_to_move()
    assert env.apply_opponent(1) == (0.0, False, None)
    _, _, reward, done, _, outcome, _ = env.step(1)  # K calls J's bet
    assert (reward, done, outcome, env.payoff()) == (1.0, True, "win", 2)
    clone = pickle.loads(pickle.dumps(env))
    assert clone.state_dict() == env.state_dict()
    with pytest.raises(ValueError, match="both sides hold 'Q'"):
        env.reset(0, '{"cards": ["Q", "Q"]}')


@pytest.mark.parametrize("level", ["search", "network", "network_search"])
def test_levels_kuhn_does_not_have_are_refused_by_name(level):
    for make in (lambda: kuhn.Env(opponent=level), lambda: kuhn.VecEngine(2, opponent=level),
                 lambda: kuhn.Agent(level)):
        with pytest.raises(ValueError, match="'random' and 'heuristic'"):
            make()


def test_vector_engine_and_tables():
    vec = kuhn.VecEngine(8, 1, side="second")
    assert vec.num_envs == 8
    assert kuhn.ACTION_NAMES == ("pass", "bet")
    assert [kuhn.action_from_str(n) for n in kuhn.ACTION_NAMES] == [0, 1]
    assert kuhn.action_to_str(1) == "bet"
    assert sum(length for _, _, length in kuhn.OBSERVATION_LAYOUT) == kuhn.OBSERVATION_SIZE == 13
    game = kuhn.Game()
    game.reset(0, '{"cards": ["J", "K"]}')
    game.step(0)
    game.step(0)
    assert (game.winner, game.payoff("first")) == ("second", -1)


def test_exact_analysis_values_and_errors():
    eq = kuhn.equilibrium()
    assert kuhn.expected_payoff(eq, eq) == pytest.approx(-1 / 18, abs=1e-12)
    value, br = kuhn.best_response(eq)
    assert value == pytest.approx(0.0, abs=1e-12)
    assert kuhn.expected_payoff(eq, br) == pytest.approx(-1 / 18, abs=1e-12)
    value, br = kuhn.best_response(np.full(12, 0.5))
    assert value == pytest.approx(11 / 24, abs=1e-12)
    assert kuhn.best_response([0.5] * 12, side="first")[0] == pytest.approx(0.5, abs=1e-12)
    assert set(br) == set(kuhn.INFOSETS) and set(br.values()) <= {0.0, 1.0}
    for bad, says in [(np.zeros(11), "11 numbers"), ({"J": 0.5}, "no probability for 'Jp'"),
                      ({**eq, "Jpb": 1.5}, "1.5"), ({**eq, "X": 0.5}, "unknown information set 'X'"),
                      ("abc", "dict"), ([float("nan")] * 12, "not in")]:
        with pytest.raises(ValueError, match=says):
            kuhn.best_response(bad)
    with pytest.raises(ValueError, match="alpha"):
        kuhn.equilibrium(0.5)
    with pytest.raises(ValueError, match="side"):
        kuhn.best_response(eq, side="dealer")

"""`maquis.integrations.rllib` under Ray RLlib: the creators' spaces and keys, the seeding of
RLlib's own env runners (every env of a run plays its own deal stream), the two-player games as a
`MultiAgentEnv` (stepped by hand and by RLlib's `MultiAgentEnvRunner`), and short PPO runs.

A deal stream is told by the state an env saves right after its seeded reset (`save_state`, which
holds the streams). Without Ray (`pip install "ray[rllib]"` and torch) these tests are SKIPPED.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("maquis")
pytest.importorskip("torch")
pytest.importorskip("ray.rllib")

import gymnasium as gym  # noqa: E402

import maquis  # noqa: E402
from maquis.integrations import rllib as integ  # noqa: E402

GAMES = {
    "maquis": (maquis.NUM_ACTIONS, {}),
    "dday": (191, {"opponent": "random"}),
    "maurice": (1447, {"opponent": "random", "scenario": "skirmish", "observation": "compact"}),
}


class Ctx(dict):
    """A stand-in for RLlib's EnvContext (a dict with the runner's indices as attributes)."""

    def __init__(self, config, worker_index=0, vector_index=0, num_workers=0):
        super().__init__(config)
        self.worker_index, self.vector_index, self.num_workers = worker_index, vector_index, num_workers


# -- spaces and keys --------------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_single_env_creator_spaces_and_keys(game):
    n, kw = GAMES[game]
    env = integ.make_env(game, Ctx(kw, worker_index=2))
    assert isinstance(env, integ.RLlibObservations)
    space = env.observation_space
    assert set(space.spaces) == {"observations", "action_mask"}
    assert space["action_mask"].dtype == np.float32 and space["action_mask"].shape == (n,)
    obs, info = env.reset(seed=5)
    assert space.contains(obs) and obs["action_mask"].dtype == np.float32
    assert "action_mask" not in info
    np.testing.assert_array_equal(obs["action_mask"], env.unwrapped.action_masks().astype(np.float32))
    action = int(np.flatnonzero(obs["action_mask"])[0])
    obs, reward, terminated, truncated, info = env.step(action)
    assert space.contains(obs) and "action_mask" not in info
    # The same env without the wrapper, reset with the hashed seed, plays the same game.
    plain = integ.make_env(game, kw).env
    plain.reset(seed=integ.rllib_seed(5, 2, 0))
    plain.step(action)
    assert plain.unwrapped.save_state() == env.unwrapped.save_state()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_vector_env_creator_spaces_and_keys(game):
    n, kw = GAMES[game]
    env = integ.make_env(game, Ctx({**kw, "num_envs": 3, "num_threads": 1}, worker_index=1))
    assert isinstance(env, integ.RLlibVectorObservations) and env.num_envs == 3
    assert env.single_observation_space["action_mask"].dtype == np.float32
    obs, infos = env.reset(seed=9)
    after_reset = env.unwrapped.save_state(2)
    assert obs["action_mask"].shape == (3, n) and obs["action_mask"].dtype == np.float32
    assert "action_mask" not in infos and "_action_mask" not in infos
    assert env.single_observation_space.contains({k: v[0] for k, v in obs.items()})
    obs, rewards, terminated, truncated, infos = env.step(obs["action_mask"].argmax(axis=1))
    assert obs["observations"].shape[0] == 3 and rewards.shape == (3,)
    # Sub-env i plays the single env seeded sub_env_seed(rllib_seed(9, 1, 0), i).
    single = integ.make_env(game, kw).unwrapped
    single.reset(seed=maquis.sub_env_seed(integ.rllib_seed(9, 1, 0), 2))
    assert after_reset == single.save_state()


def test_rllib_seed_hashes_every_index():
    seeds = {integ.rllib_seed(s, w, v) for s in range(4) for w in range(4) for v in range(3)}
    assert len(seeds) == 48
    assert integ.rllib_seed(3, 1, 2) == integ.rllib_seed(3, 1, 2)
    for bad in (-1, 1.5, None, True):
        with pytest.raises((TypeError, ValueError)):
            integ.rllib_seed(bad, 0, 0)
    with pytest.raises((TypeError, ValueError)):
        integ.rllib_seed(1, -1, 0)
    assert integ.env_context({"a": 1}) == (0, 0, 0)
    assert integ.env_context(Ctx({}, 3, 2, 4)) == (3, 2, 4)


def test_unknown_names_are_refused():
    with pytest.raises(ValueError, match="game must be"):
        integ.make_env("chess", {})
    with pytest.raises(ValueError, match="game must be"):
        integ.make_multi_agent_env("maquis", {})
    with pytest.raises(ValueError, match="unknown env names"):
        integ.register_envs(["maquis-Chess"])


def test_register_envs_registers_every_name():
    from ray.tune.registry import ENV_CREATOR, _global_registry

    assert integ.register_envs() == list(integ.ENV_NAMES)
    for name in integ.ENV_NAMES:
        assert _global_registry.contains(ENV_CREATOR, name)


# -- the seeds RLlib's env runners give ----------------------------------------------------------------

# Ray's registry keeps a pickled copy of the env creator: the creator and what it records are
# module-level names, which pickle by reference.
SEEN: list[str] = []


class VectorRecord(gym.vector.VectorWrapper):
    def reset(self, *, seed=None, options=None):
        out = self.env.reset(seed=seed, options=options)
        if seed is not None:
            core = self.env.unwrapped
            SEEN.extend(core.save_state(i) for i in range(core.num_envs))
        return out


class Record(gym.Wrapper):
    def reset(self, *, seed=None, options=None):
        out = self.env.reset(seed=seed, options=options)
        if seed is not None:
            SEEN.append(self.env.unwrapped.save_state())
        return out


def recording_creator(env_config):
    """The integration's creator of `env_config["game"]` (the runner's indices kept), each env
    noting the saved state of every game after a seeded reset (in SEEN)."""
    indices = integ.env_context(env_config)
    env = integ.make_env(env_config["game"], Ctx({k: v for k, v in env_config.items() if k != "game"}, *indices))
    return VectorRecord(env) if isinstance(env, gym.vector.VectorEnv) else Record(env)


def _config(game, mode, runners, envs, seed):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    register_env("maquis-test-recording", recording_creator)
    return (
        PPOConfig()
        .environment("maquis-test-recording", env_config={"game": game, **GAMES[game][1]})
        .env_runners(num_env_runners=runners, num_envs_per_env_runner=envs, gym_env_vectorize_mode=mode)
        .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                                               model_config={"fcnet_hiddens": [8], "head_fcnet_hiddens": []}))
        .debugging(seed=seed)
    )


def _streams(game, mode, runners, envs, seed=3):
    """The saved states of every game of `runners` of RLlib's own SingleAgentEnvRunners x `envs`
    envs after the runners' seeded reset."""
    from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner

    config = _config(game, mode, runners, envs, seed)
    SEEN.clear()
    per_runner = []
    for w in range(1, runners + 1):
        runner = SingleAgentEnvRunner(config=config, worker_index=w, num_workers=runners)
        before = len(SEEN)
        runner.sample(num_timesteps=envs, explore=True)
        per_runner.append(SEEN[before:])
        runner.stop()
    return per_runner


@pytest.mark.filterwarnings("ignore:.*Overriding environment")
@pytest.mark.parametrize("game,mode,runners,envs", [
    ("maquis", "sync", 4, 8),  # the count: summed seeds give 11 streams out of 32
    ("maquis", "vector_entry_point", 3, 4),
    ("dday", "sync", 2, 3),
    ("dday", "vector_entry_point", 2, 3),
    ("maurice", "sync", 2, 2),
])
def test_env_runners_play_distinct_deal_streams(game, mode, runners, envs):
    per_runner = _streams(game, mode, runners, envs)
    assert [len(s) for s in per_runner] == [envs] * runners
    states = [s for runner in per_runner for s in runner]
    assert len(set(states)) == runners * envs


def test_summed_seeds_replay_what_the_hash_keeps_apart():
    """The check above can fail: single envs reset with RLlib's summed seeds (runner w's env j:
    seed + w + j) play only runners + envs - 1 streams."""
    env = maquis.MaquisEnv()
    states = set()
    for w in range(1, 5):
        for j in range(8):
            env.reset(seed=3 + w + j)
            states.add(env.save_state())
    assert len(states) == 4 + 8 - 1


# -- the two-player games as a MultiAgentEnv -----------------------------------------------------------


@pytest.mark.parametrize("game,kw", [("dday", {}), ("maurice", {"scenario": "skirmish", "observation": "compact"})])
def test_multi_agent_env_random_legal_games_to_the_end(game, kw):
    from ray.rllib.env.multi_agent_env import MultiAgentEnv

    env = integ.make_multi_agent_env(game, Ctx(kw, worker_index=1))
    assert isinstance(env, MultiAgentEnv) and isinstance(env, integ.TwoPlayerMultiAgentEnv)
    sides = list(env.possible_agents)
    n = GAMES[game][0]
    for a in sides:
        assert env.get_action_space(a) == gym.spaces.Discrete(n)
        assert env.get_observation_space(a)["action_mask"] == gym.spaces.Box(0.0, 1.0, (n,), np.float32)
    rng = np.random.default_rng(0)
    for episode in range(2):
        obs, infos = env.reset(seed=episode)
        steps = 0
        while True:
            assert list(obs) == [env.agent_to_move] and list(infos) == list(obs)
            mover = env.agent_to_move
            o = obs[mover]
            assert env.get_observation_space(mover).contains(o)
            legal = np.flatnonzero(o["action_mask"])
            assert legal.size and set(legal) == set(env.aec.legal_actions())
            obs, rewards, terminateds, truncateds, infos = env.step({mover: int(rng.choice(legal))})
            steps += 1
            assert not truncateds["__all__"]
            if terminateds["__all__"]:
                break
            assert set(rewards) == {mover} and rewards[mover] == 0.0
        assert set(obs) == set(sides) and set(rewards) == set(sides)
        assert all(terminateds[a] for a in sides)
        assert sum(rewards.values()) == 0.0
        outcomes = {infos[a]["outcome"] for a in sides}
        assert outcomes in ({"win", "loss"}, {"draw"})
        for a in sides:
            assert not obs[a]["action_mask"].any()
        assert steps > 1


def test_multi_agent_env_refuses_a_missing_mover_and_ends_on_an_illegal_action():
    env = integ.make_multi_agent_env("dday", {})
    obs, _ = env.reset(seed=1)
    mover = env.agent_to_move
    other = next(a for a in env.possible_agents if a != mover)
    with pytest.raises(KeyError, match="agent to move"):
        env.step({other: 0})
    illegal = int(np.flatnonzero(obs[mover]["action_mask"] == 0)[0])
    obs, rewards, terminateds, truncateds, infos = env.step({mover: illegal})
    assert terminateds["__all__"] and rewards == {mover: -1.0, other: 0.0}
    assert infos[mover] == {"illegal_action": True, "outcome": "loss"}
    strict = integ.make_multi_agent_env("dday", {"illegal_action": "raise"})
    strict.reset(seed=1)
    before = strict.save_state()
    with pytest.raises(maquis.IllegalActionError):
        strict.step({strict.agent_to_move: illegal})
    assert strict.save_state() == before


def _multi_config(game, shared, runners=0, envs=1, seed=5):
    from ray.rllib.algorithms.ppo import PPOConfig

    env_config = {"scenario": "skirmish", "observation": "compact"} if game == "maurice" else {}
    config = integ.multi_agent_config(PPOConfig(), game, shared=shared, env_config=env_config,
                                      model_config={"fcnet_hiddens": [16], "head_fcnet_hiddens": []})
    return (config.env_runners(num_env_runners=runners, num_envs_per_env_runner=envs)
            .training(train_batch_size_per_learner=64, minibatch_size=32, num_epochs=1)
            .debugging(seed=seed))


#: The seed of RLlib's multi-agent env check (`check_multiagent_environments` resets every env
#: with it before the runner's own seeded reset).
ENV_CHECK_SEED = 42


class RecordingMultiAgentEnv(integ.TwoPlayerMultiAgentEnv):
    def reset(self, *, seed=None, options=None):
        out = super().reset(seed=seed, options=options)
        if seed is not None and seed != ENV_CHECK_SEED:
            SEEN.append(self.save_state())
        return out


def recording_multi_agent_creator(env_config):
    """D-Day's MultiAgentEnv noting its saved state after a seeded reset (in SEEN)."""
    env = integ.make_multi_agent_env("dday", env_config)
    env.__class__ = RecordingMultiAgentEnv
    return env


@pytest.mark.filterwarnings("ignore:.*Overriding environment")
@pytest.mark.parametrize("shared", [False, True])
def test_rllib_multi_agent_env_runner_samples_whole_games(shared):
    from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
    from ray.tune.registry import register_env

    register_env("maquis-test-multi-recording", recording_multi_agent_creator)
    config = _multi_config("dday", shared, runners=2, envs=3).environment("maquis-test-multi-recording")
    policies = {"shared"} if shared else {"resistance", "german"}
    SEEN.clear()
    for w in (1, 2):
        runner = MultiAgentEnvRunner(config=config, worker_index=w, num_workers=2)
        assert set(runner.module.keys()) == policies
        episodes = runner.sample(num_episodes=2, explore=True)
        done = [e for e in episodes if e.is_done]
        assert done
        for e in done:
            returns = e.get_return() if not hasattr(e, "agent_episodes") else {
                a: ep.get_return() for a, ep in e.agent_episodes.items()}
            assert sum(returns.values()) == pytest.approx(0.0)
        runner.stop()
    # 2 runners x 3 envs, each seeded once: six distinct games.
    assert len(SEEN) == 6 and len(set(SEEN)) == 6


# -- PPO ---------------------------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore")
def test_ppo_trains_on_the_integration_single_and_multi_agent():
    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    ray.init(num_cpus=1, include_dashboard=False, ignore_reinit_error=True, log_to_driver=False)
    try:
        integ.register_envs()
        single = (
            PPOConfig()
            .environment("maquis-Maquis", env_config={"difficulty": "normal"})
            .env_runners(num_env_runners=0, num_envs_per_env_runner=4, gym_env_vectorize_mode="vector_entry_point")
            .training(train_batch_size_per_learner=256, minibatch_size=128, num_epochs=1)
            .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                                                   model_config={"fcnet_hiddens": [16], "head_fcnet_hiddens": []}))
            .debugging(seed=1)
        )
        for config in (single, _multi_config("dday", shared=False)):
            algo = config.build_algo()
            try:
                result = algo.train()
                assert result["env_runners"]["num_env_steps_sampled_lifetime"] > 0
            finally:
                algo.stop()
    finally:
        ray.shutdown()

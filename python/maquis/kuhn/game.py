"""Kuhn poker's declaration (read by `maquis.common.registry`; strings for all that loads)."""

from __future__ import annotations

from ..common.registry import GameSpec, Keyword, SaveKinds, Verb, two_player_verbs

GAME = GameSpec(
    key="kuhn",
    title="Kuhn poker",
    description="Kuhn poker, the three-card poker of hidden information and chance (the worked example)",
    gym_id="maquis/KuhnPoker-v0",
    single_env="maquis.kuhn.single:KuhnEnv",
    vector_env="maquis.kuhn.vector:KuhnVectorEnv",
    aec_env="maquis.kuhn.aec:raw_env",
    keywords=(
        Keyword("side", "first", "the side the learner plays: first or second", "str"),
        Keyword("opponent", "heuristic", "the other side: random, heuristic (the equilibrium) or an agent object", "Any"),
        Keyword("reward", None, "None: the payoff in chips / 2 (RULES P2); or a mapping {'win', 'loss'} -> float", "Any"),
        Keyword("illegal_action", "terminate", "what an illegal action does: terminate (a loss) or raise", "str"),
        Keyword("render_mode", None, "one of the env's metadata[\"render_modes\"], or None", "str | None"),
        Keyword("observation_dtype", "float32", "float32 or uint8 observations", "str"),
    ),
    verbs=two_player_verbs("maquis.kuhn", "docs/kuhn.md", exploit=Verb(
        "maquis.kuhn.exact", "the exact best response to a level or a policy, and its exploitability")),
    saves=SaveKinds(
        state_formats=("maquis.kuhn",),
        env_formats=("maquis.kuhn.match",),
        episode_formats=("maquis.kuhn-episode",),
        state_keys=("cards", "history", "pot"),
    ),
    renderers={"ansi": "maquis.kuhn.render:render_ansi", "rgb_array": "maquis.kuhn.render:render_rgb"},
    web="maquis.kuhn.web:web_game",
    agents="maquis.kuhn._common:OPPONENTS",
    levels="maquis.kuhn._common:OPPONENTS",
    docs_page="docs/kuhn.md",
    playthroughs="maquis.kuhn.playthrough:PLAYTHROUGHS",
    policy_loader="maquis.kuhn.policy:load_policy",
)

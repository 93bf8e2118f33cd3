"""Maurice Lite's declaration (read by `maquis.common.registry`; strings for all that loads)."""

from __future__ import annotations

from ..common.registry import GameSpec, Keyword, SaveKinds, Verb, two_player_verbs

GAME = GameSpec(
    key="maurice",
    title="Maurice Lite",
    description="Maurice Lite, a two-player horse-and-musket battle game",
    gym_id="maquis/MauriceLite-v0",
    single_env="maquis.maurice.single:MauriceEnv",
    vector_env="maquis.maurice.vector:MauriceVectorEnv",
    aec_env="maquis.maurice.aec:raw_env",
    keywords=(
        Keyword("side", "blue", "the side the learner plays: blue or red", "str"),
        Keyword("opponent", "heuristic", "the other side: a bundled level's name, an agent object or a callable", "Any"),
        Keyword("opponent_kwargs", None, "keywords of the bundled opponent (e.g. its search budget)", "Mapping[str, Any] | None"),
        Keyword("scenario", "standard", "the scenario set up at reset: skirmish or standard", "str"),
        Keyword("terrain", "scenario", "the terrain: the scenario's, or random", "str"),
        Keyword("observation", "full", "the observation: full (planes and unit table) or compact", "str"),
        Keyword("reward", None, "reward per outcome from the learner's side (None: win 1, draw 0, loss -1)", "Any"),
        Keyword("illegal_action", "terminate", "what an illegal action does: terminate (a loss) or raise", "str"),
        Keyword("render_mode", None, "one of the env's metadata[\"render_modes\"], or None", "str | None"),
        Keyword("observation_dtype", "float32", "float32 or uint8 observations", "str"),
        Keyword("shaping", None, "potential-based reward shaping (True: the default potential)", "bool | Mapping[str, Any] | None"),
    ),
    verbs=two_player_verbs("maquis.maurice", "docs/maurice.md", train=Verb(
        "maquis.maurice.train.expert", "train the network of the 'network' levels by expert iteration (needs torch)")),
    saves=SaveKinds(
        state_formats=("maquis.maurice",),
        env_formats=("maquis.maurice.match",),
        episode_formats=("maquis.maurice-episode",),
        state_keys=("round_state", "drawn_this_round"),
    ),
    renderers={"ansi": "maquis.maurice.render:render_ansi", "rgb_array": "maquis.maurice.render:render_rgb"},
    web="maquis.maurice.web:web_game",
    agents="maquis.maurice.tournament:OPPONENTS",
    levels="maquis.maurice.tournament:OPPONENTS",
    docs_page="docs/maurice.md",
    playthroughs="maquis.maurice.playthrough:PLAYTHROUGHS",
    policy_loader="maquis.maurice.policy:load_policy",
)

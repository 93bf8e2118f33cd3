"""D-Day 1944's declaration (read by `maquis.common.registry`; strings for all that loads)."""

from __future__ import annotations

from ..common.registry import GameSpec, Keyword, SaveKinds, Verb, two_player_verbs

GAME = GameSpec(
    key="dday",
    title="D-Day 1944",
    description="French Resistance: D-Day 1944, a two-player game",
    gym_id="maquis/DDay1944-v0",
    single_env="maquis.dday.single:DDayEnv",
    vector_env="maquis.dday.vector:DDayVectorEnv",
    aec_env="maquis.dday.aec:raw_env",
    keywords=(
        Keyword("side", "resistance", "the side the learner plays: resistance or german", "str"),
        Keyword("opponent", "heuristic", "the other side: a bundled level's name, an agent object or a callable", "Any"),
        Keyword("opponent_kwargs", None, "keywords of the bundled opponent (e.g. its search budget)", "Mapping[str, Any] | None"),
        Keyword("reward", None, "reward per outcome from the learner's side (None: win 1, draw 0, loss -1)", "Any"),
        Keyword("illegal_action", "terminate", "what an illegal action does: terminate (a loss) or raise", "str"),
        Keyword("render_mode", None, "one of the env's metadata[\"render_modes\"], or None", "str | None"),
        Keyword("observation_dtype", "float32", "float32 or uint8 observations", "str"),
    ),
    verbs=two_player_verbs("maquis.dday", "docs/dday.md", train=Verb(
        "maquis.dday.train.expert", "train the network of the 'network' levels by expert iteration (needs torch)")),
    saves=SaveKinds(
        state_formats=("maquis.dday1944",),
        env_formats=("maquis.dday1944.match",),
        episode_formats=("maquis.dday1944-episode",),
        state_keys=("allocation", "zone_values"),
    ),
    renderers={"ansi": "maquis.dday.render:render_ansi", "rgb_array": "maquis.dday.render:render_rgb"},
    web="maquis.dday.web:web_game",
    agents="maquis.dday.opponents:OPPONENTS",
    levels="maquis.dday.opponents:OPPONENTS",
    docs_page="docs/dday.md",
    playthroughs="maquis.dday.playthrough:PLAYTHROUGHS",
    policy_loader="maquis.dday.policy:load_policy",
)

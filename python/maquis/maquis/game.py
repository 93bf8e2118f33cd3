"""The solitaire's declaration (read by `maquis.common.registry`; strings for all that loads)."""

from __future__ import annotations

from ..common.registry import SERVE, GameSpec, Keyword, SaveKinds, Verb


GAME = GameSpec(
    key="maquis",
    title="Maquis",
    description="Maquis, the solitaire board game",
    gym_id="maquis/Maquis-v0",
    single_env="maquis.maquis.env:MaquisEnv",
    vector_env="maquis.maquis.vector:MaquisVectorEnv",
    keywords=(
        Keyword("difficulty", "normal", "the difficulty level (D1): easy, normal, hard, …", "str"),
        Keyword("mission_pool", "second_edition", "the mission cards dealt from (D2)", "str"),
        Keyword("missions", None, "the two missions to play, by id (None: dealt from the pool)", "Sequence[str] | None"),
        Keyword("deal", "uniform", "how the missions are dealt from the pool", "str"),
        Keyword("reward", None, "reward per outcome (None: win 1, loss -1, …)", "Mapping[str, float] | None"),
        Keyword("illegal_action", "terminate", "what an illegal action does: terminate (a loss) or raise", "str"),
        Keyword("render_mode", None, "one of the env's metadata[\"render_modes\"], or None", "str | None"),
        Keyword("observation_dtype", "float32", "float32 or uint8 observations", "str"),
        Keyword("shaping", None, "potential-based reward shaping (True: the default potential)", "bool | Mapping[str, Any] | None"),
    ),
    verbs={
        "play": Verb("maquis.maquis.play", "play a whole game in the terminal", "add_play_arguments", "run_play"),
        "eval": Verb("maquis.maquis.evaluation", "evaluate agents or saved policies at each difficulty level"),
        "ladder": Verb("maquis.maquis.tournament", "rate agents per difficulty: win rates, paired differences, 50% level"),
        "rate": Verb("maquis.maquis.tournament", "rate your policy per difficulty: win rates and its 50% level",
                     "add_rate_arguments", "run_rate"),
        "bench": Verb("maquis.maquis.bench", "measure engine, single-env and vector-env throughput"),
        "render": Verb("maquis.maquis.replay", "write a PNG (or print the text view) of a saved position",
                       "add_render_arguments", "run_render"),
        "replay": Verb("maquis.maquis.replay", "turn a recorded episode into PNG frames or a GIF",
                       "add_replay_arguments", "run_replay"),
        "docs": Verb("maquis.maquis.docs", "write or check docs/maquis.md, the environment's reference page"),
        "playthrough": Verb("maquis.maquis.playthrough", "print, check or regenerate the golden playthroughs"),
        "train": Verb("maquis.maquis.train.expert", "train the network by expert iteration (needs torch: maquis[train])"),
        "serve": SERVE,
    },
    saves=SaveKinds(
        state_formats=("maquis-state",),
        env_formats=("maquis-state",),
        episode_formats=("maquis-episode",),
        state_keys=("board", "patrol_deck"),
    ),
    renderers={"ansi": "maquis.maquis.render:render_ansi", "rgb_array": "maquis.maquis.render:render_rgb"},
    web="maquis.maquis.web:web_game",
    agents="maquis.maquis.agents:AGENT_NAMES",
    levels="maquis.maquis.tables:DIFFICULTIES",
    docs_page="docs/maquis.md",
    playthroughs="maquis.maquis.playthrough:GAME_PLAYTHROUGHS",
    policy_loader="maquis.maquis.policy:load_policy",
    short_form=True,
)

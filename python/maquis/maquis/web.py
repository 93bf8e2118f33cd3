"""The solitaire in the web app (`maquis serve`): one seat, the Gymnasium env, the deck's order hidden."""

from __future__ import annotations

import copy

from ..web.games import GymTable, Setting, WebGame, header_keywords, text_scene


class MaquisGame(WebGame):
    def start(self, settings, seed, options=None):
        from . import MaquisEnv

        env = MaquisEnv(**dict(settings), illegal_action="raise")
        obs, _ = env.reset(seed=seed, options=dict(options) if options else None)
        return GymTable(self, env, obs)

    def make_agent(self, agent, seed):
        from .agents import make_agent

        import secrets

        return make_agent(agent, seed=secrets.randbelow(2**31) if seed is None else seed)

    def view(self, state, seat):
        # The draw order of the patrol deck is hidden from everyone (the rules: all but the deck
        # order is public); its length stays, a peeked top card is in `peek`.
        out = copy.deepcopy(dict(state))
        out["patrol_deck"] = [None] * len(state.get("patrol_deck") or ())
        return out

    def scene(self, view, seat):
        from . import render

        build = getattr(render, "scene", None)
        return build(view) if build else text_scene(self.status(view))

    def status(self, view):
        from .playthrough import maquis_status

        return maquis_status(view)

    def narrate(self, before, after, mover, name, seat):
        from .narrator import describe_changes

        return describe_changes(before, after, name)

    def read_playthrough(self, header):
        env = {} if header.get("env", "defaults") == "defaults" else header_keywords(header.get("env", ""))
        reset = header_keywords(header.get("reset", ""))
        return env, reset.get("seed"), reset.get("options")


def web_game() -> MaquisGame:
    from .tables import DIFFICULTIES

    return MaquisGame(
        "maquis", "Maquis", ("player",), ("random", "heuristic", "search"),
        (Setting("difficulty", "Difficulty", tuple(DIFFICULTIES), "normal"),),
        ("maquis-episode",), ("maquis/",),
    )

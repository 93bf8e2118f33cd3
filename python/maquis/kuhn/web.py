"""Kuhn poker in the web app (`maquis serve`): two seats on the AEC env, each seeing its own card
only (RULES O1: the other card stays face down, even after a showdown)."""

from __future__ import annotations

from ..web.games import SPECTATOR, AECTable, WebGame, header_keywords


class KuhnGame(WebGame):
    def start(self, settings, seed, options=None):
        from .aec import raw_env

        env = raw_env()
        env.reset(seed=seed, options=dict(options) if options else None)
        return AECTable(self, env)

    def make_agent(self, agent, seed):
        from .agents import make_agent

        return make_agent(agent, seed=seed)

    def view(self, state, seat):
        from .render import side_view

        # A seat sees its own card (O1); a spectator neither; a finished recording, or agents
        # alone, watched by no side, show both.
        if seat is None:
            return dict(state)
        if seat == SPECTATOR:
            return {**dict(state), "cards": {side: None for side in self.seats}, "viewer": None}
        return side_view(state, seat)

    def scene(self, view, seat):
        from .render import scene

        return scene(view)

    def status(self, view):
        from .render import status_line

        return [status_line(view)]

    def narrate(self, before, after, mover, name, seat):
        from .playthrough import events

        return events(before, after)

    def read_playthrough(self, header):
        reset = header_keywords(header.get("reset", ""))
        return {}, reset.get("seed"), reset.get("options")


def web_game() -> KuhnGame:
    from ._common import OPPONENTS

    return KuhnGame("kuhn", "Kuhn poker", ("first", "second"), OPPONENTS, (), ("maquis.kuhn-episode",), ("kuhn_poker",))

"""Kuhn poker in the web app (`maquis serve`): two seats on the AEC env, each seeing its own card
only (RULES O1: the other card stays face down, even after a showdown)."""

from __future__ import annotations

from ..web.games import SPECTATOR, TwoPlayerWebGame


class KuhnGame(TwoPlayerWebGame):
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


def web_game() -> KuhnGame:
    from ._common import OPPONENTS

    return KuhnGame("kuhn", "Kuhn poker", ("first", "second"), OPPONENTS, (), ("maquis.kuhn-episode",), ("kuhn_poker",))

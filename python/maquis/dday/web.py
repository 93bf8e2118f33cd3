"""D-Day 1944 in the web app (`maquis serve`): two seats on the AEC env, each seeing its own side's view."""

from __future__ import annotations


from ..web.games import SPECTATOR, TwoPlayerWebGame, text_scene


class DDayGame(TwoPlayerWebGame):
    AGENTS = "opponents"

    def view(self, state, seat):
        from .render import side_view

        # The German sees everything but future dice (O4); the Resistance loses the allocation of
        # the zones it has not attacked (O2), and so does a spectator (the Resistance has no secret).
        # A finished recording, or agents alone, watched by no side, show everything.
        if seat == SPECTATOR:
            return {**side_view(state, "resistance"), "viewer": SPECTATOR}
        return side_view(state, seat or "german")

    def scene(self, view, seat):
        from . import render

        build = getattr(render, "scene", None)
        # The view is already the seat's: drawn as it is.
        return build(view, side=seat if seat in self.seats else None) if build else text_scene(self.status(view))

    def status(self, view):
        from .playthrough import status

        return status(view)

    def narrate(self, before, after, mover, name, seat):
        from .playthrough import events

        return events(before, after)

    def action_text(self, mover, name, seat):
        # Where the German put an item is his secret (G4): the Resistance hears only that he did.
        if name.startswith("allocate:") and seat in ("resistance", SPECTATOR):
            return f"{mover}: places an item (hidden)"
        return f"{mover}: {name}"


def web_game() -> DDayGame:
    from ..common.single import BUNDLED_OPPONENTS

    return DDayGame(
        "dday", "D-Day 1944", ("resistance", "german"), tuple(BUNDLED_OPPONENTS),
        (), ("maquis.dday1944-episode",), ("dday1944",),
    )

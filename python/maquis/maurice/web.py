"""Maurice Lite in the web app (`maquis serve`): two seats on the AEC env, each seeing its own hand."""

from __future__ import annotations

import copy

from ..web.games import SPECTATOR, Setting, TwoPlayerWebGame


class MauriceGame(TwoPlayerWebGame):
    def view(self, state, seat):
        from .render import side_view

        # A seat sees its own hand only (O2), a spectator neither hand, nobody the deck's order
        # (O3, its size is public); a finished recording, or agents alone, watched by no side, show
        # both hands.
        if seat is None:
            out = copy.deepcopy(dict(state))
            out["deck"] = [None] * len(state.get("deck") or ())
            return out
        if seat == SPECTATOR:
            out = side_view(state, "blue")
            for key in ("hands", "drawn_this_round"):
                out[key] = {side: [None] * len(cards or ()) for side, cards in (out.get(key) or {}).items()}
            out["viewer"] = None  # drawn as nobody's side: both hands shown hidden
            return out
        return side_view(state, seat)

    def scene(self, view, seat):
        from .render import scene

        return scene(view)

    def status(self, view):
        from .playthrough import status

        return status(view)

    def narrate(self, before, after, mover, name, seat):
        from .playthrough import events

        # Cards drawn are named only to their holder: the other seat (and a spectator) hears that
        # cards were drawn.
        lines = events(before, after)
        if seat is not None:
            for enemy in [s for s in self.seats if s != seat]:
                lines = [f"{enemy} draws cards" if line.startswith(f"{enemy} draws ") else line for line in lines]
        return lines


def web_game() -> MauriceGame:
    return MauriceGame(
        "maurice", "Maurice Lite", ("blue", "red"), ("random", "heuristic", "search"),
        (Setting("scenario", "Scenario", ("skirmish", "standard"), "skirmish"),),
        ("maquis.maurice-episode",), ("maurice_lite",),
    )

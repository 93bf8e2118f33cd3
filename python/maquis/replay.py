"""Draw saved games: ``maquis render`` (a PNG of one saved position) and ``maquis replay`` (one PNG
per step of a recorded episode, or an animated GIF).

- ``maquis render STATE.json -o out.png`` - a PNG of a position saved by ``env.save_state()`` (a
  plain ``state_dict()`` dumped as JSON works too).
- ``maquis replay EPISODE.json -o DIR`` (one PNG per step) or ``-o out.gif`` (needs Pillow) -
  re-runs a recorded episode (``maquis.episode``) and draws every position along the way.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .episode import EPISODE_FORMAT, UsageError, load_episode, make_env, replay_states
from .render import render_ansi, render_rgb, write_gif, write_png

__all__ = ["add_render_arguments", "add_replay_arguments", "load_state_dict", "run_render", "run_replay"]


def add_render_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "state", metavar="STATE.json", help="a position saved by env.save_state() (or a state_dict as JSON)"
    )
    p.add_argument("-o", "--output", metavar="OUT.png", help="the PNG to write (default: STATE.png)")
    p.add_argument(
        "--width", type=int, default=960, help="image width in pixels (default 960; height is 3/4 of it)"
    )
    p.add_argument("--text", action="store_true", help="also print the text board")


def load_state_dict(text: str) -> dict:
    """The ``state_dict()`` of a saved position: ``env.save_state()`` output, or a state_dict as JSON."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise UsageError(f"not JSON: {err}") from None
    if isinstance(data, dict) and data.get("format") == EPISODE_FORMAT:
        raise UsageError("this is a recorded episode, not a position: use `maquis replay`")
    env = make_env({})
    try:
        env.load_state(text)
        return env.state_dict()
    except (ValueError, TypeError, KeyError) as err:
        if isinstance(data, dict) and isinstance(data.get("board"), dict) and "phase" in data:
            return data  # a plain state_dict: the renderers draw it as it is
        raise UsageError(f"not a saved position: {err}") from None


def run_render(args: argparse.Namespace) -> int:
    out = args.output or str(Path(args.state).with_suffix(".png"))
    try:
        if args.width < 16:
            raise UsageError(f"--width must be at least 16, got {args.width}")
        try:
            text = Path(args.state).read_text()
        except OSError as err:
            raise UsageError(f"cannot read {args.state}: {err.strerror or err}") from None
        sd = load_state_dict(text)
        try:
            write_png(out, render_rgb(sd, args.width))
        except OSError as err:
            raise UsageError(f"cannot write {out}: {err.strerror or err}") from None
    except UsageError as err:
        print(f"maquis render: {args.state}: {err}", file=sys.stderr)
        return 1
    if args.text:
        print(render_ansi(sd), end="")
    print(f"wrote {out} ({args.width}x{round(args.width * 3 / 4)})")
    return 0


def add_replay_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("episode", metavar="EPISODE.json", help="an episode written by `maquis play --record`")
    p.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="DIR|OUT.gif",
        help="a directory for one PNG per step (step_000.png is the start), or a .gif file (needs Pillow)",
    )
    p.add_argument("--width", type=int, default=960, help="frame width in pixels (default 960)")
    p.add_argument(
        "--duration", type=int, default=700, metavar="MS", help="GIF: milliseconds per frame (default 700)"
    )


def run_replay(args: argparse.Namespace) -> int:
    out = args.output
    try:
        if args.width < 16:
            raise UsageError(f"--width must be at least 16, got {args.width}")
        episode = load_episode(args.episode)
        gif = out.lower().endswith(".gif")
        frames, written = [], 0
        if not gif:
            try:
                os.makedirs(out, exist_ok=True)
            except OSError as err:
                raise UsageError(f"cannot create the directory {out}: {err.strerror or err}") from None
        digits = max(3, len(str(len(episode["actions"]))))
        final = None
        for step, sd in enumerate(replay_states(episode)):
            final = sd
            image = render_rgb(sd, args.width)
            if gif:
                frames.append(image)
            else:
                write_png(os.path.join(out, f"step_{step:0{digits}d}.png"), image)
                written += 1
        if gif:
            try:
                write_gif(out, frames, duration_ms=args.duration)
            except RuntimeError as err:
                raise UsageError(str(err)) from None
            written = len(frames)
    except UsageError as err:
        print(f"maquis replay: {args.episode}: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"maquis replay: cannot write {out}: {err.strerror or err}", file=sys.stderr)
        return 1
    outcome = final.get("outcome") if final else None
    recorded = episode.get("outcome")
    what = f"{out}" if gif else f"{written} PNG files in {out}"
    print(f"wrote {what}: {len(episode['actions'])} actions, outcome {outcome or 'none (unfinished)'}")
    if recorded is not None and recorded != outcome:
        print(
            f"maquis replay: the recorded outcome was {recorded}, the replay gives {outcome}", file=sys.stderr
        )
        return 1
    return 0

"""What every game's terminal play shares: an 80 x 24 screen, lines that fit its width, and a
numbered menu of the legal actions grouped so that it stays short.

A menu groups actions that differ only in their last part (``guess:caen:1`` … ``guess:caen:10``
become one line ``guess:caen: 1-10 = 1..10``), shows actions that only add a suffix to another
legal action (``place:grocer:fake_id``) as one line, and ends with ``… N more`` when even that
does not fit, so that the position above it never scrolls off.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

#: The terminal every screen is made for: columns, lines.
SCREEN_WIDTH, SCREEN_HEIGHT = 80, 24


def clip(line: str, width: int = SCREEN_WIDTH) -> str:
    """``line`` cut to ``width`` characters (ending in ``~`` when cut)."""
    return line if len(line) <= width else line[: width - 1] + "~"


def wrap(text: str, width: int = SCREEN_WIDTH, indent: str = "  ", max_lines: int | None = None) -> list[str]:
    """``text`` wrapped to ``width``, later lines indented by ``indent``; at most ``max_lines``."""
    lines = textwrap.wrap(text, width, subsequent_indent=indent, break_on_hyphens=False) or [""]
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = clip(lines[-1] + " ...", width) if len(lines[-1]) + 4 <= width else clip(lines[-1] + "~", width)
    return [clip(line, width) for line in lines]


def _flow(head: str, cells: Sequence[str], width: int) -> list[str]:
    """``head`` then the ``cells`` two spaces apart, wrapped onto indented lines."""
    lines: list[str] = []
    line = head
    for cell in cells:
        if not line:
            candidate = cell
        elif line == head:
            candidate = f"{line} {cell}"
        else:
            candidate = f"{line}  {cell}"
        if line.strip() and len(candidate) > width:
            lines.append(line)
            line = "    " + cell
        else:
            line = candidate
    lines.append(line)
    return [clip(x, width) for x in lines]


def _numeric_run(values: Sequence[str], numbers: Sequence[int]) -> str | None:
    """``"1..10"`` when the values are consecutive whole numbers on consecutive menu numbers."""
    if len(values) < 3 or not all(v.isdigit() for v in values):
        return None
    ints = [int(v) for v in values]
    steps = zip(ints, ints[1:], numbers, numbers[1:])
    if all(b == a + 1 and m == n + 1 for a, b, n, m in steps):
        return f"{ints[0]}..{ints[-1]}"
    return None


def _grouped(names: Sequence[str], number: dict, width: int, key_of) -> tuple[list[str], list[str]]:
    """Menu lines of the ``names`` that share a ``key_of`` with another, and the lone entries."""
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(key_of(name), []).append(name)
    lines: list[str] = []
    singles: list[str] = []
    for key, members in groups.items():
        if not key or len(members) == 1:
            singles += [f"{number[n]}.{n}" for n in members]
            continue
        values = [n[len(key) + 1 :] for n in members]
        nums = [number[n] for n in members]
        run = _numeric_run(values, nums)
        if run:
            lines.append(clip(f"{nums[0]}-{nums[-1]}. {key}:{run}", width))
        else:
            lines += _flow(f"{key}:", [f"{k}.{v}" for k, v in zip(nums, values)], width)
    return lines, singles


def menu_lines(names: Sequence[str], width: int = SCREEN_WIDTH, max_lines: int | None = None) -> list[str]:
    """The legal actions ``names`` as a numbered menu (1 is ``names[0]``) in few lines.

    With ``max_lines``, the menu is cut to that many lines, the last saying how many entries are
    left out (the player lists them all on request)."""
    number = {name: k for k, name in enumerate(names, 1)}
    # Actions that only add a suffix to another legal action, by suffix.
    variants: dict[str, list[str]] = {}
    for name in names:
        stem, _, suffix = name.rpartition(":")
        if stem in number:
            variants.setdefault(suffix, []).append(name)
    shown_as_variant = {n for group in variants.values() for n in group}
    rest = [n for n in names if n not in shown_as_variant]
    # Grouped by all but the last part, or by the verb alone: whichever takes fewer lines.
    by_stem = _grouped(rest, number, width, lambda n: n.rpartition(":")[0])
    by_verb = _grouped(rest, number, width, lambda n: n.partition(":")[0] if ":" in n else "")
    lines, singles = min(by_stem, by_verb, key=lambda ls: len(ls[0]) + len(_flow("", ls[1], width)))
    for suffix, members in variants.items():
        nums = [number[n] for n in members]
        offsets = {number[n] - number[n.rpartition(":")[0]] for n in members}
        consecutive = nums == list(range(nums[0], nums[0] + len(nums)))
        if len(members) > 2 and len(offsets) == 1 and consecutive:
            lines.append(clip(f"{nums[0]}-{nums[-1]}. the same with :{suffix} (number + {offsets.pop()})", width))
        else:
            singles += [f"{number[n]}.{n}" for n in members]
    if singles:
        lines += _flow("", singles, width)
    if max_lines is not None and len(lines) > max_lines:
        kept = lines[: max(0, max_lines - 1)]
        lines = kept + [f"... and {len(lines) - len(kept)} more lines: type `legal` to list every action"]
    return lines


def match_action(
    text: str, legal: Sequence[tuple[int, str]], action_from_str, action_names: Sequence[str]
) -> tuple[int | None, str]:
    """The action index meant by ``text`` — a menu number (1 is ``legal[0]``), a name, a unique
    prefix of a legal name, or ``#<index>`` — among the ``legal`` (index, name) pairs, or None and
    the reason in a sentence."""
    text = text.strip()
    last = len(action_names) - 1
    names = [n for _, n in legal]
    if text.isdigit():
        k = int(text)
        if 1 <= k <= len(legal):
            return legal[k - 1][0], ""
        return None, f"There is no entry {k}: the menu has entries 1-{len(legal)} (use #{k} for action index {k})."
    if text.startswith("#"):
        body = text[1:].strip()
        if not body.isdigit():
            return None, f"`{text}` is not an action index: type # and a number 0-{last}."
        index = int(body)
        for i, _ in legal:
            if i == index:
                return i, ""
        if not 0 <= index <= last:
            return None, f"There is no action with index {index} (0-{last})."
        return None, f"Action #{index} ({action_names[index]}) is not legal now; type `legal` for the list."
    lowered = text.lower()
    if lowered in names:
        return legal[names.index(lowered)][0], ""
    hits = [(i, n) for i, n in legal if n.startswith(lowered)]
    if len(hits) == 1:
        return hits[0][0], ""
    if len(hits) > 1:
        shown = ", ".join(n for _, n in hits[:8]) + (" ..." if len(hits) > 8 else "")
        return None, f"`{text}` matches {len(hits)} legal actions ({shown}): type more of the name."
    try:
        action_from_str(lowered)
    except (ValueError, KeyError):
        return None, f"`{text}` is not an action, a menu number or a command (type `help`)."
    return None, f"`{text}` is not legal now; type `legal` for the list."

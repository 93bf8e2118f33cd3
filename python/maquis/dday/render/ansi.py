"""The text view (``render_ansi``): the campaign, the skirmish table, the scores; and the same in
at most 20 lines of 80 characters for the terminal game (``render_compact``)."""

from __future__ import annotations

from collections.abc import Mapping

from ...common.terminal import clip, wrap
from .view import (
    CLASSES,
    SIDES,
    ZONE_NAMES,
    ZONES,
    awaiting,
    counts,
    faces,
    losses,
    outcome_line,
    train_of,
)

_CELL = 7
_LABEL = 22


def _guess_marks(sd: Mapping) -> dict:
    """zone -> its guesses as ``6<`` (too high), ``3>`` (too low), ``5=`` (correct)."""
    guesses: dict = {z: [] for z in ZONES}
    for g in (sd.get("interrogation") or {}).get("log") or ():
        sign = {"too_high": "<", "too_low": ">", "correct": "="}.get(g["answer"], "?")
        guesses.setdefault(g["zone"], []).append(f"{g['value']}{sign}")
    return guesses


def _table_rows(sk: Mapping, all_sides: bool) -> list[tuple[tuple[str, str], list[str]]]:
    """The skirmish table's rows: each (unit, state) class present, then each side's casualty
    markers (every side, or only those with markers), with its six cells."""
    figures = sk.get("figures") or ()
    acting = next((f for f in figures if f["id"] == sk.get("acting")), None)
    present = {(f["unit"], f["state"]) for f in figures if f["state"] in ("standing", "in_cover")}
    sides = {f["side"] for f in figures if all_sides or f["state"] == "casualty"}
    rows = []
    for key in [k for k in CLASSES if k in present] + [(s, "casualty") for s in SIDES if s in sides]:
        cells = []
        for n in range(1, 7):
            c = counts(figures, n).get(key, 0)
            cell = "" if not c else (f"x{c}" if key[1] == "casualty" else str(c))
            if acting is not None and key[1] != "casualty" and (acting["section"], acting["unit"], acting["state"]) == (n, *key):
                cell += "*"
            cells.append(cell)
        rows.append((key, cells))
    return rows


def _zone_rows(sd: Mapping) -> list[str]:
    alloc = sd.get("allocation") or {}
    values = sd.get("zone_values") or {}
    inter = sd.get("interrogation") or {}
    closed = set(inter.get("closed") or ())
    attacked = sd.get("attacked") or ()
    order = sd.get("order") or ()
    guesses = _guess_marks(sd)
    rows = [f"  {'zone':<11}{'items':<34}{'value':>5}  {'guesses':<16}status"]
    for z in ZONES:
        items = alloc.get(z)
        shown = "?" if items is None else (", ".join(items) if items else "-")
        value = values.get(z)
        status = []
        if z in attacked:
            status.append("ATTACKED")
        if z in order:
            status.append("played " + ("1st" if order[0] == z else "2nd"))
        if z in closed:
            status.append("closed")
        rows.append(
            f"  {ZONE_NAMES[z]:<11}{shown:<34}{'?' if value is None else value:>5}  "
            f"{' '.join(guesses.get(z, [])) or '-':<16}{', '.join(status)}".rstrip()
        )
    return rows


def _campaign(sd: Mapping) -> list[str]:
    inter = sd.get("interrogation") or {}
    out = ["CAMPAIGN", *_zone_rows(sd)]
    log = inter.get("log") or ()
    entries = [f"{i}. {ZONE_NAMES[g['zone']]} {g['value']} {g['answer']}" for i, g in enumerate(log, 1)]
    out.append("  interrogation: " + ("; ".join(entries) if entries else "no guess yet"))
    left = inter.get("guesses_left", 0)
    out.append(f"  guesses left: {left}" + (" (stopped)" if inter.get("stopped") else ""))
    if sd.get("attacked"):
        order = sd.get("order")
        text = " then ".join(ZONE_NAMES[z] for z in order) if order else "not chosen yet"
        out.append(f"  attacked: {', '.join(ZONE_NAMES[z] for z in sd['attacked'])}; order: {text}")
    return out


def _table(sk: Mapping, viewer_side: str | None) -> list[str]:
    figures = sk.get("figures") or ()
    task_section = sk.get("task_section")
    acting = sk.get("acting")
    acting_fig = next((f for f in figures if f["id"] == acting), None)
    head = f"{'section':<{_LABEL}}"
    for n in range(1, 7):
        label = f"{n}{'T' if n == task_section else ''}"
        head += f"|{label:^{_CELL - 1}}"
    rows = [head + "|", "-" * len(head) + "-"]
    for (unit, state), cells in _table_rows(sk, all_sides=True):
        label = f"{unit} {'casualties' if state == 'casualty' else state}"
        rows.append(f"{label:<{_LABEL}}" + "".join(f"|{cell:^{_CELL - 1}}" for cell in cells) + "|")
    fresh = [sum(1 for f in figures if f["fresh"] and f["section"] == n) for n in range(1, 7)]
    if any(fresh):
        rows.append(f"{'fresh (' + sk.get('turn', '') + ')':<{_LABEL}}" + "".join(f"|{c or '':^{_CELL - 1}}" for c in fresh) + "|")
    rows.append(f"  T = task section; x = casualty markers; * = the acting figure")
    if acting_fig is not None:
        f = acting_fig
        rows.append(
            f"  acting: figure {f['id']} ({f['unit']}, section {f['section']}, {f['state']}; "
            f"moves {f['moves']}/2, shots {f['shots']}/2, cover change {'used' if f['cover_changed'] else 'free'})"
        )
    return rows


def _pending(p: Mapping | None) -> str | None:
    if not p:
        return None
    kind = p.get("kind")
    if kind == "hit":
        return f"pending: a hit from section {p['from']} on section {p['to']}"
    if kind == "flee":
        return f"pending: {p['remaining']} to run away from section {p['section']}"
    line = f" {p['line']} for {ZONE_NAMES.get(p.get('zone'), p.get('zone'))}" if kind == "vp" else ""
    return f"pending roll: {kind}{line} {list(p.get('dice') or [])} (reroll or keep)"


def _skirmish(sd: Mapping, viewer_side: str | None) -> list[str]:
    sk = sd.get("skirmish")
    if not sk:
        return []
    idx = sd.get("skirmish_index")
    zone = sk["zone"]
    items = (sd.get("allocation") or {}).get(zone)
    train = train_of(items)
    out = [
        f"SKIRMISH {2 if idx is None else idx + 1}/2 at {ZONE_NAMES[zone]}: "
        f"turn {sk.get('turn_number')} ({sk.get('turn')}), clock {sk.get('clock')}",
        f"  the train: {train or 'no train'}; items {', '.join(items) if items else '-'}",
        *["  " + r for r in _table(sk, viewer_side)],
    ]
    pools = sk.get("pools") or {}
    out.append("  pools: " + (", ".join(f"{k} {v} AP" for k, v in pools.items()) if pools else "none rolled"))
    task = sk.get("task") or {}
    out.append(
        f"  task sets: resistance {faces(task.get('resistance'))}  german {faces(task.get('german'))}"
        f"  (task section {sk.get('task_section') or 'not rolled'}; rolled this turn: "
        f"{'yes' if sk.get('task_rolled') else 'no'})"
    )
    lost = losses(sk.get("figures") or ())
    for side in SIDES:
        r = lost[side]
        out.append(
            f"  {side}: {r['fighting']} of {r['total']} fighting, {r['casualty']} casualties, "
            f"{r['killed']} killed, {r['ran_away']} ran away, {r['evacuated']} evacuated"
        )
    pending = _pending(sk.get("pending"))
    if pending:
        out.append("  " + pending)
    return out


def _scores(sd: Mapping) -> list[str]:
    out = []
    records = sd.get("records") or ()
    if records:
        out.append("RECORDS")
        for i, r in enumerate(records, 1):
            t = r.get("task") or {}
            res, ger = r["resistance"], r["german"]
            out.append(
                f"  {i}. {ZONE_NAMES[r['zone']]}: completed by {r.get('completed') or 'nobody'}; "
                f"task R {faces(t.get('resistance'))} G {faces(t.get('german'))}; "
                f"Resistance {res['size']}: {res['killed']} killed, {res['ran_away']} ran away, "
                f"{res['evacuated']} evacuated; German {ger['figures']}: {ger['killed']} killed, "
                f"{ger['ran_away']} ran away, {ger['evacuated']} evacuated"
            )
    vp = sd.get("vp") or {}
    lines = vp.get("lines") or ()
    out.append(f"VICTORY POINTS: resistance {vp.get('resistance', 0)}, german {vp.get('german', 0)}")
    for ln in lines:
        dice = ln.get("dice")
        extra = f" dice {dice}" + (" (re-rolled)" if ln.get("rerolled") else "") if dice else ""
        zone = ZONE_NAMES.get(ln.get("zone"), ln.get("zone"))
        out.append(f"  {zone:<10} {ln['side']:<11} {ln['line']:<16} {ln['points']:>3}{extra}")
    return out


def render_ansi(sd: Mapping) -> str:
    """A plain-text view of the position: header, campaign, skirmish table, records and VP.

    Deterministic, plain ASCII. Shows what ``sd`` holds: pass a ``side_view`` to show one side's
    information only (hidden zones then read ``?``).
    """
    viewer = sd.get("viewer")
    head = f"D-DAY 1944 | phase {sd.get('phase')} | {awaiting(sd)}"
    if viewer:
        head += f" | seen by {viewer}"
    out = [head]
    result = outcome_line(sd)
    if result:
        out.append(result.upper())
    out += _campaign(sd)
    out += _skirmish(sd, viewer)
    dice_log = sd.get("dice_log") or ()
    if dice_log:
        last = dice_log[-1]
        out.append(f"last roll: {last['event']} {list(last['dice'])}")
    out += _scores(sd)
    return "\n".join(out) + "\n"


# Short names for the compact view's skirmish table.
_UNIT_SHORT = {"resistance": "resist", "squad": "squad", "gendarme_1": "gend1", "gendarme_2": "gend2", "gendarme_3": "gend3"}
_STATE_SHORT = {"standing": "stand", "in_cover": "cover", "casualty": "down"}


def _compact_zones(sd: Mapping, width: int) -> list[str]:
    """One row per zone, or (during a skirmish) the five zones in two lines."""
    alloc = sd.get("allocation") or {}
    values = sd.get("zone_values") or {}
    closed = set((sd.get("interrogation") or {}).get("closed") or ())
    attacked = sd.get("attacked") or ()
    order = sd.get("order") or ()
    guesses = _guess_marks(sd)

    def status(z: str) -> str:
        marks = []
        if z in attacked:
            marks.append("ATTACKED" + (f" {'1st' if order[0] == z else '2nd'}" if z in order else ""))
        if z in closed:
            marks.append("closed")
        return ", ".join(marks)

    if sd.get("skirmish") and sd.get("outcome") is None:
        cells = []
        for z in ZONES:
            value = values.get(z)
            text = f"{ZONE_NAMES[z]} {'?' if value is None else value}"
            extra = " ".join(guesses[z]) + (" " if guesses[z] and status(z) else "") + status(z)
            cells.append(f"{text} ({extra})" if extra else text)
        return wrap("zones: " + " | ".join(cells), width, max_lines=2)
    rows = [f"{'zone':<10}{'items':<22}{'val':>3}  {'guesses':<14}status"]
    for z in ZONES:
        items = alloc.get(z)
        shown = "?" if items is None else (", ".join(items) if items else "-")
        value = values.get(z)
        row = f"{ZONE_NAMES[z]:<10}{shown:<22}{'?' if value is None else value:>3}  {' '.join(guesses[z]) or '-':<14}{status(z)}"
        rows.append(clip(row.rstrip(), width))
    return rows


def _compact_table(sk: Mapping) -> list[str]:
    figures = sk.get("figures") or ()
    task_section = sk.get("task_section")
    head = f"{'section':<13}" + "".join(f"|{str(n) + ('T' if n == task_section else ''):^5}" for n in range(1, 7)) + "|"
    rows = [head]
    for (unit, state), cells in _table_rows(sk, all_sides=False):
        label = f"{_UNIT_SHORT.get(unit, unit)[:6]} {_STATE_SHORT[state]}"
        rows.append(f"{label:<13}" + "".join(f"|{cell:^5}" for cell in cells) + "|")
    fresh = [sum(1 for f in figures if f["fresh"] and f["section"] == n) for n in range(1, 7)]
    if any(fresh):
        rows.append(f"{'fresh ' + str(sk.get('turn', ''))[:6]:<13}" + "".join(f"|{c or '':^5}" for c in fresh) + "|")
    return rows


def render_compact(sd: Mapping, width: int = 80) -> str:
    """The position in at most 20 lines of ``width`` characters, for a terminal of 24 lines: the
    header and VP, the zones with their guesses, and the skirmish (its table with short names,
    the acting figure, pools, task sets, losses as fighting/total, casualties, killed, ran away,
    evacuated, what is pending) or, once the game is over, the
    records and every VP line. Plain ASCII; ``render_ansi`` is the full view."""
    vp = sd.get("vp") or {}
    head = f"D-DAY | {sd.get('phase')}: {awaiting(sd)} | VP {vp.get('resistance', 0)}-{vp.get('german', 0)}"
    if sd.get("viewer"):
        head += f" | {sd['viewer']}'s view"
    out = wrap(head, width, max_lines=2)
    result = outcome_line(sd)
    if result:
        out.append(result.upper())
    out += _compact_zones(sd, width)
    inter = sd.get("interrogation") or {}
    line = f"guesses left {inter.get('guesses_left', 0)}" + (" (stopped)" if inter.get("stopped") else "")
    if sd.get("attacked"):
        order = sd.get("order")
        line += f" | attacked {', '.join(ZONE_NAMES[z] for z in sd['attacked'])}"
        line += f"; order {' then '.join(ZONE_NAMES[z] for z in order)}" if order else "; order not chosen"
    out.append(clip(line, width))
    sk = sd.get("skirmish")
    if sk and sd.get("outcome") is None:
        idx = sd.get("skirmish_index")
        items = (sd.get("allocation") or {}).get(sk["zone"])
        out.append(clip(
            f"SKIRMISH {2 if idx is None else idx + 1}/2 {ZONE_NAMES[sk['zone']]}: turn {sk.get('turn_number')} "
            f"({sk.get('turn')}), clock {sk.get('clock')}, train {train_of(items) or 'none'}", width))
        out += [clip(r, width) for r in _compact_table(sk)]
        figures = sk.get("figures") or ()
        f = next((f for f in figures if f["id"] == sk.get("acting")), None)
        pools = sk.get("pools") or {}
        text = "pools " + (", ".join(f"{k} {v}" for k, v in pools.items()) or "none")
        if f is not None:
            text = (f"acting (*): figure {f['id']}, moves {f['moves']}/2, shots {f['shots']}/2, cover "
                    f"{'used' if f['cover_changed'] else 'free'} | ") + text
        out += wrap(text, width, max_lines=2)
        task = sk.get("task") or {}
        lost = losses(figures)
        text = f"task R {faces(task.get('resistance'))} G {faces(task.get('german'))}" + "".join(
            f" | {s[0].upper()} {lost[s]['fighting']}/{lost[s]['total']} up {lost[s]['casualty']} down "
            f"{lost[s]['killed']}k{lost[s]['ran_away']}r{lost[s]['evacuated']}e" for s in SIDES)
        out += wrap(text, width, max_lines=2)
        pending = _pending(sk.get("pending"))
        if pending:
            out.append(clip(pending, width))
    elif sd.get("outcome") is not None or (sd.get("vp") or {}).get("lines"):
        for i, r in enumerate(sd.get("records") or (), 1):
            res, ger = r["resistance"], r["german"]
            out.append(clip(
                f"{i}. {ZONE_NAMES[r['zone']]}: completed by {r.get('completed') or 'nobody'}; R {res['size']} "
                f"fig {res['killed']}k {res['ran_away']}r {res['evacuated']}e; G {ger['figures']} fig "
                f"{ger['killed']}k {ger['ran_away']}r {ger['evacuated']}e", width))
        cells = []
        for ln in vp.get("lines") or ():
            zone = ZONE_NAMES.get(ln.get("zone"), str(ln.get("zone")))
            cells.append(f"{zone[:9]:<9} {ln['side'][0].upper()} {ln['line'][:16]:<16} {ln['points']:>3}")
        half = -(-len(cells) // 2)
        for k in range(half):
            right = cells[half + k] if half + k < len(cells) else ""
            out.append(clip(f"{cells[k]:<38}  {right}".rstrip(), width))
    return "\n".join(out) + "\n"

"""The text view (``render_ansi``): the campaign, the skirmish table, the scores."""

from __future__ import annotations

from collections.abc import Mapping

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


def _zone_rows(sd: Mapping) -> list[str]:
    alloc = sd.get("allocation") or {}
    values = sd.get("zone_values") or {}
    inter = sd.get("interrogation") or {}
    closed = set(inter.get("closed") or ())
    attacked = sd.get("attacked") or ()
    order = sd.get("order") or ()
    guesses: dict = {z: [] for z in ZONES}
    for g in inter.get("log") or ():
        sign = {"too_high": "<", "too_low": ">", "correct": "="}.get(g["answer"], "?")
        guesses.setdefault(g["zone"], []).append(f"{g['value']}{sign}")
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
    present = {(f["unit"], f["state"]) for f in figures if f["state"] in ("standing", "in_cover")}
    sides = {f["side"] for f in figures}
    for key in [k for k in CLASSES if k in present] + [(s, "casualty") for s in SIDES if s in sides]:
        unit, state = key
        label = f"{unit} {'casualties' if state == 'casualty' else state}"
        line = f"{label:<{_LABEL}}"
        for n in range(1, 7):
            c = counts(figures, n).get(key, 0)
            cell = "" if not c else (f"x{c}" if state == "casualty" else str(c))
            if acting_fig is not None and state != "casualty" and acting_fig["section"] == n and (
                acting_fig["unit"],
                acting_fig["state"],
            ) == key:
                cell += "*"
            line += f"|{cell:^{_CELL - 1}}"
        rows.append(line + "|")
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

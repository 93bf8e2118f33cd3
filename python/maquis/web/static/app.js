// The page of `maquis serve`: menus, the board (SVG drawn by the server from the side's view),
// the legal moves, the agents' replies one at a time, and the recordings' players.
// The page keeps no game of its own: every position comes from the server's JSON API.
"use strict";

const $ = (id) => document.getElementById(id);
const wait = (ms) => new Promise((done) => setTimeout(done, ms));

const page = {
  mode: null,        // "play", "watch" or "replay"
  session: null,     // the server's id of the game played or watched
  recording: null,   // {id, length, seats, ...} of the recording replayed
  step: 0,           // the decision number of the position shown
  over: false,
  running: false,    // a watched game or a replay playing at speed
  games: [],
  shown: [],         // the decision number of every frame shown, in turn (the tests read it)
};
window.maquisPage = page;

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data;
  try { data = await response.json(); } catch (e) { data = { error: `${response.status} ${response.statusText}` }; }
  if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
  return data;
}

function showError(err) {
  const box = $("error");
  box.textContent = err ? String(err.message || err) : "";
  box.hidden = !err;
}

function speed() { return Number($("speed").value); }

function setBusy(busy) {
  $("board").dataset.busy = busy ? "1" : "0";
  for (const b of $("legal").querySelectorAll("button")) b.disabled = busy;
}

// -- Drawing a frame ------------------------------------------------------------------------

function logEntry(frame) {
  if (!frame.action && !(frame.narration || []).length) return;
  const li = document.createElement("li");
  li.value = frame.step;
  li.textContent = frame.action || "";
  if (frame.narration && frame.narration.length) {
    const ul = document.createElement("ul");
    for (const line of frame.narration) {
      const item = document.createElement("li");
      item.textContent = line;
      ul.appendChild(item);
    }
    li.appendChild(ul);
  }
  $("log").appendChild(li);
  $("log").scrollTop = $("log").scrollHeight;
}

function show(frame, { log = true } = {}) {
  const board = $("board");
  board.innerHTML = frame.svg;
  board.dataset.step = frame.step;
  board.dataset.toMove = frame.to_move || "";
  board.dataset.outcome = frame.outcome || "";
  page.step = frame.step;
  page.shown.push(frame.step);
  page.over = frame.outcome !== null && frame.outcome !== undefined;
  $("status").textContent = frame.status.join("\n") + (page.over ? `\noutcome: ${frame.outcome}` : "");
  if (log) logEntry(frame);
  const legal = $("legal");
  legal.innerHTML = "";
  for (const { index, name } of frame.legal) {
    const button = document.createElement("button");
    button.textContent = name;
    button.dataset.action = index;
    button.addEventListener("click", () => act(index));
    legal.appendChild(button);
  }
  $("legal-title").hidden = page.mode !== "play";
  if (page.mode === "play") {
    $("legal-title").textContent = page.over ? `Game over: ${frame.outcome}`
      : frame.legal.length ? "Your move" : `${frame.to_move} is deciding`;
  }
  if (page.mode === "replay") {
    $("position").textContent = `${frame.step} / ${page.recording.length - 1}`;
  } else if (page.mode === "watch") {
    $("position").textContent = `decision ${frame.step}${page.over ? " (over)" : ""}`;
  }
}

// Several frames in turn (the person's decision, then each agent reply), at the chosen speed.
async function animate(frames) {
  for (let k = 0; k < frames.length; k++) {
    if (k > 0 && speed() > 0) await wait(speed());
    show(frames[k]);
  }
}

// -- Playing ---------------------------------------------------------------------------------

function enterGame(mode, title) {
  page.mode = mode;
  page.running = false;
  $("menu").hidden = true;
  $("game").hidden = false;
  $("title").textContent = title;
  $("log").innerHTML = "";
  $("controls").hidden = mode === "play";
  for (const id of ["first", "prev", "last"]) $(id).hidden = mode !== "replay";
  $("run").textContent = "play";
  $("side-label").hidden = true;
}

function describeMatch(m) {
  const game = page.games.find((g) => g.name === m.game);
  const settings = Object.entries(m.settings || {}).map(([k, v]) => `${k} ${v}`).join(", ");
  const agents = Object.entries(m.agents || {}).map(([s, a]) => `${s}: ${a}`).join(", ");
  const who = m.humans.length ? `you play ${m.humans.join(" and ")}` : "agents play";
  return [game ? game.title : m.game, who, agents && `(${agents})`, settings].filter(Boolean).join(" · ");
}

async function startPlay(body) {
  showError(null);
  const data = await api("POST", "/api/play", body);
  page.session = data.session;
  history.replaceState(null, "", `#play/${data.session}`);
  enterGame("play", describeMatch(data.current));
  setBusy(true);
  await animate(data.frames);
  show(data.current, { log: false });
  setBusy(false);
}

async function act(index) {
  if (page.mode !== "play" || $("board").dataset.busy === "1") return;
  showError(null);
  setBusy(true);
  try {
    const data = await api("POST", `/api/session/${page.session}/act`, { action: index, step: page.step });
    await animate(data.frames);
  } catch (err) {
    showError(err);
  } finally {
    setBusy(false);
  }
}

async function resumeSession(mode, sid) {
  const frame = await api("GET", `/api/session/${sid}`);
  page.session = sid;
  enterGame(mode, describeMatch(frame));
  show(frame);
}

// -- Watching agents ---------------------------------------------------------------------------

async function startWatch(body) {
  showError(null);
  const data = await api("POST", "/api/watch", body);
  page.session = data.session;
  history.replaceState(null, "", `#watch/${data.session}`);
  enterGame("watch", describeMatch(data.current));
  show(data.current, { log: false });
}

async function watchStep() {
  if (page.over) return false;
  const data = await api("POST", `/api/session/${page.session}/next`, { step: page.step });
  show(data.frame);
  return !page.over;
}

// -- Replaying recordings --------------------------------------------------------------------

async function openRecording(id) {
  showError(null);
  const rec = await api("GET", `/api/recordings/${encodeURIComponent(id)}`);
  page.recording = rec;
  history.replaceState(null, "", `#replay/${id}`);
  enterGame("replay", `${rec.title} (${rec.kind}, ${rec.decisions} decisions)`);
  const select = $("replay-side");
  select.innerHTML = "";
  if (rec.seats.length > 1) {
    for (const [value, label] of [["", "everything"], ...rec.seats.map((s) => [s, s])]) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = label;
      select.appendChild(option);
    }
    $("side-label").hidden = false;
  }
  await goTo(0);
}

async function goTo(step, { log } = {}) {
  const rec = page.recording;
  step = Math.max(0, Math.min(rec.length - 1, step));
  const side = $("replay-side").value;
  const query = side ? `?side=${encodeURIComponent(side)}` : "";
  const frame = await api("GET", `/api/recordings/${encodeURIComponent(rec.id)}/${step}${query}`);
  if (log === undefined) log = step === page.step + 1;
  if (!log) $("log").innerHTML = "";
  show(frame, { log: true });
}

async function replayStep() {
  if (page.step >= page.recording.length - 1) return false;
  await goTo(page.step + 1);
  return page.step < page.recording.length - 1;
}

// -- At speed: a watched game or a replay -------------------------------------------------------

async function run() {
  if (page.running) { page.running = false; return; }
  page.running = true;
  $("run").textContent = "pause";
  const stepOnce = page.mode === "watch" ? watchStep : replayStep;
  try {
    while (page.running && await stepOnce()) await wait(Math.max(speed(), 30));
  } catch (err) {
    showError(err);
  }
  page.running = false;
  $("run").textContent = "play";
}

async function guarded(fn) {
  try { await fn(); } catch (err) { showError(err); setBusy(false); }
}

// -- The menus -------------------------------------------------------------------------------

function select(label, name, choices, chosen) {
  const wrap = document.createElement("label");
  wrap.textContent = `${label} `;
  const s = document.createElement("select");
  s.name = name;
  for (const c of choices) {
    const option = document.createElement("option");
    option.value = c;
    option.textContent = c.replace(/_/g, " ");
    option.selected = c === chosen;
    s.appendChild(option);
  }
  wrap.appendChild(s);
  return wrap;
}

function settingsOf(card, game) {
  const out = {};
  for (const s of game.settings) out[s.name] = card.querySelector(`select[name="${s.name}"]`).value;
  return out;
}

function card(game, kind) {
  const div = document.createElement("div");
  div.className = "card";
  div.id = `${kind}-${game.name}`;
  const h = document.createElement("h4");
  h.textContent = game.title;
  div.appendChild(h);
  for (const s of game.settings) div.appendChild(select(s.label, s.name, s.choices, s.default));
  const many = game.seats.length > 1;
  if (kind === "play" && many) {
    div.appendChild(select("Your side", "side", game.seats, game.seats[0]));
    div.appendChild(select("Opponent", "opponent", game.agents, "heuristic"));
  }
  if (kind === "watch") {
    for (const seat of game.seats) div.appendChild(select(many ? seat : "Agent", `agent-${seat}`, game.agents, "heuristic"));
  }
  const button = document.createElement("button");
  button.textContent = kind === "play" ? "Play" : "Watch";
  button.className = "start";
  button.addEventListener("click", () => guarded(() => {
    const body = { game: game.name, settings: settingsOf(div, game) };
    if (kind === "play") {
      if (many) {
        body.side = div.querySelector('select[name="side"]').value;
        body.opponent = div.querySelector('select[name="opponent"]').value;
      }
      return startPlay(body);
    }
    body.agents = {};
    for (const seat of game.seats) body.agents[seat] = div.querySelector(`select[name="agent-${seat}"]`).value;
    return startWatch(body);
  }));
  div.appendChild(button);
  return div;
}

async function loadMenu() {
  const { games } = await api("GET", "/api/games");
  page.games = games;
  for (const g of games) {
    $("play-forms").appendChild(card(g, "play"));
    $("watch-forms").appendChild(card(g, "watch"));
  }
  const { recordings } = await api("GET", "/api/recordings");
  if (recordings.length) {
    const list = $("recordings");
    list.innerHTML = "";
    for (const r of recordings) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `#replay/${r.id}`;
      a.dataset.recording = r.id;
      a.textContent = r.title;
      a.addEventListener("click", (e) => { e.preventDefault(); guarded(() => openRecording(r.id)); });
      li.appendChild(a);
      li.appendChild(document.createTextNode(` (${r.game}, ${r.kind}, ${r.decisions} decisions)`));
      list.appendChild(li);
    }
  }
}

function wire() {
  // A click anywhere on a legal item plays it, also on a label or a pawn drawn over it.
  $("board").addEventListener("click", (e) => {
    let item = e.target.closest("[data-action].legal");
    if (!item) {
      item = document.elementsFromPoint(e.clientX, e.clientY)
        .find((el) => el.matches("#board [data-action].legal"));
    }
    if (item && page.mode === "play") act(Number(item.dataset.action));
  });
  $("run").addEventListener("click", () => guarded(run));
  $("next").addEventListener("click", () => guarded(() => (page.mode === "watch" ? watchStep() : replayStep())));
  $("prev").addEventListener("click", () => guarded(() => goTo(page.step - 1, { log: false })));
  $("first").addEventListener("click", () => guarded(() => goTo(0, { log: false })));
  $("last").addEventListener("click", () => guarded(() => goTo(page.recording.length - 1, { log: false })));
  $("replay-side").addEventListener("change", () => guarded(() => goTo(page.step, { log: false })));
}

async function main() {
  wire();
  await guarded(loadMenu);
  const [mode, id] = location.hash.slice(1).split("/");
  if (id && (mode === "play" || mode === "watch")) await guarded(() => resumeSession(mode, id));
  else if (id && mode === "replay") await guarded(() => openRecording(id));
  document.body.dataset.ready = "1";
}

main();

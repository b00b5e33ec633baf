// The board page: state and moves from the server's JSON API, engine
// output from the session's WebSocket. No build step: a plain module.
//
// Modes: play (the engine answers when it is its turn), analyse (an
// infinite search with several lines follows the position), edit (clicks
// change the board). The Fischer clock is kept here, in the page: the
// engine is told both clocks with each search.

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";
let sid = sessionStorage.getItem("shashki-session");
let state = null;
let path = [];          // squares chosen so far for a move
let next = [];          // squares that may come next
let lines = new Map();  // multipv -> info of the search shown
let shownSearch = 0;    // the search whose lines are shown
let thinking = null;    // {fen, ply} of the engine's search for a move
let analysing = false;
let queue = Promise.resolve(); // square clicks, one at a time
let engineStatus = null; // the engine's last status (name, protocol, multipv, ...)

// The last things that happened (API calls, events, states), for the
// console and the browser test's reports.
const events = [];
window.shashkiLog = events;
function note(text) {
  events.push(`${Math.round(performance.now())} ${text}`);
  if (events.length > 60) events.shift();
}

// ------------------------------------------------------------ server

async function api(method, route, body) {
  const opts = { method, headers: { "Content-Type": "application/json" } };
  if (body !== undefined) opts.body = JSON.stringify(body);
  note(`${method} ${route.replace(/^\/api\/sessions\/[0-9a-f]+/, "")}`);
  const res = await fetch(route, opts);
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) {
    note(`  -> ${res.status} ${data.error}`);
    throw new Error(data.error || `HTTP ${res.status}`);
  }
  return data;
}

const base = () => `/api/sessions/${sid}`;

function say(text) { $("message").textContent = text || ""; }

// Run an action; its error becomes the page's message.
async function run(f) {
  try { say(""); await f(); } catch (e) { say(e.message); }
}

// ------------------------------------------------------------ settings

const mode = () => $("mode").value;
const human = () => $("human").value;
const limitKind = () => $("limit").value;
const num = (id, dflt) => { const v = parseFloat($(id).value); return Number.isFinite(v) && v > 0 ? v : dflt; };

// ------------------------------------------------------------ clock

const clock = { ms: { white: 0, black: 0 }, inc: 0, since: 0, ply: 0, flagged: null };

function resetClock() {
  const b = Math.round(num("base", 3) * 60000);
  clock.ms = { white: b, black: b };
  clock.inc = Math.round(($("inc").value === "0" ? 0 : num("inc", 0)) * 1000);
  clock.since = performance.now();
  clock.ply = state ? state.ply : 0;
  clock.flagged = null;
}

const clockOn = () => mode() === "play" && limitKind() === "clock" && human() !== "both";

// The time left of `side` now.
function left(side) {
  const running = state && !state.outcome && !clock.flagged && state.side === side;
  return clock.ms[side] - (running ? performance.now() - clock.since : 0);
}

// A new state: charge the move just made to its side's clock.
function clockMoved(s) {
  const now = performance.now();
  if (s.ply === clock.ply + 1 && s.ply === s.moves.length) {
    const mover = s.side === "white" ? "black" : "white";
    clock.ms[mover] += clock.inc - (now - clock.since);
  }
  if (s.ply !== clock.ply) clock.since = now;
  clock.ply = s.ply;
}

function fmt(ms) {
  const t = Math.max(0, Math.ceil(ms / 100)); // tenths
  const m = Math.floor(t / 600), sec = Math.floor(t / 10) % 60;
  return `${m}:${String(sec).padStart(2, "0")}${t < 200 ? "." + (t % 10) : ""}`;
}

function tick() {
  const on = clockOn() && state;
  for (const id of ["clock-top", "clock-bottom"]) $(id).hidden = !on;
  if (!on) return;
  const bottom = state.flip ? "black" : "white", top = bottom === "white" ? "black" : "white";
  for (const [id, side] of [["clock-top", top], ["clock-bottom", bottom]]) {
    const el = $(id);
    el.textContent = `${side === "white" ? "White" : "Black"} ${fmt(left(side))}`;
    el.classList.toggle("running", !state.outcome && !clock.flagged && state.side === side);
  }
  if (!state.outcome && !clock.flagged && left(state.side) <= 0) {
    clock.flagged = state.side;
    $("status").textContent = `Game over: ${state.side} lost on time`;
    if (thinking) api("POST", `${base()}/engine/stop`).catch(() => {});
  }
}

// ------------------------------------------------------------ drawing

function show(s) {
  // A state that arrives after a later one (an answer overtaken by an
  // event, or by the answer of a later request) is old: dropped.
  if (state && s.id === state.id && s.stamp < state.stamp) {
    note(`old state ${s.stamp} dropped (shown ${state.stamp})`);
    return;
  }
  note(`state ${s.stamp}: ply ${s.ply}/${s.moves.length} ${s.fen}`);
  state = s;
  window.shashkiState = s; // for the console and the browser test
  path = []; next = [];
  $("variant").value = s.variant;
  draw();
  $("fen").value = s.fen;
  $("edit-side").value = s.side === "white" ? "W" : "B";
  $("download").href = `${base()}/pdn`;
  $("status").textContent = s.outcome ? `Game over: ${s.outcome.text}` : `${s.side} to move`;
  $("count").textContent = s.count ? `Count: White ${s.count.white}, Black ${s.count.black}` : "";
  const moves = $("moves");
  moves.innerHTML = "";
  s.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = m;
    if (i === s.ply - 1) li.className = "current";
    li.onclick = () => run(() => goto(i + 1));
    moves.appendChild(li);
  });
  if (s.engine) showEngine(s.engine);
  clockMoved(s);
  tick();
  if (clock.flagged) $("status").textContent = `Game over: ${clock.flagged} lost on time`;
  afterChange();
}

// The board: the server's SVG, its cells named, the marks of a move being entered.
function draw() {
  $("board").innerHTML = state.svg;
  cells().forEach((r, i) => r.setAttribute("data-cell", squareName(i)));
  mark();
}

// Board cells of the server's SVG: the rects of g.board in rank, file order.
function cells() {
  return [...document.querySelectorAll("#board g.board rect")].slice(0, 8 * state.files);
}

function squareName(index) {
  const file = index % state.files, rank = Math.floor(index / state.files);
  return String.fromCharCode(97 + file) + (rank + 1);
}

function mark() {
  document.querySelectorAll("#board .target, #board .selected").forEach((e) => e.remove());
  const svg = document.querySelector("#board svg");
  const add = (name, cls) => {
    const r = document.querySelector(`#board rect[data-cell="${name}"]`);
    if (!r) return;
    const x = +r.getAttribute("x"), y = +r.getAttribute("y"), w = +r.getAttribute("width");
    const el = document.createElementNS(SVG_NS, cls === "target" ? "circle" : "rect");
    if (cls === "target") {
      el.setAttribute("cx", x + w / 2); el.setAttribute("cy", y + w / 2); el.setAttribute("r", w / 6);
    } else {
      el.setAttribute("x", x + 2); el.setAttribute("y", y + 2);
      el.setAttribute("width", w - 4); el.setAttribute("height", w - 4);
    }
    el.setAttribute("class", cls);
    el.setAttribute("data-square", name);
    svg.appendChild(el);
  };
  path.forEach((s) => add(s, "selected"));
  next.forEach((s) => add(s, "target"));
}

function showEngine(st) {
  engineStatus = st;
  $("engine-status").textContent = `${st.name || "engine"}: ${st.state}${st.exit ? " (" + st.exit + ")" : ""}`;
  $("restart").classList.toggle("alert", st.state === "dead");
}

function scoreText(s) {
  if (!s) return "";
  if ("cp" in s) return (s.cp >= 0 ? "+" : "") + (s.cp / 100).toFixed(2);
  return "win" in s ? `win in ${s.win}` : `loss in ${s.loss}`;
}

// ------------------------------------------------------------ moves

const engineToMove = (s) =>
  mode() === "play" && human() !== "both" && !s.outcome && !clock.flagged &&
  s.side !== human() && s.ply === s.moves.length;

const pieceAt = (sq) => state.pieces.find((p) => p.square === sq);

async function square(sq) {
  if (!state || !sq) return;
  if (mode() === "edit") return run(() => edit(sq));
  if (engineToMove(state)) { say("It is the engine's move."); return; }
  if (path.length === 1 && sq === path[0]) { path = []; next = []; mark(); return; }
  let tryPath;
  if (path.length && next.includes(sq)) tryPath = [...path, sq];
  else if (state.legal.some((m) => m.path[0] === sq)) tryPath = [sq];
  else if (path.length || pieceAt(sq)) tryPath = path.length ? [...path, sq] : [sq];
  else return; // an empty square with nothing chosen: nothing to do
  try {
    say("");
    const r = await api("POST", `${base()}/move`, { path: tryPath });
    if (r.partial) { path = tryPath; next = r.partial.next; mark(); }
    else show(r.state);
  } catch (e) {
    path = []; next = []; mark();
    say(e.message);
  }
}

const enqueue = (sq) => { queue = queue.then(() => square(sq)); };

// The square of an element of the board (a piece, a cell or a mark).
function squareOf(el) {
  const named = el && el.closest && el.closest("[data-square], [data-cell]");
  return named ? named.getAttribute("data-square") || named.getAttribute("data-cell") : null;
}

// Click or drag: the square pressed is chosen; released on another
// square, that square is chosen too. The dragged piece follows the pointer.
let drag = null;
$("board").addEventListener("pointerdown", (e) => {
  const sq = squareOf(e.target);
  if (!sq) return;
  e.preventDefault();
  const piece = e.target.closest("g.piece");
  const svg = document.querySelector("#board svg");
  drag = { sq, piece, x: e.clientX, y: e.clientY, scale: svg.getScreenCTM()?.a || 1 };
  if (piece) piece.style.pointerEvents = "none";
  enqueue(sq);
});
window.addEventListener("pointermove", (e) => {
  if (!drag || !drag.piece || mode() === "edit") return;
  const dx = (e.clientX - drag.x) / drag.scale, dy = (e.clientY - drag.y) / drag.scale;
  drag.piece.setAttribute("transform", `translate(${dx} ${dy})`);
});
window.addEventListener("pointerup", (e) => {
  if (!drag) return;
  const d = drag;
  drag = null;
  if (d.piece) { d.piece.removeAttribute("transform"); d.piece.style.pointerEvents = ""; }
  const sq = squareOf(document.elementFromPoint(e.clientX, e.clientY));
  if (sq && sq !== d.sq && mode() !== "edit") enqueue(sq);
});

// ------------------------------------------------------------ editor

// The next piece of a square: empty, man, king of White, then of Black
// (tower variants: men only; a tower becomes empty).
function edit(sq) {
  const tower = state.variant.startsWith("adiyukh");
  const order = tower ? ["", "w", "b"] : ["", "w", "W", "b", "B"];
  const code = (p) => {
    if (!p) return "";
    if (p.kind === "tower" && (p.own > 1 || p.other > 0)) return "t";
    const c = p.color === "white" ? "w" : "b";
    return p.kind === "king" ? c.toUpperCase() : c;
  };
  const now = code(pieceAt(sq));
  const after = now === "t" ? "" : order[(order.indexOf(now) + 1) % order.length];
  const pieces = state.pieces.filter((p) => p.square !== sq).map((p) => ({ ...p }));
  if (after) pieces.push({ square: sq, color: after.toLowerCase() === "w" ? "white" : "black",
    kind: after === after.toUpperCase() ? "king" : "man", own: 1, other: 0 });
  return setPosition(positionText(pieces, $("edit-side").value));
}

function positionText(pieces, side) {
  const list = (color) => pieces.filter((p) => p.color === color).map((p) =>
    p.kind === "king" ? "K" + p.square
      : p.kind === "tower" && p.other > 0 ? `${p.square}-${p.own}/${p.other}`
      : p.kind === "tower" && p.own > 1 ? `${p.square}-${p.own}` : p.square).join(",");
  return `${side}:W${list("white")}:B${list("black")}`;
}

async function setPosition(fen) {
  show(await api("POST", `${base()}/position`, { fen }));
}

// ------------------------------------------------------------ engine

function goBody() {
  const k = limitKind();
  if (k === "depth") return { depth: Math.round(num("depth", 6)) };
  if (k === "movetime") return { movetime: Math.max(1, Math.round(num("movetime", 1) * 1000)) };
  const ms = (side) => Math.max(1, Math.round(left(side)));
  return { wtime: ms("white"), btime: ms("black"), winc: clock.inc, binc: clock.inc };
}

async function engineMove() {
  if (!state || state.outcome || clock.flagged) return;
  thinking = { fen: state.fen, ply: state.ply };
  $("engine-status").textContent = "thinking";
  try {
    await api("POST", `${base()}/engine/go`, { ...goBody(), play: true });
  } catch (e) {
    thinking = null;
    throw e;
  }
}

async function analyse() {
  if (!state || state.outcome) return;
  analysing = true;
  // An engine without several lines (Hub has none) shows one.
  const multipv = engineStatus && engineStatus.multipv === false ? 1
    : Math.min(10, Math.max(1, Math.round(num("multipv", 3))));
  $("engine-status").textContent = "analysing";
  try {
    await api("POST", `${base()}/engine/go`, { infinite: true, multipv });
  } catch (e) {
    if (multipv === 1 || !/MultiPV/.test(e.message)) throw e;
    await api("POST", `${base()}/engine/go`, { infinite: true, multipv: 1 });
  }
}

async function stop() {
  analysing = false;
  await api("POST", `${base()}/engine/stop`).catch(() => {});
}

// After every new state: the engine answers in play, analysis follows the position.
function afterChange() {
  if (!state) return;
  if (engineToMove(state) && !thinking) run(engineMove);
  else if (mode() === "analyse" && analysing && !state.outcome) run(analyse);
}

function onInfo(ev) {
  if (ev.search < shownSearch) return;
  if (ev.search > shownSearch) { shownSearch = ev.search; lines.clear(); }
  if (!ev.pv || !ev.pv.length) return;
  lines.set(ev.multipv || 1, ev);
  const ol = $("lines");
  ol.innerHTML = "";
  [...lines.keys()].sort((a, b) => a - b).forEach((k) => {
    const i = lines.get(k);
    const li = document.createElement("li");
    li.textContent = `${scoreText(i.score)}  ${i.pv.join(" ")}`;
    ol.appendChild(li);
  });
  const best = lines.get(1);
  if (!best) return;
  $("info").textContent = `depth ${best.depth}  score ${scoreText(best.score)}` +
    (best.nodes ? `  nodes ${best.nodes}` : "") + (best.nps ? `  nps ${best.nps}` : "");
  if (best.white) {
    const w = best.white;
    const cp = "cp" in w ? w.cp : ("win" in w ? 10000 : -10000);
    $("evalfill").style.height = `${50 + 50 * Math.tanh(cp / 400)}%`;
  }
}

function onEvent(ev) {
  if (ev.type !== "info") note(`event ${ev.type}${ev.search ? " " + ev.search : ""}${ev.move !== undefined ? " " + ev.move : ""}${ev.played ? " played" : ""}`);
  if (ev.type === "state") show(ev.state);
  else if (ev.type === "info") onInfo(ev);
  else if (ev.type === "bestmove") {
    const was = thinking;
    thinking = null;
    $("engine-status").textContent = `best move ${ev.move ?? "(none)"}`;
    // A move not played (the position changed meanwhile): ask again.
    if (!ev.played && was && state && (was.fen !== state.fen || was.ply !== state.ply)) afterChange();
  } else if (ev.type === "died") {
    thinking = null; analysing = false;
    say(`The engine died (${ev.exit}); restart it with the button below.`);
    showEngine({ name: "engine", state: "dead", exit: ev.exit });
  } else if (ev.type === "engine") showEngine(ev.status);
  else if (ev.type === "text") $("engine-status").textContent = ev.text;
}

function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${base()}/ws`);
  ws.onopen = () => note("socket open");
  ws.onmessage = (m) => onEvent(JSON.parse(m.data));
  ws.onclose = () => { note("socket closed"); setTimeout(reconnect, 2000); };
}

// The socket again; a session the server has closed (the page was away
// longer than its grace period) is replaced by a new one.
async function reconnect() {
  try {
    const res = await fetch(base());
    if (res.status === 404) {
      const s = await api("POST", "/api/sessions", { variant: $("variant").value });
      sid = s.id;
      sessionStorage.setItem("shashki-session", sid);
      thinking = null; analysing = false;
      show(s);
      say("The server had closed this page's game; a new game was started.");
    }
  } catch (e) {
    note(`reconnect: ${e.message}`);
  }
  connect();
}

// ------------------------------------------------------------ buttons

const goto = async (ply) => show(await api("POST", `${base()}/goto`, { ply }));

function panels() {
  $("play-panel").hidden = mode() !== "play";
  $("analyse-panel").hidden = mode() !== "analyse";
  $("edit-panel").hidden = mode() !== "edit";
  for (const k of ["depth", "movetime", "clock"]) $(`limit-${k}`).hidden = limitKind() !== k;
}

async function newGame() {
  if (thinking || analysing) await stop();
  thinking = null;
  show(await api("POST", `${base()}/new`, { variant: $("variant").value }));
  resetClock();
  tick();
}

$("new").onclick = () => run(newGame);
$("variant").onchange = $("new").onclick;
$("mode").onchange = () => run(async () => {
  panels();
  if (mode() !== "analyse" && analysing) await stop();
  if (mode() === "play") resetClock();
  afterChange();
});
$("limit").onchange = () => { panels(); resetClock(); };
for (const id of ["base", "inc"]) $(id).onchange = resetClock;
$("human").onchange = () => run(async () => {
  show(await api("POST", `${base()}/flip`, { flip: human() === "black" }));
});
$("takeback").onclick = () => run(async () => {
  let plies = 1;
  if (thinking) await stop();
  else if (mode() === "play" && human() !== "both" && state.side === human() && state.ply >= 2) plies = 2;
  thinking = null;
  show(await api("POST", `${base()}/takeback`, { plies }));
});
$("flip").onclick = () => run(async () => show(await api("POST", `${base()}/flip`, {})));
$("first").onclick = () => run(() => goto(0));
$("prev").onclick = () => run(() => goto(Math.max(0, state.ply - 1)));
$("next").onclick = () => run(() => goto(Math.min(state.moves.length, state.ply + 1)));
$("last").onclick = () => run(() => goto(state.moves.length));
$("set-fen").onclick = () => run(() => setPosition($("fen").value));
$("edit-side").onchange = () => run(() => setPosition(positionText(state.pieces, $("edit-side").value)));
$("clear").onclick = () => run(() => setPosition(`${$("edit-side").value}:W:B`));
$("load-pdn").onclick = () => run(async () => show(await api("POST", `${base()}/pdn`, { pdn: $("pdn").value })));
$("pdn-file").onchange = () => run(async () => {
  const file = $("pdn-file").files[0];
  if (!file) return;
  const res = await fetch(`${base()}/pdn/file`, { method: "POST", body: file,
    headers: { "Content-Type": "application/octet-stream" } });
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  $("pdn-file").value = "";
  if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
  show(data);
});
$("engine-move").onclick = () => run(engineMove);
$("analyse").onclick = () => run(analyse);
$("stop").onclick = () => run(stop);
$("restart").onclick = () => run(async () => { thinking = null; showEngine(await api("POST", `${base()}/engine/restart`)); });

async function start() {
  let s = null;
  if (sid) s = await api("GET", base()).catch(() => null);
  if (!s) {
    s = await api("POST", "/api/sessions", { variant: "russian" });
    sid = s.id;
    sessionStorage.setItem("shashki-session", sid);
  }
  panels();
  resetClock();
  connect();
  show(s);
  setInterval(tick, 200);
  document.body.dataset.ready = "1";
}

start().catch((e) => say(e.message));

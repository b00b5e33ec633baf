// The board page: state and moves from the server's JSON API, engine
// output from the session's WebSocket. No build step: a plain module.

const $ = (id) => document.getElementById(id);
let sid = sessionStorage.getItem("shashki-session");
let state = null;
let path = [];          // squares clicked so far
let next = [];          // squares that may come next
let lines = new Map();  // multipv -> info

async function api(method, route, body) {
  const opts = { method, headers: { "Content-Type": "application/json" } };
  if (body !== undefined) opts.body = JSON.stringify(body);
  const res = await fetch(route, opts);
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
  return data;
}

const base = () => `/api/sessions/${sid}`;

function say(text) { $("message").textContent = text || ""; }

async function run(f) {
  try { say(""); await f(); } catch (e) { say(e.message); }
}

function show(s) {
  state = s;
  path = []; next = [];
  $("variant").value = s.variant;
  $("board").innerHTML = s.svg;
  $("fen").value = s.fen;
  $("download").href = `${base()}/pdn`;
  $("status").textContent = s.outcome ? `Game over: ${s.outcome.text}` : `${s.side} to move`;
  $("count").textContent = s.count ? `Count ${s.count.white}:${s.count.black}` : "";
  const moves = $("moves");
  moves.innerHTML = "";
  s.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = m;
    if (i === s.ply - 1) li.style.fontWeight = "bold";
    li.onclick = () => run(async () => show(await api("POST", `${base()}/goto`, { ply: i + 1 })));
    moves.appendChild(li);
  });
  if (s.engine) showEngine(s.engine);
}

function showEngine(st) {
  $("engine-status").textContent = `${st.name}: ${st.state}${st.exit ? " (" + st.exit + ")" : ""}`;
}

// Board cells of the server's SVG: the rects of g.board in rank, file order.
function cells() {
  const rects = [...document.querySelectorAll("#board g.board rect")];
  return rects.slice(0, 8 * state.files);
}

function squareName(index) {
  const file = index % state.files, rank = Math.floor(index / state.files);
  return String.fromCharCode(97 + file) + (rank + 1);
}

function cellOf(name) {
  const file = name.charCodeAt(0) - 97, rank = parseInt(name.slice(1), 10) - 1;
  return cells()[rank * state.files + file];
}

function mark() {
  document.querySelectorAll("#board .target, #board .selected").forEach((e) => e.remove());
  const svg = document.querySelector("#board svg");
  const add = (name, cls) => {
    const r = cellOf(name);
    if (!r) return;
    const x = +r.getAttribute("x"), y = +r.getAttribute("y"), w = +r.getAttribute("width");
    const el = document.createElementNS("http://www.w3.org/2000/svg", cls === "target" ? "circle" : "rect");
    if (cls === "target") {
      el.setAttribute("cx", x + w / 2); el.setAttribute("cy", y + w / 2); el.setAttribute("r", w / 6);
    } else {
      el.setAttribute("x", x + 2); el.setAttribute("y", y + 2);
      el.setAttribute("width", w - 4); el.setAttribute("height", w - 4);
    }
    el.setAttribute("class", cls);
    svg.appendChild(el);
  };
  path.forEach((s) => add(s, "selected"));
  next.forEach((s) => add(s, "target"));
}

function squareAt(event) {
  const piece = event.target.closest("[data-square]");
  if (piece) return piece.getAttribute("data-square");
  const i = cells().indexOf(event.target);
  return i >= 0 ? squareName(i) : null;
}

async function click(event) {
  if (!state) return;
  const sq = squareAt(event);
  if (!sq) return;
  let tryPath;
  if (path.length && next.includes(sq)) tryPath = [...path, sq];
  else if (state.legal.some((m) => m.path[0] === sq)) tryPath = [sq];
  else { path = []; next = []; mark(); return; }
  await run(async () => {
    const r = await api("POST", `${base()}/move`, { path: tryPath });
    if (r.partial) { path = tryPath; next = r.partial.next; mark(); }
    else show(r.state);
  });
}

function scoreText(s) {
  if (!s) return "";
  if ("cp" in s) return (s.cp / 100).toFixed(2);
  return "win" in s ? `win in ${s.win}` : `loss in ${s.loss}`;
}

function onEvent(ev) {
  if (ev.type === "state") show(ev.state);
  else if (ev.type === "info" && ev.pv && ev.pv.length) {
    lines.set(ev.multipv || 1, ev);
    const ol = $("lines");
    ol.innerHTML = "";
    [...lines.keys()].sort((a, b) => a - b).forEach((k) => {
      const i = lines.get(k);
      const li = document.createElement("li");
      li.textContent = `depth ${i.depth} ${scoreText(i.score)}  ${i.pv.join(" ")}`;
      ol.appendChild(li);
    });
    const best = lines.get(1);
    if (best && best.white) {
      const w = best.white;
      const cp = "cp" in w ? w.cp : ("win" in w ? 10000 : -10000);
      const part = 50 + 50 * Math.tanh(cp / 400);
      $("evalfill").style.height = `${part}%`;
    }
  } else if (ev.type === "bestmove") {
    $("engine-status").textContent = `best move ${ev.move ?? "(none)"}`;
  } else if (ev.type === "died") {
    say(`The engine died (${ev.exit}); restart it.`);
  } else if (ev.type === "engine") showEngine(ev.status);
  else if (ev.type === "text") $("engine-status").textContent = ev.text;
}

function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${base()}/ws`);
  ws.onmessage = (m) => onEvent(JSON.parse(m.data));
  ws.onclose = () => setTimeout(() => { if (sid) connect(); }, 2000);
}

async function start() {
  let s = null;
  if (sid) s = await api("GET", base()).catch(() => null);
  if (!s) {
    s = await api("POST", "/api/sessions", { variant: "russian" });
    sid = s.id;
    sessionStorage.setItem("shashki-session", sid);
  }
  show(s);
  connect();
}

const depth = () => parseInt($("depth").value, 10) || 8;
$("board").addEventListener("click", click);
$("new").onclick = () => run(async () => show(await api("POST", `${base()}/new`, { variant: $("variant").value })));
$("variant").onchange = $("new").onclick;
$("takeback").onclick = () => run(async () => show(await api("POST", `${base()}/takeback`, { plies: 1 })));
$("flip").onclick = () => run(async () => show(await api("POST", `${base()}/flip`, {})));
$("set-fen").onclick = () => run(async () => show(await api("POST", `${base()}/position`, { fen: $("fen").value })));
$("load-pdn").onclick = () => run(async () => show(await api("POST", `${base()}/pdn`, { pdn: $("pdn").value })));
$("engine-move").onclick = () => run(async () => { lines.clear(); await api("POST", `${base()}/engine/go`, { depth: depth(), play: true }); });
$("analyse").onclick = () => run(async () => { lines.clear(); await api("POST", `${base()}/engine/go`, { infinite: true, multipv: 3 }); });
$("stop").onclick = () => run(() => api("POST", `${base()}/engine/stop`));
$("restart").onclick = () => run(async () => showEngine(await api("POST", `${base()}/engine/restart`)));
start().catch((e) => say(e.message));

// The Play page: set up a table, join it by a seat's link, play. Every rule answer comes
// from the server (the engine); every view arrives pushed over a WebSocket (and, at once,
// as the answer to the device's own action). Sentences: play_text.js.
"use strict";
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const P = { catalog: null, course: null, house: null, variantFile: null, answers: {},
  tid: null, seat: null, host: null, view: null, version: -1, seq: -1, epoch: null, board: null, boardCourse: null,
  commitments: {},
  chosen: null, ws: null, retry: 500, lastMessage: 0, zoom: 1, joined: false, follow: false, centred: null };
// a phone's board, at its default zoom, shows a space this wide (CSS px) and follows the
// chariot to move; a wider screen shows the whole board
const SPACE_PX = 36, LANE_UNITS = 40, PHONE = window.matchMedia("(max-width: 899px)");

// -- setup ---------------------------------------------------------------------------------
function playerRow(name, kind) {
  const n = $("players").children.length + 1;
  const kinds = [["human", t("person")], ...P.catalog.bots.map((b) => [b.name, b.name])];
  const sel = el("select", { class: "kind", "aria-label": t("kind_of", { n }) },
    ...kinds.map(([k, label]) => el("option", { value: k }, label)));
  sel.value = kind;
  const input = el("input", { class: "name", value: name, size: 12, "aria-label": t("name_of", { n }), maxlength: 40 });
  const row = el("div", { class: "player" }, input, sel,
    el("button", { type: "button", class: "remove", "aria-label": t("remove_player", { name }), onclick: () => row.remove() }, "×"));
  $("players").append(row);
}

function fillVariants() {
  const r = P.catalog.rulesets.find((x) => x.id === $("ruleset").value);
  const box = $("variants");
  const checked = new Set(Array.from(box.querySelectorAll("input:checked")).map((i) => i.value));
  box.innerHTML = "";
  for (const v of P.catalog.variants) {
    if (!r || !r.variants.includes(v.id)) continue;
    box.append(el("label", { class: "variant" }, el("input", { type: "checkbox", value: v.id, ...(checked.has(v.id) ? { checked: "" } : {}) }), " " + v.title));
  }
}

function chooseRuleset() {
  fillVariants();
  const r = P.catalog.rulesets.find((x) => x.id === $("ruleset").value);
  if (r && r.course && !P.course) $("course").value = r.course;
  P.answers = {}; $("missing").innerHTML = "";
}

async function setupPage() {
  $("setup").classList.remove("hidden");
  P.catalog = await api("GET", "/api/catalog");
  for (const r of P.catalog.rulesets) $("ruleset").append(el("option", { value: r.id }, r.title));
  for (const c of P.catalog.courses) $("course").append(el("option", { value: c }, (P.catalog.course_titles || {})[c] || c));
  $("ruleset").value = "ravensburger-1989";
  $("ruleset").onchange = chooseRuleset;
  chooseRuleset();
  const wanted = params.get("course");
  if (wanted) {  // from the studio: its course (by its name) under the ruleset it showed
    if (!P.catalog.courses.includes(wanted)) $("course").append(el("option", { value: wanted }, params.get("name") || wanted));
    $("course").value = wanted;
    const edition = P.catalog.rulesets.find((r) => r.id === params.get("ruleset"))
      || P.catalog.rulesets.find((r) => wanted.startsWith(r.id + "/"));
    if (edition) { $("ruleset").value = edition.id; fillVariants(); }
  }
  playerRow("Anna", "human"); playerRow("Ben", "human"); playerRow("Bot 1", "greedy"); playerRow("Bot 2", "search");
  // no seed unless the host asks for practice: the server deals (and commits to it)
  $("new-seed").onclick = () => { $("seed").value = Math.floor(Math.random() * 1000000); };
  $("practice-box").ontoggle = () => { if ($("practice-box").open && $("seed").value === "") $("new-seed").onclick(); };
  $("add-player").onclick = () => playerRow(`Player ${$("players").children.length + 1}`, "greedy");
  $("course-file").onchange = uploadCourse;
  $("house-file").onchange = () => uploadRules("house", $("house-file"), $("house-upload"));
  $("variant-file").onchange = () => uploadRules("variant", $("variant-file"), $("variant-upload"));
  $("course").onchange = () => { P.course = null; $("course-upload").textContent = ""; };
  $("start").onclick = () => start();
  listSaves();
}

async function uploadCourse() {
  const f = $("course-file").files[0];
  if (!f) return;
  $("course-upload").textContent = t("reading");
  try {
    const r = await api("POST", "/api/courses", { text: await f.text() });
    P.course = r.course;
    $("course-upload").textContent = t("uploaded", { name: r.name });
  } catch (e) { P.course = null; $("course-upload").textContent = ""; $("setup-error").textContent = e.message; }
}

async function uploadRules(kind, input, note) {
  const f = input.files[0];
  if (!f) return;
  note.textContent = t("reading");
  try {
    const r = await api("POST", "/api/rules-files", { text: await f.text(), kind });
    if (kind === "house") P.house = r.ref; else P.variantFile = r.ref;
    note.textContent = t("uploaded_rules", { n: r.keys.length, keys: r.keys.join(", ") });
  } catch (e) { note.textContent = ""; $("setup-error").textContent = e.message; }
}

function setupBody() {
  const players = Array.from(document.querySelectorAll("#players .player")).map((row) => {
    const kind = row.querySelector(".kind").value;
    return { name: row.querySelector(".name").value, bot: kind === "human" ? null : kind };
  });
  const variants = Array.from(document.querySelectorAll("#variants input:checked")).map((i) => i.value);
  const practice = $("practice-box").open && $("seed").value !== "";
  const body = { ruleset: $("ruleset").value, variants, course: P.course || $("course").value, players,
    house_file: P.house, variant_file: P.variantFile, answers: P.answers,
    shared: $("mode-shared").checked, lobby: $("lobby").checked && !$("mode-shared").checked, delay_ms: Number($("delay").value || 700), tournament: $("tournament").checked,
    confirm_ms: Math.round(1000 * Number($("confirm-s").value === "" ? 4 : $("confirm-s").value)) };
  if (practice) body.seed = Number($("seed").value);
  if ($("turn-s").value !== "") body.turn_s = Number($("turn-s").value);
  return body;
}

async function start() {
  $("setup-error").textContent = "";
  try {
    const r = await api("POST", "/api/tables", setupBody());
    remember(r.table, { host: r.token });
    history.replaceState(null, "", `/play?table=${r.table}#host=${r.token}`);
    $("setup").classList.add("hidden");
    await openTable(r.table, r.view);
  } catch (e) {
    if (e.status === 409 && e.data && e.data.open) askOpen(e.data.open);
    else $("setup-error").textContent = t("error_start", { why: e.message });
  }
}

function askOpen(open) {
  // the values the rulebooks leave open: a form built from the server's list
  const box = $("missing");
  box.innerHTML = "";
  box.append(el("p", {}, t("open_intro")));
  for (const v of open) {
    const id = "open-" + v.key.replace(/\W/g, "-");
    const input = v.choices
      ? el("select", { id, class: "open-value", "data-key": v.key }, ...v.choices.map((c) => el("option", { value: String(c) }, String(c))))
      : el("input", { id, class: "open-value", "data-key": v.key, "aria-label": t("open_value") });
    if (P.answers[v.key] !== undefined) input.value = P.answers[v.key];
    box.append(el("div", { class: "open-item" }, el("label", { for: id }, el("b", {}, v.key)), " ", input,
      el("div", { class: "note" }, v.why + (v.cite ? ` [${v.cite}]` : ""))));
  }
  const go = el("button", { type: "button", id: "open-submit", class: "big" }, t("open_submit"));
  go.onclick = () => {
    box.querySelectorAll(".open-value").forEach((i) => { P.answers[i.dataset.key] = i.value; });
    start();
  };
  box.append(go);
  box.querySelector(".open-value").focus();
}

async function listSaves() {
  const saves = await api("GET", "/api/saves");
  const box = $("saves");
  box.innerHTML = "";
  if (!saves.length) { box.textContent = t("none_yet"); return; }
  const tbl = el("table", {});
  for (const s of saves.slice(0, 30)) {
    if (s.broken) continue;
    const open = s.table
      ? el("a", { href: `/play?table=${encodeURIComponent(s.table)}`, class: "resume" }, t("open_table"))
      : (s.over ? "" : el("button", { type: "button", class: "resume", onclick: () => continueHere(s.record) }, t("continue_here")));
    tbl.append(el("tr", {}, el("td", {}, s.record), el("td", {}, `${s.rules_title || s.ruleset} · ${s.course_title || s.course}`),
      el("td", {}, s.players.join(", ")), el("td", {}, t("turns", { n: s.turns }) + (s.over ? " · " + t("over") : "")),
      el("td", {}, open, " ", el("a", { href: `/replay?record=${encodeURIComponent(s.record)}` }, t("replay")))));
  }
  box.append(tbl);
}

async function continueHere(record) {
  try {
    const r = await api("POST", `/api/saves/${encodeURIComponent(record)}/table`, { delay_ms: Number($("delay").value || 700) });
    remember(r.table, { host: r.token });
    history.replaceState(null, "", `/play?table=${r.table}#host=${r.token}`);
    $("setup").classList.add("hidden");
    await openTable(r.table, r.view);
  } catch (e) { $("setup-error").textContent = e.message; }
}

// -- tokens: the link's #seat=… or #host=…, remembered per table on this device ------------------
function remember(tid, found) {
  const key = "avecaesar-table-" + tid;
  let known = {};
  try { known = JSON.parse(localStorage.getItem(key) || "{}"); } catch (e) { known = {}; }
  Object.assign(known, found);
  try { localStorage.setItem(key, JSON.stringify(known)); } catch (e) { /* private mode: the link keeps it */ }
  return known;
}

function token() { return P.seat || P.host || null; }
function headers() { return token() ? { "x-table-token": token() } : {}; }

// -- the table -------------------------------------------------------------------------------
async function openTable(tid, first) {
  P.tid = tid;
  const hash = new URLSearchParams(location.hash.slice(1));
  const known = remember(tid, Object.fromEntries([["seat", hash.get("seat")], ["host", hash.get("host")]].filter(([, v]) => v)));
  P.seat = hash.get("seat") || (hash.get("host") ? null : known.seat) || null;
  P.host = known.host || null;
  $("race").classList.remove("hidden");
  await show(first || await api("GET", `/api/tables/${tid}`, undefined, headers()));
  connect();
  if (P.host) hostPanel();
}

function connect() {
  if (P.ws) { P.ws.onclose = null; P.ws.close(); }
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/tables/${P.tid}/live`);
  P.ws = ws;
  // "ping": this page says it is here every 0.5 s, so the server shows its seat away within
  // 2 s of its going quiet (a phone that lost its network); "hidden": a background tab, whose
  // timers the browser slows down, is judged by the long heartbeat instead
  ws.onopen = () => { ws.send(JSON.stringify({ token: token(), lang: LANG, ping: true, hidden: document.hidden })); P.retry = 500; };
  ws.onmessage = (e) => {
    P.lastMessage = Date.now();
    const m = JSON.parse(e.data);
    if (m.beat) return;
    if (m.error) { message(m.error, "error"); return; }
    live("ok");
    show(m);
  };
  ws.onclose = () => {
    if (P.ws !== ws) return;
    live(navigator.onLine === false ? "off" : "lost");
    setTimeout(() => { if (P.ws === ws) connect(); }, P.retry);
    P.retry = Math.min(P.retry * 2, 5000);
  };
}

function live(state) {
  const box = $("live");
  box.dataset.state = state;
  box.textContent = t({ ok: "live_ok", lost: "live_lost", off: "live_off" }[state]);
}

window.addEventListener("online", () => { if (P.tid) { P.retry = 500; connect(); } });
window.addEventListener("offline", () => { if (P.tid) live("off"); });
function ping() {
  if (P.ws && P.ws.readyState === WebSocket.OPEN) P.ws.send(JSON.stringify({ ping: 1, hidden: document.hidden }));
}
setInterval(ping, 500);
document.addEventListener("visibilitychange", () => {
  ping();
  if (P.tid && document.visibilityState === "visible" && (!P.ws || P.ws.readyState !== WebSocket.OPEN)) connect();
});
setInterval(() => {  // a connection that went silent (a phone asleep): the server beats every 20 s
  if (P.ws && P.ws.readyState === WebSocket.OPEN && P.lastMessage && Date.now() - P.lastMessage > 50000) P.ws.close();
}, 10000);

async function show(v) {
  // the database's version orders every view (across restarts and server processes); seq
  // orders the changes of who is online within one version of one copy (its epoch)
  if (v.table.version < P.version) return;  // an older view arrived late
  if (v.table.version === P.version && v.table.epoch === P.epoch && v.table.seq < P.seq) return;
  P.epoch = v.table.epoch; P.version = v.table.version; P.seq = v.table.seq;
  P.view = v;
  if (P.boardCourse !== v.table.course) {
    P.boardCourse = v.table.course;
    P.board = Board.load($("board"), await api("GET", "/api/board?course=" + encodeURIComponent(v.table.course)));
    P.board.spaces.forEach((node, id) => node.addEventListener("click", () => clickSpace(id)));
    P.follow = PHONE.matches; P.centred = null;
    setZoom(P.follow ? followZoom() : 1);
  }
  render();
  nudge(v);
  if (P.follow) follow();
}

// the zoom at which a space (a lane's width) is SPACE_PX wide in the board's box
function followZoom() {
  const svg = P.board && P.board.svg, box = $("board");
  if (!svg || !box.clientWidth) return 1;
  return Math.max(1, SPACE_PX / LANE_UNITS * svg.viewBox.baseVal.width / box.clientWidth);
}

// the board's box scrolled so that the chariot to move is in its middle (when it moved)
function follow(force) {
  const g = P.view.race;
  if (g.over) return;
  const c = g.chariots[g.turn.chariot];
  if (!c || c.pos === null || c.pos === undefined) return;
  const key = `${g.turn.chariot}@${c.pos}`;
  if (!force && P.centred === key) return;
  const at = Board.centre(P.board, c.pos), svg = P.board.svg, box = $("board");
  if (!at || !svg) return;
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  box.scrollLeft = at.x * scale - box.clientWidth / 2;
  box.scrollTop = at.y * scale - box.clientHeight / 2;
  P.centred = key;
}

function spaceName(id) {
  const starts = P.view.race.start_places || [];
  const i = starts.indexOf(id);
  return i >= 0 ? t("start_place", { p: i + 1, n: id }) : t("space", { n: id });
}

function mineLetters() { return P.view.race.mine || []; }

// the chariots as the board shows them: a pending move's chariot already on its new space
function shownChariots(g) {
  const p = !g.over && g.turn.pending;
  if (!p) return g.chariots;
  return g.chariots.map((c) => (c.letter === g.turn.letter ? { ...c, pos: p.to } : c));
}

function renderDeal(g) {
  const d = g.deal;
  const box = $("deal");
  if (!d) { box.textContent = ""; return; }
  if (d.by === "server" && d.commitment && !(g.record in P.commitments)) P.commitments[g.record] = d.commitment;
  box.dataset.by = d.by;
  box.textContent = d.by === "server" ? t("deal_server", { c: d.commitment.slice(0, 16) }) : t("deal_practice");
}

function render() {
  const v = P.view, g = v.race;
  $("end").classList.toggle("hidden", !g.over);
  $("hand-area").classList.toggle("hidden", g.over);  // no hand, no undo after the end
  if (!g.over) P.endShown = null;
  $("race").dataset.ply = g.ply;
  $("race").dataset.turns = g.log.length ? g.log[g.log.length - 1].ply : 0;
  $("race").dataset.role = v.role;
  Board.chariots(P.board, shownChariots(g));
  Board.clear(P.board, "reach"); Board.clear(P.board, "path"); Board.clear(P.board, "current");
  if (!g.over) { const c = g.chariots[g.turn.chariot]; if (c.pos !== null) Board.mark(P.board, [c.pos], "current"); }
  if (!g.over && g.turn.pending) Board.mark(P.board, g.turn.pending.path, "path");
  renderDeal(g);
  $("rules-shown").textContent = `${g.rules_title || g.ruleset} · ${g.course_title || ""}`;
  $("record-link").textContent = g.record;
  $("record-link").href = "/api/saves/" + encodeURIComponent(g.record);
  $("you").textContent = v.you ? t("you_are", { name: v.you.name, n: v.you.seat + 1 })
    : (v.role === "host" ? t("host_here") : t("spectating"));
  renderStandIn(v);
  renderLobby(v);
  tick();
  renderChariots(g);
  renderLog(g);
  if (P.host) renderSeats(v);
  $("undo").disabled = !g.can_undo;
  $("confirm").classList.toggle("hidden", !g.can_confirm);
  $("confirm").textContent = t(v.table.shared && g.humans > 1 ? "confirm_pass" : "confirm_move");
  $("pass").classList.add("hidden");
  $("hand").innerHTML = ""; $("targets").innerHTML = "";
  $("wait").classList.add("hidden"); $("skip").classList.add("hidden");
  if (g.over) { P.chosen = null; $("pending").classList.add("hidden"); return showEnd(); }
  const turn = g.turn;
  const mine = !v.table.lobby && mineLetters().includes(turn.letter);  // a waiting table: nobody moves yet
  $("race").dataset.phase = turn.phase;
  $("turn").textContent = t(mine && turn.human ? "to_move_you" : "to_move", { letter: turn.letter, name: turn.name });
  renderPending(g, v);
  renderHand(g, mine);
  if (turn.phase === "pending") { $("hand-area").dataset.state = g.can_confirm ? "pending-mine" : "pending"; return; }
  if (!turn.human) { $("hand-area").dataset.state = "bot"; return; }
  if (turn.pass) {
    $("pass-text").textContent = t("pass_to", { name: turn.name });
    $("pass-ok").textContent = t("i_am", { name: turn.name });
    $("pass").classList.remove("hidden");
    $("pass-ok").focus();
    return;
  }
  if (!mine) { $("hand-area").dataset.state = "waiting"; return; }
  $("hand-area").dataset.state = "mine";
  const p = g.private;
  if (P.chosen !== null && !(p.hands[turn.letter] || []).includes(P.chosen)) P.chosen = null;
  if (P.chosen !== null) highlight();
  if (p.wait) $("wait").classList.remove("hidden");
  if (p.skip) { $("skip").classList.remove("hidden"); message(t("forced_skip", { why: p.skip_text || p.skip })); }
}

// the turn clock: the seconds the person to move has left (the server hands the seat to a
// bot when they run out)
function tick() {
  const end = P.view && !P.view.race.over && P.view.table.clock;
  $("clock").classList.toggle("hidden", !end);
  if (!end) return;
  const left = Math.max(0, Math.ceil(end - Date.now() / 1000));
  $("clock").textContent = t("clock_left", { name: P.view.race.turn.name, s: left });
}
setInterval(tick, 1000);

// a table that waits for its players: who has joined; the host may start it now
function renderLobby(v) {
  const people = v.table.seats.filter((s) => s.kind === "person");
  $("lobby-box").classList.toggle("hidden", !v.table.lobby);
  $("lobby-start").classList.toggle("hidden", !v.table.lobby || !P.host || v.role !== "host");
  if (v.table.lobby) $("lobby-text").textContent = t("lobby", { n: people.filter((s) => s.online).length, m: people.length });
}

// a seat handed to a bot says so on its own device, which can take it back
function renderStandIn(v) {
  const seat = v.you && v.table.seats[v.you.seat];
  const bot = seat && seat.stand_in;
  $("stand-in").classList.toggle("hidden", !bot || v.race.over);
  if (bot) $("stand-in-text").textContent = t("bot_for_you", { bot });
}

// the title of a background tab says when it is this device's turn (and, when allowed, a
// vibration and a notification, once per turn)
function nudge(v) {
  const g = v.race;
  const mine = !g.over && !v.table.lobby && g.turn.human && g.turn.phase === "choose" && mineLetters().includes(g.turn.letter);
  const key = mine ? `${g.record}:${g.ply}` : null;
  document.title = mine && document.hidden ? t("title_your_turn") : P.title;
  if (!mine || !document.hidden || P.nudged === key) return;
  P.nudged = key;
  try { if (navigator.vibrate) navigator.vibrate(200); } catch (e) { /* not on this device */ }
  try {
    if (window.Notification && Notification.permission === "granted") new Notification(t("title_your_turn"));
  } catch (e) { /* no notifications here */ }
}

// the move waiting to be confirmed: every device sees it; its mover may take it back
function renderPending(g, v) {
  const box = $("pending");
  const p = g.turn.pending;
  if (!p) { box.classList.add("hidden"); box.textContent = ""; return; }
  const words = p.card === 0 ? t("pending_wait", { name: g.turn.name })
    : t("pending_move", { name: g.turn.name, card: p.card, space: spaceName(p.to) });
  const auto = v.table.confirm_ms !== null && v.table.confirm_ms !== undefined
    ? " · " + t("pending_auto", { s: Math.round(v.table.confirm_ms / 100) / 10 }) : "";
  box.textContent = words + auto + (g.can_confirm ? " — " + t("pending_yours") : "");
  box.classList.remove("hidden");
}

function renderHand(g, mine) {
  // every hand of this device's own chariots; the one to move can be played
  const p = g.private || { hands: {} };
  for (const [letter, hand] of Object.entries(p.hands)) {
    const playing = mine && g.turn.letter === letter && g.turn.human && !g.turn.pass && !g.turn.pending;
    const group = el("div", { class: "hand-of", "data-letter": letter }, el("span", { class: "hand-letter" }, letter));
    for (const card of hand) {
      const playable = playing && (p.options || []).some((o) => o.card === card);
      const why = (p.why || {})[card] || t("no_move_card");
      const b = el("button", { type: "button", class: "card" + (playing && P.chosen === card ? " chosen" : "") + (playing && !playable ? " forbidden" : ""),
        "data-card": card, "aria-pressed": String(playing && P.chosen === card), "aria-label": t("card_label", { card }),
        title: playable ? t("choose_card") : why, ...(playing && !playable ? { "aria-disabled": "true" } : {}) }, String(card));
      if (playing && playable) b.onclick = () => chooseCard(card);
      else if (playing) b.onclick = () => message(t("forbidden_card", { card, why }), "why-not");  // a tap says why
      else b.disabled = true;
      group.append(b);
    }
    $("hand").append(group);
  }
  if (!mine && !g.turn.human) $("hand").append(el("span", { class: "note" }, t("thinking", { name: g.turn.name })));
  else if (!mine) $("hand").append(el("span", { class: "note" }, t("waiting_for", { name: g.turn.name })));
}

function renderChariots(g) {
  const tbl = $("chariots");
  tbl.innerHTML = "";
  tbl.append(el("tr", {}, ...["", "h_chariot", "h_lap", "h_alley", "h_six", "h_cards", "h_points", ""].map((h) => el("th", {}, h ? t(h) : ""))));
  for (const c of g.chariots) {
    let six = "", help = "";
    if (c.status === "racing") {
      const own = g.private && g.private.six && (c.letter in g.private.six);
      if (own) { const why = g.private.six[c.letter]; six = why ? t("six_no") : t("six_ok"); help = why || ""; }
      else if (c.six) {
        six = { free: t("six_ok"), forbidden: t("six_no"), unless: t("six_unless"), depends: t("six_depends") }[c.six.status];
        help = c.six.status === "unless" ? t("six_unless_help", { why: c.six.why }) : c.six.status === "depends" ? t("six_depends_help", { why: c.six.why }) : (c.six.why || "");
      } else six = t("six_ok");
    }
    const notes = [c.status === "finished" ? t("finished") : "", c.status === "removed" ? t("removed") : "", c.disqualified ? t("disqualified") : ""].filter(Boolean).join(", ");
    const current = !g.over && g.turn.letter === c.letter;
    const who = `${c.letter} ${c.name}` + (c.human ? "" : ` (${c.bot ? t("is_bot", { bot: c.bot }) : t("ownerless")})`);
    tbl.append(el("tr", { class: "chariot-row" + (current ? " current" : "") + (mineLetters().includes(c.letter) ? " mine" : ""), "data-letter": c.letter },
      el("td", {}, el("span", { class: "swatch", style: `background:${c.colour}` })),
      el("td", {}, who, current ? el("span", { class: "badge" }, t("current")) : ""),
      el("td", {}, `${Math.min(c.lap, c.laps)}/${c.laps}`), el("td", { class: "coin" }, c.alley === "done" ? t("alley_done") : t("alley_todo")),
      el("td", { title: help }, six), el("td", { class: "cards" }, String(c.cards)),
      el("td", { class: "points" }, c.to_race === null ? String(c.points_left) : t("points_vs", { points: c.points_left, to: c.to_race })),
      el("td", {}, notes)));
  }
}

function renderLog(g) {
  const log = $("log");
  log.innerHTML = "";
  for (const entry of g.log) for (const e of entry.events) {
    log.append(el("div", entry.undo ? { class: "undo" } : {}, entry.undo ? `↶ ${e.trim()}` : `${entry.ply}. ${e.trim()}`));
  }
  log.scrollTop = log.scrollHeight;
}

function chooseCard(card) {
  P.chosen = card;
  document.querySelectorAll("#hand .card").forEach((b) => {
    const on = Number(b.dataset.card) === card && !b.disabled;
    b.classList.toggle("chosen", on); b.setAttribute("aria-pressed", String(on));
  });
  highlight();
  const n = P.view.race.private.options.filter((o) => o.card === card).length;
  message(n ? t("reach_n", { n, card }) : t("reach_none", { card }));
}

function highlight() {
  Board.clear(P.board, "reach"); Board.clear(P.board, "path");
  P.board.spaces.forEach((g) => { g.removeAttribute("tabindex"); g.removeAttribute("role"); g.removeAttribute("aria-label"); });
  const opts = P.view.race.private.options.filter((o) => o.card === P.chosen);
  Board.mark(P.board, opts.map((o) => o.space), "reach");
  Board.mark(P.board, opts.flatMap((o) => o.path), "path");
  const box = $("targets");
  box.innerHTML = "";
  for (const o of opts) {
    const g = P.board.spaces.get(o.space);
    if (g) { g.setAttribute("tabindex", "0"); g.setAttribute("role", "button"); g.setAttribute("aria-label", t("to_space", { space: spaceName(o.space) })); }
    box.append(el("button", { type: "button", class: "target", "data-space": o.space, onclick: () => act("move", { card: P.chosen, space: o.space }) },
      t("to_space", { space: spaceName(o.space) })));
  }
}

function message(text, cls) { const m = $("message"); m.className = cls || "note"; m.textContent = text; }

async function act(action, body) {
  try {
    const v = await api("POST", `/api/tables/${P.tid}/${action}`, body, headers());
    if (v.why_not) { message(t("not_allowed", { why: v.why_not }), "why-not"); return; }
    P.chosen = null; message("");
    await show(v);
  } catch (e) { message(e.message, "error"); }
}

function clickSpace(id) {
  const g = P.view && P.view.race;
  if (!g || g.over || !g.turn.human || g.turn.pass || g.turn.pending || !mineLetters().includes(g.turn.letter)) return;
  if (P.chosen === null) { message(t("choose_first"), "why-not"); return; }
  act("move", { card: P.chosen, space: id });
}

// the board from the keyboard: Enter or Space on a reachable space; arrows move among them
$("board").addEventListener("keydown", (e) => {
  const g = e.target.closest && e.target.closest("g.space");
  if (!g) return;
  if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clickSpace(Number(g.dataset.space)); return; }
  if (e.key.startsWith("Arrow")) {
    const all = Array.from($("board").querySelectorAll("g.space.reach"));
    const i = all.indexOf(g);
    if (i < 0 || !all.length) return;
    e.preventDefault();
    all[(i + (e.key === "ArrowRight" || e.key === "ArrowDown" ? 1 : all.length - 1)) % all.length].focus();
  }
});
document.addEventListener("keydown", (e) => {  // 1-9: choose that card
  if (!P.view || e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.target.tagName === "TEXTAREA") return;
  const card = Number(e.key);
  if (card >= 1 && card <= 9) {
    const b = document.querySelector(`#hand .card[data-card="${card}"]:not([disabled])`);
    if (b) { b.click(); b.focus(); }
  }
});

function setZoom(z) {
  P.zoom = Math.max(0.5, Math.min(z, 6));
  const svg = $("board").querySelector("svg");
  if (svg) svg.style.width = `${P.zoom * 100}%`;
  if (P.follow && P.view) follow(true);
}
$("zoom-in").onclick = () => { P.follow = PHONE.matches; setZoom(P.zoom * 1.4); };
$("zoom-out").onclick = () => { P.follow = PHONE.matches; setZoom(P.zoom / 1.4); };
$("zoom-fit").onclick = () => { P.follow = false; setZoom(1); };

// -- the host ----------------------------------------------------------------------------------
async function hostPanel() {
  try {
    const links = await api("GET", `/api/tables/${P.tid}/links`, undefined, { "x-table-token": P.host });
    P.links = links;
    $("spectator-link").textContent = links.spectator; $("spectator-link").href = links.spectator;
    const box = $("join-codes");
    box.innerHTML = "";
    for (const s of links.seats) {
      if (!s.link) continue;
      const code = el("div", { class: "join-code", "data-seat": s.seat });
      code.innerHTML = s.qr;
      code.prepend(el("h4", {}, `${t("seat_n", { n: s.seat + 1 })}: ${s.name}`));
      const copy = el("button", { type: "button", class: "copy" }, t("copy"));
      copy.onclick = async () => { try { await navigator.clipboard.writeText(s.link); copy.textContent = t("copied"); } catch (e) { /* no clipboard */ } };
      code.append(el("div", {}, el("a", { href: s.link, class: "join-link" }, t("open_seat_here")), " ", copy));
      box.append(code);
    }
    $("host-panel").classList.toggle("hidden", !links.seats.some((s) => s.link));
    renderSeats(P.view);
  } catch (e) { /* not the host (any more): the table still shows */ }
}

function renderSeats(v) {
  if (!P.host || v.table.shared) return;
  const box = $("seat-list");
  box.innerHTML = "";
  const people = v.table.seats.filter((s) => s.kind === "person");
  const all = people.length > 0 && people.every((s) => s.online || s.stand_in);
  if (all !== P.allJoined) { $("join-box").open = !all; P.allJoined = all; }  // fold the codes once all are in
  for (const s of v.table.seats) {
    if (s.kind !== "person") continue;
    const code = document.querySelector(`.join-code[data-seat="${s.seat}"]`);
    if (code) code.classList.toggle("joined", s.online);
    const state = s.stand_in ? t("bot_moves", { bot: s.stand_in, name: s.name }) : (s.online ? t("online") : t("away"));
    const b = el("button", { type: "button", class: "stand-in", "data-seat": s.seat },
      s.stand_in ? t("take_back", { name: s.name }) : t("hand_to_bot", { name: s.name }));
    b.onclick = () => seatToBot(s.seat, s.stand_in ? null : "greedy");
    box.append(el("div", { class: "seat " + (s.online ? "online" : "away") }, el("b", {}, `${s.seat + 1}. ${s.name}`), ` — ${state} `, b));
  }
}

async function seatToBot(seat, bot) {
  try { await show(await api("POST", `/api/tables/${P.tid}/seat`, { seat, bot }, { "x-table-token": P.host })); }
  catch (e) { message(e.message, "error"); }
}

// -- the end -----------------------------------------------------------------------------------
// the winner: the best placed chariot neither disqualified nor removed (placings are best first)
function winning(result) { return result.placings.find((x) => x.place && !x.disqualified && !x.removed) || null; }

// the end screen's first line: who won (the team, when players drive several chariots)
function winnerText(result) {
  if (result.teams && result.teams.length) return t("winner_team", { name: result.teams[0][0], points: result.teams[0][1] });
  const p = winning(result);
  if (!p) return t("no_winner");
  return t("winner", { letter: "ABCDEFGHIJKL"[p.chariot], name: p.name, points: p.points });
}

function showEnd() {
  const g = P.view.race;
  if (!P.endShown) { P.endShown = g.record; $("end").scrollIntoView({ block: "start" }); }
  $("turn").textContent = t("race_over");
  $("hand-area").dataset.state = "over";
  const tbl = $("placings");
  tbl.innerHTML = "";
  tbl.append(el("tr", {}, ...["h_place", "h_chariot", "h_points_won", "h_result"].map((h) => el("th", {}, t(h)))));
  const won = winning(g.result);
  for (const p of won ? [won, ...g.result.placings.filter((x) => x !== won)] : g.result.placings) {  // the winner first
    tbl.append(el("tr", { class: "placing" + (p === won ? " winner" : ""), "data-letter": "ABCDEFGHIJKL"[p.chariot] },
      el("td", {}, p.place ? `${p.place}.` : "–"), el("td", {}, `${"ABCDEFGHIJKL"[p.chariot]} ${p.name}`),
      el("td", {}, String(p.points)), el("td", { class: "why" }, p.why || "")));
  }
  $("winner").textContent = winnerText(g.result);
  $("seed-end").textContent = t("seed_was", { seed: g.seed });
  checkDeal(g);
  $("watch").href = "/replay?record=" + encodeURIComponent(g.record);
  $("again").classList.toggle("hidden", !P.host);
  const tour = P.view.table.tournament;
  $("tournament-box").classList.toggle("hidden", !tour);
  if (!tour) return;
  $("tournament-title").textContent = t("tournament_title", { race: tour.race, races: tour.races }) + (tour.next ? "" : t("final_standings"));
  const st = $("standings");
  st.innerHTML = "";
  st.append(el("tr", {}, ...["h_rank", "h_player", "h_total", "h_per_race"].map((h) => el("th", {}, t(h)))));
  for (const s of tour.standings) st.append(el("tr", { class: "standing" }, el("td", {}, `${s.rank}.`), el("td", {}, s.player),
    el("td", {}, String(s.total)), el("td", {}, s.points.join(" + "))));
  $("next-race").classList.toggle("hidden", !tour.next || !P.host);
}

// at the end: the record's seed and nonce against the commitment shown at the start (here),
// and the server's replay of the record (the seed gives the recorded deal)
async function checkDeal(g) {
  const box = $("deal-check");
  if (!g.deal || g.deal.by !== "server") { box.textContent = g.deal ? t("deal_practice") : ""; return; }
  if (box.dataset.record === g.record) return;
  box.dataset.record = g.record;
  box.dataset.state = "checking";
  box.textContent = t("deal_checking");
  try {
    const r = await fetch("/api/saves/" + encodeURIComponent(g.record));
    if (!r.ok) throw new Error(r.statusText);
    const head = JSON.parse((await r.text()).split("\n")[0]);
    const seen = P.commitments[g.record] || g.deal.commitment;
    const recorded = head.deal && head.deal.commitment;
    const hash = dealCommitment(head);
    let why = null;
    if (recorded !== seen) why = t("deal_changed", { r: String(recorded).slice(0, 16), s: String(seen).slice(0, 16) });
    else if (hash !== seen) why = t("deal_mismatch", { h: hash.slice(0, 16), c: seen.slice(0, 16) });
    if (!why) {
      const server = await api("GET", `/api/saves/${encodeURIComponent(g.record)}/verify`);
      if (!server.verified) why = server.error;
    }
    box.dataset.state = why ? "bad" : "ok";
    box.textContent = (why ? t("deal_bad", { why }) : t("deal_ok", { c: seen.slice(0, 16) })) + " " + t("deal_hint", { file: g.record });
  } catch (e) { box.dataset.state = "bad"; box.textContent = t("deal_bad", { why: e.message }); }
}

async function newRace(kind) {
  try { await show(await api("POST", `/api/tables/${P.tid}/race/${kind}`, undefined, { "x-table-token": P.host })); }
  catch (e) { message(e.message, "error"); }
}

$("pass-ok").onclick = () => act("reveal");
$("wait").onclick = () => act("move", { card: 0 });
$("skip").onclick = () => act("skip");
$("undo").onclick = () => act("undo");
$("confirm").onclick = () => act("confirm");
$("again").onclick = () => newRace("again");
$("next-race").onclick = () => newRace("next-race");

// "play this seat on this device": the same page with the seat's #seat=…: open it as that seat
window.addEventListener("hashchange", () => {
  if (!P.tid || !new URLSearchParams(location.hash.slice(1)).get("seat")) return;
  P.version = -1; P.seq = -1; P.epoch = null;
  openTable(P.tid).catch((e) => message(e.message, "error"));
});
document.addEventListener("visibilitychange", () => { if (P.view) nudge(P.view); });
$("lobby-start").onclick = async () => {
  try { await show(await api("POST", `/api/tables/${P.tid}/start`, undefined, { "x-table-token": P.host })); }
  catch (e) { message(e.message, "error"); }
};
$("im-back").onclick = async () => {
  try { await show(await api("POST", `/api/tables/${P.tid}/seat`, { seat: P.view.you.seat, bot: null }, headers())); }
  catch (e) { message(e.message, "error"); }
};

(async () => {
  P.title = document.title;
  await loadText();
  applyText();
  if (params.get("table")) {
    try { await openTable(params.get("table")); }
    catch (e) { $("race").classList.add("hidden"); await setupPage(); $("setup-error").textContent = e.message; }
  } else if (params.get("game")) {  // an older link to a record: its table, if it has one
    const s = (await api("GET", "/api/saves")).find((x) => x.record === params.get("game"));
    if (s && s.table) location.replace(`/play?table=${encodeURIComponent(s.table)}`);
    else await setupPage();
  } else {
    await setupPage();
  }
})();

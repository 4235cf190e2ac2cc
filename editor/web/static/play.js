// The Play page: setup, then the race. Every rule answer comes from the server (the engine).
"use strict";
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
let catalog = null, uploadedCourse = null;
let game = null, board = null, boardCourse = null, chosen = null, stepTimer = null;

function delay() { return Number(params.get("delay") || $("delay").value || 700); }

function playerRow(name, kind) {
  const kinds = ["human", ...catalog.bots];
  const sel = el("select", { class: "kind" }, ...kinds.map((k) => el("option", { value: k }, k)));
  sel.value = kind;
  const row = el("div", { class: "player" }, el("input", { class: "name", value: name, size: 14 }), sel,
    el("button", { onclick: () => row.remove() }, "×"));
  $("players").append(row);
}

async function setupPage() {
  catalog = await api("GET", "/api/catalog");
  for (const r of catalog.rulesets) $("ruleset").append(el("option", { value: r.id }, `${r.title} (${r.id})`));
  for (const v of catalog.variants) {
    $("variants").append(el("label", { title: v.title }, el("input", { type: "checkbox", value: v.id }), " " + v.id));
  }
  for (const c of catalog.courses) $("course").append(el("option", { value: c }, c));
  $("ruleset").value = "ravensburger-1989";
  $("course").value = "ravensburger-1989/a-white";
  playerRow("Anna", "human"); playerRow("Ben", "human"); playerRow("Bot 1", "greedy"); playerRow("Bot 2", "search");
  $("seed").value = Math.floor(Math.random() * 1000000);
  $("new-seed").onclick = () => { $("seed").value = Math.floor(Math.random() * 1000000); };
  $("add-player").onclick = () => playerRow(`Player ${$("players").children.length + 1}`, "greedy");
  $("course-file").onchange = uploadCourse;
  $("start").onclick = () => start(setupBody());
  listSaves();
}

async function uploadCourse() {
  const f = $("course-file").files[0];
  if (!f) return;
  $("course-upload").textContent = "reading…";
  try {
    const r = await api("POST", "/api/courses", { text: await f.text() });
    uploadedCourse = r.course;
    $("course-upload").textContent = `uploaded: ${r.name}`;
  } catch (e) { uploadedCourse = null; $("course-upload").textContent = ""; $("setup-error").textContent = e.message; }
}

function setupBody() {
  const overrides = {};
  for (const line of $("overrides").value.split("\n")) {
    const [k, ...rest] = line.split("=");
    if (k.trim()) overrides[k.trim()] = rest.join("=").trim();
  }
  const players = Array.from(document.querySelectorAll("#players .player")).map((row) => {
    const kind = row.querySelector(".kind").value;
    return { name: row.querySelector(".name").value, bot: kind === "human" ? null : kind };
  });
  const variants = Array.from(document.querySelectorAll("#variants input:checked")).map((i) => i.value);
  const seed = $("seed").value === "" ? null : Number($("seed").value);
  return { ruleset: $("ruleset").value, variants, overrides, course: uploadedCourse || $("course").value, seed, players,
    tournament: $("tournament").checked };
}

async function start(body) {
  $("setup-error").textContent = ""; $("missing").textContent = "";
  try {
    const g = await api("POST", "/api/games", body);
    params.set("game", g.record); params.set("delay", delay());
    history.replaceState(null, "", "/play?" + params.toString());
    await show(g);
  } catch (e) {
    if (e.status === 409 && e.data && e.data.missing) askMissing(e.data);
    else $("setup-error").textContent = e.message;
  }
}

function askMissing(data) {
  // a value the rulebook leaves open: the table decides it
  const m = /one of: ([^)]*)\)/.exec(data.error);
  const box = $("missing");
  box.innerHTML = "";
  box.append(el("div", { class: "error" }, data.error));
  if (!m) {  // no list of values: the table writes its own value after the "="
    const ov = $("overrides");
    ov.value += `${ov.value && !ov.value.endsWith("\n") ? "\n" : ""}${data.missing}=`;
    ov.focus();
    box.append(el("div", {}, `Write your table's value after "${data.missing}=" above, then start again.`));
  }
  for (const choice of m ? m[1].split(",").map((s) => s.trim()) : []) {
    box.append(el("button", { class: "choice", "data-value": choice, onclick: () => {
      $("overrides").value += `${$("overrides").value && !$("overrides").value.endsWith("\n") ? "\n" : ""}${data.missing}=${choice}\n`;
      box.textContent = ""; start(setupBody());
    } }, `${data.missing} = ${choice}`));
  }
}

async function listSaves() {
  const saves = await api("GET", "/api/saves");
  const box = $("saves");
  box.innerHTML = "";
  if (!saves.length) { box.textContent = "none yet"; return; }
  const t = el("table", {});
  for (const s of saves.slice(0, 30)) {
    if (s.broken) continue;
    t.append(el("tr", {}, el("td", {}, s.record), el("td", {}, `${s.ruleset} · ${s.course}`),
      el("td", {}, s.players.join(", ")), el("td", {}, `${s.turns} turns${s.over ? " · over" : ""}`),
      el("td", {}, s.over ? "" : el("a", { href: `/play?game=${encodeURIComponent(s.record)}`, class: "resume" }, "resume"),
        " ", el("a", { href: `/replay?record=${encodeURIComponent(s.record)}` }, "replay"))));
  }
  box.append(t);
}

async function show(g) {
  game = g;
  $("setup").classList.add("hidden");
  $("race").classList.remove("hidden");
  if (boardCourse !== g.course) {
    board = Board.load($("board"), await api("GET", "/api/board?course=" + encodeURIComponent(g.course)));
    boardCourse = g.course;
    board.spaces.forEach((node, id) => node.addEventListener("click", () => clickSpace(id)));
  }
  render();
}

function render() {
  $("end").classList.toggle("hidden", !game.over);
  const g = game;
  $("race").dataset.ply = g.ply;
  $("race").dataset.turns = g.log.length ? g.log[g.log.length - 1].ply : 0;
  Board.chariots(board, g.chariots);
  Board.clear(board, "reach"); Board.clear(board, "path");
  $("seed-shown").textContent = g.seed;
  $("rules-shown").textContent = g.ruleset;
  $("record-link").textContent = g.record;
  $("record-link").href = "/api/saves/" + encodeURIComponent(g.record);
  const tbl = $("chariots");
  tbl.innerHTML = "";
  tbl.append(el("tr", {}, ...["", "chariot", "lap", "coin", "6-card", "cards", ""].map((h) => el("th", {}, h))));
  for (const c of g.chariots) {
    const six = c.six ? "no 6" : (c.status === "racing" ? "6 ok" : "");
    const st = [c.status !== "racing" ? c.status : "", c.disqualified ? "disqualified" : ""].filter(Boolean).join(", ");
    tbl.append(el("tr", { class: "chariot-row", "data-letter": c.letter },
      el("td", {}, el("span", { class: "swatch", style: `background:${c.colour}` })),
      el("td", {}, `${c.letter} ${c.name}${c.human ? "" : " (" + c.bot + ")"}`),
      el("td", {}, `${c.lap}/${c.laps}`), el("td", { class: "coin" }, c.coin === "held" ? "coin held" : "coin paid"),
      el("td", { title: c.six || "" }, six), el("td", {}, String(c.cards)), el("td", {}, st)));
  }
  const log = $("log");
  log.innerHTML = "";
  for (const t of g.log) for (const e of t.events) log.append(el("div", {}, `${t.ply}. ${e.trim()}`));
  log.scrollTop = log.scrollHeight;
  $("undo").disabled = !g.can_undo;
  $("pass").classList.add("hidden");
  $("hand").innerHTML = "";
  $("wait").classList.add("hidden"); $("skip").classList.add("hidden");
  if (g.over) return showEnd();
  const t = g.turn;
  $("turn").textContent = `${t.letter} — ${t.name} to move`;
  if (!t.human) {
    $("hand").append(el("span", { class: "note" }, `${t.name} is thinking…`));
    clearTimeout(stepTimer);
    stepTimer = setTimeout(stepBot, delay());
    return;
  }
  if (t.pass) {
    $("pass-text").textContent = `Pass the device to ${t.name}`;
    $("pass-name").textContent = t.name;
    $("pass-undo").classList.toggle("hidden", !g.can_undo);
    $("pass").classList.remove("hidden");
    return;
  }
  const cards = [...new Set(g.hand)];
  for (const card of g.hand) {
    const playable = g.options.some((o) => o.card === card);
    $("hand").append(el("button", { class: "card" + (chosen === card ? " chosen" : ""), "data-card": card,
      title: playable ? "choose this card" : "no legal move with this card", onclick: () => chooseCard(card) }, String(card)));
  }
  if (chosen !== null && !cards.includes(chosen)) chosen = null;
  if (chosen !== null) highlight();
  if (g.wait) $("wait").classList.remove("hidden");
  if (g.skip) { $("skip").classList.remove("hidden"); message(`No legal move (${g.skip}): you skip and keep your cards.`); }
}

function chooseCard(card) {
  chosen = card;
  document.querySelectorAll("#hand .card").forEach((b) => b.classList.toggle("chosen", Number(b.dataset.card) === card));
  highlight();
  const n = game.options.filter((o) => o.card === card).length;
  message(n ? `${n} space${n > 1 ? "s" : ""} reachable with a ${card}: click one` : `no space can be reached with a ${card} — click a space to see why`);
}

function highlight() {
  Board.clear(board, "reach"); Board.clear(board, "path");
  const opts = game.options.filter((o) => o.card === chosen);
  Board.mark(board, opts.map((o) => o.space), "reach");
  Board.mark(board, opts.flatMap((o) => o.path), "path");
}

function message(text, cls) { const m = $("message"); m.className = cls || "note"; m.textContent = text; }

async function act(action, body) {
  try {
    const g = await api("POST", `/api/games/${encodeURIComponent(game.record)}/${action}`, body);
    if (g.why_not) { game = g; message("Not allowed: " + g.why_not, "why-not"); return; }
    chosen = null; message("");
    game = g; render();
  } catch (e) { message(e.message, "error"); }
}

function clickSpace(id) {
  if (!game || game.over || !game.turn.human || game.turn.pass) return;
  if (chosen === null) { message("Choose a card first.", "why-not"); return; }
  act("move", { card: chosen, space: id });
}

async function stepBot() {
  if (!game || game.over || game.turn.human) return;
  await act("step");
}

function showEnd() {
  $("turn").textContent = "Race over";
  $("end").classList.remove("hidden");
  const t = $("placings");
  t.innerHTML = "";
  t.append(el("tr", {}, ...["place", "chariot", "points", ""].map((h) => el("th", {}, h))));
  for (const p of game.result.placings) {
    const notes = [p.disqualified ? "disqualified" : "", p.removed ? "removed" : "", p.finished ? "" : "not finished"].filter(Boolean).join(", ");
    t.append(el("tr", { class: "placing" }, el("td", {}, p.place ? `${p.place}.` : "–"),
      el("td", {}, `${"ABCDEFGHIJKL"[p.chariot]} ${p.name}`), el("td", {}, String(p.points)), el("td", {}, notes)));
  }
  $("watch").href = "/replay?record=" + encodeURIComponent(game.record);
  const tour = game.tournament;
  $("tournament-box").classList.toggle("hidden", !tour);
  if (!tour) return;
  $("tournament-title").textContent = `Tournament: race ${tour.race} of ${tour.races}` + (tour.next ? "" : " — final standings");
  const st = $("standings");
  st.innerHTML = "";
  st.append(el("tr", {}, ...["rank", "player", "total", "points per race"].map((h) => el("th", {}, h))));
  for (const s of tour.standings) st.append(el("tr", { class: "standing" }, el("td", {}, `${s.rank}.`), el("td", {}, s.player),
    el("td", {}, String(s.total)), el("td", {}, s.points.join(" + "))));
  $("next-race").classList.toggle("hidden", !tour.next);
}

async function nextRace() {
  try {
    const g = await api("POST", `/api/games/${encodeURIComponent(game.record)}/next-race`);
    $("end").classList.add("hidden");
    params.set("game", g.record);
    history.replaceState(null, "", "/play?" + params.toString());
    await show(g);
  } catch (e) { message(e.message, "error"); }
}

async function playAgain() {
  const h = { ...game.setup, seed: null };
  $("end").classList.add("hidden");
  await start(h);
}

$("pass-ok").onclick = () => act("reveal");
$("wait").onclick = () => act("move", { card: 0 });
$("skip").onclick = () => act("skip");
$("undo").onclick = () => act("undo");
$("pass-undo").onclick = () => act("undo");
$("again").onclick = playAgain;
$("next-race").onclick = nextRace;

(async () => {
  if (params.get("game")) {
    try { await show(await api("GET", `/api/games/${encodeURIComponent(params.get("game"))}`)); }
    catch (e) { await setupPage(); $("setup-error").textContent = e.message; }
  } else {
    await setupPage();
  }
})();

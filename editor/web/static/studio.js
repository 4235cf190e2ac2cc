// The course studio: the CLI with a board. The text is checked by the server (the CLI's
// reading, checks, figures and --explain) within a moment of a pause in typing — from the
// text itself, nothing is stored; what-if, export, "race it" and the simulation on request.
"use strict";
const $s = (id) => document.getElementById(id);
let timer = null, seq = 0, last = null, direction = "clockwise", board = null;
const state = { file: "course.yaml", bundled: "", bundledText: null };

function schedule() { clearTimeout(timer); $s("status").textContent = "…"; timer = setTimeout(check, 350); gutter(); }

function request(extra) {
  return Object.assign({ text: $s("yaml").value, file: state.file, ruleset: $s("ruleset").value,
    bundled: state.bundled, direction }, extra || {});
}

// ---- the editor: line numbers beside the text, marked where a problem is -----------------
function gutter(problems) {
  const n = $s("yaml").value.split("\n").length;
  const marks = new Map();
  for (const p of problems || (last ? last.problems : [])) {
    if (marks.get(p.line) !== "bad") marks.set(p.line, p.severity === "error" ? "bad" : "warn");
  }
  const g = $s("gutter");
  g.innerHTML = "";
  for (let i = 1; i <= n; i++) {
    const line = el("span", { class: marks.get(i) || "", "data-line": String(i) }, String(i));
    g.append(line, "\n");
  }
  g.scrollTop = $s("yaml").scrollTop;
}

function gotoLine(line, col) {
  const ta = $s("yaml");
  const lines = ta.value.split("\n");
  let pos = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) pos += lines[i].length + 1;
  ta.focus();
  ta.setSelectionRange(pos + Math.max((col || 1) - 1, 0), pos + (lines[line - 1] || "").length);
  const lh = parseFloat(getComputedStyle(ta).lineHeight) || 15;
  ta.scrollTop = Math.max(0, (line - 5) * lh);
  ta.scrollLeft = 0;
  $s("gutter").scrollTop = ta.scrollTop;
  ta.dataset.line = String(line);
}

// ---- checking ---------------------------------------------------------------------------
async function check() {
  const mine = ++seq;
  const text = $s("yaml").value;
  if (!text.trim()) { $s("status").textContent = ""; clearBoard(t("st_empty")); return; }
  try {
    const r = await api("POST", "/api/studio/check", request({ numbers: $s("numbers").checked }));
    if (mine !== seq) return;  // a newer text is on its way
    last = r;
    show(r);
  } catch (e) {
    if (mine !== seq) return;
    $s("status").textContent = "";
    $s("problems").innerHTML = "";
    $s("problems").append(el("div", { class: "error" }, e.message));
    clearBoard(t("st_no_board", { why: e.message }));
  }
  document.body.dataset.checked = String(mine);
}

let courseTitles = {};  // a bundled course's title by its id, in the page's language

function clearBoard(why) {
  $s("board").innerHTML = "";
  board = null;
  $s("figures").innerHTML = "";
  $s("laps").innerHTML = "";
  $s("explain").innerHTML = "";
  $s("directions").innerHTML = "";
  const nb = $s("no-board");
  nb.textContent = why || "";
  nb.classList.toggle("hidden", !why);
}

function show(r) {
  const errors = r.problems.filter((x) => x.severity === "error").length;
  $s("status").textContent = r.valid ? t("st_valid") : t(errors === 1 ? "st_error_one" : "st_errors", { n: errors });
  const p = $s("problems");
  p.innerHTML = "";
  for (const x of r.problems) {
    p.append(el("div", { class: "problem " + (x.severity === "error" ? "error" : "note"), "data-line": String(x.line),
      onclick: () => gotoLine(x.line, x.column) },
    `${state.file}:${x.line}:${x.column}: ${x.severity === "warning" ? t("st_warning") : ""}${x.message}`));
  }
  gutter(r.problems);
  if (!r.courses.length) { clearBoard(t("st_no_board", { why: r.why_no_board || t("st_not_course") })); return; }
  if (!r.courses.some((c) => c.direction === direction)) direction = r.courses[0].direction;
  const tabs = $s("directions");
  tabs.innerHTML = "";
  if (r.courses.length > 1) {
    for (const c of r.courses) {
      tabs.append(el("button", { class: c.direction === direction ? "on" : "", onclick: () => { direction = c.direction; show(last); } },
        `${t("st_dir_" + c.direction)} (${c.id})`));
    }
  }
  showCourse(r, r.courses.find((c) => c.direction === direction));
}

function showCourse(r, c) {
  const f = $s("figures");
  f.innerHTML = "";
  if (c.figures) {
    const g = c.figures;
    f.append(el("h4", {}, `${courseTitles[c.id] || c.name} [${c.id}] — ${t("st_dir_" + c.direction)}`),
      el("div", { class: "note" }, t("st_figures_line", { lap: g.lap, alley: g.alley_extra === null ? t("st_no_alley") : t("st_alley_stop", { n: g.alley_extra }),
        outside: g.outside_race ?? "—", deck: g.deck_points, bonus: g.bonus_points ? t("st_bonus", { n: g.bonus_points }) : "", rules: r.rules })));
    const tbl = el("table", { class: "figures" }, el("tr", {}, el("th", {}, t("st_h_place")), el("th", {}, t("st_h_shortest")), el("th", {}, t("st_h_reserve"))));
    g.shortest_race.forEach((s, i) => tbl.append(el("tr", {}, el("td", {}, String(i + 1)), el("td", { class: "shortest" }, s === null ? "—" : String(s)), el("td", {}, g.reserve[i] === null ? "—" : String(g.reserve[i])))));
    f.append(tbl, el("div", { class: c.finishable ? "note" : "error" }, t(c.finishable ? "st_finishable" : "st_not_finishable")));
  }
  $s("laps").innerHTML = "";
  if (!c.svg) {
    clearBoardOnly(t("st_no_board", { why: c.svg_error || c.why_no_board || t("st_has_errors") }));
    $s("explain").innerHTML = "";
    return;
  }
  $s("no-board").classList.add("hidden");
  board = Board.load($s("board"), c.svg);
  const laps = c.laps || [];
  if (laps.length) {
    const bar = el("div", { id: "lap-bar" }, t("st_lap_bar"));
    const all = [];
    laps.forEach((lap) => {
      all.push(...lap.spaces);
      bar.append(el("button", { class: "lap", "data-steps": String(lap.steps), onclick: (ev) => pick(lap.spaces, ev.target) },
        `${lap.name} · ${lap.steps}`));
    });
    bar.append(el("button", { class: "lap", onclick: (ev) => pick(all, ev.target) }, t("st_whole_race")),
      el("button", { onclick: () => pick([], null) }, t("st_none")));
    $s("laps").append(bar);
  }
  showExplain(c.explain);
}

function clearBoardOnly(why) {
  $s("board").innerHTML = "";
  board = null;
  const nb = $s("no-board");
  nb.textContent = why;
  nb.classList.remove("hidden");
}

function pick(spaces, button) {
  if (!board) return;
  Board.clear(board, "path");
  Board.mark(board, spaces, "path");
  document.querySelectorAll("#lap-bar .lap").forEach((b) => b.classList.toggle("on", b === button));
}

// ---- --explain as a panel -------------------------------------------------------------------
function table(head, rows) {
  const tbl = el("table", {}, el("tr", {}, ...head.map((h, i) => el("th", { class: i ? "num" : "" }, h))));
  for (const r of rows) tbl.append(el("tr", {}, ...r.map((c, i) => el("td", { class: i ? "num" : "" }, String(c)))));
  return tbl;
}
const kindName = (k) => t("st_kind_" + k.replace(" ", "_"));

const KINDS = ["straight", "curve inside", "curve outside", "chicane", "section", "alley"];

function shortenable(u) {
  return u.passes.every((p) => p.lanes.every((lane) => (u.kind === "alley" ? u.lengths[0] : u.lengths[lane]) > 1));
}

function showExplain(ex) {
  const box = $s("explain");
  box.innerHTML = "";
  if (!ex) return;
  const places = ex.places.filter((p) => p.race !== null);
  if (!places.length) { box.append(el("div", { class: "error" }, t("st_no_place"))); return; }
  const laps = Array.from({ length: ex.laps }, (_, k) => t("st_lap_n", { n: k + 1 }));
  box.append(el("div", {}, t("st_taken_apart")),
    table([t("h_place"), t("st_h_run_up"), ...laps, t("st_h_race"), t("st_h_alley_stop")],
      places.map((p) => [p.place, ...p.by_lap, p.race, p.alley_stop_lap ? t("st_lap_n", { n: p.alley_stop_lap }) : "—"])));
  const kinds = KINDS.filter((k) => places.some((p) => p.by_kind[k]));
  box.append(el("div", {}, t("st_by_kind")), table([t("h_place"), ...kinds.map(kindName), t("st_h_race")], places.map((p) => [p.place, ...kinds.map((k) => p.by_kind[k]), p.race])));
  if (ex.alley_detour !== null) box.append(el("div", {}, t("st_detour", { n: ex.alley_detour, without: ex.race_without_stop })));
  const first = places[0];
  const names = [];
  for (const p of places) for (const u of p.pieces) if (!names.includes(u.piece)) names.push(u.piece);
  const rows = names.map((name) => {
    const u = first.pieces.find((x) => x.piece === name);
    const steps = places.map((p) => (p.pieces.find((x) => x.piece === name) || { steps: 0 }).steps);
    if (!u) return [name, "", "", "—", ...steps, "—"];
    const lanes = u.kind === "alley" ? u.passes.map(() => kindName("alley")).join(" / ") : u.passes.map((p) => p.lanes.join("→")).join(" / ");
    const saves = u.passes.length && shortenable(u) ? u.saving_per_space : "—";
    return [name, kindName(u.kind), u.kind === "alley" ? u.lengths[0] : `[${u.lengths.join(", ")}]`, lanes || "—", ...steps, saves];
  });
  rows.push([t("st_total"), "", "", "", ...places.map((p) => p.race), ""]);
  box.append(el("div", {}, t("st_by_piece", { place: first.place })),
    table([t("st_h_piece"), t("st_h_kind"), t("st_h_lengths"), t("st_h_lanes"), ...places.map((p) => String(p.place)), t("st_h_saves")], rows));
  for (const c of ex.curves) box.append(el("div", { class: "note" }, t("st_curve", { piece: c.piece, lengths: c.lengths.join(", "), lanes: c.lanes_used.map((l) => l.join("→")).join(" / "), cost: c.outside_cost })));
  const gains = first.pieces.filter((u) => u.kind !== "alley" && u.passes.length && shortenable(u));
  const top = Math.max(0, ...gains.map((u) => u.saving_per_space));
  if (top) box.append(el("div", { class: "cheapest" }, t("st_cheapest", { n: top, pieces: gains.filter((u) => u.saving_per_space === top).map((u) => u.piece).join(", ") })));
}

// ---- --what-if as a panel ---------------------------------------------------------------------
function whatIfEntry(w, note) {
  const box = el("div", { class: "what-if-entry" + (w.warnings.length ? " warned" : "") });
  w.edits.forEach((e, i) => {
    const where = e.in_this_file ? el("a", { onclick: () => gotoLine(e.line, 1) }, `${e.file}:${e.line}`) : `${e.file}:${e.line}`;
    box.append(el("div", { class: "edit" }, i ? "+ " : "", where, `: ${e.edit}`));
  });
  const f = w.figures;
  const drawing = w.edits.length > 1 ? t(w.closes ? "st_closes" : "st_not_closes") : (note && !w.closes ? t("st_no_longer_closes") : "");
  box.append(el("div", { class: "note" }, t("st_edit_figures", { lap: f.lap, alley: f.alley_extra === null ? "—" : "+" + f.alley_extra,
    race: f.shortest_race.map((r) => r ?? "—").join(", "), reserve: f.reserve.map((r) => r ?? "—").join(", "), drawing })));
  for (const m of w.warnings) box.append(el("div", { class: "note" }, t("st_warning") + m));
  return box;
}

async function whatIf() {
  const out = $s("what-if");
  out.innerHTML = "";
  $s("what-if-status").textContent = t("st_searching");
  const reserve = Number($s("reserve").value || 0);
  try {
    const r = await api("POST", "/api/studio/what-if", request({ reserve }));
    $s("what-if-status").textContent = "";
    const target = reserve === 0 ? t("st_target_finish") : t("st_target_keep", { n: reserve });
    if (r.found.length) {
      out.append(el("div", {}, t("st_found", { found: r.found.length, tried: r.tried, target, budget: r.budget })));
      for (const w of r.found) out.append(whatIfEntry(w, true));
    } else {
      out.append(el("div", {}, t("st_found_none", { tried: r.tried, target, budget: r.budget })));
      out.append(el("div", { class: "short" }, t("st_short_by") + r.short.map((s, i) => t("st_short_place", { n: i + 1, by: s === null ? t("st_cannot_finish") : s })).join(", ")));
      if (r.combinations.length) {
        out.append(el("div", {}, t(r.combinations.length === 1 ? "st_combination_one" : "st_combinations", { n: r.combinations.length, tried: r.combinations_tried, considered: r.combinations_considered })));
        for (const w of r.combinations) out.append(whatIfEntry(w, false));
      } else {
        out.append(el("div", { class: "note" }, t(r.combinations_considered ? "st_no_combination" : "st_no_combination_much")));
      }
    }
    if (r.closing.length) {
      out.append(el("div", {}, t("st_closing")));
      for (const w of r.closing) out.append(whatIfEntry(w, false));
    }
    if (r.invalid.length) {
      out.append(el("div", { class: "note" }, t(r.invalid.length === 1 ? "st_invalid_one" : "st_invalid", { n: r.invalid.length })));
      for (const x of r.invalid) out.append(el("div", { class: "note" }, `${x.edit}: ${x.problem}`));
    }
  } catch (e) { $s("what-if-status").textContent = ""; out.append(el("div", { class: "error" }, e.message)); }
  document.body.dataset.whatIf = String(seq);
}

// ---- export, download, try it -----------------------------------------------------------------
function save(blob, name) {
  const a = el("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(a); a.click(); a.remove();
}

async function exportBoard(format) {
  const r = await fetch("/api/studio/export", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify(request({ format, numbers: $s("numbers").checked })) });
  if (!r.ok) { const e = await r.json().catch(() => ({})); $s("try-note").textContent = t("st_cannot_export", { why: e.error || r.statusText }); return; }
  const m = /filename="([^"]+)"/.exec(r.headers.get("content-disposition") || "");
  save(await r.blob(), m ? m[1] : `${state.file.replace(/\.ya?ml$/, "")}.${format}`);
}

async function updateFigures() {
  $s("try-note").textContent = "";
  try {
    const r = await api("POST", "/api/studio/update-figures", request());
    if (!r.changed) { $s("try-note").textContent = t("st_figures_hold", { rules: r.rules }); return; }
    $s("yaml").value = r.text;
    $s("try-note").textContent = t(r.lines.length === 1 ? "st_updated_one" : "st_updated", { rules: r.rules, lines: r.lines.join(", ") });
    check();
  } catch (e) { $s("try-note").textContent = t("st_cannot_update", { why: e.message }); }
  document.body.dataset.updated = String(seq);
}

async function raceIt() {
  $s("try-note").textContent = "";
  try {
    const r = await api("POST", "/api/studio/try", request());
    $s("try-note").innerHTML = "";
    $s("try-note").append(t("st_race_link", { name: r.name, under: r.ruleset ? t("st_under", { rules: r.ruleset }) : "" }), el("a", { id: "play-link", href: r.play, target: "_blank" }, `${location.origin}${r.play}`));
    window.open(r.play, "_blank");
  } catch (e) { $s("try-note").textContent = t("st_cannot_race", { why: e.message }); }
}

async function simulate() {
  const panel = $s("simulation-panel"), out = $s("simulation");
  panel.classList.remove("hidden");
  out.innerHTML = "";
  out.append(el("div", { class: "note" }, t("st_racing")));
  try {
    const r = await api("POST", "/api/studio/simulate", request({ races: Number($s("sim-races").textContent) }));
    out.innerHTML = "";
    out.append(el("div", {}, t("st_sim_line", { races: r.races, of: r.races < r.asked ? t("st_sim_of", { asked: r.asked }) : "", players: r.players, bots: r.bots.join("/"),
      rules: r.ruleset + (r.variants.length ? " + " + r.variants.join(", ") : ""), seconds: r.seconds, rate: Math.round(r.finish_rate * 100),
      balance: r.balance.toFixed(2), deadlocks: r.deadlocks ? t("st_sim_deadlocks", { n: r.deadlocks }) : "" })));
    if (r.finish_rate === 0) out.append(el("div", { class: "error" }, t("st_sim_none", { rules: r.ruleset })));
    out.append(table([t("st_h_place"), t("st_h_win_rate"), t("st_h_interval"), t("st_h_mean_place"), t("st_h_not_finished")],
      r.by_place.map((p) => [p.place, `${Math.round(p.win_rate * 100)}%`, `${Math.round(p.win_ci[0] * 100)}–${Math.round(p.win_ci[1] * 100)}%`, p.mean_place === null ? "—" : p.mean_place.toFixed(2), `${Math.round(p.not_finished * 100)}%`])));
    if (r.blocked.length) {
      const list = el("div", { id: "blocked" }, t("st_blocked", { n: r.blocked_skips.toFixed(1) }));
      for (const b of r.blocked) list.append(el("span", { class: "blocked-space", "data-space": String(b.space) }, t("st_blocked_space", { space: b.space, label: b.label, turns: b.turns })));
      out.append(list);
      if (board) { Board.clear(board, "blocked"); Board.mark(board, r.blocked.map((b) => b.space), "blocked"); }
    } else out.append(el("div", { class: "note" }, t("st_no_blocked")));
  } catch (e) { out.innerHTML = ""; out.append(el("div", { class: "error" }, e.message)); }
  document.body.dataset.simulated = String(seq);
}

// ---- boards to a brief: the form writes the brief's YAML; the server searches, the page polls ----
const gen = { id: null, timer: null, shown: new Map() };
const genVal = (id) => $s(id).value.trim();
const genSpan = (low, high) => `[${genVal(low) || 0}, ${genVal(high) || 0}]`;

function briefYaml() {
  const lines = [`name: ${JSON.stringify(genVal("gen-name") || "Brief")}`, `lanes: ${genVal("gen-lanes")}`,
    `start_places: ${genVal("gen-places")}`];
  if (genVal("gen-laps")) lines.push(`laps: ${genVal("gen-laps")}`);
  lines.push(`reserve: ${genSpan("gen-reserve-low", "gen-reserve-high")}`,
    `alley: {spaces: ${genSpan("gen-alley-low", "gen-alley-high")}}`,
    `pieces: {curves: ${genSpan("gen-curves-low", "gen-curves-high")}, chicanes: ${genSpan("gen-chicanes-low", "gen-chicanes-high")}, ` +
    `walls: ${genSpan("gen-walls-low", "gen-walls-high")}, bridges: ${genVal("gen-bridges") || 0}}`,
    `footprint_cm: [${genVal("gen-width")}, ${genVal("gen-height")}]`, `ruleset: ${$s("gen-ruleset").value}`);
  if (genVal("gen-spread")) lines.push(`balance: {spread_max: ${genVal("gen-spread")}}`);
  return lines.join("\n") + "\n";
}

function genLine(line, col) {
  const ta = $s("gen-yaml"), lines = ta.value.split("\n");
  let pos = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) pos += lines[i].length + 1;
  ta.focus();
  ta.setSelectionRange(pos + Math.max((col || 1) - 1, 0), pos + (lines[line - 1] || "").length);
}

function genBoard(b, cached) {
  const f = b.figures;
  const box = el("div", { class: "gen-board", "data-key": b.key });
  box.innerHTML = cached.svg;
  const [w, h] = b.size_cm;
  box.append(el("div", {}, el("b", {}, b.name), ` (${b.file})`),
    el("div", { class: "note" }, t("gen_board_line", { curves: b.curves, chicanes: b.chicanes, walls: b.walls, alley: b.alley_spaces,
      lap: f.lap, race: f.shortest_race.join(", "), reserve: f.reserve.join(", "), w: Math.round(w), h: Math.round(h) })),
    el("button", { class: "gen-open", onclick: () => genOpen(b, cached) }, t("gen_open")));
  if (b.balance) {
    box.insertBefore(el("div", { class: "note gen-balance" }, t("gen_spread", { spread: b.balance.spread_pp.toFixed(1), low: b.balance.ci_pp[0].toFixed(1),
      high: b.balance.ci_pp[1].toFixed(1), races: b.balance.races })), box.lastChild);
  }
  return box;
}

function genOpen(b, cached) {
  direction = "clockwise";
  if (Array.from($s("ruleset").options).some((o) => o.value === b.ruleset)) $s("ruleset").value = b.ruleset;
  $s("bundled").value = "";
  openText(cached.text, b.file, "");
  $s("yaml").scrollIntoView();
}

function genShow(r) {
  const p = r.progress;
  const where = r.racing ? "gen_racing" : !r.done ? "gen_searching" : r.stopped ? "gen_stopped" : "gen_done";
  $s("gen-status").textContent = t(where, { tried: p.tried, compiled: p.compiled,
    found: p.found, cells: p.cells, total: p.cells_total, seconds: p.seconds, shown: r.boards.length, count: r.count, races: r.races });
  for (const b of r.boards) if (b.svg !== undefined) gen.shown.set(b.key, { svg: b.svg, text: b.text });
  const out = $s("gen-boards");
  out.innerHTML = "";
  for (const b of r.boards) out.append(genBoard(b, gen.shown.get(b.key)));
  const unmet = $s("gen-unmet");
  unmet.innerHTML = "";
  if (r.failed) unmet.append(el("div", { class: "error" }, r.failed));
  if (r.unmet.length) {
    unmet.append(el("div", { class: "error" }, t("gen_unmet", { found: r.boards.length, count: r.count })));
    for (const line of r.unmet) unmet.append(el("div", { class: "note" }, line));
  }
  document.body.dataset.generated = String(r.boards.length);
}

async function genPoll() {
  if (!gen.id) return;
  try {
    const r = await api("GET", `/api/studio/generate/${gen.id}?have=${encodeURIComponent([...gen.shown.keys()].join(","))}`);
    genShow(r);
    if (r.done) { genEnd(); document.body.dataset.generateDone = "1"; return; }
  } catch (e) { $s("gen-status").textContent = e.message; genEnd(); return; }
  gen.timer = setTimeout(genPoll, 400);
}

function genEnd() { clearTimeout(gen.timer); $s("gen-start").disabled = false; $s("gen-stop").disabled = true; }

async function genStart() {
  genEnd();
  const problems = $s("gen-problems");
  problems.innerHTML = ""; $s("gen-unmet").innerHTML = ""; $s("gen-boards").innerHTML = "";
  delete document.body.dataset.generateDone;
  gen.shown.clear();
  try {
    const r = await api("POST", "/api/studio/generate", { brief: $s("gen-yaml").value, count: Number(genVal("gen-count") || 4),
      minutes: Number(genVal("gen-minutes") || 1), tries: Number(genVal("gen-tries") || 4000), seed: Number(genVal("gen-seed") || 1) });
    gen.id = r.id;
    $s("gen-start").disabled = true; $s("gen-stop").disabled = false;
    $s("gen-status").textContent = t("gen_started");
    if (r.balance) problems.append(el("div", { class: "note" }, t("gen_balance_note")));
    genPoll();
  } catch (e) {
    problems.append(el("div", { class: "error" }, t("gen_bad")));
    const found = (e.data && e.data.problems) || [];
    for (const x of found) {
      problems.append(el("div", { class: "problem error", "data-line": String(x.line), onclick: () => genLine(x.line, x.column) },
        `${x.file}:${x.line}:${x.column}: ${x.message}`));
    }
    if (!found.length) problems.append(el("div", { class: "error" }, e.message));
    document.body.dataset.generateBad = String(Number(document.body.dataset.generateBad || 0) + 1);
  }
}

async function genStop() {
  if (!gen.id) return;
  clearTimeout(gen.timer);
  try { genShow(await api("POST", `/api/studio/generate/${gen.id}/stop`, {})); } catch (e) { $s("gen-status").textContent = e.message; }
  genEnd();
  document.body.dataset.generateDone = "1";
}

function genInit(rulesets) {
  for (const r of rulesets) $s("gen-ruleset").append(el("option", { value: r.id }, r.title));
  $s("gen-ruleset").value = rulesets.some((r) => r.id === "dicetree-2022") ? "dicetree-2022" : (rulesets[0] || { id: "" }).id;
  const write = () => { $s("gen-yaml").value = briefYaml(); };
  $s("gen-form").addEventListener("input", write);
  $s("gen-form").addEventListener("change", write);
  write();
  $s("gen-start").onclick = genStart;
  $s("gen-stop").onclick = genStop;
}

// ---- opening -------------------------------------------------------------------------------
function slug(text) {
  const m = /^name:\s*(.+)$/m.exec(text);
  const s = (m ? m[1] : "course").replace(/^["']|["']$/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  return (s || "course") + ".yaml";
}

function openText(text, file, bundled) {
  $s("yaml").value = text;
  state.file = file; state.bundled = bundled || "";
  $s("file-name").textContent = file;
  $s("what-if").innerHTML = "";
  $s("simulation-panel").classList.add("hidden");
  $s("try-note").textContent = "";
  gutter([]);
  check();
}

(async () => {
  await loadText();
  applyText();
  const [cat, courses] = await Promise.all([api("GET", "/api/catalog"), api("GET", "/api/studio/courses")]);
  courseTitles = cat.course_titles || {};
  for (const c of courses) $s("bundled").append(el("option", { value: c.id, "data-file": c.file }, (cat.course_titles || {})[c.id] || c.id));
  for (const r of cat.rulesets) $s("ruleset").append(el("option", { value: r.id }, r.title));
  genInit(cat.rulesets);
  const ta = $s("yaml");
  ta.addEventListener("input", () => { if (!state.bundled && !ta.value.trim()) state.file = "course.yaml"; schedule(); });
  ta.addEventListener("scroll", () => { $s("gutter").scrollTop = ta.scrollTop; });
  $s("ruleset").onchange = check;
  $s("numbers").onchange = check;
  $s("bundled").onchange = async () => {
    const id = $s("bundled").value;
    if (!id) return;
    const opt = $s("bundled").selectedOptions[0];
    direction = id.endsWith("-ccw") ? "anticlockwise" : "clockwise";
    // the rules shown: the course's own edition (the simulation and "race it" use them)
    const edition = id.split("/")[0];
    if (Array.from($s("ruleset").options).some((o) => o.value === edition)) $s("ruleset").value = edition;
    openText(await api("GET", "/api/studio/source?course=" + encodeURIComponent(id)), opt.dataset.file, id);
  };
  $s("course-file").onchange = async () => {
    const f = $s("course-file").files[0];
    if (f) { direction = "clockwise"; openText(await f.text(), /\.ya?ml$/.test(f.name) ? f.name : slug(await f.text()), ""); }
  };
  ta.addEventListener("paste", () => setTimeout(() => { if (!state.bundled && state.file === "course.yaml") { state.file = slug(ta.value); $s("file-name").textContent = state.file; } }, 0));
  $s("download").onclick = () => save(new Blob([ta.value], { type: "text/yaml" }), state.file);
  document.querySelectorAll("button.export").forEach((b) => { b.onclick = () => exportBoard(b.dataset.format); });
  $s("search-edits").onclick = whatIf;
  $s("race").onclick = raceIt;
  $s("update-figures").onclick = updateFigures;
  $s("simulate").onclick = simulate;
  gutter([]);
  const course = new URLSearchParams(location.search).get("course");
  if (course) { $s("bundled").value = course; $s("bundled").onchange(); }
})();

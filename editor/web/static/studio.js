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
  if (!text.trim()) { $s("status").textContent = ""; clearBoard("Paste or type a course, or open one."); return; }
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
    clearBoard("No board: " + e.message);
  }
  document.body.dataset.checked = String(mine);
}

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
  $s("status").textContent = r.valid ? "valid" : `${errors} error${errors === 1 ? "" : "s"}`;
  const p = $s("problems");
  p.innerHTML = "";
  for (const x of r.problems) {
    p.append(el("div", { class: "problem " + (x.severity === "error" ? "error" : "note"), "data-line": String(x.line),
      onclick: () => gotoLine(x.line, x.column) },
    `${state.file}:${x.line}:${x.column}: ${x.severity === "warning" ? "warning: " : ""}${x.message}`));
  }
  gutter(r.problems);
  if (!r.courses.length) { clearBoard("No board: " + (r.why_no_board || "the text is not a course")); return; }
  if (!r.courses.some((c) => c.direction === direction)) direction = r.courses[0].direction;
  const tabs = $s("directions");
  tabs.innerHTML = "";
  if (r.courses.length > 1) {
    for (const c of r.courses) {
      tabs.append(el("button", { class: c.direction === direction ? "on" : "", onclick: () => { direction = c.direction; show(last); } },
        `${c.direction} (${c.id})`));
    }
  }
  showCourse(r, r.courses.find((c) => c.direction === direction));
}

function showCourse(r, c) {
  const f = $s("figures");
  f.innerHTML = "";
  if (c.figures) {
    const g = c.figures;
    f.append(el("h4", {}, `${c.name} [${c.id}] — ${c.direction}`),
      el("div", { class: "note" }, `lap ${g.lap} (inside line) · ${g.alley_extra === null ? "no alley" : "alley stop +" + g.alley_extra} · outside lanes race ${g.outside_race ?? "—"} · deck ${g.deck_points}${g.bonus_points ? " + bonus " + g.bonus_points : ""} points (${r.rules})`));
    const t = el("table", { class: "figures" }, el("tr", {}, el("th", {}, "start place"), el("th", {}, "shortest race"), el("th", {}, "reserve")));
    g.shortest_race.forEach((s, i) => t.append(el("tr", {}, el("td", {}, String(i + 1)), el("td", { class: "shortest" }, s === null ? "—" : String(s)), el("td", {}, g.reserve[i] === null ? "—" : String(g.reserve[i])))));
    f.append(t, el("div", { class: c.finishable ? "note" : "error" }, c.finishable ? "finishable on the deck" : "NOT finishable: the shortest legal race needs more points than the deck gives"));
  }
  $s("laps").innerHTML = "";
  if (!c.svg) {
    clearBoardOnly(c.svg_error ? "No board: " + c.svg_error : "No board: " + (c.why_no_board || "the course has errors"));
    $s("explain").innerHTML = "";
    return;
  }
  $s("no-board").classList.add("hidden");
  board = Board.load($s("board"), c.svg);
  const laps = c.laps || [];
  if (laps.length) {
    const bar = el("div", { id: "lap-bar" }, "Shortest race from place 1, lap by lap (as --explain counts): ");
    const all = [];
    laps.forEach((lap) => {
      all.push(...lap.spaces);
      bar.append(el("button", { class: "lap", "data-steps": String(lap.steps), onclick: (ev) => pick(lap.spaces, ev.target) },
        `${lap.name} · ${lap.steps}`));
    });
    bar.append(el("button", { class: "lap", onclick: (ev) => pick(all, ev.target) }, "whole race"),
      el("button", { onclick: () => pick([], null) }, "none"));
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
  const t = el("table", {}, el("tr", {}, ...head.map((h, i) => el("th", { class: i ? "num" : "" }, h))));
  for (const r of rows) t.append(el("tr", {}, ...r.map((c, i) => el("td", { class: i ? "num" : "" }, String(c)))));
  return t;
}

const KINDS = ["straight", "curve inside", "curve outside", "chicane", "section", "alley"];

function shortenable(u) {
  return u.passes.every((p) => p.lanes.every((lane) => (u.kind === "alley" ? u.lengths[0] : u.lengths[lane]) > 1));
}

function showExplain(ex) {
  const box = $s("explain");
  box.innerHTML = "";
  if (!ex) return;
  const places = ex.places.filter((p) => p.race !== null);
  if (!places.length) { box.append(el("div", { class: "error" }, "no start place can finish: nothing to break down")); return; }
  const laps = Array.from({ length: ex.laps }, (_, k) => `lap ${k + 1}`);
  box.append(el("div", {}, "The shortest legal race taken apart, step by step (each step counted once, on the space it lands on):"),
    table(["place", "run-up", ...laps, "= race", "alley stop"],
      places.map((p) => [p.place, ...p.by_lap, p.race, p.alley_stop_lap ? `lap ${p.alley_stop_lap}` : "—"])));
  const kinds = KINDS.filter((k) => places.some((p) => p.by_kind[k]));
  box.append(el("div", {}, "By kind of piece:"), table(["place", ...kinds, "= race"], places.map((p) => [p.place, ...kinds.map((k) => p.by_kind[k]), p.race])));
  if (ex.alley_detour !== null) box.append(el("div", {}, `alley detour: +${ex.alley_detour} (place 1 without the stop: ${ex.race_without_stop})`));
  const first = places[0];
  const names = [];
  for (const p of places) for (const u of p.pieces) if (!names.includes(u.piece)) names.push(u.piece);
  const rows = names.map((name) => {
    const u = first.pieces.find((x) => x.piece === name);
    const steps = places.map((p) => (p.pieces.find((x) => x.piece === name) || { steps: 0 }).steps);
    if (!u) return [name, "", "", "—", ...steps, "—"];
    const lanes = u.kind === "alley" ? u.passes.map(() => "alley").join(" / ") : u.passes.map((p) => p.lanes.join("→")).join(" / ");
    const saves = u.passes.length && shortenable(u) ? u.saving_per_space : "—";
    return [name, u.kind, u.kind === "alley" ? u.lengths[0] : `[${u.lengths.join(", ")}]`, lanes || "—", ...steps, saves];
  });
  rows.push(["total", "", "", "", ...places.map((p) => p.race), ""]);
  box.append(el("div", {}, `By piece — steps per start place; place ${first.place}'s lanes on each pass; what one space less in those lanes saves:`),
    table(["piece", "kind", "lengths", "lanes", ...places.map((p) => String(p.place)), "saves"], rows));
  for (const c of ex.curves) box.append(el("div", { class: "note" }, `${c.piece} [${c.lengths.join(", ")}]: lanes ${c.lanes_used.map((l) => l.join("→")).join(" / ")} — the outside costs +${c.outside_cost} a pass`));
  const gains = first.pieces.filter((u) => u.kind !== "alley" && u.passes.length && shortenable(u));
  const top = Math.max(0, ...gains.map((u) => u.saving_per_space));
  if (top) box.append(el("div", { class: "cheapest" }, `cheapest points: one space less in the lane the race uses saves ${top} in ${gains.filter((u) => u.saving_per_space === top).map((u) => u.piece).join(", ")} (check with "Search edits")`));
}

// ---- --what-if as a panel ---------------------------------------------------------------------
function whatIfEntry(w, note) {
  const box = el("div", { class: "what-if-entry" + (w.warnings.length ? " warned" : "") });
  w.edits.forEach((e, i) => {
    const where = e.in_this_file ? el("a", { onclick: () => gotoLine(e.line, 1) }, `${e.file}:${e.line}`) : `${e.file}:${e.line}`;
    box.append(el("div", { class: "edit" }, i ? "+ " : "", where, `: ${e.edit}`));
  });
  const f = w.figures;
  const drawing = w.edits.length > 1 ? (w.closes ? " · the drawing closes" : " · the drawing does not close") : (note && !w.closes ? " · the drawing no longer closes" : "");
  box.append(el("div", { class: "note" }, `lap ${f.lap} · alley ${f.alley_extra === null ? "—" : "+" + f.alley_extra} · race ${f.shortest_race.map((r) => r ?? "—").join(", ")} · reserve ${f.reserve.map((r) => r ?? "—").join(", ")}${drawing}`));
  for (const m of w.warnings) box.append(el("div", { class: "note" }, "warning: " + m));
  return box;
}

async function whatIf() {
  const out = $s("what-if");
  out.innerHTML = "";
  $s("what-if-status").textContent = "searching…";
  const reserve = Number($s("reserve").value || 0);
  try {
    const r = await api("POST", "/api/studio/what-if", request({ reserve }));
    $s("what-if-status").textContent = "";
    const target = reserve === 0 ? "finishable: reserve ≥ 0 at every place" : `keep at least ${reserve} in reserve at every place`;
    if (r.found.length) {
      out.append(el("div", {}, `${r.found.length} of ${r.tried} one-space edits make the course ${target} (deck ${r.budget}); best first:`));
      for (const w of r.found) out.append(whatIfEntry(w, true));
    } else {
      out.append(el("div", {}, `None of the ${r.tried} one-space edits makes the course ${target} (deck ${r.budget}).`));
      out.append(el("div", { class: "short" }, "short of the target by: " + r.short.map((s, i) => `place ${i + 1} ${s === null ? "cannot finish" : s}`).join(", ")));
      if (r.combinations.length) {
        out.append(el("div", {}, `${r.combinations.length} combination${r.combinations.length === 1 ? "" : "s"} of up to three edits ${r.combinations.length === 1 ? "does" : "do"} (best first; ${r.combinations_tried} of the ${r.combinations_considered} the single edits point at recompiled):`));
        for (const w of r.combinations) out.append(whatIfEntry(w, false));
      } else {
        out.append(el("div", { class: "note" }, r.combinations_considered ? "no combination of up to three edits does either" : "no combination of up to three one-space edits saves that much: shorten the course by more"));
      }
    }
    if (r.closing.length) {
      out.append(el("div", {}, "To keep the drawing closed, make the same change on the other side — these pairs do:"));
      for (const w of r.closing) out.append(whatIfEntry(w, false));
    }
    if (r.invalid.length) {
      out.append(el("div", { class: "note" }, `${r.invalid.length} edit${r.invalid.length === 1 ? "" : "s"} would make the course invalid:`));
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
  if (!r.ok) { const e = await r.json().catch(() => ({})); $s("try-note").textContent = "Cannot export: " + (e.error || r.statusText); return; }
  const m = /filename="([^"]+)"/.exec(r.headers.get("content-disposition") || "");
  save(await r.blob(), m ? m[1] : `${state.file.replace(/\.ya?ml$/, "")}.${format}`);
}

async function updateFigures() {
  $s("try-note").textContent = "";
  try {
    const r = await api("POST", "/api/studio/update-figures", request());
    if (!r.changed) { $s("try-note").textContent = `The declared figures hold (${r.rules}): nothing to update.`; return; }
    $s("yaml").value = r.text;
    $s("try-note").textContent = `Updated the figures (${r.rules}), line${r.lines.length === 1 ? "" : "s"} ${r.lines.join(", ")} — download the file to keep them.`;
    check();
  } catch (e) { $s("try-note").textContent = "Cannot update the figures: " + e.message; }
  document.body.dataset.updated = String(seq);
}

async function raceIt() {
  $s("try-note").textContent = "";
  try {
    const r = await api("POST", "/api/studio/try", request());
    $s("try-note").innerHTML = "";
    $s("try-note").append(`Race ${r.name}${r.ruleset ? " under " + r.ruleset : ""}: `, el("a", { id: "play-link", href: r.play, target: "_blank" }, `${location.origin}${r.play}`));
    window.open(r.play, "_blank");
  } catch (e) { $s("try-note").textContent = "Cannot race it yet: " + e.message; }
}

async function simulate() {
  const panel = $s("simulation-panel"), out = $s("simulation");
  panel.classList.remove("hidden");
  out.innerHTML = "";
  out.append(el("div", { class: "note" }, "racing…"));
  try {
    const r = await api("POST", "/api/studio/simulate", request({ races: Number($s("sim-races").textContent) }));
    out.innerHTML = "";
    out.append(el("div", {}, `${r.races} races${r.races < r.asked ? ` (of ${r.asked}: a race takes long on this course)` : ""}, ${r.players} ${r.bots.join("/")} bots, ${r.ruleset}${r.variants.length ? " + " + r.variants.join(", ") : ""}, in ${r.seconds} s — finish rate ${Math.round(r.finish_rate * 100)}%, balance ${r.balance.toFixed(2)}${r.deadlocks ? `, ${r.deadlocks} deadlocks` : ""}`));
    if (r.finish_rate === 0) out.append(el("div", { class: "error" }, `no chariot finished: under ${r.ruleset} the course is not finishable (see the figures above)`));
    out.append(table(["start place", "win rate", "95% interval", "mean place", "not finished"],
      r.by_place.map((p) => [p.place, `${Math.round(p.win_rate * 100)}%`, `${Math.round(p.win_ci[0] * 100)}–${Math.round(p.win_ci[1] * 100)}%`, p.mean_place === null ? "—" : p.mean_place.toFixed(2), `${Math.round(p.not_finished * 100)}%`])));
    if (r.blocked.length) {
      const list = el("div", { id: "blocked" }, `Where chariots get blocked (${r.blocked_skips.toFixed(1)} blocked turns a race; outlined red on the board): `);
      for (const b of r.blocked) list.append(el("span", { class: "blocked-space", "data-space": String(b.space) }, `space ${b.space} (${b.label}): ${b.turns} turns · `));
      out.append(list);
      if (board) { Board.clear(board, "blocked"); Board.mark(board, r.blocked.map((b) => b.space), "blocked"); }
    } else out.append(el("div", { class: "note" }, "no chariot was blocked"));
  } catch (e) { out.innerHTML = ""; out.append(el("div", { class: "error" }, e.message)); }
  document.body.dataset.simulated = String(seq);
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
  const [cat, courses] = await Promise.all([api("GET", "/api/catalog"), api("GET", "/api/studio/courses")]);
  for (const c of courses) $s("bundled").append(el("option", { value: c.id, "data-file": c.file }, c.id));
  for (const r of cat.rulesets) $s("ruleset").append(el("option", { value: r.id }, r.title));
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

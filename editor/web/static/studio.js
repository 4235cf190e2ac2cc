// The course studio: the text is checked by the server (the CLI's reading, checks and
// figures) within a moment of a pause in typing; board, figures and problems follow.
"use strict";
const $s = (id) => document.getElementById(id);
let timer = null, seq = 0;

function schedule() { clearTimeout(timer); $s("status").textContent = "…"; timer = setTimeout(check, 350); }

async function check() {
  const mine = ++seq;
  const text = $s("yaml").value;
  if (!text.trim()) { $s("status").textContent = ""; return; }
  try {
    const r = await api("POST", "/api/studio/check", { text, ruleset: $s("ruleset").value });
    if (mine !== seq) return;  // a newer text is on its way
    show(r);
  } catch (e) { if (mine === seq) { $s("status").textContent = ""; $s("problems").innerHTML = ""; $s("problems").append(el("div", { class: "error" }, e.message)); } }
}

function gotoLine(line, col) {
  const ta = $s("yaml");
  const lines = ta.value.split("\n");
  let pos = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) pos += lines[i].length + 1;
  ta.focus(); ta.setSelectionRange(pos + Math.max(col - 1, 0), pos + (lines[line - 1] || "").length);
}

function show(r) {
  document.body.dataset.checked = String(seq);
  $s("status").textContent = r.valid ? "valid" : `${r.problems.length} problem${r.problems.length === 1 ? "" : "s"}`;
  const p = $s("problems");
  p.innerHTML = "";
  for (const x of r.problems) {
    p.append(el("div", { class: "problem " + (x.severity === "error" ? "error" : "note"), onclick: () => gotoLine(x.line, x.column) },
      `line ${x.line}, column ${x.column}: ${x.severity === "warning" ? "warning: " : ""}${x.message}`));
  }
  const f = $s("figures");
  f.innerHTML = "";
  let svg = null;
  for (const c of r.courses) {
    if (c.svg && !svg) svg = c.svg;
    if (!c.figures) continue;
    const g = c.figures;
    f.append(el("h4", {}, `${c.name} — ${c.direction}`),
      el("div", { class: "note" }, `lap ${g.lap} · ${g.alley_extra === null ? "no alley" : "alley stop +" + g.alley_extra} · outside lanes ${g.outside_race ?? "—"} · deck ${g.deck_points}${g.bonus_points ? " + bonus " + g.bonus_points : ""} (${r.rules})`));
    const t = el("table", { class: "figures" }, el("tr", {}, el("th", {}, "start place"), el("th", {}, "shortest race"), el("th", {}, "reserve")));
    g.shortest_race.forEach((s, i) => t.append(el("tr", {}, el("td", {}, String(i + 1)), el("td", { class: "shortest" }, s === null ? "—" : String(s)), el("td", {}, g.reserve[i] === null ? "—" : String(g.reserve[i])))));
    f.append(t, el("div", { class: c.finishable ? "note" : "error" }, c.finishable ? "finishable on the deck" : "NOT finishable: the shortest legal race needs more points than the deck gives"));
  }
  if (svg) {
    const board = Board.load($s("board"), svg);
    const laps = (r.courses.find((c) => c.svg) || {}).laps || [];
    if (laps.length) {
      const bar = el("div", { id: "laps" }, "Shortest race from place 1, lap by lap: ");
      laps.forEach((lap, i) => bar.append(el("button", { class: "lap", onclick: () => {
        Board.clear(board, "path"); Board.mark(board, lap, "path");
      } }, `lap ${i + 1} (${lap.length} spaces)`)));
      bar.append(el("button", { onclick: () => Board.clear(board, "path") }, "none"));
      f.append(bar);
    }
  }
  else if (r.courses.length === 0) $s("board").innerHTML = "";
}

(async () => {
  const cat = await api("GET", "/api/catalog");
  for (const c of cat.courses) $s("bundled").append(el("option", { value: c }, c));
  for (const r of cat.rulesets) $s("ruleset").append(el("option", { value: r.id }, r.title));
  $s("yaml").addEventListener("input", schedule);
  $s("ruleset").onchange = check;
  $s("bundled").onchange = async () => {
    if (!$s("bundled").value) return;
    $s("yaml").value = await api("GET", "/api/studio/source?course=" + encodeURIComponent($s("bundled").value));
    check();
  };
  $s("course-file").onchange = async () => {
    const f = $s("course-file").files[0];
    if (f) { $s("yaml").value = await f.text(); check(); }
  };
  $s("download").onclick = () => {
    const a = el("a", { href: URL.createObjectURL(new Blob([$s("yaml").value], { type: "text/yaml" })), download: "course.yaml" });
    document.body.append(a); a.click(); a.remove();
  };
  const course = new URLSearchParams(location.search).get("course");
  if (course) { $s("bundled").value = course; $s("bundled").onchange(); }
})();

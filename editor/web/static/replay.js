// The replay viewer: frames of a record (from the server, or embedded by `replay --html`).
"use strict";
const R = { data: null, board: null, i: 0, timer: null };
const $r = (id) => document.getElementById(id);

function startViewer(data, svg) {
  R.data = data;
  $r("viewer").classList.remove("hidden");
  if ($r("pick")) $r("pick").classList.add("hidden");
  $r("title").textContent = `${data.course} · ${data.ruleset}${data.variants.length ? " + " + data.variants.join(", ") : ""}` +
    (data.public ? " · in progress: what the table has seen" : ` · seed ${data.seed}`) + ` · ${data.record}`;
  if ($r("hands-title")) $r("hands-title").textContent = data.public ? "Chariots (hands hidden while the race runs)" : "Chariots (all hands shown)";
  R.board = Board.load($r("board"), svg);
  $r("jump").max = data.frames.length - 1;
  showFrame(0);
}

function showFrame(i) {
  const frames = R.data.frames;
  R.i = Math.max(0, Math.min(i, frames.length - 1));
  const f = frames[R.i];
  document.body.dataset.ply = R.i;
  const chariots = f.chariots.map((c, k) => ({ letter: R.data.letters[k], pos: c.pos, colour: R.data.colours[k] }));
  Board.chariots(R.board, chariots);
  Board.clear(R.board, "path");
  Board.mark(R.board, f.path || [], "path");
  $r("ply-shown").textContent = `ply ${R.i} / ${frames.length - 1}`;
  $r("legal").textContent = f.chariot === null ? "start position" : f.legal === null ? `${f.chariot} moved` : `${f.chariot} had ${f.legal} legal move${f.legal === 1 ? "" : "s"}`;
  const ev = $r("events");
  ev.innerHTML = "";
  for (const e of f.events) ev.append(el("div", { class: "event" }, e));
  const t = $r("hands");
  t.innerHTML = "";
  t.append(el("tr", {}, ...["", "chariot", "space", "lap", "coin", "hand", ""].map((h) => el("th", {}, h))));
  f.chariots.forEach((c, k) => {
    const st = { r: "", f: "finished", x: "removed" }[c.status] + (c.dq ? " disqualified" : "");
    t.append(el("tr", { class: "hand-row" }, el("td", {}, el("span", { class: "swatch", style: `background:${R.data.colours[k]}` })),
      el("td", {}, `${R.data.letters[k]} ${R.data.names[k]}`), el("td", {}, c.pos === null ? "–" : String(c.pos)),
      el("td", {}, `${c.lap}/${R.data.laps}`), el("td", {}, c.coin === "held" ? "coin held" : "coin paid"),
      el("td", { class: "hand" }, c.hand ? c.hand.join(" ") : `${c.cards} cards`), el("td", {}, st)));
  });
  const res = $r("result");
  res.innerHTML = "";
  if (R.i === frames.length - 1 && R.data.result) {
    res.append(el("h4", {}, "Result"));
    for (const p of R.data.result.placings) res.append(el("div", { class: "placing" }, `${p.place ? p.place + "." : "–"} ${R.data.letters[p.chariot]} ${p.name}: ${p.points} points${p.disqualified ? " (disqualified)" : ""}`));
  }
}

function togglePlay() {
  if (R.timer) { clearInterval(R.timer); R.timer = null; $r("play").textContent = "play"; return; }
  $r("play").textContent = "pause";
  R.timer = setInterval(() => {
    if (R.i >= R.data.frames.length - 1) { togglePlay(); return; }
    showFrame(R.i + 1);
  }, Number($r("speed").value));
}

$r("first").onclick = () => showFrame(0);
$r("back").onclick = () => showFrame(R.i - 1);
$r("forward").onclick = () => showFrame(R.i + 1);
$r("last").onclick = () => showFrame(R.data.frames.length - 1);
$r("play").onclick = togglePlay;
$r("speed").onchange = () => { if (R.timer) { togglePlay(); togglePlay(); } };
$r("go").onclick = () => showFrame(Number($r("jump").value));
document.addEventListener("keydown", (e) => {
  if (!R.data || e.target.tagName === "INPUT") return;
  if (e.key === "ArrowRight") showFrame(R.i + 1);
  if (e.key === "ArrowLeft") showFrame(R.i - 1);
});

async function openRecord(name) {
  const data = await api("GET", "/api/replay/" + encodeURIComponent(name));
  const svg = await api("GET", "/api/board?course=" + encodeURIComponent(data.course_ref));
  startViewer(data, svg);
}

async function pickPage() {
  const params = new URLSearchParams(location.search);
  if (params.get("record")) {
    try { await openRecord(params.get("record")); return; } catch (e) { $r("pick-error").textContent = e.message; }
  }
  const saves = await api("GET", "/api/saves");
  const box = $r("records");
  box.innerHTML = "";
  for (const s of saves) {
    if (s.broken) continue;
    box.append(el("div", {}, el("a", { href: "/replay?record=" + encodeURIComponent(s.record), class: "record" }, s.record),
      ` — ${s.ruleset} · ${s.course} · ${s.players.join(", ")} · ${s.turns} turns${s.over ? "" : " (in progress)"}`));
  }
  if (!saves.length) box.textContent = "none yet";
  $r("record-file").onchange = async () => {
    const f = $r("record-file").files[0];
    if (!f) return;
    try {
      const r = await api("POST", "/api/records", { text: await f.text() });
      location.search = "?record=" + encodeURIComponent(r.record);
    } catch (e) { $r("pick-error").textContent = e.message; }
  };
}

if (window.REPLAY_DATA) startViewer(window.REPLAY_DATA, window.REPLAY_SVG);
else pickPage();

// The replay viewer: frames of a record (from the server, or embedded by `replay --html`).
"use strict";
const R = { data: null, board: null, i: 0, timer: null };
const $r = (id) => document.getElementById(id);

function startViewer(data, svg) {
  R.data = data;
  $r("viewer").classList.remove("hidden");
  if ($r("pick")) $r("pick").classList.add("hidden");
  $r("title").textContent = `${data.course_title || data.course} · ${data.rules_title || data.ruleset}` +
    (data.public ? t("rp_in_progress") : t("rp_seed", { seed: data.seed })) + ` · ${data.record}`;
  if ($r("hands-title")) $r("hands-title").textContent = t(data.public ? "rp_hands_hidden" : "rp_hands_all");
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
  $r("ply-shown").textContent = t("rp_ply_of", { i: R.i, n: frames.length - 1 });
  $r("legal").textContent = f.chariot === null ? t("rp_start_position") : f.legal === null ? t("rp_moved", { chariot: f.chariot }) : t(f.legal === 1 ? "rp_legal_one" : "rp_legal", { chariot: f.chariot, n: f.legal });
  const ev = $r("events");
  ev.innerHTML = "";
  for (const e of f.events) ev.append(el("div", { class: "event" }, e));
  const tbl = $r("hands");
  tbl.innerHTML = "";
  tbl.append(el("tr", {}, ...["", "h_chariot", "rp_h_space", "h_lap", "rp_h_coin", "rp_h_hand", ""].map((h) => el("th", {}, h ? t(h) : ""))));
  f.chariots.forEach((c, k) => {
    const st = [{ r: "", f: t("finished"), x: t("removed") }[c.status], c.dq ? t("disqualified") : ""].filter(Boolean).join(", ");
    tbl.append(el("tr", { class: "hand-row" }, el("td", {}, el("span", { class: "swatch", style: `background:${R.data.colours[k]}` })),
      el("td", {}, `${R.data.letters[k]} ${R.data.names[k]}`), el("td", {}, c.pos === null ? "–" : String(c.pos)),
      el("td", {}, `${Math.min(c.lap, R.data.laps)}/${R.data.laps}`), el("td", {}, t(c.coin === "held" ? "rp_coin_held" : "rp_coin_paid")),
      el("td", { class: "hand" }, c.hand ? c.hand.join(" ") : t("rp_cards", { n: c.cards })), el("td", {}, st)));
  });
  const res = $r("result");
  res.innerHTML = "";
  if (R.i === frames.length - 1 && R.data.result) {
    res.append(el("h4", {}, t("rp_result")));
    for (const p of R.data.result.placings) {
      res.append(el("div", { class: "placing" }, t("rp_placing", { place: p.place ? p.place + "." : "–", letter: R.data.letters[p.chariot],
        name: p.name, points: p.points, notes: p.disqualified ? ` (${t("disqualified")})` : "" })));
    }
  }
}

function togglePlay() {
  if (R.timer) { clearInterval(R.timer); R.timer = null; $r("play").textContent = t("rp_play"); return; }
  $r("play").textContent = t("rp_pause");
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
      t("rp_row", { rules: s.rules_title || s.ruleset, course: s.course_title || s.course, players: s.players.join(", "), turns: s.turns, running: s.over ? "" : t("rp_running") })));
  }
  if (!saves.length) box.textContent = t("none_yet");
  $r("record-file").onchange = async () => {
    const f = $r("record-file").files[0];
    if (!f) return;
    try {
      const r = await api("POST", "/api/records", { text: await f.text() });
      location.search = "?record=" + encodeURIComponent(r.record);
    } catch (e) { $r("pick-error").textContent = e.message; }
  };
}

(async () => {
  await loadText();
  applyText();
  if (window.REPLAY_DATA) startViewer(window.REPLAY_DATA, window.REPLAY_SVG);
  else pickPage();
})();

// The board: the board geometry's SVG of the course (editor/render/board.py), every space a
// <g id="space-N" class="space …"> holding its <polygon data-space="N"> and its text; the
// group's data-x, data-y say where its text stands (SVG units).
"use strict";
const Board = {
  load(container, svgText) {
    container.innerHTML = svgText;
    const spaces = new Map();
    container.querySelectorAll("polygon[data-space]").forEach((poly) => {
      const g = poly.closest("g.space");
      if (g) { g.dataset.space = poly.dataset.space; spaces.set(Number(poly.dataset.space), g); }
    });
    return { container, spaces, marks: [], svg: container.querySelector("svg") };
  },
  clear(board, cls) {
    board.container.querySelectorAll("g.space." + cls).forEach((g) => g.classList.remove(cls));
  },
  mark(board, ids, cls) {
    for (const id of ids) { const g = board.spaces.get(id); if (g) g.classList.add(cls); }
  },
  // the centre of a space's text, in the SVG's own units
  centre(board, id) {
    const g = board.spaces.get(id);
    return g ? { x: Number(g.dataset.x), y: Number(g.dataset.y) } : null;
  },
  // chariots: [{letter, pos, colour}] — the space takes the chariot's colour and letter
  chariots(board, chariots) {
    for (const m of board.marks) { m.poly.setAttribute("fill", m.fill); m.text.remove(); m.g.classList.remove("chariot-on"); m.hidden.forEach((t) => t.removeAttribute("visibility")); }
    board.marks = [];
    for (const c of chariots) {
      if (c.pos === null || c.pos === undefined) continue;
      const g = board.spaces.get(c.pos);
      if (!g) continue;
      const poly = g.querySelector("polygon");
      const hidden = Array.from(g.querySelectorAll("text")).concat(
        Array.from(board.container.querySelectorAll(`g[data-number-of="${c.pos}"] text`)));
      hidden.forEach((t) => t.setAttribute("visibility", "hidden"));
      const text = document.createElementNS("http://www.w3.org/2000/svg", "text");
      text.setAttribute("x", g.dataset.x);
      text.setAttribute("y", Number(g.dataset.y) + 5);
      text.setAttribute("text-anchor", "middle");
      text.setAttribute("class", "chariot-letter");
      text.textContent = c.letter;
      g.appendChild(text);
      board.marks.push({ g, poly, fill: poly.getAttribute("fill"), text, hidden });
      poly.setAttribute("fill", c.colour);
      g.classList.add("chariot-on");
    }
  },
};
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

// The board: the Graphviz SVG of the course, every space a <g id="space-N">.
"use strict";
const Board = {
  load(container, svgText) {
    container.innerHTML = svgText;
    const spaces = new Map();
    container.querySelectorAll("g.space").forEach((g) => {
      const m = /^space-(\d+)$/.exec(g.id);
      if (m) { g.dataset.space = m[1]; spaces.set(Number(m[1]), g); }
    });
    return { container, spaces, marks: [] };
  },
  clear(board, cls) {
    board.container.querySelectorAll("g.space." + cls).forEach((g) => g.classList.remove(cls));
  },
  mark(board, ids, cls) {
    for (const id of ids) { const g = board.spaces.get(id); if (g) g.classList.add(cls); }
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
      const hidden = Array.from(g.querySelectorAll("text"));
      hidden.forEach((t) => t.setAttribute("visibility", "hidden"));
      const box = poly.getBBox();
      const text = document.createElementNS("http://www.w3.org/2000/svg", "text");
      text.setAttribute("x", box.x + box.width / 2);
      text.setAttribute("y", box.y + box.height / 2 + 5);
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

// Every sentence the Play page shows comes from the one catalog the server speaks from too
// (editor/render/catalog.json, its "page" section, every message in every language), loaded
// by loadText() from /api/text before the page starts. t(key, {name: ...}) fills in the
// {fields}; elements with data-t="key" get the text, data-t-title="key" a tooltip,
// data-t-aria="key" an aria-label. The language: the one chosen on this device (the
// header's menu, kept in localStorage), else the browser's, else English. The server's own
// sentences (why a move is not allowed, with the rule's citation; the log) follow it: every
// request names it (api.js sends Accept-Language, the live socket's first message "lang").
"use strict";
let TEXT = { en: {} };
let LANGUAGES = { en: "English" };
let LANG = "en";

async function loadText() {
  // a page written as one file (replay --html) carries its words: no server to ask
  const data = window.PAGE_TEXT || await (await fetch("/api/text")).json();
  LANGUAGES = data.languages;
  TEXT = {};
  for (const [key, byLang] of Object.entries(data.page)) {
    for (const [lang, text] of Object.entries(byLang)) (TEXT[lang] = TEXT[lang] || {})[key] = text;
  }
  let saved = null;
  try { saved = localStorage.getItem("avecaesar-lang"); } catch (e) { saved = null; }
  const wanted = [saved, ...(navigator.languages || [navigator.language])].filter(Boolean)
    .map((x) => String(x).toLowerCase().split(/[-_]/)[0]);
  LANG = window.PAGE_TEXT ? data.lang : (wanted.find((l) => TEXT[l]) || "en");
  document.documentElement.lang = LANG;
  const menu = document.getElementById("lang-choice");
  if (menu) {
    menu.innerHTML = "";
    for (const [code, name] of Object.entries(LANGUAGES)) {
      const o = document.createElement("option");
      o.value = code; o.textContent = name; o.selected = code === LANG;
      menu.appendChild(o);
    }
    menu.onchange = () => {
      try { localStorage.setItem("avecaesar-lang", menu.value); } catch (e) { /* private mode */ }
      location.reload();
    };
  }
}

function t(key, vars) {
  const table = TEXT[LANG] || TEXT.en;
  let s = table[key] !== undefined ? table[key] : (TEXT.en[key] !== undefined ? TEXT.en[key] : key);
  for (const [k, v] of Object.entries(vars || {})) s = s.split(`{${k}}`).join(String(v));
  return s;
}

function applyText(root) {
  (root || document).querySelectorAll("[data-t]").forEach((e) => { e.textContent = t(e.dataset.t); });
  (root || document).querySelectorAll("[data-t-title]").forEach((e) => { e.title = t(e.dataset.tTitle); });
  (root || document).querySelectorAll("[data-t-placeholder]").forEach((e) => { e.placeholder = t(e.dataset.tPlaceholder); });
  (root || document).querySelectorAll("[data-t-aria]").forEach((e) => { e.setAttribute("aria-label", t(e.dataset.tAria)); });
}

"use strict";
// A JSON request; headers: extra headers (the table token). An answer that is not 2xx is
// thrown as an Error carrying the server's message, its status and its data.
async function api(method, url, body, headers) {
  const opts = { method, headers: { ...(headers || {}) } };
  // the page's language (play_text.js): the server answers in it
  if (typeof LANG !== "undefined") opts.headers["accept-language"] = LANG;
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["content-type"] = "application/json"; }
  const r = await fetch(url, opts);
  const type = r.headers.get("content-type") || "";
  const data = type.includes("json") ? await r.json() : await r.text();
  if (!r.ok) { const e = new Error((data && data.error) || r.statusText); e.data = data; e.status = r.status; throw e; }
  return data;
}

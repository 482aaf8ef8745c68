// Talking to the server's REST API (docs/api.md): JSON in and out, the session
// cookie for identity and the X-CSRFToken header on every write, as Django's
// CSRF protection asks of session-authenticated requests.

export class ApiError extends Error {
  constructor(status, code, message, body) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

export function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return "";
}

// A request unanswered this long counts as one the server never got: on a
// line that died without a close, a fetch gets neither an answer nor an error
// for minutes (a move's POST left the table on "Sending your move…", a hung
// poll stopped the polling). A move's command_id makes a resend harmless.
const ANSWER_WAIT_MS = 15000;

export async function api(path, { method = "GET", body, signal } = {}) {
  const headers = { Accept: "application/json" };
  // The caller's own signal, or the wait above.
  const timer = signal ? null : new AbortController();
  const timeout = timer ? setTimeout(() => timer.abort(), ANSWER_WAIT_MS) : null;
  if (method !== "GET") {
    headers["Content-Type"] = "application/json";
    headers["X-CSRFToken"] = cookie("csrftoken");
  }
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      signal: signal || timer.signal,
    });
  } catch (err) {
    clearTimeout(timeout);
    if (err.name === "AbortError" && signal) throw err;
    throw new ApiError(0, "offline", "The server cannot be reached; retrying…");
  }
  let text;
  try {
    text = await response.text();
  } catch (err) {
    if (err.name === "AbortError" && signal) throw err;
    throw new ApiError(0, "offline", "The server cannot be reached; retrying…");
  } finally {
    clearTimeout(timeout);
  }
  if (response.status === 204) return null;
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const code = (data && data.code) || `http_${response.status}`;
    const message = (data && data.message) || `The server answered ${response.status}.`;
    throw new ApiError(response.status, code, message, data);
  }
  return data;
}

// The game catalogue (GET /api/games/) changes only with a deploy: fetch it
// once per page and share it.
let catalogue = null;
export function games() {
  if (!catalogue) {
    catalogue = api("/api/games/").then((list) => {
      const byName = {};
      for (const game of list) byName[game.name] = game;
      return byName;
    });
  }
  return catalogue;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A list answer's rows, whether it came bare or paginated (``results``).
export function results(data) {
  if (Array.isArray(data)) return data;
  if (data && Array.isArray(data.results)) return data.results;
  return [];
}

// Under a list the API pages (docs/api.md, "Pagination"): a line saying how
// many of how many are shown, and a "Show more" button that asks this origin
// for the next page and appends its rows to `list`. `whole`: say the count
// even when the first page holds everything. Returns the two nodes, to put
// under the list.
export function pager({ data, list, row, noun, name, more, whole = true }) {
  const shown = el("p", { class: "hint", id: `${name}-shown` });
  const button = el("button", { type: "button", class: "button ghost", id: `${name}-more` }, more);
  let next = data.next;
  const paged = whole || (Boolean(data.count) && data.count > list.children.length);
  const update = () => {
    shown.textContent = `Showing ${list.children.length} of ${plural(data.count, noun)}.`;
    shown.hidden = !paged;
    button.hidden = !next;
  };
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      // The API's link is absolute; ask this origin for its path.
      const url = new URL(next, window.location.href);
      const page = await api(url.pathname + url.search);
      list.append(...results(page).map(row));
      next = page.next;
    } finally {
      button.disabled = false;
      update();
    }
  });
  update();
  return [shown, button];
}

// The muted line a page shows where there is nothing to list yet.
export function emptyState(text) {
  return el("p", { class: "empty" }, text);
}

// A wide table in a box of its own that scrolls sideways when the table is
// wider than its panel (a phone), so the page never does. The box takes focus,
// so that a keyboard can scroll it too, and is named by `label`.
export function scrollBox(label, table) {
  return el("div", { class: "table-scroll", tabindex: "0", role: "group", "aria-label": label }, table);
}

export function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

export function currentUser() {
  return document.body.dataset.user || null;
}

export function showError(node, message) {
  if (!node) return;
  node.textContent = message || "";
  node.hidden = !message;
}

export function timeAgo(iso) {
  if (!iso) return "";
  const seconds = Math.max(0, (Date.now() - new Date(iso).getTime()) / 1000);
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}

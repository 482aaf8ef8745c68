// Opening a table from the browser: the lobby's create form and one-click
// matches, and the finished table's "Play again". One place, so a match
// against bots is opened, filled and started the same way from either page.
import { api } from "./api.js";

// The create request's id (docs/api.md, "request_id"). The same settings sent
// again (a retry after an error or a lost answer) reuse it, so the server
// answers with the table the first attempt opened instead of a second one.
let pendingCreate = null;

function newRequestId() {
  if (window.crypto.randomUUID) return window.crypto.randomUUID();
  // randomUUID needs a secure context; a server reached over plain http on a
  // local network is not one.
  const bytes = window.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function requestIdFor(body) {
  const key = JSON.stringify(body);
  if (!pendingCreate || pendingCreate.key !== key) pendingCreate = { key, id: newRequestId() };
  return pendingCreate.id;
}

// Back on a page the browser kept (the back-forward cache), the next click is
// a new table, not a retry of the last one.
export function forgetPendingCreate() {
  pendingCreate = null;
}

// Create the table; with fill "bots", fill every empty seat and start it;
// then go to it.
export async function openTable({ game, players, options, rated, timeControl, fill, level }) {
  const body = { game, players, options, rated };
  if (timeControl) body.time_control = timeControl;
  body.request_id = requestIdFor(body);
  const table = await api("/api/tables/", { method: "POST", body });
  if (fill === "bots" && table.status === "lobby") {
    // Every empty seat in one request, under the table's lock: someone who
    // joins the open table meanwhile keeps the seat they got and plays, or is
    // told it is full; a bot per seat in turn would have failed on the seat
    // they took and left the table unstarted.
    for (let attempt = 1; ; attempt += 1) {
      await api(`/api/tables/${table.id}/bots/`, { method: "POST", body: { fill: true, level } });
      try {
        await api(`/api/tables/${table.id}/start/`, { method: "POST" });
        break;
      } catch (err) {
        // Someone who had joined left before the deal: fill their seat too.
        if (err.code !== "seats_empty" || attempt >= 3) throw err;
      }
    }
  }
  window.location.assign(`/tables/${table.id}/`);
}

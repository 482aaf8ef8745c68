// One table's live state on the client: a small state machine fed by the
// WebSocket (live protocol: state / error / presence / pong frames) and, when
// the socket is not there or drops, by REST polling of the same table
// (GET /api/tables/{id}/ and /events/?after=n). Either way the client keeps
// `seq`, the seat's `view`, its `legal_actions` and every event it has seen,
// so a reconnect resyncs from `seq` and loses nothing.
import { api, ApiError } from "./api.js";

const POLL_MS = 1200;
const PING_MS = 20000;
// A ping unanswered this long: the line is dead though the socket looks open.
const PONG_MS = 10000;
const ANSWER_MS = 8000;
const CATCH_UP_MS = 2000;
const RESENDS = 6;
const RETRY_MAX_MS = 10000; // the longest wait before trying the socket again
const CLOSE_CREDENTIALS = 4401; // what the socket was opened with is no longer valid

function commandId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

// Two actions are the same move: the same keys with the same values.
function sameAction(a, b) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length
    && keys.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

export class TableClient extends EventTarget {
  constructor(tableId) {
    super();
    this.id = tableId;
    this.table = null; // the REST answer: seats, status, seed, outcome, seat
    this.seq = 0;
    this.view = null;
    this.legal = [];
    this.deadline = null; // when the current move's clock runs out (timed tables)
    this.events = [];
    this.presence = null; // [{seat, connected, away}] from the socket
    this.mode = "connecting"; // "socket" | "polling"
    this.pending = null; // the command waiting for its answer
    this.checking = false; // a move unanswered on the socket, its fate asked over REST
    this.unsettled = null; // a move whose fate stayed unknown: {action, commandId, expectedSeq}
    this.socket = null;
    this.retries = 0;
    this.pollTimer = null;
    this.pingTimer = null;
    this.pongTimer = null;
    this.retryTimer = null;
    this.stopped = false;
    // Back online, or the tab shown again: try the socket now rather than
    // at the end of the back-off (REST polling kept the page live meanwhile).
    this.reconnectNow = () => {
      if (document.visibilityState === "hidden") return;
      if (this.stopped || this.socket || this.mode !== "polling") return;
      clearTimeout(this.retryTimer);
      this.connect();
    };
  }

  get eventSeq() {
    return this.events.length ? this.events[this.events.length - 1].seq : 0;
  }

  emit(kind, detail) {
    this.dispatchEvent(new CustomEvent(kind, { detail }));
  }

  async start() {
    await this.refresh();
    window.addEventListener("online", this.reconnectNow);
    document.addEventListener("visibilitychange", this.reconnectNow);
    this.connect();
  }

  stop() {
    this.stopped = true;
    window.removeEventListener("online", this.reconnectNow);
    document.removeEventListener("visibilitychange", this.reconnectNow);
    clearTimeout(this.pollTimer);
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    if (this.socket) this.socket.close();
  }

  // --- REST ------------------------------------------------------------------

  async refresh() {
    const after = this.eventSeq;
    const [table, events] = await Promise.all([
      api(`/api/tables/${this.id}/`),
      api(`/api/tables/${this.id}/events/?after=${after}`),
    ]);
    this.mergeEvents(events);
    this.applyTable(table);
  }

  applyTable(table) {
    const statusChanged = !this.table || this.table.status !== table.status;
    this.table = table;
    if (table.seq >= this.seq) {
      this.seq = table.seq;
      this.view = table.view;
      this.legal = table.legal_actions || [];
      this.deadline = table.deadline ?? null;
    }
    this.emit("change", { statusChanged });
  }

  mergeEvents(events) {
    const known = this.eventSeq;
    const fresh = (events || []).filter((event) => event.seq > known);
    if (fresh.length) {
      this.events.push(...fresh);
      this.emit("events", { events: fresh });
    }
    return fresh.length;
  }

  schedulePoll() {
    clearTimeout(this.pollTimer);
    if (this.stopped) return;
    const finished = this.table && ["finished", "aborted"].includes(this.table.status);
    if (finished) return;
    if (this.mode === "socket") {
      // Seats fill up in the lobby through REST calls of other people: watch
      // the lobby over REST even while the socket is open.
      if (this.table && this.table.status === "lobby") {
        this.pollTimer = setTimeout(async () => {
          try {
            this.applyTable(await api(`/api/tables/${this.id}/`));
          } catch {
            /* try again on the next round */
          }
          this.schedulePoll();
        }, 2 * POLL_MS);
      }
      return;
    }
    this.pollTimer = setTimeout(() => this.poll(), POLL_MS);
  }

  async poll() {
    if (this.mode === "socket" || this.stopped) return;
    try {
      const lobby = !this.table || this.table.status === "lobby";
      const events = await api(`/api/tables/${this.id}/events/?after=${this.eventSeq}`);
      if (this.mergeEvents(events) || lobby || this.seq < this.eventSeq) {
        this.applyTable(await api(`/api/tables/${this.id}/`));
      }
      this.emit("connection", { mode: this.mode, ok: true });
    } catch (err) {
      this.emit("connection", { mode: this.mode, ok: false, message: err.message });
    }
    this.schedulePoll();
  }

  // --- the socket ------------------------------------------------------------

  connect() {
    if (this.stopped || !("WebSocket" in window)) {
      this.fallBack();
      return;
    }
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    let socket;
    try {
      socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${this.id}/`);
    } catch {
      this.fallBack();
      return;
    }
    this.socket = socket;
    let opened = false;
    let gone = false;
    // A line that dies without a close (a phone leaving Wi-Fi, a router
    // dropping it) leaves the socket open here: the page said "live" and
    // waited for frames that never came, until the system gave up minutes
    // later. Each ping expects an answer (any frame) within PONG_MS; without
    // one the socket counts as closed, and REST and a new socket take over.
    const closed = (event) => {
      if (gone) return;
      gone = true;
      clearInterval(this.pingTimer);
      clearTimeout(this.pongTimer);
      if (this.socket === socket) this.socket = null;
      if (this.stopped) return;
      if (event.code === CLOSE_CREDENTIALS) this.sessionCheck();
      this.fallBack();
      // Try the socket again later (backing off up to RETRY_MAX_MS, or at
      // once when the browser comes back online); REST keeps the page live.
      this.retries += 1;
      const delay = Math.min(RETRY_MAX_MS, 1000 * 2 ** Math.min(this.retries - 1, 4));
      clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => {
        if (!this.stopped && !this.socket) this.connect();
      }, opened ? 1000 : delay);
    };
    const ping = () => {
      if (!this.send({ type: "ping" }) || this.pongTimer) return;
      this.pongTimer = setTimeout(() => {
        this.pongTimer = null;
        closed({ code: 1006 });
        socket.close();
      }, PONG_MS);
    };
    socket.addEventListener("open", () => {
      opened = true;
      this.retries = 0;
      this.mode = "socket";
      this.schedulePoll();
      this.send({ type: "sync", after: this.eventSeq });
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(ping, PING_MS);
      this.emit("connection", { mode: "socket", ok: true });
    });
    socket.addEventListener("message", (message) => {
      if (this.socket !== socket) return; // given up on: REST or a new socket follows the table
      clearTimeout(this.pongTimer);
      this.pongTimer = null;
      let frame;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      this.onFrame(frame);
    });
    socket.addEventListener("close", closed);
  }

  // The socket was closed because the person's password changed (here or in
  // another browser) or the account was deactivated: if this browser's
  // session ended with it, say so ("signedout"); if it stands (the password
  // was changed from this browser), the socket simply reconnects.
  async sessionCheck() {
    try {
      await api("/api/accounts/me/");
    } catch (err) {
      if (err.status === 401 || err.status === 403) this.emit("signedout", {});
    }
  }

  fallBack() {
    // Not "live" yet: the page follows the table only once a poll answers
    // (with the line gone, the page said "live (polling)" until the first
    // poll failed). So poll at once rather than after POLL_MS.
    // (Before any socket opened, the label keeps saying "connecting…".)
    const switched = this.mode !== "polling";
    if (switched) {
      const lost = this.mode === "socket";
      this.mode = "polling";
      if (lost) this.emit("connection", { mode: "polling", ok: false, message: "Trying to reach the table over HTTP" });
    }
    if (this.pending && this.pending.via === "socket") {
      // The socket died before answering: retry the same command over REST
      // (the command_id makes a repeat harmless).
      const pending = this.pending;
      this.pending = null;
      this.actRest(pending.action, pending.commandId, pending.expectedSeq)
        .then(pending.resolve, pending.reject);
    }
    if (switched && !this.stopped) {
      clearTimeout(this.pollTimer);
      this.poll();
    } else {
      this.schedulePoll();
    }
  }

  send(frame) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  async onFrame(frame) {
    if (frame.type === "state") {
      this.mergeEvents(frame.events);
      const statusChanged = this.view && !this.view.outcome && frame.view && frame.view.outcome;
      if (frame.seq >= this.seq) {
        this.seq = frame.seq;
        this.view = frame.view;
        this.legal = frame.legal_actions || [];
        this.deadline = frame.deadline ?? null;
      }
      // The server answers a move with the frame of its events: only a frame
      // with this seat's own move after the one sent from answers it. Another
      // seat's move pushed meanwhile does not (it used to count as "done", and
      // the refusal that followed showed as if out of nowhere).
      if (this.pending && this.pending.via === "socket" && this.answers(frame, this.pending)) {
        this.pending.resolve();
        this.pending = null;
      }
      this.emit("change", { statusChanged: Boolean(statusChanged) });
      // Seats, status, seed and outcome live in the REST answer: refresh it
      // when the match starts or ends.
      if (!this.table || this.table.status === "lobby" || statusChanged) {
        try {
          this.table = await api(`/api/tables/${this.id}/`);
          this.emit("change", { statusChanged: true });
        } catch {
          /* the next frame tries again */
        }
      }
    } else if (frame.type === "error") {
      const error = new ApiError(400, frame.code, frame.message);
      const pending = this.pending && this.pending.via === "socket" ? this.pending : null;
      if (pending && (!frame.command_id || frame.command_id === pending.commandId)) {
        pending.reject(error);
        this.pending = null;
      } else if (!pending) {
        this.emit("refused", { error });
      }
      // (An error naming another command is the late answer to one given up
      // on: the move pending waits for its own.)
      if (frame.code === "stale") this.send({ type: "sync", after: this.eventSeq });
    } else if (frame.type === "presence") {
      this.presence = frame.seats;
      this.emit("presence", { seats: frame.seats });
      this.emit("change", { statusChanged: false });
    }
  }

  // --- moves -----------------------------------------------------------------

  // Does this state frame answer the move pending on the socket? It does when
  // it carries an event of this seat's after the seq the move was sent at, or
  // replaces the whole view with a newer one (a resync without events). The
  // full frame a socket sends on connecting, at the seq the move was sent at,
  // does not: it was read before the move arrived.
  answers(frame, pending) {
    if (frame.full) return frame.seq > pending.expectedSeq;
    return (frame.events || []).some((event) => event.seq > pending.expectedSeq
      && event.seat !== null && event.seat === frame.seat);
  }

  // Play `action` from this seat. Resolves once the server has it; rejects
  // with the server's refusal (an ApiError), leaving the state unchanged.
  //
  // `sameDecision(before, now)` (from the game's renderer) says whether a
  // view that moved on still asks this seat the same question: in a window
  // where several seats answer at once (Allegra's knock window) another
  // seat's answer moves the table's seq without changing anything this seat
  // decides on. A move refused as stale is then sent once more against the
  // fresh seq, if it is still legal (again, should yet another seat's answer
  // overtake it: each of the others can, up to RESENDS tries in all); any
  // other stale refusal stands, and the player sees the table as it is now.
  async act(action, sameDecision) {
    const asked = this.view; // the question the player answered
    for (let attempt = 1; ; attempt += 1) {
      const sentAt = this.seq;
      try {
        await this.actOnce(action);
        return;
      } catch (err) {
        if (err.code !== "stale" || !sameDecision || attempt >= RESENDS) throw err;
        await this.caughtUp(sentAt);
        const still = this.legal.some((candidate) => sameAction(candidate, action));
        if (!still || !sameDecision(asked, this.view)) throw err;
      }
    }
  }

  actOnce(action) {
    if (this.pending) {
      return Promise.reject(new ApiError(409, "busy", "Your previous move is still on its way."));
    }
    // The same move again at the same seq after one whose fate stayed
    // unknown (its check got no answer): the same command, so it can never
    // be played twice.
    const unsettled = this.unsettled;
    const again = unsettled && unsettled.expectedSeq === this.seq && sameAction(unsettled.action, action);
    const id = again ? unsettled.commandId : commandId();
    const expectedSeq = this.seq;
    this.unsettled = null;
    if (this.mode === "socket" && this.socket && this.socket.readyState === WebSocket.OPEN) {
      return new Promise((resolve, reject) => {
        this.pending = { via: "socket", action, commandId: id, expectedSeq, resolve, reject };
        this.send({ type: "act", action, expected_seq: expectedSeq, command_id: id });
        // No answer in time: the move may still be on its way, and a read
        // of the table cannot tell "not yet" from "never". Its fate is
        // settled by sending the same command over REST: the server plays a
        // command_id at most once and answers a repeat with the first
        // answer, so the move lands exactly once (here or from the socket)
        // or is refused, and the page then shows the table as it is. Until
        // then the page says the move is being checked (`checking`), not
        // that it is the player's turn again.
        setTimeout(() => {
          if (this.pending && this.pending.commandId === id) {
            this.pending = null;
            this.checking = true;
            this.emit("checking", {});
            this.actRest(action, id, expectedSeq)
              .finally(() => { this.checking = false; })
              .then(resolve, reject);
          }
        }, ANSWER_MS);
      });
    }
    return this.actRest(action, id, expectedSeq);
  }

  // After a stale refusal of a move sent at `seq`: wait for the newer state
  // (the socket's answer to its sync), or read it over REST.
  async caughtUp(seq) {
    if (this.seq > seq) return;
    if (this.mode === "socket") {
      const arrived = await new Promise((resolve) => {
        const done = (ok) => {
          clearTimeout(timer);
          this.removeEventListener("change", onChange);
          resolve(ok);
        };
        const onChange = () => {
          if (this.seq > seq) done(true);
        };
        const timer = setTimeout(() => done(false), CATCH_UP_MS);
        this.addEventListener("change", onChange);
      });
      if (arrived) return;
    }
    if (this.seq <= seq) await this.refresh().catch(() => {});
  }

  async actRest(action, id, expectedSeq) {
    this.pending = { via: "rest" };
    try {
      await api(`/api/tables/${this.id}/actions/`, {
        method: "POST",
        body: { action, expected_seq: expectedSeq, command_id: id },
      });
    } catch (err) {
      // No answer from the server (offline, a 5xx, `busy`): the move may
      // have been played or not; a press of the same move resends it.
      if (!err.status || err.status >= 500 || err.code === "busy") {
        this.unsettled = { action, commandId: id, expectedSeq };
      }
      if (err.code === "stale") await this.refresh().catch(() => {});
      throw err;
    } finally {
      this.pending = null;
    }
    await this.refresh();
  }

  async lobbyCall(path, body) {
    const table = await api(`/api/tables/${this.id}/${path}/`, { method: "POST", body: body || {} });
    this.applyTable(table);
    await this.refresh();
  }
}

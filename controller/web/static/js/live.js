// The live stream: one WebSocket to /ws, reconnecting forever. The server sends a full
// "state" message on every (re)connect, then "event" messages carrying the new state,
// so a screen never polls and never needs to replay anything itself.
export const STICKY_UNTIL = new Set(["play-accepted", "deal-complete", "trump-called", "trump-hidden",
  "bid-made", "bid-passed", "undone", "match-setup"]);

export function connect(onChange, onStatus = () => {}) {
  const store = { state: null, recent: [], flag: null, notice: null, last: null };
  let delay = 300;

  function take(msg) {
    if (msg.type === "state") {
      store.state = msg.state;
      store.recent = msg.recent || [];
      store.flag = null;
      store.last = null;
    } else if (msg.type === "event") {
      const ev = msg.event;
      if (msg.state) {
        // the history only grows: it comes with the snapshot, or when a hand is added
        const history = msg.history || store.state?.view?.history || [];
        store.state = msg.state;
        if (store.state.view) store.state.view.history = history;
      }
      store.recent.push(ev);
      if (store.recent.length > 30) store.recent.shift();
      store.last = ev;
      // A flag the rules resolve at once (no pending ruling) stays up until play moves on.
      if (ev.event === "revoke-flagged") store.flag = ev;
      else if (STICKY_UNTIL.has(ev.event)) store.flag = null;
      if (["impossible", "unknown-tag", "other-deck-tag", "command-refused", "input-refused",
        "journal-failed", "journal-damaged", "journal-resumed", "input-held", "undone",
        "reader-fault"].includes(ev.event)) store.notice = { text: ev.message, at: Date.now(), event: ev.event };
    }
    onChange(store);
  }

  function open() {
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
    ws.onopen = () => { delay = 300; onStatus(true); };
    ws.onmessage = (e) => {
      const data = JSON.parse(e.data);
      (Array.isArray(data) ? data : [data]).forEach(take);
    };
    ws.onclose = () => {
      onStatus(false);
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 4000);
    };
    ws.onerror = () => ws.close();
  }
  open();
  return store;
}

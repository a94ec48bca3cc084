// The table of `century serve`: the new-game form, the table drawn from the server's
// snapshot (what this seat may see), moves by pointing at cards, the live channel.
// Every move the page offers is one of the engine's legal moves, sent back by name; the
// server checks it again. Text from the data is only ever set as text, never as markup.
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  table: null, token: null, snap: null, cards: null, game: null, events: null,
  revealed: null, logShown: 0, busy: false, games: null, live: true,
  thinking: null, ticker: null,
};

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "on") for (const [ev, fn] of Object.entries(value)) node.addEventListener(ev, fn);
    else if (key === "style") Object.assign(node.style, value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

async function api(path, options) {
  const headers = { "Accept": "application/json" };
  if (state.token) headers["X-Seat-Token"] = state.token;
  if (options && options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method: options && options.method || "GET",
    headers,
    body: options && options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const data = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
  if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
  return data;
}

// -- cubes, coins and cards ----------------------------------------------------------------

function resource(code) {
  return state.cards.resources.find((r) => r.code === code.toLowerCase());
}

function cubes(text, label) {
  const box = el("span", { class: "cubes", role: "img", "aria-label": label || cubeWords(text) });
  for (const code of text) {
    const res = resource(code);
    const cube = el("span", { class: "cube", "aria-hidden": "true", text: code.toUpperCase() });
    if (res) Object.assign(cube.style, { background: res.colour, color: res.ink });
    box.append(cube);
  }
  return box;
}

function spaced(text) {
  return [...text.toUpperCase()].join(" ");
}

function cubeWords(text) {
  if (!text) return "no cubes";
  const counts = new Map();
  for (const code of text) counts.set(code, (counts.get(code) || 0) + 1);
  return [...counts].map(([code, n]) => `${n} ${(resource(code) || { name: code }).name}`).join(", ");
}

function coinToken(coin) {
  const info = state.cards.coins.find((c) => c.id === coin.id) || {};
  const token = el("span", {
    class: "coin", role: "img", text: String(coin.value),
    "aria-label": `${coin.name} worth ${coin.value}` + (coin.left !== undefined ? `, ${coin.left} left` : ""),
  });
  if (info.colour) Object.assign(token.style, { background: info.colour, color: info.ink });
  return token;
}

function cardImage(kind, id, words) {
  const info = state.cards[kind][id] || {};
  if (!info.image) return el("span", { class: "card-text", text: `${info.name || id}: ${words || info.words || ""}` });
  return el("img", {
    src: `/api/games/${encodeURIComponent(state.game)}/images/${encodeURIComponent(info.image)}`,
    alt: words === "" ? "" : cardWords(kind, id), width: 272, height: 381,
  });
}

function cardWords(kind, id) {
  // a card by its name in the table's language (else its kind's), and its effect
  const info = state.cards[kind][id] || {};
  return `${info.name || id}: ${info.words || ""}`;
}

// -- the new-game form ---------------------------------------------------------------------

async function showNewGame() {
  $("new-game").hidden = false;
  $("table").hidden = true;
  const data = await api("/api/games");
  state.games = data;
  const select = $("game");
  select.replaceChildren(...data.games.map((g) => el("option", { value: g.id, text: `${g.title} (${g.id})` })));
  $("network-row").hidden = !data.network;
  $("deal").value = data.deal || "";
  select.addEventListener("change", playerCounts);
  $("players").addEventListener("change", seatRows);
  playerCounts();
  $("new-form").addEventListener("submit", startGame);
  $("record-file").addEventListener("change", recordChosen);
  await listTables();
}

async function listTables() {
  // the tables this server keeps: unfinished ones go on by their link, finished ones keep
  // their record
  const data = await api("/api/tables");
  const list = $("kept-list");
  list.replaceChildren();
  for (const t of data.tables) {
    const who = t.seats.map((kind, seat) => seatName(t.names, kind, seat)).join(", ");
    const how = t.over && t.result
      ? `over: ${t.result.scores.map((score, seat) => `${seatName(t.names, t.seats[seat], seat)} ${score}`).join(", ")}`
      : `${t.moves} moves so far`;
    const item = el("li", { dataset: { table: t.table, over: t.over } }, el("span", { text: `${t.title}: ${who}; ${how}. ` }));
    for (const link of t.links) {
      if (!t.playable) break;
      const url = `/t/${encodeURIComponent(t.table)}#${link.token}`;
      const text = !link.seats.length ? "Watch" : t.over ? "Look at the table" : t.network ? `Take seat ${link.seats[0] + 1}` : "Go on playing";
      item.append(el("a", { href: url, class: "kept-link", text }), " ");
    }
    const token = (t.links.find((l) => l.seats.length) || t.links[0] || {}).token;
    if (t.over && token) {
      item.append(el("a", { href: `/api/tables/${encodeURIComponent(t.table)}/record?token=${encodeURIComponent(token)}`, download: true, class: "kept-record", text: "Download the record" }));
    }
    list.append(item);
  }
  $("kept").hidden = data.tables.length === 0;
}

function seatName(names, kind, seat) {
  const name = names && names[seat];
  if (name) return name;
  return `seat ${seat + 1} (${kind === state.games.human ? "person" : kind})`;
}

async function recordChosen() {
  // a record sets the form as it was played: its game, its players, who played each seat
  $("form-error").textContent = "";
  const file = $("record-file").files[0];
  if (!file) return;
  let record;
  try {
    if (file.size > 2000000) throw new Error("that file is too large to be a game record");
    record = JSON.parse(await file.text());
  } catch (err) {
    $("form-error").textContent = `Cannot read the record: ${err.message}`;
    return;
  }
  if (!record || typeof record !== "object") return;
  if (state.games.games.some((g) => g.id === record.rules)) {
    $("game").value = record.rules;
    playerCounts();
  }
  if (Number.isInteger(record.players)) {
    $("players").value = String(record.players);
    seatRows();
  }
  if (Array.isArray(record.seats)) {
    record.seats.forEach((spec, seat) => {
      const kind = $(`seat-${seat}`);
      if (!kind || typeof spec !== "string") return;
      const [name, level] = spec.split(":");
      if ([...kind.options].some((o) => o.value === name)) kind.value = name;
      kind.dispatchEvent(new Event("change"));
      if (level && $(`level-${seat}`)) $(`level-${seat}`).value = level;
    });
  }
  if (Number.isInteger(record.seed)) $("seed").value = String(record.seed);
}

function playerCounts() {
  const game = state.games.games.find((g) => g.id === $("game").value);
  const [low, high] = game.players;
  const select = $("players");
  const old = Number(select.value) || low;
  select.replaceChildren();
  for (let n = low; n <= high; n++) select.append(el("option", { value: n, text: String(n), selected: n === Math.min(Math.max(old, low), high) }));
  seatRows();
}

function seatRows() {
  const count = Number($("players").value);
  const rows = $("seat-rows");
  const kept = [...rows.querySelectorAll("select.seat-kind")].map((s) => s.value);
  const keptLevel = [...rows.querySelectorAll("select.seat-level")].map((s) => s.value);
  rows.replaceChildren();
  for (let seat = 0; seat < count; seat++) {
    const kind = el("select", { id: `seat-${seat}`, class: "seat-kind" },
      el("option", { value: state.games.human, text: "a person" }),
      ...state.games.bots.map((b) => el("option", { value: b.name, text: `bot: ${b.name} (${b.summary})` })));
    kind.value = kept[seat] || (seat === 0 ? state.games.human : "greedy");
    const level = el("select", { id: `level-${seat}`, class: "seat-level" },
      el("option", { value: "", text: "default" }),
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => el("option", { value: String(n), text: String(n) })));
    level.value = keptLevel[seat] || "";
    const levelLabel = el("label", { for: `level-${seat}`, text: "strength" });
    const name = el("input", { id: `name-${seat}`, class: "seat-name", type: "text", maxlength: 24, autocomplete: "off" });
    const nameLabel = el("label", { for: `name-${seat}`, text: "name" });
    const sync = () => {
      const bot = state.games.bots.find((b) => b.name === kind.value);
      const takes = Boolean(bot && bot.option);
      level.hidden = levelLabel.hidden = !takes;
      level.title = takes ? bot.option : "";
      name.hidden = nameLabel.hidden = kind.value !== state.games.human;
    };
    kind.addEventListener("change", sync);
    sync();
    rows.append(el("div", { class: "seat-row" },
      el("label", { for: `seat-${seat}`, text: `Seat ${seat + 1}` }), kind, levelLabel, level, nameLabel, name));
  }
}

async function startGame(event) {
  event.preventDefault();
  $("form-error").textContent = "";
  const seats = [...document.querySelectorAll("#seat-rows .seat-row")].map((row) => {
    const kind = row.querySelector(".seat-kind").value;
    const level = row.querySelector(".seat-level");
    return kind !== state.games.human && !level.hidden && level.value ? `${kind}:${level.value}` : kind;
  });
  const names = [...document.querySelectorAll("#seat-rows .seat-row")].map((row) => {
    const input = row.querySelector(".seat-name");
    return input.hidden ? "" : input.value.trim();
  });
  const body = { game: $("game").value, seats, network: $("network").checked };
  if ($("deal").value.trim()) body.deal = $("deal").value.trim();
  if (names.some((n) => n)) body.names = names;
  const seed = $("seed").value.trim();
  if (seed) {
    if (!/^[0-9]{1,15}$/.test(seed)) { $("form-error").textContent = "The seed is a whole number."; return; }
    body.seed = Number(seed);
  }
  const file = $("record-file").files[0];
  try {
    if (file) {
      if (file.size > 2000000) throw new Error("that file is too large to be a game record");
      body.record = JSON.parse(await file.text());
      delete body.game;
    }
  } catch (err) {
    $("form-error").textContent = `Cannot read the record: ${err.message}`;
    return;
  }
  let made;
  try {
    made = await api("/api/tables", { method: "POST", body });
  } catch (err) {
    $("form-error").textContent = err.message;
    return;
  }
  const own = made.links.find((l) => l.seats.length > 0);
  if (body.network) {
    const list = $("link-list");
    list.replaceChildren();
    for (const link of made.links) {
      const url = `${location.origin}/t/${made.table}#${link.token}`;
      const who = link.seats.length ? `Seat ${link.seats[0] + 1}` : "Watch only";
      list.append(el("li", {}, el("strong", { text: `${who}: ` }), el("a", { href: url, class: "seat-link", dataset: { seats: link.seats.join(",") }, text: url })));
    }
    $("links").hidden = false;
    $("links-heading").focus();
    return;
  }
  location.assign(`/t/${made.table}#${own.token}`);
}

// -- the table -----------------------------------------------------------------------------

async function showTable(table, token) {
  state.table = table;
  state.token = token;
  $("new-game").hidden = true;
  $("table").hidden = false;
  let snap;
  try {
    snap = await api(`/api/tables/${encodeURIComponent(table)}`);
  } catch (err) {
    $("status").textContent = err.message;
    $("table").hidden = true;
    $("lost").hidden = false;
    return;
  }
  state.game = snap.game;
  state.cards = await api(`/api/games/${encodeURIComponent(snap.game)}/cards`);
  render(snap);
  connect();
  $("rest").addEventListener("click", () => pointAt("rest"));
  $("discard").addEventListener("click", () => pointAt("discard"));
  $("undo").addEventListener("click", undo);
  $("reveal").addEventListener("click", () => { state.revealed = state.snap.acting; render(state.snap); $("hand-heading").focus(); });
  $("download").addEventListener("click", download);
  $("name-form").addEventListener("submit", takeSeat);
  $("rematch").addEventListener("click", () => rematch(false));
  $("rematch-rotated").addEventListener("click", () => rematch(true));
  $("chooser").addEventListener("close", () => { if (state.snap && state.snap.discarding && state.snap.acting !== null) $("discard").focus(); });
}

function connect() {
  const url = `/api/tables/${encodeURIComponent(state.table)}/events?token=${encodeURIComponent(state.token)}`;
  const events = new EventSource(url);
  state.events = events;
  events.addEventListener("table", (event) => {
    const snap = JSON.parse(event.data);
    if (!state.snap || snap.version >= state.snap.version) render(snap);
  });
  // the browser reconnects by itself (a restarted server goes on with the table); the status
  // says so meanwhile
  events.addEventListener("open", () => { document.body.dataset.live = "on"; state.live = true; if (state.snap) renderStatus(state.snap); });
  events.addEventListener("error", () => {
    document.body.dataset.live = "off";
    state.live = false;
    if (state.snap) renderStatus(state.snap);
    if (events.readyState === EventSource.CLOSED) setTimeout(() => { if (state.events === events) connect(); }, 3000);
  });
}

function render(snap) {
  // the table is drawn anew: keep the keyboard's place (the same card or button, else the hand)
  const active = document.activeElement;
  const key = active && active.dataset ? active.dataset.key : undefined;
  const inTable = active && $("table").contains(active) && active !== document.body;
  draw(snap);
  if (!inTable || $("chooser").open) return;
  // a button that went away, or can no longer be pressed (Rest once rested), gives the focus
  // to the same move drawn anew, else to the hand, one Tab before its cards
  const usable = active.isConnected && !active.disabled && !active.closest("[hidden]");
  if (document.activeElement === active && usable) return;
  const same = key ? document.querySelector(`[data-key="${CSS.escape(key)}"]:not([disabled]):not([hidden])`) : null;
  (same || $("hand")).focus();
}

function draw(snap) {
  const first = !state.snap;
  state.snap = snap;
  $("title").textContent = snap.title;
  document.title = `${snap.title} – Century table`;
  document.body.dataset.version = snap.version;
  document.body.dataset.over = snap.over;
  const moves = new Map(snap.moves.map((m) => [m.key, m]));
  renderStatus(snap);
  renderThinking(snap);
  renderPointRow(snap, moves);
  renderMerchantRow(snap, moves);
  renderSeats(snap);
  renderHand(snap, moves);
  renderLog(snap, first);
  renderResult(snap);
  renderNameForm(snap);
  document.body.dataset.acting = snap.acting === null ? "" : String(snap.acting);
  if (snap.discarding && snap.acting !== null && !$("chooser").open && handVisible(snap)) pointAt("discard");
}

function renderThinking(snap) {
  // a bot to move: "thinking…" with the seconds since this page saw its turn come
  const bot = !snap.over && !snap.stalled && snap.acting === null && snap.seats[snap.current].bot;
  const box = $("thinking");
  if (!bot) {
    box.hidden = true;
    state.thinking = null;
    clearInterval(state.ticker);
    state.ticker = null;
    return;
  }
  const key = `${snap.version}`;
  if (!state.thinking || state.thinking.key !== key) state.thinking = { key, since: Date.now(), label: snap.seats[snap.current].label };
  const tick = () => {
    const seconds = Math.floor((Date.now() - state.thinking.since) / 1000);
    $("thinking-text").textContent = `${capital(state.thinking.label)} is thinking… ${seconds} s`;
  };
  tick();
  box.hidden = false;
  if (!state.ticker) state.ticker = setInterval(() => { if (state.thinking) tick(); }, 1000);
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

function renderStatus(snap) {
  let text;
  if (snap.over) text = "Game over.";
  else if (snap.acting !== null) text = snap.discarding ? `Seat ${snap.acting + 1}: your caravan is over the limit; return cubes.` : `Seat ${snap.acting + 1}: your turn.`;
  else text = `${snap.seats[snap.current].label} to move.`;
  if (snap.final_round && !snap.over) text += " Final round.";
  if (snap.stalled) text += ` The game cannot go on: ${snap.stalled}. Download the record to keep it.`;
  if (!state.live) text += " The connection to the server is lost: trying again…";
  $("status").textContent = `Round ${snap.round}. ${text}`;
}

function renderPointRow(snap, moves) {
  const row = $("point-row");
  row.replaceChildren();
  for (const card of snap.point_row) {
    const move = moves.get(`claim ${card.slot}`);
    const coin = card.coin ? coinToken(card.coin) : el("span", { class: "coin-space", "aria-hidden": "true" });
    const words = `slot ${card.slot}: ${cardWords("point", card.id)}`;
    const face = move
      ? el("button", { type: "button", class: "card", "data-key": move.key, "aria-label": `Claim the point card in ${words}`, on: { click: () => pointAt(move.key) } }, cardImage("point", card.id, ""))
      : el("div", { class: "card" }, cardImage("point", card.id));
    row.append(el("li", { dataset: { slot: card.slot } }, coin, face));
  }
  if (!snap.point_row.length) row.append(el("li", { text: "(none left)" }));
  $("decks").textContent = `Cards left in the decks: ${snap.decks_left[0]} merchant, ${snap.decks_left[1]} point.`;
}

function renderMerchantRow(snap, moves) {
  const row = $("merchant-row");
  row.replaceChildren();
  for (const card of snap.merchant_row) {
    const move = moves.get(`acquire ${card.slot}`);
    const lying = card.cubes ? ` with ${cubeWords(card.cubes)} on it` : "";
    const face = move
      ? el("button", { type: "button", class: "card", "data-key": move.key, "aria-label": `Acquire the merchant card in slot ${card.slot}, ${cardWords("merchant", card.id)}${lying}`, on: { click: () => pointAt(move.key) } }, cardImage("merchant", card.id, ""))
      : el("div", { class: "card" }, cardImage("merchant", card.id));
    row.append(el("li", { dataset: { slot: card.slot } }, face, cubes(card.cubes, card.cubes ? `on it: ${cubeWords(card.cubes)}` : "no cubes on it")));
  }
  if (!snap.merchant_row.length) row.append(el("li", { text: "(none left)" }));
}

function renderSeats(snap) {
  const list = $("seat-list");
  list.replaceChildren();
  for (const seat of snap.seats) {
    const played = el("ul", { class: "mini" }, ...seat.played.map((id) => el("li", {}, cardImage("merchant", id))));
    const coins = seat.coins.length ? seat.coins.map((c) => `${c.count} × ${(state.cards.coins.find((x) => x.id === c.id) || { name: c.id }).name}`).join(", ") : "none";
    const you = snap.you.includes(seat.seat) ? " – you" : "";
    list.append(el("li", { class: `seat${seat.seat === snap.current && !snap.over ? " to-move" : ""}`, dataset: { seat: seat.seat, score: seat.score } },
      el("h3", { text: `${seat.label[0].toUpperCase()}${seat.label.slice(1)}${you}${seat.seat === snap.current && !snap.over ? " (to move)" : ""}` }),
      el("dl", {},
        el("dt", { text: "Score" }), el("dd", { class: "score", text: String(seat.score) }),
        el("dt", { text: "Caravan" }), el("dd", {}, cubes(seat.caravan), el("span", { class: "hint", text: ` ${seat.caravan.length}/${snap.limit}` })),
        el("dt", { text: "Point cards" }), el("dd", { text: String(seat.points.length) }),
        el("dt", { text: "Coins" }), el("dd", { text: coins }),
        el("dt", { text: "In hand" }), el("dd", { text: `${seat.hand_size} cards` }),
        el("dt", { text: "Played" }), el("dd", {}, seat.played.length ? played : el("span", { text: "none" }))),
    ));
  }
}

function handVisible(snap) {
  // several people on one screen: a hand shows once its person asks for it
  if (snap.you.length <= 1) return true;
  return snap.acting === null || state.revealed === snap.acting;
}

function handSeat(snap) {
  if (snap.acting !== null) return snap.acting;
  if (snap.you.length === 1) return snap.you[0];
  return state.revealed !== null && snap.you.includes(state.revealed) ? state.revealed : null;
}

function renderHand(snap, moves) {
  const seatNo = handSeat(snap);
  const visible = handVisible(snap);
  const pass = $("pass");
  pass.hidden = visible;
  if (!visible) $("pass-text").textContent = `Seat ${snap.acting + 1}'s turn: pass the screen to them.`;
  const hand = $("hand-cards");
  hand.replaceChildren();
  $("hand-heading").textContent = seatNo === null ? "Hands" : `Your hand (seat ${seatNo + 1})`;
  if (visible && seatNo !== null) {
    const ids = snap.seats[seatNo].hand || [];
    const counts = new Map();
    for (const id of ids) counts.set(id, (counts.get(id) || 0) + 1);
    for (const [id, count] of counts) {
      const move = moves.get(`play ${id}`);
      const label = `${cardWords("merchant", id)}${count > 1 ? ` (${count} copies)` : ""}`;
      const face = move
        ? el("button", { type: "button", class: "card", "data-key": move.key, "aria-label": `Play ${label}`, on: { click: () => pointAt(move.key) } }, cardImage("merchant", id, ""))
        : el("div", { class: "card" }, cardImage("merchant", id));
      hand.append(el("li", { dataset: { card: id } }, face, count > 1 ? el("span", { class: "hint", text: `× ${count}` }) : null));
    }
    if (!ids.length) hand.append(el("li", { text: "(empty: rest to take your played cards back)" }));
  }
  const mine = visible && snap.acting !== null;
  $("rest").disabled = !(mine && moves.has("rest"));
  $("discard").hidden = !(mine && snap.discarding);
  $("undo").disabled = !snap.can_undo || state.busy;
  $("undo").hidden = snap.network;
  $("download").href = `/api/tables/${encodeURIComponent(state.table)}/record?token=${encodeURIComponent(state.token)}`;
}

function renderLog(snap, first) {
  const log = $("log");
  const start = snap.log_size - snap.log.length;
  if (first || snap.log_size < state.logShown || start > state.logShown) {
    log.replaceChildren();
    state.logShown = start;
  }
  const fresh = [];
  for (let i = state.logShown - start; i < snap.log.length; i++) {
    const entry = snap.log[i];
    log.append(el("li", { dataset: { move: entry.move, seat: entry.seat }, text: entry.text }));
    fresh.push(entry.text);
  }
  state.logShown = snap.log_size;
  if (fresh.length && !first) $("announce").textContent = fresh.slice(-3).join(" ");
  log.scrollTop = log.scrollHeight;
}

function renderResult(snap) {
  // the end: the seats ranked, each score by what made it, the tie-break when it decided,
  // and the rematch
  $("result").hidden = !snap.over;
  if (!snap.over) return;
  const best = snap.winners.map((s) => snap.seats[s].label).join(" and ");
  const mine = snap.you.length === 1 ? (snap.winners.includes(snap.you[0]) ? " You won." : " You did not win this time.") : "";
  $("winner").textContent = `Won by ${best}.${mine}`;
  $("tie-break").textContent = snap.tie_break || "";
  const ranked = snap.breakdown.slice().sort((a, b) => (snap.winners.includes(b.seat) - snap.winners.includes(a.seat)) || b.total - a.total || a.seat - b.seat);
  $("scores").replaceChildren(...ranked.map((part) => {
    const parts = [`${part.point_card_points} from ${part.point_cards} point card${part.point_cards === 1 ? "" : "s"}`];
    for (const coin of part.coins) parts.push(`${coin.count * coin.value} from ${coin.count} × ${coin.name} (${coin.value})`);
    for (const cube of part.cubes) parts.push(`${cube.count * cube.each} from ${cube.count} × ${cube.name} (${cube.each} each)`);
    return el("li", { dataset: { seat: part.seat, score: part.total } },
      el("strong", { text: `${capital(snap.seats[part.seat].label)}: ${part.total} point${part.total === 1 ? "" : "s"}` }),
      el("span", { class: "parts", text: parts.join("; ") }));
  }));
  const player = snap.you.length > 0;
  $("rematch-row").hidden = !player || Boolean(snap.rematch);
  $("rematch-link").hidden = !snap.rematch;
  if (snap.rematch) $("rematch-go").href = `/t/${encodeURIComponent(snap.rematch.table)}#${snap.rematch.token}`;
}

function renderNameForm(snap) {
  // on the network, whoever opens a seat's link names themself to take it
  const seat = snap.you.length === 1 ? snap.you[0] : null;
  const ask = snap.network && seat !== null && !snap.names[seat] && !snap.over;
  const form = $("name-form");
  const was = form.hidden;
  form.hidden = !ask;
  if (ask && was) $("my-name").focus();
}

async function takeSeat(event) {
  event.preventDefault();
  $("name-error").textContent = "";
  try {
    const snap = await api(`/api/tables/${encodeURIComponent(state.table)}/name`, { method: "POST", body: { name: $("my-name").value } });
    if (snap.version >= state.snap.version) render(snap);
    $("hand").focus();
  } catch (err) {
    $("name-error").textContent = err.message;
  }
}

async function rematch(rotate) {
  try {
    const made = await api(`/api/tables/${encodeURIComponent(state.table)}/rematch`, { method: "POST", body: { rotate } });
    location.assign(`/t/${encodeURIComponent(made.table)}#${made.token}`);
  } catch (err) {
    $("move-error").textContent = `No rematch: ${err.message}`;
  }
}

// -- moves ---------------------------------------------------------------------------------

function pointAt(key) {
  const snap = state.snap;
  const move = snap.moves.find((m) => m.key === key);
  if (!move || state.busy) return;
  if (move.options.length === 1) return send(move.options[0].move, snap.version);
  choose(move, snap.version);
}

function choose(move, version) {
  // the box offers the ways of the table as it was when it opened (`version`): a way picked
  // after the table changed is refused by the server, never made on the newer table
  const titles = {
    play: `Play ${move.name}: choose how`,
    acquire: `Acquire ${move.name} from slot ${move.what}: the cubes to leave, one on each card before it`,
    discard: "Your caravan is over its limit: choose the cubes to return",
  };
  const hints = {
    play: "Upgrades list the cubes that rise (one letter per step); trades how many times; cards of several steps their choices in order.",
    acquire: "The first choice is the cheapest.",
    discard: "Return cubes until the caravan is at its limit.",
  };
  $("chooser-title").textContent = titles[move.verb] || move.key;
  $("chooser-hint").textContent = hints[move.verb] || "";
  $("chooser-cancel").hidden = move.verb === "discard";
  const list = $("chooser-options");
  list.replaceChildren();
  for (const option of move.options) {
    // each way with what it does: the cubes paid and gained, and the caravan it leaves
    const isDefault = option.move === move.default;
    const deal = [];
    if (option.paid) deal.push(`pay ${spaced(option.paid)}`);
    if (option.gained) deal.push(`get ${spaced(option.gained)}`);
    const said = `${option.words}${isDefault ? " (suggested)" : ""}`;
    const button = el("button", {
      type: "button", class: isDefault ? "default" : null, dataset: { move: option.move },
      "aria-label": `${said}: ${deal.join(", ") || "nothing paid"}; caravan after: ${cubeWords(option.after)}`,
      on: { click: () => { $("chooser").close(); send(option.move, version); } },
    },
    el("span", { class: "way", text: said }),
    el("span", { class: "deal", text: deal.length ? deal.join(", ") : "nothing paid" }),
    el("span", { class: "after" }, el("span", { class: "hint", text: "caravan after: " }), cubes(option.after)));
    button.querySelector(".after .cubes").dataset.after = option.after;
    list.append(el("li", {}, button));
  }
  $("chooser").showModal();
  const focus = list.querySelector("button.default") || list.querySelector("button");
  if (focus) focus.focus();
}

async function send(move, version) {
  state.busy = true;
  $("move-error").textContent = "";
  let snap = null;
  try {
    snap = await api(`/api/tables/${encodeURIComponent(state.table)}/move`, { method: "POST", body: { move, version } });
  } catch (err) {
    $("move-error").textContent = `That move was not made: ${err.message}`;
  } finally {
    state.busy = false;
  }
  // drawn once no longer busy, so Undo is offered at once (on one screen no other change follows)
  if (snap && snap.version >= state.snap.version) render(snap);
}

async function undo() {
  try {
    const snap = await api(`/api/tables/${encodeURIComponent(state.table)}/undo`, { method: "POST", body: {} });
    render(snap);
  } catch (err) {
    $("move-error").textContent = `Nothing undone: ${err.message}`;
  }
}

function download(event) {
  // the link downloads the record; its href is set with the token on every render
  if (!state.table) event.preventDefault();
}

// -- start ---------------------------------------------------------------------------------

document.addEventListener("DOMContentLoaded", () => {
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,64})$/);
  if (match) {
    showTable(match[1], decodeURIComponent(location.hash.slice(1)));
  } else {
    showNewGame().catch((err) => { $("form-error").textContent = err.message; });
  }
});

// The table of `century serve`: the new-game form, the table drawn from the server's
// snapshot (what this seat may see), moves by pointing at cards, the live channel.
// Every move the page offers is one of the engine's legal moves, sent back by name; the
// server checks it again. Text from the data is only ever set as text, never as markup.
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  table: null, token: null, snap: null, cards: null, game: null, events: null,
  revealed: null, logShown: 0, busy: false, games: null, live: true,
  thinking: null, ticker: null, words: {}, plural: null, lang: null, langs: [],
};

// -- the page's words ----------------------------------------------------------------------
// Every sentence the page writes itself comes from the server's words for its language
// (one file per language); the games' words (card names) from the game's data.

function say(key, args) {
  const text = state.words[key];
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (slot, name) => (args && args[name] !== undefined ? String(args[name]) : slot));
}

function sayCount(key, n, args) {
  // a sentence about n things: its form for n's CLDR plural category in the page's language
  // (KEY.one, KEY.other, ...: the words give one per category the language has)
  return say(`${key}.${state.plural.select(n)}`, { ...args, n });
}

function langKey() {
  // a language chosen on a table is that seat's (its link's), else the page's
  return state.table ? `century-lang:${state.table}:${state.token}` : "century-lang";
}

function chosenLang() {
  try { return localStorage.getItem(langKey()); } catch (err) { return null; }
}

async function loadWords(lang) {
  const data = await api(`/api/words${lang ? `?lang=${encodeURIComponent(lang)}` : ""}`);
  state.words = data.words;
  state.lang = data.lang;
  state.plural = new Intl.PluralRules(data.lang);
  state.langs = data.languages;
  document.documentElement.lang = data.lang;
  for (const node of document.querySelectorAll("[data-say]")) node.textContent = say(node.dataset.say);
  for (const node of document.querySelectorAll("[data-say-label]")) node.setAttribute("aria-label", say(node.dataset.sayLabel));
  for (const node of document.querySelectorAll("[data-say-empty]")) node.dataset.empty = say(node.dataset.sayEmpty);
  if (!state.snap) document.title = say("page.title");
  const select = $("lang");
  select.replaceChildren(...data.languages.map((l) => el("option", { value: l.code, text: l.name, lang: l.code, selected: l.code === data.lang })));
}

async function switchLang() {
  // this seat's language, kept in this browser: the page and the cards' names change at once
  const lang = $("lang").value;
  try { localStorage.setItem(langKey(), lang); } catch (err) { /* not kept: this visit only */ }
  await loadWords(lang);
  if (state.snap) {
    state.cards = await api(`/api/games/${encodeURIComponent(state.game)}/cards?lang=${encodeURIComponent(state.lang)}`);
    // the server's words (the dialogs' ways, the cards' effects, the end) in this language too
    const snap = await api(`/api/tables/${encodeURIComponent(state.table)}`).catch(() => state.snap);
    state.snap = null;
    state.logShown = 0;
    render(snap);
    if (state.events) { state.events.close(); connect(); }
  } else if (state.games) {
    state.games = await api("/api/games");
    fillGames();
    dealHint();
    seatRows();
    await listTables();
  }
}

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
  if (state.lang) headers["X-Lang"] = state.lang;
  if (options && options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method: options && options.method || "GET",
    headers,
    body: options && options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const data = await response.json().catch(() => ({ error: say("error.server", { status: response.status }) }));
  if (!response.ok) throw new Error(data.error || say("error.server", { status: response.status }));
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
  if (!text) return say("cubes.none");
  const counts = new Map();
  for (const code of text) counts.set(code, (counts.get(code) || 0) + 1);
  return [...counts].map(([code, n]) => `${n} ${(resource(code) || { name: code }).name}`).join(", ");
}

function coinToken(coin) {
  const info = state.cards.coins.find((c) => c.id === coin.id) || {};
  const token = el("span", {
    class: "coin", role: "img", text: String(coin.value),
    "aria-label": coin.left !== undefined ? say("coin.worth_left", coin) : say("coin.worth", coin),
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
  fillGames();
  const select = $("game");
  $("network-row").hidden = !data.network;
  $("deal").value = data.deal || "";
  select.addEventListener("change", playerCounts);
  $("players").addEventListener("change", seatRows);
  playerCounts();
  $("new-form").addEventListener("submit", startGame);
  $("record-file").addEventListener("change", recordChosen);
  await listTables();
}

function fillGames() {
  const select = $("game");
  const was = select.value;
  select.replaceChildren(...state.games.games.map((g) => el("option", { value: g.id, text: say("form.game_option", g) })));
  if (was) select.value = was;
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
      ? say("kept.over", { scores: t.result.scores.map((score, seat) => `${seatName(t.names, t.seats[seat], seat)} ${score}`).join(", ") })
      : say("kept.moves", { n: t.moves });
    const item = el("li", { dataset: { table: t.table, over: t.over } }, el("span", { text: say("kept.line", { title: t.title, who, how }) }));
    for (const link of t.links) {
      if (!t.playable) break;
      const url = `/t/${encodeURIComponent(t.table)}#${link.token}`;
      const text = !link.seats.length ? say("kept.watch") : t.over ? say("kept.look") : t.network ? say("kept.take", { n: link.seats[0] + 1 }) : say("kept.go_on");
      item.append(el("a", { href: url, class: "kept-link", text }), " ");
    }
    const token = (t.links.find((l) => l.seats.length) || t.links[0] || {}).token;
    if (t.over && token) {
      item.append(el("a", { href: `/api/tables/${encodeURIComponent(t.table)}/record?token=${encodeURIComponent(token)}`, download: true, class: "kept-record", text: say("kept.record") }));
    }
    list.append(item);
  }
  $("kept").hidden = data.tables.length === 0;
}

function seatName(names, kind, seat) {
  const name = names && names[seat];
  if (name) return name;
  return seatLabel(null, kind === state.games.human ? null : kind, seat);
}

function seatLabel(name, bot, seat) {
  // a seat as the page names it: its person's name, else its number and who plays it
  if (name) return say("seat.named", { name, n: seat + 1 });
  return bot ? say("seat.bot", { n: seat + 1, kind: bot }) : say("seat.person", { n: seat + 1 });
}

function label(snap, seat) {
  const info = snap.seats[seat];
  return seatLabel(snap.names[seat], info.bot ? info.kind : null, seat);
}

async function recordChosen() {
  // a record sets the form as it was played: its game, its players, who played each seat
  $("form-error").textContent = "";
  const file = $("record-file").files[0];
  if (!file) return;
  let record;
  try {
    if (file.size > 2000000) throw new Error(say("form.record_too_large"));
    record = JSON.parse(await file.text());
  } catch (err) {
    $("form-error").textContent = say("form.record_unread", { reason: err.message });
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

function dealHint() {
  // the deal's example is the chosen game's own cards
  const game = state.games.games.find((g) => g.id === $("game").value);
  $("deal-hint").textContent = say("form.deal_hint", { example: game ? game.deal_example : "" });
}

function playerCounts() {
  const game = state.games.games.find((g) => g.id === $("game").value);
  dealHint();
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
  const keptName = [...rows.querySelectorAll("input.seat-name")].map((s) => s.value);
  rows.replaceChildren();
  for (let seat = 0; seat < count; seat++) {
    const kind = el("select", { id: `seat-${seat}`, class: "seat-kind" },
      el("option", { value: state.games.human, text: say("form.person") }),
      ...state.games.bots.map((b) => el("option", { value: b.name, text: say("form.bot", b) })));
    kind.value = kept[seat] || (seat === 0 ? state.games.human : "greedy");
    const level = el("select", { id: `level-${seat}`, class: "seat-level" },
      el("option", { value: "", text: say("form.strength_default") }),
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => el("option", { value: String(n), text: String(n) })));
    level.value = keptLevel[seat] || "";
    const levelLabel = el("label", { for: `level-${seat}`, text: say("form.strength") });
    const name = el("input", { id: `name-${seat}`, class: "seat-name", type: "text", maxlength: 24, autocomplete: "off" });
    name.value = keptName[seat] || "";
    const nameLabel = el("label", { for: `name-${seat}`, text: say("form.name") });
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
      el("label", { for: `seat-${seat}`, text: say("form.seat", { n: seat + 1 }) }), kind, levelLabel, level, nameLabel, name));
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
    if (!/^[0-9]{1,15}$/.test(seed)) { $("form-error").textContent = say("form.seed_error"); return; }
    body.seed = Number(seed);
  }
  const file = $("record-file").files[0];
  try {
    if (file) {
      if (file.size > 2000000) throw new Error(say("form.record_too_large"));
      body.record = JSON.parse(await file.text());
      delete body.game;
    }
  } catch (err) {
    $("form-error").textContent = say("form.record_unread", { reason: err.message });
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
      const who = link.seats.length ? say("links.seat", { n: link.seats[0] + 1 }) : say("links.watch");
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
    await loadWords(chosenLang()).catch(() => {});
    $("status").textContent = err.message;
    $("table").hidden = true;
    $("lost").hidden = false;
    return;
  }
  state.game = snap.game;
  const lang = chosenLang() || snap.lang;
  await loadWords(lang).catch(() => loadWords(null));
  state.cards = await api(`/api/games/${encodeURIComponent(snap.game)}/cards?lang=${encodeURIComponent(state.lang)}`);
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
  const url = `/api/tables/${encodeURIComponent(state.table)}/events?token=${encodeURIComponent(state.token)}&lang=${encodeURIComponent(state.lang || "")}`;
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
  document.title = say("page.title_of", { title: snap.title });
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
  if (!state.thinking || state.thinking.key !== key) state.thinking = { key, since: Date.now(), seat: snap.current };
  const tick = () => {
    const seconds = Math.floor((Date.now() - state.thinking.since) / 1000);
    $("thinking-text").textContent = say("thinking", { who: capital(label(state.snap, state.thinking.seat)), seconds });
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
  if (snap.over) text = say("status.over");
  else if (snap.acting !== null) text = say(snap.discarding ? "status.discard" : "status.your_turn", { n: snap.acting + 1 });
  else text = say("status.to_move", { who: label(snap, snap.current) });
  if (snap.final_round && !snap.over) text += say("status.final");
  if (snap.stalled) text += say("status.stalled", { why: snap.stalled });
  if (!state.live) text += say("status.lost");
  $("status").textContent = say("status.round", { round: snap.round, text });
}

function renderPointRow(snap, moves) {
  const row = $("point-row");
  row.replaceChildren();
  for (const card of snap.point_row) {
    const move = moves.get(`claim ${card.slot}`);
    const coin = card.coin ? coinToken(card.coin) : el("span", { class: "coin-space", "aria-hidden": "true" });
    const face = move
      ? el("button", { type: "button", class: "card", "data-key": move.key, "aria-label": say("rows.claim", { slot: card.slot, card: cardWords("point", card.id) }), on: { click: () => pointAt(move.key) } }, cardImage("point", card.id, ""))
      : el("div", { class: "card" }, cardImage("point", card.id));
    row.append(el("li", { dataset: { slot: card.slot } }, coin, face));
  }
  if (!snap.point_row.length) row.append(el("li", { text: say("rows.none_left") }));
  $("decks").textContent = say("rows.decks", { merchant: snap.decks_left[0], point: snap.decks_left[1] });
}

function renderMerchantRow(snap, moves) {
  const row = $("merchant-row");
  row.replaceChildren();
  for (const card of snap.merchant_row) {
    const move = moves.get(`acquire ${card.slot}`);
    const said = { slot: card.slot, card: cardWords("merchant", card.id), cubes: cubeWords(card.cubes) };
    const face = move
      ? el("button", { type: "button", class: "card", "data-key": move.key, "aria-label": say(card.cubes ? "rows.acquire_lying" : "rows.acquire", said), on: { click: () => pointAt(move.key) } }, cardImage("merchant", card.id, ""))
      : el("div", { class: "card" }, cardImage("merchant", card.id));
    row.append(el("li", { dataset: { slot: card.slot } }, face, cubes(card.cubes, card.cubes ? say("rows.on_it", said) : say("rows.nothing_on_it"))));
  }
  if (!snap.merchant_row.length) row.append(el("li", { text: say("rows.none_left") }));
}

function renderSeats(snap) {
  const list = $("seat-list");
  list.replaceChildren();
  for (const seat of snap.seats) {
    const played = el("ul", { class: "mini" }, ...seat.played.map((id) => el("li", {}, cardImage("merchant", id))));
    const coins = seat.coins.length ? seat.coins.map((c) => say("seats.coin", { count: c.count, name: (state.cards.coins.find((x) => x.id === c.id) || { name: c.id }).name })).join(", ") : say("seats.none");
    const you = snap.you.includes(seat.seat) ? say("seats.you") : "";
    list.append(el("li", { class: `seat${seat.seat === snap.current && !snap.over ? " to-move" : ""}`, dataset: { seat: seat.seat, score: seat.score } },
      el("h3", { text: `${capital(label(snap, seat.seat))}${you}${seat.seat === snap.current && !snap.over ? say("seats.to_move") : ""}` }),
      el("dl", {},
        el("dt", { text: say("seats.score") }), el("dd", { class: "score", text: String(seat.score) }),
        el("dt", { text: say("seats.caravan") }), el("dd", {}, cubes(seat.caravan), el("span", { class: "hint", text: ` ${seat.caravan.length}/${snap.limit}` })),
        el("dt", { text: say("seats.points") }), el("dd", { text: String(seat.points.length) }),
        el("dt", { text: say("seats.coins") }), el("dd", { text: coins }),
        el("dt", { text: say("seats.in_hand") }), el("dd", { text: sayCount("seats.cards", seat.hand_size) }),
        el("dt", { text: say("seats.played") }), el("dd", {}, seat.played.length ? played : el("span", { text: say("seats.none") }))),
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
  if (!visible) $("pass-text").textContent = say("hand.pass", { n: snap.acting + 1 });
  const hand = $("hand-cards");
  hand.replaceChildren();
  $("hand-heading").textContent = seatNo === null ? say("hand.hands") : say("hand.heading_seat", { n: seatNo + 1 });
  if (visible && seatNo !== null) {
    const ids = snap.seats[seatNo].hand || [];
    const counts = new Map();
    for (const id of ids) counts.set(id, (counts.get(id) || 0) + 1);
    for (const [id, count] of counts) {
      const move = moves.get(`play ${id}`);
      const card = count > 1 ? say("hand.copies", { card: cardWords("merchant", id), count }) : cardWords("merchant", id);
      const face = move
        ? el("button", { type: "button", class: "card", "data-key": move.key, "aria-label": say("hand.play", { card }), on: { click: () => pointAt(move.key) } }, cardImage("merchant", id, ""))
        : el("div", { class: "card" }, cardImage("merchant", id));
      hand.append(el("li", { dataset: { card: id } }, face, count > 1 ? el("span", { class: "hint", text: `× ${count}` }) : null));
    }
    if (!ids.length) hand.append(el("li", { text: say("hand.empty") }));
  }
  // the seat's caravan beside its hand, to judge a trade or an upgrade without scrolling
  $("my-caravan").hidden = !visible || seatNo === null;
  if (visible && seatNo !== null) {
    const caravan = snap.seats[seatNo].caravan;
    $("my-cubes").replaceChildren(cubes(caravan), el("span", { class: "hint", text: ` ${caravan.length}/${snap.limit}` }));
  }
  const mine = visible && snap.acting !== null;
  $("rest").disabled = !(mine && moves.has("rest"));
  $("discard").hidden = !(mine && snap.discarding);
  $("undo").disabled = !snap.can_undo || state.busy;
  $("undo").hidden = snap.network;
  // the record is offered when the server gives it: on the network, once the game is over
  $("download").hidden = !snap.record_open;
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
  const best = snap.winners.map((s) => label(snap, s)).join(say("result.and"));
  const mine = snap.you.length === 1 ? say(snap.winners.includes(snap.you[0]) ? "result.you_won" : "result.you_lost") : "";
  $("winner").textContent = say("result.won_by", { who: best }) + mine;
  $("tie-break").textContent = snap.tie_break || "";
  const ranked = snap.breakdown.slice().sort((a, b) => (snap.winners.includes(b.seat) - snap.winners.includes(a.seat)) || b.total - a.total || a.seat - b.seat);
  $("scores").replaceChildren(...ranked.map((part) => {
    const parts = [sayCount("result.point_cards", part.point_cards, { points: part.point_card_points })];
    for (const coin of part.coins) parts.push(say("result.coins", { ...coin, points: coin.count * coin.value }));
    for (const cube of part.cubes) parts.push(say("result.cubes", { ...cube, points: cube.count * cube.each }));
    const who = capital(label(snap, part.seat));
    return el("li", { dataset: { seat: part.seat, score: part.total } },
      el("strong", { text: sayCount("result.total", part.total, { who }) }),
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
    $("move-error").textContent = say("result.no_rematch", { reason: err.message });
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
  const known = ["play", "acquire", "discard"].includes(move.verb);
  $("chooser-title").textContent = known ? say(`box.${move.verb}`, { card: move.name, slot: move.what }) : move.key;
  $("chooser-hint").textContent = known ? say(`box.${move.verb}_hint`) : "";
  $("chooser-cancel").hidden = move.verb === "discard";
  const list = $("chooser-options");
  list.replaceChildren();
  for (const option of move.options) {
    // each way with what it does: the cubes paid and gained, and the caravan it leaves
    const isDefault = option.move === move.default;
    const deal = [];
    if (option.paid) deal.push(say("box.pay", { cubes: spaced(option.paid) }));
    if (option.gained) deal.push(say("box.get", { cubes: spaced(option.gained) }));
    const said = isDefault ? say("box.suggested", { way: option.words }) : option.words;
    const dealt = deal.length ? deal.join(", ") : say("box.nothing_paid");
    const button = el("button", {
      type: "button", class: isDefault ? "default" : null, dataset: { move: option.move },
      "aria-label": say("box.option_label", { way: said, deal: dealt, cubes: cubeWords(option.after) }),
      on: { click: () => { $("chooser").close(); send(option.move, version); } },
    },
    el("span", { class: "way", text: said }),
    el("span", { class: "deal", text: dealt }),
    el("span", { class: "after" }, el("span", { class: "hint", text: say("box.after") }), cubes(option.after)));
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
    $("move-error").textContent = say("error.move", { reason: err.message });
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
    $("move-error").textContent = say("error.undo", { reason: err.message });
  }
}

function download(event) {
  // the link downloads the record; its href is set with the token on every render
  if (!state.table) event.preventDefault();
}

// -- start ---------------------------------------------------------------------------------

document.addEventListener("DOMContentLoaded", () => {
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,64})$/);
  $("lang").addEventListener("change", () => { switchLang().catch((err) => { $("move-error").textContent = err.message; }); });
  if (match) {
    showTable(match[1], decodeURIComponent(location.hash.slice(1)));
  } else {
    loadWords(chosenLang()).catch(() => loadWords(null)).then(showNewGame).catch((err) => { $("form-error").textContent = err.message; });
  }
});

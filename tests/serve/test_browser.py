"""`century serve` as people use it: a real Chromium (the operating system's, driven by
Playwright; never a downloaded browser) against `century serve` in a process of its own.

- a whole game played by clicking, against a bot, to the end: the final scores on the page
  are those of the engine replaying the record the page downloads;
- a network game on two devices (two browser contexts, each with its seat's secret link):
  each sees its own hand only, moves arrive live, a seat that drops rejoins;
- the page checked with axe-core (bundled by axe-playwright-python, nothing fetched), and a
  game started and played with the keyboard alone.

Without Playwright or Chromium these tests are skipped, saying which is missing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import bundled_rulesets
from helpers.serve import CHROMIUM_FLAGS, browser_skip_reason, chromium, served

REASON = browser_skip_reason()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]

PLAYERS_SEED = 11
TURNS = 400
"""A bound on the turns a test plays (a game against the greedy bot takes far fewer)."""


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium(), args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def page_errors():
    return []


def new_page(browser, errors, **options):
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, **options)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return page


def start_game(page, url, game, seats, seed, network=False):
    page.goto(url)
    page.wait_for_selector("#seat-rows .seat-row")
    page.select_option("#game", game)
    page.select_option("#players", str(len(seats)))
    for seat, kind in enumerate(seats):
        page.select_option(f"#seat-{seat}", kind)
    page.fill("#seed", str(seed))
    if network:
        page.check("#network")
    page.click("#start")


def mirror(engine, page, players, seed):
    """The engine's state after the moves the page's log lists."""
    moves = page.eval_on_selector_all("#log li", "items => items.map(i => i.dataset.move)")
    state = engine.new_game(players, seed)
    for move in moves:
        state.play(move)
    return state


def my_turn(page, seat):
    # selectors, not script: the page's Content-Security-Policy forbids eval, which older
    # Playwrights use for wait_for_function
    page.wait_for_selector(f"body[data-over='true'], body[data-acting='{seat}']", state="attached")
    return page.evaluate("() => document.body.dataset.over") != "true"


def logged_more(page, count):
    """Wait for the move log to hold more than `count` entries."""
    page.wait_for_selector(f"#log li:nth-child({count + 1})", state="attached")


def acting(page, seat):
    page.wait_for_selector(f"body[data-acting='{seat}']", state="attached")


def click_move(page, move):
    """Make `move` by pointing: the card, slot or button of its entry, then its way in the
    chooser when it has several."""
    from century.engine.choices import split_move

    key, _ = split_move(move)
    logged = page.locator("#log li").count()
    if not page.locator("#chooser").evaluate("d => d.open"):
        page.locator(f"[data-key={json.dumps(key)}]").click()
    chooser = page.locator("#chooser")
    if chooser.evaluate("d => d.open"):
        chooser.locator(f"button[data-move={json.dumps(move)}]").click()
    logged_more(page, logged)


def box_shows_the_engines_outcomes(page, state, move) -> int:
    """Open the box of `move`'s card or slot, when it has several ways, and check that each
    way draws the caravan the engine leaves after it and says what is paid (1), else 0. The
    box stays open for `click_move`."""
    from century.engine.choices import split_move

    key, _ = split_move(move)
    ways = [m for m in state.legal_moves() if split_move(m)[0] == key]
    if len(ways) < 2:
        return 0
    page.locator(f"[data-key={json.dumps(key)}]").click()
    page.wait_for_selector("#chooser[open]")
    shown = page.eval_on_selector_all(
        "#chooser-options button",
        """buttons => buttons.map(b => [
            b.dataset.move, b.querySelector('[data-after]').dataset.after,
            [...b.querySelectorAll('.after .cube')].map(c => c.textContent).join(''),
            b.querySelector('.deal').textContent])""",
    )
    assert sorted(m for m, *_ in shown) == sorted(ways)
    seat = state.current_player
    before = state.view().caravan(seat).text
    for way, after, drawn, deal in shown:
        played = state.clone()
        played.play(way)
        held = played.view().caravan(seat).text
        assert after == held and drawn == held.upper(), (way, after, drawn)
        gone = "".join(sorted(set(before) - set(held)))
        assert deal == "nothing paid" or deal.startswith(("pay ", "get ")), deal
        assert all(code.upper() in deal for code in gone), (way, deal)
    title = page.text_content("#chooser-title") or ""
    assert title.startswith(("Play the ", "Acquire the ", "Your caravan")), title
    return 1


def test_a_whole_game_by_clicking_against_a_bot_ends_with_the_engines_scores(
    browser, page_errors, tmp_path: Path
):
    from century.bots.registry import GreedyBot
    from century.engine import load_engine

    ruleset = bundled_rulesets()["spice-road"]
    engine = load_engine(ruleset)
    me = GreedyBot(engine, ruleset, 1)  # decides; the page is only ever clicked
    with served() as (url, _):
        page = new_page(browser, page_errors)
        start_game(page, url, "spice-road", ["human", "greedy"], PLAYERS_SEED)
        page.wait_for_selector("#hand-cards li")
        kinds, boxes = set(), 0
        for _ in range(TURNS):
            if not my_turn(page, 0):
                break
            now = mirror(engine, page, 2, PLAYERS_SEED)
            move = me.choose(now)
            kinds.add(move.split()[0])
            boxes += box_shows_the_engines_outcomes(page, now, move)
            click_move(page, move)
        assert page.evaluate("() => document.body.dataset.over") == "true"
        assert {"play", "acquire", "claim"} <= kinds
        assert boxes >= 3
        shown = page.eval_on_selector_all(
            "#scores li",
            "items => items.map(i => [Number(i.dataset.seat), Number(i.dataset.score)])",
        )
        shown = [score for _, score in sorted(shown)]  # listed best first
        with page.expect_download() as download:
            page.click("#download")
        saved = tmp_path / "record.json"
        download.value.save_as(saved)
        record = json.loads(saved.read_text())
        replayed = engine.replay(record)
        assert replayed.is_over()
        assert shown == replayed.scores()
        assert record["seats"] == ["human", "greedy"]
        winner = page.text_content("#winner") or ""
        assert f"seat {replayed.winner() + 1}" in winner
    assert page_errors == []


def test_a_network_game_on_two_devices(browser, page_errors):
    with served("--host", "127.0.0.1") as (url, _):
        host = new_page(browser, page_errors)
        start_game(host, url, "spice-road", ["human", "human"], 4, network=True)
        host.wait_for_selector("#links:not([hidden]) a.seat-link")
        links = {
            a.get_attribute("data-seats"): a.get_attribute("href")
            for a in host.locator("a.seat-link").all()
        }
        one = new_page(browser, page_errors)  # a context of its own: another device
        two = new_page(browser, page_errors)
        one.goto(links["0"])
        two.goto(links["1"])
        for page in (one, two):
            page.wait_for_selector("#seat-list li")
        # each sees its own hand, and of the other only how many cards it holds
        assert one.text_content("#hand-heading") == "Your hand (seat 1)"
        assert one.locator("#hand-cards li").count() > 0
        assert two.locator("#hand-cards li").count() > 0
        assert one.locator("[data-key^='play']").count() > 0
        assert (
            two.locator("button[data-key]:not([disabled]):not([hidden])").count() == 0
        )  # not its turn
        # a move on one device arrives live on the other, which then moves
        click_move(one, "rest")
        acting(two, 1)
        assert "Seat 1 (person) rests" in (two.text_content("#log") or "")
        # seat 2 drops and rejoins through its link
        two.context.close()
        back = new_page(browser, page_errors)
        back.goto(links["1"])
        acting(back, 1)
        click_move(back, "rest")
        acting(one, 0)
        assert one.locator("#log li").count() == 2
        # a made-up token gets a clear refusal and no table
        stranger = new_page(browser, [])
        stranger.goto(links["1"].split("#")[0] + "#not-a-seat-token")
        stranger.wait_for_selector("#status:not(:empty)", state="attached")
        assert "not one of this table's" in (stranger.text_content("#status") or "")
    assert page_errors == []


def test_the_page_passes_axe_and_plays_with_the_keyboard_alone(browser, page_errors):
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    with served() as (url, _):
        page = new_page(browser, page_errors)
        page.goto(url)
        page.wait_for_selector("#seat-rows .seat-row")
        found = axe.run(page)
        assert found.violations_count == 0, found.generate_report()
        # start with the keyboard: Tab to the button, Enter
        for _ in range(40):
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement.id") == "start":
                break
        page.keyboard.press("Enter")
        page.wait_for_selector("#hand-cards button.card")
        found = axe.run(page)
        assert found.violations_count == 0, found.generate_report()
        # play: Tab to a card of the hand that can be played, Enter, Enter in the chooser
        for turn in range(3):
            acting(page, 0)
            logged = page.locator("#log li").count()
            for _ in range(80):
                page.keyboard.press("Tab")
                key = page.evaluate("() => document.activeElement.dataset.key || ''")
                if key.startswith("play") or (turn == 2 and key == "rest"):
                    break
            else:
                raise AssertionError("no card of the hand could be reached with Tab")
            page.keyboard.press("Enter")
            if page.locator("#chooser").evaluate("d => d.open"):
                found = axe.run(page)
                assert found.violations_count == 0, found.generate_report()
                page.keyboard.press("Enter")  # the suggested way has the focus
            logged_more(page, logged)
    assert page_errors == []


def test_hot_seat_hides_each_hand_until_its_person_asks_and_undo_takes_back(
    browser, page_errors, tmp_path: Path
):
    with served() as (url, _):
        page = new_page(browser, page_errors)
        start_game(page, url, "golem", ["human", "human", "greedy"], 8)
        page.wait_for_selector("#pass:not([hidden])")  # every hand hidden until asked for
        page.click("#reveal")
        page.wait_for_selector("#hand-cards button.card")
        assert page.text_content("#hand-heading") == "Your hand (seat 1)"
        click_move(page, "rest")
        # seat 2's turn on the same screen: its hand hidden until it asks; Undo offered at once
        # (no other change follows a person's move here to draw it again)
        acting(page, 1)
        page.wait_for_selector("#undo:not([disabled])", state="attached", timeout=5_000)
        page.wait_for_selector("#pass:not([hidden])")
        assert page.locator("#hand-cards li").count() == 0
        assert "pass the screen" in (page.text_content("#pass-text") or "")
        page.click("#reveal")
        page.wait_for_selector("#hand-cards button.card")
        assert page.text_content("#hand-heading") == "Your hand (seat 2)"
        click_move(page, "rest")
        logged_more(page, 2)  # the bot answered
        acting(page, 0)
        assert page.locator("#log li").count() == 3
        # undo: back to seat 2's decision, the bot's answer taken back too
        page.click("#undo")
        page.wait_for_selector("#log li:nth-child(2)", state="detached")
        assert page.locator("#log li").count() == 1
        acting(page, 1)
        # the record downloaded continues in a new table, its seats as they were
        with page.expect_download() as download:
            page.click("#download")
        saved = tmp_path / "record.json"
        download.value.save_as(saved)
        page.goto(url)
        page.wait_for_selector("#seat-rows .seat-row")
        page.set_input_files("#record-file", str(saved))
        page.wait_for_selector("#seat-rows .seat-row:nth-child(3)")
        assert page.input_value("#game") == "golem"
        assert [page.input_value(f"#seat-{n}") for n in range(3)] == ["human", "human", "greedy"]
        page.click("#start")
        page.wait_for_selector("#log li")
        assert page.locator("#log li").count() == 1
        acting(page, 1)
    assert page_errors == []


def test_a_restarted_server_goes_on_with_the_open_page(browser, page_errors, tmp_path: Path):
    import socket

    with socket.socket() as probe:  # one port for both servers: the page stays where it is
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    db = tmp_path / "tables.sqlite3"
    with served("--port", port, db=db) as (url, _):
        page = new_page(browser, page_errors)
        start_game(page, url, "spice-road", ["human", "greedy"], 12)
        acting(page, 0)
        click_move(page, "rest")
        logged_more(page, 1)  # the bot answered
        acting(page, 0)
        page.wait_for_selector("body[data-live='on']", state="attached")
    # stopped: the page says so, and goes on by itself once the server is back
    page.wait_for_selector("body[data-live='off']", state="attached")
    assert "connection to the server is lost" in (page.text_content("#status") or "")
    with served("--port", port, db=db) as (again, _):
        assert again == url
        page.wait_for_selector("body[data-live='on']", state="attached", timeout=30_000)
        assert "lost" not in (page.text_content("#status") or "")
        click_move(page, "rest")
        logged_more(page, 3)  # the restored table's bot answered
        acting(page, 0)
        # the front page lists the table with its link
        page.goto(url)
        page.wait_for_selector("#kept:not([hidden]) a.kept-link")
        page.click("a.kept-link")
        page.wait_for_selector("#log li:nth-child(4)", state="attached")
        acting(page, 0)
    # the browser's own notes of the refused connections while the server was down
    assert [e for e in page_errors if "net::ERR" not in e and "Failed to load" not in e] == []


def test_hot_seat_offers_undo_at_once_after_a_persons_move(browser, page_errors):
    with served() as (url, _):
        page = new_page(browser, page_errors)
        # the move's own answer must draw the table: no live update comes after it (the live
        # channel held back here, so the order of the two cannot hide a stale Undo)
        page.route("**/events?*", lambda route: route.abort())
        start_game(page, url, "spice-road", ["human", "human"], 3)
        page.wait_for_selector("#pass:not([hidden])")
        page.click("#reveal")
        click_move(page, "rest")
        acting(page, 1)
        page.wait_for_selector("#undo:not([disabled])", state="attached", timeout=5_000)
        page.click("#undo")
        page.wait_for_selector("#log li", state="detached")
        acting(page, 0)
    assert [e for e in page_errors if "net::ERR_FAILED" not in e] == []


def test_a_box_left_open_is_not_applied_to_a_newer_table(browser, page_errors):
    with served() as (url, _):
        first = new_page(browser, page_errors)
        start_game(first, url, "spice-road", ["human", "greedy"], 5)
        acting(first, 0)
        second = first.context.new_page()  # the same seat in another tab
        second.goto(first.url)
        acting(second, 0)
        ways = first.evaluate("() => state.snap.moves.filter(m => m.options.length > 1)[0].key")
        first.locator(f"[data-key={json.dumps(ways)}]").click()
        first.wait_for_selector("#chooser[open]")
        click_move(second, "rest")  # meanwhile: the other tab rests, the bot answers
        logged_more(first, 1)
        acting(first, 0)
        assert first.locator("#chooser").evaluate("d => d.open")
        first.locator("#chooser-options button").first.click()
        first.wait_for_selector("#move-error:not(:empty)", state="attached")
        assert "the table has changed since" in (first.text_content("#move-error") or "")
        moves = first.eval_on_selector_all("#log li", "items => items.map(i => i.dataset.move)")
        assert moves[0] == "rest" and len(moves) == 2
    assert [e for e in page_errors if "409 (Conflict)" not in e] == []  # the refusal itself


FOCUSED = "() => document.activeElement.id || document.activeElement.tagName"
"""Where the keyboard is: the focused element's id, else its tag (``BODY``)."""


def test_after_rest_by_keyboard_the_next_card_is_one_tab_away(browser, page_errors):
    with served(pause=1.5) as (url, _):  # the bot answers after the page drew the rest
        page = new_page(browser, page_errors)
        start_game(page, url, "spice-road", ["human", "greedy"], 6)
        acting(page, 0)
        page.focus("#rest")
        page.keyboard.press("Enter")
        # the rest drawn (Rest now disabled): the focus is by the hand, not on the page's body
        # (where a browser that fixes focus up late left it, 13 Tabs from the next card)
        logged_more(page, 0)
        assert page.evaluate(FOCUSED) == "hand"
        # while the bot decides, the page says so, with the seconds
        page.wait_for_selector("#thinking:not([hidden])")
        said = page.text_content("#thinking") or ""
        assert said.startswith("Seat 2 (greedy) is thinking… ") and said.endswith(" s"), said
        logged_more(page, 1)  # the bot answered
        page.wait_for_selector("#thinking", state="hidden")
        acting(page, 0)
        assert page.evaluate(FOCUSED) == "hand"
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.dataset.key || ''").startswith("play")
    assert page_errors == []


def test_sigterm_while_the_cards_are_drawn_ends_at_once(browser, page_errors):
    import signal
    import subprocess

    with served() as (url, process):
        page = new_page(browser, page_errors)
        start_game(page, url, "golem", ["human", "greedy"], 7)  # its cards drawn on demand
        page.wait_for_selector("#seat-list li")
        process.send_signal(signal.SIGTERM)
        try:
            assert process.wait(5) == 0  # a bound on waiting: the drawing alone takes longer
        except subprocess.TimeoutExpired:
            raise AssertionError("century serve did not stop within 5 s of SIGTERM") from None


def test_a_named_network_game_through_the_lobby_ends_with_a_rematch(
    browser, page_errors, tmp_path: Path
):
    from century.bots.registry import GreedyBot
    from century.engine import load_engine

    ruleset = bundled_rulesets()["spice-road"]
    engine = load_engine(ruleset)
    state, bot = engine.new_game(3, 21), GreedyBot(engine, ruleset, 21)
    movers = []
    while not state.is_over():
        movers.append(state.current_player)
        state.play(bot.choose(state))
    last = movers[-1]  # the final move is a person's, made by clicking
    other = (last + 1) % 3
    seats = ["human" if seat in (last, other) else "greedy" for seat in range(3)]
    record = {**state.record(), "moves": state.moves()[:-1], "seats": seats}
    saved = tmp_path / "nearly.json"
    saved.write_text(json.dumps(record))
    with served("--host", "127.0.0.1") as (url, _):
        host = new_page(browser, page_errors)
        host.goto(url)
        host.wait_for_selector("#seat-rows .seat-row")
        host.set_input_files("#record-file", str(saved))
        host.wait_for_selector("#seat-rows .seat-row:nth-child(3)")
        host.check("#network")
        host.click("#start")
        host.wait_for_selector("#links:not([hidden]) a.seat-link")
        pages = {}
        for seat, name in ((last, "Ann"), (other, "Bo")):  # each takes a seat in the lobby
            page = new_page(browser, page_errors)
            page.goto(url)
            page.wait_for_selector(f"#kept a.kept-link:text('Take seat {seat + 1}')")
            page.click(f"#kept a.kept-link:text('Take seat {seat + 1}')")
            page.wait_for_selector("#name-form:not([hidden])")
            page.fill("#my-name", name)
            page.click("#take-seat")
            page.wait_for_selector("#name-form", state="hidden")
            pages[seat] = page
        # a taken seat leaves the lobby; the watch link stays
        host.goto(url)
        host.wait_for_selector("#kept a.kept-link")
        texts = host.eval_on_selector_all(
            "#kept a.kept-link", "links => links.map(a => a.textContent)"
        )
        assert texts == ["Watch"]
        ann, bo = pages[last], pages[other]
        acting(ann, last)
        assert ann.locator("#download").is_hidden()  # no record mid-game on the network
        click_move(ann, state.moves()[-1])
        for page in (ann, bo):
            page.wait_for_selector("#result:not([hidden])")
        with ann.expect_download() as download:  # the game over, the record is offered
            ann.click("#download")
        kept = tmp_path / "over.json"
        download.value.save_as(kept)
        assert engine.replay(json.loads(kept.read_text())).is_over()
        said = ann.text_content("#scores") or ""
        assert f"Ann (seat {last + 1}): " in said and f"Bo (seat {other + 1}): " in said
        assert "point card" in said
        winner = state.winner()
        assert ("You won." in (ann.text_content("#winner") or "")) == (winner == last)
        # Ann asks for a rematch; Bo's page offers its own seat there
        ann.click("#rematch")
        ann.wait_for_selector("#seat-list li")
        bo.wait_for_selector("#rematch-link:not([hidden])")
        bo.click("#rematch-go")
        bo.wait_for_selector("#seat-list li")
        assert bo.text_content("#hand-heading") == f"Your hand (seat {other + 1})"
        assert bo.locator("#name-form").is_hidden()  # still Bo there
        labels = bo.eval_on_selector_all("#seat-list h3", "hs => hs.map(h => h.textContent)")
        assert any(label.startswith(f"Bo (seat {other + 1})") for label in labels), labels
        # both at the same new table, each with a link of its own
        assert bo.url.split("#")[0] == ann.url.split("#")[0] and bo.url != ann.url
    assert page_errors == []


def test_the_page_speaks_the_tables_language_and_each_seat_switches_its_own(browser, page_errors):
    from century.serve.words import counted, words

    german, french = words("de"), words("fr")
    with served("--lang", "de") as (url, _):
        page = new_page(browser, page_errors)
        page.goto(url)
        page.wait_for_selector("#seat-rows .seat-row")
        assert page.text_content("#start") == german["form.start"]
        assert page.evaluate("() => document.documentElement.lang") == "de"
        start_game(page, url, "spice-road", ["human", "greedy"], 9)
        acting(page, 0)
        assert page.text_content("#status") == "Runde 1. Platz 1: du bist am Zug."
        assert page.text_content("#rest") == german["actions.rest"]
        assert page.text_content("#hand-heading") == "Deine Hand (Platz 1)"
        click_move(page, "rest")  # a move in German; the bot answers
        logged_more(page, 1)
        acting(page, 0)
        log = page.eval_on_selector_all("#log li", "items => items.map(i => i.textContent)")
        assert log[0].startswith("Platz 1 (Mensch) ruht sich aus"), log
        heads = page.eval_on_selector_all("#seat-list h3", "hs => hs.map(h => h.textContent)")
        assert heads == ["Platz 1 (Mensch) – du (am Zug)", "Platz 2 (greedy)"], heads
        # this seat switches to French: the page's words and the cards' names change at once
        page.select_option("#lang", "fr")
        page.wait_for_selector("#status:text-is('Tour 2. Place 1 : à vous de jouer.')")
        assert page.text_content("#rest") == french["actions.rest"]
        assert page.text_content("#seats-heading") == french["seats.heading"]
        hands = page.eval_on_selector_all(  # each seat's hand counted in French's plural
            f"#seat-list dt:text-is('{french['seats.in_hand']}') + dd",
            "dds => dds.map(d => d.textContent)",
        )
        counts = [int(hand.split()[0]) for hand in hands]
        assert len(hands) == 2 and hands == [counted("fr", "seats.cards", n) for n in counts]
        card = page.locator("#hand-cards button.card").first
        label = card.get_attribute("aria-label") or ""
        assert label.startswith("Jouer ")
        # the server's words follow the seat: the card's effect as the French rule sheet says it
        from century.shared.effects import effect_sayer

        ruleset = bundled_rulesets()["spice-road"]
        say = effect_sayer(ruleset, "fr")
        assert any(say(tuple(c.effect)) in label for c in ruleset.starting_cards), label
        logged = page.locator("#log li").count()
        card.click()  # a move in French: the card, and its first way when it has several
        if page.locator("#chooser").evaluate("d => d.open"):
            way = page.locator("#chooser-options button").first
            assert french["way.upgrade"].split("{")[0] in (way.get_attribute("aria-label") or "")
            way.click()
        logged_more(page, logged + 1)  # the move and the bot's answer
        acting(page, 0)
        assert page.text_content("#status") == "Tour 3. Place 1 : à vous de jouer."
        # kept for this seat: a reload speaks French again; the table itself stays German
        page.reload()
        page.wait_for_selector("#status:text-is('Tour 3. Place 1 : à vous de jouer.')")
        assert page.text_content("#rest") == french["actions.rest"]
        assert page.evaluate("() => document.documentElement.lang") == "fr"
        other = new_page(browser, page_errors)
        other.goto(url)
        other.wait_for_selector("#seat-rows .seat-row")
        assert other.text_content("#start") == german["form.start"]
    assert page_errors == []


def test_the_hand_sits_by_the_caravan_on_a_phone_and_the_actions_above_a_laptops_fold(
    browser, page_errors
):
    def box(page, selector):
        found = page.locator(selector).bounding_box()
        assert found is not None, f"{selector} is not drawn"
        return found

    with served() as (url, _):
        for width, height in ((390, 844), (1280, 720)):
            context = browser.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            page.on("pageerror", lambda err: page_errors.append(str(err)))
            start_game(page, url, "spice-road", ["human", "greedy", "greedy"], 70)
            acting(page, 0)
            page.wait_for_selector("#hand-cards img")
            cards, actions = box(page, "#hand-cards"), box(page, ".actions")
            caravan = box(page, "#my-caravan")
            # the seat's own caravan, as the players' list draws it, right above its hand
            own = page.eval_on_selector("#seat-list li[data-seat='0'] .cubes", "c => c.textContent")
            assert page.eval_on_selector("#my-caravan .cubes", "c => c.textContent") == own
            assert 0 <= cards["y"] - (caravan["y"] + caravan["height"]) < 40, (caravan, cards)
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            if width == 1280:  # Rest, Undo and the hand without scrolling
                assert actions["y"] + actions["height"] <= height, actions
            context.close()
    assert page_errors == []


def test_the_deal_hint_shows_the_chosen_games_own_cards_in_the_pages_language(browser, page_errors):
    from century.serve.words import words

    def example(game):
        deck = bundled_rulesets()[game].merchant_deck
        return f"hand.1={deck[0].id},row.3={deck[1].id}"

    with served() as (url, _):
        page = new_page(browser, page_errors)
        page.goto(url)
        page.wait_for_selector("#seat-rows .seat-row")
        first = page.input_value("#game")
        hint = words("en")["form.deal_hint"]
        assert page.text_content("#deal-hint") == hint.format(example=example(first))
        page.select_option("#game", "golem")
        assert page.text_content("#deal-hint") == hint.format(example=example("golem"))
        page.select_option("#lang", "de")
        german = words("de")["form.deal_hint"].format(example=example("golem"))
        page.wait_for_selector(f"#deal-hint:text-is('{german}')")
        assert page.input_value("#game") == "golem"
    assert page_errors == []

"""Replay with the fairness check; profile, leaderboard, tournaments and rules pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import resolve
from playwright.sync_api import expect

from tests.e2e.flows import create_table, play_to_end, sign_up, wait_counted


def _api_exists(path: str) -> bool:
    return resolve(path).func.__name__ != "api_not_found"


@pytest.mark.timeout(180)
def test_replay_steps_through_the_match_and_checks_the_shuffle(player: Any) -> None:
    person = player()
    sign_up(person)
    page = person.page
    table_id = create_table(page, "alager", 3, {"penalty_limit": 1})
    play_to_end(page, "alager")
    seed = page.request.get(f"/api/tables/{table_id}/").json()["seed"]

    page.goto(f"/tables/{table_id}/replay/")

    verdict = page.locator("#verdict")
    verdict.wait_for()
    assert (
        verdict.text_content() == "✔ Fair: every deal follows from the published seed."
    )
    assert page.locator("#seed").text_content() == seed
    assert page.locator("#hash-check").text_content() == "matches"
    frames = int(page.get_attribute("#slider", "max") or 0) + 1
    step = page.locator("#step-text")
    assert step.text_content().startswith(f"Step {frames} of {frames}: ")
    page.get_by_role("button", name="Step back").click()
    assert step.text_content().startswith(f"Step {frames - 1} of {frames}: ")
    page.keyboard.press("Home")
    assert step.text_content().startswith(f"Step 1 of {frames}: ")
    # All cards open: every seat's hand is drawn face up once the deal is made.
    while "Deal 1:" not in step.text_content():
        page.get_by_role("button", name="Step forward").click()
    assert page.locator("#board .opponent svg.back").count() == 0
    assert page.locator("#board .opponent svg.card").count() == 9
    # One seat's view: the others' hands are backs again.
    page.select_option("#viewpoint", "0")
    page.wait_for_selector("#board .my-hand")
    assert page.locator("#board .opponent svg.back").count() == 6


@pytest.mark.timeout(120)
def test_profile_after_a_few_matches(player: Any) -> None:
    person = player()
    if not _api_exists("/api/stats/players/x/"):
        person.expected_failures.append("/api/stats/")
    name = sign_up(person)
    page = person.page
    ids = []
    for _ in range(2):
        ids.append(create_table(page, "alkort", 2, {"target": 1}, rated=True))
        play_to_end(page, "alkort")
    assert page.request.get(f"/api/tables/{ids[0]}/").json()["rated"] is True
    stats = _api_exists(f"/api/stats/players/{name}/")
    if stats:
        wait_counted(page, name, "alkort", 2)

    page.goto(f"/players/{name}/")

    recent = page.locator("#recent-tables li")
    recent.first.wait_for()
    assert recent.count() == 2
    assert [
        f"#{i}" in text
        for i, text in zip(ids[::-1], recent.all_text_contents(), strict=True)
    ] == [True, True]
    if stats:
        page.wait_for_selector("#ratings")
        # Each game's history is fetched after the ratings table is drawn and
        # lands in its panel when it arrives: wait for it, do not count at once.
        history = page.locator(".rating-history")
        assert history.count() >= 1
        history.first.locator("svg.chart, .empty").wait_for()
        assert history.first.locator("svg.chart").count() == 1
        # The figures of the one game played, headline figures as tiles.
        figures = page.locator(".game-figures")
        assert figures.evaluate_all("nodes => nodes.map(n => n.dataset.game)") == [
            "alkort"
        ]
        assert figures.locator("[data-figure=matches] .stat").text_content() == "2"
        assert (
            figures.locator("[data-figure=win_rate] .stat").text_content().endswith("%")
        )
        assert figures.locator("dt", has_text="Tricks won").count() == 1
        # How far counting has got is a line, not a chart of its own.
        assert (
            page.locator("#counted")
            .text_content()
            .startswith("Up to date with the site's ")
        )
        assert page.get_by_text("Computed through").count() == 0

        # The house bot's page lists the tables it sat at too.
        page.goto("/players/bot-random/")
        page.locator("#recent-tables li").first.wait_for()
        listed = " ".join(page.locator("#recent-tables li").all_text_contents())
        assert all(f"#{i} " in listed for i in ids), listed

        page.goto("/games/alkort/")
        opener = page.locator("#first-player tbody tr", has_text="50%")
        opener.first.wait_for()
        assert opener.first.locator("th").text_content() == "2"
        length = page.locator("[data-figure=average_minutes] .stat").text_content()
        assert length.endswith((" s", " min")), length
        assert page.locator("section svg.chart").count() == 1
    else:
        assert page.get_by_text(
            f"{name} has no statistics yet: they appear after the first finished match."
        ).is_visible()


@pytest.mark.timeout(60)
def test_leaderboard_tournaments_and_rules_pages(player: Any) -> None:
    person = player()
    if not _api_exists("/api/stats/leaderboards/alkort/"):
        person.expected_failures.append("/api/stats/")
    if not _api_exists("/api/tournaments/"):
        person.expected_failures.append("/api/tournaments/")
    page = person.page

    page.goto("/leaderboards/alkort/")
    if _api_exists("/api/stats/leaderboards/alkort/"):
        page.wait_for_selector("#leaderboard, .empty:has-text('No rated players yet')")
    else:
        page.get_by_text(
            "No rated players yet: play a rated match to appear here."
        ).wait_for()

    page.goto("/tournaments/")
    if _api_exists("/api/tournaments/"):
        page.wait_for_selector(
            "#tournament-list, .empty:has-text('No tournaments yet')"
        )
    else:
        page.get_by_text(
            "No tournaments yet: organisers create them in the admin."
        ).wait_for()

    page.goto("/rules/allegra/")
    assert page.locator("article.rules-doc h1").count() >= 1
    page.goto("/games/alager/")
    page.wait_for_selector("#stats-root .panel, #stats-root .empty")


@pytest.mark.timeout(60)
def test_rating_chart_module_draws_history_and_band(player: Any) -> None:
    page = player().page
    page.goto("/")

    drawn = page.evaluate(
        """async () => {
          const { lineChart, barChart } = await import('/static/web/js/chart.js');
          const points = [20, 22.5, 21, 24].map((y, i) => ({ y, low: y - 2, high: y + 3, label: `match ${i + 1}` }));
          const line = lineChart(points, { title: 'alkort rating history' });
          const bars = barChart([{ label: 'wins', value: 3 }, { label: 'losses', value: 1 }], { title: 'results' });
          const one = lineChart([{ y: 5, low: 5, high: 10, axis: 'first match' }], { title: 'one match' });
          document.body.append(line, bars, one);
          return {
            one: {
              bar: one.querySelectorAll('rect.band').length,
              axis: [...one.querySelectorAll('text')].map(t => t.textContent).filter(t => t === 'first match').length,
            },
            label: line.getAttribute('aria-label'),
            dots: line.querySelectorAll('circle').length,
            vertices: line.querySelector('polyline').getAttribute('points').split(' ').length,
            band: line.querySelector('polygon').getAttribute('points').split(' ').length,
            tips: [...line.querySelectorAll('circle title')].map(t => t.textContent),
            bars: [...bars.querySelectorAll('rect')].map(r => Number(r.getAttribute('width'))),
          };
        }"""
    )

    # One rated match: its band is a bar, and the axis names it once.
    assert drawn["one"] == {"bar": 1, "axis": 1}
    assert drawn["label"] == "alkort rating history"
    assert drawn["dots"] == 4
    assert drawn["vertices"] == 4
    assert drawn["band"] == 8
    assert drawn["tips"] == ["match 1", "match 2", "match 3", "match 4"]
    wins, losses = drawn["bars"]
    assert wins == pytest.approx(3 * losses)


@pytest.mark.timeout(60)
def test_a_doubled_allegra_round_says_what_was_doubled(player: Any) -> None:
    """The rounds table showed a doubled trigger's score as "44×2" (read: 88)
    and the log ended in a bare "(doubled)": say the raw score and whose."""
    page = player().page
    page.goto("/")

    shown = page.evaluate(
        """async () => {
          const { default: allegra } = await import('/static/web/js/games/allegra.js');
          const names = (seat) => ['ada', 'bo', 'cy'][seat];
          const view = {
            players: 3, scores: [18, 31, 44],
            round_results: [{ round: 1, trigger: 2, forced: false, raw: [18, 31, 22],
                              scores: [18, 31, 44], doubled: true }],
          };
          const node = allegra.summary({ view, names, seat: 0 });
          const rows = [...node.querySelectorAll('tbody tr')].map(
            (tr) => [...tr.children].map((cell) => cell.textContent));
          const line = allegra.describe({ type: 'allegra.round_scored', payload: {
            round: 1, trigger: 2, forced: false, raw: [18, 31, 22], scores: [18, 31, 44],
            doubled: true, totals: [18, 31, 44] } }, { names, view, seat: 0 });
          return { rows, line };
        }"""
    )

    assert shown["rows"] == [
        ["ada", "18", "18"],
        ["bo", "31", "31"],
        ["cy", "44 (22×2)", "44"],
    ]
    assert shown["line"] == (
        "Round 1 scored: ada 18, bo 31, cy 44. "
        "cy ended the round without the lowest score: 22 doubled to 44."
    )


@pytest.mark.timeout(60)
def test_alager_says_what_the_penalty_limit_does_and_why_the_match_ended(
    player: Any,
) -> None:
    """The turn bar said "deal 3, limit 5", and the result only who won. What
    the limit does is said under the Players list (the turn bar, on a phone,
    had no room for it)."""
    page = player().page
    page.goto("/")

    shown = page.evaluate(
        """async () => {
          const { default: alager } = await import('/static/web/js/games/alager.js');
          const names = (seat) => ['ada', 'bo', 'cy'][seat];
          const view = (end_mode, penalties, outcome) => ({
            players: 3, deal: 3, current: 1, phase: 'normal', penalties,
            options: { end_mode, penalty_limit: 5, num_deals: 6 }, outcome,
          });
          const ctx = (v) => ({ view: v, names, seat: 0, legal: [] });
          const over = { scores: [1, 5, 2], places: [1, 3, 2], winners: [0] };
          const dialog = alager.result(ctx(view('first_to_limit', [1, 5, 2], over)));
          return {
            first: alager.status(ctx(view('first_to_limit', [0, 2, 1], null))),
            fixed: alager.status(ctx(view('fixed_deals', [0, 2, 1], null))),
            firstNote: alager.limitNote(ctx(view('first_to_limit', [0, 2, 1], null))),
            outNote: alager.limitNote(ctx(view('elimination', [0, 2, 1], null))),
            fixedNote: alager.limitNote(ctx(view('fixed_deals', [0, 2, 1], null))),
            line: alager.outcomeLine(ctx(view('first_to_limit', [1, 5, 2], over))),
            fixedLine: alager.outcomeLine(ctx(view('fixed_deals', [1, 5, 2], over))),
            dialog: [...dialog.querySelectorAll('p')].map((p) => p.textContent),
          };
        }"""
    )

    # The turn bar says the deal; the Players list what the limit does.
    assert shown["first"] == "bo to play — deal 3."
    assert shown["fixed"] == "bo to play — deal 3 of 6."
    assert shown["firstNote"] == "5 penalty points end the match."
    assert shown["outNote"] == "5 penalty points put a player out."
    assert shown["fixedNote"] == "6 deals; the fewest penalty points win."
    assert shown["line"] == (
        "ada wins (fewest penalty points). bo reached 5 penalty points."
    )
    assert shown["fixedLine"] == "ada wins (fewest penalty points). All 6 deals played."
    assert shown["dialog"] == ["ada wins.", "bo reached 5 penalty points."]


@pytest.mark.timeout(60)
def test_on_a_phone_the_open_tables_are_not_below_every_game_option(
    player: Any,
) -> None:
    """At 390 px the unfolded options put the table list a friend comes to
    join about 2,700 px down the lobby; they start folded there."""
    phone = player(390, 844).page
    phone.goto("/")
    phone.wait_for_selector("#create-options .option", state="attached")

    assert phone.locator("details.options").evaluate("d => d.open") is False
    top = phone.locator("#tables-h").evaluate("h => h.getBoundingClientRect().top")
    assert top < 2 * 844, f"the table list starts {top}px down the phone's lobby"
    phone.locator("details.options summary").click()
    expect(phone.locator("#opt-deck")).to_be_visible()

    wide = player().page
    wide.goto("/")
    wide.wait_for_selector("#create-options .option")
    assert wide.locator("details.options").evaluate("d => d.open") is True


@pytest.mark.timeout(60)
def test_allegra_knock_exchange_says_who_exchanges_with_whom(player: Any) -> None:
    """The knocker was told "Exchange with <their own name> (you)"."""
    page = player().page
    page.goto("/")

    lines = page.evaluate(
        """async () => {
          const { default: allegra } = await import('/static/web/js/games/allegra.js');
          const names = (seat) => ['ada', 'bo', 'cy'][seat];
          const grid = () => [0, 1, 2].map(() => ['down', 'down', 'down', 'down']);
          const view = {
            players: 3, phase: 'knocker_place', active: 2, to_act: [0], drawn: 10,
            draw_pile: 70, discard_pile: [9], out_of_play: [], scores: [0, 0, 0],
            grids: [grid(), grid(), grid()], round: 1, rounds: 1, trigger: null,
            knock: { eligible: [0, 1], pending: [], knockers: [0], knocker: 0, k1: null,
                     hand: null, hand_hidden: false, k2: null, taken: null },
          };
          const line = (seat) => allegra.board({ view, names, seat, legal: [], events: [],
            act: () => {}, redraw: () => {} }).querySelector('.knock-info').textContent;
          return [line(0), line(2), line(1)];
        }"""
    )

    assert lines == [
        "Knocked: ada. cy exchanges with you.",
        "Knocked: ada. You exchange with ada.",
        "Knocked: ada. cy exchanges with ada.",
    ]


@pytest.mark.timeout(60)
def test_three_winners_are_listed_as_a_sentence(player: Any) -> None:
    """A four-player Alager often ends with three seats tied: the dialog and
    the turn bar read "random bot 2 and random bot 3 and random bot 4 share
    the win". Three or more names are "a, b and c"."""
    page = player().page
    page.goto("/")

    shown = page.evaluate(
        """async () => {
          const { default: alager } = await import('/static/web/js/games/alager.js');
          const { default: allegra } = await import('/static/web/js/games/allegra.js');
          const names = (seat) => ['ada', 'bo', 'cy', 'di'][seat];
          const outcome = { scores: [0, 0, 0, 1], places: [1, 1, 1, 4], winners: [0, 1, 2] };
          const view = {
            players: 4, deal: 2, current: 1, phase: 'normal', penalties: [1, 1, 1, 0],
            options: { end_mode: 'first_to_limit', penalty_limit: 1 }, outcome,
          };
          const ctx = { view, names, seat: 3, legal: [] };
          return {
            alager: alager.describe({ type: 'alager.match_ended', payload: { outcome } }, ctx),
            limit: alager.outcomeLine(ctx),
            allegra: allegra.describe(
              { type: 'allegra.match_ended', payload: { outcome } }, { ...ctx, view: {} }),
          };
        }"""
    )

    assert shown["alager"] == "Match over. ada, bo and cy share the win."
    assert "ada, bo and cy reached 1 penalty point" in shown["limit"]
    assert shown["allegra"] == "Match over: ada, bo and cy win."


@pytest.mark.timeout(60)
def test_a_figure_stays_on_one_line_beside_a_long_label_at_390px(
    player: Any,
) -> None:
    """A profile's "Share of Konec with the lowest hand" pushed its "100%"
    onto two lines ("100" above "%") on a phone."""
    page = player(390, 844).page
    page.goto("/")
    lines = page.evaluate(
        """() => {
          const panel = document.createElement('section');
          panel.className = 'panel';
          panel.innerHTML = '<dl class="figures"><div><dt>Share of Konec with the '
            + 'lowest hand</dt><dd>100%</dd></div></dl>';
          document.querySelector('main').prepend(panel);
          // The lines its text takes (the box itself stretches to the label's).
          const range = document.createRange();
          range.selectNodeContents(panel.querySelector('dd'));
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        }"""
    )
    assert lines == 1, f"the figure takes {lines} lines"


@pytest.mark.timeout(60)
def test_bar_chart_labels_are_not_cut_on_a_phone(player: Any) -> None:
    """Alager's statistics at 390 px showed "onec with the lowest hand": the
    label column was 150 units whatever the labels, and a long one ran past
    the chart's left edge."""
    page = player(390, 844).page
    page.goto("/")
    starts = page.evaluate(
        """async () => {
          const { barChart } = await import('/static/web/js/chart.js');
          const chart = barChart([
            { label: 'Deals', value: 14 },
            { label: 'Konec with the lowest hand', value: 8 },
          ], { title: 'totals', width: 420 });
          const panel = document.createElement('section');
          panel.className = 'panel';
          panel.append(chart);
          document.querySelector('main').prepend(panel);
          return [...chart.querySelectorAll('text')].map((t) => t.getBBox().x);
        }"""
    )
    assert min(starts) >= 0, f"a label starts left of the chart: {starts}"


@pytest.mark.timeout(60)
def test_two_player_alkort_result_says_points_not_sides(player: Any) -> None:
    """The two-player Alkort match-over table headed its column "Side's
    points", though two players are no sides; four players keep it."""
    page = player().page
    page.goto("/")
    heads = page.evaluate(
        """async () => {
          const { default: alkort } = await import('/static/web/js/games/alkort.js');
          const names = (seat) => ['ada', 'bo', 'cy', 'di'][seat];
          const head = (players) => {
            const seats = [...Array(players).keys()];
            const outcome = { scores: seats.map((s) => (s % 2 ? 2 : 10)),
                              places: seats.map((s) => (s % 2 ? 3 : 1)), winners: [0] };
            const node = alkort.result({ view: { players, outcome, sides: [[0, 2], [1, 3]] },
                                         names, seat: 0 });
            return [...node.querySelectorAll('thead th')].map((th) => th.textContent);
          };
          return { two: head(2), four: head(4) };
        }"""
    )
    assert heads["two"] == ["Place", "Player", "Points"]
    assert heads["four"] == ["Place", "Player", "Side's points"]

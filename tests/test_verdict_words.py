"""The verdicts' words say which way, how big with its unit and how sure, and never mislead
(issue 45, items 6, 7, 17 and 18): a multi-player headline leads with the largest turn-order
gap, a compare says whether a variant moves a share closer to or further from fair, the
standalone report carries no broken link, and a difference rounded to zero is not called real.
"""
import numpy as np
import pytest

from analysis.report import headline, summarize, text_summary
from sim.games import get
from sim.summary import Summary


def _four_player_batam(n=20_000, pos=(0.273, 0.278, 0.216, 0.233)):
    """A four-player Batam summary shaped like `sim batam --players 4 --games 2e4 --seed 7`:
    the first player at 27.3% (+2.3 points), the third at 21.6% (-3.4 points)."""
    wins = np.array(pos) * n
    S = Summary(4, n, win=[n / 4] * 4, win_pos=wins, first=[n // 4] * 4, decisive=n,
                side_win=[n / 4] * 4, side_win_pos=wins, side_first=[n // 4] * 4, side_decisive=n,
                side_dec_win=[n // 4] * 4, side_dec_pos=wins.astype(int))
    game = get("batam")
    manifest = {"game": "batam", "seats": list(game.seat_names(4)), "bots": ["heuristic"] * 4,
                "run": "r", "games_completed": n, "seed": 7}
    return summarize(S, manifest, game), manifest, game


def test_multiplayer_headline_leads_with_the_largest_turn_order_gap():
    s, manifest, game = _four_player_batam()
    lines = headline(s, manifest, game)
    order = [i for i, line in enumerate(lines) if "3rd player" in line or "moves first" in line]
    assert order, lines
    lead = lines[order[0]]
    # the third seat is furthest from fair: it leads, with its direction, size and unit
    assert "3rd player" in lead and "furthest from" in lead, lead
    assert "21.6%" in lead and "25.0%" in lead and "disadvantage of 3.4 points" in lead, lead
    # the first player is still said, after it
    assert any("moves first" in line and "advantage of 2.3 points" in line for line in lines[order[0]:])
    text = text_summary(s, manifest, game).splitlines()
    verdicts = [i for i, line in enumerate(text) if "disadvantage of 3.4" in line or "advantage of 2.3" in line]
    assert "3rd player" in text[verdicts[0]] and "disadvantage of 3.4 points" in text[verdicts[0]], text


def test_two_player_headline_still_judges_the_first_player():
    s, manifest, game = _four_player_batam()
    lines = headline(s, manifest, game)
    assert sum("furthest from" in line for line in lines) == 1
    # a two-sided game: the first player's gap is the only one, said once as before
    S = Summary(2, 1000, win=[500, 500], win_pos=[560, 440], first=[500, 500], decisive=1000,
                side_win=[500, 500], side_win_pos=[560, 440], side_first=[500, 500], side_decisive=1000,
                side_dec_win=[500, 500], side_dec_pos=[560, 440])
    g = get("puluc")
    m = {"game": "puluc", "seats": list(g.seat_names(2)), "bots": ["random"] * 2, "run": "r",
         "games_completed": 1000, "seed": 1}
    two = headline(summarize(S, m, g), m, g)
    assert not any("furthest from" in line for line in two)
    assert any(line.startswith("The player who moves first wins 56.0%") for line in two)


# ----------------------------------------------------------------- item 7: closer to / further from fair

def test_fair_phrase_says_closer_to_or_further_from_fair():
    from analysis.wording import fair_phrase
    # lengthened Balam: the first king 48.7% -> 58.7% is further from fair, now 8.7 points away
    up = fair_phrase(0.487, 0.100, 0.092, 0.108, 0.5)
    assert up.startswith("further from fair (50.0%)") and "1.3 → 8.7 points away" in up, up
    assert "7.4 points further" in up and "95% interval 6.6 to 8.2" in up, up
    down = fair_phrase(0.58, -0.05, -0.06, -0.04, 0.5)
    assert down.startswith("closer to fair (50.0%)") and "5.0 points closer" in down, down
    # an interval that straddles: says it cannot tell, and about how many games would
    unsure = fair_phrase(0.50, 0.001, -0.01, 0.012, 0.5, games=2000)
    assert "cannot tell" in unsure and "games in all" in unsure, unsure
    # a win rate that counts draws as losses: its fair share moves with the draws
    draws = fair_phrase(0.40, 0.05, 0.04, 0.06, 0.5, 0.45)
    assert "closer to fair" in draws and "draws counted as losses" in draws, draws


@pytest.fixture(scope="module")
def puluc_compare():
    from analysis.experiment_runs import compare
    return compare("puluc", [("base", {}), ("w1", {"warriors": 1}), ("t5", {"track": 5})], 600, seed=2, jobs=1)


def test_compare_and_sweep_sentences_on_a_share_say_closer_or_further(puluc_compare):
    from analysis.experiment_report import compare_headline, compare_text
    res = puluc_compare
    fairness = ("closer to fair", "further from fair", "neither closer to nor further from",
                "closer to or further from fair")
    short = [line for line in compare_headline(res) if "first-player score" in line and "→" in line]
    assert len(short) == 2, short
    assert all(any(w in line for w in fairness) for line in short), short
    text = [line for line in compare_text(res).splitlines() if line.startswith("'") and "first-player score" in line]
    assert len(text) == 2 and all(any(w in line for w in fairness) for line in text), text


def _capture_figures(monkeypatch):
    from analysis import plots
    figs = []
    real = plots.save

    def keep(fig, path):
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        figs.append(fig)
        real(fig, path)
        FigureCanvasAgg(fig).draw()   # closed by save: a canvas again, laid out as saved
    monkeypatch.setattr(plots, "save", keep)
    return figs


def test_differences_plot_has_a_fair_reference(puluc_compare, tmp_path, monkeypatch):
    from analysis.experiment_report import write_compare_report
    figs = _capture_figures(monkeypatch)
    write_compare_report(puluc_compare, tmp_path)
    ax = figs[0].axes[0]
    fair = [line for line in ax.get_lines() if "fair" in str(line.get_label())]
    assert fair, [line.get_label() for line in ax.get_lines()]
    base = puluc_compare.summaries[0]
    # the dashed line sits where the difference makes the first player's score 50%
    from analysis.experiment_report import compare_table
    tab = compare_table(puluc_compare)
    value = tab[(tab["key"] == "first player score")]["value"].iloc[0]
    assert fair[0].get_xdata()[0] == pytest.approx(100 * (0.5 - value)) and base.n == 600


def test_impact_chart_plots_what_the_card_does(tmp_path, monkeypatch):
    from analysis.experiment_report import compare_table
    from analysis.experiment_runs import impact
    from analysis.impact import write_impact_report
    res = impact("batam", "all", None, 200, workdir=tmp_path / "w", seed=4, jobs=1)
    figs = _capture_figures(monkeypatch)
    write_impact_report(res.game, res, tmp_path / "r")
    ax = figs[-1].axes[0]
    assert "with the card in play minus" in ax.get_xlabel(), ax.get_xlabel()
    tab = compare_table(res)
    t = tab[tab["key"] == "first player score"].iloc[1:]
    top = t.iloc[np.argsort(-t["diff"].abs().to_numpy(), kind="stable")].iloc[0]
    # the top row's point is the card's own effect: the full deck minus the deck without it
    points = [line for line in ax.get_lines() if line.get_marker() == "o"]
    assert points[0].get_xdata()[0] == pytest.approx(-100 * top["diff"]) and top["diff"] != 0


# ----------------------------------------------------------------- item 18: the words on a number

def test_a_real_difference_is_never_rounded_to_zero():
    from analysis.wording import edge_phrase
    # a length change of 0.03 rounds, real (its interval excludes 0): once "a real but small rise
    # of 0.0 rounds"
    text = edge_phrase(0.03, 0.01, 0.05, unit="rounds", noun="change", up="rise", down="fall", small=0.04)
    assert "0.0 rounds" not in text and "rise of 0.03 rounds" in text, text
    assert "+0.0 " not in text, text


def test_more_games_would_tell_says_about_how_many():
    from analysis.wording import edge_phrase
    # -1.0 points, interval -2.3 to +0.2 from 600 games: the upper end (1.2 points from the
    # estimate) must come within 1.0 of it: 600 * 1.2^2 = 864 games, about 870
    text = edge_phrase(-0.010, -0.023, 0.002, scale=100, games=600)
    assert text.endswith("about 870 games in all (1.45 times these) would tell"), text
    # a run's headline passes its number of games
    s, manifest, game = _four_player_batam(n=400, pos=(0.26, 0.25, 0.245, 0.245))
    lines = headline(s, manifest, game)
    first = next(line for line in lines if "moves first" in line)
    assert "games in all" in first and "times these) would tell" in first, first


# ----------------------------------------------------------------- item 17: no broken link in a report

def _hrefs(page: str) -> list[str]:
    import re
    return re.findall(r"""href=['"]([^'"]*)['"]""", page)


def test_the_reports_links_work_in_the_folder_and_in_the_standalone_copy(tmp_path):
    import re
    from click.testing import CliRunner
    from sim.cli import cli
    out = tmp_path / "run"
    r = CliRunner().invoke(cli, ["puluc", "--games", "200", "--jobs", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    index = (out / "index.html").read_text()
    standalone = (out / "report-standalone.html").read_text()
    assert "file://" not in index and "file://" not in standalone
    # the folder's page links RULES.md copied beside it, and every local link resolves
    assert "RULES.md" in _hrefs(index)
    assert (out / "RULES.md").read_text().startswith("#")
    for h in _hrefs(index):
        if not h.startswith(("http:", "https:", "#", "data:")):
            assert (out / h).is_file(), h
    # the copy meant to be mailed carries no link to a file: RULES.md is in the page itself
    ids = set(re.findall(r"""id=['"]([^'"]+)['"]""", standalone))
    for h in _hrefs(standalone):
        assert h.startswith(("http:", "https:", "#")), h
        if h.startswith("#"):
            assert h[1:] in ids, h
    assert any(h.startswith("#") and "RULES" in h for h in _hrefs(standalone))
    assert "Puluc — the rules as implemented" in standalone and "Source of truth: the rulebook" in standalone


# ----------------------------------------------------------------- item 18: figures

def _overlap(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def _legends_off_the_data(fig):
    r = fig.canvas.get_renderer()
    for ax in fig.axes:
        leg = ax.get_legend()
        if leg is not None:
            assert not _overlap(leg.get_window_extent(r), ax.get_window_extent(r)), ax.get_title()


def test_ladder_rung_labels_do_not_overlap_and_the_legend_is_off_the_data(tmp_path, monkeypatch):
    from analysis.ladder import LadderResult, Rung
    from analysis.ladder_report import write_ladder_report
    game = get("puluc")
    # four rungs, two of them with identical figures and a third close by: the names sat on one another
    shares = [0.50, 0.53, 0.53, 0.531]
    rungs = [Rung(b, 1000, s, s - 0.03, s + 0.03, [s, 1 - s], [s - 0.03, 0.47 - s + 0.5],
                  [s + 0.03, 0.53 - s + 0.5], 0.0, 0.0, 60.0, 5.0)
             for b, s in zip(["random", "search:depth=1", "search:depth=2", "search:depth=3"], shares)]
    res = LadderResult(game, 2, rungs, np.array([0.0, 150.0, 150.0, 160.0]), np.array([0.0, 100, 100, 110]),
                       np.array([0.0, 200, 200, 210]), [], {}, 1)
    figs = _capture_figures(monkeypatch)
    write_ladder_report(res, tmp_path)
    fig = figs[0]
    r = fig.canvas.get_renderer()
    ax = fig.axes[0]
    labels = [t for t in ax.texts if t.get_text().strip()]
    assert len(labels) == 4, [t.get_text() for t in ax.texts]
    boxes = [t.get_window_extent(r) for t in labels]
    for i in range(len(boxes)):
        for j in range(i):
            assert not _overlap(boxes[i], boxes[j]), (labels[i].get_text(), labels[j].get_text())
    _legends_off_the_data(fig)
    # every rung is named in the legend by its number
    assert {"rung 1: random", "rung 4: search:depth=3"} <= {t.get_text() for t in ax.get_legend().get_texts()}


def test_tune_legends_are_off_the_data(tmp_path, monkeypatch):
    from analysis.tune import tune
    from analysis.tune_report import write_tune_report
    res = tune("puluc", ["track=6..14"], ["first_player=fair", "length=min"], budget=3000, jobs=1,
               final_games=400, seed=3)
    figs = _capture_figures(monkeypatch)
    write_tune_report(res, tmp_path)
    assert len(figs) >= 3       # a response per target, and the front of the two
    for fig in figs:
        assert any(ax.get_legend() is not None for ax in fig.axes)
        _legends_off_the_data(fig)


def test_a_sweeps_in_short_keeps_the_few_that_matter_and_says_how_many_more(tmp_path):
    import re
    from analysis.experiment_report import compare_headline, write_compare_report
    from analysis.experiment_runs import sweep
    res = sweep("puluc", ["track=5..15"], 300, seed=5, jobs=1)
    full = compare_headline(res)[:-1]
    assert len(full) > 26
    page = write_compare_report(res, tmp_path).read_text()
    short = page.split("<h2>In short</h2>", 1)[1].split("</ul>", 1)[0]
    bullets = re.findall(r"<li>(.*?)</li>", short, re.S)
    assert 3 <= len(bullets) <= 12, len(bullets)
    more = [b for b in bullets if "more sentences" in b]
    assert more and re.search(r"\d+ more sentences", more[0]), bullets
    import html
    n = int(re.search(r"(\d+) more sentences", more[0]).group(1))
    shown = {html.unescape(b) for b in bullets}
    assert n == sum(x not in shown for x in full) and n > 20, (n, len(full))
    # nothing is lost: every sentence is still on the page, below
    assert "Every variant in words" in page
    # the sweep's bands are each value's own interval: the page says the differences are paired
    assert "overlap" in page and "paired" in page.split("In short", 1)[1]


@pytest.mark.parametrize("name", ["balam", "batam", "maya", "puluc"])
def test_a_game_page_has_a_key_to_its_board(name, tmp_path):
    import html
    import re
    from analysis.show import show_game, write_show_page
    game = get(name)
    shown = show_game(game, 1, 0)
    write_show_page(shown, tmp_path / "g.html")
    page = (tmp_path / "g.html").read_text()
    assert "How to read the board" in page
    key = html.unescape(page.split("How to read the board", 1)[1].split("</ul>", 1)[0])
    items = re.findall(r"<li>(.*?)</li>", key, re.S)
    text = " ".join(re.sub(r"<[^>]+>", " ", i) for i in items)
    if name == "balam":     # every building code, tile colour and riches token
        from sim.games.balam import data as D
        from sim.games.balam.show import BUILDING_FILL, LETTERS, TILE_FILL
        for code, building in enumerate(D.BUILDINGS, start=1):
            assert re.search(rf"<b class=\"sym\">{LETTERS[code]}</b>\s*an? {building}", key), building
            assert BUILDING_FILL[code] in key
        for i, c in enumerate(D.COLOURS):
            assert TILE_FILL[i] in key and f"produces {c}" in text
    if name == "batam":     # every island's letter
        from sim.games.batam.show import _load
        b = _load(shown.record)["board"]
        for letter, island in zip(b.letters, b.island_names):
            assert re.search(rf"<b class=\"sym\">{letter}</b>\s*the harbour of {island}", key), island
    if name == "maya":      # every block colour
        from sim.games.maya.show import _colours
        assert all(f" {c} block" in text for c in _colours(shown.record))
    assert len(items) >= 5


def test_a_cards_effect_says_whether_it_brings_the_share_closer_to_or_further_from_fair():
    from analysis.impact import effect_words
    # made neutral the first player's score rises from 48.7% to 55.2%: in play the card holds it
    # at 48.7%, 1.3 points from fair instead of 5.2
    text = effect_words(0.065, 0.04, 0.09, "first player score", "first-player score", "neutral", 10, 600,
                        base=0.487, fair=0.5)
    assert "the card brings it closer to fair (50.0%): 5.2 → 1.3 points away" in text, text
    text = effect_words(-0.03, -0.04, -0.02, "first player score", "first-player score", "neutral", 10, 600,
                        base=0.56, fair=0.5)
    assert "the card brings it further from fair (50.0%): 3.0 → 6.0 points away" in text, text

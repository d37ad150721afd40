"""Reports open in a real headless Chromium: every image loads, no script error.

Debian's `chromium` is installed by `make test` where missing; without it this test skips.
Each report page carries a tiny self-check (analysis/report.py SELF_CHECK) that writes
the number of loaded images and of script errors into <body> once the page has loaded;
`--dump-dom` prints the page as the browser ended up with it.
"""
import re
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from sim.cli import cli

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (make test installs it)")


def render(path, tmp_path):
    return render_url(path.resolve().as_uri(), tmp_path)


def render_url(url, tmp_path):
    profile = tmp_path / "profile"
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={profile}", "--virtual-time-budget=5000", "--enable-logging=stderr",
           "--v=0", "--dump-dom", url]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    return p.stdout, p.stderr


#: the reports the browser opens: each written once per test process, when a test first
#: asks for it (a module fixture writing them all was written again each time a worker
#: came back to this module, and by both workers)
RUNS = {
    "run": ["puluc", "--games", "3000", "--jobs", "1", "-q"],
    "compare": ["compare", "puluc", "--games", "2000", "--variant", "base:", "--variant",
                "nine:track=9", "--jobs", "1", "-q"],
    "sweep": ["sweep", "puluc", "--param", "track=7..9", "--games", "1000", "--jobs", "1", "-q"],
    "skill": ["skill", "puluc", "--bots", "random,greedy", "--games", "500", "--jobs", "1", "-q"],
    "impact-all": ["impact", "batam", "--card", "all", "--games", "300", "--jobs", "1", "-q"],
    "maya-4p": ["maya", "--players", "4", "--games", "1000", "--jobs", "1", "-q"],
    "robust": ["robust", "puluc", "--games", "5e3", "-q"],
    "tune": ["tune", "puluc", "--param", "track=6..10", "--param", "exit=any,pile", "--target",
             "length=min", "--target", "first_player=fair", "--budget", "6000", "--final", "1000",
             "--jobs", "1", "-q"],
}


@pytest.fixture(scope="session")
def report(tmp_path_factory):
    """report(kind): the folder of that kind's report, written on first use."""
    root = tmp_path_factory.mktemp("reports")
    done = set()

    def get(kind):
        out = root / kind
        if kind not in done:
            r = CliRunner().invoke(cli, RUNS[kind] + ["--out", str(out)])
            assert r.exit_code == 0, r.output
            done.add(kind)
        return out
    return get


# (kind the outer loop: a kind's two pages are neighbours, so one process writes its report)
@pytest.mark.parametrize("page", ["index.html", "report-standalone.html"])
@pytest.mark.parametrize("kind", list(RUNS))
def test_every_image_loads_and_no_script_error(report, kind, page, tmp_path):
    path = report(kind) / page
    html = path.read_text()
    n_img = len(re.findall(r"<img ", html))
    assert n_img >= 1
    dom, log = render(path, tmp_path)
    body = re.search(r"<body([^>]*)>", dom).group(1)
    assert f'data-images="{n_img}/{n_img}"' in body, body
    assert 'data-errors="0"' in body, body
    console_errors = [line for line in log.splitlines() if "CONSOLE" in line and "Uncaught" in line]
    assert not console_errors, console_errors


def test_robust_page_has_a_tornado_per_headline_with_one_bar_per_condition(report):
    """The robust report's tornado charts: one per headline, each drawing every condition."""
    import json
    d = report("robust")
    data = json.loads((d / "robust.json").read_text())
    html = (d / "index.html").read_text()
    assert len(data["conditions"]) >= 4
    for key, bars in data["tornado"].items():
        assert len(bars) == len(data["conditions"])
        assert f"src='tornado_{key}.png'" in html



# Pressed in the browser after a `sim show --html` page has loaded (its own script has run):
# which turn sections are visible, and the step label, after load, after Next, after the
# right and left arrow keys, after Previous, with the slider at the end and after Next there;
# written into <body data-...> for --dump-dom, with the page's script errors so far.
STEP_PROBE = """<script>
window.addEventListener('load', function () {
  var body = document.body, label = document.getElementById('step-label');
  function note(name) {
    var shown = [];
    document.querySelectorAll('section.turn').forEach(function (s) { if (s.offsetParent !== null) shown.push(s.id); });
    body.setAttribute('data-' + name, shown.join(' ') + '|' + label.textContent);
  }
  function key(k) { document.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true})); }
  note('load');
  document.getElementById('step-next').click(); note('next');
  key('ArrowRight'); note('right');
  key('ArrowLeft'); note('left');
  document.getElementById('step-prev').click(); note('prev');
  document.getElementById('step-prev').click(); note('prev-at-first');
  var range = document.getElementById('step-range');
  range.value = range.max; range.dispatchEvent(new Event('input')); note('range');
  document.getElementById('step-next').click(); note('next-at-last');
  body.setAttribute('data-probe-errors', String(window.__errors.length));
});
</script>"""


@pytest.mark.parametrize("game,args", [("puluc", []), ("maya", ["--players", "2"])])
def test_a_shown_game_steps_one_turn_at_a_time(game, args, tmp_path):
    """`sim show --html`: after load exactly one turn is visible (the first, "step 1 of n"),
    Next, the arrow keys, Previous and the slider step through them and stop at the ends;
    a #turn-N link opens on that turn; no script error."""
    page = tmp_path / f"{game}.html"
    r = CliRunner().invoke(cli, ["show", game, "--seed", "1", "--game", "0", "--html", str(page)] + args)
    assert r.exit_code == 0, r.output
    html = page.read_text()
    ids = re.findall(r'<section class="turn" id="(turn-\d+)">', html)
    n = len(ids)
    assert n >= 4 and ids == [f"turn-{k}" for k in range(1, n + 1)]
    assert html.count("<svg") >= n
    probe = tmp_path / f"{game}-probe.html"
    probe.write_text(html.replace("</body>", STEP_PROBE + "\n</body>"))
    dom, log = render(probe, tmp_path)
    body = dict(re.findall(r'\s(data-[\w-]+)="([^"]*)"', re.search(r"<body([^>]*)>", dom).group(1)))
    assert body.get("data-errors") == "0" and body.get("data-probe-errors") == "0", body

    def at(k):
        return f"turn-{k}|step {k} of {n}"

    assert body["data-load"] == at(1)
    assert body["data-next"] == at(2)
    assert body["data-right"] == at(3)
    assert body["data-left"] == at(2)
    assert body["data-prev"] == at(1)
    assert body["data-prev-at-first"] == at(1)
    assert body["data-range"] == at(n)
    assert body["data-next-at-last"] == at(n)
    assert 'id="steps"' in dom and not re.search(r'<nav[^>]*id="steps"[^>]*hidden', dom)  # the controls shown
    console_errors = [line for line in log.splitlines() if "CONSOLE" in line and "Uncaught" in line]
    assert not console_errors, console_errors
    # a link to a turn opens on it
    k = min(5, n)
    probe2 = tmp_path / f"{game}-hash.html"
    probe2.write_text(html.replace("</body>", STEP_PROBE + "\n</body>"))
    dom, _ = render_url(probe2.resolve().as_uri() + f"#turn-{k}", tmp_path)
    body = dict(re.findall(r'\s(data-[\w-]+)="([^"]*)"', re.search(r"<body([^>]*)>", dom).group(1)))
    assert body["data-load"] == at(k) and body["data-errors"] == "0", body

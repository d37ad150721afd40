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
    profile = tmp_path / "profile"
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={profile}", "--virtual-time-budget=5000", "--enable-logging=stderr",
           "--v=0", "--dump-dom", path.resolve().as_uri()]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    return p.stdout, p.stderr


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    root = tmp_path_factory.mktemp("reports")
    runs = {
        "run": ["puluc", "--games", "3000", "--jobs", "1", "-q"],
        "compare": ["compare", "puluc", "--games", "2000", "--variant", "base:", "--variant",
                    "nine:track=9", "--jobs", "1", "-q"],
        "sweep": ["sweep", "puluc", "--param", "track=7..9", "--games", "1000", "--jobs", "1", "-q"],
        "skill": ["skill", "puluc", "--bots", "random,greedy", "--games", "500", "--jobs", "1", "-q"],
        "impact-all": ["impact", "batam", "--card", "all", "--games", "300", "--jobs", "1", "-q"],
        "maya-4p": ["maya", "--players", "4", "--games", "1000", "--jobs", "1", "-q"],
        "robust": ["robust", "puluc", "--games", "2e4", "-q"],
        "tune": ["tune", "puluc", "--param", "track=6..10", "--param", "exit=any,pile", "--target",
                 "length=min", "--target", "first_player=fair", "--budget", "6000", "--final", "1000",
                 "--jobs", "1", "-q"],
    }
    for name, args in runs.items():
        r = CliRunner().invoke(cli, args + ["--out", str(root / name)])
        assert r.exit_code == 0, r.output
    return root


@pytest.mark.parametrize("kind", ["run", "compare", "sweep", "skill", "impact-all", "maya-4p", "robust",
                                  "tune"])
@pytest.mark.parametrize("page", ["index.html", "report-standalone.html"])
def test_every_image_loads_and_no_script_error(reports, kind, page, tmp_path):
    path = reports / kind / page
    html = path.read_text()
    n_img = len(re.findall(r"<img ", html))
    assert n_img >= 1
    dom, log = render(path, tmp_path)
    body = re.search(r"<body([^>]*)>", dom).group(1)
    assert f'data-images="{n_img}/{n_img}"' in body, body
    assert 'data-errors="0"' in body, body
    console_errors = [line for line in log.splitlines() if "CONSOLE" in line and "Uncaught" in line]
    assert not console_errors, console_errors


def test_robust_page_has_a_tornado_per_headline_with_one_bar_per_condition(reports):
    """The robust report's tornado charts: one per headline, each drawing every condition."""
    import json
    data = json.loads((reports / "robust" / "robust.json").read_text())
    html = (reports / "robust" / "index.html").read_text()
    assert len(data["conditions"]) >= 4
    for key, bars in data["tornado"].items():
        assert len(bars) == len(data["conditions"])
        assert f"src='tornado_{key}.png'" in html


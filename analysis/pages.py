"""What every HTML page shares: the style, the head with its self-check script, tables,
the bots sentence, and writing a page with and without its images embedded.  The reports
(``report``, ``experiment_report``, ``impact``, ``robust``) build on it; it imports none of them."""
from __future__ import annotations

import base64
import re
from pathlib import Path

from markupsafe import Markup, escape  # noqa: F401  (escape: for the pages that build HTML pieces)

from .wording import BOTS_NOTE

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:980px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
h1{margin-bottom:.2em} h2{margin-top:1.8em;border-bottom:1px solid #ddd;padding-bottom:.2em}
.sub{color:#555;margin-top:0} .warn{background:#fff3cd;border:1px solid #e0c36b;padding:.6em 1em}
table{border-collapse:collapse;margin:.6em 0;font-size:.93em} th,td{border:1px solid #ddd;padding:.25em .6em;
text-align:left} th{background:#f4f4f4} td.num{text-align:right;font-variant-numeric:tabular-nums}
img{max-width:100%;height:auto;border:1px solid #eee;margin:.5em 0} .changed{font-weight:bold;color:#a33}
ul.key li{margin:.2em 0} code{background:#f4f4f4;padding:0 .2em} details{margin:.5em 0}
.box{border:1px solid #9cc3e0;background:#f3f8fc;padding:.2em 1em;margin:1em 0}
.box h2{margin-top:.6em;border:none}
"""


def bots_sentence(manifest: dict) -> str:
    """Which bots played, and that the figures depend on them (every report says it)."""
    seats = manifest.get("seats") or []
    bots = manifest.get("bots") or []
    if seats and len(seats) == len(bots):
        who = ", ".join(f"{n}: {b}" for n, b in zip(seats, bots))
    else:
        who = ", ".join(bots)
    return f"Bots: {who}. {BOTS_NOTE}" + strength_sentence(manifest) + model_sentence(manifest)


def model_sentence(manifest: dict) -> str:
    """The learned value the bots read (``leaf=model``, sim/learn.py), where they read one: a
    run's ``model``, or each variant's of an experiment (trained under its own rules)."""
    found = [("", manifest["model"])] if manifest.get("model") else []
    found += [(v.get("name", ""), v["model"]) for v in manifest.get("variants") or []
              if isinstance(v, dict) and v.get("model")]
    if not found:
        return ""
    leaf = "leaf=model2" if any(m.get("generation") == 2 for _, m in found) else "leaf=model"
    return f" Learned value ({leaf}): " + "; ".join(
        f"{n + ': ' if n else ''}{model_words(m)}" for n, m in found) + "."


def model_words(m: dict) -> str:
    """A learned value model in words, from what a manifest keeps of it
    (:meth:`sim.learn.Model.describe`): its kind, games, held-out log loss and key."""
    ll, base = m.get("log_loss"), m.get("log_loss_base")
    fig = (f", held-out log loss {ll:.3f} (base rate {base:.3f})"
           if isinstance(ll, float) and isinstance(base, float) else "")
    games = m.get("games")
    what = (f"{m.get('kind')} of {games:,} games" if isinstance(games, int) else f"{m.get('kind')}")
    if m.get("generation") == 2:
        what += f" ({generation_words(m)})"
    return what + f"{fig}, key {str(m.get('key'))[:12]}"


def generation_words(m: dict) -> str:
    """A second-generation model (``leaf=model2``) in words, from what a manifest keeps of it:
    which bots' games it learned from (a search that read the first generation)."""
    return f"the second generation, from games of {', '.join(dict.fromkeys(m.get('train_bots') or []))}"


def strength_sentence(manifest: dict) -> str:
    """At which playing strength the figures were measured: where the run's strongest bot
    stands on the game's ladder (``Game.strength_ladder``), and the command that tests
    whether the edges hold as play improves."""
    from sim.games import get
    try:
        game = get(manifest.get("game"))
    except Exception:  # a report rebuilt for a game this version no longer has
        return ""
    ladder = [str(b) for b in game.strength_ladder()]
    base = [b.split(":")[0] for b in ladder]
    used = [str(b).split(":")[0] for b in manifest.get("bots") or []]
    if not ladder or not used:
        return ""
    ranks = [base.index(b) for b in used if b in base]
    cmd = f"`sim skill {game.name} --ladder {','.join(ladder)}`"
    if not ranks:
        return (f" Playing strength: these bots are not on {game.name}'s ladder (weakest first: "
                f"{', '.join(ladder)}); {cmd} shows whether the edges hold as play improves.")
    top = max(ranks)
    where = ("the top" if top == len(ladder) - 1 else "the bottom" if top == 0
             else f"rung {top + 1} of {len(ladder)}")
    return (f" Playing strength: the strongest bot here, {base[top]}, is {where} of {game.name}'s "
            f"ladder (weakest first: {', '.join(ladder)}); {cmd} shows whether the edges hold "
            "as play improves.")


def _table(rows, header) -> Markup:
    """An HTML table (``macros.html``): cells escaped unless Markup, numbers right-aligned."""
    return _macros().table(rows, header)


def page_head(title: str) -> Markup:
    """The doctype, head (style, self-check script) and opening body of a page (``head.html``)."""
    return Markup(render("head.html", title=title, css=Markup(CSS), self_check=Markup(SELF_CHECK)))


# Lets a headless browser (tests/test_report_browser.py) confirm that every image loaded and
# no script error happened: the result is written into <body data-images=... data-errors=...>.
SELF_CHECK = """<script>
window.__errors = [];
window.addEventListener('error', function (e) { window.__errors.push(String(e.message || e.type)); }, true);
window.addEventListener('load', function () {
  var imgs = document.images, ok = 0;
  for (var i = 0; i < imgs.length; i++) { if (imgs[i].complete && imgs[i].naturalWidth > 0) ok++; }
  document.body.setAttribute('data-images', ok + '/' + imgs.length);
  document.body.setAttribute('data-errors', String(window.__errors.length));
});
</script>"""


def write_pages(out_dir: Path, parts: list[str], figs) -> Path:
    """index.html from the parts of a page (its head first), closed here; see :func:`write_page`."""
    return write_page(out_dir, "\n".join(list(parts) + ["</body></html>"]), figs)


def write_page(out_dir: Path, page: str, figs) -> Path:
    """index.html (images beside it) and report-standalone.html (images embedded), atomically.

    Neither carries a link that breaks when the folder moves or the standalone copy is mailed:
    a document linked by its absolute ``file://`` address (the game's RULES.md) is copied beside
    index.html and linked by its name, and written into the standalone copy itself (linked by
    an anchor); any other link to a file of the folder (an exemplar game's page, variants.toml)
    becomes plain text in the standalone copy, naming the file."""
    from sim.io import write_text
    page, docs = _local_documents(out_dir, page)
    write_text(out_dir / "index.html", page)
    standalone = page
    for fig in figs:
        fn = fig[0]
        data = base64.b64encode((out_dir / fn).read_bytes()).decode("ascii")
        standalone = standalone.replace(f"src='{fn}'", f"src='data:image/png;base64,{data}'")
    write_text(out_dir / "report-standalone.html", _standalone_links(standalone, docs))
    return out_dir / "index.html"


_LINK = re.compile(r"""<a href=(['"])([^'"]*)\1>(.*?)</a>""", re.S)


def _doc_id(name: str) -> str:
    return "doc-" + re.sub(r"[^A-Za-z0-9_-]", "-", name)


def _local_documents(out_dir: Path, page: str) -> tuple[str, dict]:
    """The page with each ``file://`` link replaced by a copy of the file beside it (linked by
    its name), and {name: text} of the copies; a link to a file that is not there loses its
    anchor (its words stay)."""
    from urllib.parse import unquote, urlparse

    from sim.io import write_text
    docs = {}

    def local(m):
        href = m.group(2)
        if not href.startswith("file:"):
            return m.group(0)
        src = Path(unquote(urlparse(href).path))
        try:
            text = src.read_text(encoding="utf-8")
        except (OSError, ValueError):
            return m.group(3)
        name = src.name
        if (out_dir / name).resolve() != src.resolve():
            write_text(out_dir / name, text)
        docs[name] = text
        return f"<a href='{name}'>{m.group(3)}</a>"
    return _LINK.sub(local, page), docs


def _standalone_links(page: str, docs: dict) -> str:
    """The standalone copy's links: one to a document copied beside index.html points into the
    page, where its text is appended; one to any other file of the folder becomes plain text
    naming the file (a mailed copy has no folder); web links and anchors stay."""
    def link(m):
        href, words = m.group(2), m.group(3)
        if href.startswith(("http:", "https:", "mailto:", "#", "data:")):
            return m.group(0)
        if href in docs:
            return f"<a href='#{_doc_id(href)}'>{words}</a>"
        return f"{words} (<code>{escape(href)}</code> in the report's folder)"
    page = _LINK.sub(link, page)
    if docs:
        parts = "".join(
            f"<details id='{_doc_id(name)}'><summary>{escape(name)}, as copied into this page</summary>"
            f"<pre style='white-space:pre-wrap'>{escape(text)}</pre></details>" for name, text in docs.items())
        at = page.rfind("</body>")
        page = page[:at] + parts + page[at:] if at >= 0 else page + parts
    return page

_ENV = None


def _numeric_cell(c) -> bool:
    return bool(re.match(r"^[-+0-9.,% ]+", str(c) or ""))


def environment():
    """The jinja2 environment of ``analysis/templates`` (autoescaping on: every value is
    escaped unless it is ``markupsafe.Markup``)."""
    global _ENV
    if _ENV is None:
        import jinja2
        _ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
                                  autoescape=True, trim_blocks=True, lstrip_blocks=True,
                                  undefined=jinja2.StrictUndefined)
        _ENV.tests["numeric_cell"] = _numeric_cell
    return _ENV


def render(template: str, **values) -> str:
    """A page (or a piece of one) from ``analysis/templates/<template>``."""
    return environment().get_template(template).render(**values)


def _macros():
    return environment().get_template("macros.html").module

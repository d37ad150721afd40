"""The layers point one way (docs/ARCHITECTURE.md): the core (``sim``: games, engine, storage)
imports nothing of ``analysis``; ``analysis`` (statistics, experiments, reports) builds on
``sim``; the command line (``sim/cli.py``, ``sim/commands/``, ``sim/__main__.py``) and the
Python API (``sim/api.py``) sit on both.  Every import
counts, also one inside a function.  Checked by reading the sources with ``ast``: no import
is executed."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMAND_LINE = {"sim/cli.py", "sim/__main__.py", "sim/api.py", "sim/api_study.py", "sim/api_common.py"}


def imports(path: Path) -> set[str]:
    """Absolute names of the modules a file imports (relative imports resolved)."""
    rel = path.relative_to(ROOT).with_suffix("")
    package = list(rel.parts[:-1]) if rel.name != "__init__" else list(rel.parts[:-1])
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            mod = ".".join(base + ([node.module] if node.module else []))
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)   # from . import report
    return out


def sources(package: str):
    return sorted((ROOT / package).rglob("*.py"))


def test_the_core_never_imports_analysis():
    bad = []
    for f in sources("sim"):
        name = f.relative_to(ROOT).as_posix()
        if name in COMMAND_LINE or name.startswith("sim/commands/"):
            continue
        bad += [f"{name}: {m}" for m in imports(f) if m == "analysis" or m.startswith("analysis.")]
    assert not bad, "the core imports the analysis layer:\n" + "\n".join(bad)


def test_no_import_cycle_among_the_analysis_modules():
    mods = {f.stem: f for f in sources("analysis") if f.stem != "__init__"}
    graph = {m: {i.split(".")[1] for i in imports(f)
                 if i.startswith("analysis.") and i.split(".")[1] in mods} - {m}
             for m, f in mods.items()}
    assert {"report", "impact", "experiment_report", "pages"} <= set(graph)

    def cycle_from(start, node, path):
        for nxt in sorted(graph[node]):
            if nxt == start:
                return path + [nxt]
            if nxt not in path:
                found = cycle_from(start, nxt, path + [nxt])
                if found:
                    return found
        return None

    cycles = [c for m in sorted(graph) if (c := cycle_from(m, m, [m]))]
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_no_two_modules_share_a_name_across_the_layers():
    core = {f.stem for f in sources("sim") if f.parent == ROOT / "sim"} - {"__init__"}
    analysis = {f.stem for f in sources("analysis")} - {"__init__"}
    assert not core & analysis, f"same name in sim/ and analysis/: {sorted(core & analysis)}"


def test_shared_modules_read_no_game_column_by_name():
    """A game declares its score, drama, highlight and event columns in its ``Game``; the shared
    modules read the declaration, so no string in them names such a column ("score" is also
    the shared code's own word for a rate of points, so it is not checked)."""
    from sim.games import get, names
    declared = set()
    for g in map(get, names()):
        declared.update(n for n in (g.score, g.drama_changes, g.drama_settled, *g.highlight, *g.events) if n)
    declared -= {"score"}
    assert {"lead_changes", "lead_settled"} <= declared
    bad = []
    for f in [p for p in sources("sim") if "games" not in p.parts] + sources("analysis"):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in declared:
                bad.append(f"{f.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    assert not bad, "game columns read by name in shared code:\n" + "\n".join(bad)


def test_the_runner_forwards_nothing_and_its_worker_does_not_import_it_back():
    """Issue #48: every name sim/runner.py imports, it uses (no re-export block: an importer
    names the module that defines a name), and sim/worker.py, which the runner imports, never
    imports the runner (measure_rate lives below both, in sim/rates.py)."""
    import ast
    from pathlib import Path
    root = Path(__file__).resolve().parents[1] / "sim"
    tree = ast.parse((root / "runner.py").read_text())
    imported = {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names}
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    used |= {n.value.id for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
    assert not imported - used - {"annotations"}, sorted(imported - used)
    assert "runner import" not in (root / "worker.py").read_text()


def test_no_module_forwards_names_it_does_not_define():
    """Issue #48: an importer names the module that defines a name.  No ``from x import *``, no
    ``globals().update`` of another module's names and no module ``__getattr__`` in ``sim/`` or
    ``analysis/``; the one exception is the package's lazy public API (``sim/__init__.py``:
    ``sim.run``, ``sim.compare``, ... load ``sim.api`` on first use, so ``import sim`` loads
    neither numba nor pandas)."""
    bad = []
    for f in sources("sim") + sources("analysis"):
        name = f.relative_to(ROOT).as_posix()
        tree = ast.parse(f.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
                bad.append(f"{name}: from {node.module} import *")
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "update"
                    and isinstance(node.func.value, ast.Call) and getattr(node.func.value.func, "id", "") == "globals"):
                bad.append(f"{name}: globals().update(...)")
        if name != "sim/__init__.py":
            bad += [f"{name}: module __getattr__" for n in tree.body
                    if isinstance(n, ast.FunctionDef) and n.name == "__getattr__"]
    assert not bad, "\n".join(bad)
    assert not list((ROOT / "sim" / "games").glob("*/kernel.py")), "a game's kernel.py facade is back"

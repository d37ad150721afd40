"""Monte Carlo balance analysis for board games.

>>> import sim
>>> run = sim.run("puluc", games=20_000, rules={"track": 9}, bots=("greedy", "random"))
>>> run.frame[["win_Jade", "win_Cinnabar", "end_reason", "capped"]].head()
>>> run.summary["first_player"], run.verdicts
>>> res = sim.compare("puluc", {"base": {}, "nine": {"track": 9}}, games=20_000)
>>> res.verdicts, res.write_report("reports/nine")

``sim.run``, ``sim.compare``, ``sim.sweep``, ``sim.skill``, ``sim.ladder``, ``sim.strength``, ``sim.impact``,
``sim.robust``, ``sim.tune``, ``sim.show`` and ``sim.learn`` are the commands as functions (:mod:`sim.api`),
each returning a typed result (:mod:`sim.results_api`).  ``sim.simulate`` is the engine's own
call, as before: one row per game as the engine writes it (``win_0``, ``end_reason`` codes),
``df.attrs["manifest"]``.  They are loaded on first use: ``import sim`` loads neither numba
nor pandas.
"""
__version__ = "0.1.0"

from .mplconfig import ensure as _writable_mplconfig  # noqa: E402

# matplotlib's folders, where HOME cannot hold them, chosen before anything imports it (the
# API's reports draw figures): no multi-line cache warning, a font cache kept between runs
_writable_mplconfig()

#: name -> (module, attribute) of what is loaded on first use
_LAZY = {
    "run": ("sim.api", "simulate"),
    **{name: ("sim.api", name) for name in ("compare", "sweep", "skill", "ladder", "strength", "impact",
                                            "robust", "tune", "show")},
    **{name: ("sim.results_api", name) for name in ("RunResult", "CompareResult", "SweepResult",
                                                    "SkillResult", "LadderResult", "StrengthResult", "ImpactResult",
                                                    "RobustResult", "TuneResult", "ShowResult")},
    "UsageError": ("sim.params", "UsageError"),
}

__all__ = ["simulate", "__version__", "learn", *_LAZY]


def simulate(*args, **kwargs):
    """The engine's frame of a run: see :func:`sim.runner.simulate` (``sim.run`` gives the
    typed :class:`sim.results_api.RunResult`, seats by name)."""
    from .runner import simulate as _simulate
    return _simulate(*args, **kwargs)


def __getattr__(name):
    if name in ("api", "learn"):  # sim.learn: the module, called as sim.api.learn (sim/learn.py's end)
        import importlib
        return importlib.import_module(f"sim.{name}")
    if name in _LAZY:
        import importlib
        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'sim' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | {"api", "learn"})

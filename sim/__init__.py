"""Monte Carlo balance analysis for board games.

>>> from sim import simulate
>>> df = simulate("puluc", games=100_000, rules={"track": 9}, bots=("greedy", "random"))
"""
__version__ = "0.1.0"

__all__ = ["simulate", "__version__"]


def simulate(*args, **kwargs):
    """See :func:`sim.runner.simulate`."""
    from .runner import simulate as _simulate
    return _simulate(*args, **kwargs)

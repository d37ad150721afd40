"""The numba decorators the rules kernels use, and the small bit and array helpers they share.

Caching: every function here is cached on disk under a key of the content of the
project's jitted sources (``sim/jitcache.py``), so editing a helper in another module
recompiles the kernels that use it.

``kernel``: a function that allocates (state and scratch arrays are made once per
chunk).  ``helper``: everything else, the chunk's entry point included (Python calls it
with the arrays it or a kernel made).  Both are cached on disk (compile once, load in
each worker) and use numpy's error model (no division-by-zero checks: the kernels
guard their divisions, and the conservation audits would show a slip).

Cold compile: numba optimises and emits the machine code of every jitted function
together with the code of everything it calls (the callees' code is linked in and
optimised once more), so each layer of calls between the entry point and the bots
costs the whole game's code again; the game, round and turn loops are therefore
``helper_inline`` in the entry point (Balam's cold compile 213 s -> about 150 s of
CPU).

``helper`` is compiled without numba's reference counting (``_nrt=False``).  A helper
only reads and writes arrays its caller owns, so counting references to them is
pure cost, and it was most of the cost: in the Balam kernel, with about twenty array
arguments per call, atomic increments and decrements took about 60% of the run time
(measured with ``perf`` and a symbol map).  Without them the same games (bit for bit,
checked by hashing the rows of every bot and rules mix) run 2.4x faster.  A helper
that tried to allocate would fail to compile, loudly, rather than leak.

Every function is compiled ``nogil=True``: a chunk's games run without Python's lock, so
the chunks of a run play in threads of one process (``sim.parallel.default_backend``), two
threads as fast as two worker processes, with no worker start-up and no copying of the
columns back.
"""
import numpy as np
from numba import config, types
from numba.core.registry import CPUDispatcher

from . import jitcache  # (the cache keyed on source content: before any decorator)

jitcache.check_numba()


class _Dispatcher(CPUDispatcher):
    """A dispatcher that compiles a jitted function called from jitted code for the
    plain types of its arguments, never for literal ones.

    numba types a call ``f(x, 0)`` by compiling ``f`` for ``Literal[int](0)``, and a
    variable that starts at ``0`` and later holds an ``int64`` for both types in turn:
    each such call site compiled the whole callee again (Maya's rollout four times, its
    declare search three times: about a third of Maya's cold compile).  The code is the
    same either way (the helpers do not branch on literal values)."""

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                         {k: types.unliteral(v) for k, v in kws.items()})

    def enable_caching(self):
        # the project's cache: keyed on what the code reads, and it survives a damaged
        # entry or an unwritable cache directory (sim/jitcache.py)
        self._cache = jitcache.function_cache(self.py_func)


def _jit(**options):
    """``njit(cache=True, **options)`` with the dispatcher above: every jitted function
    of the package is made here, so each one is cached the project's way."""
    def wrap(func):
        if config.DISABLE_JIT:
            return func
        disp = _Dispatcher(py_func=func, locals={},
                           targetoptions=dict(options, nopython=True, nogil=True, boundscheck=None))
        disp.enable_caching()
        return disp
    return wrap


kernel = _jit(error_model="numpy")
helper = _jit(error_model="numpy", _nrt=False)
#: a small helper called in hot loops, inlined into its callers by numba: a call with
#: a dozen array arguments (each passed as seven words) costs more than the body
helper_inline = _jit(error_model="numpy", _nrt=False, inline="always")
#: numba's defaults (Python's error model, reference counting), cached the project's way;
#: ``inlined`` is inlined into its callers by numba (``sim/rng.py``'s stream helpers)
plain = _jit()
inlined = _jit(inline="always")
#: a helper with one call site (a bot's once-a-turn planners, and the helpers only they
#: call): typed on its own and inlined by LLVM (``forceinline``: the ``alwaysinline``
#: attribute) rather than by numba.
#: numba's type inference grows faster than linearly with a function's size, and a
#: caller that inlines a dozen planners is one very large function: Balam's heuristic
#: turn took 73 s of its 260 s cold compile.  A plain call would cost run time (each
#: array argument passes as seven words; Balam's merchant was 30% slower with these
#: planners called).  For the small helpers of the inner loops numba's own inlining
#: measured faster than LLVM's (Balam's merchant about 12%), so they stay ``helper_inline``.
helper_fused = _jit(error_model="numpy", _nrt=False, forceinline=True)


@helper_inline
def popcount(x):
    """Number of set bits of ``x`` as a 64-bit word, branch-free."""
    u = np.uint64(x)
    u = u - ((u >> np.uint64(1)) & np.uint64(0x5555555555555555))
    u = (u & np.uint64(0x3333333333333333)) + ((u >> np.uint64(2)) & np.uint64(0x3333333333333333))
    u = (u + (u >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((u * np.uint64(0x0101010101010101)) >> np.uint64(56))


@helper_inline
def copy_into(dst, src):
    """``dst[:] = src`` for two same-length 1-d arrays, as a loop: numba lowers the
    array-to-array slice assignment only with reference counting, which helpers lack."""
    for i in range(dst.shape[0]):
        dst[i] = src[i]

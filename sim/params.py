"""Declared, validated parameters: rule parameters of a game and bot settings.

A game declares each parameter once, with its default (the rulebook's value),
what values it allows and what it means.  Everything a user types goes through
:func:`resolve`, which fills in defaults, parses strings, checks ranges and
rejects unknown names with the closest known name as a suggestion.
"""
from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping


class UsageError(ValueError):
    """Bad input from the user: shown as one line, exit status 2."""


class ParamError(UsageError):
    pass


ROLES = ("rule", "variant", "reading", "horizon", "data", "analysis")

_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}


@dataclass(frozen=True)
class Param:
    """One parameter.

    kind: ``int``, ``float``, ``bool``, ``choice``, ``intlist`` (comma
    separated integers; ``choices`` may hold named presets) or ``file`` (a path,
    or a named built-in data file listed in ``choices``).
    """

    name: str
    default: Any
    help: str
    kind: str = "int"
    lo: float | None = None
    hi: float | None = None
    choices: tuple = ()
    source: str = ""  # the rulebook section the parameter comes from
    #: what the parameter is, for `sim rules`, `sim robust` and `sim tune`:
    #: "rule"       a rule of the rulebook (its value is the rulebook's);
    #: "variant"    a variant the rulebook itself offers (nine-space board, lengthened game);
    #: "reading"    a reading of a rule the rulebook leaves ambiguous or silent, or an
    #:              assumption where it is silent (fair lots, a horizon's scoring):
    #:              ``alternatives`` lists the other values worth testing;
    #: "horizon"    the cap that makes every game end (not a rule of the game);
    #: "data"       a data file (board, deck, dice) holding assumed contents;
    #: "analysis"   an analysis switch, not a rule (card impact's neutral cards).
    role: str = "rule"
    #: for a reading: the other values of the reading, as the user would type them
    alternatives: tuple = ()
    #: old names still accepted (``--set cap=100`` for ``horizon``)
    aliases: tuple = ()

    def __post_init__(self):
        if self.role not in ROLES:  # a declaration error, caught by the conformance test
            raise ValueError(f"parameter '{self.name}': role must be one of {ROLES}, not {self.role!r}")

    def other_readings(self) -> tuple:
        """For a reading: the alternatives to its default (declared, or else the other
        choices of a choice or bool parameter)."""
        if self.alternatives:
            return tuple(self.alternatives)
        if self.kind == "choice":
            return tuple(c for c in self.choices if c != self.default)
        if self.kind == "bool":
            return (not self.default,)
        return ()

    def allowed(self) -> str:
        if self.kind == "bool":
            return "true | false"
        if self.kind == "choice":
            return " | ".join(str(c) for c in self.choices)
        if self.kind == "intlist":
            pre = " | ".join(str(c) for c in self.choices)
            rng = f"integers {self._range()}" if self.lo is not None or self.hi is not None else "integers"
            return (pre + " | " if pre else "") + f"comma-separated {rng}"
        if self.kind == "file":
            pre = " | ".join(str(c) for c in self.choices)
            return (pre + " | " if pre else "") + "path to a file"
        return f"{self.kind} {self._range()}".strip()

    def _range(self) -> str:
        if self.lo is None and self.hi is None:
            return ""
        lo = "-inf" if self.lo is None else _fmt(self.lo)
        hi = "inf" if self.hi is None else _fmt(self.hi)
        return f"{lo}..{hi}"

    def parse(self, raw: Any) -> Any:
        """Turn ``raw`` (a string from the command line or a Python value) into a valid value."""
        name = self.name
        try:
            if self.kind == "int":
                value = _to_int(raw)
            elif self.kind == "float":
                value = float(raw)
                if not math.isfinite(value):
                    raise ValueError
            elif self.kind == "bool":
                if isinstance(raw, bool):
                    value = raw
                elif str(raw).strip().lower() in _TRUE:
                    value = True
                elif str(raw).strip().lower() in _FALSE:
                    value = False
                else:
                    raise ValueError
            elif self.kind == "choice":
                value = str(raw).strip().lower() if isinstance(raw, str) else raw
                if value not in self.choices:
                    hint = _suggest(str(value), [str(c) for c in self.choices])
                    raise ParamError(
                        f"parameter '{name}' must be one of {self.allowed()}, not {raw!r}{hint}")
            elif self.kind == "intlist":
                if isinstance(raw, str) and raw.strip().lower() in self.choices:
                    value = raw.strip().lower()
                else:
                    items = raw.split(",") if isinstance(raw, str) else list(raw)
                    value = tuple(_to_int(x) for x in items)
                    if not value:
                        raise ValueError
                    for v in value:
                        self._check_range(v)
            elif self.kind == "file":
                value = str(raw)
            else:  # pragma: no cover - declaration error
                raise AssertionError(f"unknown kind {self.kind}")
        except ParamError:
            raise
        except (TypeError, ValueError):
            raise ParamError(f"parameter '{name}' takes {self.allowed()}, not {raw!r}") from None
        if self.kind in ("int", "float"):
            self._check_range(value)
        return value

    def _check_range(self, value):
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise ParamError(
                f"parameter '{self.name}' must be in {self._range()}, not {_fmt(value)}")


def _fmt(x) -> str:
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x)


def _to_int(raw) -> int:
    if isinstance(raw, bool):
        raise ValueError
    if isinstance(raw, (int,)):
        return int(raw)
    if isinstance(raw, float):
        if raw.is_integer():
            return int(raw)
        raise ValueError
    s = str(raw).strip().replace("_", "")
    try:
        return int(s)
    except ValueError:
        f = float(s)
        if not f.is_integer():
            raise
        return int(f)


def _suggest(word: str, options: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.5)
    return f" (did you mean '{close[0]}'?)" if close else ""


def resolve(declared: Iterable[Param], given: Mapping[str, Any] | None, what: str = "parameter",
            owner: str = "") -> dict[str, Any]:
    """Defaults overlaid with ``given`` (parsed and checked), in declaration order."""
    if given is not None and not isinstance(given, Mapping):  # "track=9" or a list: not NAME -> VALUE pairs
        raise ParamError(f"{what}s must be given as NAME -> VALUE pairs (a dict such as {{'track': 9}}), "
                         f"not {given!r}"[:200])
    declared = list(declared)
    by_name = {p.name: p for p in declared}
    alias = {a: p.name for p in declared for a in p.aliases}
    out = {p.name: p.default for p in declared}
    seen: dict[str, str] = {}
    for key, raw in (given or {}).items():
        k = str(key).strip().lower().replace("-", "_")
        k = alias.get(k, k)
        if k in seen:
            raise ParamError(f"{what} '{k}' is given twice (as '{seen[k]}' and '{key}')")
        seen[k] = str(key)
        if k not in by_name:
            where = f" of {owner}" if owner else ""
            known = ", ".join(by_name) or "none"
            raise ParamError(f"unknown {what} '{key}'{where}{_suggest(k, by_name)}; known: {known}")
        out[k] = by_name[k].parse(raw)
    return out


def parse_assignments(items: Iterable[str], what: str = "--set") -> dict[str, str]:
    """``["track=9", "exit=pile"]`` -> ``{"track": "9", "exit": "pile"}``."""
    out: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise UsageError(f"{what} takes NAME=VALUE, not {item!r}")
        k, v = item.split("=", 1)
        k = k.strip()
        if not k:
            raise UsageError(f"{what} takes NAME=VALUE, not {item!r}")
        out[k] = v.strip()
    return out

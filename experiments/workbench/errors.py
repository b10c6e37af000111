"""Errors as the CLI words them: one line, and which field of a form it is about."""

from __future__ import annotations

import re


class FormError(ValueError):
    """Bad input in a form: ``field`` is the form field the message goes beside ("" for the
    form as a whole)."""

    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.field = field


def user_errors() -> tuple[type[BaseException], ...]:
    """The errors the experiments layer raises for input a user typed (the ones the CLI turns
    into its ``error:`` line)."""
    from experiments.analysis.knobs import KnobError
    from experiments.analysis.metrics import MetricError
    from experiments.running.runner import TooManyGamesError
    from experiments.running.spec import SpecError
    from experiments.storage.outdir import OutDirError
    from simcore.rules_data import RulesError

    return (FormError, RulesError, KnobError, MetricError, OutDirError, TooManyGamesError,
            SpecError, KeyError, ValueError)


def message(exc: BaseException) -> str:
    """The CLI's text of an error (``experiments.cli.message``: a KeyError's own words)."""
    if isinstance(exc, KeyError) and exc.args:
        return str(exc.args[0])
    return str(exc)


def one_line(exc: BaseException) -> str:
    """An error as one line; an unexpected one is named by its type, never a traceback."""
    if isinstance(exc, user_errors()):
        text = message(exc)
    else:
        text = f"{type(exc).__name__}: {exc}"
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    return "; ".join(lines) if lines else type(exc).__name__


_KEY = re.compile(r"key '([^']+)'")


def field_of(exc: BaseException, keys: set[str] | None = None) -> str:
    """The form field an error is about: a FormError's own, else the rules key the message
    names (``set:KEY``), a strategy parameter (``strategy``), or "" (the whole form)."""
    if isinstance(exc, FormError):
        return exc.field
    text = message(exc)
    for key in _KEY.findall(text):
        if key.startswith("strategy."):
            return "strategy"
        if keys is None or key in keys:
            return f"set:{key}"
    if "strategy" in text and ("not known" in text or "strategy '" in text):
        return "strategy"
    return ""

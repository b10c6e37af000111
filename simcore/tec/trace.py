"""Tiny Epic Cthulhu: one game in plain words (filled in below)."""

from __future__ import annotations


def format_events(ev, rec, config, seed, index) -> str:
    return "\n".join(str(list(e)) for e in ev)

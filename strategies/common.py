"""Helpers any strategy may use: choices over a legal mask (kept in ``simcore.kernels``, where
the step engine's driver uses them too)."""

from __future__ import annotations

from simcore.kernels import count_legal, first_legal, legal_bits, uniform_legal

__all__ = ["count_legal", "first_legal", "legal_bits", "uniform_legal"]

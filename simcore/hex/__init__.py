"""Cthulhu Boardgame (BookRanger's print-and-play hex wargame), on the step engine."""

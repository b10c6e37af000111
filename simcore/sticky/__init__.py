"""Sticky Cthulhu: a real-time dexterity race, modelled with player skill profiles."""

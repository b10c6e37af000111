"""Tiny Epic Cthulhu: the cooperative flagship (Wheel of Madness, tentacle bag, two phases)."""

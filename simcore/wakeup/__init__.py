"""Wake Up, Cthulhu!: 2-4 players and solitaire, on the step engine."""

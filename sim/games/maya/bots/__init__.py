"""Maya's bots, one module per family: ``random``, ``greedy`` (two-player greedy and the
three/four-player task bot), ``search`` (two-player alpha-beta, three/four-player
look-ahead task bot)."""

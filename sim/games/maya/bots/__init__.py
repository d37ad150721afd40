"""Maya's bots, one module per family: ``random``, ``greedy`` (two-player greedy and the
three/four-player task bot), ``search`` (two-player alpha-beta) and ``mcts`` (the
three/four-player search: determinized Monte Carlo over the task bot's play-outs)."""

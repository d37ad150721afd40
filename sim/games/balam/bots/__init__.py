"""The Balam bots: one module per family (random, heuristic) and the heuristic's values."""

"""Puluc's bots, one module each: random, greedy, search."""

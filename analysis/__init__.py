"""Metrics, statistics, plots and reports over the runner's results columns."""

"""Experiments: run configurations, sweeps and strategy comparisons; statistics and reports."""

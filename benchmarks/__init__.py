"""Start-up benchmarks: `python -m benchmarks` (see benchmarks/startup.py)."""

"""The fidelity benchmark: summary alone vs pins + summary, with a real model.

``python -m benchmarks.fidelity`` (or ``make fidelity``); see ``__main__`` for the
options and the README section "Fidelity with a real model" for the method and results.
"""

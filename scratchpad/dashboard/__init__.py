"""The open-items dashboard: a Datasette app over a Scratchpad database.

:mod:`~scratchpad.dashboard.queries` holds the canned queries (over the SQL views of
:mod:`scratchpad.store.views`), :mod:`~scratchpad.dashboard.cells` how record values,
attributes and ages are shown, :mod:`~scratchpad.dashboard.plugin` the Datasette hooks
(an entry point, so any Datasette beside Scratchpad loads them) and
:mod:`~scratchpad.dashboard.serve` what ``scratchpad serve`` runs. Datasette comes with
the ``dashboard`` extra; only the plugin and the server import it.
"""

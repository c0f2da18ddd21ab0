"""The ``/felt-admin`` command groups, one module per job; ``cogs/admin.py`` joins them."""

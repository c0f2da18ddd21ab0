"""Felt's adapters: the table host, the Discord front, the terminal front and the `felt` CLI."""

"""Test package: lets mypy and pytest name these modules by their dotted path."""

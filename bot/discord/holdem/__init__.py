"""The Discord front of Hold'em tables: presenter, buttons, custom_ids, formatting, input checks.

The cog (``bot/discord/cogs/holdem.py``) wires these to the table host (``bot/holdem``).
"""

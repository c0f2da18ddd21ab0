"""Felt's cogs: one module per feature, each with ``async def setup(bot: FeltBot)``.

Every module here (not starting with ``_``) is loaded when the bot starts, before the commands
are synced; adding a feature is adding a module.
"""

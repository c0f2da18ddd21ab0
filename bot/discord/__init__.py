"""The Discord front: the bot (``client``), its command tree and error routing (``tree``,
``errors``), replies that respect Discord's acknowledgement rules (``replies``), command sync
(``sync``), logging (``logs``), the process runner (``runner``) and the cogs (``cogs``).

Nothing here holds game rules or SQL: cogs parse and check who is asking, then call the table
host or storage, and render what comes back.
"""

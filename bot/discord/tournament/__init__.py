"""The Discord front of tournaments: the lobby (registration, start) and its messages."""

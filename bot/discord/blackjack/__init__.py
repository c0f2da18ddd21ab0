"""The Blackjack front on Discord: custom ids, buttons, what the table message says, and the
presenter that sends it (the commands are in ``bot.discord.cogs.blackjack``)."""

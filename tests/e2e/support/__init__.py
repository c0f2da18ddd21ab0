"""What the end-to-end tests run on: the bot against the fake Discord, stepped time, stacked
decks, drivers that act as members, and the privacy check."""

"""A minimal toy game, its own folder with one registry entry: the proof that a game is
a folder and an entry, and that the app runs it without naming it."""

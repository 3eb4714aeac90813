"""The table's journal: an append-only, keyed SQLite record of every event, its rows,
checkpoint, set of files, and the reads and views of it."""

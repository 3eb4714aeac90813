"""The rules and the table: sans-I/O, apart from the journal file."""

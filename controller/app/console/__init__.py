"""The dealer's and surveillance's pages: the web server, its sign-in and the staff's PIN
gate, its schema and static files."""

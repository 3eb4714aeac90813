"""Baccarat (punto banco) on the game kernel: one folder and one registry entry (issue 17).

The New Zealand Gazette's baccarat division is known to us only by its definitions pages
(docs/rules/baccarat.md); the Table of Play is the universal one, and
everything the NZ text we have does not fix is a casino setting (`rules.BaccaratRules`)
with the conventional default, each marked in docs/baccarat.md.
"""

"""The running table: the controller loop, the devices, the journal's files, snapshots,
the checks before a start."""

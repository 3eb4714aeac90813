"""The wire protocol spoken by shoe and reader firmware: bytes in, messages out. No I/O."""

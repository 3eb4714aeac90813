"""Everything that touches an OS device: serial ports, USB, GPIO."""

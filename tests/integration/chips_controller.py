"""A table controller with a chip reader, in its own process, for test_chips_power_cut:
`tablectl run --sim gpio` as `controller.app.run` starts it, with the config's rules given
chip readers and the settlement check (issue 18), and the chip reader at the URL given (a
simulated reader in the test's process, which outlives a killed controller and resends
what was not acknowledged, as a real one does).

    python chips_controller.py CONFIG READER_URL
"""

from __future__ import annotations

import signal
import sys
import threading

from controller.app.config import load_config
from controller.app.demo_chips import attach_chip_reader, with_chip_readers
from controller.app.devices import shoe_resume
from controller.app.table import RunningTable


def main(config_path: str, reader_url: str) -> int:
    config = with_chip_readers(load_config(config_path))
    table = RunningTable(config, simulate="gpio")
    resume = shoe_resume(table.journal, "chips")  # read before the controller thread runs
    table.start()
    driver = attach_chip_reader(table, reader_url, resume)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait()
    table.stop()
    driver.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))

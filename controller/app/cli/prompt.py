"""Asking the person at the terminal for a secret (a PIN), and what a prompt does when they
stop: Ctrl-D (the input ends) or Ctrl-C is one line saying so, never a traceback, and
nothing is written. Without a terminal to ask on (a pipe, a service) the command says to
give the secret on standard input instead of reading it, echoed, from the pipe.
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Callable

from controller.errors import TableError

Ask = Callable[[str], str]


class PromptEnded(TableError):
    """The prompt got no answer: the input ended, the person pressed Ctrl-C, or there is no
    terminal. ``exit_code`` is what the command exits with (130 for Ctrl-C, as a shell
    reports a program stopped by SIGINT); ``asked``: the question is on the screen, so the
    line saying why ends it first."""

    def __init__(self, message: str, exit_code: int, *, asked: bool = True) -> None:
        super().__init__(message)
        self.exit_code = exit_code
        self.asked = asked


def has_terminal() -> bool:
    """True when this process has a terminal to ask on (getpass asks on /dev/tty)."""
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return False
    os.close(fd)
    return True


def terminal_getpass(question: str) -> str:
    """`getpass.getpass` on the terminal, refused (not echoed from a pipe) without one."""
    if not has_terminal():
        raise PromptEnded(
            "no terminal to ask on: give it on standard input with --stdin", 2, asked=False
        )
    return getpass.getpass(question)


def ask_hidden(question: str, ask: Ask = terminal_getpass) -> str:
    """The answer to ``question``, typed without echo; `PromptEnded` when there is none."""
    try:
        return ask(question)
    except EOFError:
        raise PromptEnded("no answer: the input ended (Ctrl-D); nothing done", 1) from None
    except KeyboardInterrupt:
        raise PromptEnded("stopped at the prompt (Ctrl-C); nothing done", 130) from None

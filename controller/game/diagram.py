"""A game's state diagram (Mermaid), drawn from its machine's own states and transitions.

Each game's ``diagram`` module writes the picture into its docs page, and a test compares
the committed page with a fresh rendering, so the picture cannot drift from the code
(CONTRIBUTING.md, transitions). The machine is built here as the games build theirs
(`controller.game.machine.PhaseModel`: ``auto_transitions=False``,
``ignore_invalid_triggers=False``), so the picture shows no transition the table lacks.
transitions' diagrams extension with ``graph_engine="mermaid"`` needs no Graphviz.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from transitions.extensions.diagrams import GraphMachine

__all__ = ["mermaid"]


class _Model:
    """What the diagram machine runs on: nothing is ever triggered, only drawn."""


def mermaid(
    states: Sequence[str],
    transitions: Sequence[Mapping[str, Any]],
    initial: str,
    title: str,
    *,
    show_conditions: bool = False,
) -> str:
    """The Mermaid ``stateDiagram-v2`` source of the machine, titled ``title`` (no fence)."""
    machine = GraphMachine(
        model=_Model(),
        states=list(states),
        transitions=[dict(t) for t in transitions],
        initial=initial,
        auto_transitions=False,
        ignore_invalid_triggers=False,
        graph_engine="mermaid",
        title=title,
        show_conditions=show_conditions,
    )
    lines = str(machine.get_graph().draw(None)).rstrip().splitlines()
    # transitions 0.9.3 writes the title as a bare front-matter line and "Class" for the
    # node styles; Mermaid's front matter wants "title: ..." and the keyword is "class".
    return "\n".join(
        f"title: {title}" if line == title else re.sub(r"^(\s*)Class ", r"\1class ", line)
        for line in lines
    )

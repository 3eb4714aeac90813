"""The kernel's Mermaid drawing: the front matter's title and the ``class`` keyword are
what Mermaid reads (transitions 0.9.3 writes neither so), for every game's docs page."""

from __future__ import annotations

from controller.game.diagram import mermaid

STATES = ["open", "closed"]
TRANSITIONS = [{"trigger": "close", "source": "open", "dest": "closed"}]


def test_the_title_is_mermaid_front_matter_and_class_is_lower_case() -> None:
    source = mermaid(STATES, TRANSITIONS, "open", "A door")
    lines = source.splitlines()
    assert lines[:3] == ["---", "title: A door", "---"]
    assert "stateDiagram-v2" in lines
    assert not [line for line in lines if line.lstrip().startswith("Class ")]
    assert "  class open s_active" in lines and "  class closed s_default" in lines
    assert "  open --> closed: close" in lines


def test_conditions_are_drawn_only_when_asked() -> None:
    guarded = [{**TRANSITIONS[0], "conditions": "latched"}]
    assert "[latched]" in mermaid(STATES, guarded, "open", "A door", show_conditions=True)
    assert "[latched]" not in mermaid(STATES, guarded, "open", "A door")

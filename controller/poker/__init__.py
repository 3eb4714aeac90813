"""New Zealand draw poker (Division 13, section 11): the sans-I/O rules layer."""

from controller.poker.evaluator import Category, HandValue, best_value, hand_value

__all__ = ["Category", "HandValue", "best_value", "hand_value"]

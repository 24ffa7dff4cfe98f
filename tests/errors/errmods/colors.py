"""An Enum and an IntEnum class in a module of their own, imported by
tests/errors/enum_no_member.py (a copy of tests/exec/mods/colors.py)."""
from enum import Enum, IntEnum


class Color(Enum):
    red = 1
    green = 2
    blue = 3


class Shape(IntEnum):
    circle = 10
    square = 20

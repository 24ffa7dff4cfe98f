"""An Enum and an IntEnum class in a module of their own, imported by
tests/exec/enum_import.py and tests/errors/enum_no_member.py."""
from enum import Enum, IntEnum


class Color(Enum):
    red = 1
    green = 2
    blue = 3


class Shape(IntEnum):
    circle = 10
    square = 20

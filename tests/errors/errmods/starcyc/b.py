"""Star-imports its own package, whose __init__ star-imports it back."""
from errmods.starcyc import *

b_VALUE = 1

"""Star-imports its own package, whose __init__ star-imports it back."""
from errmods.starcyc import *

c_VALUE = 1

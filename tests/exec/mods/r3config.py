"""Settings of tests/exec/host_constants_more.py, read by its kernel."""
import numpy as np

PARAMS = {'gain': 2.0, 'steps': 3, 'limits': {'lo': -1.0, 'hi': 1.0}}
DTYPE = np.float32

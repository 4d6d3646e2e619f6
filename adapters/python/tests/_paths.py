"""Puts the kit, the toys and the Python example's library on sys.path."""

import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(_HERE, ".."), os.path.join(_HERE, "toys"),
                os.path.join(_HERE, "..", "..", "..", "examples", "python")]

"""Where the generator's own inputs live, from this package's location."""
import os

# scripts/
SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The repository root.
ROOT = os.path.dirname(SCRIPTS)
# scripts/data/: the hand-written tables (api-operations, arn-namespaces).
DATA = os.path.join(SCRIPTS, "data")

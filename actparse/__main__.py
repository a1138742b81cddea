"""``python -m actparse``: the same command as ``actparse``."""

from actparse.cli import main

main()

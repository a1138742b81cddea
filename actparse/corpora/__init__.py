"""The corpora actparse ships, one folder or module each.

:mod:`actparse.registry` knows them by name and imports a corpus only when it is asked for."""

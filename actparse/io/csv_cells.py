"""Text cells of CSV a spreadsheet opens safely: the OWASP advice against CSV injection.

A spreadsheet runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula
(``=HYPERLINK(...)``), and some also one that begins with a tab or a carriage return.
:func:`guard` puts a ``'`` before such a text cell (a spreadsheet shows the text, without
the ``'``); :func:`unguard` takes it off again when actparse reads a CSV.

The ``'`` actparse adds is told from the text's own by what follows it: a cell that
begins with one or more ``'`` and then a trigger character gets one more ``'`` when
written, and loses one when read. So ``=1+1`` is written ``'=1+1`` and ``'=1+1`` is
written ``''=1+1``; each reads back as it was, and any other cell (``'quoted'``, ``it's``)
is written and read as it is. A spreadsheet that saves such a table as CSV drops the
``'`` it shows none of, which reads the same.
"""

from __future__ import annotations

import re

__all__ = ["TRIGGERS", "guard", "unguard"]

#: The first characters a spreadsheet may take for a formula (OWASP, "CSV Injection").
TRIGGERS = "=+-@\t\r"
#: A cell whose text, after any ``'``, begins with a trigger: it is guarded.
_GUARDED = re.compile(r"'*[" + re.escape(TRIGGERS) + "]")


def guard(cell: str) -> str:
    """The text of a cell as written to CSV: a ``'`` before one a spreadsheet would run."""
    return "'" + cell if _GUARDED.match(cell) else cell


def unguard(cell: str) -> str:
    """The text of a CSV cell as read: the ``'`` :func:`guard` added taken off."""
    return cell[1:] if cell.startswith("'") and _GUARDED.match(cell, 1) else cell

"""The root of actparse's errors: :class:`ActparseError`, and the classes the lowest layers raise.

Everything actparse raises because of something outside the code (the input, a rule or
lexicon file, the output, the environment, an option) is an :class:`ActparseError`, so
``except actparse.ActparseError`` catches every such problem and nothing else, and the
command line prints it as one line (exit status 2). Any other exception is a bug in
actparse. Each subclass also keeps the built-in base it had before the root existed
(``InputError`` is a ``ValueError``, ``MissingExtra`` an ``ImportError``...), so code
that catches those still works.

The classes of the upper layers are defined where they are raised and derive from
:class:`ActparseError`: :class:`~actparse.engine.rulefiles.RuleError`,
:class:`~actparse.io.destination.OutputError`, :class:`~actparse.io.batch.WorkerDied`,
:class:`~actparse.io.deadline.RecordTimedOut`,
:class:`~actparse.html_report.MissingExtra`. This module imports nothing of actparse:
every layer may raise its classes.
"""

from __future__ import annotations

__all__ = [
    "ActparseError",
    "InputError",
    "NothingToScore",
    "OptionError",
    "PluginError",
    "RegistryError",
]


class ActparseError(Exception):
    """The root of every error that is not a bug in actparse.

    Errors that are the input's, a rule file's, the output's, an option's or the environment's
    fault. The message says what is wrong in words, naming the file and line where there is one."""


class InputError(ActparseError, ValueError):
    """Input that cannot be read.

    A file, a line or a record that is not what its format needs (not JSON, a required field missing
    or of the wrong type). Raised by the readers, :func:`actparse.read_records` and the labelling
    calls; the message names the source, the line and the problem (the field, for a malformed
    record)."""


class NothingToScore(InputError):
    """Input with nothing an evaluation can score: no dialogues, or no reference acts.

    ``actparse eval`` stops on it; the HTML report shows the acts without figures and says
    why. Any other :class:`InputError` of an evaluation is an error for both."""


class OptionError(ActparseError, ValueError):
    """An option's value is not one the call accepts, or options that cannot go together.

    For example ``--per-turn`` with ``--on-error keep``, ``skip="sometimes"``, or one
    cross-validation fold. The message names the option and what it accepts."""


class RegistryError(ActparseError, ValueError):
    """A corpus or format name that is not registered, or one already taken.

    Taken means a corpus registered with a name or a format name already in use
    (:mod:`actparse.registry`). The message lists the known names or says which is taken."""


class PluginError(RegistryError, TypeError):
    """An ``actparse_corpora`` entry point whose object is not a Corpus.

    The object is neither a :class:`~actparse.registry.Corpus` nor a callable returning one: the
    plug-in package is broken, and the message names its entry point."""

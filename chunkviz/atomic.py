"""Every file chunkviz writes, written atomically, and a write that fails told in one line.

``write_atomically`` writes to a temporary file in the target's own folder and moves it into
place with ``os.replace``: a reader sees the previous file or the new one, never half of one,
and a failure (a full disk, a read-only folder, a target that is a folder) leaves the previous
file or nothing. Results files, the embedding cache, ``schema --out`` and ``shapes --out`` all
write through it. ``write_error`` names the real cause of an ``OSError`` (full disk, read-only,
path too long, a folder where a file should be) and its fix.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from chunkviz.errors import Message, OutputError, Whole

#: errno -> catalogue key of the cause (``error.write_<key>``); anything else is ``other``.
_CAUSES = {
    errno.ENOSPC: "full",
    errno.EDQUOT: "full",
    errno.EFBIG: "full",
    errno.EACCES: "read_only",
    errno.EPERM: "read_only",
    errno.EROFS: "read_only",
    errno.ENAMETOOLONG: "too_long",
    errno.EISDIR: "is_folder",
    errno.ENOTDIR: "not_folder",
}


def cause(exc: OSError) -> Message:
    """The cause of a failed write, fix included (``error.cause_<key>``)."""
    key = _CAUSES.get(exc.errno or 0, "other")
    return Message(f"cause_{key}", reason=exc.strerror or str(exc))


def write_error(path: str | Path, exc: OSError, option: str = "") -> OutputError:
    """The one-line refusal of writing ``path`` after ``exc``, its cause and fix named.

    Args:
        path: What could not be written (a file or a folder).
        exc: The error the system gave.
        option: The option that named it (``--out``, ``--cache-dir``), or "".
    """
    from chunkviz.textio import shown_path

    where = Whole(f"{option} {shown_path(path)}" if option else shown_path(path))
    return OutputError("write_failed", path=where, cause=cause(exc))


def write_atomically(path: str | Path, data: bytes, option: str = "") -> None:
    """Write ``data`` to ``path``: a temporary file in the same folder, then ``os.replace``.

    The file is readable by everyone the folder lets read it (mode 0644; ``mkstemp`` makes
    0600), as results files are meant to be shared.

    Raises:
        OutputError: The file cannot be written; the previous file, if any, is untouched and no
            temporary file is left.
    """
    target = Path(path)
    tmp: str | None = None
    try:
        if target.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:80]}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())  # on disk before it replaces the previous file
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        raise write_error(target, exc, option) from None
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)

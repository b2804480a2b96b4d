"""Every file chunkviz writes is written atomically, and a failed write is one line (issue 41,
finding 15): results, schema and shapes ``--out``, the embedding cache."""

from __future__ import annotations

import errno
import os

import pytest

from chunkviz.atomic import write_atomically
from chunkviz.cli import main
from chunkviz.errors import OutputError, ResultsFileError


def _disk_full(monkeypatch):
    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)


@pytest.mark.parametrize("command", ["schema", "shapes"])
def test_out_naming_a_folder_is_one_line_and_leaves_nothing(tmp_path, capsys, command):
    assert main([command, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.count("\n") == 1
    assert "it is a folder; give the name of a file in it" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["schema", "shapes"])
def test_a_full_disk_keeps_the_previous_file_whole(tmp_path, capsys, monkeypatch, command):
    out = tmp_path / "generated.txt"
    out.write_text("previous", encoding="utf-8")
    _disk_full(monkeypatch)
    assert main([command, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "the disk is full" in err
    assert "Traceback" not in err
    assert out.read_text(encoding="utf-8") == "previous"
    assert [p.name for p in tmp_path.iterdir()] == ["generated.txt"]  # no temporary file left


def test_a_written_file_replaces_the_previous_one(tmp_path):
    out = tmp_path / "deep" / "x.json"
    write_atomically(out, b"one")
    write_atomically(out, b"two")
    assert out.read_bytes() == b"two"
    assert oct(out.stat().st_mode & 0o777) == "0o644"
    assert [p.name for p in out.parent.iterdir()] == ["x.json"]


def test_an_embedding_cache_on_a_full_disk_is_one_error_and_no_shard(tmp_path, monkeypatch):
    # An e5-small bench whose cache filled its disk ended in an OSError traceback after 48 s.
    from chunkviz.retrieval.cache import EmbeddingCache
    from tests.retrieval.test_cache import CountingBackend

    cache = EmbeddingCache(tmp_path)
    _disk_full(monkeypatch)
    with pytest.raises(OutputError, match="the disk is full"):
        cache.encode(CountingBackend(), ["a", "b"], "document")
    assert not list(tmp_path.rglob("*.npz"))
    assert not list(tmp_path.rglob("*.tmp"))


def test_a_read_only_folder_is_told_so_not_to_shorten_its_path(tmp_path, monkeypatch):
    # A misleading message: a read-only cache folder was told to use "a shorter path".
    import tempfile

    from chunkviz.eval.results import check_writable

    def read_only(*args, **kwargs):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    with pytest.raises(ResultsFileError) as info:
        check_writable(tmp_path, "--cache-dir")
    assert "it is read-only; choose a folder you can write to" in str(info.value)
    assert "shorter" not in str(info.value)

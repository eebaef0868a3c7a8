"""write_all writes every byte, however little each os.write takes."""

from __future__ import annotations

import os
import threading

from sitegen import writeall


def test_every_byte_through_writes_that_take_a_few(monkeypatch, tmp_path):
    calls = []
    real = os.write

    def short(fd, data):
        calls.append(len(data))
        return real(fd, bytes(data[:3]))

    monkeypatch.setattr(writeall.os, "write", short)
    path = tmp_path / "x"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT)
    try:
        writeall.write_all(fd, b"0123456789")
    finally:
        os.close(fd)
    assert path.read_bytes() == b"0123456789"
    assert calls == [10, 7, 4, 1]


def test_more_than_a_pipe_holds():
    data = os.urandom(300_000)  # a pipe takes 64 KB at a time
    read_end, write_end = os.pipe()
    got = bytearray()

    def read():
        while chunk := os.read(read_end, 65536):
            got.extend(chunk)

    reader = threading.Thread(target=read)
    reader.start()
    writeall.write_all(write_end, data)
    os.close(write_end)
    reader.join()
    os.close(read_end)
    assert bytes(got) == data

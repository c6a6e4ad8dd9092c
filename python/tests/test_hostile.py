"""Hostile input: short buffers, wrong dtypes, huge sizes, unknown names. Each is an
NvsurfError (a ValueError) of one line naming the field, the value and the rule."""

import os

import numpy as np
import pytest

import nvsurf

TEX = dict(format="RGBA8_UNORM", size=(64, 64))


def one_line(e: pytest.ExceptionInfo) -> str:
    msg = str(e.value)
    assert "\n" not in msg and msg
    return msg


def test_short_buffers():
    t = nvsurf.Texture("gm20b", **TEX)
    with pytest.raises(nvsurf.NvsurfError) as e:
        t.untile(bytes(t.size_bytes - 1))
    assert one_line(e) == f"texture dump holds {t.size_bytes - 1} bytes but {t.size_bytes} bytes are needed"
    with pytest.raises(nvsurf.NvsurfError, match="linear texture holds 0 bytes"):
        t.tile(b"")
    with pytest.raises(nvsurf.NvsurfError, match="encoded image holds 15 bytes but 16 bytes are needed"):
        nvsurf.decode("bc7", bytes(15), (4, 4))
    with pytest.raises(nvsurf.NvsurfError, match="offset 100 is past the end"):
        nvsurf.guess("gm20b", elem_size=4, size=(8, 8), data=bytes(10), offset=100)
    with pytest.raises(nvsurf.NvsurfError, match="surface dump holds"):
        nvsurf.untile_surface("gm20b", bytes(10), elem_size=4, size=(64, 64))
    with pytest.raises(nvsurf.NvsurfError, match="linear texture holds 3 bytes"):
        t.level_bytes(b"abc", 0, 0)
    with pytest.raises(nvsurf.NvsurfError, match="level 1 is outside"):
        t.subresource(1, 0)
    with pytest.raises(nvsurf.NvsurfError, match="layer -1 is out of range"):
        t.level_bytes(bytes(t.linear_size_bytes), 0, -1)


@pytest.mark.parametrize(
    "data,what",
    [
        (np.zeros(1 << 16, dtype=np.float32), "dtype float32"),
        (np.zeros(1 << 16, dtype=np.uint16), "dtype uint16"),
        ([0] * 16, "of type list"),
        ("abcd", "of type str"),
        (None, "of type NoneType"),
        (12, "of type int"),
    ],
)
def test_wrong_types_of_data(data, what):
    t = nvsurf.Texture("gm20b", **TEX)
    with pytest.raises(nvsurf.NvsurfError) as e:
        t.untile(data)
    assert what in one_line(e) and one_line(e).startswith("dump ")
    with pytest.raises(nvsurf.NvsurfError):
        nvsurf.decode("RGBA8_UNORM", data, (1, 1))
    with pytest.raises(nvsurf.NvsurfError):
        nvsurf.guess("gm20b", elem_size=4, size=(8, 8), data=data)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(elem_size=4, size=(2**32, 1)), r"size 4294967296 is out of range 0..=4294967295"),
        (dict(elem_size=4, size=(-1, 4)), r"size -1 is out of range"),
        (dict(elem_size=4, size=(10**30, 4)), r"size 1000000000000000000000000000000 is out of range"),
        (dict(elem_size=4, size=(1 << 30, 1 << 30)), r"."),
        (dict(elem_size=4, size=(65536, 65536, 65536), type="3d"), r"."),
        (dict(elem_size=2**40, size=(4, 4)), r"elem_size 1099511627776 is out of range"),
        (dict(elem_size=3, size=(4, 4)), r"elem_size 3 is not allowed"),
        (dict(elem_size=4, size=(64, 64), levels=100), r"levels 100 is out of range 1..=7"),
        (dict(elem_size=4, size=(64, 64), layers=-3), r"layers -3 is out of range"),
        (dict(elem_size=4, size=(4.5, 4)), r"size 4.5 is not an integer"),
        (dict(elem_size=4, size=(1, 2, 3, 4)), r"is not a tuple of 1 to 3 integers"),
        (dict(elem_size=4, size="64x64"), r"is not a tuple"),
        (dict(elem_size=4, format="bc7", size=(4, 4)), r"give format= or elem_size=, not both"),
        (dict(size=(4, 4)), r"give format=NAME or elem_size=BYTES"),
    ],
)
def test_bad_and_huge_sizes(kwargs, match):
    with pytest.raises(nvsurf.NvsurfError, match=match) as e:
        nvsurf.Texture("gh100", **kwargs)
    one_line(e)


def test_huge_threads_and_offsets():
    t = nvsurf.Texture("gm20b", **TEX)
    dump = bytes(t.size_bytes)
    with pytest.raises(nvsurf.NvsurfError, match=r"^threads 100000 is out of range 0\.\.=\d+ "):
        t.untile(dump, threads=100000)
    with pytest.raises(nvsurf.NvsurfError, match="offset"):
        nvsurf.guess("gm20b", elem_size=4, size=(8, 8), data=dump, offset=2**60)
    with pytest.raises(nvsurf.NvsurfError):
        nvsurf.decode("RGBA8_UNORM", bytes(16), (2**31, 2**31))


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: nvsurf.Texture("swtich", **TEX), r"^unknown gpu 'swtich' \(did you mean switch"),
        (lambda: nvsurf.Texture("gh100", format="bc99", size=(4, 4)), r"^unknown format 'bc99'"),
        (lambda: nvsurf.Texture("gh100", type="cubez", **TEX), r"^unknown texture type 'cubez'"),
        (lambda: nvsurf.Texture("gh100", gob="tegro", **TEX), r"gob"),
        (lambda: nvsurf.Texture("gh100", block_policy="fast", **TEX), r"fast"),
        (lambda: nvsurf.Texture("gh100", block_policy=(0, 9), **TEX), r"block_policy \(0, 9\) is not a tuple of 3"),
        (lambda: nvsurf.Texture("gh100", layout="tiledd", **TEX), r"^unknown layout 'tiledd'"),
        (lambda: nvsurf.decode("nope", b"", (1, 1)), r"^unknown format 'nope'"),
        (lambda: nvsurf.guess("gx999", elem_size=4, size=(8, 8), data=bytes(256)), r"^unknown gpu 'gx999'"),
        (lambda: nvsurf.layout("gh100", elem_size=4, size=(8, 8), binding="nowhere"), r"nowhere"),
        (lambda: nvsurf.address("gh100", (8, 0), elem_size=4, size=(8, 8)), r"x 8 is outside the surface"),
        (lambda: nvsurf.Texture("gh100", format="Z24_S8", size=(8, 8)), r"gob order"),
        (lambda: nvsurf.Texture("g80", format="bc7", size=(8, 8)), r"does not exist on"),
    ],
)
def test_unknown_names_and_refusals(call, match):
    with pytest.raises(nvsurf.NvsurfError, match=match) as e:
        call()
    one_line(e)


def test_long_values_are_shortened_like_the_cli():
    with pytest.raises(nvsurf.NvsurfError) as e:
        nvsurf.Texture("x" * 100_000, **TEX)
    msg = one_line(e)
    assert len(msg) < 400 and "characters)..." in msg


def test_threads_have_the_cli_limit():
    """threads= takes 0 (every core) to 4x the machine's cores, the CLI's --threads limit;
    more (1024 on a machine of fewer than 256 cores) is one line naming the field, the value
    and the rule, before any thread starts."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    t = nvsurf.Texture("gm20b", **TEX)
    dump = bytes(t.size_bytes)
    lin = t.untile(dump)
    for bad in (1024, 4 * 1024 * 1024, -1, 2**70):
        if bad == 1024 and 4 * cores >= 1024:
            continue
        with pytest.raises(ValueError) as e:
            t.untile(dump, threads=bad)
        msg = one_line(e)
        assert msg.startswith(f"threads {bad} is out of range 0..="), msg
        assert msg.endswith("(0 is every core; at most 4x the machine's cores)"), msg
        limit = int(msg.split("0..=")[1].split()[0])
        assert 4 <= limit <= 4 * os.cpu_count() and limit % 4 == 0, msg
    with pytest.raises(nvsurf.NvsurfError, match=r"^threads '2' is not an integer$"):
        t.untile(dump, threads="2")
    # The limit itself and 0 run, with the same bytes.
    limit = int(str(e.value).split("0..=")[1].split()[0])
    assert np.array_equal(t.untile(dump, threads=limit), lin)
    assert np.array_equal(t.tile(lin, threads=0), np.frombuffer(dump, dtype=np.uint8))

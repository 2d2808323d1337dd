"""runtime_proxy: the deadline the functions see is a date, as AWS sends it
(cargo lambda watch sends the timeout itself)."""

from runtime_proxy import absolute_deadline

NOW = 1_796_600_000_000


def test_a_relative_deadline_becomes_now_plus_it():
    assert absolute_deadline("600000", now_ms=NOW) == NOW + 600_000


def test_a_date_passes_unchanged():
    assert absolute_deadline(str(NOW + 5_000), now_ms=NOW) == NOW + 5_000
